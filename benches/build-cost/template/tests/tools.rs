use mcptest::prelude::*;

#[mcp_test(bin = "todo-server")]
async fn an_added_item_is_listed(mcp: McpClient) {
    mcp.call_tool("add_todo", json!({"title": "write tests"}))
        .await
        .assert_success()
        .text_eq("added #1: write tests");
    mcp.call_tool("list_todos", json!({}))
        .await
        .assert_success()
        .text_contains("[ ] write tests");
}

#[mcp_test(bin = "todo-server")]
async fn an_empty_title_is_a_tool_error(mcp: McpClient) {
    mcp.call_tool("add_todo", json!({"title": " "}))
        .await
        .assert_tool_error()
        .text_contains("needs a title");
}

#[mcp_test(bin = "todo-server")]
async fn stats_are_structured(mcp: McpClient) {
    mcp.call_tool("add_todo", json!({"title": "a"})).await.assert_success();
    mcp.call_tool("complete", json!({"index": 1})).await.assert_success();
    mcp.call_tool("stats", json!({}))
        .await
        .assert_success()
        .json_path_eq("$.done", json!(1));
}
