//! Checks on a tool call: how it ended, its content blocks, how long it
//! took; and the fluent methods for every check that applies to a
//! [`ToolCall`] (text, JSON, schema and file checks included).

use std::time::Duration;

use rmcp::model::{ContentBlock, ResourceContents};
use serde_json::Value;

use super::{
    Check, Count, Evidence, Shown, Subject, Verdict,
    files::FileSnapshot,
    json,
    outcome::outcome_shown,
    text::{HasText, LabelledText},
};
use crate::{
    client::ToolCall, client::ToolOutcome, error::ServerOutput, error::fmt_duration,
    wording::quoted,
};

impl Subject for ToolCall {
    fn call(&self) -> Option<String> {
        Some(super::describe_request(self.request(), 1))
    }
    fn server_output(&self) -> ServerOutput {
        ToolCall::server_output(self)
    }
}

impl HasText for ToolCall {
    fn text_for_checks(&self) -> Result<LabelledText, Shown> {
        match self.outcome() {
            ToolOutcome::Success(_) => Ok(LabelledText {
                label: "text".into(),
                text: self.text(),
            }),
            ToolOutcome::ToolError(_) => Ok(LabelledText {
                label: "text (isError: true)".into(),
                text: self.text(),
            }),
            _ => Err(outcome_shown(self)),
        }
    }

    fn has_non_text_content(&self) -> bool {
        self.content().iter().any(|c| c.as_text().is_none())
            || self.structured().is_some_and(|s| match s {
                Value::Null => false,
                Value::Array(a) => !a.is_empty(),
                Value::Object(o) => !o.is_empty(),
                _ => true,
            })
    }
}

/// Which way a call is expected to end. See [`success`], [`tool_error`], [`rpc_error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutcomeIs {
    /// The tool ran and reported success.
    Success,
    /// The tool ran and reported failure (`isError: true`).
    ToolError,
    /// The server answered with a JSON-RPC error, with this code if given.
    RpcError(Option<i32>),
    /// No answer at all: a timeout, the server exited, the connection broke.
    Failed,
}

/// The tool succeeded: no `isError`, no JSON-RPC error, an answer at all.
/// Fluent form: [`ToolCall::assert_success`].
///
/// ```
/// # let call = mcptest::expect::samples::add_call();
/// call.assert_success();
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::failing_call();
/// call.assert_success();
/// ```
pub fn success() -> OutcomeIs {
    OutcomeIs::Success
}

/// The tool reported failure with `isError: true`. Fluent form:
/// [`ToolCall::assert_tool_error`].
///
/// ```
/// # let call = mcptest::expect::samples::failing_call();
/// call.assert_tool_error().text_contains("on purpose");
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::add_call();
/// call.assert_tool_error();
/// ```
pub fn tool_error() -> OutcomeIs {
    OutcomeIs::ToolError
}

/// The server answered with a JSON-RPC error; with `Some(code)`, with that
/// code. Fluent form: [`ToolCall::assert_rpc_error`].
///
/// ```
/// # let call = mcptest::expect::samples::rpc_error_call();
/// call.assert_rpc_error(-32602);
/// call.check(mcptest::expect::rpc_error(None)).unwrap();
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::rpc_error_call();
/// call.assert_rpc_error(-32601);
/// ```
pub fn rpc_error(code: impl Into<Option<i32>>) -> OutcomeIs {
    OutcomeIs::RpcError(code.into())
}

/// The call got no answer at all: a timeout, the server exited, the
/// connection broke ([`ToolOutcome::Failed`]). Fluent form:
/// [`ToolCall::assert_failed`], the way to say that a test expects a call to
/// get no answer (a call that got none and that nothing looked at fails the
/// test instead).
///
/// ```
/// # let call = mcptest::expect::samples::timed_out_call();
/// call.assert_failed();
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::add_call();
/// call.assert_failed();
/// ```
pub fn failed() -> OutcomeIs {
    OutcomeIs::Failed
}

impl Check<ToolCall> for OutcomeIs {
    fn describe(&self) -> String {
        match self {
            OutcomeIs::Success => "the tool succeeds".into(),
            OutcomeIs::ToolError => "the tool reports an error (isError: true)".into(),
            OutcomeIs::RpcError(None) => "a JSON-RPC error".into(),
            OutcomeIs::RpcError(Some(code)) => format!("a JSON-RPC error with code {code}"),
            OutcomeIs::Failed => "no answer (a timeout, the server exited)".into(),
        }
    }

