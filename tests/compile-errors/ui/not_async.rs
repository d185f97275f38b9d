// The function must be `async`; the error points at `fn`.
use mcptest::prelude::*;

#[mcp_test(server = "my-server")]
fn forgot_async(mcp: McpClient) {
    let _ = mcp;
}

fn main() {}
