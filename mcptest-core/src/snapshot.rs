//! Snapshots of results, stored and reviewed with insta.
//!
//! [`assert_snapshot!`](crate::assert_snapshot) writes a result as YAML
//! (keys sorted, so the file does not change when a server reorders
//! fields); [`assert_json_snapshot!`](crate::assert_json_snapshot) as JSON.
//! Both are `macro_rules!` over insta's own macros, so the snapshot is named
//! after the test function and stored beside the test file
//! (`snapshots/<module>__<test>.snap`), and everything insta does applies:
//! `cargo insta review` to accept changes, `INSTA_UPDATE`, and under
//! `CI=true` a new or changed snapshot fails the test instead of being
//! written.
//!
//! What the macros add:
//!
//! - the call goes into the snapshot's header (`description` and `info`),
//!   so a review shows what was called;
//! - the fixture directory of the result (see
//!   [`Server::fixture_dir`](crate::Server::fixture_dir)) is replaced by
//!   `[fixture]`, since it is a new temporary directory each run;
//! - on request, timestamps become `[timestamp]` and UUIDs `[uuid]`;
//! - insta redactions in braces, and any settings the test bound itself
//!   (`insta::with_settings!`, `Settings::bind_async` around an async
//!   block), pass through.
//!
//! ```
//! # let call = mcptest::expect::samples::weather_call();
//! // let call = mcp.call_tool("weather", json!({"city": "Paris"})).await;
//! mcptest::assert_snapshot!(call, @r#"
//! content:
//!   - text: "{\"city\":\"Paris\",\"conditions\":\"sunny\",\"temperature\":21.5}"
//!     type: text
//! isError: false
//! structuredContent:
//!   city: Paris
//!   conditions: sunny
//!   temperature: 21.5
//! "#);
//! ```
//!
//! The forms:
//!
//! ```text
//! mcptest::assert_snapshot!(value);                        // named after the test
//! mcptest::assert_snapshot!("weather_paris", value);       // named explicitly
//! mcptest::assert_snapshot!(value, timestamps, uuids);     // opt-in redactions
//! mcptest::assert_snapshot!(value, { ".structuredContent.temperature" => "[temp]" });
//! mcptest::assert_snapshot!(value, @"inline snapshot");
//! mcptest::assert_snapshot!(value, timestamps, { ".id" => "[id]" }, @"inline, redacted");
//! mcptest::assert_tool_surface_snapshot!(mcp);             // the server's definitions, for drift
//! ```
//!
//! The inline form takes the same redactions as the stored one, before the
//! `@"..."`:
//!
//! ```
//! # let call = mcptest::expect::samples::weather_call();
//! mcptest::assert_json_snapshot!(call, { ".structuredContent.temperature" => "[temp]" }, @r#"
//! {
//!   "content": [
//!     {
//!       "text": "{\"city\":\"Paris\",\"conditions\":\"sunny\",\"temperature\":21.5}",
//!       "type": "text"
//!     }
//!   ],
//!   "isError": false,
//!   "structuredContent": {
//!     "city": "Paris",
//!     "conditions": "sunny",
//!     "temperature": "[temp]"
//!   }
//! }
//! "#);
//! ```

mod macros;
mod patterns;

use std::path::Path;

use serde::Serialize;
use serde_json::{Value, json};

pub use patterns::{FIXTURE_REDACTION, TIMESTAMP_REDACTION, UUID_REDACTION};

use crate::{
    client::Origin, client::Reply, client::Request, client::ToolCall, client::ToolOutcome,
    server_messages::ServerMessages,
};

/// `resultType: "complete"` is what an absent `resultType` means (and older
/// protocol revisions never send it); leave it out so that a snapshot does
/// not depend on the revision or on how the result was built.
fn normalize(mut value: Value) -> Value {
    if let Value::Object(map) = &mut value
        && map.get("resultType").and_then(Value::as_str) == Some("complete")
    {
        map.remove("resultType");
    }
    value
}

/// A value the snapshot macros can store: tool calls, replies (prompts,
/// resources, lists, completions), the notification log, and plain JSON.
pub trait Snapshot {
    /// The value as it is stored (before redactions).
    fn snapshot_value(&self) -> Value;

    /// The request that produced it, for the snapshot's header.
    fn snapshot_request(&self) -> Option<&Request> {
        None
    }

    /// Where it came from, for the fixture directory redaction.
    fn snapshot_origin(&self) -> Option<&Origin> {
        None
    }
}

impl<S: Snapshot + ?Sized> Snapshot for &S {
    fn snapshot_value(&self) -> Value {
        (**self).snapshot_value()
    }
    fn snapshot_request(&self) -> Option<&Request> {
        (**self).snapshot_request()
    }
    fn snapshot_origin(&self) -> Option<&Origin> {
        (**self).snapshot_origin()
    }
}

/// A tool call is stored as the result the tool returned (`content`,
/// `structuredContent`, `isError`), or `error: {code, message, data}` for a
/// JSON-RPC error, or `failed: <why>` when there was no answer.
impl Snapshot for ToolCall {
    fn snapshot_value(&self) -> Value {
        match self.outcome() {
            ToolOutcome::Success(result) | ToolOutcome::ToolError(result) => {
                let mut value = normalize(serde_json::to_value(result).unwrap_or(Value::Null));
                // Older revisions omit isError on success; store it the same either way.
                if let Value::Object(map) = &mut value {
                    map.entry("isError")
                        .or_insert(Value::Bool(self.is_tool_error()));
                }
                value
            }
            ToolOutcome::RpcError(error) => {
                let mut body = json!({ "code": error.code, "message": error.message });
                if let Some(data) = &error.data {
                    body["data"] = data.clone();
                }
                json!({ "error": body })
            }
            ToolOutcome::Failed(error) => {
                let full = error.to_string();
                let output = error
                    .server_output()
                    .map(|o| o.to_string())
                    .unwrap_or_default();
                let why = full.strip_suffix(&output).unwrap_or(&full);
                json!({ "failed": why })
            }
        }
    }
    fn snapshot_request(&self) -> Option<&Request> {
        Some(self.request())
    }
    fn snapshot_origin(&self) -> Option<&Origin> {
        Some(self.origin())
    }
}

