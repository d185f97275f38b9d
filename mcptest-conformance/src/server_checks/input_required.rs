//! Server checks of input-required results (SEP-2322, "multi round-trip
//! requests") and of `resultType`, which every 2026-07-28 result carries.
//!
//! The request that needs input is found, never assumed: a tool the user
//! named ([`Conformance::input_tool`](super::Conformance::input_tool)), the
//! capability tool, or a tool or prompt whose description says it asks the
//! client for something (elicitation, sampling, roots, a confirmation) and
//! that needs no arguments. Each candidate is called with every client
//! capability declared; the first answered with `input_required` is the
//! subject. Without one the checks are skipped, saying what was tried.
//! `sep-2322-non-tool-round-trip` looks the same way for a prompt and a
//! resource (by its name or description) that ask for input.

use serde_json::{Map, Value, json};

use super::facts::{StatelessFacts, declares};
use super::listing::{INPUT_WORDS, callable_unnamed, list_items, mentions};
use crate::model::{Checked, Observed, Problems};
use crate::support::input_answers::{INPUT_METHODS, is_input_required, responses_for};
use crate::support::message::{meta, meta_with};
use crate::support::probe::{Ch, Probe};
use crate::support::revision::STATELESS;

/// The most rounds a round trip may take before it counts as not completing.
const MAX_ROUNDS: usize = 5;
/// The most discovered candidates called before giving up.
const MAX_CANDIDATES: usize = 6;

/// Every client capability an input request can need.
fn all_capabilities() -> Value {
    json!({ "elicitation": {}, "sampling": {}, "roots": {} })
}

/// A request that needs input, and its first answer.
#[derive(Debug, Clone)]
pub(crate) struct Subject {
    /// `tools/call`, `prompts/get` or `resources/read`.
    method: &'static str,
    /// Its params, without `_meta`, `inputResponses` or `requestState`.
    params: Value,
    /// How reasons name it: `tool "confirm"`.
    label: String,
    /// The `input_required` result of the first call.
    first: Value,
}

impl Subject {
    fn requests(&self) -> Option<&Map<String, Value>> {
        self.first.get("inputRequests").and_then(Value::as_object)
    }

    fn request_state(&self) -> Option<&str> {
        self.first.get("requestState").and_then(Value::as_str)
    }

    /// The params of a retry with these responses and state.
    fn retry(&self, responses: Value, state: Option<&str>) -> Value {
        let mut params = self.params.clone();
        params["inputResponses"] = responses;
        if let Some(state) = state {
            params["requestState"] = json!(state);
        }
        params
    }
}

