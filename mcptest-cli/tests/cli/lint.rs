//! `mcptest lint` over the lint fixture's tool lists (`tests/lint/*.json`,
//! which `fixture-chaos --lint-findings`/`--lint-clean` serve to the
//! library's tests), played here by the command's own `mock`: each rule
//! once, none on the clean list, mcp-assert's flags (`--strict`,
//! `--threshold`, `--skip-rules`, `--fix`, `--call-tools`,
//! `--detect-nondeterminism`, a bare `--json`), `--sarif`, and bad input.

use std::collections::BTreeMap;

use super::*;

/// A fixture list of the tests crate, as the file holds it.
fn fixture(file: &str) -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/lint")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// An MCP Cases contract that lists `file`'s tools and answers the two
/// calls the calling rules look at: a 150 KB radar sweep, and a lucky
/// forecast that changes on its second call.
fn contract(file: &str) -> String {
    let tools = &fixture(file)["tools"];
    let list = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}});
    let call = |name: &str| serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": name}});
    let text = |text: &str| {
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "result": {
            "content": [{"type": "text", "text": text}]}})
    };
    let lucky = call("get_lucky_forecast");
    format!(
        "case: List tools\nin: {{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}}\nout: {list}\n\
         ---\ncase: Radar\nin: {}\nout: {}\n\
         ---\ncase: Lucky\nin_1: {lucky}\nout_1: {}\nin_2: {lucky}\nout_2: {}\nin_3: {lucky}\nout_3: {}\n",
        call("get_radar_image"),
        text(&"#".repeat(150 * 1024)),
        text("sunshine"),
        text("rain"),
        text("sunshine"),
    )
}

fn mock(file: &str) -> String {
    format!("'{MCPTEST}' mock {file}")
}

