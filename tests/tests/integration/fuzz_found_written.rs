//! Written by `mcptest fuzz` against the fixture-chaos binary --planted-crash (seed 7): one test per case
//! that crashed, hung or broke the protocol, sending the smallest input that
//! failed the same way. Each passes once the server answers the call (a result,
//! isError or a JSON-RPC error).

use mcptest::prelude::*;

/// ingest: tags: 1000 items (crash)
#[mcp_test(bin = "fixture-chaos", args = ["--planted-crash"])]
async fn ingest_tags_1000_items(mcp: McpClient) {
    let call = mcp.call_tool("ingest", json!({"tags":["","","",""],"title":"e"})).await;
    assert!(
        !matches!(call.outcome(), ToolOutcome::Failed(_)),
        "the server did not answer: {call:?}"
    );
}

/// ingest: tags: mixed items (crash)
#[mcp_test(bin = "fixture-chaos", args = ["--planted-crash"])]
async fn ingest_tags_mixed_items(mcp: McpClient) {
    let call = mcp.call_tool("ingest", json!({"tags":[1,"a",null,{},[]],"title":"example"})).await;
    assert!(
        !matches!(call.outcome(), ToolOutcome::Failed(_)),
        "the server did not answer: {call:?}"
    );
}
