//! Raw JSON-RPC, for what a well-behaved client never sends: over a server's
//! stdio ([`stdio`]) and over Streamable HTTP ([`http`]).

#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod stdio;

use serde_json::Value;

/// Whether `message` is a JSON-RPC response (it has `result` or `error` and
/// is not a request or notification).
pub(crate) fn is_response(message: &Value) -> bool {
    message.get("method").is_none()
        && (message.get("result").is_some() || message.get("error").is_some())
}
