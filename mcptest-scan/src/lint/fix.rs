//! Suggested fixes (`mcptest lint --fix`): for the findings a change to
//! the definition can clear, that change as one JSON Patch operation
//! (RFC 6902) on the definitions document, with a sentence saying it.
//!
//! The values are drafts built from names (a description from the tool's
//! name, an example from the parameter's kind, `writeOnly` for a secret):
//! read each before applying it. Findings no mechanical change can clear
//! (similar tools, a cycle, too many tools, a large schema) get none.

use serde::Serialize;
use serde_json::{Value, json};

use super::{
    finding::{Finding, LintRule},
    words::words,
};

/// One suggested change: a JSON Patch operation on the definitions
/// document and what it does.
///
/// ```
/// use mcptest::scan::lint::{Definitions, check, fixes};
/// use serde_json::json;
///
/// let defs = Definitions::from_json(json!({"tools": [
///     {"name": "get_forecast", "inputSchema": {"type": "object"}}
/// ]})).unwrap();
/// let fix = &fixes(&defs, &check(&defs))[0];
/// assert_eq!(fix.rule.id, "E101");
/// assert_eq!(fix.to_patch(), json!({"op": "add", "path": "/tools/0/description",
///     "value": "Get forecast. Returns the forecast."}));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Fix {
    /// The rule whose finding it clears.
    #[serde(serialize_with = "rule_id")]
    pub rule: &'static LintRule,
    /// The tool it changes.
    pub tool: Option<String>,
    /// The parameter it changes, if any.
    pub parameter: Option<String>,
    /// `add` or `replace`.
    pub op: &'static str,
    /// Where, as a JSON pointer into the definitions document.
    pub path: String,
    /// The new value.
    pub value: Value,
    /// What it does, for a person.
    pub message: String,
}

fn rule_id<S: serde::Serializer>(rule: &&'static LintRule, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(rule.id)
}

impl Fix {
    /// The fix as one RFC 6902 operation: `{"op", "path", "value"}`.
    pub fn to_patch(&self) -> Value {
        json!({"op": self.op, "path": self.path, "value": self.value})
    }
}

/// The suggested fixes for `findings` over `definitions`, in the
/// findings' order; findings no change can clear are left out.
pub fn fixes(definitions: &mcptest_core::Definitions, findings: &[Finding]) -> Vec<Fix> {
    let doc = definitions.to_json();
    findings.iter().filter_map(|f| fix(&doc, f)).collect()
}

fn fix(doc: &Value, finding: &Finding) -> Option<Fix> {
    let tool_at = tool_pointer(&finding.pointer)?;
    let tool = doc.pointer(&tool_at)?;
    let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
    let description = tool
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .trim();
    let parameter = finding.parameter.clone().unwrap_or_default();
    let (op, path, value, message) = match finding.rule.id {
        "E101" => {
            let text = describe_tool(name);
            (
                "add",
                finding.pointer.clone(),
                json!(text),
                format!("describe it: {text:?}"),
            )
        }
        "W111" if description.chars().count() < super::usability::SHORT_DESCRIPTION => {
            let text = format!("{} {}", description, describe_tool(name));
            (
                "replace",
                format!("{tool_at}/description"),
                json!(text),
                format!("say more: {text:?}"),
            )
        }
        "W116" => {
            let text = format!("{description} {}", returns(name));
            (
                "replace",
                format!("{tool_at}/description"),
                json!(text),
                format!("say what it returns: {text:?}"),
            )
        }
        "W108" => {
            let text = format!("{description} {}", side_effect(name));
            (
                "replace",
                format!("{tool_at}/description"),
                json!(text),
                format!("say that it changes state: {text:?}"),
            )
        }
        "E103" | "W102" => {
            let text = describe_parameter(&parameter);
            (
                "add",
                finding.pointer.clone(),
                json!(text),
                format!("describe {parameter:?}: {text:?}"),
            )
        }
        "W103" => shape(&finding.pointer, &parameter)?,
        "W109" => {
            let examples = examples_of(&parameter)?;
            (
                "add",
                finding.pointer.clone(),
                json!(examples),
                format!("show {parameter:?} an example: {examples:?}"),
            )
        }
        "E112" => (
            "add",
            format!("{}/writeOnly", finding.pointer),
            json!(true),
            format!("mark {parameter:?} writeOnly so clients keep it out of transcripts"),
        ),
        _ => return None,
    };
    Some(Fix {
        rule: finding.rule,
        tool: finding.tool.clone(),
        parameter: finding.parameter.clone(),
        op,
        path,
        value,
        message,
    })
}

