//! The rules that call tools, on request only: the size of a plain call's
//! response (E301, `--call-tools`) and whether three identical calls give
//! the same answer (W107, `--detect-nondeterminism`).
//!
//! Each tool is called with the input the audit builds from its schema.
//! Tools that say they change state (`destructiveHint: true`, or
//! `readOnlyHint: false`) are not called; a call that fails (a JSON-RPC
//! error, a timeout, a crash) measures nothing and is reported as skipped,
//! with why.

use std::{collections::BTreeSet, time::Duration};

use rmcp::model::{CallToolResult, Tool};
use serde_json::Value;

use mcptest_core::{
    McpClient, ToolOutcome,
    report::{Outcome, TestResult},
};

use super::{finding::Finding, pointer::subject_of, rules::rule, tokens::count_tokens};
use crate::audit::valid_input;

/// How many identical calls W107 makes.
pub(crate) const TRIALS: usize = 3;

/// What to call for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Calls {
    /// E301: the largest response, in bytes, when on.
    pub max_response: Option<usize>,
    /// W107 is on.
    pub nondeterminism: bool,
    /// How long each call may take.
    pub timeout: Duration,
}

impl Calls {
    fn any(&self) -> bool {
        self.max_response.is_some() || self.nondeterminism
    }

    fn rules(&self) -> Vec<&'static str> {
        let mut ids = Vec::new();
        if self.max_response.is_some() {
            ids.push("E301");
        }
        if self.nondeterminism {
            ids.push("W107");
        }
        ids
    }
}

/// Whether `tool` says it changes state: it is not called.
pub(crate) fn changes_state(tool: &Tool) -> bool {
    tool.annotations
        .as_ref()
        .is_some_and(|a| a.destructive_hint == Some(true) || a.read_only_hint == Some(false))
}

/// Calls the tools of `doc` as `calls` asks; findings go to `out`, tools
/// that could not be measured to `skipped` (one skipped result per rule and
/// tool).
pub(crate) async fn check(
    mcp: &McpClient,
    doc: &Value,
    tools: &[Tool],
    calls: Calls,
    out: &mut Vec<Finding>,
    skipped: &mut Vec<TestResult>,
) {
    if !calls.any() {
        return;
    }
    for (index, tool) in tools.iter().enumerate() {
        let at = format!("/tools/{index}");
        let subject = subject_of(doc, &at);
        let skip = |skipped: &mut Vec<TestResult>, reason: String| {
            for id in calls.rules() {
                skipped.push(
                    TestResult::new(
                        format!("{id} {subject} {at}"),
                        Outcome::skip(reason.clone()),
                    )
                    .group(rule(id).name)
                    .property("rule", id)
                    .property("pointer", at.clone()),
                );
            }
        };
        if changes_state(tool) {
            skip(
                skipped,
                "not called: its annotations say it changes state (destructiveHint: true or \
                 readOnlyHint: false)"
                    .into(),
            );
            continue;
        }
        let input = valid_input(&Value::Object((*tool.input_schema).clone()));
        let trials = if calls.nondeterminism { TRIALS } else { 1 };
        let mut answers: Vec<CallToolResult> = Vec::new();
        let mut failure = None;
        for _ in 0..trials {
            let call = mcp
                .call_tool_with_timeout(&tool.name, input.clone(), calls.timeout)
                .await;
            match call.outcome() {
                ToolOutcome::Success(result) | ToolOutcome::ToolError(result) => {
                    answers.push(result.clone());
                }
                ToolOutcome::RpcError(error) => {
                    failure = Some(format!(
                        "not measured: the call with {input} was refused: {} {}",
                        error.code, error.message
                    ));
                    break;
                }
                ToolOutcome::Failed(error) => {
                    failure = Some(format!(
                        "not measured: the call with {input} got no answer: {error}"
                    ));
                    break;
                }
            }
        }
        if let Some(reason) = failure {
            skip(skipped, reason);
            continue;
        }
        if let (Some(max), Some(first)) = (calls.max_response, answers.first()) {
            let (bytes, text) = size(first);
            if bytes > max {
                out.push(Finding::new(
                    rule("E301"),
                    &subject,
                    &at,
                    format!(
                        "a call with {input} returned {} KB ({} tokens), more than {} KB",
                        bytes / 1024,
                        count_tokens(&text),
                        max / 1024
                    ),
                    None,
                ));
            }
        }
        if calls.nondeterminism {
            let distinct: BTreeSet<String> =
                answers.iter().map(|a| comparable(a).to_string()).collect();
            if distinct.len() > 1 {
                out.push(Finding::new(
                    rule("W107"),
                    &subject,
                    &at,
                    format!(
                        "{TRIALS} identical calls with {input} gave {} different answers",
                        distinct.len()
                    ),
                    None,
                ));
            }
        }
    }
}

/// The bytes a response puts into the context (text, embedded text, and
/// the base64 of images, audio and blobs), and its text.
fn size(result: &CallToolResult) -> (usize, String) {
    let value = serde_json::to_value(result).unwrap_or(Value::Null);
    let mut bytes = 0;
    let mut text = String::new();
    let blocks = value.get("content").and_then(Value::as_array);
    for block in blocks.into_iter().flatten() {
        let resource = block.get("resource");
        for field in [
            block.get("text"),
            block.get("data"),
            resource.and_then(|r| r.get("text")),
            resource.and_then(|r| r.get("blob")),
        ]
        .into_iter()
        .flatten()
        {
            let Some(field) = field.as_str() else {
                continue;
            };
            bytes += field.len();
            if block.get("data").is_none() && resource.and_then(|r| r.get("blob")).is_none() {
                text.push_str(field);
            }
        }
    }
    (bytes, text)
}

/// A response as compared across calls: its content, structured content
/// and error flag (`_meta` left out: progress tokens and timings are the
/// protocol's, not the tool's answer).
fn comparable(result: &CallToolResult) -> Value {
    let mut value = serde_json::to_value(result).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.remove("_meta");
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(annotations: Value) -> Tool {
        serde_json::from_value(json!({"name": "t", "inputSchema": {"type": "object"},
            "annotations": annotations}))
        .unwrap()
    }

    #[test]
    fn tools_that_say_they_change_state_are_not_called() {
        assert!(changes_state(&tool(json!({"destructiveHint": true}))));
        assert!(changes_state(&tool(json!({"readOnlyHint": false}))));
        assert!(!changes_state(&tool(json!({"readOnlyHint": true}))));
        assert!(!changes_state(&tool(json!({}))));
    }

    fn result(value: Value) -> CallToolResult {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn size_counts_text_and_base64_and_only_text_is_tokenized() {
        let r = result(json!({"content": [
            {"type": "text", "text": "hello"},
            {"type": "image", "data": "QUJD", "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "a://b", "text": "doc"}},
            {"type": "resource", "resource": {"uri": "a://c", "blob": "AAAA"}}
        ]}));
        assert_eq!(size(&r), (5 + 4 + 3 + 4, "hellodoc".to_owned()));
    }

    #[test]
    fn answers_compare_without_their_meta() {
        let a = result(json!({"content": [{"type": "text", "text": "x"}], "_meta": {"t": 1}}));
        let b = result(json!({"content": [{"type": "text", "text": "x"}], "_meta": {"t": 2}}));
        let c = result(json!({"content": [{"type": "text", "text": "x"}], "isError": true}));
        assert_eq!(comparable(&a), comparable(&b));
        assert_ne!(comparable(&a), comparable(&c));
    }
}