    fn describe_negated(&self) -> String {
        match self {
            OutcomeIs::Success => "the tool does not succeed".into(),
            OutcomeIs::ToolError => "the tool does not report an error (isError: true)".into(),
            OutcomeIs::RpcError(None) => "no JSON-RPC error".into(),
            OutcomeIs::RpcError(Some(code)) => format!("no JSON-RPC error with code {code}"),
            OutcomeIs::Failed => "an answer".into(),
        }
    }

    fn evaluate(&self, call: &ToolCall) -> Verdict {
        let holds = match (self, call.outcome()) {
            (OutcomeIs::Success, ToolOutcome::Success(_)) => true,
            (OutcomeIs::ToolError, ToolOutcome::ToolError(_)) => true,
            (OutcomeIs::RpcError(None), ToolOutcome::RpcError(_)) => true,
            (OutcomeIs::RpcError(Some(code)), ToolOutcome::RpcError(e)) => e.code == *code,
            (OutcomeIs::Failed, ToolOutcome::Failed(_)) => true,
            _ => false,
        };
        Verdict::from_bool(holds, Evidence::new().actual(outcome_shown(call)))
    }
}

/// A kind of content block, for [`has_content`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContentKind {
    /// A text block.
    Text,
    /// An image, with this MIME type if given.
    Image(Option<String>),
    /// An audio clip, with this MIME type if given.
    Audio(Option<String>),
    /// An embedded resource, with this URI if given.
    Resource(Option<String>),
    /// A resource link, with this URI if given.
    ResourceLink(Option<String>),
}

impl ContentKind {
    /// A text block.
    pub fn text() -> Self {
        ContentKind::Text
    }
    /// An image with MIME type `mime_type` (`"image/png"`).
    pub fn image(mime_type: impl Into<String>) -> Self {
        ContentKind::Image(Some(mime_type.into()))
    }
    /// An audio clip with MIME type `mime_type` (`"audio/wav"`).
    pub fn audio(mime_type: impl Into<String>) -> Self {
        ContentKind::Audio(Some(mime_type.into()))
    }
    /// An embedded resource with URI `uri`.
    pub fn resource(uri: impl Into<String>) -> Self {
        ContentKind::Resource(Some(uri.into()))
    }
    /// A resource link to `uri`.
    pub fn resource_link(uri: impl Into<String>) -> Self {
        ContentKind::ResourceLink(Some(uri.into()))
    }

    fn matches(&self, block: &ContentBlock) -> bool {
        fn same(want: &Option<String>, have: &str) -> bool {
            want.as_deref().is_none_or(|w| w == have)
        }
        match (self, block) {
            (ContentKind::Text, ContentBlock::Text(_)) => true,
            (ContentKind::Image(m), ContentBlock::Image(i)) => same(m, &i.mime_type),
            (ContentKind::Audio(m), ContentBlock::Audio(a)) => same(m, &a.mime_type),
            (ContentKind::Resource(u), ContentBlock::Resource(r)) => {
                same(u, resource_uri(&r.resource))
            }
            (ContentKind::ResourceLink(u), ContentBlock::ResourceLink(l)) => same(u, &l.uri),
            _ => false,
        }
    }
}

impl std::fmt::Display for ContentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (kind, detail) = match self {
            ContentKind::Text => ("a text block", None),
            ContentKind::Image(m) => ("an image", m.as_ref().map(|m| format!("of type {m}"))),
            ContentKind::Audio(m) => ("an audio block", m.as_ref().map(|m| format!("of type {m}"))),
            ContentKind::Resource(u) => (
                "an embedded resource",
                u.as_ref().map(|u| format!("with URI {u}")),
            ),
            ContentKind::ResourceLink(u) => {
                ("a resource link", u.as_ref().map(|u| format!("to {u}")))
            }
        };
        match detail {
            Some(detail) => write!(f, "{kind} {detail}"),
            None => f.write_str(kind),
        }
    }
}

fn resource_uri(contents: &ResourceContents) -> &str {
    match contents {
        ResourceContents::TextResourceContents { uri, .. }
        | ResourceContents::BlobResourceContents { uri, .. } => uri,
        #[allow(unreachable_patterns)]
        _ => "",
    }
}

