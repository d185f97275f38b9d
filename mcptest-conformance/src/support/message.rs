//! The messages checks send: JSON-RPC requests, the `_meta` of SEP-2575,
//! the `initialize` params of the classic handshake, and the HTTP headers
//! a request's content implies (SEP-2243 routing, a legacy session's).

use serde_json::{Map, Value, json};

use super::revision::STATELESS;

/// `_meta` keys of SEP-2575.
pub(crate) const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub(crate) const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub(crate) const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub(crate) const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// `_meta` key of the per-request log level.
pub(crate) const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// The `clientInfo` checks present.
pub(crate) fn client_info() -> Value {
    json!({ "name": "mcptest-conformance", "version": env!("CARGO_PKG_VERSION") })
}

/// A complete SEP-2575 `_meta` for `version`, declaring no client capabilities.
pub(crate) fn meta(version: &str) -> Value {
    json!({
        META_VERSION: version,
        META_CLIENT_INFO: client_info(),
        META_CAPABILITIES: {},
    })
}

/// A JSON-RPC request; `params` is left out when null.
pub(crate) fn request(id: impl Into<Value>, method: &str, params: Value) -> Value {
    let mut message = json!({ "jsonrpc": "2.0", "id": id.into(), "method": method });
    if !params.is_null() {
        message["params"] = params;
    }
    message
}

/// A request whose params carry `meta` as `_meta` (`Value::Null`: no `_meta`).
pub(crate) fn stateless(id: impl Into<Value>, method: &str, params: Value, meta: Value) -> Value {
    let mut params = match params {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    if !meta.is_null() {
        params.insert("_meta".into(), meta);
    }
    request(id, method, Value::Object(params))
}

/// The `initialize` params mcptest's classic checks send.
pub(crate) fn initialize_params(version: &str) -> Value {
    json!({ "protocolVersion": version, "capabilities": {}, "clientInfo": client_info() })
}

/// A `_meta` declaring `capabilities` as the client's.
pub(crate) fn meta_with(capabilities: Value) -> Value {
    let mut meta = meta(STATELESS);
    meta[META_CAPABILITIES] = capabilities;
    meta
}

/// The headers of a stateless request: the version from its `_meta`, and
/// the method and name headers routing proxies read.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) fn stateless_headers(message: &Value) -> Option<Vec<(String, String)>> {
    let version = message
        .get("params")?
        .get("_meta")?
        .get(META_VERSION)?
        .as_str()?;
    Some(routing_headers(Some(version), message))
}

/// `MCP-Protocol-Version: version` (when given), `Mcp-Method` and, for
/// requests that name a tool, prompt or resource, `Mcp-Name`.
pub(crate) fn routing_headers(version: Option<&str>, message: &Value) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    if let Some(version) = version {
        headers.push(("MCP-Protocol-Version".to_owned(), version.to_owned()));
    }
    let method = message
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    headers.push(("Mcp-Method".to_owned(), method.to_owned()));
    if let Some(name) = message.get("params").and_then(|p| mcp_name(method, p)) {
        headers.push(("Mcp-Name".to_owned(), name));
    }
    headers
}

/// The `Mcp-Name` of a request: the tool or prompt name, the resource URI,
/// or the task id.
pub(crate) fn mcp_name(method: &str, params: &Value) -> Option<String> {
    let key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => "uri",
        // SEP-2663 routes task requests by their task.
        "tasks/get" | "tasks/update" | "tasks/cancel" => "taskId",
        _ => return None,
    };
    params.get(key)?.as_str().map(str::to_owned)
}

/// The headers of a request in a legacy HTTP session: its id and the
/// version `initialize` agreed on, once known.
#[cfg(feature = "http")]
pub(crate) fn classic_headers(
    session: &Option<String>,
    version: &Option<String>,
) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    if let Some(session) = session {
        headers.push(("Mcp-Session-Id".to_owned(), session.clone()));
    }
    if let Some(version) = version {
        headers.push(("MCP-Protocol-Version".to_owned(), version.clone()));
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stateless_requests_carry_meta_in_params() {
        let message = stateless(3, "tools/list", Value::Null, meta("2026-07-28"));
        assert_eq!(message["params"]["_meta"][META_VERSION], "2026-07-28");
        assert_eq!(message["params"]["_meta"][META_CAPABILITIES], json!({}));
        let bare = stateless(4, "tools/list", Value::Null, Value::Null);
        assert_eq!(bare["params"], json!({}));
        let plain = request(5, "ping", Value::Null);
        assert!(plain.get("params").is_none());
    }

    #[test]
    fn stateless_http_headers_name_the_method_and_target() {
        let call = stateless(
            1,
            "tools/call",
            json!({"name": "echo", "arguments": {}}),
            meta("2026-07-28"),
        );
        assert_eq!(
            stateless_headers(&call).unwrap(),
            [
                ("MCP-Protocol-Version".to_owned(), "2026-07-28".to_owned()),
                ("Mcp-Method".to_owned(), "tools/call".to_owned()),
                ("Mcp-Name".to_owned(), "echo".to_owned()),
            ]
        );
        assert_eq!(stateless_headers(&request(1, "ping", Value::Null)), None);
    }
}
