//! Server conformance checks: every check passes against `fixture-stateless`
//! and fails against the `fixture-broken` flag made for it, over stdio and
//! over Streamable HTTP.

use std::{collections::BTreeSet, time::Duration};

use mcptest::{
    Error, Server,
    conformance::{Applies, Conformance, ConformanceReport, Level, Role, Transport, catalogue},
    report::Status,
};
use mcptest_tests::{
    http::HttpFixture,
    stateless::{BREAKAGES, CAPABILITY_TOOL, LOG_TOOL},
};
use serde_json::json;

const STATELESS: &str = env!("CARGO_BIN_EXE_fixture-stateless");
const BROKEN: &str = env!("CARGO_BIN_EXE_fixture-broken");
const CHAOS: &str = env!("CARGO_BIN_EXE_fixture-chaos");
const RMCP: &str = env!("CARGO_BIN_EXE_fixture-rmcp");

/// Each `fixture-broken` flag, the checks it must fail, and whether it
/// applies over stdio (all apply over HTTP).
const CASES: &[(&str, &[&str], bool)] = &[
    (
        "--output-schema-not-object",
        &["mcp-wire-schema-valid"],
        true,
    ),
    (
        "--initialize-without-server-info",
        &["classic-initialize-result"],
        true,
    ),
    ("--echo-any-version", &["classic-version-negotiation"], true),
    (
        "--ignore-early-requests",
        &["classic-request-before-initialize"],
        true,
    ),
    ("--ignore-ping", &["classic-ping"], true),
    ("--bad-tool-name", &["classic-tool-names"], true),
    ("--bad-input-schema", &["classic-tool-input-schemas"], true),
    (
        "--hide-prompts-list",
        &["classic-declared-capabilities-answer"],
        true,
    ),
    (
        "--answer-subscribe",
        &["classic-undeclared-capabilities-rejected"],
        true,
    ),
    (
        "--unknown-tool-succeeds",
        &["classic-unknown-tool-rejected"],
        true,
    ),
    (
        "--unknown-tool-is-error-result",
        &["classic-unknown-tool-protocol-error"],
        true,
    ),
    (
        "--unknown-resource-empty",
        &["classic-unknown-resource"],
        true,
    ),
    (
        "--prompt-ignores-missing-argument",
        &["classic-missing-prompt-argument"],
        true,
    ),
    (
        "--argument-errors-as-rpc-errors",
        &["classic-tool-input-error-is-tool-result"],
        true,
    ),
    (
        "--error-id-null",
        &["classic-error-id", "sep-2575-error-id"],
        true,
    ),
    ("--drop-invalid-json", &["classic-invalid-json"], true),
    (
        "--drop-invalid-requests",
        &["classic-invalid-request"],
        true,
    ),
    ("--cursor-loops", &["classic-pagination"], true),
    ("--accept-invalid-cursor", &["classic-invalid-cursor"], true),
    (
        "--discover-without-server-info",
        &["sep-2575-discover"],
        true,
    ),
    ("--accept-missing-meta", &["sep-2575-meta-required"], true),
    (
        "--accept-missing-meta-version",
        &["sep-2575-meta-protocol-version-required"],
        true,
    ),
    (
        "--accept-missing-meta-capabilities",
        &["sep-2575-meta-client-capabilities-required"],
        true,
    ),
    (
        "--require-client-info",
        &["sep-2575-meta-client-info-optional"],
        true,
    ),
    (
        "--unsupported-version-invalid-params",
        &["sep-2575-unsupported-version"],
        true,
    ),
    (
        "--unsupported-version-drift",
        &["sep-2575-unsupported-version-no-drift"],
        true,
    ),
    (
        "--advertise-phantom-version",
        &["sep-2575-supported-versions-accepted"],
        true,
    ),
    (
        "--discover-ignores-version",
        &["sep-2575-discover-unsupported-version"],
        true,
    ),
    (
        "--ignore-version-header",
        &["sep-2575-http-header-mismatch"],
        false,
    ),
    (
        "--missing-capability-as-invalid-params",
        &["sep-2575-missing-client-capability"],
        true,
    ),
    ("--answer-ping", &["sep-2575-removed-methods"], true),
    (
        "--initialize-names-2026-07-28",
        &["sep-2575-removed-methods"],
        true,
    ),
    (
        "--unknown-method-invalid-request",
        &["sep-2575-unknown-method"],
        true,
    ),
    (
        "--discover-hides-prompts",
        &["sep-2575-capabilities-honored"],
        true,
    ),
    (
        "--log-without-level",
        &["sep-2575-no-log-without-level"],
        true,
    ),
    (
        "--http-errors-200",
        &[
            "sep-2575-meta-required",
            "sep-2575-meta-protocol-version-required",
            "sep-2575-meta-client-capabilities-required",
            "sep-2575-unsupported-version",
            "sep-2575-discover-unsupported-version",
            "sep-2575-http-header-mismatch",
            "sep-2575-missing-client-capability",
            "sep-2575-removed-methods",
            "sep-2575-unknown-method",
        ],
        false,
    ),
];

