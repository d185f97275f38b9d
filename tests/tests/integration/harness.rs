//! Every MCP method of the harness against `fixture-everything`, over stdio,
//! Streamable HTTP and in-process.

use std::time::Duration;

use mcptest::{
    CompletionRef, Elicitation, Error, ListKind, LogLevel, McpClient, Roots, Sampling, Server,
    ToolOutcome, rmcp::model::ResourceContents,
};
use mcptest_tests::{
    everything::{Everything, EverythingConfig},
    http::HttpFixture,
};
use serde_json::{Value, json};

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");
const WAIT: Duration = Duration::from_secs(10);

fn with_mocks(server: Server) -> Server {
    server
        .sampling(Sampling::text("the mocked model says hi").model("mock-model"))
        .roots(Roots::uris([
            "file:///tmp/project-a",
            "file:///tmp/project-b",
        ]))
        .elicitation(Elicitation::accept(json!({"name": "Ada"})))
        .timeout(Duration::from_secs(20))
}

async fn stdio() -> McpClient {
    with_mocks(Server::program(EVERYTHING))
        .connect()
        .await
        .expect("connect over stdio")
}

async fn in_process() -> McpClient {
    with_mocks(Server::in_process(Everything::new(
        EverythingConfig::default(),
    )))
    .connect()
    .await
    .expect("connect in-process")
}

#[tokio::test]
async fn every_method_over_stdio() {
    let mcp = stdio().await;
    exercise_everything(&mcp).await;
    let status = mcp.close().await.expect("a process has an exit status");
    assert!(
        status.success(),
        "fixture-everything exits cleanly on EOF: {status}"
    );
}

