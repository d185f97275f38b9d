//! Client conformance checks (SEP-2575, SEP-2322, SEP-2106, SEP-2243, SEP-1613): rmcp's own client (in-process, with
//! `ClientLifecycleMode::Discover`) and `fixture-client` (a command line)
//! pass every check; each `fixture-client` flag fails the check it breaks.

use std::time::Duration;

use mcptest::{
    conformance::{
        Applies, ClientConformance, ConformanceReport, Level, MockLink, Role, Transport, catalogue,
    },
    report::Status,
    rmcp::{
        ClientHandler, ErrorData, RoleClient,
        model::{
            CallToolRequest, CallToolRequestParams, ClientCapabilities, ClientConfig,
            ClientRequest, ElicitRequestParams, ElicitResult, ElicitationAction,
            GetPromptRequestParams, Implementation, ProtocolVersion, ReadResourceRequestParams,
        },
        service::{
            ClientLifecycleMode, PeerRequestOptions, RequestContext, serve_client_with_lifecycle,
        },
        transport::{IntoTransport, StreamableHttpClientTransport},
    },
};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const CLIENT: &str = env!("CARGO_BIN_EXE_fixture-client");

/// A client that declares elicitation and accepts every form.
#[derive(Clone)]
struct Accepts;

impl ClientHandler for Accepts {
    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(json!({ "elicitation": { "form": {} } })).unwrap();
        ClientConfig::new(
            capabilities,
            Implementation::new("rmcp-under-test", "1.0.0"),
        )
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({ "name": "rmcp" })))
    }
}

/// rmcp's client, preferring a version from the future so that the mock's
/// -32022 and the retry happen, then: tools, echo, forecast twice, (stdio)
/// slow + cancel, ask, confirm.
async fn rmcp_session<T, E, A>(transport: T, over_stdio: bool)
where
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let future: ProtocolVersion = serde_json::from_value(json!("2099-12-31")).unwrap();
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![future, ProtocolVersion::V_2026_07_28],
    };
    let client = serve_client_with_lifecycle(Accepts, transport, lifecycle)
        .await
        .expect("rmcp discovers the mock");
    let tools = client.list_tools(None).await.expect("tools/list");
    // The schema of `contact` as rmcp holds it, passed back.
    let contact = tools
        .tools
        .iter()
        .find(|t| t.name == "contact")
        .expect("the mock lists contact");
    let echo = CallToolRequestParams::new("schema_echo").with_arguments(
        json!({ "tool": "contact", "schema": *contact.input_schema })
            .as_object()
            .cloned()
            .unwrap(),
    );
    client.call_tool(echo).await.expect("schema_echo");
    let echo = CallToolRequestParams::new("echo")
        .with_arguments(json!({ "text": "hi" }).as_object().cloned().unwrap());
    client.call_tool(echo).await.expect("echo");
    // Arguments marked x-mcp-header: one needs Base64; then only the
    // required one, so that the others must have no header.
    let forecast = CallToolRequestParams::new("forecast").with_arguments(
        json!({
            "region": "eu-west 1", "days": 3, "metric": false, "label": " Zürich",
            "comment": "for the weekend",
        })
        .as_object()
        .cloned()
        .unwrap(),
    );
    client.call_tool(forecast).await.expect("forecast");
    let forecast = CallToolRequestParams::new("forecast").with_arguments(
        json!({ "region": "us-east1" })
            .as_object()
            .cloned()
            .unwrap(),
    );
    client
        .call_tool(forecast)
        .await
        .expect("forecast, region only");
    if over_stdio {
        let slow = ClientRequest::CallToolRequest(CallToolRequest::new(
            CallToolRequestParams::new("slow"),
        ));
        let handle = client
            .send_request_with_option(slow, PeerRequestOptions::no_options())
            .await
            .expect("slow sent");
        tokio::time::sleep(Duration::from_millis(100)).await;
        handle
            .cancel(Some("the test gave up".into()))
            .await
            .expect("cancelled");
    }
    // The prompt and the resource: Mcp-Name over HTTP.
    client.list_prompts(None).await.expect("prompts/list");
    client
        .get_prompt(GetPromptRequestParams::new("greeting"))
        .await
        .expect("prompts/get");
    client.list_resources(None).await.expect("resources/list");
    client
        .read_resource(ReadResourceRequestParams::new("mcptest://mock/note"))
        .await
        .expect("resources/read");
    // A result without resultType is complete.
    let untyped = client
        .call_tool(CallToolRequestParams::new("untyped"))
        .await
        .expect("untyped");
    assert_eq!(untyped.is_error, Some(false), "{untyped:?}");
    let asked = client
        .call_tool(CallToolRequestParams::new("ask"))
        .await
        .expect("ask");
    assert_eq!(asked.is_error, Some(false), "{asked:?}");
    let confirmed = client
        .call_tool(CallToolRequestParams::new("confirm"))
        .await
        .expect("confirm");
    assert_eq!(confirmed.is_error, Some(false), "{confirmed:?}");
    if !over_stdio {
        // rmcp leaves out the tools whose x-mcp-header annotations are
        // invalid; call every `tag_*` tool it kept.
        let tags: Vec<_> = tools
            .tools
            .iter()
            .filter(|t| t.name.starts_with("tag_"))
            .collect();
        assert_eq!(tags.len(), 1, "{tags:?}");
        for tag in tags {
            let call = CallToolRequestParams::new(tag.name.clone())
                .with_arguments(json!({ "label": "x" }).as_object().cloned().unwrap());
            client.call_tool(call).await.expect("a tag tool");
        }
    }
    let _ = client.cancel().await;
}