pub(super) fn checks(server: Server) -> Conformance {
    Conformance::new(server)
        .capability_tool(CAPABILITY_TOOL, json!({}))
        .log_tool(LOG_TOOL, json!({ "message": "hello" }))
        .timeout(Duration::from_secs(10))
        .quiet_period(Duration::from_millis(300))
}

/// Checks whose verdict is not `expected` (skips of rules for the other
/// transport aside), as `id: verdict`.
fn unexpected(report: &ConformanceReport, expected: Status) -> Vec<String> {
    report
        .results
        .iter()
        .filter(|r| r.rule.applies == Applies::Any || r.rule.applies == applies(report))
        // The authorization checks are for a protected server:
        // `conformance_auth` runs them against `fixture-auth`.
        .filter(|r| !super::conformance_auth::CASES.contains(&r.rule.id))
        .filter(|r| r.status != expected)
        .map(|r| format!("{}: {}", r.rule.id, r.status))
        .collect()
}

fn applies(report: &ConformanceReport) -> Applies {
    match report.transport {
        Transport::Stdio => Applies::Stdio,
        Transport::Http => Applies::Http,
        Transport::Sse => Applies::Sse,
    }
}

fn server_check_count() -> usize {
    catalogue()
        .iter()
        .filter(|c| c.role == Role::Server)
        .count()
}

#[tokio::test]
async fn the_conforming_fixture_passes_every_check_over_stdio() {
    let report = checks(Server::program(STATELESS)).run().await.unwrap();
    assert_eq!(report.results.len(), server_check_count());
    assert_eq!(report.transport, Transport::Stdio);
    let wrong = unexpected(&report, Status::Pass);
    assert!(wrong.is_empty(), "{wrong:?}\n{report}");
    let header = report.result("sep-2575-http-header-mismatch").unwrap();
    assert_eq!(header.status, Status::Skip);
    assert_eq!(
        header.reason.as_deref(),
        Some("the rule is for Streamable HTTP; this server is reached over stdio")
    );
    report.assert_conforms();
}

#[tokio::test]
async fn the_conforming_fixture_passes_every_check_over_http() {
    let fixture = HttpFixture::start(STATELESS, &["--http"]);
    let report = checks(Server::url(&fixture.url)).run().await.unwrap();
    assert_eq!(report.transport, Transport::Http);
    let wrong = unexpected(&report, Status::Pass);
    assert!(wrong.is_empty(), "{wrong:?}\n{report}");
    let auth = super::conformance_auth::CASES;
    // The HTTP+SSE transport's own rules fold over Streamable HTTP.
    let sse_only = catalogue()
        .iter()
        .filter(|c| c.applies == Applies::Sse)
        .count();
    assert_eq!(
        report.counts().passed,
        server_check_count() - auth.len() - sse_only
    );
    // An unprotected server folds the authorization checks as such.
    for id in auth {
        let result = report.result(id).unwrap();
        assert_eq!(result.status, Status::Skip, "{report}");
        assert_eq!(
            result.reason.as_deref(),
            Some("the server is not protected (a request without a token is not answered 401)"),
            "{report}"
        );
    }
}

