// Streamable HTTP without the `http` feature: each way to reach for it
// names the feature.
use mcptest::prelude::*;

#[mcp_test(url = "http://127.0.0.1:3001/mcp")]
async fn by_attribute(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

fn by_hand() -> Server {
    Server::url("http://127.0.0.1:3001/mcp")
}

fn with_a_token() -> Server {
    Server::command("my-server").client_credentials("id", "secret")
}

fn main() {
    let _ = (by_hand(), with_a_token());
}
