// A result nothing looks at is a warning (here denied to make it an error):
// a tool call, a list, a started call, a server never connected.
#![deny(unused_must_use)]

use mcptest::prelude::*;

#[mcp_test(server = "todo-server", timeout = "500ms")]
async fn adds(mcp: McpClient) {
    mcp.call_tool("add_todo", json!({"title": "x"})).await;
    mcp.list_tools().await.unwrap();
    mcp.start_tool_call("add_todo", json!({"title": "y"})).await.unwrap();
    Server::command("todo-server").timeout(std::time::Duration::from_secs(1));
}

fn main() {}
