use super::*;

const AGENT: &str = concat!(
    r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "agent", "version": "1"}}}"#,
    "\n",
    r#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#,
    "\n",
    r#"{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}"#,
    "\n",
);

const CALLS_ADD: &str = "\
name: the agent adds
audit_log: calls.jsonl
trajectory:
  - type: presence
    tools: [add]
  - type: args_contain
    tool: add
    args: {a: 2}
";

const NEVER_ADDS: &str = "\
name: the agent never adds
audit_log: calls.jsonl
trajectory:
  - type: absence
    tools: [add]
";

fn intercept(ws: &Workspace, trajectory: &str) -> Output {
    let mut command = ws.mcptest(&[
        "intercept",
        "--server",
        &server(),
        "--trajectory",
        trajectory,
        "--log",
        "calls.jsonl",
    ]);
    command.write_stdin(AGENT);
    output(command)
}

#[test]
fn the_agent_gets_every_answer_and_its_calls_are_checked() {
    let ws = Workspace::new(&[("checks.yaml", CALLS_ADD)]);
    let out = intercept(&ws, "checks.yaml");
    assert_eq!(out.code, Some(0), "{out:?}");
    // Both requests were answered through the proxy, in order.
    let answers: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<_> = answers.iter().map(|a| a["id"].clone()).collect();
    assert_eq!(ids, [serde_json::json!(1), serde_json::json!(2)], "{out:?}");
    assert_eq!(answers[1]["result"]["content"][0]["text"], "5", "{out:?}");
    assert_eq!(
        ws.read("calls.jsonl"),
        "{\"args\":{\"a\":2,\"b\":3},\"tool\":\"add\"}\n"
    );
    assert!(
        out.stderr.contains("recorded 1 tool call to calls.jsonl"),
        "{out:?}"
    );
    assert!(out.stderr.contains("PASS  the agent adds"), "{out:?}");
}

#[test]
fn a_broken_trajectory_fails_with_the_calls_it_saw() {
    let ws = Workspace::new(&[("checks.yaml", NEVER_ADDS)]);
    let out = intercept(&ws, "checks.yaml");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stderr.contains("FAIL  the agent never adds"), "{out:?}");
    assert!(out.stderr.contains("add"), "{out:?}");
}

#[test]
fn a_missing_trajectory_file_stops_before_the_agent_is_let_in() {
    let ws = Workspace::new(&[]);
    let out = intercept(&ws, "missing.yaml");
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(!ws.path("calls.jsonl").exists());
}
