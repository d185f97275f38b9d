//! Client checks of the stateless revision (SEP-2575): every request
//! carries its version, identity and capabilities in `_meta`, the version
//! stays the one chosen (and a -32022 is answered with a supported one),
//! HTTP requests carry the version header too, a call is cancelled with
//! `notifications/cancelled`, and a declared capability is honoured.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::{Judgement, all, every_request, posts};
use crate::model::{Exchange, Observed, Problems};
use crate::support::message::{META_CAPABILITIES, META_CLIENT_INFO, META_VERSION};
use crate::support::recording_server::ASKABLE;
use crate::support::transcript::Sent;

pub(crate) fn request_meta(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
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

pub(crate) fn client_info(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
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

pub(crate) fn consistent_version(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
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

pub(crate) fn version_retry(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let mut judgement = Judgement::default();
    for (at, request) in requests.iter().enumerate() {
        if request.answer_code() != Some(-32022) {
            continue;
        }
        let supported: BTreeSet<String> = request
            .answer
            .as_ref()
            .and_then(|a| a["error"]["data"]["supported"].as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        let next = requests.get(at + 1);
        let problem = match next.map(|n| n.version()) {
            None => Some(format!(
                "after -32022 for {} (id {}) the client sent no further request",
                request.method(),
                request.message["id"]
            )),
            Some(Some(v)) if supported.contains(v) => None,
            Some(other) => Some(format!(
                "after -32022 listing {supported:?} the client sent version {}",
                json!(other)
            )),
        };
        let evidence = std::iter::once(request.exchange()).chain(next.map(|n| n.exchange()));
        judgement.case(evidence, problem);
    }
    judgement.finding(|| {
        Observed::NotApplicable(
            "the mock never answered -32022: the client's first version was supported".into(),
        )
    })
}

/// Judges only the requests that carry both versions: a missing header is
/// `sep-2575-client-http-sends-version-header`'s, a missing `_meta` one
/// `sep-2575-client-request-meta`'s.
pub(crate) fn http_version_header(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
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

pub(crate) fn http_sends_version_header(sent: &[Sent]) -> (Observed, Vec<Exchange>) {
    let mut judgement = Judgement::default();
    for post in posts(sent) {
        let problem = post
            .header("mcp-protocol-version")
            .is_none()
            .then(|| format!("{} has no MCP-Protocol-Version header", post.method()));
        judgement.case([post.exchange()], problem);
    }
    judgement.finding_by_offenders(|| {
        Observed::NotApplicable("the client sent no request over HTTP".into())
    })
}

pub(crate) fn capability_objects(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
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

pub(crate) fn stdio_cancellation(sent: &[Sent]) -> (Observed, Vec<Exchange>) {
    let mut judgement = Judgement::default();
    for (at, call) in sent.iter().enumerate() {
        if !(call.is_request() && call.tool() == Some("slow")) {
            continue;
        }
        let id = &call.message["id"];
        let cancellations: Vec<&Sent> = sent[at + 1..]
            .iter()
            .filter(|s| s.method() == "notifications/cancelled" && s.message.get("id").is_none())
            .collect();
        let named = cancellations
            .iter()
            .any(|s| s.message["params"]["requestId"] == *id);
        let problem = (!named).then(|| {
            if cancellations.is_empty() {
                format!("the slow call (id {id}) was never cancelled with notifications/cancelled")
            } else {
                format!("no notifications/cancelled names the slow call's id {id}")
            }
        });
        let evidence =
            std::iter::once(call.exchange()).chain(cancellations.iter().map(|s| s.exchange()));
        judgement.case(evidence, problem);
    }
    judgement.finding(|| {
        Observed::NotApplicable("the client never called the mock's `slow` tool".into())
    })
}

pub(crate) fn honest_capabilities(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let mut judgement = Judgement::default();
    let mut declined = false;
    for (at, ask) in requests.iter().enumerate() {
        if ask.tool() != Some("ask") || ask.message["params"].get("inputResponses").is_some() {
            continue;
        }
        let Some(result) = ask.answer.as_ref().and_then(|a| a.get("result")) else {
            if ask.answer_code() == Some(-32021) {
                declined = true;
                judgement.set_aside(ask.exchange());
            }
            continue;
        };
        let Some(asked) = result.get("inputRequests").and_then(Value::as_object) else {
            continue;
        };
        let retry = requests[at + 1..].iter().find(|r| r.tool() == Some("ask"));
        let evidence = std::iter::once(ask.exchange()).chain(retry.map(|r| r.exchange()));
        judgement.case(evidence, unanswered_input(asked, retry.copied()));
    }
    judgement.finding(|| {
        Observed::NotApplicable(if declined {
            "the client declared none of elicitation, sampling, roots (the mock answered -32021)"
                .to_owned()
        } else {
            "the client never called the mock's `ask` tool".to_owned()
        })
    })
}

/// What the retry of `ask` failed to answer among the input requests
/// `asked` (one per capability the client declared).
fn unanswered_input(asked: &Map<String, Value>, retry: Option<&Sent>) -> Vec<String> {
    let Some(retry) = retry else {
        let declared: Vec<&str> = ASKABLE
            .iter()
            .copied()
            .filter(|c| asked.contains_key(*c))
            .collect();
        return vec![format!(
            "the client declared {declared:?} but never answered the mock's input requests"
        )];
    };
    let responses = retry.message["params"].get("inputResponses");
    let mut problems = Vec::new();
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
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::recording_server::Event;
    use crate::support::transcript::Transcript;

    fn line(message: Value) -> Event {
        Event::FromClient {
            raw: message.to_string(),
            message: Some(message),
        }
    }

    fn answer(message: Value) -> Event {
        Event::FromServer { message }
    }

    fn meta(version: &str) -> Value {
        json!({
            META_VERSION: version,
            META_CAPABILITIES: {},
            META_CLIENT_INFO: {"name": "c", "version": "1"},
        })
    }

    #[tokio::test]
    async fn a_retry_after_32022_uses_a_supported_version() {
        let events = [
            line(
                json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta("2099-12-31")}}),
            ),
            answer(
                json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32022, "data": {"supported": ["2026-07-28"], "requested": "2099-12-31"}}}),
            ),
            line(
                json!({"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": {"_meta": meta("2026-07-28")}}),
            ),
            answer(json!({"jsonrpc": "2.0", "id": 2, "result": {}})),
            line(
                json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": meta("2026-07-28")}}),
            ),
        ];
        let transcript = Transcript::of(&events).await;
        let requests = transcript.requests();
        assert_eq!(requests.len(), 3);
        assert_eq!(requests[0].answer_code(), Some(-32022));
        assert!(requests[1].answer.is_some());
        assert!(requests[2].answer.is_none());
        let (finding, _) = version_retry(&requests);
        assert_eq!(finding, Observed::holds());
        let (finding, _) = consistent_version(&requests);
        assert!(matches!(finding, Observed::Holds(_)), "{finding:?}");
        let (finding, _) = request_meta(&requests);
        assert_eq!(finding, Observed::holds());
    }

    #[tokio::test]
    async fn a_flip_after_the_version_is_chosen_is_reported() {
        let events = [
            line(
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta("2026-07-28")}}),
            ),
            answer(json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}})),
            line(
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta("2025-11-25")}}),
            ),
        ];
        let transcript = Transcript::of(&events).await;
        let (finding, evidence) = consistent_version(&transcript.requests());
        assert!(
            matches!(&finding, Observed::Broken(r) if r.contains("uses version \"2025-11-25\" after \"2026-07-28\"")),
            "{finding:?}"
        );
        assert_eq!(evidence.len(), 2);
    }
}
