//! `mcptest::scan::lint` against the fixture servers: every rule trips once
//! on the lint fixture (`fixture-chaos --lint-findings`, the tool calling
//! rules included) and none on the clean one; `--strict`, `--threshold`
//! and skipped rules; every security rule fires on the poisoned listing, at
//! the field that breaks it; the plain chaos listing triggers none;
//! fixture-everything has no security error.

use std::{
    collections::{BTreeMap, BTreeSet},
    time::Duration,
};

use mcptest::{
    Server,
    report::{Report, Status},
    scan::lint::{Family, Lint, Linted, RULES, Severity},
};
use mcptest_tests::lintable;

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");
const CHAOS: &str = env!("CARGO_BIN_EXE_fixture-chaos");

fn chaos(flags: &[&str]) -> Server {
    Server::program(CHAOS)
        .args(flags.iter().copied())
        .timeout(Duration::from_secs(20))
}

/// The rule ids with at least one finding.
fn fired(report: &Report) -> BTreeSet<&str> {
    report
        .results
        .iter()
        .filter(|r| matches!(r.status(), Status::Fail | Status::Warn))
        .filter_map(|r| r.property_value("rule"))
        .collect()
}

fn pointers<'a>(report: &'a Report, rule: &str) -> Vec<&'a str> {
    report
        .results
        .iter()
        .filter(|r| r.status() != Status::Pass && r.property_value("rule") == Some(rule))
        .filter_map(|r| r.property_value("pointer"))
        .collect()
}

/// The security rules of this project (`MCPT-L`), which the poisoned
/// listing breaks; E112 and E113 are in the security family too.
fn security_lint(server: Server) -> Lint {
    Lint::new(server).only(Family::Security)
}

#[tokio::test]
async fn every_rule_fires_on_the_poisoned_server_at_the_offending_field() {
    let report = security_lint(chaos(&["--poisoned"])).run().await;
    let all: BTreeSet<&str> = RULES
        .iter()
        .filter(|r| r.id.starts_with("MCPT-L"))
        .map(|r| r.id)
        .collect();
    assert_eq!(fired(&report), all, "{report}");
    assert!(!report.passed());

    assert_eq!(
        pointers(&report, "MCPT-L001"),
        [
            "/instructions",
            "/prompts/0/arguments/0/description",
            "/resourceTemplates/0/description",
            "/tools/0/description",
        ]
    );
    assert_eq!(
        pointers(&report, "MCPT-L002"),
        ["/resources/0/name", "/tools/1/description"]
    );
    assert_eq!(
        pointers(&report, "MCPT-L003"),
        ["/tools/3/name", "/tools/4/name"]
    );
    assert_eq!(pointers(&report, "MCPT-L004"), ["/tools/5/name"]);
    assert_eq!(pointers(&report, "MCPT-L005"), ["/tools/6/description"]);
    assert_eq!(
        pointers(&report, "MCPT-L006"),
        ["/tools/7/inputSchema/properties/command"]
    );
    assert_eq!(pointers(&report, "MCPT-L007"), ["/tools/8/inputSchema"]);
    assert_eq!(pointers(&report, "MCPT-L008"), ["/tools/9/name"]);
    assert_eq!(pointers(&report, "MCPT-L009"), ["/tools/10/description"]);

    // Errors fail, warnings warn, and a failure reads like every other one.
    for result in &report.results {
        let rule = RULES
            .iter()
            .find(|r| Some(r.id) == result.property_value("rule"))
            .unwrap();
        if result.status() != Status::Pass {
            let expected = match rule.severity {
                Severity::Error => Status::Fail,
                Severity::Warning => Status::Warn,
            };
            assert_eq!(result.status(), expected, "{}", result.name);
        }
    }
    let poisoned = report
        .result("MCPT-L001 tool \"add\" /tools/0/description")
        .unwrap_or_else(|| panic!("{report}"));
    let text = poisoned.outcome.failure().unwrap().to_string();
    assert!(text.contains("hidden-instructions"), "{text}");
    assert!(text.contains("<IMPORTANT>"), "the excerpt: {text}");
    assert!(text.contains("Why it matters"), "{text}");
    let secret = report
        .results
        .iter()
        .find(|r| r.property_value("rule") == Some("MCPT-L005") && r.status() == Status::Fail)
        .unwrap();
    let text = secret.outcome.failure().unwrap().to_string();
    assert!(!text.contains("0123456789abcdef"), "redacted: {text}");
}

