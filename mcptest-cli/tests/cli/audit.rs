use super::*;

/// A contract whose `add` needs two integers, answered for the input the
/// audit's generator builds (1 and 1), and a destructive tool.
pub(super) const HEALTHY: &str = r#"
case: List tools
in: {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
out: {"jsonrpc": "2.0", "id": 1, "result": {"tools": [
  {"name": "add", "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}},
  {"name": "drop_all", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}}
]}}
---
case: Add
in: {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1, "b": 1}}}
out: {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "2"}]}}
"#;

pub(super) fn healthy_server() -> String {
    format!("'{MCPTEST}' mock healthy.yaml")
}

#[test]
fn a_healthy_server_passes_and_destructive_tools_are_skipped() {
    let ws = Workspace::new(&[("healthy.yaml", HEALTHY)]);
    let server = healthy_server();
    let out = output(ws.mcptest(&["audit", "--server", &server, "--json", "audit.json"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("PASS  add"), "{out:?}");
    assert!(
        out.stdout.contains("SKIP  drop_all: destructive"),
        "{out:?}"
    );
    assert!(
        out.stdout
            .contains("score: 1 of 1 tools healthy (100%), 1 skipped"),
        "{out:?}"
    );
    let json: serde_json::Value = serde_json::from_str(&ws.read("audit.json")).unwrap();
    assert_eq!(json["counts"]["passed"], 1, "{json}");
}

#[test]
fn a_tool_answered_with_a_json_rpc_error_fails_the_audit_with_what_was_sent() {
    let ws = Workspace::new(&[]);
    let out = output(ws.mcptest(&["audit", "--server", &server(), "--timeout", "10s"]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("[protocol-error]"), "{out:?}");
    assert!(out.stdout.contains("tools/call add {}"), "{out:?}");
    assert!(
        out.stdout.contains("score: 0 of 1 tools healthy (0%)"),
        "{out:?}"
    );
}

#[test]
fn a_server_or_url_is_required() {
    let ws = Workspace::new(&[]);
    let out = output(ws.mcptest(&["audit"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    let out = output(ws.mcptest(&["audit", "--server", "no-such-server-here"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("server not found"), "{out:?}");
}

#[test]
fn generated_starter_files_run_green() {
    let ws = Workspace::new(&[("healthy.yaml", HEALTHY)]);
    let server = healthy_server();
    let out = output(ws.mcptest(&["generate", "--server", &server, "--out", "gen"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    let add = ws.read("gen/add.yaml");
    assert!(add.contains(r#"args: {"a":1,"b":1}"#), "{add}");
    assert!(add.contains("not_error: true"), "{add}");
    assert!(ws.read("gen/drop_all.yaml").contains("skip: true"));
    let out = output(ws.mcptest(&["run", "gen", "--server", &server]));
    assert_eq!(out.code, Some(0), "{out:?}");
    // Existing files are kept.
    let out = output(ws.mcptest(&["generate", "--server", &server, "--out", "gen"]));
    assert!(out.stdout.contains("kept"), "{out:?}");
}

/// A server that floods pings and then stops reading, and one tool that
/// stops reading and never answers: the audit ends all the same, the first
/// healthy, the second a timeout, and the summary is printed.
#[test]
fn a_server_that_floods_pings_or_stops_reading_never_hangs_the_audit() {
    let ws = Workspace::new(&[("hostile.py", super::exec::PY_HOSTILE)]);
    let server = format!("python3 {}", ws.path("hostile.py").display());
    let out = output(ws.mcptest(&["audit", "--server", &server, "--timeout", "3s"]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("PASS  flood"), "{out:?}");
    assert!(out.stdout.contains("FAIL  deaf"), "{out:?}");
    assert!(out.stdout.contains("[timeout]"), "{out:?}");
    assert!(
        out.stdout.contains("score: 1 of 2 tools healthy (50%)"),
        "{out:?}"
    );
}
