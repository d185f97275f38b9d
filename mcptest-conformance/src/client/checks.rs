//! Client checks: judged from what the recording mock server saw.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::mock::{ASKABLE, Event, UNTYPED_TOOL};
use crate::catalogue::CheckId;
use crate::check::Exchange;
use crate::check::Observed;
use crate::check::Problems;
use crate::check::RawRequest;
use crate::check::RawResponse;
use crate::check::Transport;
use crate::probe::META_CAPABILITIES;
use crate::probe::META_CLIENT_INFO;
use crate::probe::META_VERSION;
use mcptest_core::expect::validate_schema;

/// One message from the client, with the mock's answer to it.
#[derive(Debug, Clone)]
pub(crate) struct Sent {
    pub(crate) transport: Transport,
    /// The message; `Value::Null` for a line that was not JSON.
    pub(crate) message: Value,
    pub(crate) raw: String,
    pub(crate) headers: Vec<(String, String)>,
    /// The JSON-RPC response the mock sent for it.
    pub(crate) answer: Option<Value>,
    /// Over HTTP: status, content type and every message of the answer.
    pub(crate) http: Option<(u16, Option<String>, Vec<Value>)>,
}

impl Sent {
    fn is_request(&self) -> bool {
        self.message.get("id").is_some() && self.message.get("method").is_some()
    }

