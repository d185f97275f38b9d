//! The fixture's 2026-07-28 behaviour beyond SEP-2575 — SEP-2164 errors for
//! unknown resources — and the breakages that bend results of that
//! revision: `resultType`, input-required results where none may be, and
//! the caching hints of SEP-2549.

use std::sync::Arc;

use axum::{body::Body, response::Response};
use futures::StreamExt;
use rmcp::{
    ErrorData,
    model::{CompleteRequestParams, CompleteResult, CompletionInfo, Reference},
};
use serde_json::{Value, json};

use super::breakage::{Breakage, Breakages};

/// The error for reading an unknown resource: over 2026-07-28 -32602 with
/// the URI in `data` (SEP-2164), before it -32002.
pub(super) fn resource_not_found(breakages: &Breakages, uri: &str, stateless: bool) -> ErrorData {
    let message = format!("no resource {uri:?}");
    let data = if breakages.has(Breakage::ResourceNotFoundWithoutUri) {
        None
    } else {
        Some(json!({ "uri": uri }))
    };
    if stateless {
        ErrorData::invalid_params(message, data)
    } else {
        ErrorData::resource_not_found(message, data)
    }
}

/// The names `greet` and `farewell` complete to.
const NAMES: &[&str] = &["Ada", "Alan", "Grace"];
/// The ids the item template completes to.
const ITEM_IDS: &[&str] = &["1", "2", "3"];
/// The fixture's one resource template.
pub(super) const ITEM_TEMPLATE: &str = "fixture://items/{id}";

/// `completion/complete`: prefix matches of [`NAMES`] for the `name`
/// argument of `greet` and `farewell`, of [`ITEM_IDS`] for the item
/// template's `id`; nothing for another argument; invalid params for a
/// prompt or template the fixture does not have.
pub(super) fn complete(request: &CompleteRequestParams) -> Result<CompleteResult, ErrorData> {
    let argument = request.argument.name.as_str();
    let candidates: &[&str] = match &request.r#ref {
        Reference::Prompt(prompt) if ["greet", "farewell"].contains(&prompt.name.as_str()) => {
            if argument == "name" {
                NAMES
            } else {
                &[]
            }
        }
        Reference::Resource(resource) if resource.uri == ITEM_TEMPLATE => {
            if argument == "id" {
                ITEM_IDS
            } else {
                &[]
            }
        }
        Reference::Prompt(prompt) => {
            return Err(ErrorData::invalid_params(
                format!("no prompt {:?} to complete", prompt.name),
                None,
            ));
        }
        Reference::Resource(resource) => {
            return Err(ErrorData::invalid_params(
                format!("no resource template {:?} to complete", resource.uri),
                None,
            ));
        }
        _ => return Err(ErrorData::invalid_params("an unknown kind of ref", None)),
    };
    let prefix = request.argument.value.as_str();
    let values = candidates
        .iter()
        .filter(|c| c.starts_with(prefix))
        .map(|c| c.to_string())
        .collect();
    let completion =
        CompletionInfo::with_all_values(values).map_err(|e| ErrorData::internal_error(e, None))?;
    Ok(CompleteResult::new(completion))
}

/// Bends an answer to a 2026-07-28 request (`name` is its method).
pub(super) fn outbound(breakages: &Breakages, name: &str, message: &mut Value) {
    if breakages.has(Breakage::StatelessUnknownResourceEmpty)
        && name == "resources/read"
        && message.get("error").is_some()
    {
        let id = message["id"].clone();
        *message = json!({ "jsonrpc": "2.0", "id": id,
            "result": { "resultType": "complete", "contents": [] } });
        return;
    }
    if breakages.has(Breakage::ResourceNotFound32002)
        && name == "resources/read"
        && message["error"]["code"] == -32602
    {
        // rmcp turns -32002 into -32602 for 2026-07-28 peers: undo it here.
        message["error"]["code"] = json!(-32002);
    }
    let Some(result) = message.get_mut("result").and_then(Value::as_object_mut) else {
        return;
    };
    if breakages.has(Breakage::OmitResultType) {
        result.remove("resultType");
    }
    if name == "completion/complete"
        && breakages.has(Breakage::BadCompletions)
        && let Some(completion) = result.get_mut("completion")
    {
        completion["values"] = json!([1, "Ada"]);
        completion["hasMore"] = json!("no");
    }
    if name == "tools/list" {
        if breakages.has(Breakage::InputRequiredOnList) {
            result.insert("resultType".into(), json!("input_required"));
        }
        if breakages.has(Breakage::OmitCachingHints) {
            result.remove("ttlMs");
        }
        if breakages.has(Breakage::BadCachingHints) {
            result.insert("ttlMs".into(), json!(-1));
            result.insert("cacheScope".into(), json!("shared"));
        }
    }
}

/// The acknowledgement of a listen stream.
const ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";

/// Whether a message from the server is left out (stdio).
pub(super) fn drops(breakages: &Breakages, message: &Value) -> bool {
    breakages.has(Breakage::ListenWithoutAck)
        && message.get("method").and_then(Value::as_str) == Some(ACKNOWLEDGED)
}

/// A request of the server's own that `--listen-sends-requests` puts on a
/// listen stream right after its acknowledgement.
pub(super) fn follows(breakages: &Breakages, message: &Value) -> Option<Value> {
    (breakages.has(Breakage::ListenSendsRequests)
        && message.get("method").and_then(Value::as_str) == Some(ACKNOWLEDGED))
    .then(|| json!({ "jsonrpc": "2.0", "id": "fixture-listen-ping", "method": "ping" }))
}

/// A listen stream's HTTP response, with the events the breakages leave
/// out removed and the ones they add put in as they pass (one SSE event per
/// body frame, as rmcp writes them).
pub(super) fn filter_stream(breakages: Arc<Breakages>, response: Response) -> Response {
    if !breakages.has(Breakage::ListenWithoutAck) && !breakages.has(Breakage::ListenSendsRequests) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let frames = body.into_data_stream().filter_map(move |frame| {
        let frame = match frame {
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let ack = json!({ "method": ACKNOWLEDGED });
                if !text.contains(ACKNOWLEDGED) {
                    Some(Ok(bytes))
                } else if breakages.has(Breakage::ListenWithoutAck) {
                    None
                } else {
                    let extra = follows(&breakages, &ack).map(|m| format!("data: {m}\n\n"));
                    Some(Ok(axum::body::Bytes::from(
                        text + &extra.unwrap_or_default(),
                    )))
                }
            }
            Err(error) => Some(Err(error)),
        };
        std::future::ready(frame)
    });
    Response::from_parts(parts, Body::from_stream(frames))
}
