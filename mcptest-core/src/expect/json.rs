//! JSON checks on a tool call: `structuredContent` equal to or containing a
//! value, JSONPath (RFC 9535) queries, array length, JSON Schema.
//!
//! JSONPath, array length and [`matches_schema`] look at `structuredContent`
//! when the tool returned some, and otherwise at the text parsed as JSON.

use std::fmt;

use serde_json::Value;
use serde_json_path::JsonPath;

use super::{
    check::{Check, Polarity},
    count::Count,
    failure::{Evidence, Shown, Verdict},
    outcome::outcome_shown,
};
use crate::client::ToolCall;

/// The JSON the checks look at: structured content, else the text as JSON.
pub(super) fn json_of(call: &ToolCall) -> Result<(&'static str, Value), Evidence> {
    if call.result().is_none() {
        return Err(Evidence::new().actual(outcome_shown(call)));
    }
    if let Some(structured) = call.structured() {
        return Ok(("structuredContent", structured.clone()));
    }
    let text = call.text();
    match serde_json::from_str::<Value>(&text) {
        Ok(value) => Ok(("text (as JSON)", value)),
        Err(error) => Err(Evidence::new()
            .actual(Shown::text("text", text))
            .note(format!(
                "there is no structuredContent, and the text is not JSON ({error})"
            ))),
    }
}

/// `structuredContent` only (for the checks named after it).
pub(super) fn structured_of(call: &ToolCall) -> Result<Value, Evidence> {
    if call.result().is_none() {
        return Err(Evidence::new().actual(outcome_shown(call)));
    }
    match call.structured() {
        Some(value) => Ok(value.clone()),
        None => Err(Evidence::new()
            .actual(Shown::text("text", call.text()))
            .note("the result has no structuredContent")),
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

/// JSON equality where `5` and `5.0` are the same number.
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Whether `actual` contains `expected`: every key of an expected object
/// (recursively), every element of an expected array in some element of
/// the actual one, any other value equal. The error says where it differs.
fn json_contains(actual: &Value, expected: &Value, at: &str) -> Result<(), String> {
    match (expected, actual) {
        (Value::Object(want), Value::Object(have)) => {
            for (key, want) in want {
                let path = format!("{at}.{key}");
                match have.get(key) {
                    Some(have) => json_contains(have, want, &path)?,
                    None => return Err(format!("{path} is missing")),
                }
            }
            Ok(())
        }
        (Value::Array(want), Value::Array(have)) => {
            for want in want {
                if !have
                    .iter()
                    .any(|have| json_contains(have, want, at).is_ok())
                {
                    return Err(format!("no element of {at} contains {want}"));
                }
            }
            Ok(())
        }
        _ if json_eq(actual, expected) => Ok(()),
        _ => Err(format!("{at} is {actual}, not {expected}")),
    }
}

/// [`json_contains`] from the root.
pub(crate) fn contains(actual: &Value, expected: &Value) -> Result<(), String> {
    json_contains(actual, expected, "$")
}

/// `structuredContent` equals `expected` exactly (numbers compare by value,
/// so `5` equals `5.0`); a failure shows a line diff.
///
/// ```
/// use serde_json::json;
/// # let call = mcptest::expect::samples::weather_call();
/// call.structured_eq(json!({"city": "Paris", "temperature": 21.5, "conditions": "sunny"}));
/// ```
///
/// ```should_panic
/// # use serde_json::json;
/// # let call = mcptest::expect::samples::weather_call();
/// call.structured_eq(json!({"city": "Rome", "temperature": 21.5, "conditions": "sunny"}));
/// ```
pub fn structured_eq(expected: Value) -> impl Check<ToolCall> {
    StructuredEq(expected)
}

struct StructuredEq(Value);

impl Check<ToolCall> for StructuredEq {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("equals", "does not equal");
        format!("structuredContent {verb} {}", self.0)
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        match structured_of(call) {
            Ok(actual) => Verdict::from_bool(
                json_eq(&actual, &self.0),
                Evidence::new()
                    .diff(pretty(&self.0), pretty(&actual))
                    .actual(Shown::json("structuredContent", actual)),
            ),
            Err(evidence) => Verdict::cannot_judge(evidence),
        }
    }
}

/// `structuredContent` contains `expected`: every key of an expected object
/// is present with a containing value (recursively), every element of an
/// expected array is contained in some element of the actual array, and
/// any other value is equal.
///
/// ```
/// use serde_json::json;
/// # let call = mcptest::expect::samples::weather_call();
/// call.structured_contains(json!({"city": "Paris"}));
/// ```
///
/// ```should_panic
/// # use serde_json::json;
/// # let call = mcptest::expect::samples::weather_call();
/// call.structured_contains(json!({"city": "Paris", "humidity": 40}));
/// ```
pub fn structured_contains(expected: Value) -> impl Check<ToolCall> {
    StructuredContains(expected)
}

struct StructuredContains(Value);

impl Check<ToolCall> for StructuredContains {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("contains", "does not contain");
        format!("structuredContent {verb} {}", self.0)
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        match structured_of(call) {
            Ok(actual) => {
                let outcome = json_contains(&actual, &self.0, "$");
                let mut evidence = Evidence::new().actual(Shown::json("structuredContent", actual));
                if let Err(why) = &outcome {
                    evidence = evidence.note(why.clone());
                }
                Verdict::from_bool(outcome.is_ok(), evidence)
            }
            Err(evidence) => Verdict::cannot_judge(evidence),
        }
    }
}