fn expected(report: &ConformanceReport, id: &str) -> Status {
    let check = report.result(id).unwrap().rule;
    let other_transport = match report.transport {
        Transport::Stdio => Applies::Http,
        Transport::Http => Applies::Stdio,
        Transport::Sse => unreachable!("no client is checked over HTTP+SSE"),
    };
    // The authorization checks need a protected recording server
    // (`ClientConformance::authorization`); these runs have none.
    if check.applies == other_transport || check.id.starts_with("mcp-client-auth-") {
        Status::Skip
    } else {
        Status::Pass
    }
}

fn assert_all_pass(report: &ConformanceReport) {
    let client_checks = catalogue()
        .iter()
        .filter(|c| c.role == Role::Client)
        .count();
    assert_eq!(report.results.len(), client_checks);
    let wrong: Vec<String> = report
        .results
        .iter()
        .filter(|r| r.status != expected(report, r.rule.id))
        .map(|r| format!("{}: {}", r.rule.id, r.status))
        .collect();
    assert!(wrong.is_empty(), "{wrong:?}\n{report}");
    report.assert_conforms();
}

#[tokio::test]
async fn rmcp_passes_every_client_check_over_stdio() {
    let report = ClientConformance::stdio()
        .label("rmcp client")
        .run_in_process(|link| async move {
            let MockLink::Stdio(pipe) = link else {
                panic!("a stdio link")
            };
            rmcp_session(pipe, true).await;
        })
        .await
        .unwrap();
    assert_all_pass(&report);
}

#[tokio::test]
async fn rmcp_passes_every_client_check_over_http() {
    let report = ClientConformance::http()
        .run_in_process(|link| async move {
            let MockLink::Http { url } = link else {
                panic!("an HTTP link")
            };
            rmcp_session(StreamableHttpClientTransport::from_uri(url), false).await;
        })
        .await
        .unwrap();
    assert_all_pass(&report);
    // Mcp-Name on tools/call, prompts/get and resources/read; Mcp-Param on
    // `forecast`'s marked arguments, one of them in Base64.
    for id in [
        "sep-2243-client-includes-standard-headers",
        "sep-2243-client-base64-unsafe",
    ] {
        assert_eq!(report.result(id).unwrap().reason, None, "{report}");
    }
}

