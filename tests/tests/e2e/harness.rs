//! The harness against real third-party servers, installed by
//! `.ci/install-e2e.sh` (pinned versions). Run with:
//!
//! ```sh
//! bash .ci/install-e2e.sh && source target/e2e/env.sh
//! cargo test -p mcptest-tests --test e2e harness:: -- --ignored
//! ```
//!
//! They are `#[ignore]`d in a plain `cargo test` because they need Node and
//! Python packages; `.ci/run` always runs them.

use std::time::Duration;

use mcptest::{
    CompletionRef, ListKind, LogLevel, McpClient, Sampling, Server, ToolOutcome,
    rmcp::model::ResourceContents,
};
use mcptest_tests::e2e;
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(15);

async fn everything(server: Server) -> McpClient {
    server
        .arg("stdio")
        .connect_timeout(Duration::from_secs(60))
        .timeout(Duration::from_secs(30))
        .connect()
        .await
        .expect("server-everything starts")
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn server_everything_tools() {
    let mcp = everything(Server::program(e2e::path("MCPTEST_E2E_EVERYTHING"))).await;
    let info = mcp.server_info();
    assert_eq!(info.name, "mcp-servers/everything");
    assert_eq!(info.protocol_version.as_str(), "2025-11-25");

    // It announces a tool list change right after `initialized`.
    mcp.server_messages()
        .wait_for_list_changed(ListKind::Tools, WAIT)
        .await
        .expect("tools/list_changed after initialize");

    let tools = mcp.list_tools().await.unwrap();
    for name in [
        "echo",
        "get-sum",
        "get-tiny-image",
        "trigger-long-running-operation",
    ] {
        assert!(tools.iter().any(|t| t.name == name), "missing {name}");
    }

    let echo = mcp.call_tool("echo", json!({"message": "hi"})).await;
    assert!(echo.is_success(), "{echo:?}");
    assert!(echo.text().contains("hi"), "{}", echo.text());

    let sum = mcp.call_tool("get-sum", json!({"a": 2, "b": 3})).await;
    assert_eq!(sum.text(), "The sum of 2 and 3 is 5.");

    let image = mcp.call_tool("get-tiny-image", json!({})).await;
    assert!(image.content().iter().any(|c| c.as_image().is_some()));

    let weather = mcp
        .call_tool("get-structured-content", json!({"location": "Chicago"}))
        .await;
    let structured = weather.structured().expect("structured content");
    assert!(structured.get("temperature").is_some(), "{structured}");
    assert!(
        weather
            .tool()
            .and_then(|t| t.output_schema.as_ref())
            .is_some()
    );

    // TypeScript servers report an unknown tool as a tool error.
    let unknown = mcp.call_tool("no-such-tool", json!({})).await;
    assert!(unknown.is_tool_error(), "{unknown:?}");
    assert!(unknown.text().contains("not found"), "{}", unknown.text());
    mcp.close().await;
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn server_everything_progress_logging_and_sampling() {
    let mcp = everything(
        Server::program(e2e::path("MCPTEST_E2E_EVERYTHING"))
            .sampling(Sampling::text("mocked completion")),
    )
    .await;
    let call = mcp
        .call_tool(
            "trigger-long-running-operation",
            json!({"duration": 1, "steps": 4}),
        )
        .await;
    assert!(call.is_success(), "{call:?}");
    let steps: Vec<f64> = call.progress().iter().map(|p| p.progress).collect();
    assert_eq!(steps, [1.0, 2.0, 3.0, 4.0]);

    mcp.set_log_level(LogLevel::Debug).await.expect("setLevel");
    mcp.subscribe("demo://resource/static/document/features.md")
        .await
        .expect("subscribe");
    // Subscribing makes server-everything log at info level.
    mcp.server_messages()
        .wait_for_log(None, WAIT)
        .await
        .expect("a log message");

    let sampled = mcp
        .call_tool("trigger-sampling-request", json!({"prompt": "hello"}))
        .await;
    assert!(sampled.is_success(), "{sampled:?}");
    assert!(
        sampled.text().contains("mocked completion"),
        "{}",
        sampled.text()
    );
    let request = mcp
        .server_messages()
        .requests()
        .into_iter()
        .find(|r| r.method == "sampling/createMessage")
        .expect("the sampling request is recorded");
    assert!(request.reply.is_some());
    mcp.close().await;
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn server_everything_prompts_resources_and_completion() {
    let mcp = everything(Server::program(e2e::path("MCPTEST_E2E_EVERYTHING"))).await;

    let prompts = mcp.list_prompts().await.unwrap();
    assert!(prompts.iter().any(|p| p.name == "simple-prompt"));
    let prompt = mcp
        .get_prompt("args-prompt", json!({"city": "Lisbon"}))
        .await
        .unwrap();
    let text = serde_json::to_value(&prompt.messages).unwrap().to_string();
    assert!(text.contains("Lisbon"), "{text}");
    let missing = mcp.get_prompt("args-prompt", json!({})).await.unwrap_err();
    assert_eq!(missing.json_rpc_code(), Some(-32602), "{missing}");

    let resources = mcp.list_resources().await.unwrap();
    assert_eq!(resources.len(), 7);
    let doc = mcp.read_resource(&resources[0].uri).await.unwrap();
    assert!(matches!(
        &doc.contents[0],
        ResourceContents::TextResourceContents { .. }
    ));
    let templates = mcp.list_resource_templates().await.unwrap();
    assert!(
        templates
            .iter()
            .any(|t| t.uri_template == "demo://resource/dynamic/text/{resourceId}")
    );
    let dynamic = mcp
        .read_resource("demo://resource/dynamic/text/1")
        .await
        .unwrap();
    assert_eq!(dynamic.contents.len(), 1);

    let done = mcp
        .complete(
            CompletionRef::prompt("completable-prompt"),
            "department",
            "E",
        )
        .await
        .unwrap();
    assert_eq!(done.completion.values, ["Engineering"]);
    mcp.close().await;
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn mcp_server_time() {
    let mcp = Server::program(e2e::path("MCPTEST_E2E_TIME"))
        .args(["--local-timezone", "UTC"])
        .connect_timeout(Duration::from_secs(60))
        .connect()
        .await
        .expect("mcp-server-time starts");
    let now = mcp
        .call_tool("get_current_time", json!({"timezone": "UTC"}))
        .await;
    assert!(now.is_success(), "{now:?}");
    let structured = now.structured().expect("structured content");
    assert_eq!(structured["timezone"], json!("UTC"));

    let converted = mcp
        .call_tool(
            "convert_time",
            json!({"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}),
        )
        .await;
    let target = &converted.structured().expect("structured content")["target"];
    assert_eq!(target["timezone"], json!("Asia/Tokyo"));
    assert!(
        target["datetime"]
            .as_str()
            .is_some_and(|t| t.contains("T21:00:00+09:00")),
        "{target}"
    );

    // The Python low-level server rejects an unknown tool with a JSON-RPC error…
    let unknown = mcp.call_tool("no_such_tool", json!({})).await;
    match unknown.outcome() {
        ToolOutcome::RpcError(e) => assert_eq!(e.code, -32602),
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
    // …and reports bad arguments as a tool error.
    let bad = mcp.call_tool("get_current_time", json!({})).await;
    assert!(bad.is_tool_error(), "{bad:?}");

    // It has no completions capability.
    let err = mcp
        .complete(CompletionRef::prompt("x"), "y", "")
        .await
        .unwrap_err();
    assert_eq!(err.json_rpc_code(), Some(-32601), "{err}");
    mcp.close().await;
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn python_sdk_server_in_both_eras() {
    let script = e2e::path("MCPTEST_E2E_PYSDK_SERVER");
    let python = e2e::path("MCPTEST_E2E_PYTHON");
    let classic = Server::program(&python)
        .arg(&script)
        .connect_timeout(Duration::from_secs(60))
        .connect()
        .await
        .expect("classic handshake");
    assert_eq!(classic.server_info().name, "pysdk-e2e");
    let sum = classic.call_tool("add", json!({"a": 2, "b": 3})).await;
    assert_eq!(sum.text(), "5");
    assert_eq!(sum.structured(), Some(&json!({"result": 5})));
    classic.close().await;

    let stateless = Server::program(&python)
        .arg(&script)
        .protocol_version(mcptest::STATELESS_PROTOCOL_VERSION)
        .connect_timeout(Duration::from_secs(60))
        .connect()
        .await
        .expect("server/discover");
    assert!(stateless.server_info().stateless);
    assert_eq!(stateless.server_info().name, "pysdk-e2e");
    let sum = stateless.call_tool("add", json!({"a": 4, "b": 5})).await;
    assert_eq!(sum.text(), "9", "{sum:?}");
    let raw: Value = sum.raw().cloned().unwrap();
    assert_eq!(raw["resultType"], json!("complete"));
    stateless.close().await;
}
