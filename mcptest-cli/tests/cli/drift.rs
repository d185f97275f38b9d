use super::*;

/// A surface as a saved `tools/list` result: `search` with its parameters.
fn listing(properties: &str, required: &str, extra_tool: bool) -> String {
    let extra = if extra_tool {
        r#", {"name": "export", "description": "Exports every note.", "inputSchema": {"type": "object"}}"#
    } else {
        ""
    };
    format!(
        r#"{{"tools": [{{"name": "search", "description": "Finds notes by text.",
  "inputSchema": {{"type": "object", "properties": {{{properties}}}, "required": [{required}]}}}}{extra}]}}"#
    )
}

const QUERY: &str = r#""query": {"type": "string"}"#;

fn drift(ws: &Workspace, old: &str, new: &str, more: &[&str]) -> Output {
    let mut args = vec!["drift", old, new];
    args.extend_from_slice(more);
    output(ws.mcptest(&args))
}

#[test]
fn the_exit_status_is_the_worst_change() {
    let limit = r#""query": {"type": "string"}, "limit": {"type": "integer"}"#;
    let ws = Workspace::new(&[
        ("old.json", &listing(QUERY, r#""query""#, true)),
        ("same.json", &listing(QUERY, r#""query""#, true)),
        ("added.json", &listing(limit, r#""query""#, true)),
        (
            "required.json",
            &listing(limit, r#""query", "limit""#, true),
        ),
        ("removed.json", &listing(QUERY, r#""query""#, false)),
    ]);
    let out = drift(&ws, "old.json", "same.json", &[]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("PASS  no change"), "{out:?}");

    let out = drift(&ws, "old.json", "added.json", &[]);
    assert_eq!(out.code, Some(0), "compatible: {out:?}");
    assert!(
        out.stdout
            .contains("MCPT-D014 tool \"search\" parameter \"limit\""),
        "{out:?}"
    );
    assert!(
        out.stdout
            .contains("1 change: 0 breaking, 0 degrading, 1 compatible"),
        "{out:?}"
    );

    let out = drift(&ws, "old.json", "required.json", &["--json", "drift.json"]);
    assert_eq!(out.code, Some(1), "breaking: {out:?}");
    assert!(out.stdout.contains("FAIL  MCPT-D002"), "{out:?}");
    assert!(out.stdout.contains("Why it matters"), "{out:?}");
    let json: serde_json::Value = serde_json::from_str(&ws.read("drift.json")).unwrap();
    assert_eq!(
        json["results"][0]["properties"]["impact"], "breaking",
        "{json}"
    );

    let out = drift(&ws, "old.json", "removed.json", &[]);
    assert_eq!(out.code, Some(1), "a removed tool: {out:?}");
    let out = drift(&ws, "removed.json", "old.json", &[]);
    assert_eq!(out.code, Some(0), "an added tool: {out:?}");
}

#[test]
fn degrading_exits_4_unless_only_breaking_fails() {
    let old = listing(QUERY, r#""query""#, false);
    let new = old.replace("Finds notes by text.", "Finds.");
    let ws = Workspace::new(&[("old.json", &old), ("new.json", &new)]);
    let out = drift(&ws, "old.json", "new.json", &[]);
    assert_eq!(out.code, Some(4), "{out:?}");
    assert!(out.stdout.contains("FAIL  MCPT-D010"), "{out:?}");
    assert!(
        out.stdout.contains("no degrading change (MCPT-D010"),
        "{out:?}"
    );
    let out = drift(&ws, "old.json", "new.json", &["--fail-on", "breaking"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("WARN  MCPT-D010"), "shown: {out:?}");
    let out = drift(&ws, "old.json", "new.json", &["--fail-on", "compatible"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("write breaking or degrading"),
        "{out:?}"
    );
}

#[test]
fn a_live_server_against_a_stored_listing_with_sarif_on_the_listing() {
    // The mock lists `add` alone; the stored listing also has `search`.
    let stored = r#"{"tools": [
  {"name": "add", "inputSchema": {"type": "object"}},
  {"name": "search", "inputSchema": {"type": "object"}}
]}
"#;
    let ws = Workspace::new(&[("stored.json", stored)]);
    let out = drift(
        &ws,
        "stored.json",
        &server(),
        &["--sarif", "out/drift.sarif"],
    );
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("MCPT-D001 tool \"search\""), "{out:?}");
    assert!(
        out.stdout
            .contains("wrote 1 SARIF result to out/drift.sarif"),
        "{out:?}"
    );
    let sarif: serde_json::Value = serde_json::from_str(&ws.read("out/drift.sarif")).unwrap();
    let location = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "stored.json");
    assert_eq!(
        location["region"]["startLine"], 3,
        "the removed tool's line: {sarif}"
    );
}

#[test]
fn bad_sides_are_usage_errors_that_say_what_and_where() {
    let ws = Workspace::new(&[("suite.yaml", PASSING), ("broken.json", "{\"tools\": [\n")]);
    let out = drift(&ws, "suite.yaml", "suite.yaml", &[]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("suite.yaml: no surface"), "{out:?}");
    let out = drift(&ws, "broken.json", "suite.yaml", &[]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("broken.json:"), "{out:?}");
    let out = drift(&ws, "missing.snap", "suite.yaml", &[]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr
            .contains("\"missing.snap\" is neither a file nor a URL"),
        "{out:?}"
    );
    let live = server();
    let out = drift(&ws, &live, &live, &["--sarif", "x.sarif"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("--sarif needs --sarif-anchor"),
        "{out:?}"
    );
}
