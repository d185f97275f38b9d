//! `mcptest::assert_snapshot!`, `assert_json_snapshot!` and
//! `assert_tool_surface_snapshot!` on results from `fixture-everything`:
//! what is stored, the default and opt-in redactions, settings passed
//! through, and the round trip through insta's review cycle (new → accept →
//! re-run → change) in a child process.

use std::{path::Path, process::Command};

use mcptest::{CompletionRef, McpClient, Server};
use mcptest_tests::everything::Everything;
use serde_json::json;

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");

async fn everything() -> McpClient {
    Server::in_process(Everything::default())
        .connect()
        .await
        .expect("connect in-process")
}

#[tokio::test]
async fn a_tool_call_is_stored_as_yaml_named_after_the_test() {
    let mcp = everything().await;
    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    mcptest::assert_snapshot!(weather);
}

#[tokio::test]
async fn the_tool_surface_is_pinned_sorted_and_without_volatile_fields() {
    let mcp = everything().await;
    mcptest::assert_tool_surface_snapshot!(mcp);
    let surface = mcptest::scan::lint::Definitions::list(&mcp)
        .await
        .unwrap()
        .surface();
    let names: Vec<&str> = surface["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert!(names.len() > 20, "{names:?}");
}

#[tokio::test]
async fn a_snapshot_can_be_named() {
    let mcp = everything().await;
    let add = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    mcptest::assert_snapshot!("add_two_and_three", add);
}

#[tokio::test]
async fn errors_are_stored_by_kind() {
    let mcp = everything().await;
    mcptest::assert_snapshot!("tool_error", mcp.call_tool("fail", json!({})).await);
    mcptest::assert_snapshot!("rpc_error", mcp.call_tool("rpc_error", json!({})).await);
}

#[tokio::test]
async fn replies_are_stored_as_their_value() {
    let mcp = everything().await;
    let prompt = mcp
        .get_prompt("greeting", json!({"name": "Ada", "style": "formal"}))
        .await
        .unwrap();
    mcptest::assert_snapshot!("prompt", prompt);
    let read = mcp.read_resource("fixture://static/json").await.unwrap();
    mcptest::assert_snapshot!("resource", read);
    let templates = mcp.list_resource_templates().await.unwrap();
    mcptest::assert_snapshot!("templates", templates);
    let prompts = mcp.list_prompts().await.unwrap();
    mcptest::assert_snapshot!("prompts", prompts);
    let done = mcp
        .complete(CompletionRef::prompt("greeting"), "style", "")
        .await
        .unwrap();
    mcptest::assert_json_snapshot!("completion", done);
}

#[tokio::test]
async fn notifications_are_stored_without_timings() {
    let mcp = everything().await;
    mcp.call_tool("log", json!({"level": "error", "message": "boom"}))
        .await
        .assert_success();
    let log = mcp.server_messages();
    log.wait_for_log(None, std::time::Duration::from_secs(10))
        .await
        .unwrap();
    mcptest::assert_snapshot!(log);
}

#[tokio::test]
async fn the_fixture_directory_becomes_a_placeholder() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = Server::program(EVERYTHING)
        .args(["--root", "{{fixture}}"])
        .current_dir("{{fixture}}")
        .fixture_dir(dir.path())
        .connect()
        .await
        .unwrap();
    let cwd = mcp.call_tool("cwd", json!({})).await;
    assert!(cwd.text().contains(".tmp"), "{}", cwd.text());
    mcptest::assert_snapshot!(cwd);
    mcp.close().await;
}

#[tokio::test]
async fn timestamps_and_uuids_are_redacted_on_request() {
    let mcp = everything().await;
    let message = "created 67e55044-10b1-426f-9247-bb680e5fe0c8 at 2025-06-18T09:30:00.123Z";
    let echo = mcp.call_tool("echo", json!({"message": message})).await;
    mcptest::assert_snapshot!("redacted", echo, timestamps, uuids);
    // Without asking, they stay: some servers return fixed ones worth checking.
    mcptest::assert_snapshot!("not_redacted", echo);
}

#[tokio::test]
async fn insta_redactions_pass_through() {
    let mcp = everything().await;
    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    mcptest::assert_json_snapshot!(weather, {
        ".structuredContent.temperature" => "[temperature]",
        ".content" => "[content]",
    });
}

