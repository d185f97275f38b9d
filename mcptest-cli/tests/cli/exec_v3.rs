//! Coprocess protocol v3 over a real `mcptest exec --check-frames` against
//! `fixture-everything` (and small Python servers where a fixture cannot
//! misbehave on cue): the handshake's surface, every `mcp.*` method, what
//! the server sent during a call, the argv form, sessions without a server,
//! v2 sessions, version mismatches, frames that break the schema, upstream
//! errors and timeouts. Every frame is checked against the schema by the
//! test too (`exec_frames`).

use serde_json::{Value, json};

use super::exec_frames::{Session, fixture, validate};
use super::*;

fn everything() -> String {
    fixture("fixture-everything").display().to_string()
}

/// A v3 session against `fixture-everything --root <ws>/root`.
fn everything_session(ws: &Workspace, extra: &[&str]) -> Session {
    std::fs::create_dir_all(ws.path("root")).unwrap();
    let root = ws.path("root").display().to_string();
    let server = everything();
    let mut args: Vec<&str> = extra.to_vec();
    args.extend(["--", &server, "--root", &root]);
    let mut session = Session::start(ws.dir.path(), &args);
    session.handshake();
    session
}

#[test]
fn the_v3_handshake_lists_every_method_lane_and_feature() {
    let ws = Workspace::new(&[]);
    let mut session = Session::start(ws.dir.path(), &[]);
    let hello = session.handshake();
    assert_eq!(hello["protocol_version"], 3, "{hello}");
    let methods: Vec<&str> = hello["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(methods, mcptest_coprocess::methods_of(3), "{hello}");
    for method in [
        "coprocess/handshake",
        "mcp.initialize",
        "mcp.call",
        "mcp.listTools",
        "mcp.listResources",
        "mcp.listPrompts",
        "mcp.listResourceTemplates",
        "mcp.readResource",
        "mcp.callPrompt",
        "mcp.messages",
        "mcp.reporter.setUpload",
        "mcp.reporter.record",
        "mcp.reporter.flush",
        "mcp.cassette.set_mode",
        "mcp.cache.set_mode",
        "mcp.shutdown",
    ] {
        assert!(methods.contains(&method), "{method} missing: {hello}");
    }
    let features = hello["features"].as_array().unwrap();
    for feature in [
        "argv",
        "passthrough",
        "messages",
        "report-results",
        "check-frames",
    ] {
        assert!(features.contains(&json!(feature)), "{feature}: {hello}");
    }
    assert_eq!(session.shutdown(), Some(0));
}

#[test]
fn every_mcp_method_answers_in_its_v3_shape() {
    let ws = Workspace::new(&[]);
    let mut s = everything_session(&ws, &[]);
    let init = s.result("mcp.initialize", Value::Null);
    assert_eq!(init["serverInfo"]["name"], "fixture-everything", "{init}");
    for (method, key) in [
        ("mcp.listTools", "tools"),
        ("mcp.listResources", "resources"),
        ("mcp.listPrompts", "prompts"),
        ("mcp.listResourceTemplates", "resourceTemplates"),
    ] {
        let listed = s.result(method, json!({}));
        assert!(
            !listed[key].as_array().unwrap().is_empty(),
            "{method}: {listed}"
        );
    }
    let templates = s.result("mcp.listResourceTemplates", Value::Null);
    assert!(
        templates.to_string().contains("fixture://items/{id}"),
        "{templates}"
    );
    let read = s.result("mcp.readResource", json!({"uri": "fixture://static/text"}));
    assert_eq!(
        read["contents"][0]["text"], "Hello from fixture-everything.",
        "{read}"
    );
    let prompt = s.result(
        "mcp.callPrompt",
        json!({"name": "greeting", "arguments": {"name": "Ada", "style": "pirate"}}),
    );
    assert!(prompt.to_string().contains("Ahoy, Ada!"), "{prompt}");

    let verdict = s.result(
        "mcp.call",
        json!({"tool": "add", "arguments": {"a": 2, "b": 3}}),
    );
    assert_eq!(verdict["success"], true, "{verdict}");
    assert_eq!(verdict["text"], "5", "{verdict}");
    assert_eq!(
        verdict["content"],
        json!([{"type": "text", "text": "5"}]),
        "{verdict}"
    );
    assert_eq!(verdict["messages"], json!([]), "{verdict}");
    let weather = s.result(
        "mcp.call",
        json!({"tool": "weather", "arguments": {"city": "Paris"}}),
    );
    assert_eq!(weather["data"]["city"], "Paris", "{weather}");
    let failed = s.result("mcp.call", json!({"tool": "fail"}));
    assert_eq!(failed["success"], false, "{failed}");
    assert_eq!(failed["error"], failed["text"], "{failed}");
    assert!(failed["error"].is_string(), "{failed}");

    let raw = s.result(
        "mcp.call",
        json!({"tool": "add", "arguments": {"a": 2, "b": 3}, "passthrough": true}),
    );
    assert!(raw.get("success").is_none(), "{raw}");
    assert_eq!(
        raw["content"],
        json!([{"type": "text", "text": "5"}]),
        "{raw}"
    );
    let raw_error = s.result("mcp.call", json!({"tool": "fail", "passthrough": true}));
    assert_eq!(raw_error["isError"], true, "{raw_error}");

    let recorded = s.result(
        "mcp.reporter.record",
        json!({"name": "my own test", "status": "fail", "message": "it broke", "file": "t.py", "line": 3, "duration_ms": 4}),
    );
    assert_eq!(recorded, json!({}));
    assert_eq!(s.shutdown(), Some(0));
}

#[test]
fn a_call_carries_what_the_server_sent_during_it_and_mcp_messages_the_rest() {
    let ws = Workspace::new(&[]);
    let mut s = everything_session(&ws, &[]);
    let progress = s.result(
        "mcp.call",
        json!({"tool": "progress", "arguments": {"steps": 3, "delay_ms": 1}}),
    );
    let messages = progress["messages"].as_array().unwrap();
    let steps: Vec<&Value> = messages
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .map(|m| &m["params"]["progress"])
        .collect();
    assert_eq!(steps, [&json!(1.0), &json!(2.0), &json!(3.0)], "{progress}");
    assert_eq!(progress["logs"], json!([]), "{progress}");

    let logged = s.result(
        "mcp.call",
        json!({"tool": "log", "arguments": {"level": "warning", "message": "disk low", "count": 2}}),
    );
    assert_eq!(
        logged["logs"],
        json!([
            {"level": "warning", "logger": "fixture", "data": "disk low"},
            {"level": "warning", "logger": "fixture", "data": "disk low"},
        ]),
        "{logged}"
    );
    assert_eq!(
        logged["messages"][0],
        json!({"method": "notifications/message", "params": {"level": "warning", "logger": "fixture", "data": "disk low"}}),
        "{logged}"
    );

    // A request to the client comes with its id and the client's reply.
    let sampled = s.result(
        "mcp.call",
        json!({"tool": "sample", "arguments": {"prompt": "hi"}}),
    );
    let request = sampled["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["method"] == "sampling/createMessage")
        .unwrap_or_else(|| panic!("no sampling request: {sampled}"));
    assert!(
        request["id"].is_number() || request["id"].is_string(),
        "{sampled}"
    );
    assert!(!request["reply"].is_null(), "{sampled}");

    // Each message is reported once: the calls took theirs.
    let rest = s.result("mcp.messages", json!({}));
    assert_eq!(rest, json!({"messages": [], "logs": []}));
    assert_eq!(s.shutdown(), Some(0));
}

/// Sends a log message before answering `tools/list`: outside any call.
const PY_CHATTY: &str = r#"
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if method == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}, "logging": {}},
                  "serverInfo": {"name": "py-chatty", "version": "1"}}
    elif method == "tools/list":
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "info", "data": {"listing": True}}}) + "\n")
        result = {"tools": []}
    elif method == "tools/call":
        result = {"structuredContent": {"no": "content"}}
    else:
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid, "result": result}) + "\n")
    sys.stdout.flush()
