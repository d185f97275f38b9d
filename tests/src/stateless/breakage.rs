//! The rules `fixture-broken` can break, one flag each, and the message
//! rewriting that breaks them. Each breakage names the conformance check it
//! is made to fail.

use std::collections::BTreeSet;

use serde_json::{Value, json};

/// One rule broken on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Breakage {
    InitializeWithoutServerInfo,
    EchoAnyVersion,
    IgnoreEarlyRequests,
    IgnorePing,
    BadToolName,
    BadInputSchema,
    OutputSchemaNotObject,
    HidePromptsList,
    AnswerSubscribe,
    UnknownToolSucceeds,
    UnknownToolIsErrorResult,
    UnknownResourceEmpty,
    PromptIgnoresMissingArgument,
    ArgumentErrorsAsRpcErrors,
    ErrorIdNull,
    DropInvalidJson,
    DropInvalidRequests,
    CursorLoops,
    AcceptInvalidCursor,
    DiscoverWithoutServerInfo,
    AcceptMissingMeta,
    AcceptMissingMetaVersion,
    AcceptMissingMetaCapabilities,
    RequireClientInfo,
    UnsupportedVersionInvalidParams,
    UnsupportedVersionDrift,
    AdvertisePhantomVersion,
    DiscoverIgnoresVersion,
    IgnoreVersionHeader,
    MissingCapabilityAsInvalidParams,
    AnswerPing,
    InitializeNamesStateless,
    UnknownMethodInvalidRequest,
    DiscoverHidesPrompts,
    LogWithoutLevel,
    // ---- HTTP transport (issue 14): see `transport_breakage` ----
    IgnoreMethodHeader,
    IgnoreNameHeader,
    AcceptAnyHost,
    KeepEndedSessions,
    SessionIdWithSpace,
    OneStreamAtATime,
    ShuffleTools,
    Draft04OutputSchema,
    IgnoreParamHeaders,
    HttpErrors200,
    // ---- 2026-07-28 features (issue 14) ----
    OmitResultType,
    InputRequiredOnList,
    EmptyInputRequests,
    IgnoreInputResponses,
    AcceptMissingResponses,
    AcceptInvalidResponses,
    AcceptTamperedState,
    InputIgnoresCapabilities,
    OmitCachingHints,
    BadCachingHints,
    StatelessUnknownResourceEmpty,
    ResourceNotFound32002,
    ResourceNotFoundWithoutUri,
    ListenWithoutAck,
    ListenUntagged,
    ListenIgnoresFilter,
    ListenNoListChanged,
    ListenSendsRequests,
    BadMediaContent,
    ProgressWrongToken,
    LogIgnoresLevel,
    // ---- issue 14d ----
    BadCompletions,
    NonToolIgnoresInputResponses,
    ListenNoPromptsListChanged,
    ListenResourceUpdatedUntagged,
    // ---- tasks extension (issue 14e): see `tasks` ----
    TasksV1Capability,
    NestedTaskResult,
    LegacyTaskFields,
    TasksGetLate,
    TaskResultNotInlined,
    CancelAckCarriesTask,
    UnknownTaskInternalError,
    AnswerRemovedTaskMethods,
    TasksIgnoreClientCapabilities,
    RequiredTaskRunsSync,
    TaskInputWithoutRequests,
    TasksIgnoreNameHeader,
    ToolErrorFailsTask,
    LegacyTaskParamOptsIn,
    // ---- skills extension (SEP-2640): see `skills` ----
    SkillsCapabilityNotObject,
    SkillsListMissing,
    SkillBadDigest,
    SkillsGetOtherEntry,
    SkillsGetUnknownSucceeds,
    SkillMdFrontmatterDiffers,
}

use Breakage::*;