/// A candidate request: method, params, label.
type Candidate = (&'static str, Value, String);

fn tool_call(name: &str, arguments: Value) -> Candidate {
    (
        "tools/call",
        json!({ "name": name, "arguments": arguments }),
        format!("tool {name:?}"),
    )
}

/// Finds the subject of the input-required checks on `ch`.
///
/// `Err` is the finding of a check without a subject: broken when the tool
/// the user named does not ask for input, skipped when nothing suitable
/// was found.
pub(crate) async fn find_subject(
    p: &mut Probe,
    ch: Ch,
    facts: &StatelessFacts,
) -> Result<Subject, Observed> {
    if let Some((name, arguments)) = p.settings.input_tool.clone() {
        let (method, params, label) = tool_call(&name, arguments);
        let reply = p
            .call_stateless(ch, method, params.clone(), meta_with(all_capabilities()))
            .await;
        return match reply.result() {
            Some(result) if is_input_required(result) => Ok(Subject {
                method,
                params,
                label,
                first: result.clone(),
            }),
            _ => Err(Observed::Broken(format!(
                "the input tool {name:?} (Conformance::input_tool), called with every client \
                 capability declared, got {}, not a result with resultType \"input_required\"",
                reply.describe_with_type()
            ))),
        };
    }
    let mut candidates = Vec::new();
    if let Some((name, arguments)) = p.settings.capability_tool.clone() {
        candidates.push(tool_call(&name, arguments));
    }
    let capabilities = facts.capabilities();
    if facts.discover.is_none() || declares(&capabilities, "tools") {
        for tool in list_items(p, ch, "tools/list", "tools").await {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            if callable_unnamed(&tool) && mentions_input(&tool) {
                candidates.push(tool_call(name, json!({})));
            }
        }
    }
    if facts.discover.is_none() || declares(&capabilities, "prompts") {
        candidates.extend(input_prompts(p, ch).await);
    }
    // The capability tool may also be found by its description: call it once.
    let mut seen = Vec::new();
    candidates.retain(|(method, params, _)| {
        let key = (*method, params.clone());
        let fresh = !seen.contains(&key);
        seen.push(key);
        fresh
    });
    let mut tried = Vec::new();
    if let Some(subject) = first_asking(p, ch, candidates, &mut tried).await {
        return Ok(subject);
    }
    Err(Observed::NotApplicable(if tried.is_empty() {
        "no tool or prompt that asks for input was found (none named with \
         Conformance::input_tool, and no description mentions elicitation, sampling, roots \
         or confirmation on one without required arguments)"
            .into()
    } else {
        format!(
            "no request asked for input: {} (name one with Conformance::input_tool)",
            tried.join("; ")
        )
    }))
}

/// Whether a tool's or prompt's name or description says it asks for input.
fn mentions_input(item: &Value) -> bool {
    mentions(item, INPUT_WORDS)
}

/// The client capability an input request method needs.
fn capability_of(method: &str) -> &'static str {
    match method {
        "sampling/createMessage" => "sampling",
        "roots/list" => "roots",
        _ => "elicitation",
    }
}

// ---- the checks ----

pub(crate) async fn result_type(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let mut problems = Problems::default();
    let mut seen = 0;
    for (method, params) in safe_requests(p, ch, facts).await {
        let reply = p.call_stateless(ch, method, params, meta(STATELESS)).await;
        let Some(result) = reply.result() else {
            continue;
        };
        seen += 1;
        match result.get("resultType") {
            Some(Value::String(_)) => {}
            Some(other) => problems.push(format!("{method} has resultType {other}, not a string")),
            None => problems.push(format!("the {method} result has no resultType")),
        }
    }
    if seen == 0 {
        return Ok(Observed::Broken(
            "no request got a result, so no resultType could be seen".into(),
        ));
    }
    Ok(problems.into_finding())
}

/// Requests without side effects whose results every server of the
/// revision gives: `server/discover`, the declared lists, reading the first
/// listed resource and getting the first prompt without required arguments.
async fn safe_requests(
    p: &mut Probe,
    ch: Ch,
    facts: &StatelessFacts,
) -> Vec<(&'static str, Value)> {
    let capabilities = facts.capabilities();
    let mut requests = vec![("server/discover", Value::Null)];
    if declares(&capabilities, "tools") {
        requests.push(("tools/list", Value::Null));
    }
    if declares(&capabilities, "prompts") {
        requests.push(("prompts/list", Value::Null));
        let prompts = list_items(p, ch, "prompts/list", "prompts").await;
        if let Some(name) = prompts
            .iter()
            .find(|prompt| {
                !prompt
                    .get("arguments")
                    .and_then(Value::as_array)
                    .is_some_and(|a| a.iter().any(|a| a.get("required") == Some(&json!(true))))
            })
            .and_then(|prompt| prompt.get("name"))
        {
            requests.push(("prompts/get", json!({ "name": name })));
        }
    }
    if declares(&capabilities, "resources") {
        requests.push(("resources/list", Value::Null));
        requests.push(("resources/templates/list", Value::Null));
        let resources = list_items(p, ch, "resources/list", "resources").await;
        if let Some(uri) = resources.first().and_then(|r| r.get("uri")) {
            requests.push(("resources/read", json!({ "uri": uri })));
        }
    }
    requests
}

