use super::{audit::HEALTHY, audit::healthy_server, *};

const CALLS_ADD: &str = "\
name: adds
assert:
  tool: add
  args: {a: 1, b: 1}
  expect:
    contains: [\"2\"]
";

const CALLS_GONE: &str = "\
name: gone
assert:
  tool: gone
  expect:
    not_error: true
";

#[test]
fn every_listed_tool_is_marked_and_the_threshold_decides() {
    let ws = Workspace::new(&[("healthy.yaml", HEALTHY), ("evals/add.yaml", CALLS_ADD)]);
    let server = healthy_server();
    let out = output(ws.mcptest(&[
        "coverage",
        "evals",
        "--server",
        &server,
        "--json",
        "coverage.json",
    ]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout
            .contains("covered    tools: add  (evals/add.yaml)"),
        "{out:?}"
    );
    assert!(out.stdout.contains("UNCOVERED  tools: drop_all"), "{out:?}");
    assert!(
        out.stdout.contains("1 of 2 listed items exercised (50.0%)"),
        "{out:?}"
    );
    let json: serde_json::Value = serde_json::from_str(&ws.read("coverage.json")).unwrap();
    assert_eq!(json["counts"]["passed"], 1, "{json}");
    assert_eq!(json["counts"]["skipped"], 1, "{json}");

    let out = output(ws.mcptest(&["coverage", "evals", "--server", &server, "--min", "50"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    let out = output(ws.mcptest(&[
        "coverage",
        "evals",
        "--server",
        &server,
        "--min",
        "80%",
        "--json",
        "under.json",
        "--badge",
        "badge.json",
    ]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout.contains("coverage 50.0% is under --min 80%"),
        "{out:?}"
    );
    // Every report fails with the command: the threshold is a result.
    let json: serde_json::Value = serde_json::from_str(&ws.read("under.json")).unwrap();
    assert_eq!(json["passed"], false, "{json}");
    assert_eq!(json["counts"]["failed"], 1, "{json}");
    let badge: serde_json::Value = serde_json::from_str(&ws.read("badge.json")).unwrap();
    assert_ne!(badge["color"], "brightgreen", "{badge}");
}

#[test]
fn a_tool_the_files_call_and_the_server_does_not_list_is_named() {
    let ws = Workspace::new(&[("healthy.yaml", HEALTHY), ("evals/gone.yaml", CALLS_GONE)]);
    let out = output(ws.mcptest(&["coverage", "evals", "--server", &healthy_server()]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout
            .contains("not listed: the files exercise tool `gone`"),
        "{out:?}"
    );
    assert!(
        out.stdout.contains("0 of 2 listed items exercised (0.0%)"),
        "{out:?}"
    );
}

#[test]
fn bad_input_is_a_usage_error() {
    let ws = Workspace::new(&[("evals/add.yaml", CALLS_ADD)]);
    let out = output(ws.mcptest(&["coverage", "evals"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    let out = output(ws.mcptest(&["coverage", "evals", "--server", "no-such-server-here"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("server not found"), "{out:?}");
    let out = output(ws.mcptest(&["coverage", "evals", "--server", &server(), "--min", "120"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("not between 0 and 100"), "{out:?}");
    let out = output(ws.mcptest(&["coverage", "missing", "--server", &server()]));
    assert_eq!(out.code, Some(2), "{out:?}");
}
