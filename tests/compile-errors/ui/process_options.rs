// `args`, `env` and `cwd` configure a process; with `url` or `handler` they
// are errors that point at `setup` instead.
use mcptest::prelude::*;

#[mcp_test(url = "http://127.0.0.1:3001/mcp", env(TOKEN = "x"), cwd = "tests")]
async fn env_and_cwd_with_url(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(handler = Quiet, args = ["--stdio"])]
async fn args_with_handler(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[derive(Clone)]
struct Quiet;
impl mcptest::rmcp::ServerHandler for Quiet {}

fn main() {}