pub(crate) async fn not_on_unsupported_requests(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let mut problems = Problems::default();
    for (method, params) in safe_requests(p, ch, facts).await {
        if matches!(method, "prompts/get" | "resources/read") {
            continue;
        }
        // Every capability declared: a server that asks for input whenever
        // it may would do so here.
        let reply = p
            .call_stateless(ch, method, params, meta_with(all_capabilities()))
            .await;
        if reply.result().is_some_and(is_input_required) {
            problems.push(format!(
                "{method} was answered with resultType \"input_required\""
            ));
        }
    }
    Ok(problems.into_finding())
}

pub(crate) async fn input_required(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let subject = find_subject(p, ch, facts).await?;
    let mut problems = Problems::default();
    match subject.first.get("inputRequests") {
        Some(Value::Object(requests)) if !requests.is_empty() => {
            for (key, request) in requests {
                match request.get("method").and_then(Value::as_str) {
                    Some(method) if INPUT_METHODS.contains(&method) => {}
                    Some(method) => problems.push(format!(
                        "inputRequests[{key:?}] asks for {method:?}, which is not \
                         elicitation/create, sampling/createMessage or roots/list"
                    )),
                    None => problems.push(format!("inputRequests[{key:?}] has no method")),
                }
                if let Some(params) = request.get("params")
                    && !params.is_object()
                {
                    problems.push(format!("inputRequests[{key:?}].params is not an object"));
                }
            }
        }
        Some(Value::Object(_)) => problems.push(format!(
            "{} asked for input with an empty inputRequests map",
            subject.label
        )),
        // A result with only requestState is allowed (the server continues
        // with state alone), but then it asked for nothing a client can give.
        None if subject.request_state().is_some() => {}
        None => problems.push(format!(
            "{} answered input_required with neither inputRequests nor requestState",
            subject.label
        )),
        Some(other) => problems.push(format!(
            "{}'s inputRequests is {other}, not an object",
            subject.label
        )),
    }
    if let Some(state) = subject.first.get("requestState")
        && !state.is_string()
    {
        problems.push(format!("requestState is {state}, not a string"));
    }
    Ok(problems.into_finding())
}

/// Retries `subject` with an answer to every input request (and its
/// `requestState`) until it completes: the rounds it took and the final
/// result, or why it did not complete.
async fn complete_round_trip(
    p: &mut Probe,
    ch: Ch,
    subject: &Subject,
) -> Result<(usize, Value), String> {
    let mut current = subject.first.clone();
    for round in 1..=MAX_ROUNDS {
        let requests = current
            .get("inputRequests")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let state = current.get("requestState").and_then(Value::as_str);
        let params = subject.retry(responses_for(&requests), state);
        let reply = p
            .call_stateless(ch, subject.method, params, meta_with(all_capabilities()))
            .await;
        match reply.result() {
            Some(result) if is_input_required(result) => current = result.clone(),
            Some(result) => {
                return match result.get("resultType").and_then(Value::as_str) {
                    Some("complete") | None => Ok((round, result.clone())),
                    Some(other) => Err(format!(
                        "the retry of {} got resultType {other:?}, not \"complete\"",
                        subject.label
                    )),
                };
            }
            None => {
                return Err(format!(
                    "retrying {} with inputResponses{} got {}",
                    subject.label,
                    if state.is_some() {
                        " and its requestState"
                    } else {
                        ""
                    },
                    reply.describe()
                ));
            }
        }
    }
    Err(format!(
        "{} still asked for input after {MAX_ROUNDS} retries that answered every input request",
        subject.label
    ))
}

fn retries(round: usize) -> String {
    format!("{round} retr{}", if round == 1 { "y" } else { "ies" })
}

pub(crate) async fn input_round_trip(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let subject = find_subject(p, ch, facts).await?;
    Ok(match complete_round_trip(p, ch, &subject).await {
        Ok((round, _)) => Observed::Holds(Some(format!(
            "{} completed after {}",
            subject.label,
            retries(round)
        ))),
        Err(reason) => Observed::Broken(reason),
    })
}

