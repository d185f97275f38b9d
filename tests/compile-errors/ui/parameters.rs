// The parameters are `(McpClient)` or `(McpClient, Fixture)`.
use mcptest::prelude::*;

#[mcp_test(server = "my-server")]
async fn no_client() {}

#[mcp_test(server = "my-server")]
async fn wrong_type(mcp: String) {
    let _ = mcp;
}

#[mcp_test(server = "my-server")]
async fn a_reference(mcp: &McpClient) {
    let _ = mcp;
}

#[mcp_test(server = "my-server")]
async fn swapped(fixture: Fixture, mcp: McpClient) {
    let _ = (fixture, mcp);
}

#[mcp_test(server = "my-server")]
async fn wrong_second(mcp: McpClient, dir: std::path::PathBuf) {
    let _ = (mcp, dir);
}

#[mcp_test(server = "my-server")]
async fn too_many(mcp: McpClient, fixture: Fixture, extra: u32) {
    let _ = (mcp, fixture, extra);
}

#[mcp_test(server = "my-server")]
async fn generic<T>(mcp: McpClient) {
    let _ = mcp;
}

fn main() {}
