use super::*;
use mcptest::Server;
use serde_json::json;
use std::{
    io::{BufRead, BufReader},
    process::Stdio,
    time::Duration,
};

fn contract(dir: &Path) -> PathBuf {
    let path = dir.join("echo.yaml");
    std::fs::write(
            &path,
            r#"
case: Echo
in: {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hi"}}}
out: {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "hi"}]}}
"#,
        )
        .unwrap();
    path
}

#[tokio::test]
async fn serves_a_cases_file_over_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = Server::program(MCPTEST)
        .args(["mock".into(), contract(dir.path()).display().to_string()])
        .timeout(Duration::from_secs(10))
        .connect()
        .await
        .expect("the mock answers initialize");
    assert_eq!(
        mcp.call_tool("echo", json!({"message": "hi"})).await.text(),
        "hi"
    );
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

#[tokio::test]
async fn serves_a_cases_file_over_http_on_loopback() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(MCPTEST)
        .args(["mock", "--http", "0"])
        .arg(contract(dir.path()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let url = line.trim().rsplit(' ').next().unwrap().to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{line}");
    let result = async {
        let mcp = Server::url(url.as_str())
            .timeout(Duration::from_secs(10))
            .connect()
            .await?;
        let hi = mcp.call_tool("echo", json!({"message": "hi"})).await;
        let ho = mcp.call_tool("echo", json!({"message": "ho"})).await;
        Ok::<_, mcptest::Error>((hi.text().to_owned(), ho.rpc_error().is_some()))
    }
    .await;
    child.kill().unwrap();
    child.wait().unwrap();
    let (hi, ho_failed) = result.expect("the mock serves HTTP");
    assert_eq!(hi, "hi");
    assert!(ho_failed);
}

#[test]
fn a_broken_file_is_reported_before_serving() {
    let ws = Workspace::new(&[("broken.yaml", "case: x\nin: 5\n")]);
    let out = output(ws.mcptest(&["mock", "broken.yaml"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(
        out.stderr
            .contains(":2:5: expected `in` to be a JSON-RPC message (a mapping) or a batch"),
        "{out:?}"
    );
}