/// Every breakage: its flag, the check it is made to fail, what it does.
pub const BREAKAGES: &[(Breakage, &str, &str, &str)] = &[
    (
        InitializeWithoutServerInfo,
        "--initialize-without-server-info",
        "classic-initialize-result",
        "initialize results lack serverInfo",
    ),
    (
        EchoAnyVersion,
        "--echo-any-version",
        "classic-version-negotiation",
        "initialize echoes any protocolVersion, even unknown ones",
    ),
    (
        IgnoreEarlyRequests,
        "--ignore-early-requests",
        "classic-request-before-initialize",
        "requests before initialize get no answer",
    ),
    (
        IgnorePing,
        "--ignore-ping",
        "classic-ping",
        "ping gets no answer",
    ),
    (
        BadToolName,
        "--bad-tool-name",
        "classic-tool-names",
        "the tool `fail` is listed as `fail now!`",
    ),
    (
        BadInputSchema,
        "--bad-input-schema",
        "classic-tool-input-schemas",
        "the tool `fail` has inputSchema {\"type\": \"array\"}",
    ),
    (
        OutputSchemaNotObject,
        "--output-schema-not-object",
        "mcp-wire-schema-valid",
        "every tool lists outputSchema {\"type\": \"array\"}: rmcp reads it, the 2025-11-25 schema requires type \"object\"",
    ),
    (
        HidePromptsList,
        "--hide-prompts-list",
        "classic-declared-capabilities-answer",
        "prompts are declared but prompts/list is -32601",
    ),
    (
        AnswerSubscribe,
        "--answer-subscribe",
        "classic-undeclared-capabilities-rejected",
        "resources/subscribe answers though resources.subscribe is not declared",
    ),
    (
        UnknownToolSucceeds,
        "--unknown-tool-succeeds",
        "classic-unknown-tool-rejected",
        "calling an unknown tool succeeds",
    ),
    (
        UnknownToolIsErrorResult,
        "--unknown-tool-is-error-result",
        "classic-unknown-tool-protocol-error",
        "an unknown tool is an isError result, not -32602",
    ),
    (
        UnknownResourceEmpty,
        "--unknown-resource-empty",
        "classic-unknown-resource",
        "an unknown resource reads as empty contents",
    ),
    (
        PromptIgnoresMissingArgument,
        "--prompt-ignores-missing-argument",
        "classic-missing-prompt-argument",
        "prompts/get without a required argument succeeds",
    ),
    (
        ArgumentErrorsAsRpcErrors,
        "--argument-errors-as-rpc-errors",
        "classic-tool-input-error-is-tool-result",
        "tool argument errors are JSON-RPC errors",
    ),
    (
        ErrorIdNull,
        "--error-id-null",
        "classic-error-id sep-2575-error-id",
        "every error response has id null",
    ),
    (
        DropInvalidJson,
        "--drop-invalid-json",
        "classic-invalid-json",
        "lines that are not JSON get no answer",
    ),
    (
        DropInvalidRequests,
        "--drop-invalid-requests",
        "classic-invalid-request",
        "JSON that is not a valid request gets no answer",
    ),
    (
        CursorLoops,
        "--cursor-loops",
        "classic-pagination",
        "the last page's nextCursor points back to the first",
    ),
    (
        AcceptInvalidCursor,
        "--accept-invalid-cursor",
        "classic-invalid-cursor",
        "an unknown cursor restarts the list",
    ),
    (
        DiscoverWithoutServerInfo,
        "--discover-without-server-info",
        "sep-2575-discover",
        "server/discover has no serverInfo in _meta",
    ),
    (
        AcceptMissingMeta,
        "--accept-missing-meta",
        "sep-2575-meta-required",
        "a stateless request without _meta is served",
    ),
    (
        AcceptMissingMetaVersion,
        "--accept-missing-meta-version",
        "sep-2575-meta-protocol-version-required",
        "_meta without protocolVersion is served",
    ),
    (
        AcceptMissingMetaCapabilities,
        "--accept-missing-meta-capabilities",
        "sep-2575-meta-client-capabilities-required",
        "_meta without clientCapabilities is served",
    ),
    (
        RequireClientInfo,
        "--require-client-info",
        "sep-2575-meta-client-info-optional",
        "_meta without clientInfo is rejected",
    ),
    (
        UnsupportedVersionInvalidParams,
        "--unsupported-version-invalid-params",
        "sep-2575-unsupported-version",
        "an unsupported version is -32602 without data",
    ),
    (
        UnsupportedVersionDrift,
        "--unsupported-version-drift",
        "sep-2575-unsupported-version-no-drift",
        "-32022 lists fewer versions than server/discover",
    ),
    (
        AdvertisePhantomVersion,
        "--advertise-phantom-version",
        "sep-2575-supported-versions-accepted",
        "2026-12-01 is advertised but rejected",
    ),
    (
        DiscoverIgnoresVersion,
        "--discover-ignores-version",
        "sep-2575-discover-unsupported-version",
        "server/discover answers whatever the version",
    ),
    (
        IgnoreVersionHeader,
        "--ignore-version-header",
        "sep-2575-http-header-mismatch",
        "the MCP-Protocol-Version header is not compared with _meta",
    ),
    (
        MissingCapabilityAsInvalidParams,
        "--missing-capability-as-invalid-params",
        "sep-2575-missing-client-capability",
        "a missing client capability is -32602 without data",
    ),
    (
        AnswerPing,
        "--answer-ping",
        "sep-2575-removed-methods",
        "a stateless ping is answered",
    ),
    (
        InitializeNamesStateless,
        "--initialize-names-2026-07-28",
        "sep-2575-removed-methods",
        "an initialize with 2026-07-28 _meta is answered with a result naming protocolVersion 2026-07-28",
    ),
    (
        UnknownMethodInvalidRequest,
        "--unknown-method-invalid-request",
        "sep-2575-unknown-method",
        "an unknown method is -32600",
    ),
    (
        DiscoverHidesPrompts,
        "--discover-hides-prompts",
        "sep-2575-capabilities-honored",
        "server/discover leaves out prompts, which still answer",
    ),
    (
        LogWithoutLevel,
        "--log-without-level",
        "sep-2575-no-log-without-level",
        "the log tool logs without a requested level",
    ),
    // ---- HTTP transport (issue 14) ----
    (
        IgnoreMethodHeader,
        "--ignore-method-header",
        "sep-2243-method-header",
        "the Mcp-Method header is set from the body before the server sees it",
    ),
    (
        IgnoreNameHeader,
        "--ignore-name-header",
        "sep-2243-name-header",
        "the Mcp-Name header is set from the body before the server sees it",
    ),
    (
        AcceptAnyHost,
        "--accept-any-host",
        "classic-http-dns-rebinding",
        "any Host is taken for 127.0.0.1, and Origin is dropped",
    ),
    (
        KeepEndedSessions,
        "--keep-ended-sessions",
        "classic-http-session-terminated",
        "DELETE is answered 200 but the session lives on",
    ),
    (
        SessionIdWithSpace,
        "--session-id-with-space",
        "classic-http-session-id-visible-ascii",
        "session ids carry a space",
    ),
    (
        OneStreamAtATime,
        "--one-stream-at-a-time",
        "classic-http-multiple-streams",
        "a POST that arrives while another is open gets HTTP 409",
    ),
    (
        ShuffleTools,
        "--shuffle-tools",
        "classic-tools-list-order",
        "each tools/list page comes rotated by one more place than the last",
    ),
    (
        Draft04OutputSchema,
        "--draft-04-output-schema",
        "classic-tool-schemas-2020-12",
        "the tool `add` has an outputSchema with draft-04 exclusiveMinimum: true",
    ),
    (
        IgnoreParamHeaders,
        "--ignore-param-headers",
        "sep-2243-custom-headers",
        "the Mcp-Param-Region header is set from the body before the server sees it",
    ),
    (
        HttpErrors200,
        "--http-errors-200",
        "HTTP status of every SEP-2575 error check",
        "every JSON-RPC error goes out with HTTP 200",
    ),
    // ---- 2026-07-28 features (issue 14) ----
    (
        OmitResultType,
        "--omit-result-type",
        "sep-2322-result-type",
        "2026-07-28 results have no resultType",
    ),
    (
        InputRequiredOnList,
        "--input-required-on-list",
        "sep-2322-not-on-unsupported-requests",
        "tools/list answers with resultType input_required",
    ),
    (
        EmptyInputRequests,
        "--empty-input-requests",
        "sep-2322-input-required",
        "confirm asks for input with an empty inputRequests map",
    ),
    (
        IgnoreInputResponses,
        "--ignore-input-responses",
        "sep-2322-input-round-trip",
        "confirm asks again whatever the retry answers",
    ),
    (
        AcceptMissingResponses,
        "--accept-missing-responses",
        "sep-2322-missing-response-rerequests",
        "confirm completes when the retry leaves its input request unanswered",
    ),
    (
        AcceptInvalidResponses,
        "--accept-invalid-responses",
        "sep-2322-validate-input-responses",
        "confirm completes when its input response is not an elicitation result",
    ),
    (
        AcceptTamperedState,
        "--accept-tampered-state",
        "sep-2322-reject-tampered-state",
        "confirm accepts a requestState it never issued",
    ),
    (
        InputIgnoresCapabilities,
        "--input-ignores-capabilities",
        "sep-2322-respect-client-capabilities",
        "confirm asks for an elicitation the client did not declare",
    ),
    (
        OmitCachingHints,
        "--omit-caching-hints",
        "sep-2549-caching-hints",
        "tools/list has no ttlMs",
    ),
    (
        BadCachingHints,
        "--bad-caching-hints",
        "sep-2549-caching-types",
        "tools/list has ttlMs -1 and cacheScope \"shared\"",
    ),
    (
        StatelessUnknownResourceEmpty,
        "--stateless-unknown-resource-empty",
        "sep-2164-no-empty-contents",
        "an unknown resource reads as empty contents over 2026-07-28",
    ),
    (
        ResourceNotFound32002,
        "--resource-not-found-32002",
        "sep-2164-error-code",
        "an unknown resource is -32002 over 2026-07-28",
    ),
    (
        ResourceNotFoundWithoutUri,
        "--resource-not-found-without-uri",
        "sep-2164-data-uri",
        "the error for an unknown resource has no data.uri",
    ),
    (
        ListenWithoutAck,
        "--listen-without-ack",
        "sep-2575-listen-acknowledged",
        "listen streams get no notifications/subscriptions/acknowledged",
    ),
    (
        ListenUntagged,
        "--listen-untagged",
        "sep-2575-listen-subscription-id",
        "list_changed on a listen stream has no subscriptionId",
    ),
    (
        ListenIgnoresFilter,
        "--listen-ignores-filter",
        "sep-2575-listen-filter",
        "tools/list_changed goes to every listen stream, asked for or not",
    ),
    (
        ListenNoListChanged,
        "--listen-no-list-changed",
        "sep-2575-listen-list-changed",
        "touch_tools announces nothing",
    ),
    (
        ListenSendsRequests,
        "--listen-sends-requests",
        "sep-2575-listen-no-requests",
        "a ping request goes out on every listen stream",
    ),
    (
        BadMediaContent,
        "--bad-media-content",
        "sep-2575-content-types",
        "media's image has no mimeType and data that is not base64",
    ),
    (
        ProgressWrongToken,
        "--progress-wrong-token",
        "sep-2575-progress",
        "slow's progress notifications name another token",
    ),
    (
        LogIgnoresLevel,
        "--log-ignores-level",
        "sep-2575-log-with-level",
        "the log tool logs nothing even when the request asks for a level",
    ),
    // ---- issue 14d ----
    (
        BadCompletions,
        "--bad-completions",
        "mcp-completion-values",
        "completion values hold a number and hasMore is the string \"no\"",
    ),
    (
        NonToolIgnoresInputResponses,
        "--non-tool-ignores-input-responses",
        "sep-2322-non-tool-round-trip",
        "the prompt confirmed_greeting and the resource fixture://confirmed ask again whatever the retry answers",
    ),
    (
        ListenNoPromptsListChanged,
        "--listen-no-prompts-list-changed",
        "sep-2575-listen-prompts-list-changed",
        "touch_prompts announces nothing",
    ),
    (
        ListenResourceUpdatedUntagged,
        "--listen-resource-updated-untagged",
        "sep-2575-listen-resource-updated",
        "resources/updated on a listen stream has no subscriptionId",
    ),
    // ---- tasks extension (issue 14e) ----
    (
        TasksV1Capability,
        "--tasks-v1-capability",
        "sep-2663-extension-declared",
        "server/discover also declares capabilities.tasks, the slot of the first tasks revision",
    ),
    (
        NestedTaskResult,
        "--nested-task-result",
        "sep-2663-create-task-result",
        "a task's CreateTaskResult wraps its fields in a `task` object",
    ),
    (
        LegacyTaskFields,
        "--legacy-task-fields",
        "sep-2663-wire-fields",
        "tasks carry ttl and pollInterval instead of ttlMs and pollIntervalMs",
    ),
    (
        TasksGetLate,
        "--tasks-get-late",
        "sep-2663-tasks-get",
        "the first tasks/get of each task answers -32602 (the task is not stored yet)",
    ),
    (
        TaskResultNotInlined,
        "--task-result-not-inlined",
        "sep-2663-task-completes",
        "tasks/get of a completed task leaves out its result",
    ),
    (
        CancelAckCarriesTask,
        "--cancel-ack-carries-task",
        "sep-2663-cancel",
        "tasks/cancel is acknowledged with a taskId and status",
    ),
    (
        UnknownTaskInternalError,
        "--unknown-task-internal-error",
        "sep-2663-unknown-task",
        "tasks/get and tasks/cancel of an unknown task answer -32603",
    ),
    (
        AnswerRemovedTaskMethods,
        "--answer-removed-task-methods",
        "sep-2663-removed-methods",
        "tasks/result and tasks/list are answered",
    ),
    (
        TasksIgnoreClientCapabilities,
        "--tasks-ignore-client-capabilities",
        "sep-2663-methods-need-extension",
        "every tools/call and task request counts as declaring the tasks extension",
    ),
    (
        RequiredTaskRunsSync,
        "--required-task-runs-sync",
        "sep-2663-required-task-error",
        "task_only, approval_job and failing_job run synchronously for a request without the tasks extension",
    ),
    (
        TaskInputWithoutRequests,
        "--task-input-without-requests",
        "sep-2663-task-input-required",
        "tasks/get of a task waiting for input leaves out its inputRequests",
    ),
    (
        TasksIgnoreNameHeader,
        "--tasks-ignore-name-header",
        "sep-2663-routing-headers",
        "the Mcp-Name of task requests is replaced by their taskId before it is checked (HTTP)",
    ),
    (
        ToolErrorFailsTask,
        "--tool-error-fails-task",
        "sep-2663-tool-error-completed",
        "a task whose tool reported an error is reported as failed",
    ),
    (
        LegacyTaskParamOptsIn,
        "--legacy-task-param-opts-in",
        "sep-2663-no-task-without-extension",
        "a tools/call with the task param of the first tasks revision counts as declaring the extension",
    ),
    (
        SkillsCapabilityNotObject,
        "--skills-capability-not-object",
        "sep-2640-capability",
        "server/discover declares the skills extension as true",
    ),
    (
        SkillsListMissing,
        "--skills-list-missing",
        "sep-2640-skills-list",
        "skills/list is -32601 though the skills extension is declared",
    ),
    (
        SkillBadDigest,
        "--skill-bad-digest",
        "sep-2640-skill-entries",
        "the listed SKILL.md has an md5: digest",
    ),
    (
        SkillsGetOtherEntry,
        "--skills-get-other-entry",
        "sep-2640-skills-get",
        "skills/get answers an entry whose description differs from the listed one",
    ),
    (
        SkillsGetUnknownSucceeds,
        "--skills-get-unknown-succeeds",
        "sep-2640-skills-get-unknown-uri",
        "skills/get of an unknown uri answers the one skill",
    ),
    (
        SkillMdFrontmatterDiffers,
        "--skill-md-frontmatter-differs",
        "sep-2640-skill-md",
        "the SKILL.md read as a resource has another description than the listed entry",
    ),
];

