//! Every check, by stable id: the rule, where the spec states it, its level,
//! and how it runs — a server check on the probe, a client check on the
//! transcript of what the client sent. The one place that names every
//! check; the runners go through it.

#[cfg(feature = "http-mock")]
use crate::client_checks::authorization as client_auth;
use crate::client_checks::{http_transport as client_http, input_required as client_input};
use crate::client_checks::{stateless as client_stateless, tools as client_tools};
use crate::model::{Applies, Checked, Exchange, Level, Observed, Role, Rule};
use crate::server_checks::facts::Facts;
use crate::server_checks::{
    adaptive, authorization, classic, features, http_transport, input_required, listen,
    schema_valid, skills, sse_transport, stateless, tasks, tools,
};
use crate::support::probe::Probe;
use crate::support::revision::{CLASSIC, EVERY, LEGACY_SSE, STATELESS};
use crate::support::transcript::Transcript;

/// Declares every check once: its rule, and how it runs. A server check
/// has `run: |p, f| ...`, an expression of the [`Probe`] `p` and the
/// [`Facts`] `f` that yields [`Checked`], run after the gate of the rule's
/// revision has let it through; a client check has `judge: |t| ...`, an
/// expression of the [`Transcript`] `t` that yields the finding and its
/// evidence.
macro_rules! catalogue {
    (@run $probe:ident, $facts:ident, |$p:ident, $f:ident| $run:expr) => {{
        // A check uses the probe, the facts, or both.
        #[allow(unused_variables)]
        let $p: &mut Probe = $probe;
        #[allow(unused_variables)]
        let $f: &Facts = $facts;
        $run
    }};
    (@run $probe:ident, $facts:ident) => {{
        let _ = ($probe, $facts);
        Err(Observed::NotApplicable(
            "a client check: the recording server judges it".into(),
        ))
    }};
    (@judge $transcript:ident, |$t:ident| $judge:expr) => {{
        let $t: &Transcript = $transcript;
        $judge
    }};
    (@judge $transcript:ident) => {{
        let _ = $transcript;
        (
            Observed::NotApplicable("a server check: the probe runs it".into()),
            Vec::new(),
        )
    }};
    ($(
        $variant:ident {
            id: $id:literal,
            rule: $rule:literal,
            revision: $revision:expr,
            section: $section:literal,
            level: $level:ident,
            role: $role:ident,
            applies: $applies:ident,
            $(run: |$p:ident, $f:ident| $run:expr,)?
            $(judge: |$t:ident| $judge:expr,)?
        }
    ),* $(,)?) => {
        /// A check's identity inside the crate; the order is the report's order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub(crate) enum CheckId {
            $($variant),*
        }

        impl CheckId {
            pub(crate) const ALL: &'static [CheckId] = &[$(CheckId::$variant),*];

            pub(crate) fn check(self) -> &'static Rule {
                &CATALOGUE[self as usize]
            }

            /// Runs a server check: the gate of its revision, then the check.
            pub(crate) async fn run(self, p: &mut Probe, f: &Facts) -> Observed {
                // The authorization rules are judged on requests sent
                // without a valid token, before any handshake.
                let gated = match self.check().revision {
                    _ if self.check().section.starts_with("basic/authorization") => Ok(()),
                    CLASSIC => f.classic().map(|_| ()),
                    EVERY | LEGACY_SSE => Ok(()),
                    _ => f.stateless().map(|_| ()),
                };
                if let Err(finding) = gated {
                    return finding;
                }
                match self.dispatch(p, f).await {
                    Ok(finding) | Err(finding) => finding,
                }
            }

            async fn dispatch(self, p: &mut Probe, f: &Facts) -> Checked {
                match self {
                    $(CheckId::$variant => catalogue!(@run p, f $(, |$p, $f| $run)?),)*
                }
            }

            /// Judges a client check on what the client sent.
            pub(crate) fn judge(self, t: &Transcript) -> (Observed, Vec<Exchange>) {
                match self {
                    $(CheckId::$variant => catalogue!(@judge t $(, |$t| $judge)?),)*
                }
            }
        }

        pub(crate) static CATALOGUE: &[Rule] = &[$(
            Rule {
                id: $id,
                rule: $rule,
                revision: $revision,
                section: $section,
                level: Level::$level,
                role: Role::$role,
                applies: Applies::$applies,
            }
        ),*];
    };
}

/// Judges an authorization check; without the `http-mock` feature there
/// is no protected recording server, so nothing to judge.
macro_rules! auth_judge {
    ($t:ident, $check:ident) => {{
        #[cfg(feature = "http-mock")]
        {
            client_auth::$check($t)
        }
        #[cfg(not(feature = "http-mock"))]
        {
            let _ = $t;
            (
                Observed::CannotApply(
                    crate::model::CannotApply::Transport,
                    "the rule is for Streamable HTTP, which needs the `http-mock` feature".into(),
                ),
                Vec::new(),
            )
        }
    }};
}

