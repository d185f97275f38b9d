//! The 2026-07-28 feature checks (input-required results, `resultType`,
//! caching hints, unknown resources): each passes against
//! `fixture-stateless` and fails against the `fixture-broken` flag made for
//! it, over stdio and over Streamable HTTP.

use mcptest::{Server, conformance::Conformance, report::Status};
use mcptest_tests::http::HttpFixture;
use serde_json::json;

use super::conformance_server::{checks, expect_broken};

const STATELESS: &str = env!("CARGO_BIN_EXE_fixture-stateless");

/// Each `fixture-broken` flag of these checks, the checks it must fail, and
/// whether it applies over stdio (all apply over HTTP).
pub(super) const CASES: &[(&str, &[&str], bool)] = &[
    ("--omit-result-type", &["sep-2322-result-type"], true),
    (
        "--input-required-on-list",
        &["sep-2322-not-on-unsupported-requests"],
        true,
    ),
    ("--empty-input-requests", &["sep-2322-input-required"], true),
    (
        "--ignore-input-responses",
        &["sep-2322-input-round-trip"],
        true,
    ),
    (
        "--accept-missing-responses",
        &["sep-2322-missing-response-rerequests"],
        true,
    ),
    (
        "--accept-invalid-responses",
        &["sep-2322-validate-input-responses"],
        true,
    ),
    (
        "--accept-tampered-state",
        &["sep-2322-reject-tampered-state"],
        true,
    ),
    (
        "--input-ignores-capabilities",
        &["sep-2322-respect-client-capabilities"],
        true,
    ),
    ("--omit-caching-hints", &["sep-2549-caching-hints"], true),
    ("--bad-caching-hints", &["sep-2549-caching-types"], true),
    (
        "--stateless-unknown-resource-empty",
        &[
            "sep-2164-no-empty-contents",
            "sep-2164-error-code",
            "sep-2164-data-uri",
        ],
        true,
    ),
    ("--resource-not-found-32002", &["sep-2164-error-code"], true),
    (
        "--resource-not-found-without-uri",
        &["sep-2164-data-uri"],
        true,
    ),
    (
        "--listen-without-ack",
        &["sep-2575-listen-acknowledged"],
        true,
    ),
    (
        "--listen-untagged",
        &["sep-2575-listen-subscription-id"],
        true,
    ),
    ("--listen-ignores-filter", &["sep-2575-listen-filter"], true),
    (
        "--listen-no-list-changed",
        &["sep-2575-listen-list-changed"],
        true,
    ),
    (
        "--listen-sends-requests",
        &["sep-2575-listen-no-requests"],
        true,
    ),
    ("--bad-media-content", &["sep-2575-content-types"], true),
    ("--progress-wrong-token", &["sep-2575-progress"], true),
    ("--log-ignores-level", &["sep-2575-log-with-level"], true),
    ("--bad-completions", &["mcp-completion-values"], true),
    (
        "--non-tool-ignores-input-responses",
        &["sep-2322-non-tool-round-trip"],
        true,
    ),
    (
        "--listen-no-prompts-list-changed",
        &["sep-2575-listen-prompts-list-changed"],
        true,
    ),
    (
        "--listen-resource-updated-untagged",
        &["sep-2575-listen-resource-updated"],
        true,
    ),
    (
        "--skills-capability-not-object",
        &["sep-2640-capability"],
        true,
    ),
    ("--skills-list-missing", &["sep-2640-skills-list"], true),
    ("--skill-bad-digest", &["sep-2640-skill-entries"], true),
    ("--skills-get-other-entry", &["sep-2640-skills-get"], true),
    (
        "--skills-get-unknown-succeeds",
        &["sep-2640-skills-get-unknown-uri"],
        true,
    ),
    (
        "--skill-md-frontmatter-differs",
        &["sep-2640-skill-md"],
        true,
    ),
];

const FEATURES: &[&str] = &[
    "sep-2322-*",
    "sep-2549-*",
    "sep-2164-*",
    "sep-2575-listen-*",
    "sep-2575-content-types",
    "sep-2575-progress",
    "sep-2575-log-with-level",
    "mcp-completion-values",
    "sep-2640-*",
];

use mcptest::conformance::Transport;

