//! The call that produced a result, in words, as a failure shows it.

use serde_json::Value;

use crate::client::Request;

/// The call in words: `tools/call add {"a":2,"b":3}`, `resources/read
/// file:///a.txt`, `tools/list (3 pages)`. Long arguments go on the lines
/// after the method, pretty-printed.
pub(crate) fn describe_request(request: &Request, pages: usize) -> String {
    let method = request.method.as_str();
    let params = &request.params;
    let text_of = |key: &str| params.get(key).and_then(Value::as_str).map(str::to_owned);
    let (head, args) = match method {
        "tools/call" | "prompts/get" => match text_of("name") {
            Some(name) => (
                format!("{method} {name}"),
                Some(params.get("arguments").cloned().unwrap_or(Value::Null)),
            ),
            None => (method.to_owned(), Some(params.clone())),
        },
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
            match text_of("uri") {
                Some(uri) => (format!("{method} {uri}"), None),
                None => (method.to_owned(), Some(params.clone())),
            }
        }
        _ => (method.to_owned(), Some(params.clone())),
    };
    let head = if pages > 1 {
        format!("{head} ({pages} pages)")
    } else {
        head
    };
    match args {
        None | Some(Value::Null) => head,
        Some(args) => {
            let args = shorten_strings(args);
            let compact = args.to_string();
            if compact.chars().count() <= CALL_INLINE_MAX {
                format!("{head} {compact}")
            } else {
                let pretty = serde_json::to_string_pretty(&args).unwrap_or(compact);
                format!("{head}\n{pretty}")
            }
        }
    }
}

/// Arguments up to this many characters stay on the call's line.
const CALL_INLINE_MAX: usize = 120;
/// Strings in the call's arguments are cut to this many characters: the
/// call is context, the full value is in the test.
const CALL_STRING_MAX: usize = 200;

fn shorten_strings(value: Value) -> Value {
    match value {
        Value::String(s) if s.chars().count() > CALL_STRING_MAX => {
            let kept: String = s.chars().take(CALL_STRING_MAX).collect();
            let cut = s.len() - kept.len();
            Value::String(format!("{kept}… ({cut} more bytes)"))
        }
        Value::Array(items) => Value::Array(items.into_iter().map(shorten_strings).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, shorten_strings(v)))
                .collect(),
        ),
        other => other,
    }
}
