// A key given twice is reported on the second one.
use mcptest::prelude::*;

#[mcp_test(server = "my-server", timeout = "1s", timeout = "2s")]
async fn timeout_twice(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(bin = "a", bin = "b")]
async fn bin_twice(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server", env(A = "1"), env(B = "2"))]
async fn env_twice(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server", env(A = "1", A = "2"))]
async fn env_variable_twice(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

fn main() {}