catalogue! {
    // ---- classic server checks (2025-11-25) ----
    ClassicInitializeResult {
        id: "classic-initialize-result",
        rule: "initialize is answered with protocolVersion, capabilities and serverInfo {name, version}",
        revision: CLASSIC, section: "basic/lifecycle#initialization",
        level: Must, role: Server, applies: Any,
        run: |p, f| classic::initialize_result(p).await,
    },
    ClassicVersionNegotiation {
        id: "classic-version-negotiation",
        rule: "an unsupported protocolVersion in initialize gets a counter-offer of a supported version, not an error",
        revision: CLASSIC, section: "basic/lifecycle#version-negotiation",
        level: Must, role: Server, applies: Any,
        run: |p, f| classic::version_negotiation(p).await,
    },
    ClassicRequestBeforeInitialize {
        id: "classic-request-before-initialize",
        rule: "a request sent before initialize is answered with its id, and initialize still works afterwards",
        revision: CLASSIC, section: "basic/lifecycle#initialization",
        level: Must, role: Server, applies: Any,
        run: |p, f| classic::request_before_initialize(p).await,
    },
    ClassicPing {
        id: "classic-ping",
        rule: "ping is answered with an empty result",
        revision: CLASSIC, section: "basic/utilities/ping#behavior-requirements",
        level: Must, role: Server, applies: Any,
        run: |p, f| classic::ping(p).await,
    },
    ClassicToolNames {
        id: "classic-tool-names",
        rule: "tool names are unique and use 1 to 128 of the characters A-Z a-z 0-9 _ - .",
        revision: CLASSIC, section: "server/tools#tool-names",
        level: Should, role: Server, applies: Any,
        run: |p, f| classic::tool_names(p, f.classic()?).await,
    },
    ClassicToolInputSchemas {
        id: "classic-tool-input-schemas",
        rule: "every tool's inputSchema is a valid JSON Schema with type \"object\"",
        revision: CLASSIC, section: "server/tools#tool",
        level: Must, role: Server, applies: Any,
        run: |p, f| classic::tool_input_schemas(p, f.classic()?).await,
    },
    ClassicDeclaredCapabilitiesAnswer {
        id: "classic-declared-capabilities-answer",
        rule: "the methods of every declared capability answer (not -32601)",
        revision: CLASSIC, section: "basic/lifecycle#capability-negotiation",
        level: Must, role: Server, applies: Any,
        run: |p, f| classic::declared_capabilities_answer(p, f.classic()?).await,
    },
    ClassicUndeclaredCapabilitiesRejected {
        id: "classic-undeclared-capabilities-rejected",
        rule: "the methods of undeclared capabilities are answered with -32601",
        revision: CLASSIC, section: "basic/lifecycle#capability-negotiation",
        level: Should, role: Server, applies: Any,
        run: |p, f| classic::undeclared_capabilities_rejected(p, f.classic()?).await,
    },
    ClassicUnknownToolRejected {
        id: "classic-unknown-tool-rejected",
        rule: "calling an unknown tool does not succeed: a JSON-RPC error or a result with isError: true",
        revision: CLASSIC, section: "server/tools#error-handling",
        level: Must, role: Server, applies: Any,
        run: |p, f| classic::unknown_tool_rejected(p, f.classic()?).await,
    },
    ClassicUnknownToolProtocolError {
        id: "classic-unknown-tool-protocol-error",
        rule: "calling an unknown tool is answered with JSON-RPC error -32602",
        revision: CLASSIC, section: "server/tools#error-handling",
        level: Should, role: Server, applies: Any,
        run: |p, f| classic::unknown_tool_protocol_error(p, f.classic()?).await,
    },
    ClassicUnknownResource {
        id: "classic-unknown-resource",
        rule: "reading an unknown resource is answered with a JSON-RPC error",
        revision: CLASSIC, section: "server/resources#error-handling",
        level: Must, role: Server, applies: Any,
        run: |p, f| classic::unknown_resource(p, f.classic()?).await,
    },
    ClassicMissingPromptArgument {
        id: "classic-missing-prompt-argument",
        rule: "prompts/get without a required argument is answered with a JSON-RPC error",
        revision: CLASSIC, section: "server/prompts#error-handling",
        level: Must, role: Server, applies: Any,
        run: |p, f| classic::missing_prompt_argument(p, f.classic()?).await,
    },
    ClassicToolInputErrorIsToolResult {
        id: "classic-tool-input-error-is-tool-result",
        rule: "a tool called without its required arguments reports a result with isError: true, not a JSON-RPC error",
        revision: CLASSIC, section: "server/tools#error-handling",
        level: Should, role: Server, applies: Any,
        run: |p, f| classic::tool_input_error_is_tool_result(p, f.classic()?).await,
    },
    ClassicErrorId {
        id: "classic-error-id",
        rule: "every error response carries the id of the request it answers",
        revision: CLASSIC, section: "basic#responses",
        level: Must, role: Server, applies: Any,
        run: |p, f| classic::error_id(p).await,
    },
    ClassicInvalidJson {
        id: "classic-invalid-json",
        rule: "a message that is not JSON is answered with -32700 (over HTTP: status 400)",
        revision: CLASSIC, section: "basic (JSON-RPC 2.0 section 5.1)",
        level: Should, role: Server, applies: Any,
        run: |p, f| classic::invalid_json(p).await,
    },
    ClassicInvalidRequest {
        id: "classic-invalid-request",
        rule: "JSON that is not a valid request is answered with -32600 (over HTTP: status 400)",
        revision: CLASSIC, section: "basic (JSON-RPC 2.0 section 5.1)",
        level: Should, role: Server, applies: Any,
        run: |p, f| classic::invalid_request(p).await,
    },
    ClassicPagination {
        id: "classic-pagination",
        rule: "nextCursor values round-trip: each page is answered and the cursors come to an end",
        revision: CLASSIC, section: "server/utilities/pagination",
        level: Must, role: Server, applies: Any,
        run: |p, f| classic::pagination(p, f.classic()?).await,
    },
    ClassicInvalidCursor {
        id: "classic-invalid-cursor",
        rule: "a cursor the server never issued is answered with -32602",
        revision: CLASSIC, section: "server/utilities/pagination#error-handling",
        level: Should, role: Server, applies: Any,
        run: |p, f| classic::invalid_cursor(p, f.classic()?).await,
    },

    // ---- SEP-2575 server checks (2026-07-28) ----
    StatelessDiscover {
        id: "sep-2575-discover",
        rule: "server/discover answers with non-empty supportedVersions, capabilities, and serverInfo {name, version} in _meta",
        revision: STATELESS, section: "SEP-2575: server/discover",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::discover(p).await,
    },
    StatelessMetaRequired {
        id: "sep-2575-meta-required",
        rule: "a request without _meta is rejected with -32602 (HTTP 400)",
        revision: STATELESS, section: "SEP-2575: per-request _meta",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::meta_required(p, f.stateless()?).await,
    },
    StatelessMetaProtocolVersionRequired {
        id: "sep-2575-meta-protocol-version-required",
        rule: "a request whose _meta lacks io.modelcontextprotocol/protocolVersion is rejected with -32602 (HTTP 400)",
        revision: STATELESS, section: "SEP-2575: per-request _meta",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::meta_protocol_version_required(p, f.stateless()?).await,
    },
    StatelessMetaClientCapabilitiesRequired {
        id: "sep-2575-meta-client-capabilities-required",
        rule: "a request whose _meta lacks io.modelcontextprotocol/clientCapabilities is rejected with -32602 (HTTP 400)",
        revision: STATELESS, section: "SEP-2575: per-request _meta",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::meta_client_capabilities_required(p, f.stateless()?).await,
    },
    StatelessMetaClientInfoOptional {
        id: "sep-2575-meta-client-info-optional",
        rule: "a request whose _meta lacks io.modelcontextprotocol/clientInfo (optional) is served",
        revision: STATELESS, section: "SEP-2575: per-request _meta",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::meta_client_info_optional(p, f.stateless()?).await,
    },
    StatelessUnsupportedVersion {
        id: "sep-2575-unsupported-version",
        rule: "an unsupported _meta protocolVersion is rejected with -32022 carrying data.supported and data.requested (HTTP 400)",
        revision: STATELESS, section: "SEP-2575: version negotiation",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::unsupported_version(p, f.stateless()?).await,
    },
    StatelessUnsupportedVersionNoDrift {
        id: "sep-2575-unsupported-version-no-drift",
        rule: "the data.supported of -32022 equals the supportedVersions server/discover advertises",
        revision: STATELESS, section: "SEP-2575: version negotiation",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::unsupported_version_no_drift(p, f.stateless()?).await,
    },
    StatelessSupportedVersionsAccepted {
        id: "sep-2575-supported-versions-accepted",
        rule: "every 2026-07-28-era version server/discover advertises is accepted on a real request",
        revision: STATELESS, section: "SEP-2575: version negotiation",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::supported_versions_accepted(p, f.stateless()?).await,
    },
    StatelessDiscoverUnsupportedVersion {
        id: "sep-2575-discover-unsupported-version",
        rule: "server/discover with an unsupported version is rejected with -32022 and still lists data.supported (HTTP 400)",
        revision: STATELESS, section: "SEP-2575: version negotiation",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::discover_unsupported_version(p).await,
    },
    StatelessHttpHeaderMismatch {
        id: "sep-2575-http-header-mismatch",
        rule: "an MCP-Protocol-Version header that is missing or differs from _meta is rejected with -32020 and HTTP 400",
        revision: STATELESS, section: "SEP-2575: HTTP transport",
        level: Must, role: Server, applies: Http,
        run: |p, f| stateless::http_header_mismatch(p, f.stateless()?).await,
    },
    StatelessMissingClientCapability {
        id: "sep-2575-missing-client-capability",
        rule: "a tool that needs an undeclared client capability is rejected with -32021 and data.requiredCapabilities (HTTP 400)",
        revision: STATELESS, section: "SEP-2575: errors",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::missing_client_capability(p).await,
    },
    StatelessRemovedMethods {
        id: "sep-2575-removed-methods",
        rule: "initialize, ping, logging/setLevel, resources/subscribe and resources/unsubscribe are answered with -32601 (HTTP 404)",
        revision: STATELESS, section: "SEP-2575: removed RPCs",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::removed_methods(p, f.stateless()?, f.speaks_classic()).await,
    },
    StatelessUnknownMethod {
        id: "sep-2575-unknown-method",
        rule: "an unknown method is answered with -32601 (HTTP 404)",
        revision: STATELESS, section: "SEP-2575: HTTP transport",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::unknown_method(p).await,
    },
    StatelessCapabilitiesHonored {
        id: "sep-2575-capabilities-honored",
        rule: "the capabilities server/discover declares match the methods that answer",
        revision: STATELESS, section: "SEP-2575: server/discover",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::capabilities_honored(p).await,
    },
    StatelessNoLogWithoutLevel {
        id: "sep-2575-no-log-without-level",
        rule: "no notifications/message is sent for a request without io.modelcontextprotocol/logLevel in _meta",
        revision: STATELESS, section: "SEP-2575: per-request _meta",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::no_log_without_level(p).await,
    },
    StatelessErrorId {
        id: "sep-2575-error-id",
        rule: "every error response carries the id of the request it answers",
        revision: STATELESS, section: "SEP-2575: errors",
        level: Must, role: Server, applies: Any,
        run: |p, f| stateless::error_id(p, f.stateless()?).await,
    },

    // ---- 2026-07-28 features (issue 14) ----
    // official: sep-2322-result-type-included (which looks at one input-required result only)
    FeatureResultType {
        id: "sep-2322-result-type",
        rule: "every result of the 2026-07-28 revision carries resultType, a string",
        revision: STATELESS, section: "SEP-2322: resultType (basic Result)",
        level: Must, role: Server, applies: Any,
        run: |p, f| input_required::result_type(p, f.stateless()?).await,
    },
    // official: sep-2322-not-on-unsupported-requests
    FeatureNotOnUnsupportedRequests {
        id: "sep-2322-not-on-unsupported-requests",
        rule: "server/discover and list results are never input_required (only tools/call, prompts/get and resources/read may ask for input)",
        revision: STATELESS, section: "SEP-2322: InputRequiredResult",
        level: Must, role: Server, applies: Any,
        run: |p, f| input_required::not_on_unsupported_requests(p, f.stateless()?).await,
    },
    // official: sep-2322-elicitation-incomplete, sep-2322-sampling-incomplete,
    // sep-2322-list-roots-incomplete, sep-2322-non-tool-incomplete
    FeatureInputRequired {
        id: "sep-2322-input-required",
        rule: "a request that needs input is answered with resultType input_required and a non-empty inputRequests map of elicitation/create, sampling/createMessage or roots/list requests",
        revision: STATELESS, section: "SEP-2322: InputRequiredResult",
        level: Must, role: Server, applies: Any,
        run: |p, f| input_required::input_required(p, f.stateless()?).await,
    },
    // official: sep-2322-elicitation-complete, sep-2322-sampling-complete,
    // sep-2322-list-roots-complete, sep-2322-request-state-complete,
    // sep-2322-multiple-inputs-complete, sep-2322-multi-round-r1..r3, sep-2322-non-tool-complete
    FeatureInputRoundTrip {
        id: "sep-2322-input-round-trip",
        rule: "retrying with inputResponses for every input request and requestState echoed completes the request",
        revision: STATELESS, section: "SEP-2322: retrying with inputResponses",
        level: Must, role: Server, applies: Any,
        run: |p, f| input_required::input_round_trip(p, f.stateless()?).await,
    },
    // official: sep-2322-missing-response-rerequests
    FeatureMissingResponseRerequests {
        id: "sep-2322-missing-response-rerequests",
        rule: "a retry whose inputResponses lack a requested key is answered with a new input_required result",
        revision: STATELESS, section: "SEP-2322: retrying with inputResponses",
        level: Should, role: Server, applies: Any,
        run: |p, f| input_required::missing_response_rerequests(p, f.stateless()?).await,
    },
    // official: sep-2322-validate-input-responses
    FeatureValidateInputResponses {
        id: "sep-2322-validate-input-responses",
        rule: "inputResponses that are not response objects are not accepted as a complete answer",
        revision: STATELESS, section: "SEP-2322: retrying with inputResponses",
        level: Should, role: Server, applies: Any,
        run: |p, f| input_required::validate_input_responses(p, f.stateless()?).await,
    },
    // official: sep-2322-reject-tampered-state
    FeatureRejectTamperedState {
        id: "sep-2322-reject-tampered-state",
        rule: "a retry with a requestState the server never issued is rejected with a JSON-RPC error",
        revision: STATELESS, section: "SEP-2322: requestState",
        level: Must, role: Server, applies: Any,
        run: |p, f| input_required::reject_tampered_state(p, f.stateless()?).await,
    },
    // official: sep-2322-respect-client-capabilities
    FeatureRespectClientCapabilities {
        id: "sep-2322-respect-client-capabilities",
        rule: "input requests only ask for what the request's clientCapabilities declare",
        revision: STATELESS, section: "SEP-2322: InputRequiredResult",
        level: Must, role: Server, applies: Any,
        run: |p, f| input_required::respect_client_capabilities(p, f.stateless()?).await,
    },
    // official: sep-2549-tools-list-caching-hints, sep-2549-prompts-list-caching-hints,
    // sep-2549-resources-list-caching-hints, sep-2549-resources-templates-list-caching-hints,
    // sep-2549-resources-read-caching-hints
    FeatureCachingHints {
        id: "sep-2549-caching-hints",
        rule: "tools/list, prompts/list, resources/list, resources/templates/list and resources/read results carry ttlMs and cacheScope",
        revision: STATELESS, section: "SEP-2549: caching",
        level: Must, role: Server, applies: Any,
        run: |p, f| features::caching_hints(p, f.stateless()?).await,
    },
    // official: sep-2549-ttl-non-negative, sep-2549-cache-scope-valid
    FeatureCachingTypes {
        id: "sep-2549-caching-types",
        rule: "ttlMs is a non-negative integer and cacheScope is \"public\" or \"private\"",
        revision: STATELESS, section: "SEP-2549: caching",
        level: Must, role: Server, applies: Any,
        run: |p, f| features::caching_types(p, f.stateless()?).await,
    },
    // official: sep-2164-no-empty-contents
    FeatureNotFoundNoEmptyContents {
        id: "sep-2164-no-empty-contents",
        rule: "reading an unknown resource is not answered with an empty contents array",
        revision: STATELESS, section: "SEP-2164: resources#error-handling",
        level: Must, role: Server, applies: Any,
        run: |p, f| features::not_found_no_empty_contents(p).await,
    },
    // official: sep-2164-error-code
    FeatureNotFoundErrorCode {
        id: "sep-2164-error-code",
        rule: "reading an unknown resource is answered with JSON-RPC error -32602",
        revision: STATELESS, section: "SEP-2164: resources#error-handling",
        level: Should, role: Server, applies: Any,
        run: |p, f| features::not_found_error_code(p).await,
    },
    // official: sep-2164-data-uri
    FeatureNotFoundDataUri {
        id: "sep-2164-data-uri",
        rule: "the error for an unknown resource names the requested URI in data.uri",
        revision: STATELESS, section: "SEP-2164: resources#error-handling",
        level: Should, role: Server, applies: Any,
        run: |p, f| features::not_found_data_uri(p).await,
    },
    // official: sep-2575-server-sends-subscription-ack
    FeatureListenAcknowledged {
        id: "sep-2575-listen-acknowledged",
        rule: "the first message on a subscriptions/listen stream is notifications/subscriptions/acknowledged",
        revision: STATELESS, section: "SEP-2575: subscriptions/listen",
        level: Must, role: Server, applies: Any,
        run: |p, f| listen::acknowledged(p, f.stateless()?).await,
    },
    // official: sep-2575-server-tags-subscription-id
    FeatureListenSubscriptionId {
        id: "sep-2575-listen-subscription-id",
        rule: "every notification on a listen stream carries _meta io.modelcontextprotocol/subscriptionId, the id of the listen request",
        revision: STATELESS, section: "SEP-2575: subscriptions/listen",
        level: Must, role: Server, applies: Any,
        run: |p, f| listen::subscription_id(p, f.stateless()?).await,
    },
    // official: sep-2575-server-honors-notification-filter
    FeatureListenFilter {
        id: "sep-2575-listen-filter",
        rule: "a listen stream carries only the notifications its filter asked for",
        revision: STATELESS, section: "SEP-2575: subscriptions/listen",
        level: Must, role: Server, applies: Any,
        run: |p, f| listen::filter(p, f.stateless()?).await,
    },
    // official: sep-2575-server-sends-tools-list-changed-on-subscription
    FeatureListenListChanged {
        id: "sep-2575-listen-list-changed",
        rule: "a server declaring tools.listChanged sends notifications/tools/list_changed on a listen stream with toolsListChanged when its tool list changes",
        revision: STATELESS, section: "SEP-2575: subscriptions/listen; server/tools#list-changed-notification",
        level: Should, role: Server, applies: Any,
        run: |p, f| listen::list_changed(p, f.stateless()?).await,
    },
    FeatureListenNoRequests {
        id: "sep-2575-listen-no-requests",
        rule: "the server sends no requests of its own on a listen stream",
        revision: STATELESS, section: "SEP-2575: subscriptions/listen",
        level: Must, role: Server, applies: Any,
        run: |p, f| listen::no_requests(p, f.stateless()?).await,
    },
    // official: tools-call-image, tools-call-audio, tools-call-embedded-resource,
    // tools-call-mixed-content
    FeatureContentTypes {
        id: "sep-2575-content-types",
        rule: "image and audio content carries base64 data and a matching mimeType; embedded resources a uri and text or base64 blob",
        revision: STATELESS, section: "server/tools#tool-result",
        level: Must, role: Server, applies: Any,
        run: |p, f| adaptive::content_types(p, f.stateless()?).await,
    },
    // official: tools-call-with-progress
    FeatureProgress {
        id: "sep-2575-progress",
        rule: "progress notifications name the request's progressToken and their progress increases",
        revision: STATELESS, section: "basic/utilities/progress",
        level: Must, role: Server, applies: Any,
        run: |p, f| adaptive::progress(p, f.stateless()?).await,
    },
    // official: tools-call-with-logging
    FeatureLogWithLevel {
        id: "sep-2575-log-with-level",
        rule: "a tool that logs sends notifications/message with a syslog level and data when the request's _meta asks for io.modelcontextprotocol/logLevel",
        revision: STATELESS, section: "SEP-2575: per-request _meta; server/utilities/logging",
        level: Should, role: Server, applies: Any,
        run: |p, f| adaptive::log_with_level(p, f.stateless()?).await,
    },
    // ---- issue 14d ----
    // official: completion-complete
    FeatureCompletion {
        id: "mcp-completion-values",
        rule: "when completions are declared, completion/complete on a listed prompt argument or resource template variable answers completion.values, at most 100 strings, with total a non-negative integer and hasMore a boolean when present",
        revision: STATELESS, section: "server/utilities/completion",
        level: Must, role: Server, applies: Any,
        run: |p, f| features::completion(p, f.stateless()?).await,
    },
    // official: sep-2322-non-tool-incomplete, sep-2322-non-tool-complete
    FeatureNonToolRoundTrip {
        id: "sep-2322-non-tool-round-trip",
        rule: "a prompts/get or resources/read that needs input answers input_required with inputRequests, and the retry answering them with requestState echoed completes with messages or non-empty contents",
        revision: STATELESS, section: "SEP-2322: InputRequiredResult (prompts/get, resources/read)",
        level: Must, role: Server, applies: Any,
        run: |p, f| input_required::non_tool_round_trip(p, f.stateless()?).await,
    },
    // official: sep-2575-server-sends-prompts-list-changed-on-subscription
    FeatureListenPromptsListChanged {
        id: "sep-2575-listen-prompts-list-changed",
        rule: "a server declaring prompts.listChanged sends notifications/prompts/list_changed on a listen stream with promptsListChanged when its prompt list changes",
        revision: STATELESS, section: "SEP-2575: subscriptions/listen; server/prompts#list-changed-notification",
        level: Should, role: Server, applies: Any,
        run: |p, f| listen::prompts_list_changed(p, f.stateless()?).await,
    },
    FeatureListenResourceUpdated {
        id: "sep-2575-listen-resource-updated",
        rule: "a server declaring resources.subscribe sends notifications/resources/updated for a URI in a listen stream's resourceSubscriptions when that resource changes, only for those URIs, tagged with the stream's subscriptionId",
        revision: STATELESS, section: "SEP-2575: subscriptions/listen; server/resources#subscriptions",
        level: Should, role: Server, applies: Any,
        run: |p, f| listen::resource_updated(p, f.stateless()?).await,
    },
    // ---- tasks extension (issue 14e) ----
    // official: tasks-extension-advertised
    TasksExtensionDeclared {
        id: "sep-2663-extension-declared",
        rule: "tasks are declared as the extension capabilities.extensions[\"io.modelcontextprotocol/tasks\"] (an object), never in the capabilities.tasks slot of the first tasks revision",
        revision: STATELESS, section: "SEP-2663: capability negotiation",
        level: Must, role: Server, applies: Any,
        run: |p, f| tasks::extension_declared(p).await,
    },
    // official: sep-2663-result-type-task-on-create, tasks-server-directed-creation-no-hint
    TasksCreateResult {
        id: "sep-2663-create-task-result",
        rule: "a tools/call answered with a task is a flat CreateTaskResult: resultType \"task\", a string taskId and a known status at the top level, no task wrapper, no result, error or inputRequests",
        revision: STATELESS, section: "SEP-2663: task creation",
        level: Must, role: Server, applies: Any,
        run: |p, f| tasks::create_result(p, tasks::gate(f.stateless()?)?).await,
    },
    // official: tasks-wire-field-renames, tasks-create-result-no-request-state,
    // tasks-get-detailed-no-request-state
    TasksWireFields {
        id: "sep-2663-wire-fields",
        rule: "a task carries ISO 8601 createdAt and lastUpdatedAt, ttlMs (null or a positive integer), pollIntervalMs (a positive integer, when present), and neither the legacy ttl and pollInterval nor requestState",
        revision: STATELESS, section: "SEP-2663: task fields",
        level: Must, role: Server, applies: Any,
        run: |p, f| tasks::wire_fields(p, tasks::gate(f.stateless()?)?).await,
    },
    // official: sep-2663-durable-create-strong-consistency, sep-2663-tasks-get-status-working
    TasksGetAfterCreate {
        id: "sep-2663-tasks-get",
        rule: "tasks/get sent right after a task is created answers with resultType \"complete\", the same taskId and a known status",
        revision: STATELESS, section: "SEP-2663: tasks/get",
        level: Must, role: Server, applies: Any,
        run: |p, f| tasks::get_after_create(p, tasks::gate(f.stateless()?)?).await,
    },
    // official: sep-2663-tasks-get-status-completed, tasks-no-early-ttl-expiry
    TasksCompletes {
        id: "sep-2663-task-completes",
        rule: "polling tasks/get reaches a terminal status that stays; a completed task inlines its result (with content), a failed one an error {code, message}",
        revision: STATELESS, section: "SEP-2663: task lifecycle",
        level: Must, role: Server, applies: Any,
        run: |p, f| tasks::completes(p, tasks::gate(f.stateless()?)?).await,
    },
    // official: sep-2663-cancel-ack-empty-result, tasks-cancel-terminal-idempotent-ack
    TasksCancel {
        id: "sep-2663-cancel",
        rule: "tasks/cancel is acknowledged with an empty resultType \"complete\" result, the task then reaches a terminal status, and cancelling it again is acknowledged the same way",
        revision: STATELESS, section: "SEP-2663: task cancellation",
        level: Must, role: Server, applies: Any,
        run: |p, f| tasks::cancel(p, tasks::gate(f.stateless()?)?).await,
    },
    // official: sep-2663-tasks-get-invalid-task-id-32602
    TasksUnknownTask {
        id: "sep-2663-unknown-task",
        rule: "tasks/get and tasks/cancel of a taskId the server never issued are answered with -32602",
        revision: STATELESS, section: "SEP-2663: error handling",
        level: Must, role: Server, applies: Any,
        run: |p, f| { tasks::gate(f.stateless()?)?; tasks::unknown_task(p).await },
    },
    // official: sep-2663-tasks-result-removed-method-not-found, tasks-removed-tasks-list
    TasksRemovedMethods {
        id: "sep-2663-removed-methods",
        rule: "tasks/result and tasks/list, removed by the extension, are answered with -32601",
        revision: STATELESS, section: "SEP-2663: changes from the first tasks revision",
        level: Must, role: Server, applies: Any,
        run: |p, f| { tasks::gate(f.stateless()?)?; tasks::removed_methods(p).await },
    },
    // official: sep-2663-tasks-methods-non-declaring
    TasksMethodsNeedExtension {
        id: "sep-2663-methods-need-extension",
        rule: "tasks/get and tasks/cancel from a request that does not declare the extension are rejected with -32021",
        revision: STATELESS, section: "SEP-2663: capability negotiation; SEP-2575: missing required capabilities",
        level: Must, role: Server, applies: Any,
        run: |p, f| tasks::methods_need_extension(p, tasks::gate(f.stateless()?)?).await,
    },
    // official: sep-2663-server-rejects-undeclared-client
    TasksNoTaskWithoutExtension {
        id: "sep-2663-no-task-without-extension",
        rule: "a tools/call that does not declare the extension, even one with the task param of the first tasks revision, is never answered with a task",
        revision: STATELESS, section: "SEP-2663: capability negotiation",
        level: Must, role: Server, applies: Any,
        run: |p, f| tasks::no_task_without_extension(p, tasks::gate(f.stateless()?)?).await,
    },
    // official: sep-2663-server-returns-missing-capability-when-required,
    // sep-2663-server-returns-missing-capability-data-shape
    TasksRequiredTaskError {
        id: "sep-2663-required-task-error",
        rule: "a tool that runs only as a task, called without the extension declared, is rejected with -32021 naming the extension in data.requiredCapabilities.extensions",
        revision: STATELESS, section: "SEP-2663: required capabilities",
        level: Must, role: Server, applies: Any,
        run: |p, f| tasks::required_task_error(p, tasks::gate(f.stateless()?)?).await,
    },
    // official: sep-2663-tasks-get-status-input-required, tasks-mrtr-tasks-update-resumes
    TasksInputRequired {
        id: "sep-2663-task-input-required",
        rule: "a task waiting for input reports status input_required with a non-empty inputRequests map; tasks/update with the responses is acknowledged empty and the task resumes to completion",
        revision: STATELESS, section: "SEP-2663: input requests; SEP-2322",
        level: Must, role: Server, applies: Any,
        run: |p, f| tasks::input_required(p, tasks::gate(f.stateless()?)?).await,
    },
    // official: sep-2663-routing-headers-accepted-on-tasks-get,
    // sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get
    TasksRoutingHeaders {
        id: "sep-2663-routing-headers",
        rule: "tasks/get with Mcp-Name equal to its taskId is served; with another task's id or no Mcp-Name it is rejected with HTTP 400 (JSON-RPC -32020)",
        revision: STATELESS, section: "SEP-2663: Streamable HTTP routing headers; SEP-2243",
        level: Must, role: Server, applies: Http,
        run: |p, f| tasks::routing_headers(p, tasks::gate(f.stateless()?)?).await,
    },
    // official: sep-2663-tool-error-uses-completed-status
    TasksToolErrorCompleted {
        id: "sep-2663-tool-error-completed",
        rule: "a task whose tool reports an error ends \"completed\" with result.isError: true, not \"failed\" (which is for protocol errors)",
        revision: STATELESS, section: "SEP-2663: error semantics",
        level: Must, role: Server, applies: Any,
        run: |p, f| tasks::tool_error_completed(p, tasks::gate(f.stateless()?)?).await,
    },

    // ---- skills extension (SEP-2640) ----
    SkillsCapability {
        id: "sep-2640-capability",
        rule: "the skills extension is declared as an object under capabilities.extensions, together with the resources capability",
        revision: STATELESS, section: "SEP-2640: capability",
        level: Must, role: Server, applies: Any,
        run: |p, f| skills::capability(p, f.stateless()?).await,
    },
    SkillsList {
        id: "sep-2640-skills-list",
        rule: "skills/list answers with a skills array on every page, following nextCursor to the end",
        revision: STATELESS, section: "SEP-2640: skills/list",
        level: Must, role: Server, applies: Any,
        run: |p, f| {
            skills::gate(f.stateless()?)?;
            skills::skills_list(p).await
        },
    },
    SkillsEntries {
        id: "sep-2640-skill-entries",
        rule: "every listed skill has a uri skill://<name>/SKILL.md naming frontmatter.name, a frontmatter with name and description, a name of 1-64 of a-z 0-9 - without --, and resources \"dynamic\" or files with a sha256:<hex> digest and a non-negative integer size",
        revision: STATELESS, section: "SEP-2640: skill entries",
        level: Must, role: Server, applies: Any,
        run: |p, f| {
            skills::gate(f.stateless()?)?;
            skills::skill_entries(p).await
        },
    },
    SkillsGet {
        id: "sep-2640-skills-get",
        rule: "skills/get of a listed uri answers {skill} equal to the listed entry, without nextCursor",
        revision: STATELESS, section: "SEP-2640: skills/get",
        level: Must, role: Server, applies: Any,
        run: |p, f| {
            skills::gate(f.stateless()?)?;
            skills::skills_get(p).await
        },
    },
    SkillsGetUnknownUri {
        id: "sep-2640-skills-get-unknown-uri",
        rule: "skills/get of a uri the server does not serve is answered with -32602",
        revision: STATELESS, section: "SEP-2640: skills/get",
        level: Must, role: Server, applies: Any,
        run: |p, f| {
            skills::gate(f.stateless()?)?;
            skills::skills_get_unknown_uri(p).await
        },
    },
    SkillsSkillMd {
        id: "sep-2640-skill-md",
        rule: "each listed skill's SKILL.md is readable with resources/read and opens with a YAML frontmatter equal to the entry's",
        revision: STATELESS, section: "SEP-2640: SKILL.md",
        level: Must, role: Server, applies: Any,
        run: |p, f| {
            skills::gate(f.stateless()?)?;
            skills::skill_md(p).await
        },
    },

    // ---- HTTP transport (issue 14) ----
    Sep2243MethodHeader {
        id: "sep-2243-method-header",
        rule: "a request whose Mcp-Method header is missing, names another method, or differs in case is rejected with HTTP 400 (JSON-RPC -32020)",
        revision: STATELESS, section: "SEP-2243: basic/transports#server-validation",
        level: Must, role: Server, applies: Http,
        run: |p, f| http_transport::method_header(p, f.stateless()?).await,
    },
    Sep2243NameHeader {
        id: "sep-2243-name-header",
        rule: "a tools/call whose Mcp-Name header is missing or names another tool is rejected with HTTP 400 (JSON-RPC -32020); whitespace around the value is accepted",
        revision: STATELESS, section: "SEP-2243: basic/transports#server-validation",
        level: Must, role: Server, applies: Http,
        run: |p, f| http_transport::name_header(p, f.stateless()?).await,
    },
    Sep2243CustomHeaders {
        id: "sep-2243-custom-headers",
        rule: "a tools/call of a tool with an x-mcp-header argument is served with its Mcp-Param header (plain or =?base64?...?=) and rejected with HTTP 400 (JSON-RPC -32020) when the header is missing or differs",
        revision: STATELESS, section: "SEP-2243: basic/transports#server-behavior-for-custom-headers",
        level: Must, role: Server, applies: Http,
        run: |p, f| http_transport::custom_headers(p).await,
    },
    ClassicHttpDnsRebinding {
        id: "classic-http-dns-rebinding",
        rule: "a server on localhost rejects a request whose Host and Origin name another host (HTTP 4xx)",
        revision: CLASSIC, section: "basic/transports#security-warning",
        level: Must, role: Server, applies: Http,
        run: |p, f| http_transport::dns_rebinding(p).await,
    },
    ClassicHttpSessionTerminated {
        id: "classic-http-session-terminated",
        rule: "once DELETE has ended a session, a request with its Mcp-Session-Id is answered with HTTP 404",
        revision: CLASSIC, section: "basic/transports#session-management",
        level: Must, role: Server, applies: Http,
        run: |p, f| http_transport::session_terminated(p).await,
    },
    ClassicHttpSessionIdVisibleAscii {
        id: "classic-http-session-id-visible-ascii",
        rule: "an Mcp-Session-Id holds only visible ASCII characters (0x21 to 0x7E)",
        revision: CLASSIC, section: "basic/transports#session-management",
        level: Must, role: Server, applies: Http,
        run: |p, f| http_transport::session_id_visible_ascii(p).await,
    },
    ClassicHttpMultipleStreams {
        id: "classic-http-multiple-streams",
        rule: "requests sent at the same time on one session are each answered, on their own stream, with their own id",
        revision: CLASSIC, section: "basic/transports#multiple-connections",
        level: Must, role: Server, applies: Http,
        run: |p, f| http_transport::multiple_streams(p, f.classic()?).await,
    },
    SseEndpointEvent {
        id: "sse-endpoint-event",
        rule: "the first event of the stream a client opens is `endpoint`, whose data is the URI (on the server's origin) to POST messages to",
        revision: LEGACY_SSE, section: "basic/transports#http-with-sse",
        level: Must, role: Server, applies: Sse,
        run: |p, f| sse_transport::endpoint_event(p).await,
    },
    SsePostAccepted {
        id: "sse-post-accepted",
        rule: "the endpoint accepts each message POSTed to it (HTTP 2xx): initialize, notifications/initialized, then ping",
        revision: LEGACY_SSE, section: "basic/transports#http-with-sse",
        level: Must, role: Server, applies: Sse,
        run: |p, f| sse_transport::post_accepted(p).await,
    },
    SseMessageEvents {
        id: "sse-message-events",
        rule: "the answer to a POSTed request comes on the stream as a `message` event whose data is the JSON-RPC response, and every server message is a `message` event",
        revision: LEGACY_SSE, section: "basic/transports#http-with-sse",
        level: Must, role: Server, applies: Sse,
        run: |p, f| sse_transport::message_events(p).await,
    },
    // ---- authorization of a protected server (2025-11-25, HTTP only;
    // judged without the handshake's gate: the rules hold before it) ----
    AuthChallenge {
        id: "classic-auth-401-www-authenticate",
        rule: "a request without a token gets HTTP 401 with a Bearer WWW-Authenticate challenge naming resource_metadata (or the metadata at its well-known URL)",
        revision: CLASSIC, section: "basic/authorization#authorization-server-location",
        level: Must, role: Server, applies: Http,
        run: |p, f| authorization::challenge(p).await,
    },
    AuthProtectedResourceMetadata {
        id: "classic-auth-protected-resource-metadata",
        rule: "the Protected Resource Metadata (RFC 9728) is served and names the resource and at least one authorization server",
        revision: CLASSIC, section: "basic/authorization#authorization-server-location",
        level: Must, role: Server, applies: Http,
        run: |p, f| authorization::resource_metadata(p).await,
    },
    AuthAudienceRejected {
        id: "classic-auth-audience-rejected",
        rule: "a token issued for another resource (RFC 8707 audience) is rejected with HTTP 401",
        revision: CLASSIC, section: "basic/authorization#token-handling",
        level: Must, role: Server, applies: Http,
        run: |p, f| authorization::audience_rejected(p).await,
    },
    AuthInvalidToken {
        id: "classic-auth-invalid-token",
        rule: "a malformed or expired token is rejected with HTTP 401",
        revision: CLASSIC, section: "basic/authorization#error-handling",
        level: Must, role: Server, applies: Http,
        run: |p, f| authorization::invalid_token(p).await,
    },
    AuthInsufficientScope {
        id: "classic-auth-insufficient-scope",
        rule: "a token without the needed scope gets HTTP 403 with error=\"insufficient_scope\" and the needed scope named",
        revision: CLASSIC, section: "basic/authorization#runtime-insufficient-scope-errors",
        level: Should, role: Server, applies: Http,
        run: |p, f| authorization::insufficient_scope(p).await,
    },
    AuthTokenInQueryRejected {
        id: "classic-auth-token-in-query-rejected",
        rule: "a valid token in the URI query string (access_token) and not in the Authorization header is not accepted (HTTP 401)",
        revision: CLASSIC, section: "basic/authorization#token-requirements",
        level: Must, role: Server, applies: Http,
        run: |p, f| authorization::token_in_query(p).await,
    },
    ClassicToolsListOrder {
        id: "classic-tools-list-order",
        rule: "tools/list lists the tools in the same order every time",
        revision: CLASSIC, section: "server/tools#listing-tools",
        level: Should, role: Server, applies: Any,
        run: |p, f| tools::tools_list_order(p, f.classic()?).await,
    },
    ToolsListDeterministicOrder {
        id: "mcp-tools-list-deterministic-order",
        rule: "tools/list lists the tools in the same order on three calls while the set of tools is unchanged",
        revision: STATELESS, section: "server/tools#listing-tools",
        level: Should, role: Server, applies: Any,
        run: |p, f| tools::tools_deterministic_order(p, f.stateless()?).await,
    },
    ClassicToolSchemas202012 {
        id: "classic-tool-schemas-2020-12",
        rule: "every tool's inputSchema and outputSchema is valid in the JSON Schema dialect its $schema names, JSON Schema 2020-12 when it names none",
        revision: CLASSIC, section: "server/tools#tool (SEP-1613)",
        level: Must, role: Server, applies: Any,
        run: |p, f| tools::tool_schemas_2020_12(p, f.classic()?).await,
    },
    // Last of the server checks: it judges every message the run saw.
    WireSchemaValid {
        id: "mcp-wire-schema-valid",
        rule: "every message the server sends fits the official schema (schema.ts) of the revision it was sent under: results, errors, notifications and requests",
        revision: EVERY, section: "basic (the schema is the authoritative definition of the protocol)",
        level: Must, role: Server, applies: Any,
        run: |p, f| schema_valid::wire_schema_valid(p, f).await,
    },

    // ---- SEP-2575 client checks (2026-07-28) ----
    ClientRequestMeta {
        id: "sep-2575-client-request-meta",
        rule: "every request carries _meta io.modelcontextprotocol/protocolVersion and clientCapabilities",
        revision: STATELESS, section: "SEP-2575: per-request _meta",
        level: Must, role: Client, applies: Any,
        judge: |t| client_stateless::request_meta(&t.requests()),
    },
    ClientInfo {
        id: "sep-2575-client-info",
        rule: "every request carries _meta io.modelcontextprotocol/clientInfo {name, version}",
        revision: STATELESS, section: "SEP-2575: per-request _meta",
        level: Should, role: Client, applies: Any,
        judge: |t| client_stateless::client_info(&t.requests()),
    },
    ClientConsistentVersion {
        id: "sep-2575-client-consistent-version",
        rule: "once a protocol version is accepted, every later request uses it",
        revision: STATELESS, section: "SEP-2575: version negotiation",
        level: Must, role: Client, applies: Any,
        judge: |t| client_stateless::consistent_version(&t.requests()),
    },
    ClientVersionRetry {
        id: "sep-2575-client-version-retry",
        rule: "after -32022 the client retries with a version from data.supported",
        revision: STATELESS, section: "SEP-2575: version negotiation",
        level: Must, role: Client, applies: Any,
        judge: |t| client_stateless::version_retry(&t.requests()),
    },
    ClientHttpVersionHeader {
        id: "sep-2575-client-http-version-header",
        rule: "every HTTP request's MCP-Protocol-Version header equals its _meta protocolVersion",
        revision: STATELESS, section: "SEP-2575: HTTP transport",
        level: Must, role: Client, applies: Http,
        judge: |t| client_stateless::http_version_header(&t.requests()),
    },
    ClientStdioCancellation {
        id: "sep-2575-client-stdio-cancellation",
        rule: "a request the client abandons is cancelled with notifications/cancelled naming its id",
        revision: STATELESS, section: "SEP-2575: cancellation",
        level: Must, role: Client, applies: Stdio,
        judge: |t| client_stateless::stdio_cancellation(&t.sent),
    },
    ClientHonestCapabilities {
        id: "sep-2575-client-honest-capabilities",
        rule: "every client capability declared in _meta is honored when the server asks for that input",
        revision: STATELESS, section: "SEP-2575: per-request _meta",
        level: Must, role: Client, applies: Any,
        judge: |t| client_stateless::honest_capabilities(&t.requests()),
    },
    // ---- 2026-07-28 client checks (issue 14) ----
    ClientRequestStateEchoed {
        id: "sep-2322-client-request-state-echoed",
        rule: "the retry of an input_required request carries its requestState unchanged",
        revision: STATELESS, section: "SEP-2322: multi round-trip requests",
        level: Must, role: Client, applies: Any,
        judge: |t| client_input::request_state_echoed(&t.requests()),
    },
    ClientRetryNewId {
        id: "sep-2322-client-jsonrpc-id-different",
        rule: "the retry of an input_required request is a new request with a new JSON-RPC id",
        revision: STATELESS, section: "SEP-2322: multi round-trip requests",
        level: Must, role: Client, applies: Any,
        judge: |t| client_input::retry_new_id(&t.requests()),
    },
    ClientNoInventedState {
        id: "sep-2322-client-no-state-omitted",
        rule: "a retry whose input_required result had no requestState carries none",
        revision: STATELESS, section: "SEP-2322: multi round-trip requests",
        level: Must, role: Client, applies: Any,
        judge: |t| client_input::no_invented_state(&t.requests()),
    },
    ClientInputIsolation {
        id: "sep-2322-client-parallel-isolation",
        rule: "inputResponses and requestState go only on the retry of the request that asked for them",
        revision: STATELESS, section: "SEP-2322: multi round-trip requests",
        level: Must, role: Client, applies: Any,
        judge: |t| client_input::input_isolation(&t.requests()),
    },
    ClientNoNetworkRef {
        id: "sep-2106-no-network-ref-deref",
        rule: "a $ref to a network URI in a tool's inputSchema is never fetched automatically",
        revision: STATELESS, section: "SEP-2106: JSON Schema $ref",
        level: Must, role: Client, applies: Any,
        judge: |t| client_tools::no_network_ref(&t.requests(), &t.canary_hits),
    },
    ClientStandardHeaders {
        id: "sep-2243-client-includes-standard-headers",
        rule: "every HTTP POST carries Mcp-Method equal to the body's method, and tools/call, prompts/get and resources/read carry Mcp-Name equal to params.name or params.uri",
        revision: STATELESS, section: "SEP-2243: standard MCP request headers",
        level: Must, role: Client, applies: Http,
        judge: |t| client_http::standard_headers(&t.sent),
    },
    ClientToolCallArguments {
        id: "mcp-client-tool-call-arguments",
        rule: "tools/call names a tool the server listed, with arguments valid against its inputSchema",
        revision: STATELESS, section: "server/tools#calling-tools",
        level: Should, role: Client, applies: Any,
        judge: |t| client_tools::tool_call_arguments(&t.requests()),
    },
    // ---- issue 14f ----
    ClientParamHeadersMirrored {
        id: "sep-2243-client-mirrors-designated-params",
        rule: "a tools/call over HTTP mirrors every argument whose property is marked x-mcp-header in an Mcp-Param-<Name> header, and no other argument",
        revision: STATELESS, section: "SEP-2243: custom headers from tool parameters",
        level: Must, role: Client, applies: Http,
        judge: |t| client_http::param_headers_mirrored(&t.requests()),
    },
    ClientParamHeaderValues {
        id: "sep-2243-client-encode-values",
        rule: "an integer or boolean argument mirrored in an Mcp-Param header is written as its JSON text (42, true, false)",
        revision: STATELESS, section: "SEP-2243: custom headers, value encoding",
        level: Must, role: Client, applies: Http,
        judge: |t| client_http::param_header_values(&t.requests()),
    },
    ClientParamHeaderBase64 {
        id: "sep-2243-client-base64-unsafe",
        rule: "a string argument with non-ASCII or control characters or leading or trailing whitespace is mirrored as =?base64?<its UTF-8 in Base64>?=",
        revision: STATELESS, section: "SEP-2243: custom headers, value encoding",
        level: Must, role: Client, applies: Http,
        judge: |t| client_http::param_header_base64(&t.requests()),
    },
    ClientParamHeaderOmitNull {
        id: "sep-2243-client-omit-null",
        rule: "an argument marked x-mcp-header that is null or left out gets no Mcp-Param header",
        revision: STATELESS, section: "SEP-2243: custom headers from tool parameters",
        level: Must, role: Client, applies: Http,
        judge: |t| client_http::param_header_omit_null(&t.requests()),
    },
    ClientHttpSendsVersionHeader {
        id: "sep-2575-client-http-sends-version-header",
        rule: "every HTTP POST carries an MCP-Protocol-Version header",
        revision: STATELESS, section: "SEP-2575: HTTP transport",
        level: Must, role: Client, applies: Http,
        judge: |t| client_stateless::http_sends_version_header(&t.sent),
    },
    ClientCapabilityObjects {
        id: "sep-2575-client-capabilities-are-objects",
        rule: "every capability in _meta clientCapabilities (roots, sampling, elicitation, ...) is a JSON object",
        revision: STATELESS, section: "SEP-2575: per-request _meta",
        level: Must, role: Client, applies: Any,
        judge: |t| client_stateless::capability_objects(&t.requests()),
    },
    ClientSchemaCorePreserved {
        id: "sep-1613-client-schema-preserved",
        rule: "a tool's inputSchema keeps $schema, $defs and additionalProperties as listed in the client's own representation (echoed back through the mock's schema_echo)",
        revision: STATELESS, section: "SEP-1613: JSON Schema 2020-12",
        level: Must, role: Client, applies: Any,
        judge: |t| client_tools::schema_preserved(&t.requests(), client_tools::SEP_1613_KEYWORDS),
    },
    ClientSchemaVocabularyPreserved {
        id: "sep-2106-client-schema-vocabulary-preserved",
        rule: "a tool's inputSchema keeps allOf/anyOf/oneOf/not, if/then/else and $anchor as listed in the client's own representation (echoed back through the mock's schema_echo)",
        revision: STATELESS, section: "SEP-2106: JSON Schema vocabulary",
        level: Must, role: Client, applies: Any,
        judge: |t| client_tools::schema_preserved(&t.requests(), client_tools::SEP_2106_KEYWORDS),
    },
    ClientInvalidHeaderToolsUnused {
        id: "sep-2243-client-rejects-invalid-header-tools",
        rule: "a tool whose x-mcp-header annotations are invalid (empty, not an HTTP token, repeated ignoring case, on a property that is not string, integer or boolean) is never called",
        revision: STATELESS, section: "SEP-2243: server/tools#x-mcp-header",
        level: Must, role: Client, applies: Http,
        judge: |t| client_http::invalid_header_tools_unused(&t.requests()),
    },
    ClientDefaultResultType {
        id: "sep-2322-default-result-type-complete",
        rule: "a result without resultType is complete: the request is not retried with inputResponses or requestState",
        revision: STATELESS, section: "SEP-2322: multi round-trip requests",
        level: Must, role: Client, applies: Any,
        judge: |t| client_input::default_result_type(&t.requests()),
    },
    // ---- authorization, the client side (a protected recording server,
    // `ClientConformance::authorization`; HTTP only) ----
    ClientAuthResourceMetadata {
        id: "mcp-client-auth-resource-metadata-discovery",
        rule: "after a 401 the client fetches the Protected Resource Metadata (RFC 9728), from the WWW-Authenticate resource_metadata URL or the well-known URI",
        revision: STATELESS, section: "basic/authorization#protected-resource-metadata-discovery-requirements (RFC 9728 §5)",
        level: Must, role: Client, applies: Http,
        judge: |t| auth_judge!(t, resource_metadata_discovery),
    },
    ClientAuthServerMetadata {
        id: "mcp-client-auth-server-metadata-discovery",
        rule: "the client fetches the authorization server's metadata (RFC 8414 oauth-authorization-server or OpenID Connect discovery)",
        revision: STATELESS, section: "basic/authorization#authorization-server-metadata-discovery (RFC 8414 §3)",
        level: Must, role: Client, applies: Http,
        judge: |t| auth_judge!(t, server_metadata_discovery),
    },
    ClientAuthRegistration {
        id: "mcp-client-auth-registration",
        rule: "the client registers the one way the authorization server offers (ClientConformance::registration) and every authorization request names that client_id: one issued at the registration_endpoint (RFC 7591), the pre-registered one (with its secret at the token endpoint), or the URL of a Client ID Metadata Document whose client_id is that URL and whose redirect_uris hold the redirect used",
        revision: STATELESS, section: "basic/authorization#client-registration-approaches (dynamic: RFC 7591 §3; pre-registration; Client ID Metadata Documents)",
        level: Must, role: Client, applies: Http,
        judge: |t| auth_judge!(t, registration),
    },
    ClientAuthPkce {
        id: "mcp-client-auth-pkce-s256",
        rule: "every authorization request carries a PKCE code_challenge with code_challenge_method S256, and the token request's code_verifier hashes to it (RFC 7636)",
        revision: STATELESS, section: "basic/authorization#authorization-code-protection (RFC 7636 §4)",
        level: Must, role: Client, applies: Http,
        judge: |t| auth_judge!(t, pkce),
    },
    ClientAuthResourceParameter {
        id: "mcp-client-auth-resource-parameter",
        rule: "every authorization and token request carries the resource parameter (RFC 8707), equal to the MCP server's canonical URI",
        revision: STATELESS, section: "basic/authorization#resource-parameter-implementation (RFC 8707 §2)",
        level: Must, role: Client, applies: Http,
        judge: |t| auth_judge!(t, resource_parameter),
    },
    ClientAuthState {
        id: "mcp-client-auth-state",
        rule: "every authorization request carries a non-empty state",
        revision: STATELESS, section: "basic/authorization#security-considerations (OAuth 2.1 §7.5.1)",
        level: Should, role: Client, applies: Http,
        judge: |t| auth_judge!(t, state),
    },
    ClientAuthRegisteredRedirect {
        id: "mcp-client-auth-registered-redirect",
        rule: "every authorization request's redirect_uri is one the client registered, and the token request repeats it",
        revision: STATELESS, section: "basic/authorization#communication-security (OAuth 2.1 §4.1.1, §4.1.3)",
        level: Must, role: Client, applies: Http,
        judge: |t| auth_judge!(t, registered_redirect),
    },
    ClientAuthBearerHeader {
        id: "mcp-client-auth-bearer-header",
        rule: "once it has a token, every request to the MCP endpoint carries it in Authorization: Bearer, and no request carries a token in the query string",
        revision: STATELESS, section: "basic/authorization#token-requirements (OAuth 2.1 §5.1)",
        level: Must, role: Client, applies: Http,
        judge: |t| auth_judge!(t, bearer_header),
    },
    ClientAuthRefresh {
        id: "mcp-client-auth-refresh",
        rule: "when its access token expires, the client renews it with the refresh_token it was given rather than a new authorization",
        revision: STATELESS, section: "basic/authorization#token-handling (OAuth 2.1 §4.3)",
        level: Should, role: Client, applies: Http,
        judge: |t| auth_judge!(t, refresh),
    },
    ClientAuthStepUp {
        id: "mcp-client-auth-step-up",
        rule: "after a 403 insufficient_scope the client authorizes again asking for the scope the challenge names, and retries",
        revision: STATELESS, section: "basic/authorization#runtime-insufficient-scope-errors",
        level: Should, role: Client, applies: Http,
        judge: |t| auth_judge!(t, step_up),
    },
    ClientAuthTokenAudience {
        id: "mcp-client-auth-token-audience",
        rule: "an access token issued for the MCP server is sent to it alone, never to the authorization server or any other endpoint",
        revision: STATELESS, section: "basic/authorization#token-audience-binding-and-validation (RFC 8707 §2)",
        level: Must, role: Client, applies: Http,
        judge: |t| auth_judge!(t, token_audience),
    },
}