#[tokio::test]
async fn a_command_line_client_passes_over_stdio() {
    let report = ClientConformance::stdio()
        .run_command(&format!("{CLIENT} --start-unsupported"))
        .await
        .unwrap();
    assert_all_pass(&report);
    assert!(
        report
            .target
            .ends_with("fixture-client --start-unsupported")
    );
}

#[tokio::test]
async fn a_command_line_client_passes_over_http() {
    let report = ClientConformance::http()
        .run_command(&format!("{CLIENT} --url {{{{url}}}} --start-unsupported"))
        .await
        .unwrap();
    assert_all_pass(&report);
    // Mcp-Name was judged on tools/call, prompts/get and resources/read.
    let headers = report
        .result("sep-2243-client-includes-standard-headers")
        .unwrap();
    assert_eq!(headers.reason, None, "{report}");
    // Each verdict names the official suite's checks for the same rule.
    let official = |id: &str| report.result(id).unwrap().official;
    assert_eq!(
        official("sep-2243-client-mirrors-designated-params"),
        [
            "sep-2243-client-supports-custom-headers",
            "sep-2243-client-mirrors-designated-params"
        ]
    );
    assert_eq!(
        official("sep-2575-client-request-meta"),
        ["sep-2575-client-populates-meta"]
    );
}

/// Runs `fixture-client` with `flags` and expects `id` to be broken.
async fn expect_broken(flags: &str, id: &str, transport: Transport) {
    let conformance = match transport {
        Transport::Stdio => ClientConformance::stdio(),
        Transport::Http => ClientConformance::http(),
        Transport::Sse => unreachable!("no client is checked over HTTP+SSE"),
    };
    let command = match transport {
        Transport::Stdio => format!("{CLIENT} {flags}"),
        Transport::Http => format!("{CLIENT} --url {{{{url}}}} {flags}"),
        Transport::Sse => unreachable!("no client is checked over HTTP+SSE"),
    };
    let report = conformance.only([id]).run_command(&command).await.unwrap();
    let result = report.result(id).unwrap();
    let expected = match result.rule.level {
        Level::Must => Status::Fail,
        Level::Should => Status::Warn,
    };
    assert_eq!(
        result.status, expected,
        "{flags} should break {id}\n{report}"
    );
    assert!(!result.evidence.is_empty(), "{report}");
}

#[tokio::test]
async fn omitting_capabilities_breaks_request_meta() {
    expect_broken(
        "--omit-capabilities",
        "sep-2575-client-request-meta",
        Transport::Stdio,
    )
    .await;
    expect_broken(
        "--omit-capabilities",
        "sep-2575-client-request-meta",
        Transport::Http,
    )
    .await;
}

#[tokio::test]
async fn omitting_client_info_is_a_warning() {
    expect_broken(
        "--omit-client-info",
        "sep-2575-client-info",
        Transport::Stdio,
    )
    .await;
    expect_broken(
        "--omit-client-info",
        "sep-2575-client-info",
        Transport::Http,
    )
    .await;
}

#[tokio::test]
async fn switching_versions_breaks_consistency() {
    expect_broken(
        "--switch-version",
        "sep-2575-client-consistent-version",
        Transport::Stdio,
    )
    .await;
    expect_broken(
        "--switch-version",
        "sep-2575-client-consistent-version",
        Transport::Http,
    )
    .await;
}

#[tokio::test]
async fn giving_up_after_unsupported_version_breaks_the_retry() {
    let flags = "--start-unsupported --no-retry";
    expect_broken(flags, "sep-2575-client-version-retry", Transport::Stdio).await;
    expect_broken(flags, "sep-2575-client-version-retry", Transport::Http).await;
}

