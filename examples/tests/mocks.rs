//! Tour, part 4: the client's side, mocked — sampling, roots, elicitation.
//!
//! Some tools ask the client something in the middle of a call: a model's
//! completion (`sampling/createMessage`), the folders it shares
//! (`roots/list`), or a question for the user (`elicitation/create`). The
//! test decides the answers on the `Server` builder, and every request the
//! server made is recorded, with the answer it got, in `mcp.server_messages()`.

// rmcp marks sampling and roots deprecated (SEP-2577); servers still use them.
#![allow(deprecated)]

use mcptest::prelude::*;
use mcptest::rmcp::model::{CreateMessageResult, SamplingMessage};

// `setup` receives the `Server` the attribute built and returns it: the place
// for client mocks (and anything else the attribute does not spell).
fn with_a_model(server: Server) -> Server {
    server.sampling(Sampling::text("a shopping list").model("mock-llm"))
}

#[mcp_test(bin = "notes-server", setup = with_a_model)]
async fn sampling_answers_with_a_fixed_reply(mcp: McpClient) {
    mcp.call_tool(
        "add_note",
        json!({"title": "groceries", "body": "eggs, flour"}),
    )
    .await
    .assert_success();
    mcp.call_tool("summarize_note", json!({"title": "groceries"}))
        .await
        .assert_success()
        .text_eq("groceries: a shopping list");

    // What the server asked the model for, recorded with the mocked answer.
    mcp.server_messages()
        .seen("sampling/createMessage")
        .params_contain("sampling/createMessage", "eggs, flour");
}

// A mock can also compute its answer from the request.
fn with_an_echoing_model(server: Server) -> Server {
    server.sampling(Sampling::handler(|request| async move {
        let bytes = serde_json::to_string(&request.messages)
            .unwrap_or_default()
            .len();
        let reply = SamplingMessage::assistant_text(format!("{bytes} bytes of prompt"));
        Ok(CreateMessageResult::new(reply, "echo-model".into()))
    }))
}

#[mcp_test(bin = "notes-server", setup = with_an_echoing_model)]
async fn sampling_computed_from_the_request(mcp: McpClient) {
    mcp.call_tool("add_note", json!({"title": "t", "body": "b"}))
        .await
        .assert_success();
    mcp.call_tool("summarize_note", json!({"title": "t"}))
        .await
        .text_matches(r"^t: \d+ bytes of prompt$");
}

fn with_roots(server: Server) -> Server {
    server.roots(Roots::uris([
        "file:///home/ada/notes",
        "file:///tmp/export",
    ]))
}

#[mcp_test(bin = "notes-server", setup = with_roots)]
async fn roots_are_the_folders_the_client_shares(mcp: McpClient) {
    mcp.call_tool("shared_folders", json!({}))
        .await
        .assert_success()
        .text_eq("file:///home/ada/notes\nfile:///tmp/export");
}

// Elicitation: the user accepts (with the form's content) or declines.
fn user_confirms(server: Server) -> Server {
    server.elicitation(Elicitation::accept(json!({"confirm": true})))
}

fn user_declines(server: Server) -> Server {
    server.elicitation(Elicitation::decline())
}

#[mcp_test(bin = "notes-server", setup = user_confirms)]
async fn delete_all_goes_ahead_when_the_user_confirms(mcp: McpClient) {
    mcp.call_tool("add_note", json!({"title": "a", "body": "1"}))
        .await
        .assert_success();
    mcp.call_tool("delete_all", json!({}))
        .await
        .text_eq("deleted 1 notes");
    mcp.server_messages()
        .params_contain("elicitation/create", "Delete all 1 notes?");
}

#[mcp_test(bin = "notes-server", setup = user_declines)]
async fn delete_all_keeps_the_notes_when_the_user_declines(mcp: McpClient) {
    mcp.call_tool("add_note", json!({"title": "a", "body": "1"}))
        .await
        .assert_success();
    mcp.call_tool("delete_all", json!({}))
        .await
        .text_eq("kept 1 notes");
    mcp.call_tool("list_notes", json!({})).await.text_eq("a");
}

// With no mock, the client declares no such capability, and a server that
// asks anyway gets an error back: the tool reports it.
#[mcp_test(bin = "notes-server")]
async fn without_a_mock_the_request_is_refused(mcp: McpClient) {
    mcp.call_tool("shared_folders", json!({}))
        .await
        .assert_tool_error()
        .text_contains("the client has no roots");
}