/// Runs the checks `flag` is made to break, against `fixture-broken flag`.
pub(super) async fn expect_broken(flag: &str, transport: Transport) {
    let (_, ids, _) = CASES
        .iter()
        .chain(super::conformance_features::CASES)
        .chain(super::conformance_http::HTTP_CASES)
        .chain(super::conformance_tasks::CASES)
        .find(|(f, ..)| *f == flag)
        .unwrap_or_else(|| panic!("no case for {flag}"));
    let mut fixture = None;
    let server = match transport {
        Transport::Stdio => Server::program(BROKEN).arg(flag),
        Transport::Http => {
            let started = HttpFixture::start(BROKEN, &["--http", flag]);
            let server = Server::url(&started.url);
            fixture = Some(started);
            server
        }
        Transport::Sse => unreachable!("the broken fixture speaks stdio and Streamable HTTP"),
    };
    let report = checks(server)
        .only(ids.iter().copied())
        .run()
        .await
        .unwrap();
    assert_eq!(report.results.len(), ids.len(), "{report}");
    for id in ids.iter() {
        let result = report.result(id).unwrap();
        let expected = match result.rule.level {
            Level::Must => Status::Fail,
            Level::Should => Status::Warn,
        };
        assert_eq!(
            result.status, expected,
            "{flag} should make {id} {expected} over {transport}\n{report}"
        );
        assert!(result.reason.is_some(), "{report}");
        assert!(
            !result.evidence.is_empty(),
            "{id} has no evidence\n{report}"
        );
    }
    drop(fixture);
}

broken! {
    initialize_without_server_info: "--initialize-without-server-info";
    echo_any_version: "--echo-any-version";
    ignore_early_requests: "--ignore-early-requests";
    ignore_ping: "--ignore-ping";
    bad_tool_name: "--bad-tool-name";
    bad_input_schema: "--bad-input-schema";
    output_schema_not_object: "--output-schema-not-object";
    hide_prompts_list: "--hide-prompts-list";
    answer_subscribe: "--answer-subscribe";
    unknown_tool_succeeds: "--unknown-tool-succeeds";
    unknown_tool_is_error_result: "--unknown-tool-is-error-result";
    unknown_resource_empty: "--unknown-resource-empty";
    prompt_ignores_missing_argument: "--prompt-ignores-missing-argument";
    argument_errors_as_rpc_errors: "--argument-errors-as-rpc-errors";
    error_id_null: "--error-id-null";
    drop_invalid_json: "--drop-invalid-json";
    drop_invalid_requests: "--drop-invalid-requests";
    cursor_loops: "--cursor-loops";
    accept_invalid_cursor: "--accept-invalid-cursor";
    discover_without_server_info: "--discover-without-server-info";
    accept_missing_meta: "--accept-missing-meta";
    accept_missing_meta_version: "--accept-missing-meta-version";
    accept_missing_meta_capabilities: "--accept-missing-meta-capabilities";
    require_client_info: "--require-client-info";
    unsupported_version_invalid_params: "--unsupported-version-invalid-params";
    unsupported_version_drift: "--unsupported-version-drift";
    advertise_phantom_version: "--advertise-phantom-version";
    discover_ignores_version: "--discover-ignores-version";
    ignore_version_header: "--ignore-version-header", http_only;
    missing_capability_as_invalid_params: "--missing-capability-as-invalid-params";
    answer_ping: "--answer-ping";
    initialize_names_2026_07_28: "--initialize-names-2026-07-28";
    unknown_method_invalid_request: "--unknown-method-invalid-request";
    discover_hides_prompts: "--discover-hides-prompts";
    log_without_level: "--log-without-level";
    http_errors_200: "--http-errors-200", http_only;
}

