use mcptest::prelude::*;

#[mcp_test(bin = "todo-server")]
async fn a_listing_reads_well(mcp: McpClient) {
    mcp.call_tool("add_todo", json!({"title": "call mum"})).await.assert_success();
    let listing = mcp.call_tool("list_todos", json!({})).await;
    assert_snapshot!(listing, @r#"
    content:
      - text: "1. [ ] call mum"
        type: text
    isError: false
    "#);
}

#[mcp_test(bin = "todo-server")]
async fn the_prompt_names_open_items(mcp: McpClient) {
    mcp.call_tool("add_todo", json!({"title": "call mum"})).await.assert_success();
    let prompt = mcp.get_prompt("plan_day", json!({"mood": "calm"})).await.unwrap();
    prompt.text_contains("call mum");
}