/// One line per content block: `text "5"`, `image image/png (68 bytes of base64)`.
pub(crate) fn summarize_blocks(blocks: &[ContentBlock]) -> String {
    if blocks.is_empty() {
        return "no content blocks".into();
    }
    let lines: Vec<String> = blocks
        .iter()
        .enumerate()
        .map(|(i, block)| {
            let what = match block {
                ContentBlock::Text(t) => {
                    let mut text = t.text.clone();
                    if text.chars().count() > 60 {
                        text = text.chars().take(57).collect::<String>() + "...";
                    }
                    format!("text {}", quoted(&text))
                }
                ContentBlock::Image(i) => {
                    format!("image {} ({} bytes of base64)", i.mime_type, i.data.len())
                }
                ContentBlock::Audio(a) => {
                    format!("audio {} ({} bytes of base64)", a.mime_type, a.data.len())
                }
                ContentBlock::Resource(r) => {
                    format!("embedded resource {}", resource_uri(&r.resource))
                }
                ContentBlock::ResourceLink(l) => format!("resource link {}", l.uri),
                other => format!(
                    "other content {}",
                    serde_json::to_string(other).unwrap_or_default()
                ),
            };
            format!("[{i}] {what}")
        })
        .collect();
    format!(
        "{} block{}\n{}",
        blocks.len(),
        if blocks.len() == 1 { "" } else { "s" },
        lines.join("\n")
    )
}

/// The result has a content block of a kind. See [`has_content`].
#[derive(Debug, Clone)]
pub struct HasContent(ContentKind);

/// The result has at least one content block of `kind` (text, an image with
/// a MIME type, audio, an embedded resource, a resource link).
///
/// ```
/// use mcptest::expect::ContentKind;
/// # let call = mcptest::expect::samples::image_call();
/// call.has_content(ContentKind::image("image/png"));
/// ```
///
/// ```should_panic
/// # use mcptest::expect::ContentKind;
/// # let call = mcptest::expect::samples::image_call();
/// call.has_content(ContentKind::image("image/jpeg"));
/// ```
pub fn has_content(kind: ContentKind) -> HasContent {
    HasContent(kind)
}

impl Check<ToolCall> for HasContent {
    fn describe(&self) -> String {
        format!("content has {}", self.0)
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        if call.result().is_none() {
            return Verdict::fail(Evidence::new().actual(outcome_shown(call)));
        }
        let found = call.content().iter().any(|b| self.0.matches(b));
        Verdict::from_bool(
            found,
            Evidence::new().actual(Shown::plain("content:", summarize_blocks(call.content()))),
        )
    }
}

/// The call took less than a bound. See [`duration_under`].
#[derive(Debug, Clone)]
pub struct DurationUnder(Duration);

/// The call took less than `limit`, from sending the request to the answer.
///
/// ```
/// use std::time::Duration;
/// # let call = mcptest::expect::samples::add_call();
/// call.duration_under(Duration::from_secs(1));
/// ```
///
/// ```should_panic
/// # use std::time::Duration;
/// # let call = mcptest::expect::samples::add_call();
/// call.duration_under(Duration::ZERO);
/// ```
pub fn duration_under(limit: Duration) -> DurationUnder {
    DurationUnder(limit)
}

impl Check<ToolCall> for DurationUnder {
    fn describe(&self) -> String {
        format!("the call takes less than {}", fmt_duration(self.0))
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        Verdict::from_bool(
            call.elapsed() < self.0,
            Evidence::new().actual(Shown::plain("it took", fmt_duration(call.elapsed()))),
        )
    }
}

super::subject_methods!(ToolCall);
super::text::text_methods!(ToolCall);

/// The fluent checks on a tool call; each panics with the failure message.
/// See [`expect`](crate::expect) for the `Result`-returning form.
impl ToolCall {
    /// Checks that the tool succeeded. See [`expect::success`](crate::expect::success).
    #[track_caller]
    pub fn assert_success(&self) -> &Self {
        self.assert(success())
    }

    /// Checks that the tool reported `isError: true`. See
    /// [`expect::tool_error`](crate::expect::tool_error).
    #[track_caller]
    pub fn assert_tool_error(&self) -> &Self {
        self.assert(tool_error())
    }

