//! The checks a tool author reaches for first: every tool's schemas are
//! valid, and structured results match the declared output schema.

use mcptest::prelude::*;

#[mcp_test(bin = "todo-server")]
async fn every_tool_declares_valid_schemas(mcp: McpClient) {
    mcp.list_tools().await.unwrap().input_schemas_valid();
}

#[mcp_test(bin = "todo-server")]
async fn stats_match_their_output_schema(mcp: McpClient) {
    mcp.call_tool("stats", json!({})).await.assert_success().matches_output_schema();
    mcp.call_tool("add_todo", json!({"title": "a"})).await.assert_success();
    mcp.call_tool("stats", json!({})).await.assert_success().matches_output_schema();
}
