// Values that are checked when compiling: each error is on the value.
use mcptest::prelude::*;

#[mcp_test(server = "my-server 'unclosed")]
async fn unbalanced_quote(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "")]
async fn empty_command(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(url = "127.0.0.1:3001/mcp")]
async fn url_without_scheme(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(bin = "target/debug/my-server")]
async fn bin_is_a_path(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(bin = "my-server", args = ["--port", 8080])]
async fn args_not_strings(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(bin = "my-server", args = "--stdio")]
async fn args_not_an_array(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(bin = "my-server", env(PORT = 8080))]
async fn env_value_not_a_string(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(bin = "my-server", env = "PORT=8080")]
async fn env_not_a_list(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server", flavor = "multi")]
async fn unknown_flavor(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server)]
async fn key_without_value(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

fn main() {}
