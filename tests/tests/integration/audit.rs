//! `mcptest::scan::audit` against the fixture servers: a clean server gets a clean
//! report, each defect the right classification with its evidence, and no
//! server the audit started outlives it (proved from the process table for
//! the pids the audit reports).

use std::time::Duration;

use mcptest::{
    Server,
    report::{Report, Status},
    scan::audit::{Audit, Classification, Score},
};
use mcptest_tests::procs;

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");
const CHAOS: &str = env!("CARGO_BIN_EXE_fixture-chaos");
const PROMPT: Duration = Duration::from_secs(5);

fn everything(root: &tempfile::TempDir) -> Server {
    Server::program(EVERYTHING)
        .arg("--root")
        .arg(root.path())
        .timeout(Duration::from_secs(20))
}

fn chaos(flags: &[&str]) -> Server {
    Server::program(CHAOS)
        .args(flags.iter().copied())
        .timeout(Duration::from_secs(20))
        .shutdown_grace(Duration::from_millis(200))
}

fn classification(report: &Report, tool: &str) -> Classification {
    let result = report
        .result(tool)
        .unwrap_or_else(|| panic!("no result for {tool}:\n{report}"));
    Classification::of(result).unwrap_or_else(|| panic!("{tool} is not classified:\n{report}"))
}

/// Every server process the audit reports is gone, with its group.
fn assert_servers_gone(report: &Report) {
    let pids: Vec<u32> = report
        .results
        .iter()
        .filter_map(|r| r.property_value("pid")?.parse().ok())
        .collect();
    assert!(!pids.is_empty(), "the audit reports no pid:\n{report}");
    for pid in pids {
        procs::assert_gone(pid, PROMPT);
    }
}

#[tokio::test]
async fn every_tool_of_the_everything_server_is_called_and_the_defects_are_found() {
    let root = tempfile::tempdir().unwrap();
    let report = Audit::new(everything(&root)).run().await;

    // The two tools that misbehave on purpose are protocol errors...
    assert_eq!(
        classification(&report, "rpc_error"),
        Classification::ProtocolError
    );
    let rpc = report.result("rpc_error").unwrap().outcome.to_owned();
    let text = rpc.failure().unwrap().to_string();
    assert!(text.contains("tools/call rpc_error"), "{text}");
    assert!(text.contains("rpc_error always fails"), "{text}");
    assert_eq!(
        classification(&report, "weather_bad"),
        Classification::ProtocolError
    );
    let weather = report.result("weather_bad").unwrap();
    let text = weather.outcome.failure().unwrap().to_string();
    assert!(text.contains("outputSchema"), "{text}");
    assert!(
        text.contains(r#""city""#),
        "the input that was sent: {text}"
    );
    assert_eq!(
        weather.property_value("input"),
        Some(r#"{"city":"example"}"#)
    );

    // ...the destructive one is skipped, visibly and with the reason...
    let write = report.result("write_file").unwrap();
    assert_eq!(write.status(), Status::Skip);
    assert!(
        write
            .outcome
            .skip_reason()
            .unwrap()
            .contains("destructiveHint"),
        "{report}"
    );

    // ...and every other tool answered, `isError` (fail, env) or not.
    for result in &report.results {
        if !["rpc_error", "weather_bad", "write_file"].contains(&result.name.as_str()) {
            assert_eq!(
                Classification::of(result),
                Some(Classification::Healthy),
                "{}:\n{report}",
                result.name
            );
        }
    }
    assert_eq!(classification(&report, "fail"), Classification::Healthy);
    let score = Score::of(&report);
    assert_eq!((score.unhealthy, score.skipped), (2, 1), "{report}");
    assert!(score.healthy >= 20, "{score}");
    assert!(!report.passed());
    assert_servers_gone(&report);
}

#[tokio::test]
async fn the_everything_server_is_healthy_with_its_known_defects_skipped() {
    let root = tempfile::tempdir().unwrap();
    let report = Audit::new(everything(&root))
        .skip(["rpc_error", "weather_bad"])
        .assert_healthy()
        .await;
    assert_eq!(report.result("rpc_error").unwrap().status(), Status::Skip);
    assert_eq!(
        report
            .result("rpc_error")
            .unwrap()
            .outcome
            .skip_reason()
            .unwrap(),
        "listed to be skipped"
    );
    assert_servers_gone(&report);
}

#[tokio::test]
async fn a_server_that_exits_mid_call_is_a_crash_with_exit_status_and_stderr() {
    let report = Audit::new(chaos(&["--exit-mid-call"])).run().await;
    assert_eq!(classification(&report, "poke"), Classification::Crash);
    let text = report
        .result("poke")
        .unwrap()
        .outcome
        .failure()
        .unwrap()
        .to_string();
    assert!(text.contains("tools/call poke"), "{text}");
    assert!(text.contains("exit status 7"), "{text}");
    assert!(
        text.contains("chaos: exiting mid-call"),
        "stderr tail: {text}"
    );
    assert!(!report.passed());
    assert_servers_gone(&report);
}

#[tokio::test]
async fn a_server_that_never_answers_is_a_timeout_and_is_killed() {
    let report = Audit::new(chaos(&["--never-answer"]))
        .timeout(Duration::from_millis(500))
        .run()
        .await;
    assert_eq!(classification(&report, "poke"), Classification::Timeout);
    let text = report
        .result("poke")
        .unwrap()
        .outcome
        .failure()
        .unwrap()
        .to_string();
    assert!(text.contains("timed out"), "{text}");
    assert!(text.contains("an answer within the timeout"), "{text}");
    assert_servers_gone(&report);
}

#[tokio::test]
async fn a_server_that_does_not_start_is_one_failed_listing() {
    let report = Audit::new(chaos(&["--exit-before-initialize"])).run().await;
    assert_eq!(report.results.len(), 1, "{report}");
    let listing = report.result("tools/list").unwrap();
    assert_eq!(listing.status(), Status::Fail);
    assert!(!report.passed());
}

#[tokio::test]
async fn a_skip_list_entry_that_names_no_tool_is_a_warning() {
    let report = Audit::new(chaos(&[])).skip(["pokee"]).run().await;
    assert_eq!(classification(&report, "poke"), Classification::Healthy);
    let warning = report.result("skip pokee").unwrap();
    assert_eq!(warning.status(), Status::Warn);
    assert!(
        warning.outcome.summary().unwrap().contains("poke"),
        "{report}"
    );
    assert!(report.passed(), "{report}");
    assert_servers_gone(&report);
}

#[tokio::test]
async fn a_fresh_server_per_tool_is_one_process_per_tool_called() {
    let root = tempfile::tempdir().unwrap();
    let report = Audit::new(everything(&root))
        .fresh_server_per_tool(true)
        .skip(["rpc_error", "weather_bad"])
        .run()
        .await;
    assert!(report.passed(), "{report}");
    let pids: std::collections::BTreeSet<&str> = report
        .results
        .iter()
        .filter_map(|r| r.property_value("pid"))
        .collect();
    let called = Score::of(&report).healthy;
    assert_eq!(pids.len(), called, "{report}");
    assert_servers_gone(&report);
}

#[tokio::test]
async fn defects_that_need_a_bad_input_pass_the_audit_and_are_left_to_the_fuzz() {
    // `parse` panics only on an empty text and `search` hangs only on a
    // long query; the audit's one valid input reaches neither.
    let report = Audit::new(chaos(&["--defects"])).assert_healthy().await;
    for tool in ["poke", "parse", "search"] {
        assert_eq!(classification(&report, tool), Classification::Healthy);
    }
    assert_servers_gone(&report);
}