impl Breakage {
    /// The command-line flag.
    pub fn flag(self) -> &'static str {
        BREAKAGES
            .iter()
            .find(|(b, ..)| *b == self)
            .map(|(_, flag, ..)| *flag)
            .expect("every breakage is listed")
    }
}

/// The set of breakages a server runs with (empty: it conforms).
#[derive(Debug, Default, Clone)]
pub struct Breakages(BTreeSet<Breakage>);

/// What to do with a message from the client.
#[derive(Debug, PartialEq)]
pub enum Inbound {
    /// Pass it on to the server (maybe changed).
    Forward(Value),
    /// Answer it with this message instead.
    Reply(Value),
    /// Swallow it.
    Drop,
}

/// What the hooks know about the connection (stdio) or the HTTP request.
#[derive(Debug, Default)]
pub struct Conn {
    /// `initialize` was seen (stdio), or the request belongs to a session (HTTP).
    pub initialized: bool,
}

/// The stateless revision.
const STATELESS: &str = "2026-07-28";
const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
const PHANTOM_VERSION: &str = "2026-12-01";
const KNOWN_VERSIONS: &[&str] = &[
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];
const TOOL_NAMES: &[&str] = &[
    "echo",
    "add",
    "fail",
    "log",
    "confirm",
    "touch_tools",
    "route",
    "media",
    "slow",
    "touch_prompts",
    "touch_resources",
];
const MCP_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "subscriptions/listen",
    "completion/complete",
    "logging/setLevel",
];

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn method(message: &Value) -> Option<&str> {
    message.get("method").and_then(Value::as_str)
}