#[test]
fn every_server_check_has_a_flag_that_breaks_it() {
    // The 2026-07-28 feature and HTTP checks have their cases in their own modules.
    let all_cases = || {
        CASES
            .iter()
            .chain(super::conformance_features::CASES)
            .chain(super::conformance_http::HTTP_CASES)
            .chain(super::conformance_tasks::CASES)
    };
    let broken: BTreeSet<&str> = all_cases()
        .flat_map(|(_, ids, _)| ids.iter().copied())
        // `fixture-auth --broken <id>` breaks the authorization checks.
        .chain(super::conformance_auth::CASES.iter().copied())
        // `fixture-everything --sse --sse-quirk NAME` breaks the HTTP+SSE rules.
        .chain(super::sse::RULE_QUIRKS.iter().map(|(_, id, ..)| *id))
        .collect();
    let all: BTreeSet<&str> = catalogue()
        .iter()
        .filter(|c| c.role == Role::Server)
        .map(|c| c.id)
        .collect();
    let missing: Vec<_> = all.difference(&broken).collect();
    assert!(missing.is_empty(), "no breakage for {missing:?}");
    // The fixture documents the same flags.
    let flags: BTreeSet<&str> = BREAKAGES.iter().map(|(_, flag, ..)| *flag).collect();
    let cased: BTreeSet<&str> = all_cases().map(|(flag, ..)| *flag).collect();
    assert_eq!(flags, cased);
    for (flag, _, over_stdio) in CASES {
        let http_only = ["--ignore-version-header", "--http-errors-200"].contains(flag);
        assert_eq!(*over_stdio, !http_only, "{flag}");
    }
}

#[tokio::test]
async fn a_server_without_2026_07_28_gets_the_sep_2575_checks_skipped_with_the_reason() {
    let report = Conformance::new(Server::program(CHAOS))
        .only(["sep-2575-*", "classic-ping"])
        .run()
        .await
        .unwrap();
    assert_eq!(
        report.status("classic-ping"),
        Some(Status::Pass),
        "{report}"
    );
    for result in report
        .results
        .iter()
        .filter(|r| r.rule.id.starts_with("sep-2575-"))
    {
        assert_eq!(result.status, Status::Skip, "{report}");
        let reason = result.reason.as_deref().unwrap_or_default();
        assert!(
            reason.starts_with("the server does not speak 2026-07-28: server/discover got")
                || reason.starts_with("the rule is for Streamable HTTP"),
            "{reason}"
        );
    }
    assert!(report.conforms(), "{report}");
}

#[tokio::test]
async fn a_server_that_dies_fails_instead_of_being_skipped() {
    let report = Conformance::new(Server::program(CHAOS).arg("--exit-before-initialize"))
        .only(["classic-ping"])
        .run()
        .await
        .unwrap();
    let ping = report.result("classic-ping").unwrap();
    assert_eq!(ping.status, Status::Fail, "{report}");
    assert!(
        ping.reason
            .as_deref()
            .unwrap_or_default()
            .contains("exited with code 3"),
        "{report}"
    );
}

