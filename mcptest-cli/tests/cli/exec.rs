//! `mcptest exec`: the coprocess contract over real pipes, driven line by
//! line and through `mcptest_coprocess::Client`.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, Stdio},
    sync::mpsc,
    time::Duration,
};

use mcptest_coprocess::{COPROCESS_PROTOCOL_VERSION, Client, CoprocessError, codes};
use serde_json::{Value, json};

use super::*;

/// A minimal MCP server in Python: answers initialize and tools/list;
/// `tools/call` of `die` exits 3 after a line on stderr, of `hang`
/// never answers.
const PY_SERVER: &str = r#"
import json, sys, time
for line in sys.stdin:
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if method == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "py-fixture", "version": "9.1"}}
    elif method == "tools/list":
        result = {"tools": []}
    elif method == "tools/call":
        name = msg["params"]["name"]
        if name == "die":
            sys.stderr.write("fatal: the die tool was called\n"); sys.stderr.flush()
            sys.exit(3)
        time.sleep(3600)
    else:
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid, "result": result}) + "\n")
    sys.stdout.flush()
"#;

/// A v1 binary: it knows no handshake.
const PY_V1_BINARY: &str = r#"
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg.get("id"),
        "error": {"code": -32601, "message": "method not found"}}) + "\n")
    sys.stdout.flush()
"#;