#[tokio::test]
async fn a_clean_listing_triggers_no_security_rule() {
    let report = security_lint(chaos(&[])).run().await;
    assert_eq!(fired(&report), BTreeSet::new(), "{report}");
    let security = RULES
        .iter()
        .filter(|r| r.family == Family::Security)
        .count();
    assert_eq!(report.results.len(), security, "one pass per rule");
    assert!(report.passed(), "{report}");
}

#[tokio::test]
async fn the_everything_server_has_no_security_error() {
    let root = tempfile::tempdir().unwrap();
    let server = Server::program(EVERYTHING)
        .arg("--root")
        .arg(root.path())
        .timeout(Duration::from_secs(20));
    let report = security_lint(server).run().await;
    report.assert_passed();
    let errors: Vec<&str> = report
        .results
        .iter()
        .filter(|r| r.property_value("severity") == Some("error") && r.status() != Status::Pass)
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(errors, Vec::<&str>::new(), "{report}");
}

#[tokio::test]
async fn a_server_that_does_not_start_is_one_failure() {
    let report = Lint::new(chaos(&["--exit-before-initialize"])).run().await;
    assert_eq!(report.results.len(), 1, "{report}");
    assert_eq!(report.results[0].status(), Status::Fail);
    assert!(!report.passed());
}

/// The lint fixture: `--lint-findings` (each rule once) or `--lint-clean`.
fn lint_fixture(flag: &str) -> Lint {
    Lint::new(chaos(&[flag]))
        .call_tools(true)
        .detect_nondeterminism(true)
}

async fn linted(lint: Lint) -> Linted {
    lint.lint()
        .await
        .unwrap_or_else(|report| panic!("{report}"))
}

#[tokio::test]
async fn each_rule_trips_once_on_the_lint_fixture_where_the_fixture_says() {
    let linted = linted(lint_fixture("--lint-findings")).await;
    let mut counts: BTreeMap<&str, usize> = RULES.iter().map(|r| (r.id, 0)).collect();
    for finding in &linted.findings {
        *counts.get_mut(finding.rule.id).unwrap() += 1;
    }
    let not_once: Vec<String> = counts
        .iter()
        .filter(|(_, n)| **n != 1)
        .map(|(id, n)| format!("{id} x{n}"))
        .collect();
    assert_eq!(not_once, Vec::<String>::new(), "{:#?}", linted.findings);
    assert_eq!(linted.findings.len(), RULES.len());

    // Each finding is on the tool the fixture says trips its rule; the
    // list's own rules point at the list.
    let trips = lintable::trips();
    for finding in &linted.findings {
        match finding.rule.id {
            "W112" | "W106" => assert_eq!(finding.pointer, "/tools", "{finding}"),
            id => {
                let index: usize = finding.pointer.split('/').nth(2).unwrap().parse().unwrap();
                assert!(
                    trips[index].iter().any(|t| t == id),
                    "{finding} is on tool {index}, which the fixture says trips {:?}",
                    trips[index]
                );
            }
        }
        assert!(
            finding.tool.is_some() || finding.pointer == "/tools",
            "{finding}"
        );
    }
    let fired: BTreeSet<&str> = trips.iter().flatten().map(String::as_str).collect();
    let listed: BTreeSet<&str> = RULES
        .iter()
        .map(|r| r.id)
        .filter(|id| !["W112", "W106"].contains(id))
        .collect();
    let missing: Vec<&&str> = listed.difference(&fired).collect();
    assert!(
        missing.is_empty(),
        "the fixture names no tool for {missing:?}"
    );

    // A finding names its tool, parameter and field, with a detail that
    // says what was seen.
    let e103 = linted
        .findings
        .iter()
        .find(|f| f.rule.id == "E103")
        .unwrap();
    assert_eq!(e103.tool.as_deref(), Some("get_air_quality"));
    assert_eq!(e103.parameter.as_deref(), Some("zone"));
    assert_eq!(
        e103.pointer,
        "/tools/8/inputSchema/properties/zone/description"
    );
    let e301 = linted
        .findings
        .iter()
        .find(|f| f.rule.id == "E301")
        .unwrap();
    assert_eq!(e301.tool.as_deref(), Some(lintable::RADAR_TOOL));
    assert!(e301.detail.contains("returned 150 KB ("), "{}", e301.detail);
    let w107 = linted
        .findings
        .iter()
        .find(|f| f.rule.id == "W107")
        .unwrap();
    assert!(
        w107.detail.contains("3 different answers"),
        "{}",
        w107.detail
    );
    let w106 = linted
        .findings
        .iter()
        .find(|f| f.rule.id == "W106")
        .unwrap();
    assert!(w106.detail.contains("o200k_base"), "{}", w106.detail);
    assert!(
        linted.tokens.tools_list > 8000,
        "{:?}",
        linted.tokens.tools_list
    );
    assert_eq!(linted.tokens.tools.len(), trips.len());

    // Errors fail the run; warnings alone do not.
    let report = linted.report();
    assert!(!report.passed());
    let errors: BTreeSet<&str> = linted
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.rule.id)
        .collect();
    let want: BTreeSet<&str> = RULES
        .iter()
        .filter(|r| r.severity == Severity::Error)
        .map(|r| r.id)
        .collect();
    assert_eq!(errors, want);
}