#[tokio::test]
async fn the_report_renders_as_a_table_as_json_and_as_a_failure_message() {
    let report = checks(Server::program(BROKEN).arg("--answer-ping"))
        .only([
            "sep-2575-removed-methods",
            "sep-2575-discover",
            "sep-2575-http-*",
        ])
        .label("fixture-broken --answer-ping")
        .run()
        .await
        .unwrap();
    let table = report.table();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[0],
        "MCP conformance of server fixture-broken --answer-ping over stdio (speaks 2024-11-05, \
         2025-03-26, 2025-06-18, 2025-11-25 and 2026-07-28): 3 checks, 1 passed, 1 failed, \
         0 warnings, 1 skipped"
    );
    assert_eq!(lines[1], "(> sent by mcptest, < what came back)");
    assert!(
        lines[2].starts_with("PASS  MUST    sep-2575-discover "),
        "{table}"
    );
    // The HTTP rule cannot apply over stdio: folded into one line at the end.
    assert!(
        table.contains(
            "\nSKIP  1 check: the rule is for Streamable HTTP; this server is reached over stdio\n"
        ),
        "{table}"
    );
    let removed = table
        .lines()
        .position(|l| l.starts_with("FAIL  MUST    sep-2575-removed-methods"))
        .expect("a failed row");
    assert_eq!(
        lines[removed + 1],
        "      ping got a result, not error -32601"
    );
    // The evidence: each request exactly as sent, and what came back.
    let ping = lines
        .iter()
        .position(|l| l.contains(r#""method":"ping","params":{"_meta":{"#))
        .expect("the ping request is shown");
    assert!(lines[ping].starts_with(r#"      > {"id":"#), "{table}");
    assert!(
        lines[ping + 1].starts_with(r#"      < {"id":"#)
            && lines[ping + 1].ends_with(r#","jsonrpc":"2.0","result":{}}"#),
        "{table}"
    );

    let json = report.to_json();
    assert_eq!(
        json["counts"],
        json!({"passed": 1, "failed": 1, "warned": 0, "skipped": 1})
    );
    let removed = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["check"]["id"] == "sep-2575-removed-methods")
        .unwrap();
    assert_eq!(removed["status"], "fail");
    assert_eq!(removed["check"]["level"], "MUST");
    assert_eq!(removed["check"]["revision"], "2026-07-28");
    assert_eq!(removed["evidence"].as_array().unwrap().len(), 5);
    assert_eq!(removed["evidence"][1]["response"]["kind"], "messages");

    let message = report.check_conforms().unwrap_err();
    assert!(
        message.starts_with(
            "fixture-broken --answer-ping breaks 1 MUST rule of the MCP spec over stdio"
        ),
        "{message}"
    );
    assert!(
        message.contains("FAIL sep-2575-removed-methods (2026-07-28 SEP-2575: removed RPCs)"),
        "{message}"
    );
    assert!(
        message.contains("  why:  ping got a result, not error -32601"),
        "{message}"
    );
    let panic = std::panic::catch_unwind(|| report.assert_conforms()).unwrap_err();
    let text = panic.downcast_ref::<String>().unwrap();
    assert_eq!(text, &message);
}

#[tokio::test]
async fn filters_that_match_nothing_and_servers_that_cannot_start_are_errors() {
    let err = Conformance::new(Server::program(STATELESS))
        .only(["classic-pnig"])
        .run()
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("no conformance check matches \"classic-pnig\""),
        "{err}"
    );
    let err = Conformance::new(Server::command("mcptest-no-such-program --stdio"))
        .run()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Spawn { .. }), "{err:?}");
}

#[tokio::test]
async fn checks_that_need_a_named_tool_are_skipped_without_one() {
    let report = Conformance::new(Server::program(STATELESS))
        .only([
            "sep-2575-missing-client-capability",
            "sep-2575-no-log-without-level",
        ])
        .run()
        .await
        .unwrap();
    assert_eq!(report.counts().skipped, 2, "{report}");
    assert!(
        report
            .result("sep-2575-missing-client-capability")
            .and_then(|r| r.reason.as_deref())
            .unwrap()
            .contains("Conformance::capability_tool"),
        "{report}"
    );
}

/// The README's one-liner on a server built on the workspace's rmcp with
/// its defaults, which speaks 2025-11-25 and 2026-07-28 at once: a
/// dual-era server, whose `initialize` with 2026-07-28 `_meta` selects
/// legacy semantics (see `sep-2575-removed-methods`).
#[tokio::test]
async fn the_readme_one_liner_passes_on_a_default_rmcp_server_over_stdio() {
    let report = Conformance::new(Server::program(RMCP)).run().await.unwrap();
    assert_eq!(
        report.revisions,
        [
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
            "2026-07-28"
        ],
        "{report}"
    );
    let removed = report.result("sep-2575-removed-methods").unwrap();
    assert_eq!(removed.status, Status::Pass, "{report}");
    assert!(
        removed
            .reason
            .as_deref()
            .unwrap_or_default()
            .contains("initialize was answered with legacy semantics"),
        "{report}"
    );
    report.assert_conforms();
}

#[tokio::test]
async fn the_readme_one_liner_passes_on_a_default_rmcp_server_over_http() {
    let fixture = HttpFixture::start(RMCP, &["--http"]);
    let report = Conformance::new(Server::url(&fixture.url))
        .run()
        .await
        .unwrap();
    assert_eq!(
        report.status("sep-2575-removed-methods"),
        Some(Status::Pass),
        "{report}"
    );
    report.assert_conforms();
}

/// A classic-only server: the 2026-07-28 checks cannot apply, nor the HTTP
/// rules over stdio; each reason is one line with its count, and the
/// summary line says what the server speaks.
#[tokio::test]
async fn checks_that_cannot_apply_fold_into_one_line_per_reason() {
    let report = Conformance::new(Server::program(CHAOS))
        .run()
        .await
        .unwrap();
    assert_eq!(report.revisions, ["2025-11-25"], "{report}");
    let table = report.table();
    let first = table.lines().next().unwrap();
    assert!(
        first.contains(" over stdio (speaks 2025-11-25): "),
        "{table}"
    );
    let folded: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("SKIP") && l.contains(" checks: "))
        .collect();
    assert_eq!(folded.len(), 3, "{table}");
    assert!(
        folded.iter().any(|l| l.contains(
            "checks: the rule is for the legacy HTTP+SSE transport; this server is reached over stdio"
        )),
        "{table}"
    );
    assert!(
        folded.iter().any(
            |l| l.contains("checks: the server does not speak 2026-07-28: server/discover got")
        ),
        "{table}"
    );
    assert!(
        folded
            .iter()
            .any(|l| l.contains("checks: the rule is for Streamable HTTP")),
        "{table}"
    );
    assert!(!table.contains("sep-2575-discover"), "{table}");
    // Every row is still in the full table and in the reports.
    let full = report.full_table();
    assert!(full.contains("SKIP  MUST    sep-2575-discover "), "{full}");
    assert_eq!(report.to_report().results.len(), report.results.len());
    let counted: usize = folded
        .iter()
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .unwrap()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    let cannot_apply = report
        .results
        .iter()
        .filter(|r| r.cannot_apply.is_some())
        .count();
    assert_eq!(counted, cannot_apply, "{table}");
}