fn is_request(message: &Value) -> bool {
    message.get("id").is_some() && method(message).is_some()
}

/// The `_meta` protocol version a message names.
pub fn meta_version(message: &Value) -> Option<&str> {
    message
        .get("params")?
        .get("_meta")?
        .get(META_VERSION)?
        .as_str()
}

fn is_stateless(message: &Value) -> bool {
    meta_version(message).is_some_and(|v| v >= STATELESS)
}

fn meta_mut(message: &mut Value) -> Option<&mut serde_json::Map<String, Value>> {
    message.get_mut("params")?.get_mut("_meta")?.as_object_mut()
}

/// Neither a request, a notification nor a response.
fn is_invalid_shape(message: &Value) -> bool {
    let Some(object) = message.as_object() else {
        return true;
    };
    match object.get("method") {
        Some(method) => !method.is_string(),
        None => !object.contains_key("result") && !object.contains_key("error"),
    }
}

impl Breakages {
    /// Parses flags; an unknown flag is an error listing the known ones.
    pub fn parse<I: IntoIterator<Item = String>>(flags: I) -> Result<Breakages, String> {
        let mut set = BTreeSet::new();
        for flag in flags {
            match BREAKAGES.iter().find(|(_, f, ..)| *f == flag) {
                Some((breakage, ..)) => {
                    set.insert(*breakage);
                }
                None => {
                    let known: Vec<&str> = BREAKAGES.iter().map(|(_, f, ..)| *f).collect();
                    return Err(format!(
                        "unknown flag {flag:?}; the flags are: {}",
                        known.join(" ")
                    ));
                }
            }
        }
        Ok(Breakages(set))
    }

