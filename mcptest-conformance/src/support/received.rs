//! What came back for one message a check sent: the JSON-RPC response, the
//! notifications and requests that arrived with it, the HTTP status and
//! headers, or why there is no response.

use std::time::Duration;

use serde_json::Value;

use crate::model::RawResponse;

/// Why there is no JSON-RPC response in a [`Received`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Missing {
    /// Nothing within the wait.
    Silent(Duration),
    /// The server answered a later request but never this message.
    Dropped,
    /// The connection failed.
    Broke(String),
    /// An HTTP response without a JSON-RPC response in its body.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    NoMessage,
}

/// What came back for one message (the core's [`Reply`](mcptest_core::Reply)
/// is a typed answer of our client; this is the raw one a check judges).
#[derive(Debug, Clone, Default)]
pub(crate) struct Received {
    /// The JSON-RPC response, if one came.
    pub(crate) response: Option<Value>,
    /// Notifications and server requests that arrived with it.
    pub(crate) others: Vec<Value>,
    /// The HTTP status, over HTTP.
    pub(crate) status: Option<u16>,
    /// The HTTP response headers, over HTTP.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) headers: Vec<(String, String)>,
    /// Why there is no response.
    pub(crate) missing: Option<Missing>,
}

impl Received {
    pub(crate) fn result(&self) -> Option<&Value> {
        self.response.as_ref().and_then(|r| r.get("result"))
    }

    pub(crate) fn error(&self) -> Option<&Value> {
        self.response.as_ref().and_then(|r| r.get("error"))
    }

    pub(crate) fn code(&self) -> Option<i64> {
        self.error()
            .and_then(|e| e.get("code"))
            .and_then(Value::as_i64)
    }

    /// The id of the response (`None` when there is no response).
    pub(crate) fn id(&self) -> Option<&Value> {
        self.response
            .as_ref()
            .map(|r| r.get("id").unwrap_or(&Value::Null))
    }

    /// The answer in words, for reasons: `error -32601 "Method not found"`,
    /// `a result`, `no answer within 10s`; over HTTP prefixed with the status.
    pub(crate) fn describe(&self) -> String {
        let answer = if let Some(error) = self.error() {
            let code = error
                .get("code")
                .map(|c| c.to_string())
                .unwrap_or_else(|| "without a code".into());
            match error.get("message").and_then(Value::as_str) {
                Some(message) => format!("error {code} {message:?}"),
                None => format!("error {code}"),
            }
        } else if let Some(result) = self.result() {
            if result.get("isError") == Some(&Value::Bool(true)) {
                "a result with isError: true".to_owned()
            } else {
                "a result".to_owned()
            }
        } else {
            match &self.missing {
                Some(Missing::Silent(after)) => {
                    format!(
                        "no answer within {}",
                        mcptest_core::__support::fmt_duration(*after)
                    )
                }
                Some(Missing::Dropped) => {
                    "no answer: it was dropped (the request sent after it was answered)".into()
                }
                Some(Missing::Broke(why)) => why.clone(),
                Some(Missing::NoMessage) | None => "no JSON-RPC response".to_owned(),
            }
        };
        match self.status {
            Some(status) => format!("HTTP {status} with {answer}"),
            None => answer,
        }
    }

    /// [`describe`](Self::describe), naming the `resultType` of a result.
    pub(crate) fn describe_with_type(&self) -> String {
        match self.result().and_then(|r| r.get("resultType")) {
            Some(kind) => format!("{} with resultType {kind}", self.describe()),
            None => self.describe(),
        }
    }
}

/// What came back when the connection failed: no response, and `why` as
/// the evidence.
pub(crate) fn broke(why: String) -> (Received, RawResponse) {
    (
        Received {
            missing: Some(Missing::Broke(why.clone())),
            ..Received::default()
        },
        RawResponse::Failed { error: why },
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn answers_describe_themselves() {
        let error = Received {
            response: Some(
                json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}),
            ),
            status: Some(404),
            ..Received::default()
        };
        assert_eq!(
            error.describe(),
            "HTTP 404 with error -32601 \"Method not found\""
        );
        assert_eq!(error.code(), Some(-32601));
        let silent = Received {
            missing: Some(Missing::Silent(Duration::from_secs(10))),
            ..Received::default()
        };
        assert_eq!(silent.describe(), "no answer within 10s");
        assert_eq!(silent.id(), None);
        let typed = Received {
            response: Some(
                json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete"}}),
            ),
            ..Received::default()
        };
        assert_eq!(
            typed.describe_with_type(),
            "a result with resultType \"complete\""
        );
    }
}