#[tokio::test]
async fn a_header_that_differs_from_meta_is_caught() {
    expect_broken(
        "--header-mismatch",
        "sep-2575-client-http-version-header",
        Transport::Http,
    )
    .await;
}

#[tokio::test]
async fn abandoning_a_call_without_cancelling_it_is_caught() {
    expect_broken(
        "--no-cancel",
        "sep-2575-client-stdio-cancellation",
        Transport::Stdio,
    )
    .await;
}

#[tokio::test]
async fn declaring_elicitation_without_answering_it_is_caught() {
    let id = "sep-2575-client-honest-capabilities";
    expect_broken("--ignore-input-requests", id, Transport::Stdio).await;
    expect_broken("--ignore-input-requests", id, Transport::Http).await;
}

#[tokio::test]
async fn checks_without_their_situation_are_skipped_with_the_reason() {
    // A client that only discovers: nothing to cancel, no input asked for.
    let report = ClientConformance::stdio()
        .run_in_process(|link| async move {
            let MockLink::Stdio(pipe) = link else { panic!("a stdio link") };
            let (read, mut write) = tokio::io::split(pipe);
            let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {},
            }}});
            write.write_all(format!("{discover}\n").as_bytes()).await.unwrap();
            let mut lines = BufReader::new(read).lines();
            let answer = lines.next_line().await.unwrap().unwrap();
            assert!(answer.contains("supportedVersions"), "{answer}");
        })
        .await
        .unwrap();
    let reason = |id: &str| {
        report
            .result(id)
            .unwrap()
            .reason
            .clone()
            .unwrap_or_default()
    };
    assert_eq!(
        report.status("sep-2575-client-request-meta"),
        Some(Status::Pass),
        "{report}"
    );
    assert_eq!(
        report.status("sep-2575-client-version-retry"),
        Some(Status::Skip)
    );
    assert!(reason("sep-2575-client-version-retry").contains("never answered -32022"));
    assert_eq!(
        report.status("sep-2575-client-stdio-cancellation"),
        Some(Status::Skip)
    );
    assert!(
        reason("sep-2575-client-stdio-cancellation")
            .contains("never called the mock's `slow` tool")
    );
    assert!(
        reason("sep-2575-client-honest-capabilities")
            .contains("never called the mock's `ask` tool")
    );
    // The 2026-07-28 client checks: no round trip, no listing, no call.
    for id in [
        "sep-2322-client-request-state-echoed",
        "sep-2322-client-jsonrpc-id-different",
        "sep-2322-client-no-state-omitted",
        "sep-2322-client-parallel-isolation",
    ] {
        assert_eq!(report.status(id), Some(Status::Skip), "{report}");
        assert!(
            reason(id).contains("was answered input_required"),
            "{id}: {}",
            reason(id)
        );
    }
    assert_eq!(
        report.status("sep-2106-no-network-ref-deref"),
        Some(Status::Skip)
    );
    assert!(reason("sep-2106-no-network-ref-deref").contains("never listed the mock's tools"));
    assert!(reason("mcp-client-tool-call-arguments").contains("called no tool"));
    assert_eq!(
        report.status("sep-2575-client-capabilities-are-objects"),
        Some(Status::Skip)
    );
    assert!(
        reason("sep-2322-default-result-type-complete").contains("without resultType"),
        "{report}"
    );
    for id in [
        "sep-1613-client-schema-preserved",
        "sep-2106-client-schema-vocabulary-preserved",
    ] {
        assert!(
            reason(id).contains("never passed a tool's inputSchema back"),
            "{id}"
        );
    }
    assert!(
        reason("sep-2575-client-capabilities-are-objects").contains("declared a client capability")
    );
    assert!(reason("sep-2243-client-includes-standard-headers").contains("Streamable HTTP"));
}

#[tokio::test]
async fn changing_the_request_state_is_caught() {
    let id = "sep-2322-client-request-state-echoed";
    expect_broken("--alter-state", id, Transport::Stdio).await;
    expect_broken("--alter-state", id, Transport::Http).await;
}