    fn method(&self) -> &str {
        self.message
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    fn meta(&self) -> Option<&Value> {
        self.message.get("params")?.get("_meta")
    }

    fn version(&self) -> Option<&str> {
        self.meta()?.get(META_VERSION)?.as_str()
    }

    fn answer_code(&self) -> Option<i64> {
        self.answer.as_ref()?.get("error")?.get("code")?.as_i64()
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn tool(&self) -> Option<&str> {
        (self.method() == "tools/call")
            .then(|| self.message.get("params")?.get("name")?.as_str())
            .flatten()
    }

    /// How this message and its answer appear in a report.
    pub(crate) fn exchange(&self) -> Exchange {
        let response = match &self.http {
            Some((status, content_type, messages)) => RawResponse::Http {
                status: *status,
                content_type: content_type.clone(),
                messages: messages.clone(),
                body: None,
            },
            None => RawResponse::Messages {
                messages: self.answer.iter().cloned().collect(),
                dropped: 0,
            },
        };
        Exchange {
            transport: self.transport,
            request: RawRequest {
                method: None,
                headers: self
                    .headers
                    .iter()
                    .filter(|(n, _)| {
                        let n = n.to_ascii_lowercase();
                        n.starts_with("mcp-")
                    })
                    .cloned()
                    .collect(),
                body: self.raw.clone(),
            },
            response,
        }
    }
}

/// The client's messages in order, each with the mock's answer.
pub(crate) async fn sent_messages(events: &[Event]) -> Vec<Sent> {
    let mut sent: Vec<Sent> = Vec::new();
    for event in events {
        match event {
            Event::FromClient { message, raw } => sent.push(Sent {
                transport: Transport::Stdio,
                message: message.clone().unwrap_or(Value::Null),
                raw: raw.clone(),
                headers: Vec::new(),
                answer: None,
                http: None,
            }),
            Event::FromMock { message } => {
                let id = message.get("id");
                if !mcptest_core::__support::is_response(message) || id.is_none_or(Value::is_null) {
                    continue;
                }
                if let Some(request) = sent
                    .iter_mut()
                    .rev()
                    .find(|s| s.answer.is_none() && s.is_request() && s.message.get("id") == id)
                {
                    request.answer = Some(message.clone());
                }
            }
            Event::CanaryHit { .. } => {}
            Event::Http {
                headers,
                body,
                status,
                content_type,
                answer,
            } => {
                let bytes = answer.lock().unwrap_or_else(|p| p.into_inner()).clone();
                let messages = decode_answer(&bytes, content_type.as_deref()).await;
                let response = messages
                    .iter()
                    .find(|m| {
                        m.get("method").is_none()
                            && (m.get("result").is_some() || m.get("error").is_some())
                    })
                    .cloned();
                let parsed: Vec<Value> = match serde_json::from_str::<Value>(body) {
                    Ok(Value::Array(batch)) => batch,
                    Ok(one) => vec![one],
                    Err(_) => vec![Value::Null],
                };
                for message in parsed {
                    sent.push(Sent {
                        transport: Transport::Http,
                        message,
                        raw: body.clone(),
                        headers: headers.clone(),
                        answer: response.clone(),
                        http: Some((*status, content_type.clone(), messages.clone())),
                    });
                }
            }
        }
    }
    sent
}

/// The JSON-RPC messages in an HTTP answer body (JSON or SSE).
#[cfg(feature = "http-mock")]
async fn decode_answer(bytes: &[u8], content_type: Option<&str>) -> Vec<Value> {
    use futures::StreamExt;

    if content_type == Some("text/event-stream") {
        let chunk: Result<bytes::Bytes, std::convert::Infallible> =
            Ok(bytes::Bytes::copy_from_slice(bytes));
        let events = sse_stream::SseStream::from_bytes_stream(futures::stream::iter([chunk]));
        return events
            .filter_map(
                |event| async move { serde_json::from_str(event.ok()?.data.as_deref()?).ok() },
            )
            .collect()
            .await;
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Array(batch)) => batch,
        Ok(value) => vec![value],
        Err(_) => Vec::new(),
    }
}

#[cfg(not(feature = "http-mock"))]
async fn decode_answer(_bytes: &[u8], _content_type: Option<&str>) -> Vec<Value> {
    unreachable!("HTTP exchanges are only recorded with the http-mock feature")
}

/// Judges one client check; returns the finding and its evidence.
pub(crate) fn evaluate(id: CheckId, sent: &[Sent], events: &[Event]) -> (Observed, Vec<Exchange>) {
    let requests: Vec<&Sent> = sent.iter().filter(|s| s.is_request()).collect();
    match id {
        CheckId::ClientRequestStateEchoed => request_state_echoed(&requests),
        CheckId::ClientRetryNewId => retry_new_id(&requests),
        CheckId::ClientNoInventedState => no_invented_state(&requests),
        CheckId::ClientInputIsolation => input_isolation(&requests),
        CheckId::ClientNoNetworkRef => no_network_ref(&requests, events),
        CheckId::ClientStandardHeaders => standard_headers(sent),
        CheckId::ClientToolCallArguments => tool_call_arguments(&requests),
        CheckId::ClientRequestMeta => request_meta(&requests),
        CheckId::ClientInfo => client_info(&requests),
        CheckId::ClientConsistentVersion => consistent_version(&requests),
        CheckId::ClientVersionRetry => version_retry(&requests),
        CheckId::ClientHttpVersionHeader => http_version_header(&requests),
        CheckId::ClientStdioCancellation => stdio_cancellation(sent),
        CheckId::ClientHonestCapabilities => honest_capabilities(&requests),
        CheckId::ClientParamHeadersMirrored => param_headers_mirrored(&requests),
        CheckId::ClientParamHeaderValues => param_header_values(&requests),
        CheckId::ClientParamHeaderBase64 => param_header_base64(&requests),
        CheckId::ClientParamHeaderOmitNull => param_header_omit_null(&requests),
        CheckId::ClientHttpSendsVersionHeader => http_sends_version_header(sent),
        CheckId::ClientCapabilityObjects => capability_objects(&requests),
        CheckId::ClientInvalidHeaderToolsUnused => invalid_header_tools_unused(&requests),
        CheckId::ClientDefaultResultType => default_result_type(&requests),
        CheckId::ClientSchemaCorePreserved => schema_preserved(&requests, SEP_1613_KEYWORDS),
        CheckId::ClientSchemaVocabularyPreserved => schema_preserved(&requests, SEP_2106_KEYWORDS),
        other => unreachable!("{other:?} is not a client check"),
    }
}

fn all(requests: &[&Sent]) -> Vec<Exchange> {
    requests.iter().map(|s| s.exchange()).collect()
}

/// Checks every request with `problem`; evidence is the offending requests,
/// or all of them when none offends.
fn every_request(
    requests: &[&Sent],
    problem: impl Fn(&Sent) -> Option<String>,
) -> (Observed, Vec<Exchange>) {
    if requests.is_empty() {
        return (
            Observed::NotApplicable("the client sent no request".into()),
            Vec::new(),
        );
    }
    let mut problems = Problems::default();
    let mut offending = Vec::new();
    for request in requests {
        if let Some(text) = problem(request) {
            problems.push(format!(
                "{} (id {}): {text}",
                request.method(),
                request.message["id"]
            ));
            offending.push(request.exchange());
        }
    }
    if problems.is_empty() {
        (Observed::holds(), all(requests))
    } else {
        (problems.into_finding(), offending)
    }
}

fn request_meta(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    if requests.is_empty() {
        return (
            Observed::Broken("the client sent no request to the mock server".into()),
            Vec::new(),
        );
    }
    every_request(requests, |request| {
        let Some(meta) = request.meta() else {
            return Some("no _meta".into());
        };
        let mut missing = Vec::new();
        if !meta.get(META_VERSION).is_some_and(Value::is_string) {
            missing.push(META_VERSION);
        }
        if !meta.get(META_CAPABILITIES).is_some_and(Value::is_object) {
            missing.push(META_CAPABILITIES);
        }
        (!missing.is_empty()).then(|| format!("_meta lacks {}", missing.join(" and ")))
    })
}

fn client_info(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    every_request(requests, |request| {
        let info = request.meta().and_then(|m| m.get(META_CLIENT_INFO));
        match info {
            Some(info)
                if ["name", "version"]
                    .iter()
                    .all(|f| info.get(f).is_some_and(Value::is_string)) =>
            {
                None
            }
            Some(info) => Some(format!("clientInfo {info} lacks a name or version string")),
            None => Some(format!("_meta has no {META_CLIENT_INFO}")),
        }
    })
}

fn consistent_version(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let Some(first) = requests
        .iter()
        .position(|r| r.answer.is_some() && r.answer_code() != Some(-32022))
    else {
        return (
            Observed::NotApplicable(
                "the mock accepted no request, so no version was chosen".into(),
            ),
            all(requests),
        );
    };
    let chosen = requests[first].version();
    let mut problems = Problems::default();
    let mut evidence = vec![requests[first].exchange()];
    for request in &requests[first + 1..] {
        if request.version() != chosen {
            problems.push(format!(
                "{} (id {}) uses version {} after {} was chosen",
                request.method(),
                request.message["id"],
                json!(request.version()),
                json!(chosen)
            ));
            evidence.push(request.exchange());
        }
    }
    if problems.is_empty() {
        (
            Observed::Holds(Some(format!("every request used {}", json!(chosen)))),
            all(requests),
        )
    } else {
        (problems.into_finding(), evidence)
    }
}

fn version_retry(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let mut problems = Problems::default();
    let mut evidence = Vec::new();
    let mut rejections = 0;
    for (at, request) in requests.iter().enumerate() {
        if request.answer_code() != Some(-32022) {
            continue;
        }
        rejections += 1;
        evidence.push(request.exchange());
        let supported: BTreeSet<String> = request
            .answer
            .as_ref()
            .and_then(|a| a["error"]["data"]["supported"].as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        match requests.get(at + 1) {
            None => problems.push(format!(
                "after -32022 for {} (id {}) the client sent no further request",
                request.method(),
                request.message["id"]
            )),
            Some(next) => {
                evidence.push(next.exchange());
                match next.version() {
                    Some(v) if supported.contains(v) => {}
                    other => problems.push(format!(
                        "after -32022 listing {supported:?} the client sent version {}",
                        json!(other)
                    )),
                }
            }
        }
    }
    if rejections == 0 {
        return (
            Observed::NotApplicable(
                "the mock never answered -32022: the client's first version was supported".into(),
            ),
            Vec::new(),
        );
    }
    (problems.into_finding(), evidence)
}

/// Judges only the requests that carry both versions: a missing header is
/// `sep-2575-client-http-sends-version-header`'s, a missing `_meta` one
/// `sep-2575-client-request-meta`'s.
fn http_version_header(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let both: Vec<&Sent> = requests
        .iter()
        .copied()
        .filter(|r| r.header("mcp-protocol-version").is_some() && r.version().is_some())
        .collect();
    if both.is_empty() && !requests.is_empty() {
        return (
            Observed::NotApplicable(
                "no request carried both an MCP-Protocol-Version header and a _meta \
                 protocolVersion to compare"
                    .into(),
            ),
            all(requests),
        );
    }
    every_request(&both, |request| {
        let header = request.header("mcp-protocol-version");
        let meta = request.version();
        (header != meta).then(|| {
            format!(
                "MCP-Protocol-Version header {} but _meta protocolVersion {}",
                json!(header),
                json!(meta)
            )
        })
    })
}

/// The client's HTTP POSTs of JSON-RPC requests and notifications.
fn posts(sent: &[Sent]) -> Vec<&Sent> {
    sent.iter()
        .filter(|s| s.transport == Transport::Http && s.message.get("method").is_some())
        .collect()
}

fn http_sends_version_header(sent: &[Sent]) -> (Observed, Vec<Exchange>) {
    let posts = posts(sent);
    if posts.is_empty() {
        return (
            Observed::NotApplicable("the client sent no request over HTTP".into()),
            Vec::new(),
        );
    }
    let mut problems = Problems::default();
    let mut offending = Vec::new();
    for post in &posts {
        if post.header("mcp-protocol-version").is_none() {
            problems.push(format!(
                "{} has no MCP-Protocol-Version header",
                post.method()
            ));
            offending.push(post.exchange());
        }
    }
    if problems.is_empty() {
        (
            Observed::holds(),
            posts.iter().map(|p| p.exchange()).collect(),
        )
    } else {
        (problems.into_finding(), offending)
    }
}

fn capability_objects(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let declaring: Vec<&Sent> = requests
        .iter()
        .copied()
        .filter(|r| {
            r.meta()
                .and_then(|m| m.get(META_CAPABILITIES))
                .and_then(Value::as_object)
                .is_some_and(|c| !c.is_empty())
        })
        .collect();
    if declaring.is_empty() {
        return (
            Observed::NotApplicable("no request of the client declared a client capability".into()),
            Vec::new(),
        );
    }
    every_request(&declaring, |request| {
        let capabilities = request.meta()?.get(META_CAPABILITIES)?.as_object()?;
        let wrong: Vec<String> = capabilities
            .iter()
            .filter(|(_, value)| !value.is_object())
            .map(|(name, value)| format!("{name} is {value}"))
            .collect();
        (!wrong.is_empty()).then(|| {
            format!(
                "clientCapabilities members must be objects: {}",
                wrong.join(", ")
            )
        })
    })
}

fn stdio_cancellation(sent: &[Sent]) -> (Observed, Vec<Exchange>) {
    let mut problems = Problems::default();
    let mut evidence = Vec::new();
    let mut slow_calls = 0;
    for (at, call) in sent.iter().enumerate() {
        if !(call.is_request() && call.tool() == Some("slow")) {
            continue;
        }
        slow_calls += 1;
        evidence.push(call.exchange());
        let id = &call.message["id"];
        let cancellations: Vec<&Sent> = sent[at + 1..]
            .iter()
            .filter(|s| s.method() == "notifications/cancelled" && s.message.get("id").is_none())
            .collect();
        evidence.extend(cancellations.iter().map(|s| s.exchange()));
        let named = cancellations
            .iter()
            .any(|s| s.message["params"]["requestId"] == *id);
        if !named {
            problems.push(if cancellations.is_empty() {
                format!("the slow call (id {id}) was never cancelled with notifications/cancelled")
            } else {
                format!("no notifications/cancelled names the slow call's id {id}")
            });
        }
    }
    if slow_calls == 0 {
        return (
            Observed::NotApplicable("the client never called the mock's `slow` tool".into()),
            Vec::new(),
        );
    }
    (problems.into_finding(), evidence)
}

fn honest_capabilities(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let mut problems = Problems::default();
    let mut evidence = Vec::new();
    let mut rounds = 0;
    let mut declined = Vec::new();
    for (at, ask) in requests.iter().enumerate() {
        if ask.tool() != Some("ask") || ask.message["params"].get("inputResponses").is_some() {
            continue;
        }
        let Some(result) = ask.answer.as_ref().and_then(|a| a.get("result")) else {
            if ask.answer_code() == Some(-32021) {
                declined.push(ask.exchange());
            }
            continue;
        };
        let Some(asked) = result.get("inputRequests").and_then(Value::as_object) else {
            continue;
        };
        rounds += 1;
        evidence.push(ask.exchange());
        let declared: Vec<&str> = ASKABLE
            .iter()
            .copied()
            .filter(|c| asked.contains_key(*c))
            .collect();
        let retry = requests[at + 1..].iter().find(|r| r.tool() == Some("ask"));
        let Some(retry) = retry else {
            problems.push(format!(
                "the client declared {declared:?} but never answered the mock's input requests"
            ));
            continue;
        };
        evidence.push(retry.exchange());
        let responses = retry.message["params"].get("inputResponses");
        for key in asked.keys() {
            match responses.and_then(|r| r.get(key)) {
                None | Some(Value::Null) => problems.push(format!(
                    "the client declared {key} but its retry has no inputResponses.{key}"
                )),
                Some(answer) if answer.get("error").is_some() || answer.get("code").is_some() => {
                    problems.push(format!(
                        "the client declared {key} but answered the {key} request with an error: {answer}"
                    ))
                }
                Some(_) => {}
            }
        }
    }
    if rounds == 0 {
        let reason = if declined.is_empty() {
            "the client never called the mock's `ask` tool".to_owned()
        } else {
            "the client declared none of elicitation, sampling, roots (the mock answered -32021)"
                .to_owned()
        };
        return (Observed::NotApplicable(reason), declined);
    }
    (problems.into_finding(), evidence)
}

/// A `tools/call` answered `input_required`, and the retry that answered it
/// (the next `tools/call` of the same tool carrying `inputResponses`).
struct Round<'a> {
    original: &'a Sent,
    /// The `requestState` the answer carried, if any.
    state: Option<&'a Value>,
    retry: Option<&'a Sent>,
}

fn input_required(request: &Sent) -> Option<&Value> {
    let result = request.answer.as_ref()?.get("result")?;
    (result.get("resultType").and_then(Value::as_str) == Some("input_required")).then_some(result)
}

fn carries_input(request: &Sent) -> bool {
    let params = &request.message["params"];
    params.get("inputResponses").is_some() || params.get("requestState").is_some()
}

fn rounds<'a>(requests: &[&'a Sent]) -> Vec<Round<'a>> {
    let mut rounds = Vec::new();
    for (at, request) in requests.iter().enumerate() {
        let Some(result) = input_required(request) else {
            continue;
        };
        let retry = requests[at + 1..]
            .iter()
            .find(|r| r.tool().is_some() && r.tool() == request.tool() && carries_input(r))
            .copied();
        rounds.push(Round {
            original: request,
            state: result.get("requestState"),
            retry,
        });
    }
    rounds
}