/// `mcptest exec` with piped stdio, read by a thread so that every
/// read has a deadline.
struct Exec {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Exec {
    fn start(ws: &Workspace, server: &str, extra: &[&str]) -> Exec {
        let mut child = std::process::Command::new(MCPTEST)
            .current_dir(ws.dir.path())
            .args(["exec", "--connection-server", "--server-command", server])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Exec {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn recv(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(30))
            .expect("an answer within 30 s");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    fn ask(&mut self, line: &str) -> Value {
        self.send(line);
        self.recv()
    }

    /// Closes stdin and waits (bounded) for the exit status.
    fn finish(mut self) -> Option<i32> {
        drop(self.stdin.take());
        crate::bounded_child::exit_within(
            &mut self.child,
            Duration::from_secs(30),
            "mcptest exec's exit after stdin closed",
        )
        .code()
    }
}

impl Drop for Exec {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn python_server(ws: &Workspace) -> String {
    ws.write("server.py", PY_SERVER);
    "python3 server.py".to_owned()
}

#[test]
fn the_handshake_agrees_on_the_version_constant_and_calls_pass_through() {
    let ws = Workspace::new(&[]);
    let mut exec = Exec::start(&ws, &server(), &[]);
    let hello = exec.ask(&format!(
            r#"{{"jsonrpc": "2.0", "id": 1, "method": "coprocess/handshake", "params": {{"protocol_version": {COPROCESS_PROTOCOL_VERSION}, "sdk": "rust", "sdk_version": "0"}}}}"#
        ));
    assert_eq!(
        hello["result"]["protocol_version"], COPROCESS_PROTOCOL_VERSION,
        "{hello}"
    );
    assert_eq!(
        COPROCESS_PROTOCOL_VERSION, 3,
        "the design note's version; bump every pin together"
    );
    let init = exec.ask(r#"{"jsonrpc": "2.0", "id": 2, "method": "mcp.initialize"}"#);
    assert_eq!(
        init["result"]["serverInfo"]["name"], "mcptest-mock",
        "{init}"
    );
    let call = exec.ask(
            r#"{"jsonrpc": "2.0", "id": "c", "method": "mcp.call", "params": {"tool": "add", "arguments": {"a": 2, "b": 3}}}"#,
        );
    assert_eq!(call["id"], "c");
    assert_eq!(call["result"]["success"], true, "{call}");
    assert_eq!(call["result"]["text"], "5", "{call}");
    let bye = exec.ask(r#"{"jsonrpc": "2.0", "id": 4, "method": "mcp.shutdown"}"#);
    assert_eq!(bye["result"], json!({}), "{bye}");
    assert_eq!(exec.finish(), Some(0));
}

#[test]
fn bad_lines_get_the_documented_codes_and_the_channel_goes_on() {
    let ws = Workspace::new(&[]);
    let mut exec = Exec::start(&ws, &server(), &["--max-line-bytes", "200"]);
    let parse = exec.ask("{not json");
    assert_eq!(parse["error"]["code"], codes::PARSE_ERROR, "{parse}");
    assert_eq!(parse["id"], Value::Null);
    let extra =
        exec.ask(r#"{"jsonrpc": "2.0", "id": 7, "method": "mcp.listTools", "trace": true}"#);
    assert_eq!(extra["error"]["code"], codes::INVALID_REQUEST, "{extra}");
    assert_eq!(extra["id"], 7);
    let big = format!(
        r#"{{"jsonrpc": "2.0", "id": 8, "method": "mcp.call", "params": {{"tool": "{}"}}}}"#,
        "x".repeat(500)
    );
    let over = exec.ask(&big);
    assert_eq!(over["error"]["code"], codes::INVALID_REQUEST, "{over}");
    assert!(
        over["error"]["message"]
            .as_str()
            .unwrap()
            .contains("200 bytes"),
        "{over}"
    );
    let no_id = exec.ask(
        r#"{"jsonrpc": "2.0", "method": "coprocess/handshake", "params": {"protocol_version": 2}}"#,
    );
    assert_eq!(no_id["id"], Value::Null, "{no_id}");
    assert_eq!(no_id["result"]["protocol_version"], 2, "{no_id}");
    let newer = exec.ask(r#"{"jsonrpc": "2.0", "id": 9, "method": "coprocess/handshake", "params": {"protocol_version": 4, "sdk": "python"}}"#);
    assert_eq!(newer["error"]["code"], codes::INVALID_PARAMS, "{newer}");
    assert_eq!(
        newer["error"]["message"],
        "coprocess protocol version mismatch: this mcptest binary speaks v2 to v3, the python \
             SDK sent v4. Upgrade the mcptest binary (or pin the SDK to the matching release)."
    );
    let lane = exec.ask(r#"{"jsonrpc": "2.0", "id": 10, "method": "mcp.compliance.run"}"#);
    assert_eq!(lane["error"]["code"], codes::METHOD_NOT_FOUND, "{lane}");
    assert!(
        lane["error"]["message"]
            .as_str()
            .unwrap()
            .contains("mcptest conformance"),
        "{lane}"
    );
    // Still serving after all of that.
    let call = exec.ask(r#"{"jsonrpc": "2.0", "id": 11, "method": "mcp.call", "params": {"tool": "add", "arguments": {"a": 2, "b": 3}}}"#);
    assert_eq!(call["result"]["text"], "5", "{call}");
    assert_eq!(exec.finish(), Some(0));
}

#[tokio::test]
async fn an_upstream_error_keeps_its_code_message_and_data() {
    let ws = Workspace::new(&[]);
    // The engine runs in this process's directory: name the contract
    // by its absolute path.
    let server = format!("'{MCPTEST}' mock '{}'", ws.path("contract.yaml").display());
    let mut engine = Client::spawn(
        MCPTEST,
        ["exec", "--connection-server", "--server-command", &server],
    )
    .await
    .unwrap();
    let error = engine.call_tool("add", json!({"a": 1})).await;
    let Err(CoprocessError::Rpc { code, data, .. }) = error else {
        panic!("expected an upstream error, got {error:?}");
    };
    assert_eq!(code, codes::UPSTREAM_ERROR);
    let upstream = &data.unwrap()["upstream"];
    assert_eq!(upstream["code"], -32602, "{upstream}");
    assert!(upstream["data"]["mismatch"].is_string(), "{upstream}");
    engine.shutdown().await.unwrap();
}

#[test]
fn an_upstream_death_mid_call_is_32001_with_the_exit_status_and_stderr() {
    let ws = Workspace::new(&[]);
    let server = python_server(&ws);
    let mut exec = Exec::start(&ws, &server, &[]);
    let init = exec.ask(r#"{"jsonrpc": "2.0", "id": 1, "method": "mcp.initialize"}"#);
    assert_eq!(
        init["result"]["serverInfo"],
        json!({"name": "py-fixture", "version": "9.1"}),
        "{init}"
    );
    let died =
        exec.ask(r#"{"jsonrpc": "2.0", "id": 2, "method": "mcp.call", "params": {"tool": "die"}}"#);
    assert_eq!(died["error"]["code"], codes::UPSTREAM_DROPPED, "{died}");
    assert_eq!(died["error"]["data"]["exit_code"], 3, "{died}");
    assert!(
        died["error"]["data"]["stderr_tail"]
            .as_str()
            .unwrap()
            .contains("the die tool was called"),
        "{died}"
    );
    assert_eq!(exec.finish(), Some(0));
}

#[test]
fn a_call_over_the_limit_is_32603_naming_the_method_and_the_limit() {
    let ws = Workspace::new(&[]);
    let server = python_server(&ws);
    // The first call also starts the server and shakes hands under the same
    // limit: long enough for a Python start on a loaded machine.
    let mut exec = Exec::start(&ws, &server, &["--call-timeout", "3s"]);
    let slow = exec
        .ask(r#"{"jsonrpc": "2.0", "id": 1, "method": "mcp.call", "params": {"tool": "hang"}}"#);
    assert_eq!(slow["error"]["code"], codes::INTERNAL_ERROR, "{slow}");
    let message = slow["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("mcp.call") && message.contains("3 s"),
        "{slow}"
    );
    assert_eq!(exec.finish(), Some(0));
}

#[tokio::test]
async fn the_client_fails_fast_on_a_v1_binary() {
    let ws = Workspace::new(&[("v1.py", PY_V1_BINARY)]);
    let error = Client::spawn("python3", [ws.path("v1.py")])
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            CoprocessError::VersionMismatch {
                binary: Some(1),
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "mcptest binary speaks coprocess v1; this SDK needs v3. Upgrade the mcptest binary \
             (or pin the SDK to the matching release)."
    );
}

#[test]
fn flush_posts_the_report_with_the_bearer_token() {
    let (url, received) = super::exec_frames::upload_receiver();
    let ws = Workspace::new(&[]);
    let mut exec = Exec::start(&ws, &server(), &[]);
    let early = exec.ask(r#"{"jsonrpc": "2.0", "id": 1, "method": "mcp.reporter.flush"}"#);
    assert_eq!(early["error"]["code"], codes::INVALID_REQUEST, "{early}");
    exec.ask(r#"{"jsonrpc": "2.0", "id": 2, "method": "mcp.call", "params": {"tool": "add", "arguments": {"a": 2, "b": 3}}}"#);
    let set = exec.ask(&format!(
            r#"{{"jsonrpc": "2.0", "id": 3, "method": "mcp.reporter.setUpload", "params": {{"url": "{url}", "token": "s3cret"}}}}"#
        ));
    assert_eq!(set["result"], json!({}), "{set}");
    let flushed = exec.ask(r#"{"jsonrpc": "2.0", "id": 4, "method": "mcp.reporter.flush"}"#);
    assert_eq!(flushed["result"]["status"], 200, "{flushed}");
    let request = received.join().unwrap();
    assert!(request.starts_with("POST /upload "), "{request}");
    assert!(
        request
            .to_ascii_lowercase()
            .contains("authorization: bearer s3cret"),
        "{request}"
    );
    let body = &request[request.find("\r\n\r\n").unwrap() + 4..];
    let report: Value = serde_json::from_str(body).unwrap();
    assert_eq!(report["counts"]["passed"], 1, "{report}");
    assert_eq!(exec.finish(), Some(0));
}

/// A hostile server in Python: `tools/call flood` sends 20,000 `ping`
/// requests, answers the call, then stops reading stdin; `tools/call deaf`
/// stops reading stdin at once and never answers. `tools/list` lists both.
pub(super) const PY_HOSTILE: &str = r#"
import json, sys, time
for line in sys.stdin:
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if method == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "py-hostile", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": [{"name": name, "inputSchema": {"type": "object"}}
                            for name in ("flood", "deaf")]}
    elif method == "tools/call":
        if msg["params"]["name"] == "flood":
            for i in range(20000):
                sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": "p%d" % i, "method": "ping"}) + "\n")
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid,
                "result": {"content": [{"type": "text", "text": "flooded"}]}}) + "\n")
            sys.stdout.flush()
        time.sleep(3600)
    else:
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid, "result": result}) + "\n")
    sys.stdout.flush()
"#;

/// The server that floods pings and stops reading neither hangs the call
/// nor `mcp.shutdown`; the one that stops reading fails a call with a big
/// argument within `--call-timeout`, and shutdown still answers.
#[test]
fn a_server_that_stops_reading_never_hangs_a_call_or_the_shutdown() {
    let ws = Workspace::new(&[("hostile.py", PY_HOSTILE)]);
    let server = format!("python3 {}", ws.path("hostile.py").display());
    let mut exec = Exec::start(&ws, &server, &["--call-timeout", "5s"]);
    let call = exec
        .ask(r#"{"jsonrpc": "2.0", "id": 1, "method": "mcp.call", "params": {"tool": "flood"}}"#);
    assert_eq!(call["result"]["text"], "flooded", "{call}");
    let bye = exec.ask(r#"{"jsonrpc": "2.0", "id": 2, "method": "mcp.shutdown"}"#);
    assert_eq!(bye["result"], json!({}), "{bye}");
    assert_eq!(exec.finish(), Some(0));

    let mut exec = Exec::start(&ws, &server, &["--call-timeout", "2s"]);
    // Well past the 64 KiB a pipe holds, under exec's 4 MiB line limit.
    let big = "x".repeat(2 * 1024 * 1024);
    let call = exec.ask(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "mcp.call",
            "params": {"tool": "deaf", "arguments": {"blob": big}}})
        .to_string(),
    );
    assert_eq!(call["error"]["code"], codes::INTERNAL_ERROR, "{call:.300}");
    let bye = exec.ask(r#"{"jsonrpc": "2.0", "id": 2, "method": "mcp.shutdown"}"#);
    assert_eq!(bye["result"], json!({}), "{bye}");
    assert_eq!(exec.finish(), Some(0));
}
