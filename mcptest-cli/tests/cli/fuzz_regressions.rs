use super::*;

/// An MCP server in Python whose `parse` tool exits on an empty text.
const FRAGILE: &str = r#"
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if method == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "fragile", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": [{"name": "parse", "inputSchema": {"type": "object",
                  "properties": {"text": {"type": "string"}}, "required": ["text"]}}]}
    elif method == "tools/call":
        if msg["params"].get("arguments", {}).get("text") == "":
            sys.exit(2)
        result = {"content": [{"type": "text", "text": "ok"}]}
    else:
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid, "result": result}) + "\n")
    sys.stdout.flush()
"#;

#[test]
fn failing_cases_are_written_as_mcp_tests() {
    let ws = Workspace::new(&[("fragile.py", FRAGILE)]);
    let out = output(ws.mcptest(&[
        "fuzz",
        "--server",
        "python3 fragile.py",
        "--mutations",
        "0",
        "--timeout",
        "5s",
        "--write-tests",
        "fuzz_regressions.rs",
    ]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout.contains("wrote the failing cases as tests"),
        "{out:?}"
    );
    let file = ws.read("fuzz_regressions.rs");
    assert!(
        file.contains("#[mcp_test(server = \"python3 fragile.py\")]"),
        "{file}"
    );
    assert!(
        file.contains(r#"mcp.call_tool("parse", json!({"text":""})).await"#),
        "{file}"
    );
    assert!(file.contains("ToolOutcome::Failed(_)"), "{file}");
}

#[test]
fn write_tests_needs_a_server_command() {
    let ws = Workspace::new(&[]);
    let out = output(ws.mcptest(&[
        "fuzz",
        "--url",
        "http://127.0.0.1:9/mcp",
        "--write-tests",
        "x.rs",
    ]));
    assert_eq!(out.code, Some(2), "{out:?}");
}

#[test]
fn failing_cases_are_written_as_a_suite_that_fails_before_the_fix_and_passes_after() {
    let fixed = FRAGILE.replace("sys.exit(2)", "pass");
    let ws = Workspace::new(&[("fragile.py", FRAGILE), ("fixed.py", &fixed)]);
    let out = output(ws.mcptest(&[
        "fuzz",
        "--server",
        "python3 fragile.py",
        "--mutations",
        "0",
        "--timeout",
        "5s",
        "--write-suite",
        "found.yaml",
    ]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout
            .contains("wrote the failing cases as cases of a suite file to found.yaml"),
        "{out:?}"
    );
    assert!(
        out.stdout.contains("--seed "),
        "the seed to reproduce: {out:?}"
    );
    let file = ws.read("found.yaml");
    assert!(
        file.contains(r#""params":{"name":"parse","arguments":{"text":""}}"#),
        "{file}"
    );
    assert!(
        file.contains("mcptest run THIS_FILE --server 'python3 fragile.py'"),
        "{file}"
    );
    let before = output(ws.mcptest(&["run", "found.yaml", "--server", "python3 fragile.py"]));
    assert_eq!(before.code, Some(1), "the bug: {before:?}");
    let after = output(ws.mcptest(&["run", "found.yaml", "--server", "python3 fixed.py"]));
    assert_eq!(after.code, Some(0), "the fix: {after:?}");
}