/// The reason a round-trip check has nothing to judge.
fn no_rounds(requests: &[&Sent], what: &str) -> Observed {
    let asked = requests.iter().any(|r| input_required(r).is_some());
    Observed::NotApplicable(if asked {
        format!("the client never retried {what}")
    } else {
        format!("no request of the client was answered input_required ({what})")
    })
}

fn request_state_echoed(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let mut problems = Problems::default();
    let mut evidence = Vec::new();
    let mut judged = 0;
    for round in rounds(requests) {
        let (Some(state), Some(retry)) = (round.state, round.retry) else {
            continue;
        };
        judged += 1;
        evidence.push(round.original.exchange());
        evidence.push(retry.exchange());
        match retry.message["params"].get("requestState") {
            Some(echoed) if echoed == state => {}
            Some(echoed) => problems.push(format!(
                "the retry of {:?} (id {}) sent requestState {echoed}, not the {state} it was given",
                retry.tool().unwrap_or_default(),
                retry.message["id"]
            )),
            None => problems.push(format!(
                "the retry of {:?} (id {}) left out requestState {state}",
                retry.tool().unwrap_or_default(),
                retry.message["id"]
            )),
        }
    }
    if judged == 0 {
        return (
            no_rounds(
                requests,
                "a result with a requestState (the mock's `confirm` tool)",
            ),
            Vec::new(),
        );
    }
    (problems.into_finding(), evidence)
}

