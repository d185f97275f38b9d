//! The checks and snapshots against real third-party servers, installed by
//! `.ci/install-e2e.sh` (pinned versions). Run with:
//!
//! ```sh
//! bash .ci/install-e2e.sh && source target/e2e/env.sh
//! cargo test -p mcptest-tests --test e2e expect:: -- --ignored
//! ```
//!
//! They are `#[ignore]`d in a plain `cargo test` because they need Node and
//! Python packages; `.ci/run` always runs them.

use std::time::Duration;

use mcptest::{
    CompletionRef, McpClient, Server,
    expect::{self, ContentKind},
    rmcp::model::Role,
};
use mcptest_tests::e2e;
use serde_json::json;

async fn everything() -> McpClient {
    Server::program(e2e::path("MCPTEST_E2E_EVERYTHING"))
        .arg("stdio")
        .connect_timeout(Duration::from_secs(60))
        .timeout(Duration::from_secs(30))
        .connect()
        .await
        .expect("server-everything starts")
}

async fn time() -> McpClient {
    Server::program(e2e::path("MCPTEST_E2E_TIME"))
        .args(["--local-timezone", "UTC"])
        .connect_timeout(Duration::from_secs(60))
        .connect()
        .await
        .expect("mcp-server-time starts")
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn server_everything_tool_checks() {
    let mcp = everything().await;

    mcp.call_tool("get-sum", json!({"a": 2, "b": 3}))
        .await
        .assert_success()
        .text_eq("The sum of 2 and 3 is 5.")
        .text_matches(r"\b5\.$")
        .duration_under(Duration::from_secs(10));

    mcp.call_tool("get-tiny-image", json!({}))
        .await
        .assert_success()
        .has_content(ContentKind::image("image/png"))
        .not_empty();

    let weather = mcp
        .call_tool("get-structured-content", json!({"location": "Chicago"}))
        .await;
    weather
        .matches_output_schema()
        .json_path_exists("$.temperature")
        .json_path_count("$.*", 1..);

    let tools = mcp.list_tools().await.unwrap();
    tools
        .has("echo")
        .has("get-structured-content")
        .lacks("no-such-tool")
        .input_schemas_valid();

    // Failures, pinned: a wrong sum, and a schema the result does not meet.
    let sum = mcp.call_tool("get-sum", json!({"a": 2, "b": 3})).await;
    insta::assert_snapshot!(
        "everything_text_eq",
        sum.check(expect::text_eq("The sum of 2 and 3 is 6."))
            .unwrap_err()
            .to_string()
    );
    let unknown = mcp.call_tool("no-such-tool", json!({})).await;
    insta::assert_snapshot!(
        "everything_unknown_tool",
        unknown.check(expect::success()).unwrap_err().to_string()
    );
    mcp.close().await;
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn server_everything_prompt_resource_and_completion_checks() {
    let mcp = everything().await;

    mcp.get_prompt("args-prompt", json!({"city": "Lisbon"}))
        .await
        .unwrap()
        .message_count(1..)
        .roles_eq([Role::User])
        .text_contains("Lisbon");

    let read = mcp
        .read_resource("demo://resource/dynamic/text/1")
        .await
        .unwrap();
    read.contents_count(1).text_only().not_empty();

    let done = mcp
        .complete(
            CompletionRef::prompt("completable-prompt"),
            "department",
            "E",
        )
        .await
        .unwrap();
    done.values_eq(["Engineering"])
        .values_contain("Engineering");
    insta::assert_snapshot!(
        "everything_values_contain",
        done.check(expect::values_contain("Marketing"))
            .unwrap_err()
            .to_string()
    );

    let prompts = mcp.list_prompts().await.unwrap();
    prompts.has("simple-prompt").has("args-prompt");
    mcp.close().await;
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn mcp_server_time_checks_and_snapshot() {
    let mcp = time().await;
    let now = mcp
        .call_tool("get_current_time", json!({"timezone": "UTC"}))
        .await;
    now.assert_success()
        .structured_contains(json!({"timezone": "UTC"}))
        .json_path_exists("$.datetime")
        .matches_schema(json!({
            "type": "object",
            "required": ["timezone", "datetime"],
            "properties": {"datetime": {"type": "string"}}
        }));
    // The time changes every run and the weekday every day; the snapshot
    // holds still with the one redacted and the other filtered.
    let weekdays = r"\b(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b";
    insta::with_settings!({filters => vec![(weekdays, "[weekday]")]}, {
        mcptest::assert_snapshot!("time_now", now, timestamps);
    });

    let converted = mcp
        .call_tool(
            "convert_time",
            json!({"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}),
        )
        .await;
    converted.json_path_eq("$.target.timezone", json!("Asia/Tokyo"));
    let dated = vec![
        (r"\d{4}-\d{2}-\d{2}T[0-9:+-]+", "[timestamp]"),
        (weekdays, "[weekday]"),
    ];
    insta::with_settings!({filters => dated}, {
        insta::assert_snapshot!(
            "time_json_path_eq",
            converted
                .check(expect::json_path_eq("$.target.timezone", json!("Europe/Paris")))
                .unwrap_err()
                .to_string()
        );
    });

    let bad = mcp.call_tool("get_current_time", json!({})).await;
    bad.assert_tool_error();
    mcp.call_tool("no_such_tool", json!({}))
        .await
        .assert_rpc_error(-32602);
    mcp.close().await;
}