    /// Checks that the server answered with a JSON-RPC error (with `code`,
    /// when given). See [`expect::rpc_error`](crate::expect::rpc_error).
    #[track_caller]
    pub fn assert_rpc_error(&self, code: impl Into<Option<i32>>) -> &Self {
        self.assert(rpc_error(code))
    }

    /// Checks that the call got no answer: a timeout, the server exited, the
    /// connection broke. The way to say a test expects that; see
    /// [`expect::failed`](crate::expect::failed).
    #[track_caller]
    pub fn assert_failed(&self) -> &Self {
        self.assert(failed())
    }

    /// Checks for a content block of `kind`. See [`expect::has_content`](crate::expect::has_content).
    #[track_caller]
    pub fn has_content(&self, kind: ContentKind) -> &Self {
        self.assert(has_content(kind))
    }

    /// Checks the call's duration. See [`expect::duration_under`](crate::expect::duration_under).
    #[track_caller]
    pub fn duration_under(&self, limit: Duration) -> &Self {
        self.assert(duration_under(limit))
    }

    /// Checks how many progress notifications came for this call. See
    /// [`expect::progress_count`](crate::expect::progress_count).
    #[track_caller]
    pub fn progress_count(&self, count: impl Into<Count>) -> &Self {
        self.assert(super::progress_count(count))
    }

    /// Checks `structuredContent` equals `expected`. See
    /// [`expect::structured_eq`](crate::expect::structured_eq).
    #[track_caller]
    pub fn structured_eq(&self, expected: Value) -> &Self {
        self.assert(json::structured_eq(expected))
    }

    /// Checks `structuredContent` contains `expected`. See
    /// [`expect::structured_contains`](crate::expect::structured_contains).
    #[track_caller]
    pub fn structured_contains(&self, expected: Value) -> &Self {
        self.assert(json::structured_contains(expected))
    }

    /// Checks a JSONPath matches something. See
    /// [`expect::json_path_exists`](crate::expect::json_path_exists).
    #[track_caller]
    pub fn json_path_exists(&self, path: &str) -> &Self {
        self.assert(json::json_path_exists(path))
    }

    /// Checks the value at a JSONPath. See
    /// [`expect::json_path_eq`](crate::expect::json_path_eq).
    #[track_caller]
    pub fn json_path_eq(&self, path: &str, expected: Value) -> &Self {
        self.assert(json::json_path_eq(path, expected))
    }

    /// Checks how many nodes a JSONPath matches. See
    /// [`expect::json_path_count`](crate::expect::json_path_count).
    #[track_caller]
    pub fn json_path_count(&self, path: &str, count: impl Into<Count>) -> &Self {
        self.assert(json::json_path_count(path, count))
    }

    /// Checks the result's JSON array length. See
    /// [`expect::array_len`](crate::expect::array_len).
    #[track_caller]
    pub fn array_len(&self, count: impl Into<Count>) -> &Self {
        self.assert(json::array_len(count))
    }

    /// Checks a file in the fixture directory contains `text`. See
    /// [`expect::file_contains`](crate::expect::file_contains).
    #[track_caller]
    pub fn file_contains(&self, path: &str, text: &str) -> &Self {
        self.assert(super::file_contains(path, text))
    }

    /// Checks a file in the fixture directory does not contain `text`. See
    /// [`expect::file_not_contains`](crate::expect::file_not_contains).
    #[track_caller]
    pub fn file_not_contains(&self, path: &str, text: &str) -> &Self {
        self.assert(super::file_not_contains(path, text))
    }

    /// Checks a file in the fixture directory does not exist. See
    /// [`expect::file_not_exists`](crate::expect::file_not_exists).
    #[track_caller]
    pub fn file_not_exists(&self, path: &str) -> &Self {
        self.assert(super::file_not_exists(path))
    }

    /// Checks files are as they were before the call. See
    /// [`expect::files_unchanged`](crate::expect::files_unchanged).
    #[track_caller]
    pub fn files_unchanged(&self, before: &FileSnapshot) -> &Self {
        self.assert(super::files_unchanged(before))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expect::samples;

    #[test]
    fn outcomes_describe_what_happened() {
        let failure = samples::failing_call().check(success()).unwrap_err();
        assert_eq!(
            failure.to_string(),
            "call:     tools/call fail {}\n\
             expected: the tool succeeds\n\
             actual:   isError: true with text \"the tool failed on purpose\""
        );
        assert!(crate::expect::text::is_empty_text(" {} "));
    }
}