#[tokio::test]
async fn a_notification_flood_before_an_answer_is_kept_as_evidence_within_its_bound() {
    use mcptest::conformance::{EVIDENCE_KEPT, RawResponse};
    let flood = EVIDENCE_KEPT + 4_000;
    let server =
        Server::program(CHAOS).args(["--notification-flood".to_owned(), flood.to_string()]);
    let report = Conformance::new(server)
        .only(["classic-unknown-tool-rejected"])
        .run()
        .await
        .unwrap();
    let result = report
        .results
        .iter()
        .find(|r| r.rule.id == "classic-unknown-tool-rejected")
        .unwrap();
    assert_eq!(result.status, Status::Pass, "{report}");
    let (kept, dropped) = result
        .evidence
        .iter()
        .find_map(|e| match &e.response {
            RawResponse::Messages { messages, dropped } if *dropped > 0 => {
                Some((messages.len(), *dropped))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no exchange counted what it dropped: {report}"));
    // The first EVIDENCE_KEPT notifications and the answer are kept; the
    // rest are counted.
    assert_eq!(kept, EVIDENCE_KEPT + 1);
    assert_eq!(kept + dropped, flood + 1);
    assert!(
        report
            .to_json()
            .to_string()
            .contains(&format!("\"dropped\":{dropped}")),
        "the JSON report says how many were dropped"
    );
}
