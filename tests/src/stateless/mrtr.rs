//! The fixture's input-required requests (SEP-2322): the tool `confirm`,
//! the prompt [`CONFIRM_PROMPT`] and the resource [`CONFIRM_RESOURCE`] ask
//! the client to confirm through an elicitation, with an integrity-checked
//! `requestState`, re-requests what a retry leaves out, and rejects
//! responses that are not elicitation results and state it never issued.
//! Breakages bend each of these rules.

use std::hash::{DefaultHasher, Hash, Hasher};

use rmcp::{
    ErrorData, RoleServer,
    model::{
        CallToolRequestParams, CallToolResponse, ClientCapabilities, GetPromptRequestParams,
        GetPromptResponse, InputRequiredResult, InputResponses, ReadResourceRequestParams,
        ReadResourceResponse,
    },
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
fn ask(breakages: &Breakages) -> InputRequiredResult {
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
    typed(json!({
        "resultType": "input_required",
        "inputRequests": requests,
        "requestState": issued_state(),
    }))
}

/// Where a confirmation stands after one request.
pub(super) enum Confirmation {
    /// Input is needed: answer with this.
    Ask(InputRequiredResult),
    /// The user answered; `true` when they accepted.
    Done(bool),
}

/// The confirmation every input-needing request of the fixture asks for:
/// the tool `confirm`, the prompt [`CONFIRM_PROMPT`] and the resource
/// [`CONFIRM_RESOURCE`]. `non_tool` is true for the prompt and the resource.
fn confirmation(
    breakages: &Breakages,
    input_responses: Option<&InputResponses>,
    request_state: Option<&str>,
    context: &RequestContext<RoleServer>,
    non_tool: bool,
) -> Result<Confirmation, ErrorData> {
    let declared = context
        .meta
        .client_capabilities()
        .is_some_and(|c| c.elicitation.is_some());
    if !declared && !breakages.has(Breakage::InputIgnoresCapabilities) {
        let required: ClientCapabilities = typed(json!({ "elicitation": {} }));
        return Err(ErrorData::missing_required_client_capability(required));
    }
    let Some(responses) = input_responses else {
        return Ok(Confirmation::Ask(ask(breakages)));
    };
    let ignores = if non_tool {
        breakages.has(Breakage::NonToolIgnoresInputResponses)
    } else {
        breakages.has(Breakage::IgnoreInputResponses)
    };
    if ignores {
        return Ok(Confirmation::Ask(ask(breakages)));
    }
    if let Some(state) = request_state
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
        None => return Ok(Confirmation::Ask(ask(breakages))),
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
    if request_state.is_none() && !breakages.has(Breakage::AcceptMissingResponses) {
        // A retry carries the state it was given; without it, start over.
        return Ok(Confirmation::Ask(ask(breakages)));
    }
    Ok(Confirmation::Done(action == Some("accept")))
}

fn confirmed_text(accepted: bool) -> &'static str {
    if accepted {
        "confirmed"
    } else {
        "not confirmed"
    }
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
    let confirmation = confirmation(
        breakages,
        request.input_responses.as_ref(),
        request.request_state.as_deref(),
        context,
        false,
    )?;
    Ok(match confirmation {
        Confirmation::Ask(ask) => ask.into(),
        Confirmation::Done(accepted) => text(confirmed_text(accepted)).into(),
    })
}

/// The prompt that asks the user to confirm before it is given.
pub const CONFIRM_PROMPT: &str = "confirmed_greeting";
/// The resource that asks the user to confirm before it is read.
pub const CONFIRM_RESOURCE: &str = "fixture://confirmed";

/// `prompts/get confirmed_greeting`.
pub(super) fn confirm_prompt(
    breakages: &Breakages,
    request: &GetPromptRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<GetPromptResponse, ErrorData> {
    let done = |text: &str| -> GetPromptResponse {
        GetPromptResponse::Complete(typed(json!({
            "resultType": "complete",
            "messages": [{ "role": "user", "content": { "type": "text", "text": text } }],
        })))
    };
    if !is_stateless(context) {
        return Ok(done("Hello (unconfirmed: asking needs 2026-07-28)."));
    }
    let confirmation = confirmation(
        breakages,
        request.input_responses.as_ref(),
        request.request_state.as_deref(),
        context,
        true,
    )?;
    Ok(match confirmation {
        Confirmation::Ask(ask) => ask.into(),
        Confirmation::Done(accepted) => done(&format!("Hello ({}).", confirmed_text(accepted))),
    })
}

/// `resources/read fixture://confirmed`.
pub(super) fn confirm_resource(
    breakages: &Breakages,
    request: &ReadResourceRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<ReadResourceResponse, ErrorData> {
    let done = |text: &str| -> ReadResourceResponse {
        ReadResourceResponse::Complete(typed(json!({
            "resultType": "complete",
            "contents": [{ "uri": CONFIRM_RESOURCE, "mimeType": "text/plain", "text": text }],
        })))
    };
    if !is_stateless(context) {
        return Ok(done("unconfirmed: asking needs 2026-07-28"));
    }
    let confirmation = confirmation(
        breakages,
        request.input_responses.as_ref(),
        request.request_state.as_deref(),
        context,
        true,
    )?;
    Ok(match confirmation {
        Confirmation::Ask(ask) => ask.into(),
        Confirmation::Done(accepted) => done(confirmed_text(accepted)),
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
