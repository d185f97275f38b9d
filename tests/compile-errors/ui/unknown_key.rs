// An unknown key is reported on the key, with the list of valid keys.
use mcptest::prelude::*;

#[mcp_test(server = "my-server", severs = 2)]
async fn misspelled(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server", tokio::flavor = "multi_thread")]
async fn a_path_is_not_a_key(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

fn main() {}