fn default_result_type(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let untyped: Vec<(usize, &Sent)> = requests
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, r)| r.tool() == Some(UNTYPED_TOOL) && !carries_input(r))
        .filter(|(_, r)| {
            r.answer
                .as_ref()
                .and_then(|a| a.get("result"))
                .is_some_and(|result| result.get("resultType").is_none())
        })
        .collect();
    if untyped.is_empty() {
        return (
            Observed::NotApplicable(format!(
                "no answer to the client was a result without resultType (the mock's \
                 `{UNTYPED_TOOL}` tool gives one)"
            )),
            Vec::new(),
        );
    }
    let mut problems = Problems::default();
    let mut evidence = Vec::new();
    for (at, call) in &untyped {
        evidence.push(call.exchange());
        let retry = requests[at + 1..]
            .iter()
            .find(|r| r.tool() == Some(UNTYPED_TOOL) && carries_input(r));
        if let Some(retry) = retry {
            problems.push(format!(
                "the result of {UNTYPED_TOOL:?} (id {}) had no resultType, yet the client \
                 retried it with input (id {})",
                call.message["id"], retry.message["id"]
            ));
            evidence.push(retry.exchange());
        }
    }
    (problems.into_finding(), evidence)
}

fn retry_new_id(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let mut problems = Problems::default();
    let mut evidence = Vec::new();
    let mut judged = 0;
    for round in rounds(requests) {
        let Some(retry) = round.retry else { continue };
        judged += 1;
        evidence.push(round.original.exchange());
        evidence.push(retry.exchange());
        if retry.message["id"] == round.original.message["id"] {
            problems.push(format!(
                "the retry of {:?} reused JSON-RPC id {}",
                retry.tool().unwrap_or_default(),
                retry.message["id"]
            ));
        }
    }
    if judged == 0 {
        return (no_rounds(requests, "an input_required result"), Vec::new());
    }
    (problems.into_finding(), evidence)
}

fn no_invented_state(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let mut problems = Problems::default();
    let mut evidence = Vec::new();
    let mut judged = 0;
    for round in rounds(requests) {
        let (None, Some(retry)) = (round.state, round.retry) else {
            continue;
        };
        judged += 1;
        evidence.push(round.original.exchange());
        evidence.push(retry.exchange());
        if let Some(state) = retry.message["params"].get("requestState") {
            problems.push(format!(
                "the retry of {:?} (id {}) carries requestState {state}, though none was given",
                retry.tool().unwrap_or_default(),
                retry.message["id"]
            ));
        }
    }
    if judged == 0 {
        return (
            no_rounds(
                requests,
                "a result without requestState (the mock's `ask` tool)",
            ),
            Vec::new(),
        );
    }
    (problems.into_finding(), evidence)
}

fn input_isolation(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let rounds = rounds(requests);
    if rounds.is_empty() {
        return (no_rounds(requests, "an input_required result"), Vec::new());
    }
    let retries: Vec<&Sent> = rounds.iter().filter_map(|r| r.retry).collect();
    let mut problems = Problems::default();
    let mut evidence = Vec::new();
    for request in requests {
        if carries_input(request) && !retries.iter().any(|r| std::ptr::eq(*r, *request)) {
            problems.push(format!(
                "{} (id {}) carries inputResponses or requestState but retries no \
                 input_required request",
                request.method(),
                request.message["id"]
            ));
            evidence.push(request.exchange());
        }
    }
    if problems.is_empty() {
        let mut all = Vec::new();
        for round in &rounds {
            all.push(round.original.exchange());
            all.extend(round.retry.map(Sent::exchange));
        }
        return (
            Observed::Holds(Some(format!(
                "{} request(s) carried input, each the retry that was asked for",
                retries.len()
            ))),
            all,
        );
    }
    (problems.into_finding(), evidence)
}

fn no_network_ref(requests: &[&Sent], events: &[Event]) -> (Observed, Vec<Exchange>) {
    let listings: Vec<Exchange> = requests
        .iter()
        .filter(|r| r.method() == "tools/list" && r.answer.is_some())
        .map(|r| r.exchange())
        .collect();
    let hits: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::CanaryHit { peer } => Some(peer.as_str()),
            _ => None,
        })
        .collect();
    if !hits.is_empty() {
        return (
            Observed::Broken(format!(
                "the network $ref in `lookup`'s inputSchema was fetched ({} connection(s) to \
                 the canary URL, from {})",
                hits.len(),
                hits.join(", ")
            )),
            listings,
        );
    }
    if listings.is_empty() {
        return (
            Observed::NotApplicable(
                "the client never listed the mock's tools, so it never saw the $ref".into(),
            ),
            Vec::new(),
        );
    }
    (
        Observed::Holds(Some(
            "the client listed the tools and never connected to the $ref's URL".into(),
        )),
        listings,
    )
}

fn standard_headers(sent: &[Sent]) -> (Observed, Vec<Exchange>) {
    let posts = posts(sent);
    if posts.is_empty() {
        return (
            Observed::NotApplicable("the client sent no request over HTTP".into()),
            Vec::new(),
        );
    }
    let mut problems = Problems::default();
    let mut offending = Vec::new();
    for post in &posts {
        let method = post.method();
        let mut wrong = Vec::new();
        match post.header("mcp-method") {
            Some(header) if header == method => {}
            Some(header) => wrong.push(format!("Mcp-Method {header:?}")),
            None => wrong.push("no Mcp-Method".to_owned()),
        }
        let field = match method {
            "tools/call" | "prompts/get" => Some("name"),
            "resources/read" => Some("uri"),
            _ => None,
        };
        if let Some(field) = field {
            let expected = post.message["params"][field].as_str();
            match post.header("mcp-name") {
                Some(header) if Some(header) == expected => {}
                Some(header) => wrong.push(format!(
                    "Mcp-Name {header:?} but params.{field} {}",
                    json!(expected)
                )),
                None => wrong.push("no Mcp-Name".to_owned()),
            }
        }
        if !wrong.is_empty() {
            problems.push(format!("{method}: {}", wrong.join(", ")));
            offending.push(post.exchange());
        }
    }
    if problems.is_empty() {
        let named = ["tools/call", "prompts/get", "resources/read"];
        let unsent: Vec<&str> = named
            .iter()
            .copied()
            .filter(|m| !posts.iter().any(|p| p.method() == *m))
            .collect();
        let note = match unsent.as_slice() {
            [] => None,
            unsent => Some(format!(
                "Mcp-Name not exercised for {} (the client sent none)",
                unsent.join(", ")
            )),
        };
        (
            Observed::Holds(note),
            posts.iter().map(|s| s.exchange()).collect(),
        )
    } else {
        (problems.into_finding(), offending)
    }
}

/// Whether `schema` has a `$ref` that leaves the document (validating
/// against it would mean fetching it, which is what SEP-2106 forbids).
fn has_remote_ref(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| {
            (key == "$ref" && value.as_str().is_some_and(|r| !r.starts_with('#')))
                || has_remote_ref(value)
        }),
        Value::Array(items) => items.iter().any(has_remote_ref),
        _ => false,
    }
}