    /// Whether `breakage` is on.
    pub fn has(&self, breakage: Breakage) -> bool {
        self.0.contains(&breakage)
    }

    /// True for the conforming server.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether any breakage rewrites the server's answers (then HTTP
    /// answers are buffered to rewrite them).
    pub fn rewrites_answers(&self) -> bool {
        self.0.iter().any(|b| {
            !matches!(
                b,
                IgnoreEarlyRequests
                    | IgnorePing
                    | ArgumentErrorsAsRpcErrors
                    | DropInvalidJson
                    | DropInvalidRequests
                    | CursorLoops
                    | AcceptInvalidCursor
                    | AcceptMissingMeta
                    | AcceptMissingMetaVersion
                    | AcceptMissingMetaCapabilities
                    | RequireClientInfo
                    | DiscoverIgnoresVersion
                    | IgnoreVersionHeader
                    | AnswerPing
                    | InitializeNamesStateless
                    | LogWithoutLevel
                    | IgnoreMethodHeader
                    | IgnoreNameHeader
                    | AcceptAnyHost
                    | KeepEndedSessions
                    | SessionIdWithSpace
                    | OneStreamAtATime
                    | IgnoreParamHeaders
                    | SkillsListMissing
                    | SkillBadDigest
                    | SkillsGetOtherEntry
                    | SkillsGetUnknownSucceeds
                    | SkillMdFrontmatterDiffers
            )
        })
    }