/// The first prompt and the first resource that ask for input, found by
/// their descriptions (prompts without required arguments), each asked once
/// with every client capability declared; and what was tried in vain.
async fn non_tool_subjects(
    p: &mut Probe,
    ch: Ch,
    facts: &StatelessFacts,
) -> (Vec<Subject>, Vec<String>) {
    let capabilities = facts.capabilities();
    let mut subjects = Vec::new();
    let mut tried = Vec::new();
    if facts.discover.is_none() || declares(&capabilities, "prompts") {
        let candidates = input_prompts(p, ch).await;
        subjects.extend(first_asking(p, ch, candidates, &mut tried).await);
    }
    if facts.discover.is_none() || declares(&capabilities, "resources") {
        let candidates: Vec<Candidate> = list_items(p, ch, "resources/list", "resources")
            .await
            .iter()
            .filter(|resource| mentions_input(resource))
            .filter_map(|resource| {
                let uri = resource.get("uri")?.as_str()?;
                Some((
                    "resources/read",
                    json!({ "uri": uri }),
                    format!("resource {uri:?}"),
                ))
            })
            .collect();
        subjects.extend(first_asking(p, ch, candidates, &mut tried).await);
    }
    (subjects, tried)
}

/// The listed prompts without required arguments that say they ask for
/// input, as `prompts/get` candidates.
async fn input_prompts(p: &mut Probe, ch: Ch) -> Vec<Candidate> {
    list_items(p, ch, "prompts/list", "prompts")
        .await
        .iter()
        .filter(|prompt| {
            !prompt
                .get("arguments")
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(|a| a.get("required") == Some(&json!(true))))
                && mentions_input(prompt)
        })
        .filter_map(|prompt| {
            let name = prompt.get("name")?.as_str()?;
            Some((
                "prompts/get",
                json!({ "name": name }),
                format!("prompt {name:?}"),
            ))
        })
        .collect()
}

/// The first of `candidates` (at most [`MAX_CANDIDATES`] asked) answered
/// with `input_required`.
async fn first_asking(
    p: &mut Probe,
    ch: Ch,
    candidates: Vec<Candidate>,
    tried: &mut Vec<String>,
) -> Option<Subject> {
    for (method, params, label) in candidates.into_iter().take(MAX_CANDIDATES) {
        let reply = p
            .call_stateless(ch, method, params.clone(), meta_with(all_capabilities()))
            .await;
        match reply.result() {
            Some(result) if is_input_required(result) => {
                return Some(Subject {
                    method,
                    params,
                    label,
                    first: result.clone(),
                });
            }
            _ => tried.push(format!("{label} got {}", reply.describe_with_type())),
        }
    }
    None
}

pub(crate) async fn non_tool_round_trip(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let (subjects, tried) = non_tool_subjects(p, ch, facts).await;
    if subjects.is_empty() {
        return Ok(Observed::NotApplicable(if tried.is_empty() {
            "no prompt without required arguments and no resource mentions elicitation, \
             sampling, roots or confirmation in its description"
                .into()
        } else {
            format!(
                "no prompt or resource asked for input: {}",
                tried.join("; ")
            )
        }));
    }
    let mut problems = Problems::default();
    let mut completed = Vec::new();
    for subject in &subjects {
        if subject.requests().is_none_or(Map::is_empty) {
            problems.push(format!(
                "{} answered input_required without inputRequests to answer",
                subject.label
            ));
            continue;
        }
        let (round, result) = match complete_round_trip(p, ch, subject).await {
            Ok(done) => done,
            Err(reason) => {
                problems.push(reason);
                continue;
            }
        };
        let (key, shape_ok) = match subject.method {
            "prompts/get" => (
                "messages",
                result.get("messages").is_some_and(Value::is_array),
            ),
            _ => (
                "contents",
                result
                    .get("contents")
                    .and_then(Value::as_array)
                    .is_some_and(|c| !c.is_empty()),
            ),
        };
        if shape_ok {
            completed.push(format!("{} after {}", subject.label, retries(round)));
        } else {
            problems.push(format!(
                "{} completed without {key}: {result}",
                subject.label
            ));
        }
    }
    Ok(match problems.into_finding() {
        Observed::Holds(_) => {
            Observed::Holds(Some(format!("completed {}", completed.join(" and "))))
        }
        other => other,
    })
}