fn tool_call_arguments(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let calls: Vec<&Sent> = requests
        .iter()
        .copied()
        .filter(|r| r.tool().is_some())
        .collect();
    if calls.is_empty() {
        return (
            Observed::NotApplicable("the client called no tool".into()),
            Vec::new(),
        );
    }
    let listed = listed_tools(requests);
    if listed.is_empty() {
        return (
            Observed::NotApplicable(
                "the client never listed the mock's tools, so its calls cannot be judged \
                 against their definitions"
                    .into(),
            ),
            calls.iter().map(|c| c.exchange()).collect(),
        );
    }
    let mut problems = Problems::default();
    let mut offending = Vec::new();
    for call in &calls {
        let name = call.tool().unwrap_or_default();
        let Some(tool) = listed.iter().find(|t| t["name"] == name) else {
            problems.push(format!(
                "tools/call of {name:?}, which the mock never listed"
            ));
            offending.push(call.exchange());
            continue;
        };
        let schema = &tool["inputSchema"];
        if has_remote_ref(schema) {
            continue;
        }
        let arguments = call.message["params"]
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| json!({}));
        if let Err(why) = validate_schema(schema, &arguments) {
            problems.push(format!(
                "tools/call of {name:?} with arguments {arguments}: {why}"
            ));
            offending.push(call.exchange());
        }
    }
    if problems.is_empty() {
        (
            Observed::holds(),
            calls.iter().map(|c| c.exchange()).collect(),
        )
    } else {
        (problems.into_finding(), offending)
    }
}

/// The tools the mock listed to the client, from its `tools/list` answers.
fn listed_tools(requests: &[&Sent]) -> Vec<Value> {
    requests
        .iter()
        .filter(|r| r.method() == "tools/list")
        .filter_map(|r| {
            r.answer
                .as_ref()?
                .get("result")?
                .get("tools")?
                .as_array()
                .cloned()
        })
        .flatten()
        .collect()
}

/// A property marked `x-mcp-header` in a tool's input schema, reached from
/// the root through `properties` alone.
#[derive(Debug, Clone)]
struct Marked {
    /// The property names from the root to it.
    path: Vec<String>,
    /// The header's name: `Mcp-Param-` and the annotation.
    header: String,
}

fn marked_properties(schema: &Value) -> Vec<Marked> {
    fn walk(schema: &Value, path: &mut Vec<String>, out: &mut Vec<Marked>) {
        let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
            return;
        };
        for (name, property) in properties {
            path.push(name.clone());
            if let Some(suffix) = property.get("x-mcp-header").and_then(Value::as_str)
                && !suffix.is_empty()
            {
                out.push(Marked {
                    path: path.clone(),
                    header: format!("Mcp-Param-{suffix}"),
                });
            }
            walk(property, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(schema, &mut Vec::new(), &mut out);
    out
}

/// One argument marked `x-mcp-header` in one `tools/call` over HTTP.
struct MarkedArgument<'a> {
    call: &'a Sent,
    /// The property's dotted path.
    property: String,
    header: String,
    /// The argument; `None` when it is left out or null.
    value: Option<&'a Value>,
    /// The header's value as sent, if it was.
    sent: Option<&'a str>,
}

/// The `tools/call`s over HTTP of tools with arguments marked
/// `x-mcp-header`, and those arguments; the reason there is nothing to
/// judge when the client made no such call.
fn marked_calls<'a>(
    requests: &[&'a Sent],
) -> Result<(Vec<&'a Sent>, Vec<MarkedArgument<'a>>), Observed> {
    let listed = listed_tools(requests);
    let mut calls = Vec::new();
    let mut arguments = Vec::new();
    for call in requests.iter().copied() {
        let Some(name) = call.tool() else { continue };
        if call.transport != Transport::Http {
            continue;
        }
        let Some(tool) = listed.iter().find(|t| t["name"] == name) else {
            continue;
        };
        // A tool with invalid annotations is not to be called at all
        // (`sep-2243-client-rejects-invalid-header-tools`).
        if invalid_annotation(&tool["inputSchema"]).is_some() {
            continue;
        }
        let marked = marked_properties(&tool["inputSchema"]);
        if marked.is_empty() {
            continue;
        }
        calls.push(call);
        for property in marked {
            let value = property
                .path
                .iter()
                .try_fold(&call.message["params"]["arguments"], |v, key| v.get(key))
                .filter(|v| !v.is_null());
            arguments.push(MarkedArgument {
                call,
                property: property.path.join("."),
                sent: call.header(&property.header),
                header: property.header,
                value,
            });
        }
    }
    if calls.is_empty() {
        return Err(Observed::NotApplicable(
            "the client never called, over HTTP, a listed tool with arguments marked \
             x-mcp-header (the mock's `forecast`)"
                .into(),
        ));
    }
    Ok((calls, arguments))
}

/// Whether a string must travel Base64-wrapped in a header: non-ASCII or
/// control characters, or whitespace at either end.
fn needs_base64(text: &str) -> bool {
    text.chars().any(|c| !(' '..='~').contains(&c))
        || text.starts_with([' ', '\t'])
        || text.ends_with([' ', '\t'])
}

const BASE64_PREFIX: &str = "=?base64?";
const BASE64_SUFFIX: &str = "?=";

/// A header value as the text it stands for: the decoded form of
/// `=?base64?...?=`, else the value itself.
fn decode_param(raw: &str) -> Result<String, String> {
    use base64::Engine as _;
    let Some(inner) = raw
        .strip_prefix(BASE64_PREFIX)
        .and_then(|r| r.strip_suffix(BASE64_SUFFIX))
    else {
        return Ok(raw.to_owned());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(inner)
        .map_err(|e| format!("{raw:?} is not valid Base64: {e}"))?;
    String::from_utf8(bytes).map_err(|_| format!("{raw:?} does not decode to UTF-8"))
}

/// Judges the marked arguments `judge` picks (`Some(problem)` or
/// `Some(None)`; `None`: not this check's business).
fn judge_marked(
    requests: &[&Sent],
    nothing: &str,
    judge: impl Fn(&MarkedArgument) -> Option<Option<String>>,
) -> (Observed, Vec<Exchange>) {
    let (calls, arguments) = match marked_calls(requests) {
        Ok(found) => found,
        Err(finding) => return (finding, Vec::new()),
    };
    let mut judged = 0;
    let mut problems = Problems::default();
    let mut offending: Vec<&Sent> = Vec::new();
    for argument in &arguments {
        let Some(status) = judge(argument) else {
            continue;
        };
        judged += 1;
        if let Some(problem) = status {
            problems.push(format!(
                "tools/call (id {}) `{}`: {problem}",
                argument.call.message["id"], argument.property
            ));
            if !offending.iter().any(|c| std::ptr::eq(*c, argument.call)) {
                offending.push(argument.call);
            }
        }
    }
    let evidence = |calls: &[&Sent]| calls.iter().map(|c| c.exchange()).collect();
    if judged == 0 {
        return (
            Observed::NotApplicable(nothing.to_owned()),
            evidence(&calls),
        );
    }
    if problems.is_empty() {
        (Observed::holds(), evidence(&calls))
    } else {
        (problems.into_finding(), evidence(&offending))
    }
}

fn param_headers_mirrored<'a>(requests: &[&'a Sent]) -> (Observed, Vec<Exchange>) {
    let (calls, arguments) = match marked_calls(requests) {
        Ok(found) => found,
        Err(finding) => return (finding, Vec::new()),
    };
    let mut problems = Problems::default();
    let mut offending: Vec<&Sent> = Vec::new();
    let mut note = |call: &'a Sent, problem: String| {
        problems.push(format!("tools/call (id {}): {problem}", call.message["id"]));
        offending.push(call);
    };
    for argument in &arguments {
        let Some(value) = argument.value else {
            continue;
        };
        let problem = match (argument.sent, value) {
            (None, _) => Some(format!(
                "`{}` has a value but no {} header",
                argument.property, argument.header
            )),
            // Plain strings are compared here; the text of numbers, booleans
            // and strings that need Base64 is judged by their own checks.
            (Some(raw), Value::String(text)) if !needs_base64(text) => match decode_param(raw) {
                Ok(decoded) if decoded == *text => None,
                Ok(decoded) => Some(format!(
                    "{} {decoded:?} but `{}` is {text:?}",
                    argument.header, argument.property
                )),
                Err(why) => Some(format!("{}: {why}", argument.header)),
            },
            (Some(_), _) => None,
        };
        if let Some(problem) = problem {
            note(argument.call, problem);
        }
    }
    // No Mcp-Param header for an argument that is not marked.
    for call in &calls {
        for (name, value) in &call.headers {
            let is_param = name
                .get(..10)
                .is_some_and(|p| p.eq_ignore_ascii_case("mcp-param-"));
            let marked = arguments
                .iter()
                .any(|a| std::ptr::eq(a.call, *call) && a.header.eq_ignore_ascii_case(name));
            if is_param && !marked {
                note(
                    call,
                    format!(
                        "{name} {value:?} sent, but no argument of {:?} is marked \
                         x-mcp-header with that name",
                        call.tool().unwrap_or_default()
                    ),
                );
            }
        }
    }
    offending.dedup_by(|a, b| std::ptr::eq(*a, *b));
    let shown = if problems.is_empty() {
        &calls
    } else {
        &offending
    };
    let evidence = shown.iter().map(|c| c.exchange()).collect();
    (problems.into_finding(), evidence)
}