    /// The answer to a line that is not JSON: -32700, unless dropped.
    pub fn unparsable(&self) -> Option<Value> {
        (!self.has(DropInvalidJson)).then(|| error(Value::Null, -32700, "Parse error"))
    }

    /// A message from the client. `version_header` is the HTTP
    /// `MCP-Protocol-Version` header (set to the `_meta` version under
    /// `--ignore-version-header`); `None` over stdio.
    pub fn inbound(
        &self,
        mut message: Value,
        conn: &mut Conn,
        mut version_header: Option<&mut Option<String>>,
    ) -> Inbound {
        if is_invalid_shape(&message) {
            if self.has(DropInvalidRequests) {
                return Inbound::Drop;
            }
            // The id, when it could be read (JSON-RPC: otherwise null).
            let id = match message.get("id") {
                Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
                _ => Value::Null,
            };
            return Inbound::Reply(error(id, -32600, "Invalid Request"));
        }
        let name = method(&message).unwrap_or_default().to_owned();
        let request = is_request(&message);
        let stateless = is_stateless(&message);
        let header_stateless = version_header
            .as_deref()
            .and_then(|h| h.as_deref())
            .is_some_and(|h| h >= STATELESS);
        if name == "initialize" && request && stateless && self.has(InitializeNamesStateless) {
            // A handshake for a revision that has none.
            return Inbound::Reply(json!({
                "jsonrpc": "2.0",
                "id": message["id"],
                "result": {
                    "protocolVersion": STATELESS,
                    "capabilities": {},
                    "serverInfo": { "name": super::SERVER_NAME, "version": "0" },
                },
            }));
        }
        if name == "initialize" && request && (stateless || header_stateless) {
            // 2026-07-28 has no initialize. rmcp would take it over HTTP as
            // the start of a legacy session (HTTP 200); answer it here.
            return Inbound::Reply(error(
                message["id"].clone(),
                -32601,
                "initialize does not exist in 2026-07-28",
            ));
        }
        if name == "initialize" {
            conn.initialized = true;
        } else if request
            && !conn.initialized
            && !stateless
            && !header_stateless
            && !matches!(name.as_str(), "server/discover" | "ping")
            && self.has(IgnoreEarlyRequests)
        {
            return Inbound::Drop;
        }
        if name == "ping" && request {
            if stateless && self.has(AnswerPing) {
                return Inbound::Reply(
                    json!({"jsonrpc": "2.0", "id": message["id"], "result": {}}),
                );
            }
            if !stateless && self.has(IgnorePing) {
                return Inbound::Drop;
            }
        }
        let has_meta = message.get("params").and_then(|p| p.get("_meta")).is_some();
        let bare_stateless = match &version_header {
            Some(_) => header_stateless,
            None => !conn.initialized,
        };
        if request
            && name != "initialize"
            && !has_meta
            && bare_stateless
            && self.has(AcceptMissingMeta)
        {
            if !message.get("params").is_some_and(Value::is_object) {
                message["params"] = json!({});
            }
            message["params"]["_meta"] = json!({
                META_VERSION: STATELESS,
                META_CAPABILITIES: {},
            });
        }
        if request && has_meta {
            let add_version = self.has(AcceptMissingMetaVersion);
            let add_capabilities = self.has(AcceptMissingMetaCapabilities);
            let require_info = self.has(RequireClientInfo);
            if let Some(meta) = meta_mut(&mut message) {
                if add_version && !meta.contains_key(META_VERSION) {
                    meta.insert(META_VERSION.into(), json!(STATELESS));
                }
                if add_capabilities && !meta.contains_key(META_CAPABILITIES) {
                    meta.insert(META_CAPABILITIES.into(), json!({}));
                }
                if require_info && !meta.contains_key(META_CLIENT_INFO) {
                    return Inbound::Reply(error(
                        message["id"].clone(),
                        -32602,
                        "clientInfo is required",
                    ));
                }
            }
        }
        if name == "server/discover" && self.has(DiscoverIgnoresVersion) {
            let unknown = meta_version(&message).is_some_and(|v| !KNOWN_VERSIONS.contains(&v));
            if unknown {
                if let Some(meta) = meta_mut(&mut message) {
                    meta.insert(META_VERSION.into(), json!(STATELESS));
                }
                if let Some(header) = version_header.as_deref_mut() {
                    *header = Some(STATELESS.to_owned());
                }
            }
        }
        if self.has(IgnoreVersionHeader)
            && let (Some(header), Some(version)) = (version_header, meta_version(&message))
        {
            *header = Some(version.to_owned());
        }
        if let Some(answer) = super::tasks::inbound(self, &mut message) {
            return Inbound::Reply(answer);
        }
        Inbound::Forward(message)
    }

