//! `mcptest-mock` over stdio, driven by the harness.

use std::time::Duration;

use mcptest::Server;
use serde_json::json;

const MOCK: &str = env!("CARGO_BIN_EXE_mcptest-mock");

fn contract() -> tempfile::NamedTempFile {
    let file = tempfile::Builder::new().suffix(".yaml").tempfile().unwrap();
    std::fs::write(
        file.path(),
        r#"
case: Echo
in: {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hi"}}}
out: {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "hi"}]}}
"#,
    )
    .unwrap();
    file
}

#[tokio::test]
async fn serves_a_cases_file_over_stdio() {
    let file = contract();
    let mcp = Server::program(MOCK)
        .arg(file.path())
        .timeout(Duration::from_secs(10))
        .connect()
        .await
        .expect("the mock answers initialize");
    let echo = mcp.call_tool("echo", json!({"message": "hi"})).await;
    assert_eq!(echo.text(), "hi");
    let other = mcp.call_tool("echo", json!({"message": "ho"})).await;
    let error = other.rpc_error().expect("a JSON-RPC error");
    assert!(
        error.message.contains("the closest is `Echo` (case 1)"),
        "{}",
        error.message
    );
    assert!(
        mcp.stderr().contains("serving 1 cases on stdio"),
        "{}",
        mcp.stderr()
    );
    let status = mcp.close().await.expect("an exit status");
    assert!(status.success(), "{status}");
}

#[test]
fn a_broken_file_is_reported_before_serving() {
    let file = tempfile::Builder::new().suffix(".yaml").tempfile().unwrap();
    std::fs::write(file.path(), "case: x\nin: 5\n").unwrap();
    let out = std::process::Command::new(MOCK)
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(":2:5: expected `in` to be a JSON-RPC message (a mapping) or a batch"),
        "{stderr}"
    );
}
