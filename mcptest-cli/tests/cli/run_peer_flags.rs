//! `mcptest run` with mcp-assert's command line: `--suite`, a bare
//! `--json`, `--reuse-server`, `--threshold`, `--fail-on-regression`, and
//! `--server` replacing the server every file names.

use super::*;

/// A file that names a server of its own, which does not exist here.
const NAMES_A_SERVER: &str = "\
name: adds on its own server
server:
  command: no-such-server-anywhere
  args: [--stdio]
assert:
  tool: add
  args: {a: 2, b: 3}
  expect:
    contains: [\"5\"]
";

#[test]
fn server_replaces_the_server_every_file_names_and_the_header_says_so() {
    let ws = Workspace::new(&[
        ("evals/own.yaml", NAMES_A_SERVER),
        ("evals/plain.yaml", PASSING),
    ]);
    let out = output(ws.mcptest(&["run", "--suite", "evals", "--server", &server()]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.starts_with(&format!(
            "--server replaces the server named in 1 of 2 test files: {}\n",
            server()
        )),
        "{out:?}"
    );
    assert!(out.stdout.contains("2 passed"), "{out:?}");
    // Without --server, the file's own server is what runs.
    let out = output(ws.mcptest(&["run", "--suite", "evals/own.yaml"]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("no-such-server-anywhere"), "{out:?}");
    assert!(!out.stdout.contains("--server replaces"), "{out:?}");
}

#[test]
fn the_peer_command_line_runs_as_is() {
    let ws = Workspace::new(&[("evals/a.yaml", PASSING), ("evals/b.yaml", PASSING)]);
    let server = server();
    let out = output(ws.mcptest(&[
        "run",
        "--suite",
        "evals",
        "--server",
        &server,
        "--timeout",
        "30s",
        "--junit",
        "out/junit.xml",
        "--markdown",
        "out/summary.md",
        "--badge",
        "out/badge.json",
        "--trials",
        "2",
        "--save-baseline",
        "out/baseline.json",
        "--reuse-server",
    ]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("2 passed"), "{out:?}");
    assert!(ws.read("out/junit.xml").contains("<testsuite"));
    assert!(ws.read("out/summary.md").contains("pass@2"));
    assert!(ws.read("out/badge.json").contains("\"label\""));
    let out = output(ws.mcptest(&[
        "run",
        "--suite",
        "evals",
        "--server",
        &server,
        "--baseline",
        "out/baseline.json",
        "--fail-on-regression",
    ]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("baseline: 0 regressions"), "{out:?}");
    // The flag means nothing without a baseline, as with mcp-assert.
    let out = output(ws.mcptest(&["run", "--suite", "evals", "--fail-on-regression"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("--baseline"), "{out:?}");
}

#[test]
fn a_bare_json_prints_the_report_on_stdout_and_the_rest_on_stderr() {
    let ws = Workspace::new(&[("evals/a.yaml", PASSING), ("evals/b.yaml", FAILING)]);
    for args in [&["--json"][..], &["--json", "-"][..]] {
        let mut all = vec!["--suite", "evals"];
        all.extend_from_slice(args);
        let out = output(ws.run(&all));
        assert_eq!(out.code, Some(1), "{out:?}");
        let json: serde_json::Value = serde_json::from_str(&out.stdout).expect("stdout is JSON");
        assert_eq!(json["counts"]["passed"], 1, "{out:?}");
        assert_eq!(json["counts"]["failed"], 1, "{out:?}");
        assert!(out.stderr.contains("1 passed, 1 failed"), "{out:?}");
    }
    // With a file name it is the file, as before.
    let out = output(ws.run(&["evals", "--json", "report.json"]));
    assert!(out.stdout.contains("1 passed, 1 failed"), "{out:?}");
    assert!(ws.read("report.json").contains("\"counts\""));
}

#[test]
fn threshold_passes_a_run_with_enough_passes() {
    let ws = Workspace::new(&[
        ("evals/a.yaml", PASSING),
        ("evals/b.yaml", FAILING),
        ("evals/c.yaml", SKIPPED),
    ]);
    // 1 of the 2 that ran passed: 50%.
    for (threshold, code, says) in [("50", 0, "is met"), ("51", 1, "is NOT met")] {
        let out = output(ws.run(&["--suite", "evals", "--threshold", threshold]));
        assert_eq!(out.code, Some(code), "{threshold}: {out:?}");
        assert!(
            out.stdout.contains(&format!(
                "threshold: 50% of 2 tests passed; --threshold {threshold}% {says}"
            )),
            "{out:?}"
        );
    }
    let out = output(ws.run(&["--suite", "evals", "--threshold", "101"]));
    assert_eq!(out.code, Some(2), "{out:?}");
}

#[test]
fn without_paths_or_suite_is_a_usage_error() {
    let ws = Workspace::new(&[]);
    let out = output(ws.mcptest(&["run"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("PATH"), "{out:?}");
}