#[tokio::test]
async fn every_method_in_process() {
    let mcp = in_process().await;
    assert_eq!(mcp.pid(), None);
    exercise_everything(&mcp).await;
    assert_eq!(mcp.close().await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_method_over_streamable_http() {
    let fixture = HttpFixture::start(EVERYTHING, &["--http"]);
    assert!(
        fixture.url.starts_with("http://127.0.0.1:"),
        "{}",
        fixture.url
    );
    let mcp = with_mocks(Server::url(&fixture.url))
        .connect()
        .await
        .expect("connect over HTTP");
    exercise_everything(&mcp).await;
    mcp.close().await;
}

/// The whole protocol surface, in the order a server author would check it.
async fn exercise_everything(mcp: &McpClient) {
    let info = mcp.server_info();
    assert_eq!(info.name, "fixture-everything");
    assert_eq!(
        info.instructions.as_deref(),
        Some("Fixture server for mcptest integration tests.")
    );
    assert_eq!(info.protocol_version.as_str(), "2025-11-25");
    assert!(!info.stateless);
    assert!(info.capabilities.tools.is_some());
    assert!(info.capabilities.logging.is_some());

    mcp.ping().await.expect("ping");

    tools(mcp).await;
    server_requests(mcp).await;
    progress_and_logging(mcp).await;
    prompts(mcp).await;
    completion(mcp).await;
    resources(mcp).await;
    list_changed(mcp).await;
    cancellation(mcp).await;
    raw(mcp).await;
}

async fn tools(mcp: &McpClient) {
    let tools = mcp.list_tools().await.expect("tools/list");
    assert!(tools.pages() > 1, "page size 5 makes several pages");
    for name in [
        "echo",
        "add",
        "image",
        "audio",
        "weather",
        "fail",
        "rpc_error",
    ] {
        assert!(tools.iter().any(|t| t.name == name), "missing tool {name}");
    }
    assert_eq!(tools.request().method, "tools/list");

    let first = mcp.list_tools_page(None).await.expect("first page");
    assert_eq!(first.tools.len(), 5);
    let cursor = first.next_cursor.clone().expect("more pages");
    let second = mcp
        .list_tools_page(Some(&cursor))
        .await
        .expect("second page");
    assert_eq!(second.request().params, json!({"cursor": cursor}));
    assert_eq!(second.tools[0].name, tools[5].name);
    let bad = mcp.list_tools_page(Some("not-a-cursor")).await.unwrap_err();
    assert_eq!(bad.json_rpc_code(), Some(-32602), "{bad}");

    let echo = mcp.call_tool("echo", json!({"message": "hello"})).await;
    assert!(echo.is_success(), "{echo:?}");
    assert_eq!(echo.text(), "hello");
    assert_eq!(echo.name(), "echo");
    assert_eq!(
        echo.request().params,
        json!({"name": "echo", "arguments": {"message": "hello"}})
    );

    let add = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    assert_eq!(add.text(), "5");
    assert!(
        add.tool().is_some(),
        "the harness knows the tool's definition"
    );

    let image = mcp.call_tool("image", json!({})).await;
    let image = image.content()[0].as_image().expect("an image block");
    assert_eq!(image.mime_type, "image/png");

    let audio = mcp.call_tool("audio", json!({})).await;
    assert_eq!(
        audio.content()[0].as_audio().expect("audio").mime_type,
        "audio/wav"
    );

    let embedded = mcp.call_tool("embedded_resource", json!({})).await;
    let embedded = embedded.content()[0]
        .as_resource()
        .expect("embedded resource");
    match &embedded.resource {
        ResourceContents::TextResourceContents { uri, text, .. } => {
            assert_eq!(uri, "fixture://static/text");
            assert_eq!(text, "Hello from fixture-everything.");
        }
        other => panic!("expected text contents, got {other:?}"),
    }

    let link = mcp.call_tool("resource_link", json!({})).await;
    assert_eq!(
        link.content()[0]
            .as_resource_link()
            .expect("resource link")
            .uri,
        "fixture://static/text"
    );

    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    assert_eq!(
        weather.structured(),
        Some(&json!({"city": "Paris", "temperature": 21.5, "conditions": "sunny"}))
    );
    let schema = weather
        .tool()
        .and_then(|t| t.output_schema.clone())
        .expect("weather declares an outputSchema");
    assert_eq!(schema.get("type"), Some(&json!("object")));
    assert_eq!(
        weather.raw().and_then(|r| r.get("structuredContent")),
        weather.structured()
    );

    let fail = mcp.call_tool("fail", json!({})).await;
    assert!(fail.is_tool_error(), "{fail:?}");
    assert_eq!(fail.text(), "the tool failed on purpose");

    let rpc = mcp.call_tool("rpc_error", json!({})).await;
    let error = rpc.rpc_error().expect("a JSON-RPC error");
    assert_eq!(error.code, -32603);
    assert_eq!(error.message, "rpc_error always fails");
    assert_eq!(error.data, Some(json!({"reason": "on purpose"})));
    let as_error = rpc.into_result().unwrap_err();
    assert_eq!(as_error.json_rpc_code(), Some(-32603));

    let unknown = mcp.call_tool("no_such_tool", json!({})).await;
    assert!(
        matches!(unknown.outcome(), ToolOutcome::RpcError(_)),
        "rmcp servers reject unknown tools with a JSON-RPC error: {unknown:?}"
    );
    assert!(unknown.tool().is_none());

    let bad_args = mcp.call_tool("echo", json!([1, 2])).await;
    assert!(
        matches!(bad_args.failure(), Some(Error::InvalidConfig { .. })),
        "{bad_args:?}"
    );
}

async fn server_requests(mcp: &McpClient) {
    let sample = mcp.call_tool("sample", json!({"prompt": "say hi"})).await;
    assert_eq!(sample.text(), "the mocked model says hi", "{sample:?}");

    let roots = mcp.call_tool("roots", json!({})).await;
    let uris: Value = serde_json::from_str(&roots.text()).expect("JSON array of uris");
    assert_eq!(
        uris,
        json!(["file:///tmp/project-a", "file:///tmp/project-b"])
    );

    let elicit = mcp.call_tool("elicit", json!({"message": "who?"})).await;
    assert_eq!(elicit.text(), "action=accept content={\"name\":\"Ada\"}");

    let requests = mcp.server_messages().requests();
    let methods: Vec<&str> = requests.iter().map(|r| r.method.as_str()).collect();
    for method in ["sampling/createMessage", "roots/list", "elicitation/create"] {
        assert!(
            methods.contains(&method),
            "{method} recorded in {methods:?}"
        );
    }
    let sampling = requests
        .iter()
        .find(|r| r.method == "sampling/createMessage")
        .unwrap();
    assert_eq!(
        sampling.params["messages"][0]["content"]["text"],
        json!("say hi")
    );
    assert_eq!(
        sampling.reply.as_ref().unwrap()["model"],
        json!("mock-model")
    );
}

async fn progress_and_logging(mcp: &McpClient) {
    let call = mcp
        .call_tool("progress", json!({"steps": 3, "delay_ms": 1}))
        .await;
    assert_eq!(call.text(), "done after 3 steps");
    let progress: Vec<f64> = call.progress().iter().map(|p| p.progress).collect();
    assert_eq!(progress, [1.0, 2.0, 3.0]);
    assert_eq!(call.progress()[2].message.as_deref(), Some("step 3 of 3"));

    mcp.set_log_level(LogLevel::Warning)
        .await
        .expect("setLevel");
    let log = mcp.server_messages();
    let before = log.log_messages().len();
    mcp.call_tool("log", json!({"level": "info", "message": "quiet"}))
        .await
        .assert_success();
    mcp.call_tool(
        "log",
        json!({"level": "error", "message": "loud", "count": 2}),
    )
    .await
    .assert_success();
    let message = log
        .wait_for_log(Some(LogLevel::Error), WAIT)
        .await
        .expect("the error is logged");
    assert_eq!(message.data, json!("loud"));
    // Any message, by a predicate of the test's own; what already arrived counts.
    let loud = log
        .wait_for(|m| m.params.get("data") == Some(&json!("loud")), WAIT)
        .await
        .expect("a message whose data is \"loud\"");
    assert_eq!(loud.method, "notifications/message");
    let never = log
        .wait_for(
            |m| m.method == "notifications/never",
            Duration::from_millis(50),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(never, Error::NotificationTimeout { .. }),
        "{never}"
    );
    let new: Vec<Value> = log.log_messages()[before..]
        .iter()
        .map(|m| m.data.clone())
        .collect();
    assert_eq!(new, [json!("loud"), json!("loud")], "info was filtered out");
    mcp.set_log_level(LogLevel::Debug).await.unwrap();
}

async fn prompts(mcp: &McpClient) {
    let prompts = mcp.list_prompts().await.expect("prompts/list");
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["simple", "greeting", "code_review"]);

    let simple = mcp.get_prompt("simple", Value::Null).await.expect("simple");
    assert_eq!(simple.messages.len(), 1);

    let greeting = mcp
        .get_prompt("greeting", json!({"name": "Ada", "style": "pirate"}))
        .await
        .expect("greeting");
    let text = serde_json::to_value(&greeting.messages[0]).unwrap();
    assert_eq!(text["content"]["text"], json!("Ahoy, Ada!"));
    assert_eq!(greeting.request().method, "prompts/get");

    let missing = mcp.get_prompt("greeting", json!({})).await.unwrap_err();
    assert_eq!(missing.json_rpc_code(), Some(-32602), "{missing}");
}

async fn completion(mcp: &McpClient) {
    let styles = mcp
        .complete(CompletionRef::prompt("greeting"), "style", "fo")
        .await
        .expect("complete");
    assert_eq!(styles.completion.values, ["formal"]);
    let ids = mcp
        .complete(CompletionRef::resource("fixture://items/{id}"), "id", "1")
        .await
        .expect("complete template");
    assert_eq!(ids.completion.values, ["1", "10"]);
}

async fn resources(mcp: &McpClient) {
    let resources = mcp.list_resources().await.expect("resources/list");
    assert_eq!(resources.len(), 15);
    assert_eq!(resources.pages(), 3);
    let templates = mcp.list_resource_templates().await.expect("templates");
    assert_eq!(templates[0].uri_template, "fixture://items/{id}");
    let page = mcp
        .list_resource_templates_page(None)
        .await
        .expect("one page of templates");
    assert_eq!(page.request().method, "resources/templates/list");
    assert_eq!(page.resource_templates.len(), 1);
    assert_eq!(page.next_cursor, None);

    let text = mcp
        .read_resource("fixture://static/text")
        .await
        .expect("read");
    match &text.contents[0] {
        ResourceContents::TextResourceContents {
            text, mime_type, ..
        } => {
            assert_eq!(text, "Hello from fixture-everything.");
            assert_eq!(mime_type.as_deref(), Some("text/plain"));
        }
        other => panic!("expected text, got {other:?}"),
    }
    let blob = mcp
        .read_resource("fixture://static/blob")
        .await
        .expect("blob");
    match &blob.contents[0] {
        ResourceContents::BlobResourceContents { blob, .. } => assert_eq!(blob, "AAECA/8="),
        other => panic!("expected a blob, got {other:?}"),
    }
    let item = mcp.read_resource("fixture://items/7").await.expect("item");
    assert!(matches!(&item.contents[0],
        ResourceContents::TextResourceContents { text, .. } if text == "item 7"));

    let missing = mcp.read_resource("fixture://nope").await.unwrap_err();
    assert_eq!(missing.json_rpc_code(), Some(-32002), "{missing}");

    mcp.subscribe("fixture://static/text")
        .await
        .expect("subscribe");
    let notified = mcp
        .call_tool("update_resource", json!({"uri": "fixture://static/text"}))
        .await;
    assert_eq!(notified.text(), "notified");
    mcp.server_messages()
        .wait_for_resource_updated("fixture://static/text", WAIT)
        .await
        .expect("resources/updated");
    mcp.unsubscribe("fixture://static/text")
        .await
        .expect("unsubscribe");
    let after = mcp
        .call_tool("update_resource", json!({"uri": "fixture://static/text"}))
        .await;
    assert_eq!(after.text(), "not subscribed");
}

async fn list_changed(mcp: &McpClient) {
    let on = mcp.call_tool("toggle_tool", json!({})).await;
    assert_eq!(on.text(), "bonus on");
    mcp.server_messages()
        .wait_for_list_changed(ListKind::Tools, WAIT)
        .await
        .expect("tools/list_changed");
    // Definitions are fetched lazily: a text answer costs no tools/list, so
    // `bonus` is called without its definition...
    let bonus = mcp.call_tool("bonus", json!({})).await;
    assert_eq!(bonus.text(), "bonus!");
    assert!(bonus.tool().is_none(), "{:?}", bonus.tool());
    // ...a structured answer fetches the list (the one from before
    // list_changed is stale), and the calls after it know every tool.
    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    assert!(weather.tool().is_some_and(|t| t.output_schema.is_some()));
    let bonus = mcp.call_tool("bonus", json!({})).await;
    assert!(bonus.tool().is_some());
    let off = mcp.call_tool("toggle_tool", json!({})).await;
    assert_eq!(off.text(), "bonus off");
}

async fn cancellation(mcp: &McpClient) {
    // The call would run for an hour: `cancel` must not wait for it. The
    // bound only keeps a broken `cancel` from hanging the test.
    let pending = mcp
        .start_tool_call("slow", json!({"ms": 3_600_000}))
        .await
        .expect("sent");
    tokio::time::timeout(Duration::from_secs(60), pending.cancel("no longer needed"))
        .await
        .expect("cancel returns without waiting for the call to end")
        .expect("cancelled");
    // The connection is still usable afterwards.
    mcp.ping().await.expect("ping after cancel");

    let timed_out = mcp
        .call_tool_with_timeout("slow", json!({"ms": 60_000}), Duration::from_millis(200))
        .await;
    match timed_out.failure() {
        Some(Error::Timeout { method, after, .. }) => {
            assert_eq!(method, "tools/call");
            assert_eq!(*after, Duration::from_millis(200));
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
}

async fn raw(mcp: &McpClient) {
    let raw = mcp
        .request_raw(
            "tools/call",
            json!({"name": "echo", "arguments": {"message": "raw"}}),
        )
        .await
        .expect("raw call");
    assert_eq!(raw["content"][0]["text"], json!("raw"));
    let unknown = mcp
        .request_raw("no/such/method", json!({}))
        .await
        .unwrap_err();
    assert_eq!(unknown.json_rpc_code(), Some(-32601), "{unknown}");
    mcp.notify_raw("notifications/roots/list_changed", Value::Null)
        .await
        .expect("notification sent");
    mcp.ping().await.expect("still alive");
}

#[tokio::test]
async fn stateless_connection_uses_server_discover() {
    let mcp = Server::program(EVERYTHING)
        .protocol_version(mcptest::STATELESS_PROTOCOL_VERSION)
        .connect()
        .await
        .expect("discover");
    let info = mcp.server_info();
    assert!(info.stateless);
    assert_eq!(info.protocol_version.as_str(), "2026-07-28");
    let call = mcp.call_tool("add", json!({"a": 1, "b": 1})).await;
    assert_eq!(call.text(), "2", "{call:?}");
}

#[tokio::test]
async fn an_older_protocol_version_is_negotiated() {
    let mcp = Server::in_process(Everything::default())
        .protocol_version("2025-03-26")
        .connect()
        .await
        .unwrap();
    assert_eq!(mcp.server_info().protocol_version.as_str(), "2025-03-26");
}

#[tokio::test]
async fn server_requests_without_a_mock_get_an_error_that_says_how_to_mock() {
    let mcp = Server::in_process(Everything::default())
        .connect()
        .await
        .unwrap();
    let sample = mcp.call_tool("sample", json!({"prompt": "hi"})).await;
    assert!(sample.is_tool_error(), "{sample:?}");
    assert!(
        sample.text().contains("configure Server::sampling"),
        "{}",
        sample.text()
    );
}

#[tokio::test]
async fn env_and_current_dir_reach_the_server() {
    let dir = tempfile::tempdir().unwrap();
    // SAFETY-free: this test only reads its own variable.
    let mcp = Server::program(EVERYTHING)
        .env(
            "MCPTEST_GREETING",
            "${MCPTEST_SURELY_UNSET:-hello from env}",
        )
        .current_dir(dir.path())
        .connect()
        .await
        .unwrap();
    let env = mcp
        .call_tool("env", json!({"name": "MCPTEST_GREETING"}))
        .await;
    assert_eq!(env.text(), "hello from env");
    let cwd = mcp.call_tool("cwd", json!({})).await;
    assert_eq!(
        std::fs::canonicalize(cwd.text()).unwrap(),
        std::fs::canonicalize(dir.path()).unwrap()
    );
}

#[tokio::test]
async fn stderr_is_captured() {
    let mcp = Server::program(EVERYTHING).connect().await.unwrap();
    mcp.call_tool("stderr", json!({"message": "a line on stderr"}))
        .await
        .assert_success();
    for _ in 0..200 {
        if mcp.stderr().contains("a line on stderr") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("stderr was {:?}", mcp.stderr());
}

#[tokio::test]
async fn command_lines_are_split_like_a_shell() {
    let line = format!("{EVERYTHING} --page-size '3'");
    let mcp = Server::command(&line).connect().await.unwrap();
    let page = mcp.list_tools_page(None).await.unwrap();
    assert_eq!(page.tools.len(), 3);
}

#[tokio::test]
async fn fixture_placeholders_are_replaced_by_the_fixture_dir() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = Server::program(EVERYTHING)
        .args(["--root", "{{fixture}}"])
        .env("WHERE", "in {{fixture}}")
        .current_dir("{{fixture}}")
        .fixture_dir(dir.path())
        .connect()
        .await
        .unwrap();
    assert_eq!(mcp.fixture_dir(), Some(dir.path()));
    let wrote = mcp
        .call_tool("write_file", json!({"path": "out/a.txt", "content": "hi"}))
        .await;
    assert_eq!(wrote.text(), "wrote 2 bytes", "{wrote:?}");
    assert_eq!(wrote.fixture_dir(), Some(dir.path()));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/a.txt")).unwrap(),
        "hi"
    );
    let env = mcp.call_tool("env", json!({"name": "WHERE"})).await;
    assert_eq!(env.text(), format!("in {}", dir.path().display()));
    let cwd = mcp.call_tool("cwd", json!({})).await;
    assert_eq!(
        std::fs::canonicalize(cwd.text()).unwrap(),
        std::fs::canonicalize(dir.path()).unwrap()
    );
}

#[tokio::test]
async fn client_info_capabilities_and_version_reach_the_server() {
    let mcp = Server::in_process(Everything::default())
        .client_info("suite-runner", "1.2.3")
        .sampling(Sampling::text("x"))
        .connect()
        .await
        .unwrap();
    let whoami: Value =
        serde_json::from_str(&mcp.call_tool("whoami", json!({})).await.text()).unwrap();
    assert_eq!(whoami["clientInfo"]["name"], json!("suite-runner"));
    assert_eq!(whoami["clientInfo"]["version"], json!("1.2.3"));
    assert_eq!(whoami["protocolVersion"], json!("2025-11-25"));
    assert_eq!(
        whoami["capabilities"],
        json!({"sampling": {}}),
        "only what is mocked is declared"
    );
    assert_eq!(whoami["httpHeaders"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headers_and_a_bearer_token_from_the_environment_reach_an_http_server() {
    // PATH is always set, so the test needs no environment changes of its own.
    let token = std::env::var("PATH").expect("PATH is set");
    let fixture = HttpFixture::start(EVERYTHING, &["--http", "--bearer", &token]);
    let mcp = Server::url(&fixture.url)
        .header("X-Tenant", "${MCPTEST_SURELY_UNSET_TENANT:-acme}")
        .bearer_token_env("PATH")
        .connect()
        .await
        .expect("authorized");
    let whoami: Value =
        serde_json::from_str(&mcp.call_tool("whoami", json!({})).await.text()).unwrap();
    assert_eq!(whoami["httpHeaders"]["x-tenant"], json!("acme"));
    assert_eq!(
        whoami["httpHeaders"]["authorization"],
        json!(format!("Bearer {token}"))
    );
    mcp.close().await;

    let refused = Server::url(&fixture.url).connect().await.unwrap_err();
    assert!(matches!(refused, Error::Transport { .. }), "{refused:?}");
    let text = refused.to_string();
    assert!(
        text.contains("401") || text.to_lowercase().contains("auth"),
        "{text}"
    );
}