pub(crate) async fn missing_response_rerequests(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let subject = find_subject(p, ch, facts).await?;
    if subject.requests().is_none_or(Map::is_empty) {
        return Ok(Observed::NotApplicable(format!(
            "{} asked for no input request that could be left unanswered",
            subject.label
        )));
    }
    let responses = json!({ "mcptest-unrequested": { "action": "decline" } });
    let params = subject.retry(responses, subject.request_state());
    let reply = p
        .call_stateless(ch, subject.method, params, meta_with(all_capabilities()))
        .await;
    Ok(match reply.result() {
        Some(result) if is_input_required(result) => Observed::holds(),
        _ => Observed::Broken(format!(
            "retrying {} with inputResponses that answer none of its input requests got {}, \
             not a new input_required result",
            subject.label,
            reply.describe_with_type()
        )),
    })
}

pub(crate) async fn validate_input_responses(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let subject = find_subject(p, ch, facts).await?;
    let Some(requests) = subject.requests().filter(|r| !r.is_empty()).cloned() else {
        return Ok(Observed::NotApplicable(format!(
            "{} asked for no input request whose answer could be malformed",
            subject.label
        )));
    };
    let responses: Map<String, Value> =
        requests.keys().map(|k| (k.clone(), json!(12345))).collect();
    let params = subject.retry(Value::Object(responses), subject.request_state());
    let reply = p
        .call_stateless(ch, subject.method, params, meta_with(all_capabilities()))
        .await;
    Ok(match reply.result() {
        Some(result) if !is_input_required(result) => Observed::Broken(format!(
            "retrying {} with the number 12345 as every input response got a complete result",
            subject.label
        )),
        _ => Observed::holds(),
    })
}

pub(crate) async fn reject_tampered_state(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let subject = find_subject(p, ch, facts).await?;
    let Some(state) = subject.request_state() else {
        return Ok(Observed::NotApplicable(format!(
            "{} issued no requestState to tamper with",
            subject.label
        )));
    };
    let tampered = format!("{state}-mcptest-tampered");
    let requests = subject.requests().cloned().unwrap_or_default();
    let params = subject.retry(responses_for(&requests), Some(&tampered));
    let reply = p
        .call_stateless(ch, subject.method, params, meta_with(all_capabilities()))
        .await;
    Ok(if reply.error().is_some() {
        Observed::holds()
    } else {
        Observed::Broken(format!(
            "retrying {} with a tampered requestState got {}, not a JSON-RPC error",
            subject.label,
            reply.describe_with_type()
        ))
    })
}

pub(crate) async fn respect_client_capabilities(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let subject = find_subject(p, ch, facts).await?;
    let reply = p
        .call_stateless(
            ch,
            subject.method,
            subject.params.clone(),
            meta_with(json!({})),
        )
        .await;
    let Some(result) = reply.result().filter(|r| is_input_required(r)) else {
        return Ok(Observed::holds());
    };
    let mut problems = Problems::default();
    if let Some(requests) = result.get("inputRequests").and_then(Value::as_object) {
        for (key, request) in requests {
            let method = request
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or_default();
            problems.push(format!(
                "{} called without client capabilities asks for {method:?} \
                 (inputRequests[{key:?}]), which needs the undeclared {} capability",
                subject.label,
                capability_of(method)
            ));
        }
    }
    Ok(problems.into_finding())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_that_ask_for_input_are_candidates() {
        assert!(mentions_input(
            &json!({ "name": "confirm", "description": "Asks the user." })
        ));
        assert!(mentions_input(
            &json!({ "name": "x", "description": "Uses Sampling." })
        ));
        assert!(!mentions_input(
            &json!({ "name": "echo", "description": "Returns its input." })
        ));
    }
}
