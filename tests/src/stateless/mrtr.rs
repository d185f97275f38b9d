//! The fixture's input-required tool (SEP-2322): `confirm` asks the client
//! to confirm through an elicitation, with an integrity-checked
//! `requestState`, re-requests what a retry leaves out, and rejects
//! responses that are not elicitation results and state it never issued.
//! Breakages bend each of these rules.

use std::hash::{DefaultHasher, Hash, Hasher};

use rmcp::{
    ErrorData, RoleServer,
    model::{CallToolRequestParams, CallToolResponse, ClientCapabilities},
    service::RequestContext,
};
use serde_json::{Value, json};

use super::{Breakage, Breakages, is_stateless, text, tool_error, typed};

/// The key of the tool's one input request.
const INPUT_KEY: &str = "confirm";
/// What the state names before its integrity tag.
const STATE_BODY: &str = "confirm:round-1";

/// A tag only this fixture computes (a keyed hash; enough for a fixture).
fn tag(body: &str) -> String {
    let mut hasher = DefaultHasher::new();
    "fixture-stateless request state key".hash(&mut hasher);
    body.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// The `requestState` of the first round.
fn issued_state() -> String {
    format!("{STATE_BODY}.{}", tag(STATE_BODY))
}

fn state_is_genuine(state: &str) -> bool {
    state
        .rsplit_once('.')
        .is_some_and(|(body, mac)| body == STATE_BODY && mac == tag(body))
}

/// The input-required result asking for the confirmation.
fn ask(breakages: &Breakages) -> CallToolResponse {
    let requests = if breakages.has(Breakage::EmptyInputRequests) {
        json!({})
    } else {
        json!({ INPUT_KEY: {
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": "Confirm?",
                "requestedSchema": {
                    "type": "object",
                    "properties": { "ok": { "type": "boolean" } },
                },
            },
        } })
    };
    CallToolResponse::InputRequired(typed(json!({
        "resultType": "input_required",
        "inputRequests": requests,
        "requestState": issued_state(),
    })))
}

/// `tools/call confirm`.
pub(super) fn confirm(
    breakages: &Breakages,
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    if !is_stateless(context) {
        return Ok(
            tool_error("confirm needs a 2026-07-28 client that declares elicitation").into(),
        );
    }
    let declared = context
        .meta
        .client_capabilities()
        .is_some_and(|c| c.elicitation.is_some());
    if !declared && !breakages.has(Breakage::InputIgnoresCapabilities) {
        let required: ClientCapabilities = typed(json!({ "elicitation": {} }));
        return Err(ErrorData::missing_required_client_capability(required));
    }
    let Some(responses) = &request.input_responses else {
        return Ok(ask(breakages));
    };
    if breakages.has(Breakage::IgnoreInputResponses) {
        return Ok(ask(breakages));
    }
    if let Some(state) = &request.request_state
        && !state_is_genuine(state)
        && !breakages.has(Breakage::AcceptTamperedState)
    {
        return Err(ErrorData::invalid_params(
            "requestState failed its integrity check",
            Some(json!({ "requestState": state })),
        ));
    }
    let answer = match responses.get(INPUT_KEY) {
        Some(answer) => Some(answer),
        None if breakages.has(Breakage::AcceptMissingResponses) => None,
        // Re-request what the retry left out.
        None => return Ok(ask(breakages)),
    };
    let action = answer.and_then(|a| a.get("action")).and_then(Value::as_str);
    let acceptable =
        answer.is_none() || action.is_some() || breakages.has(Breakage::AcceptInvalidResponses);
    if !acceptable {
        return Err(ErrorData::invalid_params(
            format!("inputResponses.{INPUT_KEY} is not an elicitation result"),
            None,
        ));
    }
    if request.request_state.is_none() && !breakages.has(Breakage::AcceptMissingResponses) {
        // A retry carries the state it was given; without it, start over.
        return Ok(ask(breakages));
    }
    Ok(match action {
        Some("accept") => text("confirmed").into(),
        _ => text("not confirmed").into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_issued_state_is_genuine() {
        assert!(state_is_genuine(&issued_state()));
        assert!(!state_is_genuine(&format!("{}-x", issued_state())));
        assert!(!state_is_genuine("confirm:round-1.0000000000000000"));
    }
}