#[tokio::test]
async fn a_retry_with_the_first_calls_id_is_caught() {
    let id = "sep-2322-client-jsonrpc-id-different";
    expect_broken("--reuse-id", id, Transport::Stdio).await;
    expect_broken("--reuse-id", id, Transport::Http).await;
}

#[tokio::test]
async fn an_invented_request_state_is_caught() {
    let id = "sep-2322-client-no-state-omitted";
    expect_broken("--invent-state", id, Transport::Stdio).await;
    expect_broken("--invent-state", id, Transport::Http).await;
}

#[tokio::test]
async fn input_sent_on_an_unrelated_request_is_caught() {
    let id = "sep-2322-client-parallel-isolation";
    expect_broken("--leak-input", id, Transport::Stdio).await;
    expect_broken("--leak-input", id, Transport::Http).await;
}

#[tokio::test]
async fn fetching_a_network_ref_is_caught() {
    let id = "sep-2106-no-network-ref-deref";
    expect_broken("--fetch-refs", id, Transport::Stdio).await;
    expect_broken("--fetch-refs", id, Transport::Http).await;
}

#[tokio::test]
async fn missing_or_wrong_standard_headers_are_caught() {
    let id = "sep-2243-client-includes-standard-headers";
    expect_broken("--no-method-header", id, Transport::Http).await;
    expect_broken("--wrong-name-header", id, Transport::Http).await;
}

#[tokio::test]
async fn arguments_against_the_input_schema_are_a_warning() {
    let id = "mcp-client-tool-call-arguments";
    expect_broken("--bad-arguments", id, Transport::Stdio).await;
    expect_broken("--bad-arguments", id, Transport::Http).await;
}

#[tokio::test]
async fn a_client_that_sends_nothing_fails() {
    let report = ClientConformance::stdio()
        .run_in_process(|_link| async {})
        .await
        .unwrap();
    let result = report.result("sep-2575-client-request-meta").unwrap();
    assert_eq!(result.status, Status::Fail, "{report}");
    assert_eq!(
        result.reason.as_deref(),
        Some("the client sent no request to the mock server")
    );
}

#[tokio::test]
async fn an_http_command_needs_the_url_placeholder() {
    let err = ClientConformance::http()
        .run_command(CLIENT)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("has no {{url}} argument"), "{err}");
}

#[tokio::test]
async fn a_listed_client_failure_is_expected_and_a_listed_pass_fails_the_run() {
    let id = "sep-2575-client-request-meta";
    let report = ClientConformance::stdio()
        .only([id, "sep-2575-client-info"])
        .expected_failures([id])
        .run_command(&format!("{CLIENT} --omit-capabilities"))
        .await
        .unwrap();
    let result = report.result(id).unwrap();
    assert!(result.expected_failure, "{report}");
    assert_eq!(result.status, Status::Warn, "{report}");
    assert!(report.conforms(), "{report}");

    // The same list against a client that is fixed: the entry is stale.
    let report = ClientConformance::stdio()
        .only([id])
        .expected_failures([id])
        .run_command(CLIENT)
        .await
        .unwrap();
    let result = report.result(id).unwrap();
    assert_eq!(result.status, Status::Fail, "{report}");
    assert!(
        result
            .reason
            .as_deref()
            .unwrap_or_default()
            .contains("remove it from the list"),
        "{report}"
    );
    assert!(!report.conforms());
}

#[tokio::test]
async fn an_expected_client_failure_that_is_no_check_is_an_error() {
    let err = ClientConformance::stdio()
        .expected_failures(["sep-2575-client-request-mta"])
        .run_command(CLIENT)
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("\"sep-2575-client-request-mta\" is not a conformance check id"),
        "{err}"
    );
}

