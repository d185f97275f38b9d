// Exactly one of server, bin, url and handler says where the server comes from.
use mcptest::prelude::*;

#[mcp_test]
async fn no_arguments(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(timeout = "5s")]
async fn options_but_no_source(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server --stdio", url = "http://127.0.0.1:3001/mcp")]
async fn two_sources(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(bin = "my-server", url = "http://127.0.0.1:3001/mcp", handler = Quiet)]
async fn three_sources(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[derive(Clone)]
struct Quiet;
impl mcptest::rmcp::ServerHandler for Quiet {}

fn main() {}
