//! Client checks of how a client treats the tools it is given: calls that
//! fit the listed input schema, no network `$ref` fetched (SEP-2106), and
//! the JSON Schema 2020-12 keywords of a schema kept (SEP-1613, SEP-2106).

use serde_json::{Value, json};

use super::listed_tools;
use crate::model::{Exchange, Observed, Problems};
use crate::support::transcript::Sent;
use mcptest_core::expect::validate_schema;

/// `hits` are the peers that connected to the canary `lookup`'s `$ref`
/// points at.
pub(crate) fn no_network_ref(requests: &[&Sent], hits: &[String]) -> (Observed, Vec<Exchange>) {
    let listings: Vec<Exchange> = requests
        .iter()
        .filter(|r| r.method() == "tools/list" && r.answer.is_some())
        .map(|r| r.exchange())
        .collect();
    if !hits.is_empty() {
        return (
            Observed::Broken(format!(
                "the network $ref in `lookup`'s inputSchema was fetched ({} connection(s) to \
                 the canary URL, from {})",
                hits.len(),
                hits.join(", ")
            )),
            listings,
        );
    }
    if listings.is_empty() {
        return (
            Observed::NotApplicable(
                "the client never listed the mock's tools, so it never saw the $ref".into(),
            ),
            Vec::new(),
        );
    }
    (
        Observed::Holds(Some(
            "the client listed the tools and never connected to the $ref's URL".into(),
        )),
        listings,
    )
}

/// Whether `schema` has a `$ref` that leaves the document (validating
/// against it would mean fetching it, which is what SEP-2106 forbids).
fn has_remote_ref(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| {
            (key == "$ref" && value.as_str().is_some_and(|r| !r.starts_with('#')))
                || has_remote_ref(value)
        }),
        Value::Array(items) => items.iter().any(has_remote_ref),
        _ => false,
    }
}

pub(crate) fn tool_call_arguments(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let calls: Vec<&Sent> = requests
        .iter()
        .copied()
        .filter(|r| r.tool().is_some())
        .collect();
    if calls.is_empty() {
        return (
            Observed::NotApplicable("the client called no tool".into()),
            Vec::new(),
        );
    }
    let listed = listed_tools(requests);
    if listed.is_empty() {
        return (
            Observed::NotApplicable(
                "the client never listed the mock's tools, so its calls cannot be judged \
                 against their definitions"
                    .into(),
            ),
            calls.iter().map(|c| c.exchange()).collect(),
        );
    }
    let mut problems = Problems::default();
    let mut offending = Vec::new();
    for call in &calls {
        let name = call.tool().unwrap_or_default();
        let Some(tool) = listed.iter().find(|t| t["name"] == name) else {
            problems.push(format!(
                "tools/call of {name:?}, which the mock never listed"
            ));
            offending.push(call.exchange());
            continue;
        };
        let schema = &tool["inputSchema"];
        if has_remote_ref(schema) {
            continue;
        }
        let arguments = call.message["params"]
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| json!({}));
        if let Err(why) = validate_schema(schema, &arguments) {
            problems.push(format!(
                "tools/call of {name:?} with arguments {arguments}: {why}"
            ));
            offending.push(call.exchange());
        }
    }
    if problems.is_empty() {
        (
            Observed::holds(),
            calls.iter().map(|c| c.exchange()).collect(),
        )
    } else {
        (problems.into_finding(), offending)
    }
}

/// The JSON Schema 2020-12 keywords SEP-1613 made part of tool schemas.
pub(crate) const SEP_1613_KEYWORDS: &[&str] = &["$schema", "$defs", "additionalProperties"];
/// The wider vocabulary SEP-2106 keeps in tool schemas.
pub(crate) const SEP_2106_KEYWORDS: &[&str] = &[
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$anchor",
];