#[tokio::test]
async fn inline_snapshots_take_the_same_redactions() {
    let mcp = everything().await;
    let message = "created 67e55044-10b1-426f-9247-bb680e5fe0c8 at 2025-06-18T09:30:00.123Z";
    let echo = mcp.call_tool("echo", json!({"message": message})).await;
    mcptest::assert_snapshot!(echo, timestamps, uuids, @r#"
    content:
      - text: "created [uuid] at [timestamp]"
        type: text
    isError: false
    "#);
    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    mcptest::assert_json_snapshot!(weather, {
        ".structuredContent.temperature" => "[temperature]",
        ".content" => "[content]",
    }, @r#"
    {
      "content": "[content]",
      "isError": false,
      "structuredContent": {
        "city": "Paris",
        "conditions": "sunny",
        "temperature": "[temperature]"
      }
    }
    "#);
}

#[tokio::test]
async fn settings_bound_by_the_test_apply_also_in_async_code() {
    let mcp = everything().await;
    let echo = mcp
        .call_tool("echo", json!({"message": "request 4711 done"}))
        .await;
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r"request \d+", "request [n]");
    settings.set_snapshot_suffix("bound");
    settings
        .bind_async(async {
            // An await inside the bound block: the settings follow the future.
            tokio::task::yield_now().await;
            mcptest::assert_snapshot!(echo);
        })
        .await;
    insta::with_settings!({filters => vec![(r"\d{4}", "[four digits]")]}, {
        mcptest::assert_snapshot!("with_settings", echo);
    });
}

/// Run as a child process by `a_snapshot_goes_through_review_and_ci`: the
/// message comes from the environment so the parent can change it.
#[tokio::test]
#[ignore = "a child process of a_snapshot_goes_through_review_and_ci"]
async fn child_round_trip() {
    let message = std::env::var("MCPTEST_CHILD_MESSAGE").unwrap();
    let mcp = everything().await;
    let echo = mcp.call_tool("echo", json!({"message": message})).await;
    mcptest::assert_snapshot!(echo);
}

/// Runs `child_round_trip` with its snapshots under `workspace`.
fn run_child(workspace: &Path, message: &str, ci: bool) -> (bool, String) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([
            "--exact",
            "snapshot::child_round_trip",
            "--ignored",
            "--nocapture",
        ])
        .env("INSTA_WORKSPACE_ROOT", workspace)
        .env("MCPTEST_CHILD_MESSAGE", message)
        .env("NO_COLOR", "1")
        .env_remove("INSTA_UPDATE")
        .env_remove("INSTA_FORCE_PASS")
        .env_remove("CI");
    if ci {
        command.env("CI", "true");
    }
    let output = command.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[test]
fn a_snapshot_goes_through_review_and_ci() {
    let workspace = tempfile::tempdir().unwrap();
    let dir = workspace.path().join("tests/tests/integration/snapshots");
    let snap = dir.join("integration__snapshot__child_round_trip.snap");
    let pending = dir.join("integration__snapshot__child_round_trip.snap.new");

    // 1. New, on a developer's machine: the test fails and leaves a pending
    //    snapshot for `cargo insta review`.
    let (passed, output) = run_child(workspace.path(), "hello", false);
    assert!(!passed, "a new snapshot fails the test\n{output}");
    assert!(pending.exists(), "a .snap.new for review\n{output}");
    assert!(!snap.exists());

    // 2. Accept it, as `cargo insta accept` does: the pending file becomes
    //    the snapshot.
    std::fs::rename(&pending, &snap).unwrap();
    let stored = std::fs::read_to_string(&snap).unwrap();
    assert!(
        stored.contains(r#"description: "tools/call echo {\"message\":\"hello\"}""#),
        "the header says what was called\n{stored}"
    );
    assert!(stored.contains("  - text: hello\n"), "{stored}");

    // 3. Re-run, in CI: it passes.
    let (passed, output) = run_child(workspace.path(), "hello", true);
    assert!(passed, "an accepted snapshot passes\n{output}");

    // 4. The server's answer changes: in CI the test fails and writes nothing.
    let (passed, output) = run_child(workspace.path(), "goodbye", true);
    assert!(!passed, "a changed snapshot fails in CI\n{output}");
    assert!(
        output.contains("goodbye"),
        "the failure shows the new value\n{output}"
    );
    assert!(!pending.exists(), "CI writes no pending snapshot");
    assert_eq!(std::fs::read_to_string(&snap).unwrap(), stored);

    // 5. A new snapshot in CI fails too, and writes nothing either.
    std::fs::remove_file(&snap).unwrap();
    let (passed, output) = run_child(workspace.path(), "hello", true);
    assert!(!passed, "a new snapshot fails in CI\n{output}");
    assert!(!pending.exists() && !snap.exists(), "{output}");
}
