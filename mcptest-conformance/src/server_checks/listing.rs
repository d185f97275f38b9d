//! How server checks find what they need on the server: every item of a
//! list (cursors followed), the tools a check may call without being told
//! to, and those whose description mentions what a check looks for.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::facts::{ClassicFacts, StatelessFacts, declares};
use crate::model::Observed;
use crate::support::message::{meta, request, stateless};
use crate::support::probe::{Ch, Probe};
use crate::support::revision::STATELESS;

/// Pages a list may have before the check gives up on its cursors.
const MAX_PAGES: usize = 100;

/// Words in a tool's or prompt's name or description that say it asks the
/// client for input.
pub(crate) const INPUT_WORDS: &[&str] = &[
    "elicit",
    "sampling",
    "createmessage",
    "roots",
    "input_required",
    "input required",
    "ask the user",
    "asks the user",
    "confirm",
];

/// The most discovered tools a check calls.
const MAX_CANDIDATES: usize = 4;

/// Every item of a list, following cursors; each page is evidence when
/// `record` is set.
pub(crate) async fn list_all(
    p: &mut Probe,
    ch: Ch,
    method: &str,
    key: &str,
    meta: Option<&Value>,
    record: bool,
) -> Result<(Vec<Value>, usize), Observed> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen = HashSet::new();
    for page in 1..=MAX_PAGES {
        let mut params = serde_json::Map::new();
        if let Some(cursor) = &cursor {
            params.insert("cursor".into(), json!(cursor));
        }
        if let Some(meta) = meta {
            params.insert("_meta".into(), meta.clone());
        }
        let params = if params.is_empty() {
            Value::Null
        } else {
            Value::Object(params)
        };
        let id = p.id();
        let message = request(id, method, params);
        let reply = if record {
            p.call(ch, message).await
        } else {
            p.call_quietly(ch, message).await
        };
        let Some(result) = reply.result() else {
            let which = match &cursor {
                Some(cursor) => format!("{method} with cursor {cursor:?} (page {page})"),
                None => method.to_owned(),
            };
            return Err(Observed::Broken(format!(
                "{which} got {}",
                reply.describe()
            )));
        };
        match result.get(key) {
            Some(Value::Array(page_items)) => items.extend(page_items.iter().cloned()),
            _ => {
                return Err(Observed::Broken(format!(
                    "the {method} result has no {key} array"
                )));
            }
        }
        match result.get("nextCursor") {
            Some(Value::String(next)) if !next.is_empty() => {
                if !seen.insert(next.clone()) {
                    return Err(Observed::Broken(format!(
                        "{method} returned nextCursor {next:?} a second time: the cursors loop"
                    )));
                }
                cursor = Some(next.clone());
            }
            _ => return Ok((items, page)),
        }
    }
    Err(Observed::Broken(format!(
        "{method} still had a nextCursor after {MAX_PAGES} pages"
    )))
}

/// Whether a tool's or prompt's name, title or description mentions one of
/// `words` (lower case).
pub(crate) fn mentions(item: &Value, words: &[&str]) -> bool {
    let text = ["name", "title", "description"]
        .iter()
        .filter_map(|k| item.get(*k).and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    words.iter().any(|w| text.contains(w))
}

/// Whether a check may call `tool` without being told to: it takes no
/// required arguments and is not marked `destructiveHint: true`.
pub(crate) fn callable_unnamed(tool: &Value) -> bool {
    let required = tool
        .get("inputSchema")
        .and_then(|s| s.get("required"))
        .and_then(Value::as_array)
        .is_some_and(|r| !r.is_empty());
    let destructive = tool
        .get("annotations")
        .and_then(|a| a.get("destructiveHint"))
        == Some(&Value::Bool(true));
    !required && !destructive
}

/// The items of every page of a list (not recorded: set-up).
pub(crate) async fn list_items(p: &mut Probe, ch: Ch, method: &str, key: &str) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..20 {
        let params = match &cursor {
            Some(cursor) => json!({ "cursor": cursor }),
            None => Value::Null,
        };
        let id = p.id();
        let reply = p
            .call_quietly(ch, stateless(id, method, params, meta(STATELESS)))
            .await;
        let Some(result) = reply.result() else { break };
        if let Some(page) = result.get(key).and_then(Value::as_array) {
            items.extend(page.iter().cloned());
        }
        match result.get("nextCursor").and_then(Value::as_str) {
            Some(next) if Some(next) != cursor.as_deref() => cursor = Some(next.to_owned()),
            _ => break,
        }
    }
    items
}

/// Tools without required arguments, not marked destructive, whose name or
/// description mentions one of `words`: `(name, {})`.
pub(crate) async fn tools_mentioning(
    p: &mut Probe,
    ch: Ch,
    facts: &StatelessFacts,
    words: &[&str],
) -> Vec<(String, Value)> {
    let capabilities = facts.capabilities();
    if facts.discover.is_some() && !declares(&capabilities, "tools") {
        return Vec::new();
    }
    list_items(p, ch, "tools/list", "tools")
        .await
        .into_iter()
        .filter(|tool| callable_unnamed(tool) && mentions(tool, words))
        .filter_map(|tool| Some((tool.get("name")?.as_str()?.to_owned(), json!({}))))
        .take(MAX_CANDIDATES)
        .collect()
}

/// Nothing, when `initialize` declared the tools capability; otherwise
/// the finding of a check about tools.
pub(crate) fn tools_declared(facts: &ClassicFacts) -> Result<(), Observed> {
    if declares(&facts.capabilities, "tools") {
        Ok(())
    } else {
        Err(Observed::NotApplicable(
            "the server does not declare the tools capability".into(),
        ))
    }
}