/// A parsed JSONPath, or why it does not parse.
#[derive(Clone)]
struct Path {
    text: String,
    parsed: Result<JsonPath, String>,
}

impl Path {
    fn new(text: &str) -> Self {
        Path {
            text: text.to_owned(),
            parsed: JsonPath::parse(text).map_err(|e| e.to_string()),
        }
    }

    /// The nodes `self` selects in the call's JSON, with the evidence.
    fn query(&self, call: &ToolCall) -> Result<(Vec<Value>, Evidence), Evidence> {
        let path = self.parsed.as_ref().map_err(|error| {
            Evidence::new().note(format!("{} is not a valid JSONPath: {error}", self.text))
        })?;
        let (label, value) = json_of(call)?;
        let nodes: Vec<Value> = path.query(&value).all().into_iter().cloned().collect();
        Ok((nodes, Evidence::new().actual(Shown::json(label, value))))
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn nodes_note(path: &str, nodes: &[Value]) -> String {
    match nodes {
        [] => format!("{path} matches nothing"),
        [one] => format!("{path} is {one}"),
        many => format!(
            "{path} matches {} nodes: {}",
            many.len(),
            Value::from(many.to_vec())
        ),
    }
}

/// The JSONPath `path` (RFC 9535, e.g. `$.items[0].id`) matches at least
/// one node.
///
/// ```
/// # let call = mcptest::expect::samples::weather_call();
/// call.json_path_exists("$.temperature");
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::weather_call();
/// call.json_path_exists("$.humidity");
/// ```
pub fn json_path_exists(path: &str) -> impl Check<ToolCall> {
    JsonPathExists(Path::new(path))
}

struct JsonPathExists(Path);

impl Check<ToolCall> for JsonPathExists {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("exists", "does not exist");
        format!("{} {verb}", self.0.text)
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        match self.0.query(call) {
            Ok((nodes, evidence)) => Verdict::from_bool(
                !nodes.is_empty(),
                evidence.note(nodes_note(&self.0.text, &nodes)),
            ),
            Err(evidence) => Verdict::cannot_judge(evidence),
        }
    }
}

/// The JSONPath `path` selects exactly one node, equal to `expected`; or,
/// when it selects several, the list of them equals `expected` (an array).
///
/// ```
/// use serde_json::json;
/// # let call = mcptest::expect::samples::weather_call();
/// call.json_path_eq("$.city", json!("Paris"));
/// ```
///
/// ```should_panic
/// # use serde_json::json;
/// # let call = mcptest::expect::samples::weather_call();
/// call.json_path_eq("$.city", json!("Rome"));
/// ```
pub fn json_path_eq(path: &str, expected: Value) -> impl Check<ToolCall> {
    JsonPathEq(Path::new(path), expected)
}

struct JsonPathEq(Path, Value);

impl Check<ToolCall> for JsonPathEq {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("equals", "does not equal");
        format!("{} {verb} {}", self.0.text, self.1)
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        match self.0.query(call) {
            Ok((nodes, evidence)) => {
                let found = match nodes.as_slice() {
                    [] => None,
                    [one] => Some(one.clone()),
                    many => Some(Value::from(many.to_vec())),
                };
                let holds = found.as_ref().is_some_and(|v| json_eq(v, &self.1));
                let mut evidence = evidence.note(nodes_note(&self.0.text, &nodes));
                if let Some(found) = &found {
                    evidence = evidence.diff(pretty(&self.1), pretty(found));
                }
                Verdict::from_bool(holds, evidence)
            }
            Err(evidence) => Verdict::cannot_judge(evidence),
        }
    }
}