fn codes(json: &serde_json::Value) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for finding in json["findings"].as_array().unwrap() {
        *counts
            .entry(finding["code"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    counts
}

/// Every rule but the errors, so that only warnings are left.
const ERRORS: &str = "E101,E102,E103,E105,E112,E113,MCPT-L001,MCPT-L002,MCPT-L003,MCPT-L005";

#[test]
fn each_rule_trips_once_and_a_finding_names_rule_tool_parameter_and_field() {
    let ws = Workspace::new(&[("trips.yaml", &contract("trips-each-rule.json"))]);
    let out = output(ws.mcptest(&[
        "lint",
        "--server",
        &mock("trips.yaml"),
        "--call-tools",
        "--detect-nondeterminism",
        "--json",
        "lint.json",
    ]));
    assert_eq!(out.code, Some(1), "{out:?}");
    let json: serde_json::Value = serde_json::from_str(&ws.read("lint.json")).unwrap();
    let counts = codes(&json);
    assert_eq!(counts.len(), 33, "{counts:?}");
    assert!(counts.values().all(|n| *n == 1), "{counts:?}");
    // mcp-assert's keys beside the report's own.
    assert_eq!(json["tools"], 31);
    assert_eq!(json["errors"], 11, "{json}");
    assert_eq!(json["warnings"], 22, "{json}");
    assert_eq!(json["counts"]["failed"], 11, "{json}");
    let e103 = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "E103")
        .unwrap();
    assert_eq!(e103["tool"], "get_air_quality");
    assert_eq!(e103["parameter"], "zone");
    assert_eq!(e103["severity"], "error");
    assert_eq!(
        e103["pointer"],
        "/tools/8/inputSchema/properties/zone/description"
    );
    assert!(
        out.stdout
            .contains("FAIL  E101 tool \"get_moon_phase\" /tools/0/description"),
        "{out:?}"
    );
    assert!(
        out.stdout
            .contains("WARN  W108 tool \"send_postcard\" /tools/4/description"),
        "{out:?}"
    );
    assert!(out.stdout.contains("Why it matters"), "{out:?}");
    // Token costs: the list, the surface and each tool, dearest first.
    assert!(
        out.stdout.contains("tokens (o200k_base): tools/list "),
        "{out:?}"
    );
    let after = out.stdout.split("\ntokens (o200k_base): ").nth(1).unwrap();
    let first = after.lines().nth(1).unwrap();
    assert!(first.ends_with("  get_area_offset"), "{first:?}");
    assert_eq!(json["tokens"]["tools"].as_array().unwrap().len(), 31);
    assert!(json["tokens"]["tools_list"].as_u64().unwrap() > 8000);
}

#[test]
fn the_clean_list_exits_0_and_says_which_rules_did_not_run() {
    let ws = Workspace::new(&[("clean.yaml", &contract("trips-none.json"))]);
    let out = output(ws.mcptest(&["lint", "--server", &mock("clean.yaml")]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("PASS  E101 missing-description"),
        "{out:?}"
    );
    assert!(
        out.stdout
            .contains("SKIP  E301 oversized-response: it calls tools"),
        "{out:?}"
    );
    assert!(
        out.stdout
            .contains("31 passed, 0 failed, 0 warned, 2 skipped"),
        "{out:?}"
    );
}

#[test]
fn strict_threshold_and_skip_rules_decide_the_exit_status() {
    let ws = Workspace::new(&[("trips.yaml", &contract("trips-each-rule.json"))]);
    let server = mock("trips.yaml");
    let run = |extra: &[&str]| {
        let mut args = vec!["lint", "--server", &server, "--skip-rules", ERRORS];
        args.extend_from_slice(extra);
        output(ws.mcptest(&args))
    };
    let out = run(&[]);
    assert_eq!(out.code, Some(0), "warnings alone pass: {out:?}");
    assert!(
        out.stdout
            .contains("SKIP  E101 missing-description: left out"),
        "{out:?}"
    );
    let out = run(&["--strict"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout.contains("FAIL  W108 tool \"send_postcard\""),
        "{out:?}"
    );
    let out = run(&["--threshold", "5"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("FAIL  threshold"), "{out:?}");
    let out = run(&["--threshold", "100"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    // Repeated flags and spaces are fine; mcp-assert's W103 skips W113 too.
    let out = run(&["--skip-rules", " W103 , tool-cycle", "--json", "lint.json"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let counts = codes(&serde_json::from_str(&ws.read("lint.json")).unwrap());
    for gone in ["W103", "W113", "E107", "E101"] {
        assert!(!counts.contains_key(gone), "{gone}: {counts:?}");
    }
    let out = run(&["--skip-rules", "E999"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr
            .contains("--skip-rules: \"E999\" is not a lint rule; the rules are E101"),
        "{out:?}"
    );
}

/// The line (1-based) where the tool named `name` opens in `text`, a
/// pretty-printed JSON listing.
fn item_line(text: &str, name: &str) -> i64 {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim().trim_end_matches(',') == format!("\"name\": \"{name}\""))
        .unwrap_or_else(|| panic!("no item {name:?} in {text}"));
    let open = lines[..at]
        .iter()
        .rposition(|l| l.trim() == "{")
        .expect("the item opens above its name");
    open as i64 + 1
}

#[test]
fn sarif_holds_every_familys_findings_at_their_severity_and_line() {
    let tools = &fixture("trips-each-rule.json")["tools"];
    // The listing as the anchor, as a saved tools/list result.
    let anchor = serde_json::to_string_pretty(&serde_json::json!({"tools": tools})).unwrap();
    let ws = Workspace::new(&[
        ("trips.yaml", &contract("trips-each-rule.json")),
        ("surface.json", &anchor),
    ]);
    let server = mock("trips.yaml");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "lint",
            "--server",
            &server,
            "--sarif",
            "out/lint.sarif",
            "--sarif-anchor",
            "surface.json",
            // The JSON report on stdout: the SARIF line goes to stderr.
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = output(ws.mcptest(&args));
        let report: serde_json::Value = serde_json::from_str(&out.stdout)
            .unwrap_or_else(|e| panic!("stdout is the JSON report alone ({e}): {out:?}"));
        let sarif: serde_json::Value = serde_json::from_str(&ws.read("out/lint.sarif")).unwrap();
        (out, report, sarif)
    };
    let results = |sarif: &serde_json::Value| -> Vec<(String, String, i64)> {
        sarif["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let location = &r["locations"][0]["physicalLocation"];
                assert_eq!(location["artifactLocation"]["uri"], "surface.json", "{r}");
                (
                    r["ruleId"].as_str().unwrap().to_owned(),
                    r["level"].as_str().unwrap().to_owned(),
                    location["region"]["startLine"].as_i64().unwrap(),
                )
            })
            .collect()
    };

    let (out, report, sarif) = run(&[]);
    assert_eq!(out.code, Some(1), "{out:?}");
    // The calling rules did not run: every other rule once.
    let findings = report["findings"].as_array().unwrap().len();
    assert_eq!(findings, 31, "{report}");
    assert!(
        out.stderr
            .contains("wrote 31 SARIF results to out/lint.sarif"),
        "{out:?}"
    );
    assert_eq!(sarif["version"], "2.1.0");
    let first = &sarif["runs"][0];
    assert_eq!(first["tool"]["driver"]["fullName"], "mcptest lint");
    let rules = first["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), mcptest::scan::lint::RULES.len());
    let found = results(&sarif);
    assert_eq!(found.len(), 31, "{found:?}");
    let by_id = |id: &str| found.iter().find(|r| r.0 == id).cloned();
    // Usability, at the tool's item (its description is missing), and the
    // warning on send_postcard's description line.
    assert_eq!(
        by_id("E101"),
        Some((
            "E101".into(),
            "error".into(),
            item_line(&anchor, "get_moon_phase")
        ))
    );
    let postcard = item_line(&anchor, "send_postcard");
    let w108 = by_id("W108").unwrap();
    assert_eq!(w108.1, "warning");
    assert!(
        w108.2 > postcard
            && anchor
                .lines()
                .nth(w108.2 as usize - 1)
                .unwrap()
                .contains("Delivers a postcard"),
        "{w108:?}"
    );
    // Security is there too.
    assert!(found.iter().any(|r| r.0.starts_with("MCPT-L")), "{found:?}");

    // --skip-rules takes a rule's results out; --strict makes every
    // result an error.
    let (out, report, sarif) = run(&["--skip-rules", "E101,W108", "--strict"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    let found = results(&sarif);
    assert_eq!(found.len(), 29, "{found:?}");
    assert_eq!(report["findings"].as_array().unwrap().len(), 29);
    assert!(
        found.iter().all(|r| r.0 != "E101" && r.0 != "W108"),
        "{found:?}"
    );
    assert!(found.iter().all(|r| r.1 == "error"), "{found:?}");
    assert!(found.iter().any(|r| r.0 == "W101"), "{found:?}");
}

#[test]
fn sarif_of_a_lint_needs_an_anchor_and_a_server_that_lints() {
    let ws = Workspace::new(&[(
        "empty.yaml",
        "case: List tools\nin: {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}\n\
         out: {\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {\"tools\": []}}\n",
    )]);
    let out = output(ws.mcptest(&[
        "lint",
        "--server",
        &mock("empty.yaml"),
        "--sarif",
        "x.sarif",
    ]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("--sarif needs --sarif-anchor"),
        "{out:?}"
    );
    let out = output(ws.mcptest(&[
        "lint",
        "--server",
        &mock("empty.yaml"),
        "--sarif",
        "x.sarif",
        "--sarif-anchor",
        "empty.yaml",
    ]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr
            .contains("no SARIF log written: nothing was linted"),
        "{out:?}"
    );
    assert!(!ws.path("x.sarif").exists());
}

#[test]
fn fix_prints_json_patch_operations_and_exits_0() {
    let ws = Workspace::new(&[("trips.yaml", &contract("trips-each-rule.json"))]);
    let out = output(ws.mcptest(&["lint", "--server", &mock("trips.yaml"), "--fix", "--json"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    // A bare --json is the report on stdout; the rest went to stderr.
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(out.stderr.contains("suggested fixes: "), "{out:?}");
    let fixes = json["fixes"].as_array().unwrap();
    let e101 = fixes.iter().find(|f| f["rule"] == "E101").unwrap();
    assert_eq!(e101["op"], "add");
    assert_eq!(e101["path"], "/tools/0/description");
    assert_eq!(e101["value"], "Get moon phase. Returns the moon phase.");
    let e112 = fixes.iter().find(|f| f["rule"] == "E112").unwrap();
    assert_eq!(
        e112["path"],
        "/tools/12/inputSchema/properties/password/writeOnly"
    );
    assert_eq!(e112["value"], true);
}

#[test]
fn bad_input_is_a_usage_error_that_says_what_to_write() {
    let ws = Workspace::new(&[]);
    let cases: &[(&[&str], &str)] = &[
        (&["lint"], "give the server with --server"),
        (&["lint", "tests/evals"], "use `mcptest validate`"),
        (
            &["lint", "--server", "no-such-server-here"],
            "server not found",
        ),
        (
            &[
                "lint",
                "--url",
                "http://127.0.0.1:9/sse",
                "--transport",
                "sse",
                "--bearer-env",
                "MCPTEST_NO_SUCH_TOKEN_VAR",
            ],
            "--bearer-env MCPTEST_NO_SUCH_TOKEN_VAR: the variable is not set",
        ),
        (
            &["lint", "--server", &server(), "--header", "X-Key: v"],
            "for a server reached at a URL",
        ),
        (
            &[
                "lint",
                "--url",
                "http://127.0.0.1:9/mcp",
                "--header",
                "X-Key=v",
            ],
            "write it as `NAME: VALUE`",
        ),
        (
            &["lint", "--server", "x", "--transport", "grpc"],
            "not a transport",
        ),
        (
            &["lint", "--server", &server(), "--headers", "A=b"],
            "--headers are sent to HTTP servers",
        ),
        (
            &[
                "lint",
                "--url",
                "http://127.0.0.1:9/mcp",
                "--headers",
                "oops",
            ],
            "write Name=Value",
        ),
    ];
    for (args, says) in cases {
        let out = output(ws.mcptest(args));
        assert_eq!(out.code, Some(2), "{args:?}: {out:?}");
        assert!(out.stderr.contains(says), "{args:?}: {out:?}");
    }
}

#[test]
fn a_server_that_cannot_be_linted_fails() {
    let ws = Workspace::new(&[(
        "empty.yaml",
        "case: List tools\nin: {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}\n\
         out: {\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {\"tools\": []}}\n",
    )]);
    let out = output(ws.mcptest(&["lint", "--server", &mock("empty.yaml")]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("lists at least one tool"), "{out:?}");
    // An HTTP server nobody serves: the connection fails, exit 1.
    let out = output(ws.mcptest(&[
        "lint",
        "--server",
        "http://127.0.0.1:9/mcp",
        "--timeout",
        "2s",
    ]));
    assert_eq!(out.code, Some(1), "{out:?}");
}

#[test]
fn help_names_every_rule_and_mcp_asserts_flags() {
    let ws = Workspace::new(&[]);
    let out = output(ws.mcptest(&["lint", "--help"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    // The help's rule list wraps; compare it as one line.
    let help = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    for rule in mcptest::scan::lint::RULES {
        let entry = format!("{} {}", rule.id, rule.name);
        assert!(help.contains(&entry), "{entry} missing: {}", out.stdout);
    }
    for flag in [
        "--server",
        "--transport",
        "--headers",
        "--timeout",
        "--json",
        "--call-tools",
        "--max-response-kb",
        "--detect-nondeterminism",
        "--strict",
        "--fix",
        "--skip-rules",
        "--threshold",
        "--sarif",
        "--sarif-anchor",
        "Exit status:",
    ] {
        assert!(help.contains(flag), "{flag} missing: {}", out.stdout);
    }
}
