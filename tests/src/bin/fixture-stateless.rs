//! A server that conforms to 2025-11-25 and 2026-07-28 (stateless MCP), over
//! stdio or (`--http`) Streamable HTTP on 127.0.0.1.

fn main() -> std::process::ExitCode {
    mcptest_tests::stateless::main_with("fixture-stateless", false)
}
