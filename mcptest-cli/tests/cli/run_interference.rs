//! Tests that share state through their server: at the default `--jobs`
//! a test that fails beside others is rerun alone, and passes as
//! "interfered", named in the summary; `--independent` trusts the
//! verdict reached beside others; `--jobs 1` never sees the clash.

use super::*;

/// A contract without `add`: what a server answers when another holds
/// the shared state.
const BUSY: &str = r#"
case: List tools
in: {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
out: {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}
"#;

/// A server whose processes share one lock directory in the working
/// directory, as server-memory's share one file: while one runs, another
/// started beside it answers from the wrong contract.
fn stateful_server() -> String {
    format!(
        "sh -c 'if mkdir held 2>/dev/null; then trap \"rmdir held\" EXIT; \"$0\" mock contract.yaml; \
         else exec \"$0\" mock busy.yaml; fi' '{MCPTEST}'"
    )
}

fn workspace() -> Workspace {
    Workspace::new(&[
        ("evals/a.yaml", PASSING),
        ("evals/b.yaml", &PASSING.replace("adds", "adds again")),
        ("busy.yaml", BUSY),
    ])
}

#[test]
fn a_test_failing_beside_others_is_rerun_alone_and_named() {
    let ws = workspace();
    let server = stateful_server();
    let out = output(ws.mcptest(&[
        "run", "evals", "--jobs", "2", "--server", &server, "--json", "r.json",
    ]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("2 passed, 0 failed"), "{out:?}");
    assert!(out.stdout.contains("rerun alone: PASS"), "{out:?}");
    assert!(
        out.stdout
            .contains("interfered: 1 test failed beside other tests and passed when rerun alone:"),
        "{out:?}"
    );
    assert!(out.stdout.contains("--independent"), "{out:?}");
    let json: serde_json::Value = serde_json::from_str(&ws.read("r.json")).unwrap();
    let marked: Vec<_> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["properties"]["interfered"].is_string())
        .collect();
    assert_eq!(marked.len(), 1, "{json}");
}

#[test]
fn independent_trusts_the_verdict_reached_beside_others() {
    let ws = workspace();
    let server = stateful_server();
    let out = output(ws.mcptest(&[
        "run",
        "evals",
        "--jobs",
        "2",
        "--independent",
        "--server",
        &server,
    ]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("1 passed, 1 failed"), "{out:?}");
    assert!(!out.stdout.contains("rerun alone"), "{out:?}");
}

#[test]
fn one_job_runs_them_one_after_another_without_reruns() {
    let ws = workspace();
    let server = stateful_server();
    let out = output(ws.mcptest(&["run", "evals", "--jobs", "1", "--server", &server]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!out.stdout.contains("rerun alone"), "{out:?}");
    assert!(!out.stdout.contains("interfered"), "{out:?}");
}

#[test]
fn a_test_that_fails_alone_too_fails() {
    let ws = Workspace::new(&[("evals/a.yaml", PASSING), ("evals/b.yaml", FAILING)]);
    let out = output(ws.run(&["evals", "--jobs", "2"]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout.contains("rerun alone: FAIL  adds wrong"),
        "{out:?}"
    );
    assert!(!out.stdout.contains("interfered"), "{out:?}");
}
