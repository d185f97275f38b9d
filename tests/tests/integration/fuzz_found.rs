//! A fuzz finding becomes a test: a run against `fixture-chaos
//! --planted-crash` finds the crash, shrinks its input to a minimal one,
//! and writes an `#[mcp_test]` file (`fuzz_found_written.rs`, kept in this
//! binary as written) and an MCP Cases suite file; both fail against the
//! server with the bug (`MCPTEST_PLANTED_CRASH=1`) and pass against it
//! without (the fix).

use std::time::Duration;

use mcptest::{
    Server,
    report::Status,
    scan::audit::Classification,
    scan::fuzz::{Fuzz, Launch, MINIMAL, REPRO, SEED, regression_suite, regression_tests},
    suite::{RunOptions, Suite},
};
use serde_json::{Value, json};

const CHAOS: &str = env!("CARGO_BIN_EXE_fixture-chaos");

/// The written test file, kept in this binary as module `fuzz_found_written`.
const WRITTEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/integration/fuzz_found_written.rs"
);

fn server(bug: bool) -> Server {
    let server = Server::program(CHAOS)
        .arg("--planted-crash")
        .env("RUST_BACKTRACE", "0")
        .timeout(Duration::from_secs(20))
        .shutdown_grace(Duration::from_millis(200));
    if bug {
        server.env("MCPTEST_PLANTED_CRASH", "1")
    } else {
        server
    }
}

#[tokio::test]
async fn a_fuzz_finding_is_a_test_that_fails_before_the_fix_and_passes_after() {
    let report = Fuzz::new(server(true))
        .tools(["ingest"])
        .mutations(0)
        .seed(7)
        .timeout(Duration::from_secs(10))
        .run()
        .await;
    let failing: Vec<&str> = report.failures().map(|r| r.name.as_str()).collect();
    assert_eq!(
        failing,
        ["ingest: tags: 1000 items", "ingest: tags: mixed items"],
        "{report}"
    );
    let found = report.result("ingest: tags: 1000 items").unwrap();
    assert_eq!(Classification::of(found), Some(Classification::Crash));
    assert_eq!(found.property_value(SEED), Some("7"));
    // The smallest input that still crashes: four empty tags and a title of
    // one letter; `count` is gone.
    let minimal: Value = serde_json::from_str(found.property_value(MINIMAL).unwrap()).unwrap();
    assert_eq!(minimal, json!({"tags": ["", "", "", ""], "title": "e"}));
    assert_eq!(
        found.property_value(REPRO),
        Some(r#"mcp.call_tool("ingest", json!({"tags":["","","",""],"title":"e"})).await"#)
    );
    let text = found.outcome.failure().unwrap().to_string();
    assert!(text.contains("shrunk in "), "{text}");
    // Only the first crash of a tool is shrunk.
    let second = report.result("ingest: tags: mixed items").unwrap();
    assert_eq!(second.property_value(MINIMAL), None);

    let launch = Launch::bin("fixture-chaos").args(["--planted-crash"]);
    let rust = regression_tests(&report, launch.clone()).unwrap();
    if std::env::var_os("MCPTEST_OVERWRITE").is_some() {
        std::fs::write(WRITTEN, &rust).unwrap();
    }
    let kept = std::fs::read_to_string(WRITTEN).unwrap();
    assert_eq!(
        kept, rust,
        "{WRITTEN} is not what the fuzz run writes now; rewrite it with \
         MCPTEST_OVERWRITE=1 cargo test -p mcptest-tests --test integration fuzz_found::"
    );
    assert_eq!(
        written_tests(true),
        (false, 2),
        "the bug is there: the tests fail"
    );
    assert_eq!(written_tests(false), (true, 2), "the fix: the tests pass");

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fuzz_found.yaml");
    std::fs::write(&path, regression_suite(&report, launch).unwrap()).unwrap();
    let suite = Suite::load(&path).unwrap();
    assert_eq!(suite.tests().len(), 2);
    for (bug, status) in [(true, Status::Fail), (false, Status::Pass)] {
        let options = RunOptions::new().server(server(bug));
        let results = suite.run(&options).await;
        let statuses: Vec<Status> = results.iter().map(|r| r.status()).collect();
        assert_eq!(statuses, [status, status], "bug: {bug}: {results:?}");
    }
}

/// Runs the written tests (this binary, only them) with the bug or
/// without it: whether they passed, and how many ran.
fn written_tests(bug: bool) -> (bool, usize) {
    let mut command = std::process::Command::new(std::env::current_exe().unwrap());
    command.args(["fuzz_found_written::", "--test-threads", "2"]);
    if bug {
        command.env("MCPTEST_PLANTED_CRASH", "1");
    } else {
        command.env_remove("MCPTEST_PLANTED_CRASH");
    }
    let out = command.env("RUST_BACKTRACE", "0").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let ran = stdout
        .lines()
        .filter(|l| l.starts_with("test fuzz_found_written::"))
        .count();
    (out.status.success(), ran)
}

#[tokio::test]
async fn the_seed_reproduces_the_run_and_its_shrinking() {
    let run = || async {
        Fuzz::new(server(true))
            .tools(["ingest"])
            .mutations(6)
            .seed(99)
            .timeout(Duration::from_secs(10))
            .run()
            .await
    };
    let (first, second) = (run().await, run().await);
    let outcome = |report: &mcptest::report::Report| -> Vec<(String, Status, Option<String>)> {
        report
            .results
            .iter()
            .map(|r| {
                (
                    r.name.clone(),
                    r.status(),
                    r.property_value(MINIMAL).map(str::to_owned),
                )
            })
            .collect()
    };
    assert_eq!(outcome(&first), outcome(&second));
    assert!(
        first
            .results
            .iter()
            .any(|r| r.name.contains("mutation 6 of seed 99")),
        "{first}"
    );
}
