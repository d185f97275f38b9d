//! `mcptest::scan::sarif` against the fixture servers: the lint's (as
//! `mcptest lint --sarif` writes it), the security lint's, the audit's and
//! drift's logs are valid SARIF 2.1.0 (checked against the
//! OASIS schema that the `serde-sarif` package ships, found through `cargo
//! metadata`; nothing is copied into this repository), and every result
//! points at a line of its anchor file, as GitHub code scanning requires.

use std::{path::PathBuf, sync::OnceLock, time::Duration};

use mcptest::{
    Server,
    scan::{
        audit::Audit,
        lint::{Family, Finding, check},
        sarif::SarifLog,
        surface::{Surface, SurfaceFile, definitions},
    },
};
use serde_json::Value;

const CHAOS: &str = env!("CARGO_BIN_EXE_fixture-chaos");
const MCPTEST: &str = env!("CARGO_BIN_EXE_mcptest-command");

/// The SARIF 2.1.0 schema as the `serde-sarif` package ships it.
fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        // Offline, cargo can only list the packages it has fetched, which
        // are this platform's: a dependency of another platform's target
        // (clap's Windows console crate) is never fetched by a build here.
        let rustc = std::process::Command::new(std::env::var_os("RUSTC").unwrap_or("rustc".into()))
            .arg("-vV")
            .output()
            .expect("rustc -vV runs");
        let host = String::from_utf8_lossy(&rustc.stdout)
            .lines()
            .find_map(|line| line.strip_prefix("host: ").map(str::to_owned))
            .expect("rustc -vV names its host");
        let out = std::process::Command::new(env!("CARGO"))
            .args([
                "metadata",
                "--format-version",
                "1",
                "--offline",
                "--filter-platform",
                &host,
                "--manifest-path",
            ])
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
            .output()
            .expect("cargo metadata runs");
        assert!(
            out.status.success(),
            "cargo metadata: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let metadata: Value =
            serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
        let manifest = metadata["packages"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["name"] == "serde-sarif")
            .and_then(|p| p["manifest_path"].as_str())
            .expect("serde-sarif is a dependency of the workspace");
        let path = PathBuf::from(manifest)
            .with_file_name("src")
            .join("schema.json");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
        assert_eq!(
            schema["title"],
            "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema",
            "{}",
            path.display()
        );
        // The published schema's `language` patterns (of a run and of a
        // tool component) have a stray `]`, which the validator refuses as
        // a regex, so the whole schema would not compile; they are read as
        // the two forms they mean. mcptest's logs set no `language`.
        fix_language_patterns(&mut schema);
        schema
    })
}

