//! The fixture's 2026-07-28 behaviour beyond SEP-2575 — SEP-2164 errors for
//! unknown resources — and the breakages that bend results of that
//! revision: `resultType`, input-required results where none may be, and
//! the caching hints of SEP-2549.

use std::sync::Arc;

use axum::{body::Body, response::Response};
use futures::StreamExt;
use rmcp::ErrorData;
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