    /// A message from the server; `request` is the request it answers,
    /// when known.
    pub fn outbound(&self, request: Option<&Value>, message: &mut Value) {
        let name = request.and_then(method).unwrap_or_default();
        let stateless = request.is_some_and(is_stateless);
        let code = message
            .get("error")
            .and_then(|e| e.get("code"))
            .and_then(Value::as_i64);
        if message.get("result").is_some() {
            self.outbound_result(request, name, stateless, message);
        }
        if let Some(code) = code {
            self.outbound_error(request, name, stateless, code, message);
        }
        if stateless {
            super::features::outbound(self, name, message);
            super::tasks::outbound(self, name, message);
        }
    }

    fn outbound_result(
        &self,
        request: Option<&Value>,
        name: &str,
        stateless: bool,
        message: &mut Value,
    ) {
        let result = &mut message["result"];
        match name {
            "initialize" => {
                if self.has(InitializeWithoutServerInfo)
                    && let Some(map) = result.as_object_mut()
                {
                    map.remove("serverInfo");
                }
                if self.has(EchoAnyVersion)
                    && let Some(asked) = request.map(|r| r["params"]["protocolVersion"].clone())
                {
                    result["protocolVersion"] = asked;
                }
            }
            "tools/list" => {
                if let Some(tools) = result.get_mut("tools").and_then(Value::as_array_mut) {
                    for tool in tools.iter_mut().filter(|t| t["name"] == "fail") {
                        if self.has(BadToolName) {
                            tool["name"] = json!("fail now!");
                        }
                        if self.has(BadInputSchema) {
                            tool["inputSchema"] = json!({ "type": "array" });
                        }
                    }
                    if self.has(OutputSchemaNotObject) {
                        for tool in tools.iter_mut() {
                            tool["outputSchema"] = json!({ "type": "array" });
                        }
                    }
                    super::transport_breakage::bend_tools(self, tools);
                }
            }
            "prompts/list" if !stateless && self.has(HidePromptsList) => {
                let id = message["id"].clone();
                *message = error(id, -32601, "Method not found");
            }
            "server/discover" => {
                if self.has(DiscoverWithoutServerInfo)
                    && let Some(meta) = result.get_mut("_meta").and_then(Value::as_object_mut)
                {
                    meta.remove(META_SERVER_INFO);
                }
                if self.has(AdvertisePhantomVersion)
                    && let Some(versions) = result
                        .get_mut("supportedVersions")
                        .and_then(Value::as_array_mut)
                {
                    versions.push(json!(PHANTOM_VERSION));
                }
                super::skills::bend_discover(self, result);
                if self.has(DiscoverHidesPrompts)
                    && let Some(capabilities) = result
                        .get_mut("capabilities")
                        .and_then(Value::as_object_mut)
                {
                    capabilities.remove("prompts");
                }
            }
            _ => {}
        }
    }