fn param_header_values(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    judge_marked(
        requests,
        "no integer or boolean argument marked x-mcp-header was mirrored",
        |argument| {
            let raw = argument.sent?;
            let value = argument.value?;
            if !(value.is_number() || value.is_boolean()) {
                return None;
            }
            let decoded = match decode_param(raw) {
                Ok(decoded) => decoded,
                Err(why) => return Some(Some(format!("{}: {why}", argument.header))),
            };
            let right = match value {
                Value::Bool(b) => decoded == b.to_string(),
                _ => decoded
                    .parse::<f64>()
                    .ok()
                    .zip(value.as_f64())
                    .is_some_and(|(sent, wanted)| (sent - wanted).abs() <= 1e-9),
            };
            Some((!right).then(|| {
                format!(
                    "{} {raw:?} does not write the argument {value}",
                    argument.header
                )
            }))
        },
    )
}

fn param_header_base64(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    judge_marked(
        requests,
        "no string argument marked x-mcp-header needed Base64 (non-ASCII or control \
         characters, whitespace at either end)",
        |argument| {
            let raw = argument.sent?;
            let text = argument.value?.as_str().filter(|t| needs_base64(t))?;
            let wrapped = raw.starts_with(BASE64_PREFIX) && raw.ends_with(BASE64_SUFFIX);
            Some(match decode_param(raw) {
                _ if !wrapped => Some(format!(
                    "{} {raw:?} is not =?base64?...?=, though the argument {text:?} needs it",
                    argument.header
                )),
                Ok(decoded) if decoded == text => None,
                Ok(decoded) => Some(format!(
                    "{} decodes to {decoded:?}, not the argument {text:?}",
                    argument.header
                )),
                Err(why) => Some(format!("{}: {why}", argument.header)),
            })
        },
    )
}

fn param_header_omit_null(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    judge_marked(
        requests,
        "every argument marked x-mcp-header had a value in every call",
        |argument| {
            if argument.value.is_some() {
                return None;
            }
            Some(argument.sent.map(|raw| {
                format!(
                    "the argument is null or left out, yet {} {raw:?} was sent",
                    argument.header
                )
            }))
        },
    )
}

/// Why a tool's `x-mcp-header` annotations are invalid, if they are: each
/// must be a non-empty HTTP token (RFC 9110), unique ignoring case, on a
/// `string`, `integer` or `boolean` property.
fn invalid_annotation(schema: &Value) -> Option<String> {
    fn walk(schema: &Value, seen: &mut Vec<String>) -> Option<String> {
        let properties = schema.get("properties")?.as_object()?;
        for (name, property) in properties {
            if let Some(header) = property.get("x-mcp-header") {
                let Some(header) = header.as_str() else {
                    return Some(format!("`{name}`: x-mcp-header {header} is not a string"));
                };
                let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
                if header.is_empty() {
                    return Some(format!("`{name}`: x-mcp-header is empty"));
                }
                if !header.chars().all(token) {
                    return Some(format!(
                        "`{name}`: x-mcp-header {header:?} is not an HTTP token"
                    ));
                }
                let lower = header.to_ascii_lowercase();
                if seen.contains(&lower) {
                    return Some(format!(
                        "`{name}`: x-mcp-header {header:?} is used twice (ignoring case)"
                    ));
                }
                seen.push(lower);
                let kind = property.get("type").and_then(Value::as_str);
                if !matches!(kind, Some("string" | "integer" | "boolean")) {
                    return Some(format!(
                        "`{name}`: x-mcp-header on a property of type {}, not string, integer or \
                         boolean",
                        property.get("type").unwrap_or(&Value::Null)
                    ));
                }
            }
            if let Some(reason) = walk(property, seen) {
                return Some(reason);
            }
        }
        None
    }
    walk(schema, &mut Vec::new())
}