broken! {
    omit_result_type: "--omit-result-type";
    input_required_on_list: "--input-required-on-list";
    empty_input_requests: "--empty-input-requests";
    ignore_input_responses: "--ignore-input-responses";
    accept_missing_responses: "--accept-missing-responses";
    accept_invalid_responses: "--accept-invalid-responses";
    accept_tampered_state: "--accept-tampered-state";
    input_ignores_capabilities: "--input-ignores-capabilities";
    omit_caching_hints: "--omit-caching-hints";
    bad_caching_hints: "--bad-caching-hints";
    stateless_unknown_resource_empty: "--stateless-unknown-resource-empty";
    resource_not_found_32002: "--resource-not-found-32002";
    resource_not_found_without_uri: "--resource-not-found-without-uri";
    listen_without_ack: "--listen-without-ack";
    listen_untagged: "--listen-untagged";
    listen_ignores_filter: "--listen-ignores-filter";
    listen_no_list_changed: "--listen-no-list-changed";
    listen_sends_requests: "--listen-sends-requests";
    bad_media_content: "--bad-media-content";
    progress_wrong_token: "--progress-wrong-token";
    log_ignores_level: "--log-ignores-level";
    bad_completions: "--bad-completions";
    non_tool_ignores_input_responses: "--non-tool-ignores-input-responses";
    listen_no_prompts_list_changed: "--listen-no-prompts-list-changed";
    listen_resource_updated_untagged: "--listen-resource-updated-untagged";
    skills_capability_not_object: "--skills-capability-not-object";
    skills_list_missing: "--skills-list-missing";
    skill_bad_digest: "--skill-bad-digest";
    skills_get_other_entry: "--skills-get-other-entry";
    skills_get_unknown_succeeds: "--skills-get-unknown-succeeds";
    skill_md_frontmatter_differs: "--skill-md-frontmatter-differs";
}