"#;

#[test]
fn what_arrives_outside_calls_waits_for_mcp_messages_once() {
    let ws = Workspace::new(&[("chatty.py", PY_CHATTY)]);
    let mut s = Session::start(ws.dir.path(), &["--", "python3", "chatty.py"]);
    s.handshake();
    assert_eq!(
        s.result("mcp.messages", Value::Null),
        json!({"messages": [], "logs": []}),
        "nothing before connecting"
    );
    s.result("mcp.listTools", Value::Null);
    let first = s.result("mcp.messages", Value::Null);
    assert_eq!(
        first,
        json!({
            "messages": [{"method": "notifications/message", "params": {"level": "info", "data": {"listing": true}}}],
            "logs": [{"level": "info", "data": {"listing": true}}],
        })
    );
    assert_eq!(
        s.result("mcp.messages", Value::Null),
        json!({"messages": [], "logs": []}),
        "then forgotten"
    );
    // One listed before a call is not the call's: it waits.
    s.result("mcp.listTools", Value::Null);
    let call = s.ask("mcp.call", Some(json!({"tool": "anything"})));
    let waiting = s.result("mcp.messages", Value::Null);
    assert_eq!(
        waiting["logs"].as_array().unwrap().len(),
        1,
        "{waiting} {call}"
    );
    assert_eq!(s.shutdown(), Some(0));
}

