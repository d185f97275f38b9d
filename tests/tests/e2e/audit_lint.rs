//! The audit and the security lint of real third-party servers, installed
//! by `.ci/install-e2e.sh` (pinned versions), pinned as snapshots: one line
//! per result (status, name, and the audit's classification), without
//! timings or process ids. Run with:
//!
//! ```sh
//! bash .ci/install-e2e.sh && source target/e2e/env.sh
//! cargo test -p mcptest-tests --test e2e audit_lint:: -- --ignored
//! ```

use std::time::Duration;

use mcptest::{
    Server,
    report::Report,
    scan::audit::{Audit, Classification},
    scan::lint::{Family, Lint},
};
use mcptest_tests::e2e;

fn everything() -> Server {
    Server::program(e2e::path("MCPTEST_E2E_EVERYTHING"))
        .arg("stdio")
        .connect_timeout(Duration::from_secs(60))
}

fn time() -> Server {
    Server::program(e2e::path("MCPTEST_E2E_TIME"))
        .args(["--local-timezone", "UTC"])
        .connect_timeout(Duration::from_secs(60))
}

/// One line per result, in the report's order.
fn lines(report: &Report) -> String {
    let mut out = String::new();
    for result in &report.results {
        out.push_str(&format!("{:<4} {}", result.status(), result.name));
        if let Some(class) = Classification::of(result) {
            out.push_str(&format!("  [{class}]"));
        }
        out.push('\n');
    }
    out
}

fn pin(name: &str, report: &Report) {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name, lines(report)));
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn audit_of_server_everything() {
    let report = Audit::new(everything())
        .timeout(Duration::from_secs(15))
        .run()
        .await;
    pin("audit_server_everything", &report);
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn audit_of_mcp_server_time() {
    let report = Audit::new(time())
        .timeout(Duration::from_secs(15))
        .run()
        .await;
    pin("audit_mcp_server_time", &report);
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn security_lint_of_server_everything() {
    let report = Lint::new(everything()).only(Family::Security).run().await;
    pin("lint_server_everything", &report);
}

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn security_lint_of_mcp_server_time() {
    let report = Lint::new(time()).only(Family::Security).run().await;
    pin("lint_mcp_server_time", &report);
}