/// The JSONPath `path` selects `count` nodes (a number or a range).
///
/// ```
/// # let call = mcptest::expect::samples::echo_call(r#"{"items": [1, 2, 3]}"#);
/// call.json_path_count("$.items[*]", 3);
/// call.json_path_count("$.items[?@ > 1]", 1..);
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::echo_call(r#"{"items": [1, 2, 3]}"#);
/// call.json_path_count("$.items[*]", 4..);
/// ```
pub fn json_path_count(path: &str, count: impl Into<Count>) -> impl Check<ToolCall> + 'static {
    JsonPathCount(Path::new(path), count.into())
}

struct JsonPathCount(Path, Count);

impl Check<ToolCall> for JsonPathCount {
    fn describe(&self, polarity: Polarity) -> String {
        format!("{} matches {}", self.0.text, self.1.words("node", polarity))
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        match self.0.query(call) {
            Ok((nodes, evidence)) => Verdict::from_bool(
                self.1.contains(nodes.len()),
                evidence.note(nodes_note(&self.0.text, &nodes)),
            ),
            Err(evidence) => Verdict::cannot_judge(evidence),
        }
    }
}

/// The result (`structuredContent`, or the text as JSON) is an array with
/// `count` elements (a number or a range: `1..`, `..=10`).
///
/// ```
/// # let call = mcptest::expect::samples::echo_call("[1, 2, 3]");
/// call.array_len(1..=5);
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::echo_call("[1, 2, 3]");
/// call.array_len(..3);
/// ```
pub fn array_len(count: impl Into<Count>) -> impl Check<ToolCall> + 'static {
    ArrayLen(count.into())
}

struct ArrayLen(Count);

impl Check<ToolCall> for ArrayLen {
    fn describe(&self, polarity: Polarity) -> String {
        let array = polarity.pick("an array", "not an array");
        format!("{array} of {}", self.0.of("element"))
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        match json_of(call) {
            Ok((label, value)) => {
                let len = value.as_array().map(Vec::len);
                let note = match len {
                    Some(len) => format!("it has {len} element{}", if len == 1 { "" } else { "s" }),
                    None => "it is not an array".to_owned(),
                };
                Verdict::from_bool(
                    len.is_some_and(|len| self.0.contains(len)),
                    Evidence::new().actual(Shown::json(label, value)).note(note),
                )
            }
            Err(evidence) => Verdict::cannot_judge(evidence),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn containment_reports_where_it_differs() {
        let actual = json!({"a": {"b": [1, {"c": 2}]}, "d": 5.0});
        assert!(json_contains(&actual, &json!({"a": {"b": [{"c": 2}]}, "d": 5}), "$").is_ok());
        assert_eq!(
            json_contains(&actual, &json!({"a": {"x": 1}}), "$").unwrap_err(),
            "$.a.x is missing"
        );
        assert_eq!(
            json_contains(&actual, &json!({"a": {"b": [3]}}), "$").unwrap_err(),
            "no element of $.a.b contains 3"
        );
        assert_eq!(
            json_contains(&actual, &json!({"d": "5"}), "$").unwrap_err(),
            "$.d is 5.0, not \"5\""
        );
    }
}
