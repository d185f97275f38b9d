// Expressions the attribute passes through are type-checked where they are
// written: the handler, the setup function, and a binary that does not exist.
use mcptest::prelude::*;

struct NotAHandler;

#[mcp_test(handler = NotAHandler)]
async fn handler_is_not_a_server_handler(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

fn setup_with_the_wrong_signature(timeout: u64) -> u64 {
    timeout
}

#[mcp_test(server = "my-server", setup = setup_with_the_wrong_signature)]
async fn setup_is_not_a_builder_function(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(bin = "no-such-binary")]
async fn unknown_binary(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

fn main() {}
