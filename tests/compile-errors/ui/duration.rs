// `timeout` is checked when compiling: a number and a unit, more than zero.
use mcptest::prelude::*;

#[mcp_test(server = "my-server", timeout = "30")]
async fn no_unit(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server", timeout = "30 parsecs")]
async fn unknown_unit(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server", timeout = "0s")]
async fn zero(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server", timeout = 30)]
async fn not_a_string(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

fn main() {}
