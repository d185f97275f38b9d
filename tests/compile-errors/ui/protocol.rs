// `protocol` is an MCP version: a date written YYYY-MM-DD.
use mcptest::prelude::*;

#[mcp_test(server = "my-server", protocol = "latest")]
async fn not_a_date(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server", protocol = "2025-13-01")]
async fn no_such_month(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server", protocol = "2025/11/25")]
async fn wrong_separator(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

fn main() {}
