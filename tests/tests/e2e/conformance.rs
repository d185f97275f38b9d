//! Conformance reports for real third-party servers, installed by
//! `.ci/install-e2e.sh` (pinned versions), pinned as snapshots. Run with:
//!
//! ```sh
//! bash .ci/install-e2e.sh && source target/e2e/env.sh
//! cargo test -p mcptest-tests --test e2e conformance:: -- --ignored
//! ```
//!
//! The tables are pinned whole: a server release that changes a verdict, or
//! a change to a check, shows up as a snapshot diff (`cargo insta review`).

use std::time::Duration;

use mcptest::{
    Server,
    conformance::{Conformance, ConformanceReport},
    report::Status,
};
use mcptest_tests::{e2e, http::HttpFixture};

/// What changes from run to run (the HTTP port, legacy session ids) or with
/// an unpinned dependency of the server (the pydantic version in the Python
/// SDK's validation messages).
fn pin(name: &str, report: &ConformanceReport) {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r"127\.0\.0\.1:\d+", "127.0.0.1:[port]");
    settings.add_filter(r"\b[0-9a-f]{32}\b", "[session-id]");
    settings.add_filter(
        r"errors\.pydantic\.dev/[0-9.]+",
        "errors.pydantic.dev/[version]",
    );
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name, report.table()));
}

fn checks(server: Server, label: &str) -> Conformance {
    Conformance::new(server)
        .label(label)
        .timeout(Duration::from_secs(15))
}

fn python_sdk() -> Server {
    Server::program(e2e::path("MCPTEST_E2E_PYTHON")).arg(e2e::path("MCPTEST_E2E_PYSDK_SERVER"))
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn server_everything_over_stdio() {
    let server = Server::program(e2e::path("MCPTEST_E2E_EVERYTHING"))
        .arg("stdio")
        .connect_timeout(Duration::from_secs(60));
    let report = checks(server, "@modelcontextprotocol/server-everything 2026.8.31")
        .run()
        .await
        .unwrap();
    // It speaks only the classic revision.
    assert_eq!(
        report.verdict("classic-initialize-result"),
        Some(Status::Pass),
        "{report}"
    );
    assert_eq!(
        report.verdict("sep-2575-discover"),
        Some(Status::Skip),
        "{report}"
    );
    pin("server_everything_stdio", &report);
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn python_sdk_over_stdio() {
    let report = checks(
        python_sdk(),
        "Python SDK mcp 2.3.0 (tests/e2e/pysdk_server.py)",
    )
    .run()
    .await
    .unwrap();
    // It speaks both revisions.
    assert_eq!(
        report.verdict("classic-initialize-result"),
        Some(Status::Pass),
        "{report}"
    );
    assert_eq!(
        report.verdict("sep-2575-discover"),
        Some(Status::Pass),
        "{report}"
    );
    pin("python_sdk_stdio", &report);
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn python_sdk_over_http() {
    let python = e2e::path("MCPTEST_E2E_PYTHON");
    let script = e2e::path("MCPTEST_E2E_PYSDK_SERVER");
    let fixture = HttpFixture::start(
        &python.to_string_lossy(),
        &[&script.to_string_lossy(), "--http", "--port", "0"],
    );
    let report = checks(
        Server::url(&fixture.url),
        "Python SDK mcp 2.3.0 (tests/e2e/pysdk_server.py --http)",
    )
    .run()
    .await
    .unwrap();
    assert_eq!(
        report.verdict("sep-2575-discover"),
        Some(Status::Pass),
        "{report}"
    );
    pin("python_sdk_http", &report);
}