/// A result that breaks the official MCP schema (`content` missing) is
/// the server's fault: -32000 naming the schema, not a frame of the
/// binary's own that breaks the coprocess schema.
#[test]
fn a_server_result_that_breaks_the_mcp_schema_is_an_upstream_error() {
    let ws = Workspace::new(&[("chatty.py", PY_CHATTY)]);
    let mut s = Session::start(ws.dir.path(), &["--", "python3", "chatty.py"]);
    s.handshake();
    let error = s.error("mcp.call", json!({"tool": "anything", "passthrough": true}));
    assert_eq!(error["code"], -32000, "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("the required member `content` is missing"),
        "{error}"
    );
    assert_eq!(s.shutdown(), Some(0));
}

#[test]
fn a_request_that_breaks_the_schema_is_32600_naming_the_path_and_the_rule() {
    let ws = Workspace::new(&[]);
    let mut s = everything_session(&ws, &[]);
    let line = r#"{"jsonrpc": "2.0", "id": 5, "method": "mcp.call", "params": {"tool": 5}}"#;
    let bad = s.send_line(line, None);
    assert_eq!(bad["id"], 5, "{bad}");
    assert_eq!(bad["error"]["code"], -32600, "{bad}");
    assert_eq!(bad["error"]["data"]["path"], "/params/tool", "{bad}");
    let message = bad["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the request broke the coprocess schema at /params/tool: ")
            && message.contains("string"),
        "{bad}"
    );
    let extra = s.send_line(
        r#"{"jsonrpc": "2.0", "id": 6, "method": "mcp.listTools", "trace": true}"#,
        None,
    );
    assert_eq!(extra["error"]["code"], -32600, "{extra}");
    assert_eq!(extra["error"]["data"]["path"], "", "{extra}");
    let no_id = s.send_line(r#"{"jsonrpc": "2.0", "method": "mcp.listTools"}"#, None);
    assert_eq!(no_id["error"]["code"], -32600, "{no_id}");
    // Unknown methods are the engine's to answer: -32601.
    let unknown = s.send_line(r#"{"jsonrpc": "2.0", "id": 7, "method": "mcp.nope"}"#, None);
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    // Still serving.
    let call = s.result(
        "mcp.call",
        json!({"tool": "echo", "arguments": {"message": "on"}}),
    );
    assert_eq!(call["text"], "on");
    assert_eq!(s.shutdown(), Some(0));

    // Without --check-frames the engine's own checks answer: -32602.
    let mut plain = std::process::Command::new(MCPTEST)
        .args(["exec", "--connection-server", "--", &everything()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = plain.stdin.take().unwrap();
    use std::io::Write;
    writeln!(stdin, "{line}").unwrap();
    drop(stdin);
    let out = plain.wait_with_output().unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
}

/// The argv form reaches the server exactly: a program path and
/// arguments with spaces, quotes and shell characters, an environment
/// value and a working directory alike, none of it through a shell.
#[test]
fn argv_env_and_cwd_reach_the_server_exactly_without_a_shell() {
    let ws = Workspace::new(&[]);
    let odd = "dir with spaces, 'single' and \"double\" quotes; $HOME `x`";
    let bin_dir = ws.path(odd);
    std::fs::create_dir_all(&bin_dir).unwrap();
    let program = bin_dir.join("fixture everything");
    std::os::unix::fs::symlink(fixture("fixture-everything"), &program).unwrap();
    let root = ws.path(&format!("root {odd}"));
    std::fs::create_dir_all(&root).unwrap();
    let cwd = ws.path("cwd with space");
    std::fs::create_dir_all(&cwd).unwrap();
    let value = "it's \"quoted\" & $HOME; rm -rf / `x`";
    let env = format!("GREETING={value}");
    let (program, root_arg, cwd_arg) = (
        program.display().to_string(),
        root.display().to_string(),
        cwd.display().to_string(),
    );
    let mut s = Session::start(
        ws.dir.path(),
        &[
            "--server-env",
            &env,
            "--server-cwd",
            &cwd_arg,
            "--",
            &program,
            "--root",
            &root_arg,
        ],
    );
    s.handshake();
    let greeting = s.result(
        "mcp.call",
        json!({"tool": "env", "arguments": {"name": "GREETING"}}),
    );
    assert_eq!(greeting["text"], value, "{greeting}");
    let dir = s.result("mcp.call", json!({"tool": "cwd"}));
    assert_eq!(
        std::fs::canonicalize(dir["text"].as_str().unwrap()).unwrap(),
        std::fs::canonicalize(&cwd).unwrap(),
        "{dir}"
    );
    let wrote = s.result(
        "mcp.call",
        json!({"tool": "write_file", "arguments": {"path": "a.txt", "content": "here"}}),
    );
    assert_eq!(wrote["success"], true, "{wrote}");
    assert_eq!(std::fs::read_to_string(root.join("a.txt")).unwrap(), "here");
    assert_eq!(s.shutdown(), Some(0));
}

#[test]
fn a_session_without_a_server_answers_mcp_requests_with_32602_and_serves_the_rest() {
    let ws = Workspace::new(&[]);
    let mut s = Session::start(ws.dir.path(), &[]);
    s.handshake();
    let expected = "no server under test: start mcptest exec with --server-command, --server-url or -- PROGRAM ARG...";
    for (method, params) in [
        ("mcp.initialize", Value::Null),
        ("mcp.call", json!({"tool": "add"})),
        ("mcp.listTools", Value::Null),
        ("mcp.readResource", json!({"uri": "x://y"})),
        ("mcp.messages", Value::Null),
    ] {
        let error = s.error(method, params);
        assert_eq!(error["code"], -32602, "{method}: {error}");
        assert_eq!(error["message"], expected, "{method}: {error}");
    }
    assert_eq!(
        s.result(
            "mcp.reporter.record",
            json!({"name": "t", "status": "pass"})
        ),
        json!({})
    );
    assert_eq!(s.shutdown(), Some(0));
}

#[test]
fn a_server_that_cannot_be_found_is_a_usage_error_naming_it() {
    let ws = Workspace::new(&[]);
    for (args, named) in [
        (vec!["--", "/no/such/server", "--stdio"], "/no/such/server"),
        (
            vec!["--", "no-such-mcp-server-anywhere"],
            "no-such-mcp-server-anywhere",
        ),
        (
            vec!["--server-cwd", "nowhere", "--", "python3"],
            "--server-cwd nowhere",
        ),
        (
            vec!["--server-env", "NOEQUALS", "--", "python3"],
            "NOEQUALS",
        ),
        (vec!["--server-env", "A=1"], "--server-env"),
    ] {
        let mut all = vec!["exec", "--connection-server"];
        all.extend(&args);
        let out = output(ws.mcptest(&all));
        assert_eq!(out.code, Some(2), "{args:?}: {out:?}");
        assert!(out.stderr.contains(named), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
    }
    let both = output(ws.mcptest(&[
        "exec",
        "--connection-server",
        "--server-url",
        "http://127.0.0.1:1/mcp",
        "--",
        "python3",
    ]));
    assert_eq!(both.code, Some(2), "{both:?}");
}

/// A v2 peer (no handshake, or handshake 2) gets v2's methods and shapes,
/// byte for byte.
#[test]
fn a_v2_session_is_served_as_before() {
    let ws = Workspace::new(&[]);
    for handshake in [false, true] {
        let mut s = Session::start(ws.dir.path(), &["--", &everything()]);
        if handshake {
            let hello = s.result("coprocess/handshake", json!({"protocol_version": 2}));
            assert_eq!(
                hello,
                json!({"protocol_version": 2, "binary_version": env!("CARGO_PKG_VERSION")})
            );
        }
        let line = s.send_line(
            r#"{"jsonrpc": "2.0", "id": 2, "method": "mcp.call", "params": {"tool": "add", "arguments": {"a": 2, "b": 3}}}"#,
            Some("mcp.call"),
        );
        let ms = line["result"]["duration_ms"].as_u64().unwrap();
        assert_eq!(
            serde_json::to_string(&line).unwrap(),
            format!(
                r#"{{"id":2,"jsonrpc":"2.0","result":{{"data":null,"duration_ms":{ms},"error":null,"success":true,"text":"5"}}}}"#
            )
        );
        let passthrough = s.send_line(
            r#"{"jsonrpc": "2.0", "id": 3, "method": "mcp.call", "params": {"tool": "add", "passthrough": true}}"#,
            None,
        );
        assert_eq!(passthrough["error"]["code"], -32600, "{passthrough}");
        assert_eq!(
            passthrough["error"]["data"]["path"], "/params",
            "{passthrough}"
        );
        let v3_only = s.send_line(
            r#"{"jsonrpc": "2.0", "id": 4, "method": "mcp.listPrompts"}"#,
            None,
        );
        assert_eq!(
            v3_only["error"]["message"],
            "unknown method `mcp.listPrompts` (coprocess protocol v2: coprocess/handshake, \
             mcp.initialize, mcp.call, mcp.listTools, mcp.listResources, mcp.readResource, \
             mcp.callPrompt, mcp.reporter.setUpload, mcp.reporter.flush, mcp.cache.set_mode, \
             mcp.cassette.set_mode, mcp.shutdown)",
            "{v3_only}"
        );
        assert_eq!(s.shutdown(), Some(0));
    }
}

#[test]
fn a_handshake_of_another_version_names_both_sides_the_range_and_what_to_upgrade() {
    let ws = Workspace::new(&[]);
    let mut s = Session::start(ws.dir.path(), &[]);
    let newer = s.error(
        "coprocess/handshake",
        json!({"protocol_version": 4, "sdk": "python"}),
    );
    assert_eq!(
        newer,
        json!({
            "code": -32602,
            "message": "coprocess protocol version mismatch: this mcptest binary speaks v2 to v3, \
                        the python SDK sent v4. Upgrade the mcptest binary (or pin the SDK to the \
                        matching release).",
            "data": {"binary": [2, 3], "sdk": 4},
        })
    );
    let older = s.error(
        "coprocess/handshake",
        json!({"protocol_version": 1, "sdk": "go"}),
    );
    assert_eq!(
        older["message"],
        "coprocess protocol version mismatch: this mcptest binary speaks v2 to v3, the go SDK \
         sent v1. Upgrade the go SDK (or pin the mcptest binary to the matching release)."
    );
    assert_eq!(older["data"], json!({"binary": [2, 3], "sdk": 1}));
    assert_eq!(s.shutdown(), Some(0));
}

/// The fixture's `rpc_error` tool answers with a JSON-RPC error.
#[test]
fn upstream_errors_drops_and_timeouts_keep_their_codes_and_data_shapes() {
    let ws = Workspace::new(&[]);
    // The first call also starts the server under this limit: room for a
    // loaded machine.
    let mut s = everything_session(&ws, &["--call-timeout", "2s"]);
    let rpc = s.error("mcp.call", json!({"tool": "rpc_error"}));
    assert_eq!(rpc["code"], -32000, "{rpc}");
    assert_eq!(rpc["data"]["method"], "tools/call", "{rpc}");
    assert_eq!(rpc["data"]["tool"], "rpc_error", "{rpc}");
    assert!(rpc["data"]["upstream"]["code"].is_i64(), "{rpc}");
    let slow = s.error(
        "mcp.call",
        json!({"tool": "slow", "arguments": {"ms": 5000}}),
    );
    assert_eq!(
        slow,
        json!({"code": -32603, "message": "mcp.call did not answer within 2 s",
               "data": {"method": "mcp.call", "timeout_ms": 2000}})
    );
    let echo = s.result(
        "mcp.call",
        json!({"tool": "echo", "arguments": {"message": "after"}}),
    );
    assert_eq!(echo["text"], "after", "the connection survives a timeout");
    assert_eq!(s.shutdown(), Some(0));

    let ws = Workspace::new(&[("die.py", PY_DIES)]);
    let mut s = Session::start(ws.dir.path(), &["--", "python3", "die.py"]);
    s.handshake();
    let died = s.error("mcp.call", json!({"tool": "die"}));
    assert_eq!(died["code"], -32001, "{died}");
    assert_eq!(died["data"]["exit_code"], 3, "{died}");
    assert!(
        died["data"]["stderr_tail"]
            .as_str()
            .unwrap()
            .contains("the die tool was called"),
        "{died}"
    );
    assert_eq!(s.shutdown(), Some(0));
}

/// Answers the handshake; `tools/call` exits 3 after a line on stderr.
const PY_DIES: &str = r#"
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "initialize":
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {
            "protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
            "serverInfo": {"name": "py-dies", "version": "1"}}}) + "\n")
        sys.stdout.flush()
    elif msg.get("method") == "tools/call":
        sys.stderr.write("fatal: the die tool was called\n"); sys.stderr.flush()
        sys.exit(3)
"#;

#[tokio::test]
async fn the_rust_client_speaks_v3_and_parses_every_shape_strictly() {
    use mcptest_coprocess::Client;
    let ws = Workspace::new(&[]);
    std::fs::create_dir_all(ws.path("root")).unwrap();
    let root = ws.path("root").display().to_string();
    let server = everything();
    let mut engine = Client::spawn(
        MCPTEST,
        [
            "exec",
            "--connection-server",
            "--check-frames",
            "--",
            server.as_str(),
            "--root",
            root.as_str(),
        ],
    )
    .await
    .unwrap();
    assert_eq!(engine.handshake().protocol_version, 3);
    assert!(
        engine
            .handshake()
            .methods
            .iter()
            .any(|m| m == "mcp.messages")
    );
    let reply = engine
        .call_tool("log", json!({"level": "error", "message": "boom"}))
        .await
        .unwrap();
    assert!(reply.success, "{reply:?}");
    assert_eq!(reply.logs.len(), 1, "{reply:?}");
    assert_eq!(reply.logs[0].data, json!("boom"));
    let raw = engine
        .call_tool_passthrough("fail", json!({}))
        .await
        .unwrap();
    assert!(!raw.success(), "{raw:?}");
    assert!(!engine.list_prompts().await.unwrap().is_empty());
    assert!(!engine.list_resource_templates().await.unwrap().is_empty());
    let read = engine.read_resource("fixture://static/text").await.unwrap();
    assert!(read["contents"].is_array());
    let messages = engine.messages().await.unwrap();
    assert!(messages.messages.is_empty(), "{messages:?}");
    engine.record("mine", "pass", None).await.unwrap();
    assert_eq!(
        engine.shutdown().await.unwrap().and_then(|s| s.code()),
        Some(0)
    );
}

/// The report holds every call, suite run and recorded result; the
/// cassette and the cache take their v3 frames too.
#[test]
fn the_report_and_the_store_methods_in_a_v3_session() {
    let (url, received) = super::exec_frames::upload_receiver();
    let ws = Workspace::new(&[("adds.yaml", PASSING)]);
    let mock = format!("'{MCPTEST}' mock contract.yaml");
    let mut s = Session::start(ws.dir.path(), &["--server-command", &mock]);
    s.handshake();
    let tape = ws.path("tape.json").display().to_string();
    let set = s.result(
        "mcp.cassette.set_mode",
        json!({"mode": "record", "path": tape}),
    );
    assert_eq!(set, json!({"mode": "record", "path": tape}));
    let call = s.result(
        "mcp.call",
        json!({"tool": "add", "arguments": {"a": 2, "b": 3}}),
    );
    assert_eq!(call["text"], "5", "{call}");
    let off = s.result("mcp.cache.set_mode", json!({"mode": "off"}));
    assert_eq!(off["mode"], "off", "{off}");
    assert!(
        std::fs::read_to_string(&tape)
            .unwrap()
            .contains("tools/call")
    );
    let listed = s.result("suite.list", json!({"paths": ["adds.yaml"]}));
    let run = s.result("suite.run", json!({"id": listed["tests"][0]["id"]}));
    assert_eq!(run["status"], "pass", "{run}");
    s.result(
        "mcp.reporter.record",
        json!({"name": "the SDK's own", "status": "skip", "message": "not today"}),
    );
    assert_eq!(
        s.result("mcp.reporter.setUpload", json!({"url": url})),
        json!({})
    );
    let flushed = s.result("mcp.reporter.flush", Value::Null);
    assert_eq!(flushed["results"], 3, "{flushed}");
    let request = received.join().unwrap();
    let body = &request[request.find("\r\n\r\n").unwrap() + 4..];
    let report: Value = serde_json::from_str(body).unwrap();
    assert_eq!(
        report["counts"],
        json!({"passed": 2, "failed": 0, "warned": 0, "skipped": 1}),
        "{report}"
    );
    let names: Vec<&str> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["tools/call add", "adds", "the SDK's own"]);
    assert_eq!(s.shutdown(), Some(0));
}

/// The result shapes the schema gives are the ones the binary sends:
/// checked here on hand-made frames too, so a schema too loose to fail is
/// noticed.
#[test]
fn the_schema_refuses_drifted_frames() {
    let verdict = json!({"success": true, "text": "5", "data": null, "error": null,
        "duration_ms": 1, "content": [], "messages": [], "logs": []});
    assert_eq!(validate("/$defs/result/mcp.call", &verdict), Ok(()));
    let mut drifted = verdict.clone();
    drifted["score"] = json!(1);
    assert!(validate("/$defs/result/mcp.call", &drifted).is_err());
    assert!(validate("/$defs/v2/result/mcp.call", &verdict).is_err());
    let message = json!({"method": "x", "params": null, "id": 1});
    assert!(
        validate("/$defs/server_message", &message).is_err(),
        "a request without its reply"
    );
}
