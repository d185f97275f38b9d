use super::*;

#[test]
fn a_passing_suite_exits_0_with_a_line_per_test() {
    let ws = Workspace::new(&[("suite/add.yaml", PASSING), ("suite/off.yaml", SKIPPED)]);
    let out = output(ws.run(&["suite"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("PASS  adds ("), "{out:?}");
    assert!(out.stdout.contains("SKIP  off"), "{out:?}");
    assert!(
        out.stdout
            .contains("passed: 1 passed, 0 failed, 0 warned, 1 skipped"),
        "{out:?}"
    );
    // Not a terminal: no progress bar, no colour.
    assert!(!out.stderr.contains('\u{1b}'), "{out:?}");
    assert!(!out.stdout.contains('\u{1b}'), "{out:?}");
}

#[test]
fn a_failure_exits_1_and_is_shown_in_full() {
    let ws = Workspace::new(&[("suite/add.yaml", PASSING), ("suite/bad.yaml", FAILING)]);
    let out = output(ws.run(&["suite", "--jobs", "2"]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("FAIL  adds wrong ("), "{out:?}");
    assert!(
        out.stdout.contains("FAIL adds wrong (suite/bad.yaml:2:1)"),
        "{out:?}"
    );
    assert!(out.stdout.contains("text contains \"6\""), "{out:?}");
}

#[test]
fn globs_files_and_filter_choose_the_tests() {
    let ws = Workspace::new(&[("suite/add.yaml", PASSING), ("suite/bad.yaml", FAILING)]);
    let out = output(ws.run(&["suite/*.yaml", "--filter", "adds wrong"]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(!out.stdout.contains("PASS  adds"), "{out:?}");
    let out = output(ws.run(&["suite/add.yaml", "--jobs", "1", "--timeout", "5s"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    let out = output(ws.run(&["suite", "--filter", "nothing like it"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("no test matches --filter"), "{out:?}");
}

#[test]
fn each_test_gets_its_own_copy_of_the_fixture() {
    let ws = Workspace::new(&[
        ("fixture/hello.txt", "Hello there"),
        (
            "suite/file.yaml",
            "\
name: reads the fixture
assert:
  tool: add
  args: {a: 2, b: 3}
  expect:
    file_contains:
      \"{{fixture}}/hello.txt\": \"Hello\"
",
        ),
    ]);
    let out = output(ws.run(&["suite", "--fixture", "fixture"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    let out = output(ws.run(&["suite", "--fixture", "no-such-dir"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("no-such-dir: not a directory"),
        "{out:?}"
    );
}

#[test]
fn a_missing_file_is_a_load_error() {
    let ws = Workspace::new(&[]);
    let out = output(ws.run(&["missing.yaml"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr
            .contains("missing.yaml: no such file or directory"),
        "{out:?}"
    );
    let out = output(ws.run(&["nothing/*.yaml"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("the pattern matches no file"),
        "{out:?}"
    );
}

#[test]
fn bad_yaml_is_a_load_error_with_line_and_column() {
    let ws = Workspace::new(&[
        ("suite/add.yaml", PASSING),
        (
            "suite/broken.yaml",
            "name: x\nassert:\n  tool: add\n  expect: {contains: [\"a\"\n",
        ),
    ]);
    let out = output(ws.run(&["suite"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("suite/broken.yaml:"), "{out:?}");
    let place = out.stderr.split("suite/broken.yaml:").nth(1).unwrap();
    let mut numbers = place.split(':').take(2);
    assert!(numbers.all(|n| n.parse::<u32>().is_ok()), "{out:?}");
    assert!(!out.stdout.contains("PASS"), "nothing runs: {out:?}");
}

#[test]
fn a_server_that_does_not_exist_is_a_usage_error() {
    let ws = Workspace::new(&[("suite/add.yaml", PASSING)]);
    let out = output(ws.mcptest(&[
        "run",
        "suite",
        "--server",
        "no-such-mcp-server-anywhere --stdio",
    ]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr
            .contains("server not found: no-such-mcp-server-anywhere"),
        "{out:?}"
    );
    // A file that is there but cannot be run is named as such.
    let out = output(ws.mcptest(&["run", "suite", "--server", "./suite/add.yaml"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr
            .contains("./suite/add.yaml exists but is not executable"),
        "{out:?}"
    );
}

#[test]
fn a_run_where_everything_is_skipped_has_not_passed() {
    let ws = Workspace::new(&[("suite/off.yaml", SKIPPED)]);
    let out = output(ws.run(&["suite"]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("nothing was checked"), "{out:?}");
}

/// A failed test's fixture copy is kept in one home, one per test name,
/// replaced by the next run's, and the summary lists it; nothing is left
/// in the temp dir.
#[test]
fn kept_copies_have_one_home_one_per_test() {
    let ws = Workspace::new(&[
        ("fixture/hello.txt", "Hello there"),
        (
            "suite/file.yaml",
            "\
name: reads what is not there
assert:
  tool: add
  args: {a: 2, b: 3}
  expect:
    file_contains:
      \"{{fixture}}/hello.txt\": \"Goodbye\"
",
        ),
    ]);
    std::fs::create_dir(ws.path("temp")).unwrap();
    let kept = ws.path("kept/reads_what_is_not_there/fixture");
    for run in 0..2 {
        let out = output(
            ws.run(&["suite", "--fixture", "fixture"])
                .env("TMPDIR", ws.path("temp")),
        );
        assert_eq!(out.code, Some(1), "{out:?}");
        assert!(
            out.stdout.contains(&format!(
                "kept fixture copies (one per test, replaced when it fails again; in {}",
                ws.path("kept").display()
            )),
            "{out:?}"
        );
        assert!(
            out.stdout
                .contains(&format!("  reads what is not there: {}", kept.display())),
            "{out:?}"
        );
        assert_eq!(
            std::fs::read_to_string(kept.join("hello.txt")).unwrap(),
            "Hello there"
        );
        let homes = std::fs::read_dir(ws.path("kept")).unwrap().count();
        assert_eq!(homes, 1, "run {run}: one copy per test");
        let left = std::fs::read_dir(ws.path("temp")).unwrap().count();
        assert_eq!(left, 0, "run {run}: nothing left in the temp dir");
    }
}

/// The contract's `add`, answered with `structuredContent` an array: rmcp
/// reads it, the schema wants an object.
const OFF_SCHEMA: &str = r#"
case: Add
in: {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}
out: {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "5"}], "structuredContent": [5]}}
"#;

#[test]
fn a_message_off_the_schema_fails_the_test_unless_wire_schema_says_otherwise() {
    let ws = Workspace::new(&[("suite/add.yaml", PASSING), ("off.yaml", OFF_SCHEMA)]);
    let server = format!("'{MCPTEST}' mock off.yaml");
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "suite", "--server", server.as_str()];
        args.extend_from_slice(extra);
        output(ws.mcptest(&args))
    };
    let out = run(&[]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout.contains("breaks the MCP") && out.stdout.contains("result.structuredContent"),
        "{out:?}"
    );
    let out = run(&["--wire-schema", "warn"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr
            .contains("mcptest: warning: the answer to tools/call breaks"),
        "{out:?}"
    );
    let out = run(&["--wire-schema", "off"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!out.stderr.contains("breaks the MCP"), "{out:?}");
    let out = run(&["--wire-schema", "loose"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("write fail (the default), warn or off"),
        "{out:?}"
    );
}
