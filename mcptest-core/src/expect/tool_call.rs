//! Checks on a tool call: how it ended, its content blocks, how long it
//! took.

use std::time::Duration;

use rmcp::model::{ContentBlock, ResourceContents};
use serde_json::Value;

use super::{
    check::{Check, Polarity, Subject},
    failure::{Evidence, Shown, Verdict},
    outcome::outcome_shown,
    text::{HasText, LabelledText},
};
use crate::{
    client::ToolCall, client::ToolOutcome, error::ServerOutput, error::fmt_duration,
    wording::quoted,
};

impl Subject for ToolCall {
    fn call(&self) -> Option<String> {
        Some(super::request::describe_request(self.request(), 1))
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

/// Which way a call is expected to end: [`success`], [`tool_error`],
/// [`rpc_error`], [`failed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OutcomeIs {
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
pub fn success() -> impl Check<ToolCall> {
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
pub fn tool_error() -> impl Check<ToolCall> {
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
pub fn rpc_error(code: impl Into<Option<i32>>) -> impl Check<ToolCall> + 'static {
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
pub fn failed() -> impl Check<ToolCall> {
    OutcomeIs::Failed
}

impl Check<ToolCall> for OutcomeIs {
    fn describe(&self, polarity: Polarity) -> String {
        match (self, polarity) {
            (OutcomeIs::Success, Polarity::Positive) => "the tool succeeds".into(),
            (OutcomeIs::Success, Polarity::Negative) => "the tool does not succeed".into(),
            (OutcomeIs::ToolError, Polarity::Positive) => {
                "the tool reports an error (isError: true)".into()
            }
            (OutcomeIs::ToolError, Polarity::Negative) => {
                "the tool does not report an error (isError: true)".into()
            }
            (OutcomeIs::RpcError(None), p) => {
                p.pick("a JSON-RPC error", "no JSON-RPC error").into()
            }
            (OutcomeIs::RpcError(Some(code)), p) => {
                format!(
                    "{} with code {code}",
                    p.pick("a JSON-RPC error", "no JSON-RPC error")
                )
            }
            (OutcomeIs::Failed, p) => p
                .pick("no answer (a timeout, the server exited)", "an answer")
                .into(),
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
pub fn has_content(kind: ContentKind) -> impl Check<ToolCall> {
    HasContent(kind)
}

struct HasContent(ContentKind);

impl Check<ToolCall> for HasContent {
    fn describe(&self, polarity: Polarity) -> String {
        let kind = self.0.to_string();
        match polarity {
            Polarity::Positive => format!("content has {kind}"),
            Polarity::Negative => {
                let bare = kind.strip_prefix("an ").or_else(|| kind.strip_prefix("a "));
                format!("content has no {}", bare.unwrap_or(&kind))
            }
        }
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        if call.result().is_none() {
            return Verdict::cannot_judge(Evidence::new().actual(outcome_shown(call)));
        }
        let found = call.content().iter().any(|b| self.0.matches(b));
        Verdict::from_bool(
            found,
            Evidence::new().actual(Shown::plain("content:", summarize_blocks(call.content()))),
        )
    }
}

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
pub fn duration_under(limit: Duration) -> impl Check<ToolCall> {
    DurationUnder(limit)
}

struct DurationUnder(Duration);

impl Check<ToolCall> for DurationUnder {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("less than", "at least");
        format!("the call takes {verb} {}", fmt_duration(self.0))
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        Verdict::from_bool(
            call.elapsed() < self.0,
            Evidence::new().actual(Shown::plain("it took", fmt_duration(call.elapsed()))),
        )
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
