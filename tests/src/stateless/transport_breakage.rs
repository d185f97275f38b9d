//! The breakages of the HTTP transport checks (issue 14): an outer HTTP
//! middleware that bends headers and sessions before rmcp sees them (rmcp
//! validates `Mcp-Method`/`Mcp-Name` and `Host` itself, so breaking those
//! rules means hiding the bad header from it), and the rewriting of
//! `tools/list` answers for the listing checks, which apply over stdio too.

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use axum::{
    body::Body,
    extract::{Request, State},
    http::{HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use serde_json::{Value, json};

use super::breakage::{Breakage, Breakages};

/// The largest HTTP body read to find the method and name.
const MAX_BODY: usize = 16 * 1024 * 1024;
/// What `--session-id-with-space` adds to every session id.
const SPACE_SUFFIX: &str = " x";
/// How long `--one-stream-at-a-time` holds each POST open.
const HOLD: Duration = Duration::from_millis(300);

/// POSTs in flight (`--one-stream-at-a-time`); one fixture process serves
/// one test, so a process-wide count is the server's own.
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
/// `tools/list` answers so far (`--shuffle-tools`).
static LISTINGS: AtomicUsize = AtomicUsize::new(0);

/// Rewrites a `tools/list` page for `--shuffle-tools` and
/// `--draft-04-output-schema`.
pub fn bend_tools(breakages: &Breakages, tools: &mut [Value]) {
    if breakages.has(Breakage::ShuffleTools) && !tools.is_empty() {
        // Pages are rotated on a pattern that never repeats with a period
        // (page answers 1, 2, 4, 8, ...), so two listings of the same tools
        // differ whatever the number of pages per listing.
        let turn = LISTINGS.fetch_add(1, Ordering::SeqCst);
        if turn.is_power_of_two() {
            tools.rotate_left(1);
        }
    }
    if breakages.has(Breakage::Draft04OutputSchema) {
        for tool in tools.iter_mut().filter(|t| t["name"] == "add") {
            tool["outputSchema"] = json!({
                "type": "object",
                "properties": { "sum": { "type": "number", "minimum": 0, "exclusiveMinimum": true } }
            });
        }
    }
}

/// The middleware in front of [`super::serve`]'s: applies the transport
/// breakages, and passes everything else through untouched.
pub async fn bend(
    State(breakages): State<Arc<Breakages>>,
    mut request: Request,
    next: Next,
) -> Response {
    use Breakage::*;
    if breakages.has(KeepEndedSessions) && request.method() == Method::DELETE {
        return StatusCode::OK.into_response();
    }
    if breakages.has(AcceptAnyHost) {
        let headers = request.headers_mut();
        headers.insert(header::HOST, HeaderValue::from_static("127.0.0.1"));
        headers.remove(header::ORIGIN);
    }
    if breakages.has(SessionIdWithSpace) {
        let headers = request.headers_mut();
        let plain = headers
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_suffix(SPACE_SUFFIX))
            .and_then(|v| HeaderValue::from_str(v).ok());
        if let Some(plain) = plain {
            headers.insert("mcp-session-id", plain);
        }
    }
    if request.method() == Method::POST
        && (breakages.has(IgnoreMethodHeader)
            || breakages.has(IgnoreNameHeader)
            || breakages.has(IgnoreParamHeaders)
            || breakages.has(TasksIgnoreNameHeader))
    {
        request = match set_routing_headers(&breakages, request).await {
            Ok(request) => request,
            Err(response) => return response,
        };
    }
    let held = breakages.has(OneStreamAtATime) && request.method() == Method::POST;
    if held {
        if IN_FLIGHT.fetch_add(1, Ordering::SeqCst) > 0 {
            IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
            return (StatusCode::CONFLICT, "another request is in flight").into_response();
        }
        tokio::time::sleep(HOLD).await;
    }
    let mut response = next.run(request).await;
    if held {
        IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
    }
    if breakages.has(SessionIdWithSpace) {
        let headers = response.headers_mut();
        let spaced = headers
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| HeaderValue::from_str(&format!("{v}{SPACE_SUFFIX}")).ok());
        if let Some(spaced) = spaced {
            headers.insert("mcp-session-id", spaced);
        }
    }
    response
}

/// Sets `Mcp-Method` / `Mcp-Name` from the body, whatever the client sent.
async fn set_routing_headers(breakages: &Breakages, request: Request) -> Result<Request, Response> {
    let (mut parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        return Err((StatusCode::PAYLOAD_TOO_LARGE, "body too large").into_response());
    };
    if let Ok(message) = serde_json::from_slice::<Value>(&bytes) {
        let method = message.get("method").and_then(Value::as_str);
        if breakages.has(Breakage::IgnoreMethodHeader)
            && let Some(value) = method.and_then(|m| HeaderValue::from_str(m).ok())
        {
            parts.headers.insert("mcp-method", value);
        }
        let name = message
            .get("params")
            .and_then(|p| p.get("name").or_else(|| p.get("uri")))
            .and_then(Value::as_str);
        if breakages.has(Breakage::IgnoreNameHeader)
            && let Some(value) = name.and_then(|n| HeaderValue::from_str(n).ok())
        {
            parts.headers.insert("mcp-name", value);
        }
        if breakages.has(Breakage::TasksIgnoreNameHeader)
            && let Some(value) = super::tasks::task_name(&message)
            && let Ok(value) = HeaderValue::from_str(value)
        {
            parts.headers.insert("mcp-name", value);
        }
        let region = message
            .get("params")
            .and_then(|p| p.get("arguments"))
            .and_then(|a| a.get("region"))
            .and_then(Value::as_str);
        if breakages.has(Breakage::IgnoreParamHeaders)
            && let Some(value) = region.and_then(|r| HeaderValue::from_str(r).ok())
        {
            parts.headers.insert("mcp-param-region", value);
        }
    }
    Ok(Request::from_parts(parts, Body::from(bytes)))
}