#[tokio::test]
async fn param_headers_left_out_or_added_are_caught() {
    let id = "sep-2243-client-mirrors-designated-params";
    expect_broken("--no-param-headers", id, Transport::Http).await;
    expect_broken("--mirror-unmarked", id, Transport::Http).await;
}

#[tokio::test]
async fn a_boolean_param_header_written_as_a_number_is_caught() {
    expect_broken(
        "--bool-as-number",
        "sep-2243-client-encode-values",
        Transport::Http,
    )
    .await;
}

#[tokio::test]
async fn an_unsafe_param_value_sent_without_base64_is_caught() {
    expect_broken(
        "--plain-unsafe-values",
        "sep-2243-client-base64-unsafe",
        Transport::Http,
    )
    .await;
}

#[tokio::test]
async fn a_param_header_for_a_left_out_argument_is_caught() {
    expect_broken(
        "--header-for-absent",
        "sep-2243-client-omit-null",
        Transport::Http,
    )
    .await;
}

#[tokio::test]
async fn a_post_without_the_version_header_is_caught() {
    expect_broken(
        "--no-version-header",
        "sep-2575-client-http-sends-version-header",
        Transport::Http,
    )
    .await;
}

#[tokio::test]
async fn a_capability_that_is_no_object_is_caught() {
    let id = "sep-2575-client-capabilities-are-objects";
    expect_broken("--capability-true", id, Transport::Stdio).await;
    expect_broken("--capability-true", id, Transport::Http).await;
}

#[tokio::test]
async fn param_header_checks_without_a_marked_call_are_skipped() {
    // Over HTTP, a client that only discovers calls no tool.
    let report = ClientConformance::http()
        .only(["sep-2243-client-*"])
        .run_in_process(|link| async move {
            let MockLink::Http { url } = link else {
                panic!("an HTTP link")
            };
            let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
            "params": {"_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            }}});
            let answer = reqwest::Client::new()
                .post(url)
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "server/discover")
                .header("Content-Type", "application/json")
                .body(discover.to_string())
                .send()
                .await
                .unwrap();
            assert_eq!(answer.status(), 200);
        })
        .await
        .unwrap();
    for id in [
        "sep-2243-client-mirrors-designated-params",
        "sep-2243-client-encode-values",
        "sep-2243-client-base64-unsafe",
        "sep-2243-client-omit-null",
    ] {
        let result = report.result(id).unwrap();
        assert_eq!(result.status, Status::Skip, "{report}");
        assert!(
            result
                .reason
                .as_deref()
                .unwrap_or_default()
                .contains("x-mcp-header (the mock's `forecast`)"),
            "{id}: {report}"
        );
    }
    assert_eq!(
        report.status("sep-2243-client-includes-standard-headers"),
        Some(Status::Pass),
        "{report}"
    );
}

#[tokio::test]
async fn a_schema_that_lost_2020_12_keywords_is_caught() {
    let id = "sep-1613-client-schema-preserved";
    expect_broken("--strip-schema-core", id, Transport::Stdio).await;
    expect_broken("--strip-schema-core", id, Transport::Http).await;
    let id = "sep-2106-client-schema-vocabulary-preserved";
    expect_broken("--strip-schema-vocabulary", id, Transport::Stdio).await;
    expect_broken("--strip-schema-vocabulary", id, Transport::Http).await;
}

#[tokio::test]
async fn each_schema_check_sees_only_its_own_keywords() {
    let report = ClientConformance::stdio()
        .only(["sep-1613-client-schema-preserved"])
        .run_command(&format!("{CLIENT} --strip-schema-vocabulary"))
        .await
        .unwrap();
    assert_eq!(
        report.status("sep-1613-client-schema-preserved"),
        Some(Status::Pass),
        "{report}"
    );
}

