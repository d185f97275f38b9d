//! Checks on prompts, resources, lists, completions and notifications,
//! against `fixture-everything` in-process: one passing case through the
//! fluent form, one failing case with the exact failure text pinned.

use std::time::Duration;

use mcptest::{
    CompletionRef, LogLevel, McpClient, Reply, Request, Server, ServerMessages,
    expect::{self, Check, Subject},
    rmcp::model::{Role, Tool},
};
use mcptest_tests::everything::Everything;
use serde_json::{Value, json};

async fn everything() -> McpClient {
    Server::in_process(Everything::default())
        .connect()
        .await
        .expect("connect in-process")
}

/// The failure text of `check` on `subject`, which must fail.
#[track_caller]
fn failure<S: Subject, C: Check<S>>(subject: &S, check: C) -> String {
    match expect::run(subject, &check) {
        Ok(()) => panic!("the check passed, but this case must fail"),
        Err(failure) => failure.to_string(),
    }
}

// ---- prompts ----

#[tokio::test]
async fn prompt_message_count_and_roles() {
    let mcp = everything().await;
    let review = mcp
        .get_prompt(
            "code_review",
            json!({"language": "rust", "code": "fn main() {}"}),
        )
        .await
        .unwrap();
    review
        .message_count(2)
        .roles_eq([Role::User, Role::Assistant]);
    insta::assert_snapshot!("message_count", failure(&review, expect::message_count(1)));
    insta::assert_snapshot!(
        "roles_eq",
        failure(&review, expect::roles_eq([Role::User, Role::User]))
    );
}

#[tokio::test]
async fn prompt_text() {
    let mcp = everything().await;
    let greeting = mcp
        .get_prompt("greeting", json!({"name": "Ada", "style": "pirate"}))
        .await
        .unwrap();
    greeting
        .text_eq("Ahoy, Ada!")
        .text_contains("Ada")
        .text_matches("^Ahoy")
        .not_empty();
    insta::assert_snapshot!(
        "prompt_text_eq",
        failure(&greeting, expect::text_eq("Hello, Ada!"))
    );
}

// ---- resources ----

#[tokio::test]
async fn resource_text_and_mime_type() {
    let mcp = everything().await;
    let text = mcp.read_resource("fixture://static/text").await.unwrap();
    text.contents_count(1)
        .text_only()
        .mime_type_eq("text/plain")
        .text_eq("Hello from fixture-everything.");
    insta::assert_snapshot!(
        "contents_count",
        failure(&text, expect::contents_count(2..))
    );
    insta::assert_snapshot!(
        "mime_type_eq",
        failure(&text, expect::mime_type_eq("application/json"))
    );
    insta::assert_snapshot!(
        "text_only",
        failure(
            &mcp.read_resource("fixture://static/blob").await.unwrap(),
            expect::text_only()
        )
    );
    insta::assert_snapshot!(
        "resource_text_contains",
        failure(&text, expect::text_contains("Goodbye"))
    );
}

#[tokio::test]
async fn resource_blob() {
    let mcp = everything().await;
    let blob = mcp.read_resource("fixture://static/blob").await.unwrap();
    blob.blob_only()
        .mime_type_eq("application/octet-stream")
        .not_empty();
    let text = mcp.read_resource("fixture://static/text").await.unwrap();
    insta::assert_snapshot!("blob_only", failure(&text, expect::blob_only()));
    // Text checks on a blob say there is no text.
    insta::assert_snapshot!(
        "resource_blob_text_eq",
        failure(&blob, expect::text_eq("x"))
    );
}

// ---- lists ----

#[tokio::test]
async fn tool_list_has_and_lacks() {
    let mcp = everything().await;
    let tools = mcp.list_tools().await.unwrap();
    tools.has("add").has("weather").lacks("bonus");
    insta::assert_snapshot!("has", failure(&tools, expect::has("subtract")));
    insta::assert_snapshot!("has_case", failure(&tools, expect::has("Echo")));
    insta::assert_snapshot!("lacks", failure(&tools, expect::not(expect::has("add"))));
}

#[tokio::test]
async fn prompt_and_resource_lists_have_exactly() {
    let mcp = everything().await;
    let prompts = mcp.list_prompts().await.unwrap();
    prompts.has_exactly(["code_review", "greeting", "simple"]);
    insta::assert_snapshot!(
        "has_exactly",
        failure(
            &prompts,
            expect::has_exactly(["simple", "greeting", "farewell"])
        )
    );
    let resources = mcp.list_resources().await.unwrap();
    resources
        .has("fixture://static/json")
        .lacks("fixture://numbers/13");
    let templates = mcp.list_resource_templates().await.unwrap();
    templates.has_exactly(["fixture://items/{id}"]);
    insta::assert_snapshot!(
        "has_template",
        failure(&templates, expect::has("fixture://things/{id}"))
    );
}