/// Replaces each `language` pattern of the published SARIF schema that is
/// no valid regex (see [`schema`]) with what it means.
fn fix_language_patterns(value: &mut Value) {
    const BROKEN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    match value {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if key == "pattern" && value == BROKEN {
                    *value = Value::from("^[a-zA-Z]{2}$|^[a-zA-Z]{2}-[a-zA-Z]{2}$");
                } else {
                    fix_language_patterns(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(fix_language_patterns),
        _ => {}
    }
}

/// Panics with every schema violation of `log`, and unless every result
/// has a file location with a line (GitHub code scanning refuses the whole
/// file otherwise); returns the results.
pub(crate) fn assert_valid_sarif(log: &Value) -> Vec<Value> {
    let validator = jsonschema::validator_for(schema()).expect("the SARIF schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{log:#}");
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .clone();
    for result in &results {
        let physical = &result["locations"][0]["physicalLocation"];
        assert!(
            physical["artifactLocation"]["uri"].is_string(),
            "{result:#}"
        );
        assert!(
            physical["region"]["startLine"].as_i64() >= Some(1),
            "{result:#}"
        );
    }
    results
}

/// The 1-based number of the first line of `text` holding `needle`.
pub(crate) fn line_of(text: &str, needle: &str) -> i64 {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line holds {needle:?}")) as i64
        + 1
}

fn start_line(result: &Value) -> i64 {
    result["locations"][0]["physicalLocation"]["region"]["startLine"]
        .as_i64()
        .unwrap()
}

#[tokio::test]
async fn the_security_lint_log_is_valid_and_points_at_the_snapshot_lines() {
    let server = Server::program(CHAOS)
        .arg("--poisoned")
        .timeout(Duration::from_secs(20));
    let defs = definitions(&server).await.unwrap();
    // The lint's security rules: the log of `lint-security` holds those.
    let findings: Vec<Finding> = check(&defs)
        .into_iter()
        .filter(|f| f.rule.family == Family::Security)
        .collect();
    assert!(findings.len() > 9, "{findings:?}");
    // The stored surface, as a YAML file: the order differs from the listing's.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("surface.json");
    let text = serde_json::to_string_pretty(Surface::of(&defs).value()).unwrap();
    std::fs::write(&path, &text).unwrap();
    let anchor = SurfaceFile::read(&path);
    assert!(anchor.has_surface());
    let log = SarifLog::lint_security(&findings, &defs)
        .anchor(anchor)
        .to_json();
    let results = assert_valid_sarif(&log);
    assert_eq!(results.len(), findings.len());
    let mut rules: Vec<&str> = results
        .iter()
        .filter_map(|r| r["ruleId"].as_str())
        .collect();
    rules.dedup();
    assert!(
        rules.len() >= 9,
        "every rule fires on the poisoned listing: {rules:?}"
    );
    // Each result sits on the line of the field it names, or inside the
    // item when the field is a value without a key of its own.
    for result in &results {
        let name = result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
            .as_str()
            .unwrap();
        let line = start_line(result);
        if name.starts_with("instructions") {
            // A surface holds no instructions: the file's first line.
            assert_eq!(line, 1, "{name} at line {line}: {result}");
            continue;
        }
        assert!(line > 1, "{name} at line {line}: {result}");
        let written = text.lines().nth(line as usize - 1).unwrap();
        let last = name.rsplit('/').next().unwrap();
        if !last.chars().any(char::is_control) {
            let key = serde_json::to_string(last).unwrap();
            assert!(
                written.contains(&key) || written.trim_start().starts_with('{'),
                "{name} points at line {line}: {written:?}"
            );
        }
    }
}

#[tokio::test]
async fn the_audit_log_names_the_crashing_tool_at_its_line() {
    let server = Server::program(CHAOS)
        .arg("--exit-mid-call")
        .timeout(Duration::from_secs(20))
        .shutdown_grace(Duration::from_millis(200));
    let report = Audit::new(server.clone()).run().await;
    assert!(!report.passed(), "{report}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("surface.json");
    let surface = Surface::list(&server).await.unwrap();
    let text = serde_json::to_string_pretty(surface.value()).unwrap();
    std::fs::write(&path, &text).unwrap();
    let log = SarifLog::audit(&report)
        .anchor(SurfaceFile::read(&path))
        .to_json();
    let results = assert_valid_sarif(&log);
    assert_eq!(results.len(), 1, "{log:#}");
    assert_eq!(results[0]["ruleId"], "MCPT-A001");
    assert_eq!(results[0]["level"], "error");
    // The item's line: where its object opens, the tool's name inside it.
    let line = start_line(&results[0]) as usize;
    let item: Vec<&str> = text
        .lines()
        .skip(line - 1)
        .take_while(|l| *l != "    }")
        .collect();
    assert_eq!(item[0].trim(), "{", "{text}");
    assert!(
        item.iter().any(|l| l.contains(r#""name": "poke""#)),
        "{item:?}"
    );
    let message = results[0]["message"]["text"].as_str().unwrap();
    assert!(message.contains("exit status 7"), "{message}");
}

#[tokio::test]
async fn a_log_anchored_at_any_other_file_points_at_its_first_line() {
    let server = Server::program(CHAOS)
        .arg("--poisoned")
        .timeout(Duration::from_secs(20));
    let defs = definitions(&server).await.unwrap();
    let anchor = SurfaceFile::read(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"));
    assert!(!anchor.has_surface());
    let log = SarifLog::lint_security(&check(&defs), &defs)
        .anchor(anchor)
        .to_json();
    let results = assert_valid_sarif(&log);
    assert!(results.iter().all(|r| start_line(r) == 1));
}

#[tokio::test]
async fn the_lint_command_writes_a_valid_log_of_every_family() {
    let server = Server::program(CHAOS)
        .arg("--lint-findings")
        .timeout(Duration::from_secs(20));
    let surface = Surface::list(&server).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let text = serde_json::to_string_pretty(surface.value()).unwrap();
    std::fs::write(dir.path().join("surface.json"), &text).unwrap();
    let lint = |extra: &[&str]| -> Value {
        let out = std::process::Command::new(MCPTEST)
            .current_dir(dir.path())
            .args(["lint", "--server"])
            .arg(format!("'{CHAOS}' --lint-findings"))
            .args(["--sarif", "lint.sarif", "--sarif-anchor", "surface.json"])
            .args(extra)
            .env("NO_COLOR", "1")
            .output()
            .expect("mcptest-command runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        // Error findings: exit 1, and the log is written.
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        assert!(stdout.contains("SARIF results to lint.sarif"), "{stdout}");
        let log = std::fs::read_to_string(dir.path().join("lint.sarif")).unwrap();
        serde_json::from_str(&log).expect("the log is JSON")
    };
    let log = lint(&[]);
    let results = assert_valid_sarif(&log);
    let tags = |result: &Value| {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        log["runs"][0]["tool"]["driver"]["rules"][index]["properties"]["tags"][0].clone()
    };
    for family in ["usability", "security"] {
        assert!(
            results.iter().any(|r| tags(r) == family),
            "no {family} result: {log:#}"
        );
    }
    // A usability error, at the item of the tool without a description.
    let e101 = results
        .iter()
        .find(|r| r["ruleId"] == "E101")
        .unwrap_or_else(|| panic!("no E101: {log:#}"));
    assert_eq!(e101["level"], "error");
    let name = e101["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
        .as_str()
        .unwrap();
    let tool = name.split('/').nth(1).unwrap();
    let line = start_line(e101) as usize;
    let item: Vec<&str> = text
        .lines()
        .skip(line - 1)
        .take_while(|l| *l != "    }" && *l != "    },")
        .collect();
    assert_eq!(item[0].trim(), "{", "{name} at line {line}");
    let key = format!("\"name\": {}", serde_json::to_string(tool).unwrap());
    assert!(item.iter().any(|l| l.contains(&key)), "{item:?}");

    let log = lint(&["--skip-rules", "E101"]);
    let without = assert_valid_sarif(&log);
    assert_eq!(without.len(), results.len() - 1, "{log:#}");
    assert!(without.iter().all(|r| r["ruleId"] != "E101"), "{log:#}");
}
