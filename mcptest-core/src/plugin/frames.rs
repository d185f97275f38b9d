//! The plugin protocol's two message shapes: `{method, params?, id}` from
//! the host, `{id, result | error}` from the plugin, one JSON object a line.

use serde::Serialize;
use serde_json::{Map, Value};

use super::error::PluginError;

/// One request line (without its newline).
#[derive(Serialize)]
struct RequestLine<'a> {
    method: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<&'a Value>,
    id: u64,
}

pub(super) fn request_line(method: &str, params: Option<&Value>, id: u64) -> Vec<u8> {
    let mut line = serde_json::to_vec(&RequestLine { method, params, id })
        .expect("a request of a string, JSON and a number always serializes");
    line.push(b'\n');
    line
}

/// What a line from the plugin turned out to be.
#[derive(Debug)]
pub(super) enum Answer {
    /// The answer to the request in flight.
    Result(Value),
    /// An error object for the request in flight.
    Error {
        code: i64,
        message: String,
        data: Option<Value>,
    },
    /// A well-formed answer to an earlier request that timed out: dropped.
    Stale,
}

/// Reads one line as the answer to request `id` (`method`); `stale` says
/// whether an id belongs to a request the host gave up on.
pub(super) fn parse_answer(
    line: &str,
    method: &str,
    id: u64,
    stale: impl Fn(u64) -> bool,
) -> Result<Answer, PluginError> {
    let invalid = |reason: String| PluginError::InvalidResponse {
        method: method.to_owned(),
        line: line.to_owned(),
        reason,
    };
    let value: Value = serde_json::from_str(line).map_err(|e| PluginError::InvalidJson {
        method: method.to_owned(),
        line: line.to_owned(),
        reason: e.to_string(),
    })?;
    let Value::Object(mut object) = value else {
        return Err(invalid(format!(
            "expected an object with `id` and `result` or `error`, got {}",
            crate::wording::kind_of(&value)
        )));
    };
    match object.get("id") {
        None => return Err(invalid("it has no `id`".to_owned())),
        Some(Value::Number(n)) if n.as_u64() == Some(id) => {}
        Some(Value::Number(n)) if n.as_u64().is_some_and(&stale) => return Ok(Answer::Stale),
        Some(other) => {
            return Err(invalid(format!(
                "its id is {other}, but the request's id is {id}"
            )));
        }
    }
    match (object.remove("result"), object.remove("error")) {
        (Some(_), Some(_)) => Err(invalid(
            "it has both `result` and `error`; exactly one is allowed".to_owned(),
        )),
        (None, None) => Err(invalid(
            "it has neither `result` nor `error`; exactly one is required".to_owned(),
        )),
        (Some(result), None) => Ok(Answer::Result(result)),
        (None, Some(Value::Object(error))) => parse_error(error).map_err(invalid),
        (None, Some(other)) => Err(invalid(format!(
            "`error` must be an object with `code` and `message`, got {}",
            crate::wording::kind_of(&other)
        ))),
    }
}

fn parse_error(mut error: Map<String, Value>) -> Result<Answer, String> {
    let code = match error.get("code") {
        Some(Value::Number(n)) => n
            .as_i64()
            .ok_or_else(|| format!("`error.code` must be an integer, got {n}"))?,
        Some(other) => {
            return Err(format!(
                "`error.code` must be an integer, got {}",
                crate::wording::kind_of(other)
            ));
        }
        None => return Err("`error` has no `code`".to_owned()),
    };
    let message = match error.remove("message") {
        Some(Value::String(message)) => message,
        Some(other) => {
            return Err(format!(
                "`error.message` must be a string, got {}",
                crate::wording::kind_of(&other)
            ));
        }
        None => return Err("`error` has no `message`".to_owned()),
    };
    Ok(Answer::Error {
        code,
        message,
        data: error.remove("data"),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse(line: &str) -> Result<Answer, PluginError> {
        parse_answer(line, "check", 3, |id| id == 1)
    }

    fn reason(line: &str) -> String {
        match parse(line) {
            Err(PluginError::InvalidResponse { reason, .. }) => reason,
            other => panic!("expected an invalid response, got {other:?}"),
        }
    }

    #[test]
    fn requests_omit_absent_params() {
        assert_eq!(
            request_line("ping", None, 1),
            b"{\"method\":\"ping\",\"id\":1}\n"
        );
        assert_eq!(
            request_line("echo", Some(&json!({"a": 1})), 2),
            b"{\"method\":\"echo\",\"params\":{\"a\":1},\"id\":2}\n"
        );
    }

    #[test]
    fn a_result_or_an_error_with_the_request_id_is_an_answer() {
        assert!(
            matches!(parse(r#"{"id":3,"result":{"pong":true}}"#), Ok(Answer::Result(v)) if v == json!({"pong": true}))
        );
        assert!(matches!(
            parse(r#"{"jsonrpc":"2.0","id":3,"result":null}"#),
            Ok(Answer::Result(Value::Null))
        ));
        match parse(r#"{"id":3,"error":{"code":-32601,"message":"no such method","data":[1]}}"#) {
            Ok(Answer::Error {
                code,
                message,
                data,
            }) => {
                assert_eq!(
                    (code, message.as_str(), data),
                    (-32601, "no such method", Some(json!([1])))
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn another_id_is_never_accepted() {
        assert_eq!(
            reason(r#"{"id":4,"result":1}"#),
            "its id is 4, but the request's id is 3"
        );
        assert_eq!(
            reason(r#"{"id":"3","result":1}"#),
            "its id is \"3\", but the request's id is 3"
        );
        assert_eq!(reason(r#"{"result":1}"#), "it has no `id`");
        // An answer to a request that timed out is dropped, not taken for this one.
        assert!(matches!(parse(r#"{"id":1,"result":1}"#), Ok(Answer::Stale)));
    }

    #[test]
    fn exactly_one_of_result_and_error() {
        assert!(reason(r#"{"id":3,"result":1,"error":{"code":1,"message":"x"}}"#).contains("both"));
        assert!(reason(r#"{"id":3}"#).contains("neither"));
        assert!(reason(r#"{"id":3,"error":"bad"}"#).contains("must be an object"));
        assert!(reason(r#"{"id":3,"error":{"message":"x"}}"#).contains("no `code`"));
        assert!(reason(r#"{"id":3,"error":{"code":1.5,"message":"x"}}"#).contains("integer"));
        assert!(reason(r#"{"id":3,"error":{"code":1}}"#).contains("no `message`"));
        assert!(reason("[1,2]").contains("got an array"));
    }

    #[test]
    fn a_line_that_is_not_json_is_invalid_json() {
        assert!(
            matches!(parse("pong"), Err(PluginError::InvalidJson { line, .. }) if line == "pong")
        );
    }
}
