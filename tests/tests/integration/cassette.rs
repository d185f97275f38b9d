//! Cassettes: a session recorded against the fixture server, then replayed
//! with the server binary pointing nowhere.

use std::path::Path;

use mcptest::{CassetteMode, Error, Server};
use mcptest_core::__support::CASSETTE_MISS;
use serde_json::{Value, json};

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");
const NOWHERE: &str = "/nonexistent/mcptest/fixture-server";

/// The session both runs perform; returns what a test would assert on.
async fn session(server: Server) -> Vec<Value> {
    let mcp = server.connect().await.expect("connects");
    let info = mcp.server_info().clone();
    let tools = mcp.list_tools().await.expect("lists tools");
    let echo = mcp
        .call_tool("echo", json!({"message": "hi", "apiKey": "sk-live-123"}))
        .await;
    let add = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    let progress = mcp
        .call_tool("progress", json!({"steps": 3, "delay_ms": 1}))
        .await;
    let again = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    let out = vec![
        json!(info.name),
        json!(tools.len()),
        json!(echo.text()),
        json!(add.text()),
        json!(progress.text()),
        json!(progress.progress().len()),
        json!(again.text()),
    ];
    mcp.close().await;
    out
}

fn read(path: &Path) -> (String, Value) {
    let text = std::fs::read_to_string(path).expect("the cassette was written");
    let value = serde_json::from_str(&text).expect("the cassette is JSON");
    (text, value)
}

#[tokio::test]
async fn a_recorded_session_replays_without_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cassettes/session.json");
    let recorded = session(
        Server::program(EVERYTHING)
            .env("MCPTEST_SECRET", "hunter2-env")
            .cassette(&path, CassetteMode::Record)
            .cassette_redact(["apiKey"]),
    )
    .await;
    assert_eq!(recorded[2], json!("hi"));
    assert_eq!(recorded[5], json!(3), "three progress notifications");

    let (text, file) = read(&path);
    assert!(!text.contains("hunter2-env"), "no environment in the file");
    assert!(!text.contains("sk-live-123"), "redacted payload field");
    assert!(text.contains(r#""apiKey": "[redacted]""#), "{text}");
    assert!(!text.contains(EVERYTHING), "not even the command line");
    let messages = file["messages"].as_array().unwrap();
    assert_eq!(messages[0]["from"], "client");
    assert_eq!(messages[0]["message"]["method"], "initialize");
    let methods: Vec<&str> = messages
        .iter()
        .filter_map(|m| m["message"]["method"].as_str())
        .collect();
    assert_eq!(
        methods
            .iter()
            .filter(|m| **m == "notifications/progress")
            .count(),
        3,
        "{methods:?}"
    );

    // The server is nowhere: replay must not start it.
    let replayed = session(
        Server::program(NOWHERE)
            .cassette(&path, CassetteMode::Replay)
            .cassette_redact(["apiKey"]),
    )
    .await;
    assert_eq!(replayed, recorded);
}

#[tokio::test]
async fn a_request_not_on_tape_fails_with_the_closest_recorded_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("echo.json");
    let record = Server::program(EVERYTHING).cassette(&path, CassetteMode::Auto);
    let mcp = record.connect().await.unwrap();
    assert_eq!(
        mcp.call_tool("echo", json!({"message": "recorded"}))
            .await
            .text(),
        "recorded"
    );
    mcp.close().await;

    // Auto replays now that the file exists.
    let mcp = Server::program(NOWHERE)
        .cassette(&path, CassetteMode::Auto)
        .connect()
        .await
        .unwrap();
    let call = mcp
        .call_tool("echo", json!({"message": "never recorded"}))
        .await;
    let error = call.rpc_error().expect("a JSON-RPC error");
    assert_eq!(error.code, CASSETTE_MISS);
    assert!(
        error.message.contains("has no recorded request"),
        "{}",
        error.message
    );
    assert!(
        error
            .message
            .contains(r#"the closest recorded request is {"method":"tools/call","params":{"arguments":{"message":"recorded"}"#),
        "{}",
        error.message
    );
    // The recorded request is still on tape.
    assert_eq!(
        mcp.call_tool("echo", json!({"message": "recorded"}))
            .await
            .text(),
        "recorded"
    );
    mcp.close().await;
}

#[tokio::test]
async fn replaying_a_missing_cassette_is_a_config_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("absent.json");
    let err = Server::program(NOWHERE)
        .cassette(&path, CassetteMode::Replay)
        .connect()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::InvalidConfig { .. }), "{err:?}");
    assert!(err.to_string().contains("absent.json"), "{err}");
    assert!(err.to_string().contains("record it first"), "{err}");

    std::fs::write(&path, "{\"not\": \"a cassette\"}").unwrap();
    let err = Server::program(NOWHERE)
        .cassette(&path, CassetteMode::Replay)
        .connect()
        .await
        .unwrap_err();
    assert!(err.to_string().contains("not a cassette"), "{err}");
}

#[tokio::test]
async fn off_runs_the_server_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("off.json");
    let mcp = Server::program(EVERYTHING)
        .cassette(&path, CassetteMode::Off)
        .connect()
        .await
        .unwrap();
    assert_eq!(
        mcp.call_tool("add", json!({"a": 1, "b": 1})).await.text(),
        "2"
    );
    mcp.close().await;
    assert!(!path.exists());
}

#[tokio::test]
async fn an_sse_session_records_and_replays_without_its_headers() {
    let fixture = mcptest_tests::http::HttpFixture::start(EVERYTHING, &["--sse"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sse.json");
    let recorded = session(
        Server::sse(&fixture.url)
            .header("X-Api-Key", "sse-header-secret-77")
            .cassette(&path, CassetteMode::Record),
    )
    .await;
    assert_eq!(recorded[2], json!("hi"));
    let (text, _) = read(&path);
    assert!(!text.contains("sse-header-secret-77"), "{text}");
    assert!(!text.contains(&fixture.url), "not even the URL");
    drop(fixture);

    // Nothing listens there: replay must not dial it.
    let replayed =
        session(Server::sse("http://127.0.0.1:9/sse").cassette(&path, CassetteMode::Replay)).await;
    assert_eq!(replayed, recorded);
}

#[tokio::test]
async fn a_url_cannot_be_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let err = Server::url("http://127.0.0.1:9/mcp")
        .cassette(dir.path().join("http.json"), CassetteMode::Record)
        .connect()
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("not a Streamable HTTP connection"),
        "{err}"
    );
}

/// The cassette beside this package was recorded once with the fixture
/// server; the server named here does not exist, so only a replay passes.
#[mcptest::mcp_test(
    server = "/nonexistent/mcptest/fixture-server --stdio",
    cassette = "cassettes/mcp_test_echo.json"
)]
async fn the_attribute_replays_a_committed_cassette(mcp: mcptest::McpClient) {
    let call = mcp.call_tool("echo", json!({"message": "from tape"})).await;
    assert_eq!(call.text(), "from tape");
}
