//! Tests that share state through their server: at the default `--jobs`
//! tests that fail beside others make the run replay its tests one at a
//! time up to the last of them; a failure that passes then passes as
//! "interfered", named in the summary; `--independent` trusts the verdict
//! reached beside others; `--jobs 1` never sees the clash.

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
fn a_test_failing_beside_others_is_rerun_one_at_a_time_and_named() {
    let ws = workspace();
    let server = stateful_server();
    let out = output(ws.mcptest(&[
        "run", "evals", "--jobs", "2", "--server", &server, "--json", "r.json",
    ]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("2 passed, 0 failed"), "{out:?}");
    assert!(out.stdout.contains("one at a time: PASS"), "{out:?}");
    assert!(
        out.stdout.contains(
            "interfered: 1 test gave another verdict beside other tests than one at a time:"
        ),
        "{out:?}"
    );
    assert!(out.stdout.contains("--independent"), "{out:?}");
    let json: serde_json::Value = serde_json::from_str(&ws.read("r.json")).unwrap();
    assert_eq!(interfered(&json).len(), 1, "{json}");
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
    assert!(!out.stdout.contains("one at a time"), "{out:?}");
}

#[test]
fn one_job_runs_them_one_after_another_without_reruns() {
    let ws = workspace();
    let server = stateful_server();
    let out = output(ws.mcptest(&["run", "evals", "--jobs", "1", "--server", &server]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!out.stdout.contains("one at a time"), "{out:?}");
    assert!(!out.stdout.contains("interfered"), "{out:?}");
}

#[test]
fn a_test_that_fails_alone_too_fails() {
    let ws = Workspace::new(&[("evals/a.yaml", PASSING), ("evals/b.yaml", FAILING)]);
    let out = output(ws.run(&["evals", "--jobs", "2"]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout.contains("one at a time: FAIL  adds wrong"),
        "{out:?}"
    );
    assert!(!out.stdout.contains("interfered"), "{out:?}");
}

/// A server whose processes share one file, `scratch`, the way
/// server-memory's share `memory.jsonl`: the maker (ROLE=maker) writes it
/// and removes it again, but a process that ran beside it writes back the
/// state it read (a lost update), so the file outlives the maker; the
/// checker (ROLE=checker) answers from the wrong contract while the file
/// is there. Once the checker has run beside the maker, rerunning the
/// checker alone still fails: only the maker, run again first, clears it.
const SHARED_FILE_SERVER: &str = r#"
mkdir -p running
touch "running/$$"
case "$ROLE" in
maker)
  touch scratch
  "$MCPTEST_BIN" mock contract.yaml
  rm -f scratch
  # Others running now read the file while it was there: they write it back.
  if [ -n "$(ls running | grep -v "^$$\$")" ]; then touch scratch; fi ;;
checker)
  sleep 1
  if [ -e scratch ]; then "$MCPTEST_BIN" mock busy.yaml; else "$MCPTEST_BIN" mock contract.yaml; fi ;;
esac
rm -f "running/$$"
"#;

#[test]
fn a_lost_update_is_repaired_by_replaying_the_earlier_tests_in_order() {
    let maker = PASSING.replace("name: adds", "name: makes and removes scratch");
    let checker = PASSING.replace("name: adds", "name: sees no scratch");
    let ws = Workspace::new(&[
        (
            "evals/a.yaml",
            &format!("{maker}server:\n  env: {{ROLE: maker}}\n"),
        ),
        (
            "evals/b.yaml",
            &format!("{checker}server:\n  env: {{ROLE: checker}}\n"),
        ),
        ("busy.yaml", BUSY),
        ("server.sh", SHARED_FILE_SERVER),
    ]);
    let out = output(
        ws.mcptest(&[
            "run",
            "--suite",
            "evals",
            "--jobs",
            "2",
            "--server",
            "sh server.sh",
            "--json",
            "r.json",
        ])
        .env("MCPTEST_BIN", MCPTEST),
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("2 passed, 0 failed"), "{out:?}");
    assert!(
        out.stdout.contains(
            "1 failed beside other tests: rerunning tests 1 to 2 one at a time, in file order"
        ),
        "{out:?}"
    );
    assert!(
        out.stdout.contains("one at a time: PASS  sees no scratch"),
        "{out:?}"
    );
    assert!(
        out.stdout
            .contains("sees no scratch (evals/b.yaml:2:1): failed beside other tests"),
        "{out:?}"
    );
    let json: serde_json::Value = serde_json::from_str(&ws.read("r.json")).unwrap();
    assert_eq!(interfered(&json), ["sees no scratch"], "{json}");
}