#[tokio::test]
async fn input_schemas_valid() {
    let mcp = everything().await;
    let tools = mcp.list_tools().await.unwrap();
    tools.input_schemas_valid();

    // No fixture serves a broken schema, so this list is built by hand.
    let schema = |v: Value| v.as_object().cloned().unwrap();
    let broken = vec![
        Tool::new("ok", "fine", schema(json!({"type": "object"}))),
        Tool::new(
            "stringly",
            "not an object",
            schema(json!({"type": "string"})),
        ),
        Tool::new(
            "typo",
            "bad keyword value",
            schema(json!({"type": "object", "required": "name"})),
        ),
    ];
    let raw = json!({ "tools": broken });
    let list = Reply::from_parts(Request::new("tools/list", Value::Null), broken, raw);
    insta::assert_snapshot!(
        "input_schemas_valid",
        failure(&list, expect::input_schemas_valid())
    );
}

#[tokio::test]
async fn annotations_contain() {
    let mcp = everything().await;
    let tools = mcp.list_tools().await.unwrap();
    tools
        .annotations_contain("read_file", json!({"readOnlyHint": true}))
        .annotations_contain("write_file", json!({"destructiveHint": true}));
    insta::assert_snapshot!(
        "annotations_contain",
        failure(
            &tools,
            expect::annotations_contain("write_file", json!({"readOnlyHint": true}))
        )
    );
    insta::assert_snapshot!(
        "annotations_contain_none",
        failure(
            &tools,
            expect::annotations_contain("echo", json!({"readOnlyHint": true}))
        )
    );
}

// ---- completions ----

#[tokio::test]
async fn completion_values() {
    let mcp = everything().await;
    let done = mcp
        .complete(CompletionRef::prompt("code_review"), "language", "r")
        .await
        .unwrap();
    done.values_eq(["rust", "ruby"])
        .values_contain("ruby")
        .has_more(false);
    insta::assert_snapshot!(
        "values_eq",
        failure(&done, expect::values_eq(["ruby", "rust"]))
    );
    insta::assert_snapshot!(
        "values_contain",
        failure(&done, expect::values_contain("python"))
    );
    insta::assert_snapshot!("has_more", failure(&done, expect::has_more(true)));
}

// ---- notifications ----

/// A log with three progress notifications and two log messages.
async fn busy_log() -> (McpClient, ServerMessages) {
    let mcp = everything().await;
    mcp.call_tool("progress", json!({"steps": 3, "delay_ms": 1}))
        .await
        .assert_success();
    mcp.call_tool(
        "log",
        json!({"level": "warning", "message": "disk almost full", "count": 2}),
    )
    .await
    .assert_success();
    let log = mcp.server_messages();
    log.wait_for_count(
        "two log messages",
        |m| m.method == "notifications/message",
        2,
        Duration::from_secs(10),
    )
    .await
    .unwrap();
    (mcp, log)
}

#[tokio::test]
async fn notification_count() {
    let (_mcp, log) = busy_log().await;
    log.notification_count(5).notification_count(1..);
    insta::assert_snapshot!(
        "notification_count",
        failure(&log, expect::notification_count(..=2))
    );
}

#[tokio::test]
async fn seen_and_not_seen() {
    let (_mcp, log) = busy_log().await;
    log.seen("notifications/progress")
        .not_seen("notifications/tools/list_changed");
    insta::assert_snapshot!(
        "seen",
        failure(&log, expect::seen("notifications/resources/updated"))
    );
    insta::assert_snapshot!(
        "not_seen",
        failure(&log, expect::not(expect::seen("notifications/message")))
    );
}

#[tokio::test]
async fn params_contain() {
    let (_mcp, log) = busy_log().await;
    log.params_contain("notifications/message", "almost full")
        .params_contain("notifications/progress", "step 2 of 3");
    insta::assert_snapshot!(
        "params_contain",
        failure(
            &log,
            expect::params_contain("notifications/message", "disk full")
        )
    );
}

#[tokio::test]
async fn progress_count_and_log_levels() {
    let (_mcp, log) = busy_log().await;
    log.progress_count(3).log_level_seen(LogLevel::Warning);
    insta::assert_snapshot!("progress_count", failure(&log, expect::progress_count(4..)));
    insta::assert_snapshot!(
        "log_level_seen",
        failure(&log, expect::log_level_seen(LogLevel::Error))
    );
}