/// W103's fix for the string parameter at `at`: a format its name implies,
/// else an example.
fn shape(at: &str, parameter: &str) -> Option<(&'static str, String, Value, String)> {
    Some(match format_of(parameter) {
        Some(format) => (
            "add",
            format!("{at}/format"),
            json!(format),
            format!("give {parameter:?} the format {format:?}"),
        ),
        None => {
            let examples = examples_of(parameter)?;
            (
                "add",
                format!("{at}/examples"),
                json!(examples),
                format!("show {parameter:?} an example: {examples:?}"),
            )
        }
    })
}

/// `/tools/3` for any pointer inside tool 3.
fn tool_pointer(pointer: &str) -> Option<String> {
    let rest = pointer.strip_prefix("/tools/")?;
    let index = rest.split('/').next()?;
    index.parse::<usize>().ok()?;
    Some(format!("/tools/{index}"))
}

/// The verb and the object of a tool's name: `get_forecast` is `get`,
/// `forecast`.
fn verb_object(name: &str) -> (String, String) {
    let words = words(name);
    match words.split_first() {
        Some((verb, rest)) if !rest.is_empty() => (verb.clone(), rest.join(" ")),
        Some((verb, _)) => (verb.clone(), "data".into()),
        None => ("use".into(), "data".into()),
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn describe_tool(name: &str) -> String {
    let (verb, object) = verb_object(name);
    format!("{} {object}. {}", capitalized(&verb), returns(name))
}

/// A sentence saying what a tool named `name` returns, from its verb.
fn returns(name: &str) -> String {
    let (verb, object) = verb_object(name);
    match verb.as_str() {
        "get" | "read" | "fetch" | "load" | "find" | "show" | "describe" | "lookup" => {
            format!("Returns the {object}.")
        }
        "list" | "search" | "query" => format!("Returns the matching {object} as a list."),
        "create" | "add" | "insert" | "open" | "new" => format!("Returns the created {object}."),
        "update" | "modify" | "patch" | "set" | "edit" | "rename" => {
            format!("Returns the updated {object}.")
        }
        "delete" | "remove" | "destroy" | "drop" | "clear" => "Returns what was deleted.".into(),
        "count" => "Returns the count.".into(),
        "check" | "validate" | "verify" | "test" => {
            "Returns whether it passed, and why not.".into()
        }
        _ => "Returns the result.".into(),
    }
}

/// A sentence admitting the change a tool named `name` makes.
fn side_effect(name: &str) -> String {
    let (verb, object) = verb_object(name);
    let third = if verb.ends_with(['s', 'x', 'z']) || verb.ends_with("sh") || verb.ends_with("ch") {
        format!("{verb}es")
    } else if let Some(stem) = verb.strip_suffix('y') {
        format!("{stem}ies")
    } else {
        format!("{verb}s")
    };
    format!("It {third} the {object}: a side effect, so do not repeat a call blindly.")
}

fn describe_parameter(parameter: &str) -> String {
    let leaf = parameter.rsplit(['.', ']']).next().unwrap_or(parameter);
    format!("The {}.", words(leaf).join(" "))
}

/// A JSON Schema `format` a parameter's name asks for.
fn format_of(parameter: &str) -> Option<&'static str> {
    let words = words(parameter);
    let last = words.last()?.as_str();
    Some(match last {
        "email" => "email",
        "url" | "uri" | "link" | "href" | "endpoint" => "uri",
        "date" | "day" => "date",
        "datetime" | "timestamp" | "at" | "since" | "until" => "date-time",
        "time" => "time",
        "uuid" | "guid" => "uuid",
        "ip" | "ipv4" => "ipv4",
        "ipv6" => "ipv6",
        "hostname" | "host" => "hostname",
        _ => return None,
    })
}

/// Example values for a parameter of a kind its name gives.
fn examples_of(parameter: &str) -> Option<Vec<&'static str>> {
    let words = words(parameter);
    let example = |word: &str| -> Option<&'static str> {
        Some(match word.strip_suffix('s').unwrap_or(word) {
            "email" => "ada@example.com",
            "url" | "uri" | "link" => "https://example.com/docs/intro",
            "query" | "search" | "q" => "quarterly revenue 2024",
            "username" | "user" => "ada",
            "name" => "Ada Lovelace",
            "title" => "Release notes for 2.0",
            "message" => "The nightly build is green.",
            "prompt" => "Summarize this page in three sentences.",
            "question" => "What changed since yesterday?",
            "filter" => "status:open",
            "sort" => "created_at:desc",
            "locale" => "en-US",
            "timezone" | "tz" => "Europe/Paris",
            "language" | "lang" => "en",
            "currency" => "EUR",
            "country" => "FR",
            "region" => "eu-west-1",
            "phone" => "+33 1 23 45 67 89",
            "addres" => "10 Downing Street, London",
            "statu" | "state" => "open",
            "mode" => "fast",
            "unit" => "metric",
            "color" | "colour" => "#336699",
            "tag" => "release",
            "priority" => "high",
            "format" => "json",
            _ => return None,
        })
    };
    words.iter().rev().find_map(|w| example(w)).map(|e| vec![e])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::{Definitions, check};

    fn fixes_for(tools: Value) -> Vec<Value> {
        let defs = Definitions::from_json(json!({ "tools": tools })).unwrap();
        fixes(&defs, &check(&defs))
            .into_iter()
            .map(|f| {
                let mut patch = f.to_patch();
                patch["rule"] = json!(f.rule.id);
                patch
            })
            .collect()
    }

    #[test]
    fn each_fixable_rule_gets_a_patch_at_the_place_it_points_to() {
        let patches = fixes_for(json!([{
            "name": "send_invoice",
            "description": "Mails an invoice to a customer email.",
            "inputSchema": {"type": "object", "properties": {
                "status": {"type": "string", "description": "Its state."},
                "customer_email": {"type": "string", "description": "Where."},
                "password": {"type": "string", "description": "The account's."},
                "note": {"type": "string"}
            }, "required": ["status"]}
        }]));
        let by_rule = |id: &str| patches.iter().find(|p| p["rule"] == id).cloned();
        assert_eq!(
            by_rule("W116").unwrap()["value"],
            "Mails an invoice to a customer email. Returns the result."
        );
        assert_eq!(
            by_rule("W108").unwrap()["value"],
            "Mails an invoice to a customer email. It sends the invoice: a side effect, so do not repeat a call blindly."
        );
        assert_eq!(
            by_rule("W103").unwrap(),
            json!({"op": "add",
            "path": "/tools/0/inputSchema/properties/status/examples", "value": ["open"], "rule": "W103"})
        );
        assert_eq!(
            by_rule("W109").unwrap(),
            json!({"op": "add",
            "path": "/tools/0/inputSchema/properties/customer_email/examples",
            "value": ["ada@example.com"], "rule": "W109"})
        );
        assert_eq!(
            by_rule("E112").unwrap(),
            json!({"op": "add",
            "path": "/tools/0/inputSchema/properties/password/writeOnly", "value": true, "rule": "E112"})
        );
        assert_eq!(
            by_rule("W102").unwrap(),
            json!({"op": "add",
            "path": "/tools/0/inputSchema/properties/note/description", "value": "The note.", "rule": "W102"})
        );
    }

    #[test]
    fn names_give_formats_and_examples() {
        assert_eq!(format_of("start_date"), Some("date"));
        assert_eq!(format_of("created_at"), Some("date-time"));
        assert_eq!(format_of("colour"), None);
        assert_eq!(examples_of("sort_by"), Some(vec!["created_at:desc"]));
        assert_eq!(examples_of("page_size"), None);
        assert_eq!(
            examples_of("search_query"),
            Some(vec!["quarterly revenue 2024"])
        );
        assert_eq!(
            describe_tool("list_open_issues"),
            "List open issues. Returns the matching open issues as a list."
        );
    }
}
