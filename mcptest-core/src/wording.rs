//! How messages put values into words: a JSON value's kind, a string quoted
//! as JSON writes it, a list of such strings. Every failure message (checks,
//! the plugin host, suites) writes them this way.

use serde_json::Value;

/// What a JSON value is, in words, for "expected X, found Y" messages.
///
/// ```
/// assert_eq!(mcptest_core::__support::kind_of(&serde_json::json!([1])), "an array");
/// ```
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `"text"` as JSON writes it: quotes, escapes; how every failure message
/// quotes a string.
///
/// ```
/// assert_eq!(mcptest_core::__support::quoted("a \"b\""), r#""a \"b\"""#);
/// ```
pub fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("{text:?}"))
}

/// `"a", "b", "c"`: a list of strings, each [`quoted`].
///
/// ```
/// assert_eq!(mcptest_core::__support::quoted_list(&["a", "b"]), r#""a", "b""#);
/// ```
pub fn quoted_list<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(|s| quoted(s.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}
