// `#[mcp_test]` makes the test; another test attribute is an error on it.
use mcptest::prelude::*;

#[mcp_test(server = "my-server")]
#[tokio::test]
async fn with_tokio_test(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server")]
#[test]
async fn with_test(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server")]
#[mcp_test(server = "other-server")]
async fn twice(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

fn main() {}
