use mcptest::prelude::*;
use todo_server::TodoServer;

#[mcp_test(handler = TodoServer::new())]
async fn completes_in_process(mcp: McpClient) {
    mcp.call_tool("add_todo", json!({"title": "a"})).await.assert_success();
    mcp.call_tool("complete", json!({"index": 2}))
        .await
        .assert_tool_error()
        .text_eq("no item #2");
}

#[mcp_test(handler = TodoServer::new())]
async fn lists_the_tools(mcp: McpClient) {
    let tools = mcp.list_tools().await.unwrap();
    tools.has("add_todo").has("stats");
}
