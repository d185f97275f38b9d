//! Tour, part 2: fluent checks, and what a failing one prints.
//!
//! Every result has check methods that read like the sentence they test. Each
//! returns the result again, so checks chain, and each panics with
//! `#[track_caller]`: a failure points at the test's own line and says what
//! was called, what was expected and what came back.

use mcptest::prelude::*;
// mcptest's `assert_eq!`/`assert_ne!`: a mismatch prints a diff.
// (Imported by name: a glob cannot shadow std's macros of the same name.)
use mcptest::{assert_eq, assert_ne};

/// Two notes to check against.
async fn two_notes(mcp: &McpClient) {
    for (title, body) in [("rust", "ownership and borrowing"), ("go", "goroutines")] {
        mcp.call_tool("add_note", json!({"title": title, "body": body}))
            .await
            .assert_success();
    }
}

// Text: equality (trimmed), containment, order, regular expressions.
#[mcp_test(bin = "notes-server")]
async fn text_checks(mcp: McpClient) {
    two_notes(&mcp).await;
    mcp.call_tool("get_note", json!({"title": "rust"}))
        .await
        .assert_success()
        .text_contains("borrowing")
        .text_not_contains("garbage")
        .text_in_order(["ownership", "borrowing"])
        .text_matches(r"^\w+ and \w+$");
}

// Structured content: whole-value equality, subset, JSONPath (RFC 9535),
// and the tool's declared output schema, if it has one.
#[mcp_test(bin = "notes-server")]
async fn structured_checks(mcp: McpClient) {
    two_notes(&mcp).await;
    mcp.call_tool("search", json!({"query": "OWNER"}))
        .await
        .structured_eq(json!({"query": "OWNER", "matches": ["rust"]}))
        .structured_contains(json!({"matches": ["rust"]}))
        .json_path_eq("$.matches[0]", json!("rust"))
        .json_path_count("$.matches[*]", 1);
}

// Lists, prompts and resources have checks of their own.
#[mcp_test(bin = "notes-server")]
async fn list_prompt_and_resource_checks(mcp: McpClient) -> Result<(), mcptest::Error> {
    mcp.list_tools()
        .await?
        .has("add_note")
        .lacks("drop_database")
        .input_schemas_valid(); // every inputSchema is a valid JSON Schema

    two_notes(&mcp).await;
    mcp.get_prompt("summarize", json!({"title": "go"}))
        .await?
        .message_count(1)
        .text_contains("goroutines");
    mcp.read_resource("note://go")
        .await?
        .mime_type_eq("text/plain")
        .text_eq("goroutines");
    Ok(())
}

// Every check is also a value in `expect`. `.check(..)` returns a `Result`
// instead of panicking, and a tuple of checks reports every failure at once.
#[mcp_test(bin = "notes-server")]
async fn checks_as_values(mcp: McpClient) {
    let read = mcp.call_tool("get_note", json!({"title": "nope"})).await;
    read.assert((expect::tool_error(), expect::text_contains("nope")));

    let failure = read.check(expect::success()).unwrap_err();
    assert!(failure.to_string().contains("no note titled"), "{failure}");

    // `not` and `any_of` combine checks.
    read.assert(expect::not(expect::text_contains("saved")));
    read.assert(expect::any_of((
        expect::text_contains("missing"),
        expect::text_contains("no note"),
    )));
}

// `SoftChecks` collects failures across several results and reports them
// together when finished.
#[mcp_test(bin = "notes-server")]
async fn soft_checks_report_everything_at_the_end(mcp: McpClient) {
    two_notes(&mcp).await;
    let rust = mcp.call_tool("get_note", json!({"title": "rust"})).await;
    let go = mcp.call_tool("get_note", json!({"title": "go"})).await;
    let mut soft = SoftChecks::new();
    soft.check(&rust, expect::text_contains("ownership"));
    soft.check(&go, expect::text_contains("goroutines"));
    soft.finish();
}

// With `mcptest::assert_eq!`, a plain assertion on a value (here the JSON
// a tool returned) that fails prints a diff, as a failed check does.
#[mcp_test(bin = "notes-server")]
async fn plain_assertions_on_values(mcp: McpClient) {
    two_notes(&mcp).await;
    let found = mcp.call_tool("search", json!({"query": "o"})).await;
    assert_eq!(
        found.structured(),
        Some(&json!({"query": "o", "matches": ["go", "rust"]}))
    );
    assert_ne!(found.structured(), None);
}

#[test]
fn a_failing_assert_eq_shows_a_diff() {
    let expected = json!({"query": "o", "matches": ["go", "rust"]});
    let actual = json!({"query": "o", "matches": ["go"]});
    let panic = std::panic::catch_unwind(|| assert_eq!(expected, actual)).unwrap_err();
    let message = panic
        .downcast_ref::<String>()
        .expect("assert_eq! panics with a formatted message");
    // The pretty-printed values line by line, as a check's failure shows
    // them: `-` marks the left's lines, `+` the right's, the rest is shared.
    let message = without_color(message);
    assert!(
        message.starts_with("assertion `left == right` failed\ndiff (- left, + right):"),
        "{message}"
    );
    assert!(
        message.contains("\n  -        String(\"rust\"),\n"),
        "{message}"
    );
    assert!(
        message.contains("\n           String(\"go\"),\n"),
        "{message}"
    );
    assert!(message.contains("\"rust\""), "{message}");
}

/// `text` without the color codes a terminal gets (`ESC [ ... m`).
fn without_color(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('\u{1b}') {
        plain.push_str(&rest[..start]);
        rest = rest[start..].split_once('m').map_or("", |(_, after)| after);
    }
    plain.push_str(rest);
    plain
}

// What a failure looks like: this test is expected to fail, and its message
// (shown below) is what `cargo test` prints when a check does not hold.
//
// ```text
// call:     tools/call get_note {"title":"rust"}
// expected: text equals "ownership"
// actual:   text "ownership and borrowing"
// ```
#[mcp_test(bin = "notes-server")]
#[should_panic(expected = "expected: text equals \"ownership\"")]
async fn a_failing_check_says_what_was_called_and_what_came_back(mcp: McpClient) {
    two_notes(&mcp).await;
    mcp.call_tool("get_note", json!({"title": "rust"}))
        .await
        .text_eq("ownership");
}
