// A fixture directory that does not exist (relative to the crate) is an error
// on the path.
use mcptest::prelude::*;

#[mcp_test(server = "my-server --root {{fixture}}", fixture = "tests/fixtures/does-not-exist")]
async fn missing(mcp: McpClient, fixture: Fixture) {
    mcp.ping().await.unwrap();
    let _ = fixture.path();
}

#[mcp_test(server = "my-server", fixture = "Cargo.toml")]
async fn a_file(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

fn main() {}