/// Where each of `keywords` occurs in `schema`: the JSON pointer of the
/// keyword itself, and its value.
fn keyword_places<'a>(schema: &'a Value, keywords: &[&str]) -> Vec<(String, &'a Value)> {
    fn walk<'a>(
        value: &'a Value,
        at: String,
        keywords: &[&str],
        out: &mut Vec<(String, &'a Value)>,
    ) {
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    let here = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
                    if keywords.contains(&key.as_str()) {
                        out.push((here.clone(), inner));
                    }
                    walk(inner, here, keywords, out);
                }
            }
            Value::Array(items) => {
                for (index, inner) in items.iter().enumerate() {
                    walk(inner, format!("{at}/{index}"), keywords, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(schema, String::new(), keywords, &mut out);
    out
}

/// Whether a keyword's value survived: the same scalar, an object with the
/// same members, an array as long. What lies deeper is judged at its own
/// keyword, so that each check sees only the losses of its own keywords.
fn kept(listed: &Value, echoed: &Value) -> bool {
    match (listed, echoed) {
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.keys().all(|k| b.contains_key(k))
        }
        (Value::Array(a), Value::Array(b)) => a.len() == b.len(),
        (a, b) => a == b,
    }
}

pub(crate) fn schema_preserved(requests: &[&Sent], keywords: &[&str]) -> (Observed, Vec<Exchange>) {
    let echoes: Vec<&Sent> = requests
        .iter()
        .copied()
        .filter(|r| r.tool() == Some("schema_echo"))
        .collect();
    if echoes.is_empty() {
        return (
            Observed::NotApplicable(
                "the client never passed a tool's inputSchema back through the mock's \
                 `schema_echo` tool"
                    .into(),
            ),
            Vec::new(),
        );
    }
    let listed = listed_tools(requests);
    let mut problems = Problems::default();
    let mut judged = 0;
    for echo in &echoes {
        let arguments = &echo.message["params"]["arguments"];
        let name = arguments["tool"].as_str().unwrap_or_default();
        let Some(tool) = listed.iter().find(|t| t["name"] == name) else {
            problems.push(format!(
                "schema_echo (id {}) names {}, which the mock never listed to the client",
                echo.message["id"], arguments["tool"]
            ));
            continue;
        };
        let places = keyword_places(&tool["inputSchema"], keywords);
        if places.is_empty() {
            continue;
        }
        judged += 1;
        let echoed = &arguments["schema"];
        let lost: Vec<String> = places
            .iter()
            .filter_map(|(pointer, value)| match echoed.pointer(pointer) {
                None => Some(format!("{pointer} is gone")),
                Some(other) if !kept(value, other) => Some(format!("{pointer} became {other}")),
                Some(_) => None,
            })
            .collect();
        if !lost.is_empty() {
            problems.push(format!(
                "the inputSchema of {name:?} echoed (id {}) lost what was listed: {}",
                echo.message["id"],
                lost.join(", ")
            ));
        }
    }
    let mut evidence: Vec<Exchange> = requests
        .iter()
        .filter(|r| r.method() == "tools/list" && r.answer.is_some())
        .map(|r| r.exchange())
        .collect();
    evidence.extend(echoes.iter().map(|e| e.exchange()));
    if judged == 0 && problems.is_empty() {
        return (
            Observed::NotApplicable(format!(
                "no schema the client echoed has any of {} (the mock's `contact` has them)",
                keywords.join(", ")
            )),
            evidence,
        );
    }
    (problems.into_finding(), evidence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_found_where_they_are_and_judged_one_level_deep() {
        let schema = json!({
            "$defs": {"a": {"$anchor": "a", "type": "string"}},
            "allOf": [{"anyOf": [{"required": ["x"]}]}],
            "properties": {"a/b": {"not": {"type": "null"}}},
        });
        let mut pointers: Vec<String> = keyword_places(&schema, SEP_2106_KEYWORDS)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        pointers.sort();
        assert_eq!(
            pointers,
            [
                "/$defs/a/$anchor",
                "/allOf",
                "/allOf/0/anyOf",
                "/properties/a~1b/not"
            ]
        );
        // $defs without the inner $anchor still has its members.
        assert!(kept(&schema["$defs"], &json!({"a": {"type": "string"}})));
        assert!(!kept(&schema["$defs"], &json!({})));
        assert!(!kept(&schema["allOf"], &json!([])));
        assert!(!kept(&json!(false), &json!(true)));
    }
}
