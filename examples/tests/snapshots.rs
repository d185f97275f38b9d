//! Tour, part 3: snapshots with insta.
//!
//! `mcptest::assert_snapshot!` stores a result as YAML (keys sorted, so a
//! server reordering fields changes nothing), named after the test, in
//! `tests/snapshots/`, with the call in the header. A changed answer fails
//! the test and shows a diff; `cargo insta review` accepts or rejects it.
//! Under `CI=true` a missing snapshot fails instead of being written.

use mcptest::prelude::*;

// The whole result — content blocks, `isError`, structured content — in one
// reviewed file: `snapshots/snapshots__search_result.snap`.
#[mcp_test(bin = "notes-server")]
async fn search_result(mcp: McpClient) {
    mcp.call_tool("add_note", json!({"title": "rust", "body": "ownership"}))
        .await
        .assert_success();
    let found = mcp.call_tool("search", json!({"query": "own"})).await;
    assert_snapshot!(found);
}

// The tool list is the server's contract with every client: a snapshot of it
// catches a renamed argument or a changed description in review.
#[mcp_test(bin = "notes-server")]
async fn tool_list(mcp: McpClient) -> Result<(), mcptest::Error> {
    let tools = mcp.list_tools().await?;
    assert_json_snapshot!(tools);
    Ok(())
}

// Inline snapshots live in the test itself; `cargo insta review` fills them in.
#[mcp_test(bin = "notes-server")]
async fn a_tool_error_inline(mcp: McpClient) {
    let missing = mcp.call_tool("get_note", json!({"title": "nope"})).await;
    assert_snapshot!(missing, @r#"
    content:
      - text: "no note titled \"nope\""
        type: text
    isError: true
    "#);
}
