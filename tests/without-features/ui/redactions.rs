// Selector redactions without the `redactions` feature.
use mcptest::prelude::*;

#[mcp_test(server = "my-server")]
async fn redacted(mcp: McpClient) {
    let call = mcp.call_tool("now", json!({})).await;
    assert_snapshot!(call, { ".time" => "[time]" });
}

fn main() {}
