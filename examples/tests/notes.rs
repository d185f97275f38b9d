//! The tests the author of the notes server writes with mcptest.

use mcptest::prelude::*;
use mcptest_examples::Notes;

// Each test gets a fresh `notes-server` process (the real binary, over stdio,
// exactly as a client would start it), stopped and reaped when the test ends.
#[mcp_test(bin = "notes-server")]
async fn a_saved_note_can_be_read_back(mcp: McpClient) {
    let saved = mcp
        .call_tool(
            "add_note",
            json!({"title": "groceries", "body": "eggs, flour"}),
        )
        .await;
    assert!(saved.is_success(), "{saved:?}");
    assert_eq!(saved.text(), "saved \"groceries\"");

    let read = mcp
        .call_tool("get_note", json!({"title": "groceries"}))
        .await;
    assert_eq!(read.text(), "eggs, flour");
}

#[mcp_test(bin = "notes-server")]
async fn a_missing_note_is_a_tool_error_not_a_crash(mcp: McpClient) {
    let read = mcp.call_tool("get_note", json!({"title": "nope"})).await;
    assert!(read.is_tool_error(), "{read:?}");
    assert_eq!(read.text(), "no note titled \"nope\"");
    // The server is still healthy afterwards.
    mcp.ping().await.unwrap();
}

#[mcp_test(bin = "notes-server")]
async fn bad_arguments_are_reported_back_as_a_tool_error(mcp: McpClient) {
    let call = mcp.call_tool("add_note", json!({"title": 42})).await;
    // rmcp answers arguments that do not fit the input schema with
    // `isError: true`, so a model can read the problem and retry.
    assert!(call.is_tool_error(), "{call:?}");
    assert!(call.text().contains("expected a string"), "{}", call.text());
}

#[mcp_test(bin = "notes-server")]
async fn search_returns_structured_matches(mcp: McpClient) {
    mcp.call_tool("add_note", json!({"title": "rust", "body": "ownership"}))
        .await;
    mcp.call_tool("add_note", json!({"title": "go", "body": "goroutines"}))
        .await;
    let found = mcp.call_tool("search", json!({"query": "OWNER"})).await;
    assert_eq!(
        found.structured(),
        Some(&json!({"query": "OWNER", "matches": ["rust"]}))
    );
}

#[mcp_test(bin = "notes-server")]
async fn every_tool_is_listed_with_an_object_schema(mcp: McpClient) {
    let tools = mcp.list_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "add_note",
            "delete_note",
            "get_note",
            "list_notes",
            "search"
        ]
    );
    for tool in tools.iter() {
        assert_eq!(
            tool.input_schema.get("type"),
            Some(&json!("object")),
            "{}",
            tool.name
        );
    }
}

#[mcp_test(bin = "notes-server")]
async fn notes_are_resources_too(mcp: McpClient) {
    mcp.call_tool("add_note", json!({"title": "todo", "body": "write tests"}))
        .await;
    let resources = mcp.list_resources().await.unwrap();
    assert_eq!(resources[0].uri, "note://todo");
    let read = mcp.read_resource("note://todo").await.unwrap();
    let text = serde_json::to_value(&read.contents[0]).unwrap();
    assert_eq!(text["text"], json!("write tests"));

    let missing = mcp.read_resource("note://nothing").await.unwrap_err();
    assert_eq!(missing.json_rpc_code(), Some(-32002), "{missing}");
}

#[mcp_test(bin = "notes-server")]
async fn the_summarize_prompt_quotes_the_note(mcp: McpClient) {
    mcp.call_tool(
        "add_note",
        json!({"title": "idea", "body": "a test tool for MCP"}),
    )
    .await;
    let prompt = mcp
        .get_prompt("summarize", json!({"title": "idea"}))
        .await
        .unwrap();
    let message = serde_json::to_value(&prompt.messages[0]).unwrap();
    assert_eq!(
        message["content"]["text"],
        json!("Summarize this note in one sentence:\n\na test tool for MCP")
    );
    let missing = mcp.get_prompt("summarize", json!({})).await.unwrap_err();
    assert_eq!(missing.json_rpc_code(), Some(-32602));
}

/// The same server hosted in-process: no subprocess, microseconds per test,
/// and breakpoints in the server code work.
#[mcp_test(handler = Notes::new())]
async fn in_process_hosting_runs_the_same_handler(mcp: McpClient) {
    assert_eq!(mcp.server_info().name, "notes");
    mcp.call_tool("add_note", json!({"title": "fast", "body": "no process"}))
        .await;
    let listed = mcp.call_tool("list_notes", json!({})).await;
    assert_eq!(listed.text(), "fast");
}