/// A reply is stored as its typed value (for a list: the items of every page).
impl<T: Serialize> Snapshot for Reply<T> {
    fn snapshot_value(&self) -> Value {
        normalize(serde_json::to_value(self.value()).unwrap_or(Value::Null))
    }
    fn snapshot_request(&self) -> Option<&Request> {
        Some(self.request())
    }
    fn snapshot_origin(&self) -> Option<&Origin> {
        Some(self.origin())
    }
}

/// The log is stored as a list of `{method, params}` (and `reply` for
/// requests the client answered), without timings or sequence numbers.
impl Snapshot for ServerMessages {
    fn snapshot_value(&self) -> Value {
        let messages: Vec<Value> = self
            .all()
            .into_iter()
            .map(|m| {
                let mut entry = json!({ "method": m.method });
                if !m.params.is_null() {
                    entry["params"] = m.params;
                }
                if let Some(reply) = m.reply {
                    entry["reply"] = reply;
                }
                entry
            })
            .collect();
        Value::Array(messages)
    }
}

impl Snapshot for Value {
    fn snapshot_value(&self) -> Value {
        self.clone()
    }
}

/// Opt-in redactions, named in the macros: `assert_snapshot!(call,
/// timestamps, uuids)`.
pub mod redact {
    /// A redaction the macros apply on request.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Redact {
        pub(crate) pattern: &'static str,
        pub(crate) replacement: &'static str,
    }

    /// Date-times (RFC 3339 / ISO 8601) become `[timestamp]`.
    pub fn timestamps() -> Redact {
        Redact {
            pattern: super::patterns::TIMESTAMP_PATTERN,
            replacement: super::patterns::TIMESTAMP_REDACTION,
        }
    }

    /// UUIDs become `[uuid]`.
    pub fn uuids() -> Redact {
        Redact {
            pattern: super::patterns::UUID_PATTERN,
            replacement: super::patterns::UUID_REDACTION,
        }
    }
}

/// The insta settings for one snapshot: the test's own settings, plus
/// sorted keys, the call in the header and the default redactions.
pub(crate) fn settings<S: Snapshot + ?Sized>(
    value: &S,
    opt_in: &[redact::Redact],
) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_sort_maps(true);
    // The expression insta would record is the macro's own temporary.
    settings.set_omit_expression(true);
    let mut filters: Vec<(String, &str)> = Vec::new();
    if let Some(dir) = value.snapshot_origin().and_then(Origin::fixture_dir) {
        for spelling in fixture_spellings(dir) {
            filters.push((regex::escape(&spelling), FIXTURE_REDACTION));
        }
    }
    for redaction in opt_in {
        filters.push((redaction.pattern.to_owned(), redaction.replacement));
    }
    let compiled: Vec<(regex::Regex, &str)> = filters
        .iter()
        .filter_map(|(pattern, with)| regex::Regex::new(pattern).ok().map(|r| (r, *with)))
        .collect();
    // insta filters apply to the stored value only; the header gets the same treatment here.
    let redact = |text: &str| {
        compiled
            .iter()
            .fold(text.to_owned(), |text, (regex, with)| {
                regex.replace_all(&text, *with).into_owned()
            })
    };
    if let Some(request) = value.snapshot_request() {
        settings.set_description(redact(&crate::expect::describe_request(request, 1)));
        let info = json!({ "method": request.method, "params": request.params });
        settings.set_info(&map_strings(info, &redact));
    }
    for (pattern, with) in &filters {
        settings.add_filter(pattern, *with);
    }
    settings
}

/// `value` with `f` applied to every string in it.
fn map_strings(value: Value, f: &impl Fn(&str) -> String) -> Value {
    match value {
        Value::String(s) => Value::String(f(&s)),
        Value::Array(items) => Value::Array(items.into_iter().map(|v| map_strings(v, f)).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, map_strings(v, f)))
                .collect(),
        ),
        other => other,
    }
}

/// The ways the fixture path can appear: as given and canonical (on macOS
/// `/tmp` is `/private/tmp`), longest first so the longer one wins.
fn fixture_spellings(dir: &Path) -> Vec<String> {
    let mut spellings = vec![dir.display().to_string()];
    if let Ok(canonical) = dir.canonicalize() {
        spellings.push(canonical.display().to_string());
    }
    spellings.sort_by_key(|s| std::cmp::Reverse(s.len()));
    spellings.dedup();
    spellings.retain(|s| !s.is_empty() && s != "/");
    spellings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_calls_store_their_outcome() {
        let call = crate::expect::samples::rpc_error_call();
        assert_eq!(
            call.snapshot_value(),
            json!({"error": {"code": -32602, "message": "tool not found"}})
        );
        let add = crate::expect::samples::add_call();
        assert_eq!(
            add.snapshot_value(),
            json!({"content": [{"type": "text", "text": "5"}], "isError": false})
        );
    }
}
