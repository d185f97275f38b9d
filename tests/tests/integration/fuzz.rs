//! `mcptest::scan::fuzz` against the fixture servers: a sturdy tool passes every
//! case, a crash is found once per input with a line to reproduce it, and
//! every server the run started (one per crash) is gone afterwards.

use std::{collections::BTreeSet, time::Duration};

use mcptest::{
    Server,
    report::Status,
    scan::audit::Classification,
    scan::fuzz::{Fuzz, cases},
};
use mcptest_tests::procs;
use serde_json::json;

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");
const CHAOS: &str = env!("CARGO_BIN_EXE_fixture-chaos");

#[tokio::test]
async fn sturdy_tools_survive_every_case() {
    let root = tempfile::tempdir().unwrap();
    let server = Server::program(EVERYTHING)
        .arg("--root")
        .arg(root.path())
        .timeout(Duration::from_secs(20));
    let report = Fuzz::new(server).tools(["echo", "add"]).run().await;
    report.assert_passed();
    assert!(
        report.result("echo: message: 10 KB string").is_some(),
        "{report}"
    );
    assert!(report.result("add: a: i64 max").is_some(), "{report}");
    let pids: BTreeSet<&str> = report
        .results
        .iter()
        .filter_map(|r| r.property_value("pid"))
        .collect();
    assert_eq!(pids.len(), 1, "one server for a run without crashes");
    for pid in pids {
        procs::assert_gone(pid.parse().unwrap(), Duration::from_secs(5));
    }
}

#[tokio::test]
async fn a_crash_is_counted_once_per_input_with_a_line_to_reproduce_it() {
    let server = Server::program(CHAOS)
        .arg("--exit-mid-call")
        .timeout(Duration::from_secs(20))
        .shutdown_grace(Duration::from_millis(200));
    let report = Fuzz::new(server).mutations(3).run().await;
    let expected = cases(&json!({"type": "object"})).len() + 3;
    assert_eq!(report.results.len(), expected, "{report}");
    let mut pids = BTreeSet::new();
    for result in &report.results {
        assert_eq!(result.status(), Status::Fail, "{report}");
        assert_eq!(Classification::of(result), Some(Classification::Crash));
        let text = result.outcome.failure().unwrap().to_string();
        assert!(
            text.contains("paste into a test: mcp.call_tool(\"poke\""),
            "{text}"
        );
        pids.insert(result.property_value("pid").unwrap().to_owned());
    }
    assert_eq!(pids.len(), expected, "a fresh server after each crash");
    for pid in pids {
        procs::assert_gone(pid.parse().unwrap(), Duration::from_secs(5));
    }
}

#[tokio::test]
async fn a_tool_name_the_server_does_not_list_fails_the_run() {
    let server = Server::program(CHAOS).timeout(Duration::from_secs(20));
    let report = Fuzz::new(server).tools(["pokee"]).run().await;
    assert!(!report.passed());
    assert_eq!(report.result("pokee").unwrap().status(), Status::Fail);
}

/// `fixture-chaos --defects`: `parse` panics on an empty text, `search`
/// hangs on a long query. The audit's valid inputs miss both; the fuzz
/// finds each with its own classification and nothing else.
#[tokio::test]
async fn a_panic_on_an_empty_string_is_a_crash_and_a_hang_on_a_long_input_a_timeout() {
    // No backtrace: symbolising one can take longer than the call timeout on
    // a loaded machine, and the panic would read as a hang. The timeout
    // leaves the crash seconds to be seen even so; only the hang waits it out.
    let server = Server::program(CHAOS)
        .arg("--defects")
        .env("RUST_BACKTRACE", "0")
        .timeout(Duration::from_secs(20))
        .shutdown_grace(Duration::from_millis(200));
    let report = Fuzz::new(server)
        .tools(["parse", "search"])
        .mutations(0)
        .timeout(Duration::from_secs(3))
        .run()
        .await;
    let unhealthy: Vec<(&str, Option<Classification>)> = report
        .failures()
        .map(|r| (r.name.as_str(), Classification::of(r)))
        .collect();
    assert_eq!(
        unhealthy,
        [
            ("parse: text: empty string", Some(Classification::Crash)),
            ("search: query: 10 KB string", Some(Classification::Timeout)),
        ],
        "{report}"
    );
    let crash = report.result("parse: text: empty string").unwrap();
    let text = crash.outcome.failure().unwrap().to_string();
    assert!(text.contains("exit status 101"), "a panic: {text}");
    assert!(
        text.contains("parse cannot handle an empty text"),
        "stderr: {text}"
    );
    assert!(
        text.contains(r#"mcp.call_tool("parse", json!({"text":""})).await"#),
        "{text}"
    );
    let hang = report.result("search: query: 10 KB string").unwrap();
    let text = hang.outcome.failure().unwrap().to_string();
    assert!(text.contains("timed out"), "{text}");
    let pids: BTreeSet<&str> = report
        .results
        .iter()
        .filter_map(|r| r.property_value("pid"))
        .collect();
    assert_eq!(pids.len(), 3, "restarted after the crash and the hang");
    for pid in pids {
        procs::assert_gone(pid.parse().unwrap(), Duration::from_secs(5));
    }
}

#[tokio::test]
async fn assert_passed_is_one_line_for_ci_and_names_the_seed_on_failure() {
    let root = tempfile::tempdir().unwrap();
    let server = Server::program(EVERYTHING)
        .arg("--root")
        .arg(root.path())
        .timeout(Duration::from_secs(20));
    let report = Fuzz::new(server)
        .tools(["echo"])
        .mutations(8)
        .assert_passed()
        .await;
    assert!(
        report
            .results
            .iter()
            .any(|r| r.name.starts_with("echo: mutation 8 of seed")),
        "{report}"
    );

    let failing = tokio::spawn(async {
        let server = Server::program(CHAOS)
            .arg("--defects")
            .timeout(Duration::from_secs(20))
            .shutdown_grace(Duration::from_millis(200));
        Fuzz::new(server)
            .tools(["parse"])
            .seed(7)
            .mutations(2)
            .assert_passed()
            .await;
    })
    .await
    .expect_err("a crash fails the assertion");
    let message = failing.into_panic();
    let message = message
        .downcast_ref::<String>()
        .expect("a formatted panic message");
    assert!(message.contains("parse: text: empty string"), "{message}");
    assert!(message.contains("`.seed(7)`"), "{message}");
    assert!(message.contains("mcptest fuzz --seed 7"), "{message}");
    assert!(message.contains("fuzz asserted at"), "{message}");
    assert!(message.contains("tests/integration/fuzz.rs"), "{message}");
}
