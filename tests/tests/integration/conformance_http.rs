//! The HTTP transport checks (and the tool-listing checks that come with
//! them): each passes against `fixture-stateless` (see
//! `conformance_server`) and fails against the `fixture-broken` flag made
//! for it, over every transport it applies to; the official suite's check
//! ids and the expected-failures list show in the report.

use mcptest::{
    Server,
    conformance::{Transport, official_ids},
    report::Status,
};
use mcptest_tests::http::HttpFixture;

const STATELESS: &str = env!("CARGO_BIN_EXE_fixture-stateless");
const BROKEN: &str = env!("CARGO_BIN_EXE_fixture-broken");

/// Each `fixture-broken` flag of the HTTP block, the checks it must fail,
/// and whether it applies over stdio (all apply over HTTP).
pub(crate) const HTTP_CASES: &[(&str, &[&str], bool)] = &[
    ("--ignore-method-header", &["sep-2243-method-header"], false),
    ("--ignore-name-header", &["sep-2243-name-header"], false),
    (
        "--ignore-param-headers",
        &["sep-2243-custom-headers"],
        false,
    ),
    ("--accept-any-host", &["classic-http-dns-rebinding"], false),
    (
        "--keep-ended-sessions",
        &["classic-http-session-terminated"],
        false,
    ),
    (
        "--session-id-with-space",
        &["classic-http-session-id-visible-ascii"],
        false,
    ),
    (
        "--one-stream-at-a-time",
        &["classic-http-multiple-streams"],
        false,
    ),
    (
        "--shuffle-tools",
        &[
            "classic-tools-list-order",
            "mcp-tools-list-deterministic-order",
        ],
        true,
    ),
    (
        "--draft-04-output-schema",
        &["classic-tool-schemas-2020-12"],
        true,
    ),
];

use super::conformance_server::{checks, expect_broken};

broken! {
    ignore_method_header: "--ignore-method-header", http_only;
    ignore_name_header: "--ignore-name-header", http_only;
    ignore_param_headers: "--ignore-param-headers", http_only;
    accept_any_host: "--accept-any-host", http_only;
    keep_ended_sessions: "--keep-ended-sessions", http_only;
    session_id_with_space: "--session-id-with-space", http_only;
    one_stream_at_a_time: "--one-stream-at-a-time", http_only;
    shuffle_tools: "--shuffle-tools";
    draft_04_output_schema: "--draft-04-output-schema";
}

#[tokio::test]
async fn the_http_checks_pass_against_the_conforming_fixture_and_say_why_when_skipped() {
    let fixture = HttpFixture::start(STATELESS, &["--http"]);
    let ids: Vec<&str> = HTTP_CASES
        .iter()
        .flat_map(|(_, ids, _)| ids.iter().copied())
        .collect();
    let report = checks(Server::url(&fixture.url))
        .only(ids.iter().copied())
        .run()
        .await
        .unwrap();
    assert_eq!(report.counts().passed, ids.len(), "{report}");
    // Over stdio the HTTP rules are skipped with the reason; the listing
    // rules still run.
    let report = checks(Server::program(STATELESS))
        .only(ids.iter().copied())
        .run()
        .await
        .unwrap();
    let dns = report.result("classic-http-dns-rebinding").unwrap();
    assert_eq!(dns.status, Status::Skip, "{report}");
    assert_eq!(
        dns.reason.as_deref(),
        Some("the rule is for Streamable HTTP; this server is reached over stdio")
    );
    assert_eq!(
        report.status("classic-tool-schemas-2020-12"),
        Some(Status::Pass),
        "{report}"
    );
}

#[tokio::test]
async fn a_listed_failure_is_expected_and_a_listed_pass_fails_the_run() {
    let report = checks(Server::program(BROKEN).arg("--draft-04-output-schema"))
        .only(["classic-tool-schemas-2020-12", "classic-ping"])
        .expected_failures(["classic-tool-schemas-2020-12"])
        .run()
        .await
        .unwrap();
    let schemas = report.result("classic-tool-schemas-2020-12").unwrap();
    assert!(schemas.expected_failure, "{report}");
    assert_eq!(schemas.status, Status::Warn);
    assert!(
        schemas
            .reason
            .as_deref()
            .unwrap()
            .starts_with("expected failure (listed): tool \"add\": outputSchema"),
        "{report}"
    );
    assert!(
        report
            .table()
            .contains("XFAIL  MUST    classic-tool-schemas-2020-12")
    );
    report.assert_conforms();
    assert_eq!(
        report
            .to_report()
            .result("classic-ping")
            .unwrap()
            .property_value("official"),
        Some("ping")
    );

    let report = checks(Server::program(STATELESS))
        .only(["classic-ping"])
        .expected_failures(["classic-ping"])
        .run()
        .await
        .unwrap();
    assert_eq!(report.status("classic-ping"), Some(Status::Fail));
    assert!(!report.conforms());
    let message = report.check_conforms().unwrap_err();
    assert!(
        message.contains(
            "classic-ping is listed as an expected failure and now passes: remove it from the list"
        ),
        "{message}"
    );

    let err = checks(Server::program(STATELESS))
        .expected_failures(["classic-pong"])
        .run()
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("\"classic-pong\" is not a conformance check id"),
        "{err}"
    );
}

#[test]
fn the_official_ids_map_our_http_checks() {
    assert_eq!(
        official_ids("classic-http-session-id-visible-ascii"),
        ["server-session-id-visible-ascii"]
    );
    assert!(official_ids("classic-tools-list-order").is_empty());
}
