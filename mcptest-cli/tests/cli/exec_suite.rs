//! `suite.list` and `suite.run` over a real `mcptest exec --check-frames`:
//! the project's passing and failing corpora (`tests/suites/pass`,
//! `tests/suites/fail`) listed and run one test at a time give exactly the
//! verdicts, skip reasons and failure text `mcptest run` gives on the same
//! files; files that do not load, lanes, skips, the session's server as
//! the default, timeouts, and the Rust client's suite methods.

use std::path::Path;

use serde_json::{Value, json};

use super::exec_frames::{Session, fixture};
use super::*;

/// Copies `tests/suites/<name>` of the repository into the workspace.
fn copy_suite(ws: &Workspace, name: &str) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/suites")
        .join(name);
    copy_dir(&from, &ws.path(&format!("suites/{name}")));
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// `text` with each fixture copy's temporary directory
/// (`<tmp>/mcptest-<test>-XXXXXX`) as `[temp]`: the one thing that differs
/// from run to run.
fn normalize(text: &str, tmp: &Path) -> String {
    let prefix = format!("{}/mcptest-", tmp.display());
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(&prefix) {
        out.push_str(&rest[..at]);
        out.push_str("[temp]");
        let after = &rest[at + prefix.len()..];
        let end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(after.len());
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The failure block `mcptest run` printed under `FAIL <name> (<location>)`,
/// without its two-space indent.
fn printed_failure(stdout: &str, heading: &str) -> Option<String> {
    let mut lines = stdout.lines().skip_while(|l| *l != heading);
    lines.next()?;
    let mut block = Vec::new();
    for line in lines {
        if line.is_empty() {
            block.push("");
        } else if let Some(body) = line.strip_prefix("  ") {
            block.push(body);
        } else {
            break;
        }
    }
    while block.last() == Some(&"") {
        block.pop();
    }
    Some(block.join("\n"))
}

#[test]
fn suite_run_gives_the_verdicts_and_failure_text_of_mcptest_run() {
    let ws = Workspace::new(&[]);
    for name in ["pass", "fail", "fixtures"] {
        copy_suite(&ws, name);
    }
    let tmp = ws.path("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let everything = fixture("fixture-everything").display().to_string();
    let server = format!("'{everything}' --root {{{{fixture}}}}");
    let out = output(
        ws.mcptest(&[
            "run",
            "suites/pass",
            "suites/fail",
            "--server",
            &server,
            "--fixture",
            "suites/fixtures",
            "--json",
            "report.json",
        ])
        .env("TMPDIR", &tmp),
    );
    assert_eq!(out.code, Some(1), "the fail corpus fails: {out:?}");
    let report: Value = serde_json::from_str(&ws.read("report.json")).unwrap();
    let results = report["results"].as_array().unwrap();

    let kept = ws.path("kept").display().to_string();
    let tmp_text = tmp.display().to_string();
    let mut s = Session::start_env(
        ws.dir.path(),
        &[],
        &[("TMPDIR", &tmp_text), ("MCPTEST_KEPT_DIR", &kept)],
    );
    s.handshake();
    let listed = s.result(
        "suite.list",
        json!({"paths": ["suites/pass", "suites/fail"]}),
    );
    let tests = listed["tests"].as_array().unwrap();
    assert_eq!(tests.len(), results.len(), "{listed}");
    assert!(tests.len() > 80, "both corpora: {}", tests.len());
    let (mut failed, mut skipped) = (0, 0);
    for (test, expected) in tests.iter().zip(results) {
        let name = test["name"].as_str().unwrap();
        assert_eq!(test["name"], expected["name"], "{test}");
        assert_eq!(test["file"], expected["file"], "{test}");
        assert_eq!(test["line"], expected["line"], "{test}");
        let verdict = s.result(
            "suite.run",
            json!({
                "id": test["id"],
                "fixture": "suites/fixtures",
                "server": {"argv": [everything, "--root", "{{fixture}}"]},
            }),
        );
        assert_eq!(verdict["id"], test["id"]);
        assert_eq!(verdict["name"], test["name"]);
        assert_eq!(
            verdict["status"], expected["status"],
            "{name}: {verdict}\nmcptest run: {expected}"
        );
        let location = format!(
            "{}:{}:{}",
            expected["file"].as_str().unwrap(),
            expected["line"],
            expected["column"]
        );
        assert_eq!(verdict["location"], location, "{verdict}");
        match verdict["status"].as_str().unwrap() {
            "fail" => {
                failed += 1;
                let failure = verdict["failure"].as_str().unwrap();
                let (first, body) = failure.split_once('\n').unwrap();
                assert_eq!(first, format!("{location}: `{name}` failed"));
                let heading = format!("FAIL {name} ({location})");
                let printed = printed_failure(&out.stdout, &heading)
                    .unwrap_or_else(|| panic!("no `{heading}` in {out:?}"));
                assert_eq!(
                    normalize(body.trim_end(), &tmp),
                    normalize(&printed, &tmp),
                    "{name}: suite.run's failure differs from what mcptest run printed"
                );
            }
            "skip" => {
                skipped += 1;
                assert_eq!(verdict["skip_reason"], expected["reason"], "{verdict}");
            }
            _ => assert_eq!(verdict["failure"], Value::Null),
        }
    }
    assert_eq!(failed, report["counts"]["failed"], "{}", report["counts"]);
    assert_eq!(skipped, report["counts"]["skipped"], "{}", report["counts"]);
    assert!(failed >= 50, "the fail corpus failed: {failed}");
    assert_eq!(s.shutdown(), Some(0));
    let _ = std::fs::remove_dir_all(ws.path("kept"));
}

#[test]
fn lanes_skips_and_the_files_that_do_not_load() {
    let ws = Workspace::new(&[]);
    for name in ["pass", "invalid"] {
        copy_suite(&ws, name);
    }
    let mut s = Session::start(ws.dir.path(), &[]);
    let hello = s.handshake();
    assert_eq!(hello["lanes"], json!(mcptest::suite::LANES), "{hello}");
    assert!(
        hello["features"]
            .as_array()
            .unwrap()
            .contains(&json!("suites"))
    );
    let listed = s.result("suite.list", json!({"paths": ["suites/pass"]}));
    let tests = listed["tests"].as_array().unwrap();
    let mut lanes: Vec<&str> = tests.iter().map(|t| t["lane"].as_str().unwrap()).collect();
    lanes.sort();
    lanes.dedup();
    let mut all = mcptest::suite::LANES.to_vec();
    all.sort();
    assert_eq!(lanes, all, "the pass corpus has every lane");
    let skipped: Vec<&Value> = tests.iter().filter(|t| !t["skip"].is_null()).collect();
    assert_eq!(skipped.len(), 1, "only `skip: true`: {skipped:?}");
    assert_eq!(
        skipped[0]["skip"],
        json!({"reason": "`skip: true` in suites/pass/skip.yaml"})
    );
    let run = s.result("suite.run", json!({"id": skipped[0]["id"]}));
    assert_eq!(run["status"], "skip", "{run}");
    assert_eq!(run["skip_reason"], skipped[0]["skip"]["reason"], "{run}");
    let filtered = s.result(
        "suite.list",
        json!({"paths": ["suites/pass"], "filter": "skip"}),
    );
    assert!(
        filtered["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["name"].as_str().unwrap().contains("skip")
                || t["file"].as_str().unwrap().contains("skip")),
        "{filtered}"
    );

    // A file that does not load: the loader's message, as `mcptest run`
    // prints it, with where it is.
    for file in ["unknown_key.yaml", "syntax.yaml", "cases_unknown_key.yaml"] {
        let path = format!("suites/invalid/{file}");
        let printed = output(ws.mcptest(&["run", &path, "--server", "true"]));
        assert_eq!(printed.code, Some(2), "{printed:?}");
        let error = s.error("suite.list", json!({"paths": [path]}));
        assert_eq!(error["code"], -32602, "{error}");
        assert_eq!(
            error["message"].as_str().unwrap(),
            printed.stderr.trim_end(),
            "{file}"
        );
        assert_eq!(error["data"]["file"], path, "{error}");
        let line = error["data"]["line"].as_u64().unwrap();
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{path}:{line}:")),
            "{error}"
        );
    }
    let missing = s.error("suite.list", json!({"paths": ["suites/nowhere"]}));
    assert_eq!(
        missing["data"],
        json!({"file": "suites/nowhere"}),
        "{missing}"
    );
    let stale = s.error("suite.run", json!({"id": "suites/pass/skip.yaml#7"}));
    assert!(
        stale["message"]
            .as_str()
            .unwrap()
            .contains("list the file again"),
        "{stale}"
    );
    assert_eq!(s.shutdown(), Some(0));
}

/// A file that names no server runs against the session's server under
/// test when `suite.run` names none; with neither, the test fails saying so.
#[test]
fn the_sessions_server_serves_files_that_name_none() {
    let ws = Workspace::new(&[("adds.yaml", PASSING)]);
    let mock = format!("'{MCPTEST}' mock contract.yaml");
    let mut s = Session::start(ws.dir.path(), &["--server-command", &mock]);
    s.handshake();
    let listed = s.result("suite.list", json!({"paths": ["adds.yaml"]}));
    let id = listed["tests"][0]["id"].clone();
    let verdict = s.result("suite.run", json!({"id": id}));
    assert_eq!(verdict["status"], "pass", "{verdict}");
    assert_eq!(s.shutdown(), Some(0));

    let mut bare = Session::start(ws.dir.path(), &[]);
    bare.handshake();
    let verdict = bare.result("suite.run", json!({"id": id}));
    assert_eq!(verdict["status"], "fail", "{verdict}");
    let out = output(ws.mcptest(&["run", "adds.yaml"]));
    let printed = printed_failure(&out.stdout, "FAIL adds (adds.yaml:2:1)")
        .unwrap_or_else(|| panic!("{out:?}"));
    let failure = verdict["failure"].as_str().unwrap();
    assert_eq!(failure.split_once('\n').unwrap().1.trim_end(), printed);
    assert_eq!(bare.shutdown(), Some(0));
}

/// Answers the handshake and lists `hang`; a call never gets an answer.
const PY_HANGS: &str = r#"
import json, sys, time
for line in sys.stdin:
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if method == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "py-hangs", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": [{"name": "hang", "inputSchema": {"type": "object"}}]}
    elif method == "tools/call":
        time.sleep(3600)
    else:
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid, "result": result}) + "\n")
    sys.stdout.flush()