fn invalid_header_tools_unused(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let listed = listed_tools(requests);
    let invalid: Vec<(&str, String)> = listed
        .iter()
        .filter_map(|t| Some((t["name"].as_str()?, invalid_annotation(&t["inputSchema"])?)))
        .collect();
    if invalid.is_empty() {
        return (
            Observed::NotApplicable(
                "the client never listed a tool with invalid x-mcp-header annotations (the \
                 mock's `tag_*`)"
                    .into(),
            ),
            Vec::new(),
        );
    }
    let mut problems = Problems::default();
    let mut offending = Vec::new();
    for call in requests.iter().filter(|r| r.transport == Transport::Http) {
        let Some(name) = call.tool() else { continue };
        if let Some((_, why)) = invalid.iter().find(|(n, _)| *n == name) {
            problems.push(format!(
                "tools/call (id {}) of {name:?}, whose annotations are invalid: {why}",
                call.message["id"]
            ));
            offending.push(call.exchange());
        }
    }
    if !problems.is_empty() {
        return (problems.into_finding(), offending);
    }
    let names: Vec<&str> = invalid.iter().map(|(n, _)| *n).collect();
    match marked_calls(requests) {
        Ok((calls, _)) => (
            Observed::Holds(Some(format!(
                "the client called tools with valid x-mcp-header annotations and none of {}",
                names.join(", ")
            ))),
            calls.iter().map(|c| c.exchange()).collect(),
        ),
        Err(_) => (
            Observed::NotApplicable(format!(
                "the client called no tool with arguments marked x-mcp-header, so leaving {} \
                 alone shows nothing",
                names.join(", ")
            )),
            Vec::new(),
        ),
    }
}

/// The JSON Schema 2020-12 keywords SEP-1613 made part of tool schemas.
const SEP_1613_KEYWORDS: &[&str] = &["$schema", "$defs", "additionalProperties"];
/// The wider vocabulary SEP-2106 keeps in tool schemas.
const SEP_2106_KEYWORDS: &[&str] = &[
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$anchor",
];