#[tokio::test]
async fn the_input_tool_is_found_from_descriptions_when_none_is_named() {
    // No capability tool, no input tool: `confirm` is found because its
    // description mentions the elicitation it needs.
    let report = Conformance::new(Server::program(STATELESS))
        .only(FEATURES.iter().copied())
        .run()
        .await
        .unwrap();
    assert_eq!(report.counts().passed, report.results.len(), "{report}");
    let round_trip = report.result("sep-2322-input-round-trip").unwrap();
    assert_eq!(
        round_trip.reason.as_deref(),
        Some("tool \"confirm\" completed after 1 retry"),
        "{report}"
    );
    // The evidence shows the tool being found, asked and answered.
    let sent: Vec<&str> = round_trip
        .evidence
        .iter()
        .map(|e| e.request.body.as_str())
        .collect();
    assert!(sent[0].contains(r#""name":"confirm""#), "{sent:?}");
    assert!(
        sent[1].contains(r#""inputResponses":{"confirm":{"action":"accept""#),
        "{sent:?}"
    );
    assert!(
        sent[1].contains(r#""requestState":"confirm:round-1."#),
        "{sent:?}"
    );
}

#[tokio::test]
async fn a_named_input_tool_that_asks_for_nothing_fails_the_input_checks() {
    let fixture = HttpFixture::start(STATELESS, &["--http"]);
    let report = Conformance::new(Server::url(&fixture.url))
        .only(["sep-2322-input-required", "sep-2322-input-round-trip"])
        .input_tool("echo", json!({ "message": "hi" }))
        .run()
        .await
        .unwrap();
    for id in ["sep-2322-input-required", "sep-2322-input-round-trip"] {
        let result = report.result(id).unwrap();
        assert_eq!(result.status, Status::Fail, "{report}");
        let reason = result.reason.as_deref().unwrap_or_default();
        assert!(
            reason.starts_with("the input tool \"echo\" (Conformance::input_tool)")
                && reason.contains("not a result with resultType \"input_required\""),
            "{reason}"
        );
    }
}

#[tokio::test]
async fn the_feature_checks_pass_against_the_conforming_fixture_over_http() {
    let fixture = HttpFixture::start(STATELESS, &["--http"]);
    let report = checks(Server::url(&fixture.url))
        .only(FEATURES.iter().copied())
        .run()
        .await
        .unwrap();
    assert_eq!(report.counts().passed, report.results.len(), "{report}");
    let ids: std::collections::BTreeSet<&str> =
        CASES.iter().flat_map(|c| c.1.iter().copied()).collect();
    assert_eq!(report.results.len(), ids.len(), "{report}");
}

/// A 2026-07-28 server with tools but none that asks for input, reports
/// progress, returns media or changes a list, and no tasks extension.
#[derive(Clone)]
pub(super) struct Plain;

impl mcptest::rmcp::ServerHandler for Plain {
    fn get_info(&self) -> mcptest::rmcp::model::ServerConfig {
        let capabilities = mcptest::rmcp::model::ServerCapabilities::builder()
            .enable_tools()
            .build();
        mcptest::rmcp::model::ServerConfig::new(capabilities)
    }
}

#[tokio::test]
async fn checks_without_a_subject_are_skipped_with_the_reason_never_passed() {
    let report = Conformance::new(Server::in_process(Plain))
        .only([
            "sep-2322-input-*",
            "sep-2322-reject-tampered-state",
            "sep-2575-listen-*",
            "sep-2575-content-types",
            "sep-2575-progress",
            "sep-2575-log-with-level",
            "mcp-completion-values",
            "sep-2322-non-tool-round-trip",
        ])
        .run()
        .await
        .unwrap();
    for result in &report.results {
        assert_eq!(result.status, Status::Skip, "{report}");
    }
    let reason = |id: &str| report.result(id).unwrap().reason.clone().unwrap();
    assert!(
        reason("sep-2322-input-round-trip")
            .starts_with("no tool or prompt that asks for input was found"),
        "{report}"
    );
    assert!(
        reason("sep-2575-listen-acknowledged").contains("declares no listChanged"),
        "{report}"
    );
    assert!(
        reason("sep-2575-progress").contains("Conformance::progress_tool"),
        "{report}"
    );
    assert!(
        reason("sep-2575-content-types").starts_with("no tool without required arguments"),
        "{report}"
    );
    assert_eq!(
        reason("mcp-completion-values"),
        "server/discover does not declare completions",
        "{report}"
    );
    assert!(
        reason("sep-2322-non-tool-round-trip").starts_with("no prompt without required arguments"),
        "{report}"
    );
}

#[tokio::test]
async fn a_prompt_and_a_resource_that_ask_for_input_are_found_and_completed() {
    let report = Conformance::new(Server::program(STATELESS))
        .only(["sep-2322-non-tool-round-trip"])
        .run()
        .await
        .unwrap();
    let result = report.result("sep-2322-non-tool-round-trip").unwrap();
    assert_eq!(result.status, Status::Pass, "{report}");
    assert_eq!(
        result.reason.as_deref(),
        Some(
            "completed prompt \"confirmed_greeting\" after 1 retry and resource \
             \"fixture://confirmed\" after 1 retry"
        ),
        "{report}"
    );
}

#[tokio::test]
async fn completions_are_asked_of_a_listed_prompt_argument_and_template_variable() {
    let report = Conformance::new(Server::program(STATELESS))
        .only(["mcp-completion-values"])
        .run()
        .await
        .unwrap();
    let result = report.result("mcp-completion-values").unwrap();
    assert_eq!(result.status, Status::Pass, "{report}");
    assert_eq!(
        result.reason.as_deref(),
        Some(
            "completed the argument \"name\" of prompt \"greet\" and the variable \"id\" \
             of resource template \"fixture://items/{id}\""
        ),
        "{report}"
    );
    assert_eq!(result.evidence.len(), 2, "{report}");
}

/// A 2026-07-28 server that declares completions, prompt list changes and
/// resource subscriptions but lists nothing to complete, ask about or
/// subscribe to, and has no tools to make a change.
#[derive(Clone)]
struct Empty;

impl mcptest::rmcp::ServerHandler for Empty {
    fn get_info(&self) -> mcptest::rmcp::model::ServerConfig {
        let capabilities = mcptest::rmcp::model::ServerCapabilities::builder()
            .enable_prompts()
            .enable_prompts_list_changed()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_completions()
            .build();
        mcptest::rmcp::model::ServerConfig::new(capabilities)
    }
}

#[tokio::test]
async fn declared_features_with_nothing_listed_are_skipped_with_what_was_missing() {
    let report = Conformance::new(Server::in_process(Empty))
        .only([
            "mcp-completion-values",
            "sep-2322-non-tool-round-trip",
            "sep-2575-listen-prompts-list-changed",
            "sep-2575-listen-resource-updated",
        ])
        .run()
        .await
        .unwrap();
    for result in &report.results {
        assert_eq!(result.status, Status::Skip, "{report}");
    }
    let reason = |id: &str| report.result(id).unwrap().reason.clone().unwrap();
    assert!(
        reason("mcp-completion-values").starts_with("completions are declared, but no listed"),
        "{report}"
    );
    assert!(
        reason("sep-2322-non-tool-round-trip").starts_with("no prompt without required arguments"),
        "{report}"
    );
    assert!(
        reason("sep-2575-listen-prompts-list-changed")
            .starts_with("no tool that changes the prompt list was named"),
        "{report}"
    );
    assert!(
        reason("sep-2575-listen-resource-updated").contains("lists no resource to subscribe to"),
        "{report}"
    );
}

#[tokio::test]
async fn named_change_tools_that_change_nothing_are_reported() {
    let report = Conformance::new(Server::program(STATELESS))
        .only([
            "sep-2575-listen-prompts-list-changed",
            "sep-2575-listen-resource-updated",
        ])
        .prompt_change_tool("echo", json!({ "message": "no change" }))
        .resource_update_tool("fail", json!({}))
        .quiet_period(std::time::Duration::from_millis(300))
        .run()
        .await
        .unwrap();
    for result in &report.results {
        assert_eq!(result.status, Status::Warn, "{report}");
    }
    let reason = |id: &str| report.result(id).unwrap().reason.clone().unwrap();
    assert!(
        reason("sep-2575-listen-prompts-list-changed")
            .starts_with("the prompt list was changed but no notifications/prompts/list_changed"),
        "{report}"
    );
    assert!(
        reason("sep-2575-listen-resource-updated")
            .starts_with("the resources were updated but no notifications/resources/updated"),
        "{report}"
    );
}
