// `shared` gives every test with the same configuration one server; a
// fixture (the key or a `Fixture` parameter) or a cassette needs one per test.
use mcptest::prelude::*;

#[mcp_test(server = "my-server", shared, fixture = "/tmp")]
async fn shared_with_a_fixture_key(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server", shared)]
async fn shared_with_a_fixture_parameter(mcp: McpClient, fixture: Fixture) {
    let _ = fixture;
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server", shared, cassette = "tests/cassettes/a.json")]
async fn shared_with_a_cassette(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(server = "my-server", shared = true)]
async fn shared_with_a_value(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

mcptest::suite!("ui", server = "my-server", shared, fixture = "/tmp");

fn main() {}