/// Where each of `keywords` occurs in `schema`: the JSON pointer of the
/// keyword itself, and its value.
fn keyword_places<'a>(schema: &'a Value, keywords: &[&str]) -> Vec<(String, &'a Value)> {
    fn walk<'a>(
        value: &'a Value,
        at: String,
        keywords: &[&str],
        out: &mut Vec<(String, &'a Value)>,
    ) {
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    let here = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
                    if keywords.contains(&key.as_str()) {
                        out.push((here.clone(), inner));
                    }
                    walk(inner, here, keywords, out);
                }
            }
            Value::Array(items) => {
                for (index, inner) in items.iter().enumerate() {
                    walk(inner, format!("{at}/{index}"), keywords, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(schema, String::new(), keywords, &mut out);
    out
}

/// Whether a keyword's value survived: the same scalar, an object with the
/// same members, an array as long. What lies deeper is judged at its own
/// keyword, so that each check sees only the losses of its own keywords.
fn kept(listed: &Value, echoed: &Value) -> bool {
    match (listed, echoed) {
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.keys().all(|k| b.contains_key(k))
        }
        (Value::Array(a), Value::Array(b)) => a.len() == b.len(),
        (a, b) => a == b,
    }
}

fn schema_preserved(requests: &[&Sent], keywords: &[&str]) -> (Observed, Vec<Exchange>) {
    let echoes: Vec<&Sent> = requests
        .iter()
        .copied()
        .filter(|r| r.tool() == Some("schema_echo"))
        .collect();
    if echoes.is_empty() {
        return (
            Observed::NotApplicable(
                "the client never passed a tool's inputSchema back through the mock's \
                 `schema_echo` tool"
                    .into(),
            ),
            Vec::new(),
        );
    }
    let listed = listed_tools(requests);
    let mut problems = Problems::default();
    let mut judged = 0;
    for echo in &echoes {
        let arguments = &echo.message["params"]["arguments"];
        let name = arguments["tool"].as_str().unwrap_or_default();
        let Some(tool) = listed.iter().find(|t| t["name"] == name) else {
            problems.push(format!(
                "schema_echo (id {}) names {}, which the mock never listed to the client",
                echo.message["id"], arguments["tool"]
            ));
            continue;
        };
        let places = keyword_places(&tool["inputSchema"], keywords);
        if places.is_empty() {
            continue;
        }
        judged += 1;
        let echoed = &arguments["schema"];
        let lost: Vec<String> = places
            .iter()
            .filter_map(|(pointer, value)| match echoed.pointer(pointer) {
                None => Some(format!("{pointer} is gone")),
                Some(other) if !kept(value, other) => Some(format!("{pointer} became {other}")),
                Some(_) => None,
            })
            .collect();
        if !lost.is_empty() {
            problems.push(format!(
                "the inputSchema of {name:?} echoed (id {}) lost what was listed: {}",
                echo.message["id"],
                lost.join(", ")
            ));
        }
    }
    let mut evidence: Vec<Exchange> = requests
        .iter()
        .filter(|r| r.method() == "tools/list" && r.answer.is_some())
        .map(|r| r.exchange())
        .collect();
    evidence.extend(echoes.iter().map(|e| e.exchange()));
    if judged == 0 && problems.is_empty() {
        return (
            Observed::NotApplicable(format!(
                "no schema the client echoed has any of {} (the mock's `contact` has them)",
                keywords.join(", ")
            )),
            evidence,
        );
    }
    (problems.into_finding(), evidence)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(message: Value) -> Event {
        Event::FromClient {
            raw: message.to_string(),
            message: Some(message),
        }
    }

    fn mock(message: Value) -> Event {
        Event::FromMock { message }
    }

    fn meta(version: &str) -> Value {
        json!({
            META_VERSION: version,
            META_CAPABILITIES: {},
            META_CLIENT_INFO: {"name": "c", "version": "1"},
        })
    }

    #[tokio::test]
    async fn answers_are_matched_to_requests_by_id() {
        let events = [
            line(
                json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta("2099-12-31")}}),
            ),
            mock(
                json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32022, "data": {"supported": ["2026-07-28"], "requested": "2099-12-31"}}}),
            ),
            line(
                json!({"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": {"_meta": meta("2026-07-28")}}),
            ),
            mock(json!({"jsonrpc": "2.0", "id": 2, "result": {}})),
            line(
                json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": meta("2026-07-28")}}),
            ),
        ];
        let sent = sent_messages(&events).await;
        assert_eq!(sent.len(), 3);
        assert_eq!(sent[0].answer_code(), Some(-32022));
        assert!(sent[1].answer.is_some());
        assert!(sent[2].answer.is_none());
        let (finding, _) = evaluate(CheckId::ClientVersionRetry, &sent, &events);
        assert_eq!(finding, Observed::holds());
        let (finding, _) = evaluate(CheckId::ClientConsistentVersion, &sent, &events);
        assert!(matches!(finding, Observed::Holds(_)), "{finding:?}");
        let (finding, _) = evaluate(CheckId::ClientRequestMeta, &sent, &events);
        assert_eq!(finding, Observed::holds());
    }

    #[tokio::test]
    async fn a_flip_after_the_version_is_chosen_is_reported() {
        let events = [
            line(
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta("2026-07-28")}}),
            ),
            mock(json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}})),
            line(
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta("2025-11-25")}}),
            ),
        ];
        let sent = sent_messages(&events).await;
        let (finding, evidence) = evaluate(CheckId::ClientConsistentVersion, &sent, &events);
        assert!(
            matches!(&finding, Observed::Broken(r) if r.contains("uses version \"2025-11-25\" after \"2026-07-28\"")),
            "{finding:?}"
        );
        assert_eq!(evidence.len(), 2);
    }

    #[test]
    fn unsafe_header_values_are_the_ones_that_need_base64() {
        for plain in ["us-west1", "us west 1", "", "42", "=x"] {
            assert!(!needs_base64(plain), "{plain:?}");
        }
        for unsafe_ in [
            " padded",
            "trailing ",
            "\tindented",
            "line1\nline2",
            "Zürich",
            "世界",
        ] {
            assert!(needs_base64(unsafe_), "{unsafe_:?}");
        }
        assert_eq!(decode_param("=?base64?WsO8cmljaA==?=").unwrap(), "Zürich");
        assert_eq!(decode_param("plain").unwrap(), "plain");
        assert!(decode_param("=?base64?***?=").is_err());
    }

    #[test]
    fn keywords_are_found_where_they_are_and_judged_one_level_deep() {
        let schema = json!({
            "$defs": {"a": {"$anchor": "a", "type": "string"}},
            "allOf": [{"anyOf": [{"required": ["x"]}]}],
            "properties": {"a/b": {"not": {"type": "null"}}},
        });
        let mut pointers: Vec<String> = keyword_places(&schema, SEP_2106_KEYWORDS)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        pointers.sort();
        assert_eq!(
            pointers,
            [
                "/$defs/a/$anchor",
                "/allOf",
                "/allOf/0/anyOf",
                "/properties/a~1b/not"
            ]
        );
        // $defs without the inner $anchor still has its members.
        assert!(kept(&schema["$defs"], &json!({"a": {"type": "string"}})));
        assert!(!kept(&schema["$defs"], &json!({})));
        assert!(!kept(&schema["allOf"], &json!([])));
        assert!(!kept(&json!(false), &json!(true)));
    }

    /// A `tools/list` answered with `forecast`, then one `tools/call` of it
    /// over HTTP with `arguments` and `headers`.
    fn forecast_call(arguments: Value, headers: &[(&str, &str)]) -> Vec<Sent> {
        let sent = |message: Value, answer: Option<Value>, headers: &[(&str, &str)]| Sent {
            transport: Transport::Http,
            raw: message.to_string(),
            message,
            headers: headers
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
            answer,
            http: None,
        };
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "days": {"type": "integer", "x-mcp-header": "Days"},
            "metric": {"type": "boolean", "x-mcp-header": "Metric"},
            "label": {"type": "string", "x-mcp-header": "Label"},
        }});
        vec![
            sent(
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
                Some(json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
                    {"name": "forecast", "inputSchema": schema},
                ]}})),
                &[],
            ),
            sent(
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "forecast", "arguments": arguments}}),
                None,
                headers,
            ),
        ]
    }

    fn statuses(sent: &[Sent]) -> Vec<bool> {
        let requests: Vec<&Sent> = sent.iter().collect();
        [
            param_headers_mirrored(&requests),
            param_header_values(&requests),
            param_header_base64(&requests),
            param_header_omit_null(&requests),
        ]
        .into_iter()
        .map(|(finding, _)| !matches!(finding, Observed::Broken(_)))
        .collect()
    }

    #[test]
    fn param_headers_are_judged_by_the_encoding_rules() {
        let arguments = json!({"region": "", "days": 3, "metric": true, "label": "é", "x": 1});
        // An empty string is an empty value; 3.0 is the number 3.
        let good = [
            ("mcp-param-region", ""),
            ("mcp-param-days", "3.0"),
            ("mcp-param-metric", "true"),
            ("mcp-param-label", "=?base64?w6k=?="),
        ];
        assert_eq!(
            statuses(&forecast_call(arguments.clone(), &good)),
            [true; 4]
        );
        let mut wrong = good;
        wrong[1] = ("mcp-param-days", "4");
        wrong[3] = ("mcp-param-label", "é");
        assert_eq!(
            statuses(&forecast_call(arguments.clone(), &wrong)),
            [true, false, false, true]
        );
        // A null argument has no header; a header for it breaks the rule.
        let null = json!({"region": "r", "metric": null});
        assert_eq!(
            statuses(&forecast_call(null.clone(), &[("mcp-param-region", "r")])),
            [true, true, true, true]
        );
        let (finding, _) = param_header_omit_null(
            &forecast_call(null, &[("mcp-param-region", "r"), ("Mcp-Param-Metric", "")])
                .iter()
                .collect::<Vec<_>>(),
        );
        assert!(
            matches!(&finding, Observed::Broken(r) if r.contains("`metric`")),
            "{finding:?}"
        );
    }

    #[test]
    fn invalid_annotations_say_why() {
        let schema = |properties: Value| json!({"type": "object", "properties": properties});
        let why = |properties: Value| invalid_annotation(&schema(properties)).unwrap_or_default();
        assert_eq!(
            invalid_annotation(&schema(json!({
                "a": {"type": "string", "x-mcp-header": "Region"},
                "b": {"type": "integer", "x-mcp-header": "X-Count_2"},
            }))),
            None
        );
        assert!(why(json!({"a": {"type": "string", "x-mcp-header": ""}})).contains("empty"));
        assert!(why(json!({"a": {"type": "string", "x-mcp-header": "A:B"}})).contains("token"));
        assert!(why(json!({"a": {"type": "string", "x-mcp-header": "Région"}})).contains("token"));
        assert!(
            why(json!({
                "a": {"type": "string", "x-mcp-header": "Tag"},
                "b": {"type": "string", "x-mcp-header": "TAG"},
            }))
            .contains("twice")
        );
        assert!(why(json!({"a": {"type": "array", "x-mcp-header": "A"}})).contains("\"array\""));
        assert!(why(json!({"a": {"type": "number", "x-mcp-header": "A"}})).contains("number"));
    }

    #[test]
    fn marked_properties_follow_properties_only() {
        let schema = json!({
            "type": "object",
            "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "empty": {"type": "string", "x-mcp-header": ""},
                "nested": {"type": "object", "properties": {
                    "zone": {"type": "string", "x-mcp-header": "Zone"},
                }},
                "plain": {"type": "string"},
            },
            "$defs": {"x": {"type": "string", "x-mcp-header": "Defs"}},
        });
        let mut headers: Vec<(String, String)> = marked_properties(&schema)
            .into_iter()
            .map(|m| (m.path.join("."), m.header))
            .collect();
        headers.sort();
        assert_eq!(
            headers,
            [
                ("nested.zone".to_owned(), "Mcp-Param-Zone".to_owned()),
                ("region".to_owned(), "Mcp-Param-Region".to_owned()),
            ]
        );
    }

    #[cfg(feature = "http-mock")]
    #[tokio::test]
    async fn sse_answers_are_decoded() {
        let body = b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";
        assert_eq!(
            decode_answer(body, Some("text/event-stream")).await,
            [json!({"jsonrpc": "2.0", "id": 1, "result": {}})]
        );
        assert_eq!(
            decode_answer(b"{\"a\":1}", Some("application/json")).await,
            [json!({"a": 1})]
        );
    }
}