/// Every check mcptest knows, in report order: the classic server checks,
/// the SEP-2575 server checks, then the SEP-2575 client checks.
///
/// ```
/// let ids: Vec<&str> = mcptest::conformance::catalogue().iter().map(|c| c.id).collect();
/// assert!(ids.contains(&"sep-2575-unsupported-version"));
/// ```
pub fn catalogue() -> &'static [Rule] {
    CATALOGUE
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn ids_are_unique_and_prefixed_by_their_revision() {
        let mut seen = HashSet::new();
        for check in CATALOGUE {
            assert!(seen.insert(check.id), "duplicate id {}", check.id);
            // Classic rules say so, as do the HTTP+SSE transport's; a
            // 2026-07-28 rule names the SEP that made it, or `mcp-` for a
            // rule of the base spec.
            let prefixed = if check.revision == CLASSIC {
                check.id.starts_with("classic-")
            } else if check.revision == LEGACY_SSE {
                check.id.starts_with("sse-")
            } else {
                check.id.starts_with("mcp-")
                    || check.id.strip_prefix("sep-").is_some_and(|rest| {
                        rest.split('-')
                            .next()
                            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                    })
            };
            assert!(prefixed, "{}", check.id);
        }
        assert_eq!(CheckId::ALL.len(), CATALOGUE.len());
        for id in CheckId::ALL {
            assert!(std::ptr::eq(id.check(), &CATALOGUE[*id as usize]));
        }
    }

    #[test]
    fn client_checks_come_last() {
        let first_client = CATALOGUE
            .iter()
            .position(|c| c.role == Role::Client)
            .unwrap();
        assert!(
            CATALOGUE[first_client..]
                .iter()
                .all(|c| c.role == Role::Client)
        );
    }
}
