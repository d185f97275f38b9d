//! Raw JSON-RPC, for what a well-behaved client never sends: over a server's
//! stdio ([`RawConnection`]) and over Streamable HTTP (`RawHttp`, with the
//! `http` feature).

#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod stdio;

#[cfg(feature = "http")]
pub use http::{HttpReply, RawHttp};
pub use stdio::RawConnection;

use serde_json::Value;

/// Whether `message` is a JSON-RPC response (it has `result` or `error` and
/// is not a request or notification).
///
/// ```
/// use mcptest_core::__support::is_response;
/// use serde_json::json;
/// assert!(is_response(&json!({"jsonrpc": "2.0", "id": 1, "result": {}})));
/// assert!(!is_response(&json!({"jsonrpc": "2.0", "method": "ping", "id": 1})));
/// ```
pub fn is_response(message: &Value) -> bool {
    message.get("method").is_none()
        && (message.get("result").is_some() || message.get("error").is_some())
}
