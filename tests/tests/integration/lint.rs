//! `mcptest::scan::lint` against the fixture servers: every rule fires on the
//! poisoned listing, at the field that breaks it; the plain chaos listing
//! triggers none; fixture-everything has no error finding.

use std::{collections::BTreeSet, time::Duration};

use mcptest::{
    Server,
    report::{Report, Status},
    scan::lint::{Lint, RULES, Severity},
};

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

#[tokio::test]
async fn every_rule_fires_on_the_poisoned_server_at_the_offending_field() {
    let report = Lint::new(chaos(&["--poisoned"])).run().await;
    let all: BTreeSet<&str> = RULES.iter().map(|r| r.id).collect();
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
async fn a_clean_listing_triggers_no_rule() {
    let report = Lint::new(chaos(&[])).run().await;
    assert_eq!(fired(&report), BTreeSet::new(), "{report}");
    assert_eq!(report.results.len(), RULES.len(), "one pass per rule");
    assert!(report.passed(), "{report}");
}

#[tokio::test]
async fn the_everything_server_has_no_error_finding() {
    let root = tempfile::tempdir().unwrap();
    let server = Server::program(EVERYTHING)
        .arg("--root")
        .arg(root.path())
        .timeout(Duration::from_secs(20));
    let report = Lint::new(server).run().await;
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
