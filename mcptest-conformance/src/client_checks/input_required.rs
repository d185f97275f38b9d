//! Client checks of input-required results (SEP-2322): a retry answers
//! the round it was asked for, with a fresh id, the `requestState` it was
//! given and no state of its own invention, and a result without
//! `resultType` is taken as complete.

use serde_json::Value;

use super::Judgement;
use crate::model::{Exchange, Observed, Problems};
use crate::support::recording_server::UNTYPED_TOOL;
use crate::support::transcript::Sent;

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

/// Judges every round that was retried and that `judge` picks (`None`:
/// not this check's business; `Some(problem)` otherwise), each shown by the
/// asking request and its retry; `what` names the rounds a check needs, for
/// the reason it is skipped without them.
fn judge_rounds(
    requests: &[&Sent],
    what: &str,
    judge: impl Fn(&Round, &Sent) -> Option<Option<String>>,
) -> (Observed, Vec<Exchange>) {
    let mut judgement = Judgement::default();
    for round in rounds(requests) {
        let Some(retry) = round.retry else { continue };
        let Some(problem) = judge(&round, retry) else {
            continue;
        };
        judgement.case([round.original.exchange(), retry.exchange()], problem);
    }
    judgement.finding(|| no_rounds(requests, what))
}

pub(crate) fn request_state_echoed(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    judge_rounds(
        requests,
        "a result with a requestState (the mock's `confirm` tool)",
        |round, retry| {
            let state = round.state?;
            Some(match retry.message["params"].get("requestState") {
                Some(echoed) if echoed == state => None,
                Some(echoed) => Some(format!(
                    "the retry of {:?} (id {}) sent requestState {echoed}, not the {state} it was given",
                    retry.tool().unwrap_or_default(),
                    retry.message["id"]
                )),
                None => Some(format!(
                    "the retry of {:?} (id {}) left out requestState {state}",
                    retry.tool().unwrap_or_default(),
                    retry.message["id"]
                )),
            })
        },
    )
}

pub(crate) fn default_result_type(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let mut judgement = Judgement::default();
    for (at, call) in requests.iter().enumerate() {
        let untyped = call.tool() == Some(UNTYPED_TOOL)
            && !carries_input(call)
            && call
                .answer
                .as_ref()
                .and_then(|a| a.get("result"))
                .is_some_and(|result| result.get("resultType").is_none());
        if !untyped {
            continue;
        }
        let retry = requests[at + 1..]
            .iter()
            .find(|r| r.tool() == Some(UNTYPED_TOOL) && carries_input(r));
        let problem = retry.map(|retry| {
            format!(
                "the result of {UNTYPED_TOOL:?} (id {}) had no resultType, yet the client \
                 retried it with input (id {})",
                call.message["id"], retry.message["id"]
            )
        });
        let evidence = std::iter::once(call.exchange()).chain(retry.map(|r| r.exchange()));
        judgement.case(evidence, problem);
    }
    judgement.finding(|| {
        Observed::NotApplicable(format!(
            "no answer to the client was a result without resultType (the mock's \
             `{UNTYPED_TOOL}` tool gives one)"
        ))
    })
}

pub(crate) fn retry_new_id(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    judge_rounds(requests, "an input_required result", |round, retry| {
        Some(
            (retry.message["id"] == round.original.message["id"]).then(|| {
                format!(
                    "the retry of {:?} reused JSON-RPC id {}",
                    retry.tool().unwrap_or_default(),
                    retry.message["id"]
                )
            }),
        )
    })
}

pub(crate) fn no_invented_state(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    judge_rounds(
        requests,
        "a result without requestState (the mock's `ask` tool)",
        |round, retry| {
            if round.state.is_some() {
                return None;
            }
            Some(retry.message["params"].get("requestState").map(|state| {
                format!(
                    "the retry of {:?} (id {}) carries requestState {state}, though none was given",
                    retry.tool().unwrap_or_default(),
                    retry.message["id"]
                )
            }))
        },
    )
}

pub(crate) fn input_isolation(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
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
