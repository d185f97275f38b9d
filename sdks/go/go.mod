module mcptest.invalid/mcptest

go 1.19