    fn outbound_error(
        &self,
        request: Option<&Value>,
        name: &str,
        stateless: bool,
        code: i64,
        message: &mut Value,
    ) {
        let id = message["id"].clone();
        let tool = request
            .and_then(|r| r["params"]["name"].as_str())
            .unwrap_or_default();
        let unknown_tool = name == "tools/call" && !TOOL_NAMES.contains(&tool);
        let replacement = match name {
            "resources/subscribe" if !stateless && code == -32601 && self.has(AnswerSubscribe) => {
                Some(json!({}))
            }
            "tools/call" if unknown_tool && self.has(UnknownToolSucceeds) => {
                Some(json!({ "content": [{ "type": "text", "text": "done" }] }))
            }
            "tools/call" if unknown_tool && self.has(UnknownToolIsErrorResult) => Some(json!({
                "content": [{ "type": "text", "text": "no such tool" }],
                "isError": true,
            })),
            "resources/read" if !stateless && self.has(UnknownResourceEmpty) => {
                Some(json!({ "contents": [] }))
            }
            "prompts/get" if !stateless && self.has(PromptIgnoresMissingArgument) => Some(json!({
                "messages": [{ "role": "user", "content": { "type": "text", "text": "Hello, !" } }],
            })),
            _ => None,
        };
        if let Some(result) = replacement {
            *message = json!({ "jsonrpc": "2.0", "id": id, "result": result });
            return;
        }
        let error = &mut message["error"];
        match code {
            -32022 => {
                if self.has(UnsupportedVersionInvalidParams) && name != "server/discover" {
                    *error = json!({ "code": -32602, "message": "Invalid params" });
                }
                if let Some(supported) = error
                    .get_mut("data")
                    .and_then(|d| d.get_mut("supported"))
                    .and_then(Value::as_array_mut)
                {
                    if self.has(UnsupportedVersionDrift) && supported.len() > 1 {
                        supported.remove(0);
                    }
                    if self.has(AdvertisePhantomVersion) {
                        supported.push(json!(PHANTOM_VERSION));
                    }
                }
            }
            -32021 if self.has(MissingCapabilityAsInvalidParams) => {
                *error = json!({ "code": -32602, "message": "Invalid params" });
            }
            -32601 if self.has(UnknownMethodInvalidRequest) && !MCP_METHODS.contains(&name) => {
                error["code"] = json!(-32600);
            }
            _ => {}
        }
        if self.has(ErrorIdNull) {
            message["id"] = Value::Null;
        }
    }
}

/// The HTTP status an answer of this fixture gets (for answers the
/// breakages make up): the SEP-2575 mapping.
pub fn status_for(message: &Value) -> u16 {
    match message["error"]["code"].as_i64() {
        Some(-32601) => 404,
        Some(-32700 | -32600 | -32602 | -32020 | -32021 | -32022) => 400,
        _ => 200,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn broken(flags: &[&str]) -> Breakages {
        Breakages::parse(flags.iter().map(|f| f.to_string())).unwrap()
    }

    #[test]
    fn flags_parse_and_unknown_ones_are_listed() {
        assert!(broken(&["--answer-ping"]).has(AnswerPing));
        let err = Breakages::parse(["--nope".to_string()]).unwrap_err();
        assert!(err.contains("--answer-ping"), "{err}");
        for (breakage, flag, ..) in BREAKAGES {
            assert_eq!(breakage.flag(), *flag);
        }
    }

    #[test]
    fn a_stateless_ping_is_answered_only_when_broken() {
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping",
            "params": {"_meta": {META_VERSION: STATELESS}}});
        let mut conn = Conn::default();
        assert_eq!(
            Breakages::default().inbound(ping.clone(), &mut conn, None),
            Inbound::Forward(ping.clone())
        );
        assert!(matches!(
            broken(&["--answer-ping"]).inbound(ping, &mut conn, None),
            Inbound::Reply(_)
        ));
    }

    #[test]
    fn error_ids_can_be_nulled() {
        let mut answer =
            json!({"jsonrpc": "2.0", "id": 4, "error": {"code": -32601, "message": "x"}});
        broken(&["--error-id-null"]).outbound(None, &mut answer);
        assert_eq!(answer["id"], Value::Null);
    }
}
