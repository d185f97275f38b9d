//! The tasks extension checks (SEP-2663): each passes against
//! `fixture-stateless`, which declares the extension, and fails against the
//! `fixture-broken` flag made for it, over stdio and over Streamable HTTP;
//! a server without the extension gets them skipped with the reason.

use mcptest::{
    Server,
    conformance::{Conformance, Transport},
    report::Status,
};
use mcptest_tests::{
    http::HttpFixture,
    stateless::{FAILING_TASK_TOOL, INPUT_TASK_TOOL, TASK_TOOL},
};
use serde_json::json;

use super::conformance_features::Plain;
use super::conformance_server::{checks, expect_broken};

const STATELESS: &str = env!("CARGO_BIN_EXE_fixture-stateless");

/// Each `fixture-broken` flag of these checks, the checks it must fail, and
/// whether it applies over stdio (all apply over HTTP).
pub(super) const CASES: &[(&str, &[&str], bool)] = &[
    (
        "--tasks-v1-capability",
        &["sep-2663-extension-declared"],
        true,
    ),
    (
        "--nested-task-result",
        &["sep-2663-create-task-result"],
        true,
    ),
    ("--legacy-task-fields", &["sep-2663-wire-fields"], true),
    ("--tasks-get-late", &["sep-2663-tasks-get"], true),
    (
        "--task-result-not-inlined",
        &["sep-2663-task-completes"],
        true,
    ),
    ("--cancel-ack-carries-task", &["sep-2663-cancel"], true),
    (
        "--unknown-task-internal-error",
        &["sep-2663-unknown-task"],
        true,
    ),
    (
        "--answer-removed-task-methods",
        &["sep-2663-removed-methods"],
        true,
    ),
    (
        "--tasks-ignore-client-capabilities",
        &[
            "sep-2663-methods-need-extension",
            "sep-2663-no-task-without-extension",
        ],
        true,
    ),
    (
        "--required-task-runs-sync",
        &["sep-2663-required-task-error"],
        true,
    ),
    (
        "--task-input-without-requests",
        &["sep-2663-task-input-required"],
        true,
    ),
    (
        "--tasks-ignore-name-header",
        &["sep-2663-routing-headers"],
        false,
    ),
    (
        "--tool-error-fails-task",
        &["sep-2663-tool-error-completed"],
        true,
    ),
    (
        "--legacy-task-param-opts-in",
        &["sep-2663-no-task-without-extension"],
        true,
    ),
];

broken! {
    tasks_v1_capability: "--tasks-v1-capability";
    nested_task_result: "--nested-task-result";
    legacy_task_fields: "--legacy-task-fields";
    tasks_get_late: "--tasks-get-late";
    task_result_not_inlined: "--task-result-not-inlined";
    cancel_ack_carries_task: "--cancel-ack-carries-task";
    unknown_task_internal_error: "--unknown-task-internal-error";
    answer_removed_task_methods: "--answer-removed-task-methods";
    tasks_ignore_client_capabilities: "--tasks-ignore-client-capabilities";
    required_task_runs_sync: "--required-task-runs-sync";
    task_input_without_requests: "--task-input-without-requests";
    tool_error_fails_task: "--tool-error-fails-task";
    legacy_task_param_opts_in: "--legacy-task-param-opts-in";
}

#[tokio::test]
async fn tasks_ignore_name_header_over_http() {
    expect_broken("--tasks-ignore-name-header", Transport::Http).await;
}

#[tokio::test]
async fn the_task_checks_pass_against_the_conforming_fixture_over_stdio() {
    // No task tool named: it is found from the descriptions.
    let report = Conformance::new(Server::program(STATELESS))
        .only(["sep-2663-*"])
        .run()
        .await
        .unwrap();
    let ids: std::collections::BTreeSet<&str> =
        CASES.iter().flat_map(|c| c.1.iter().copied()).collect();
    assert_eq!(report.results.len(), ids.len(), "{report}");
    // Every check passes but the one about HTTP headers.
    assert_eq!(report.counts().passed, ids.len() - 1, "{report}");
    let headers = report.result("sep-2663-routing-headers").unwrap();
    assert_eq!(headers.status, Status::Skip, "{report}");
    // The lifecycle is in the evidence: created, polled, completed.
    let completes = report.result("sep-2663-task-completes").unwrap();
    let reason = completes.reason.as_deref().unwrap_or_default();
    assert!(
        reason.starts_with(&format!("the task tool {TASK_TOOL:?} created went "))
            && reason.ends_with("completed"),
        "{report}"
    );
    let sent: Vec<&str> = completes
        .evidence
        .iter()
        .map(|e| e.request.body.as_str())
        .collect();
    assert!(sent[0].contains(r#""method":"tools/call""#), "{sent:?}");
    assert!(sent[1].contains(r#""method":"tasks/get""#), "{sent:?}");
    // The cancelled task settles as cancelled.
    let reason = |id: &str| {
        report
            .result(id)
            .unwrap()
            .reason
            .clone()
            .unwrap_or_default()
    };
    assert_eq!(
        reason("sep-2663-cancel"),
        "the cancelled task ended \"cancelled\""
    );
    // The subjects of the input and tool-error checks are found by what
    // their descriptions say.
    assert!(
        reason("sep-2663-task-input-required").starts_with(&format!(
            "the task tool {INPUT_TASK_TOOL:?} created asked for input 1 time, resumed"
        )),
        "{report}"
    );
    assert_eq!(
        reason("sep-2663-tool-error-completed"),
        format!("the task tool {FAILING_TASK_TOOL:?} created completed with a tool error")
    );
}

#[tokio::test]
async fn the_task_checks_pass_against_the_conforming_fixture_over_http() {
    let fixture = HttpFixture::start(STATELESS, &["--http"]);
    let report = checks(Server::url(&fixture.url))
        .only(["sep-2663-*"])
        .task_tool(TASK_TOOL, json!({}))
        .run()
        .await
        .unwrap();
    assert_eq!(report.counts().passed, report.results.len(), "{report}");
    assert_eq!(report.results.len(), 14, "{report}");
}

#[tokio::test]
async fn a_named_task_tool_that_makes_no_task_fails_the_task_checks() {
    let report = Conformance::new(Server::program(STATELESS))
        .only(["sep-2663-create-task-result", "sep-2663-task-completes"])
        .task_tool("echo", json!({ "message": "hi" }))
        .run()
        .await
        .unwrap();
    for result in &report.results {
        assert_eq!(result.status, Status::Fail, "{report}");
        let reason = result.reason.as_deref().unwrap_or_default();
        assert!(
            reason.starts_with("the task tool (Conformance::task_tool)")
                && reason.contains("tool \"echo\" got a result"),
            "{reason}"
        );
    }
}

#[tokio::test]
async fn a_server_without_the_extension_gets_every_task_check_skipped_with_the_reason() {
    let report = Conformance::new(Server::in_process(Plain))
        .only(["sep-2663-*"])
        .run()
        .await
        .unwrap();
    assert_eq!(report.results.len(), 14, "{report}");
    for result in &report.results {
        assert_eq!(result.status, Status::Skip, "{report}");
        let reason = result.reason.as_deref().unwrap_or_default();
        if result.rule.applies == mcptest::conformance::Applies::Http {
            continue; // skipped over stdio before the declaration is read
        }
        assert!(
            reason.contains(
                "does not declare the tasks extension \
                 (capabilities.extensions[\"io.modelcontextprotocol/tasks\"])"
            ),
            "{reason}"
        );
    }
}