"#;

const HANGING_TEST: &str = "\
name: waits forever
assert:
  tool: hang
  expect:
    contains: [\"never\"]
";

#[test]
fn timeout_ms_bounds_a_test_as_mcptest_run_timeout_does() {
    let ws = Workspace::new(&[("hangs.py", PY_HANGS), ("hang.yaml", HANGING_TEST)]);
    let mut s = Session::start(ws.dir.path(), &[]);
    s.handshake();
    let listed = s.result("suite.list", json!({"paths": ["hang.yaml"]}));
    let started = std::time::Instant::now();
    let verdict = s.result(
        "suite.run",
        json!({"id": listed["tests"][0]["id"], "timeout_ms": 3000,
               "server": {"argv": ["python3", "hangs.py"]}}),
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "bounded: {:?}",
        started.elapsed()
    );
    assert_eq!(verdict["status"], "fail", "{verdict}");
    let out = output(ws.mcptest(&[
        "run",
        "hang.yaml",
        "--timeout",
        "3s",
        "--server",
        "python3 hangs.py",
    ]));
    let printed = printed_failure(&out.stdout, "FAIL waits forever (hang.yaml:2:1)")
        .unwrap_or_else(|| panic!("{out:?}"));
    let failure = verdict["failure"].as_str().unwrap();
    assert_eq!(failure.split_once('\n').unwrap().1.trim_end(), printed);
    assert!(
        failure.contains("tools/call timed out after 3s"),
        "{failure}"
    );
    assert_eq!(s.shutdown(), Some(0));
}

#[tokio::test]
async fn the_rust_client_lists_and_runs_suite_tests() {
    use mcptest_coprocess::{Client, SuiteRun, SuiteServer};
    let ws = Workspace::new(&[
        ("suite/a.yaml", PASSING),
        ("suite/b.yaml", FAILING),
        ("suite/c.yaml", SKIPPED),
    ]);
    let contract = ws.path("contract.yaml").display().to_string();
    let suite = ws.path("suite").display().to_string();
    let mut engine = Client::spawn(MCPTEST, ["exec", "--connection-server", "--check-frames"])
        .await
        .unwrap();
    let tests = engine.suite_list(&[&suite], None).await.unwrap();
    assert_eq!(tests.len(), 3, "{tests:?}");
    assert!(tests[2].skip.is_some(), "{tests:?}");
    let mut statuses = Vec::new();
    for test in &tests {
        let run = SuiteRun::new(test.id.clone()).server(SuiteServer::argv([
            MCPTEST,
            "mock",
            contract.as_str(),
        ]));
        let reply = engine.suite_run(&run).await.unwrap();
        statuses.push(reply.status.clone());
        if reply.status == "fail" {
            assert!(
                reply
                    .failure
                    .as_deref()
                    .unwrap()
                    .contains("`adds wrong` failed"),
                "{reply:?}"
            );
        }
    }
    assert_eq!(statuses, ["pass", "fail", "skip"]);
    let error = engine
        .suite_list(&[&format!("{suite}/none.yaml")], None)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            mcptest_coprocess::CoprocessError::Rpc { code: -32602, .. }
        ),
        "{error}"
    );
    assert_eq!(
        engine.shutdown().await.unwrap().and_then(|s| s.code()),
        Some(0)
    );
}
