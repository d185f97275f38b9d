//! Telling a JSON-RPC response from a request or a notification.

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
