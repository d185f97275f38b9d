//! MCP requests built as rmcp's typed values directly from their method and
//! params, so rmcp applies its per-method rules without the cost of trying
//! every request type in turn.

use rmcp::model::{
    ClientRequest, PaginatedRequestParams, Request, RequestNoParam, RequestOptionalParam,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The typed request for a method mcptest knows, or `None` (then the request
/// is sent verbatim as a custom request).
pub(crate) fn typed(method: &str, params: &Value) -> Option<ClientRequest> {
    fn params_of<P: DeserializeOwned>(params: &Value) -> Option<P> {
        P::deserialize(params).ok()
    }
    fn page<M: Default>(params: &Value) -> Option<RequestOptionalParam<M, PaginatedRequestParams>> {
        let params = match params {
            Value::Null => None,
            other => Some(params_of(other)?),
        };
        Some(RequestOptionalParam {
            method: M::default(),
            params,
            extensions: Default::default(),
        })
    }
    Some(match method {
        "ping" => ClientRequest::PingRequest(RequestNoParam {
            method: Default::default(),
            extensions: Default::default(),
        }),
        "tools/list" => ClientRequest::ListToolsRequest(page(params)?),
        "tools/call" => ClientRequest::CallToolRequest(Request::new(params_of(params)?)),
        "prompts/list" => ClientRequest::ListPromptsRequest(page(params)?),
        "prompts/get" => ClientRequest::GetPromptRequest(Request::new(params_of(params)?)),
        "resources/list" => ClientRequest::ListResourcesRequest(page(params)?),
        "resources/templates/list" => ClientRequest::ListResourceTemplatesRequest(page(params)?),
        "resources/read" => ClientRequest::ReadResourceRequest(Request::new(params_of(params)?)),
        "resources/subscribe" => ClientRequest::SubscribeRequest(Request::new(params_of(params)?)),
        "resources/unsubscribe" => {
            ClientRequest::UnsubscribeRequest(Request::new(params_of(params)?))
        }
        "completion/complete" => ClientRequest::CompleteRequest(Request::new(params_of(params)?)),
        "logging/setLevel" => ClientRequest::SetLevelRequest(Request::new(params_of(params)?)),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn known_methods_become_their_typed_request() {
        let cases = [
            ("ping", Value::Null),
            ("tools/list", Value::Null),
            ("tools/list", json!({"cursor": "5"})),
            ("tools/call", json!({"name": "add", "arguments": {"a": 1}})),
            ("prompts/list", Value::Null),
            ("prompts/get", json!({"name": "p", "arguments": {"x": "y"}})),
            ("resources/list", Value::Null),
            ("resources/templates/list", Value::Null),
            ("resources/read", json!({"uri": "a://b"})),
            ("resources/subscribe", json!({"uri": "a://b"})),
            ("resources/unsubscribe", json!({"uri": "a://b"})),
            (
                "completion/complete",
                json!({"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}}),
            ),
            ("logging/setLevel", json!({"level": "info"})),
        ];
        for (method, params) in cases {
            let request = typed(method, &params).unwrap_or_else(|| panic!("{method} is typed"));
            assert_eq!(request.method(), method);
            assert!(
                !matches!(request, ClientRequest::CustomRequest(_)),
                "{method}"
            );
        }
    }

    #[test]
    fn unknown_methods_and_unfit_params_are_left_to_the_caller() {
        assert!(typed("no/such", &json!({})).is_none());
        assert!(
            typed("tools/call", &json!({"arguments": {}})).is_none(),
            "no name"
        );
    }
}
