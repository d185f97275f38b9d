// Package mcptest tests MCP (Model Context Protocol) servers from `go test`.
//
// It never speaks MCP itself: it starts the mcptest binary (`mcptest exec
// --connection-server`), speaks the coprocess protocol (version
// ProtocolVersion) over its stdin and stdout, and turns the answers into
// typed Go values, typed errors and subtests. The binary owns MCP, the
// suite formats, every check and the runner.
//
// A client test:
//
//	func TestAdd(t *testing.T) {
//		c := mcptest.Start(t, mcptest.Command("python3", "server.py"))
//		v, err := c.Call(context.Background(), "add", map[string]any{"a": 2, "b": 3})
//		if err != nil {
//			t.Fatal(err)
//		}
//		if !v.Success || v.Text != "5" {
//			t.Errorf("add(2, 3) = %q (success %v)", v.Text, v.Success)
//		}
//	}
//
// A suite, one subtest per test of the files:
//
//	func TestEvals(t *testing.T) {
//		mcptest.RunSuite(t, []string{"testdata/evals"},
//			mcptest.WithDefaultServer(mcptest.Command("python3", "server.py")))
//	}
//
// The binary is found through WithBinary, then MCPTEST_BIN, then `mcptest`
// on PATH. MCPTEST_CHECK_FRAMES=1 (or WithCheckFrames) makes the binary
// validate every frame against the coprocess JSON Schema.
package mcptest