#[tokio::test]
async fn the_clean_fixture_trips_nothing_and_every_rule_passes() {
    let linted = linted(lint_fixture("--lint-clean")).await;
    assert_eq!(linted.findings, vec![], "{:#?}", linted.findings);
    let report = linted.report();
    report.assert_passed();
    assert_eq!(report.results.len(), RULES.len(), "{report}");
    assert!(
        report.results.iter().all(|r| r.status() == Status::Pass),
        "the calling rules ran too: {report}"
    );
}

#[tokio::test]
async fn strict_threshold_and_skipped_rules() {
    // Without the calls, only warnings left: it passes, strict fails it.
    let warnings_only = || {
        Lint::new(chaos(&["--lint-findings"]))
            .skip_rules([
                "E101",
                "E102",
                "E103",
                "E105",
                "E112",
                "E113",
                "MCPT-L001",
                "MCPT-L002",
                "MCPT-L003",
                "MCPT-L005",
            ])
            .unwrap()
    };
    let report = warnings_only().run().await;
    assert!(report.passed(), "{report}");
    let skipped = report.result("E101 missing-description").unwrap();
    assert_eq!(skipped.status(), Status::Skip);
    let not_asked = report.result("E301 oversized-response").unwrap();
    assert_eq!(not_asked.status(), Status::Skip);
    assert!(fired(&report).contains("W108"));

    let strict = linted(warnings_only().strict(true)).await;
    assert!(
        strict
            .findings
            .iter()
            .all(|f| f.severity == Severity::Error)
    );
    let report = strict.report();
    assert!(!report.passed());
    let w108 = report
        .results
        .iter()
        .find(|r| r.property_value("rule") == Some("W108") && r.status() != Status::Pass)
        .unwrap();
    assert_eq!(w108.status(), Status::Fail);
    assert_eq!(w108.property_value("severity"), Some("error"));

    let over = warnings_only().threshold(5).run().await;
    let threshold = over.result("threshold").unwrap();
    assert_eq!(threshold.status(), Status::Fail, "{over}");
    assert!(!over.passed());
    let within = warnings_only().threshold(100).run().await;
    assert_eq!(within.result("threshold").unwrap().status(), Status::Pass);
    assert!(within.passed());

    // mcp-assert's W103 names both of the rules it files under it.
    let report = Lint::new(chaos(&["--lint-findings"]))
        .skip_rules(["W103"])
        .unwrap()
        .run()
        .await;
    assert!(!fired(&report).contains("W103") && !fired(&report).contains("W113"));
}