/// The mock answers as 2026-07-28 requires, so that it never fails a client
/// that insists on it: `resultType` on every result (but `untyped`'s, which
/// tests that a client takes its absence as complete), `ttlMs` and
/// `cacheScope` on `server/discover` and `tools/list`.
#[tokio::test]
async fn the_mock_answers_with_the_result_fields_of_2026_07_28() {
    use mcptest::conformance::RawResponse;

    for transport in [Transport::Stdio, Transport::Http] {
        let (conformance, command) = match transport {
            Transport::Stdio => (ClientConformance::stdio(), CLIENT.to_owned()),
            Transport::Http => (
                ClientConformance::http(),
                format!("{CLIENT} --url {{{{url}}}}"),
            ),
            Transport::Sse => unreachable!("no client is checked over HTTP+SSE"),
        };
        let report = conformance
            .only(["sep-2575-client-request-meta"])
            .run_command(&command)
            .await
            .unwrap();
        let result = report.result("sep-2575-client-request-meta").unwrap();
        assert_eq!(result.status, Status::Pass, "{report}");
        let mut judged = 0;
        for exchange in &result.evidence {
            let request: serde_json::Value = serde_json::from_str(&exchange.request.body).unwrap();
            let messages = match &exchange.response {
                RawResponse::Messages { messages, .. } => messages,
                RawResponse::Http { messages, .. } => messages,
                other => panic!("no answer to {request}: {other:?}"),
            };
            // The cancelled `slow` call has no answer.
            let Some(answer) = messages
                .iter()
                .find(|m| m.get("id") == request.get("id") && m.get("method").is_none())
            else {
                assert_eq!(request["params"]["name"], "slow", "no answer to {request}");
                continue;
            };
            let Some(result) = answer.get("result") else {
                continue;
            };
            // `untyped` leaves resultType out on purpose.
            if request["params"]["name"] == "untyped" {
                assert!(result.get("resultType").is_none(), "{answer}");
                continue;
            }
            judged += 1;
            assert!(result["resultType"].is_string(), "{request}\n{answer}");
            if ["server/discover", "tools/list"].contains(&request["method"].as_str().unwrap()) {
                assert!(result["ttlMs"].is_u64(), "{answer}");
                assert!(result["cacheScope"].is_string(), "{answer}");
            }
        }
        assert!(judged >= 5, "{report}");
    }
}

#[tokio::test]
async fn calling_a_tool_with_invalid_header_annotations_is_caught() {
    expect_broken(
        "--keep-invalid-header-tools",
        "sep-2243-client-rejects-invalid-header-tools",
        Transport::Http,
    )
    .await;
    // Kept, they are called with their own (invalid) annotations; the
    // checks of valid ones judge only the tools with valid annotations.
    let report = ClientConformance::http()
        .only(["sep-2243-client-mirrors-designated-params"])
        .run_command(&format!(
            "{CLIENT} --url {{{{url}}}} --keep-invalid-header-tools"
        ))
        .await
        .unwrap();
    assert_eq!(
        report.status("sep-2243-client-mirrors-designated-params"),
        Some(Status::Pass),
        "{report}"
    );
}

#[tokio::test]
async fn retrying_a_result_without_result_type_is_caught() {
    let id = "sep-2322-default-result-type-complete";
    expect_broken("--retry-untyped", id, Transport::Stdio).await;
    expect_broken("--retry-untyped", id, Transport::Http).await;
}

#[tokio::test]
async fn a_client_that_never_ends_is_stopped_at_the_session_limit() {
    // `sleep` speaks no MCP and never exits by itself: without the limit the
    // run would wait for it for ten minutes; the guard fails the test first.
    let run = ClientConformance::stdio()
        .session_limit(Duration::from_millis(300))
        .only(["sep-2575-client-request-meta"])
        .run_command("sleep 600");
    let report = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the session limit ends the session")
        .expect("a report");
    assert_ne!(
        report.status("sep-2575-client-request-meta"),
        Some(Status::Pass),
        "a client that sent nothing cannot pass: {report}"
    );
}
