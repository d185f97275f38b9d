//! Tour, part 1: `#[mcp_test]`, one fresh server per test.
//!
//! The attribute turns an `async fn` into an ordinary `#[test]`: it starts the
//! server, performs the MCP handshake, hands the test an [`McpClient`], and
//! stops and reaps the server when the test ends — also when it panics.
//! `cargo test NAME` filters these tests like any other.

use mcptest::prelude::*;
use mcptest_examples::Notes;

// `bin` names a `[[bin]]` of this package: the real `notes-server`
// executable, spoken to over stdio exactly as a client would.
#[mcp_test(bin = "notes-server")]
async fn a_saved_note_can_be_read_back(mcp: McpClient) {
    mcp.call_tool(
        "add_note",
        json!({"title": "groceries", "body": "eggs, flour"}),
    )
    .await
    .assert_success()
    .text_eq("saved \"groceries\"");

    mcp.call_tool("get_note", json!({"title": "groceries"}))
        .await
        .assert_success()
        .text_eq("eggs, flour");
}

// A tool that reports a problem answers with `isError: true`: the server is
// healthy, the tool said no. That is a different failure from a JSON-RPC
// error or a dead connection, and the checks keep them apart.
#[mcp_test(bin = "notes-server")]
async fn a_missing_note_is_a_tool_error_not_a_crash(mcp: McpClient) {
    mcp.call_tool("get_note", json!({"title": "nope"}))
        .await
        .assert_tool_error()
        .text_eq("no note titled \"nope\"");
    mcp.ping().await.unwrap(); // still answering
}

// `fixture` copies a directory afresh for each test; `{{fixture}}` in `args`
// (and `server`, `env`, `cwd`, `url`) is the copy. The copy is removed after
// a pass, and kept and printed after a failure. Ask for `fixture: Fixture`
// to read or write in it.
#[mcp_test(
    bin = "notes-server",
    args = ["--dir", "{{fixture}}"],
    fixture = "tests/fixtures/notes",
    timeout = "10s"
)]
async fn notes_are_files_in_a_copy_of_the_fixture(mcp: McpClient, fixture: Fixture) {
    // The server read the fixture's files at start...
    mcp.call_tool("list_notes", json!({}))
        .await
        .text_eq("groceries\nideas");

    // ...and writes new notes beside them: in the copy, never in the source.
    mcp.call_tool("add_note", json!({"title": "todo", "body": "write tests"}))
        .await
        .assert_success()
        .file_contains("todo.txt", "write tests");
    assert_eq!(fixture.read_to_string("todo.txt").unwrap(), "write tests");
}

// A test may return `Result<(), E>` for any `E: Display`; `?` then fails the
// test with the error's message (which ends with the server's stderr).
#[mcp_test(bin = "notes-server")]
async fn a_test_can_return_a_result(mcp: McpClient) -> Result<(), mcptest::Error> {
    mcp.ping().await?;
    mcp.list_tools().await?.has("add_note").has("search");
    Ok(())
}

// `handler` hosts any rmcp `ServerHandler` in this process: no subprocess,
// microseconds per test, and breakpoints in the server's code work.
#[mcp_test(handler = Notes::new())]
async fn the_same_server_in_process(mcp: McpClient) {
    assert_eq!(mcp.server_info().name, "notes");
    mcp.call_tool("add_note", json!({"title": "fast", "body": "no process"}))
        .await
        .assert_success();
    mcp.call_tool("list_notes", json!({})).await.text_eq("fast");
}

// Without the attribute: build a `Server`, connect, and close when done
// (dropping the client closes it too, also on a panic).
#[tokio::test]
async fn the_same_without_the_attribute() -> Result<(), mcptest::Error> {
    let mcp = Server::program(env!("CARGO_BIN_EXE_notes-server"))
        .connect()
        .await?;
    mcp.call_tool("list_notes", json!({}))
        .await
        .assert_success();
    mcp.close().await;
    Ok(())
}
