//! Checks on a resource read (`resources/read`): its contents, their MIME
//! types, text or blob.

use rmcp::model::{ReadResourceResult, ResourceContents};

use super::{
    check::{Check, Polarity},
    count::Count,
    failure::{Evidence, Shown, Verdict},
    text::{HasText, LabelledText},
};
use crate::client::Reply;
use crate::wording::quoted;

impl HasText for Reply<ReadResourceResult> {
    fn text_for_checks(&self) -> Result<LabelledText, Shown> {
        let texts: Vec<&str> = self
            .contents
            .iter()
            .filter_map(|c| match c {
                ResourceContents::TextResourceContents { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        if texts.is_empty() && !self.contents.is_empty() {
            return Err(contents_shown(self));
        }
        Ok(LabelledText {
            label: "resource text".into(),
            text: texts.join("\n"),
        })
    }

    fn has_non_text_content(&self) -> bool {
        self.contents
            .iter()
            .any(|c| matches!(c, ResourceContents::BlobResourceContents { blob, .. } if !blob.is_empty()))
    }
}

/// (uri, mime type, "text"/"blob", size) of one content item.
fn describe_contents(c: &ResourceContents) -> (String, Option<String>, String) {
    match c {
        ResourceContents::TextResourceContents {
            uri,
            mime_type,
            text,
            ..
        } => (
            uri.clone(),
            mime_type.clone(),
            format!("text {}", quoted(&truncate(text))),
        ),
        ResourceContents::BlobResourceContents {
            uri,
            mime_type,
            blob,
            ..
        } => (
            uri.clone(),
            mime_type.clone(),
            format!("blob ({} bytes of base64)", blob.len()),
        ),
        #[allow(unreachable_patterns)]
        _ => (String::new(), None, "unknown contents".into()),
    }
}

fn truncate(text: &str) -> String {
    if text.chars().count() > 60 {
        text.chars().take(57).collect::<String>() + "..."
    } else {
        text.to_owned()
    }
}

fn mime_of(c: &ResourceContents) -> Option<&str> {
    match c {
        ResourceContents::TextResourceContents { mime_type, .. }
        | ResourceContents::BlobResourceContents { mime_type, .. } => mime_type.as_deref(),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// One line per content item.
fn contents_shown(read: &ReadResourceResult) -> Shown {
    let n = read.contents.len();
    let lines: Vec<String> = read
        .contents
        .iter()
        .map(|c| {
            let (uri, mime, what) = describe_contents(c);
            format!(
                "{uri} ({}): {what}",
                mime.as_deref().unwrap_or("no mimeType")
            )
        })
        .collect();
    let label = format!("{n} content item{}", if n == 1 { "" } else { "s" });
    match lines.as_slice() {
        [] => Shown::plain(label, ""),
        [one] => Shown::plain(format!("{label}:"), one.clone()),
        _ => Shown::plain(format!("{label}:"), format!("\n{}", lines.join("\n"))),
    }
}

/// Whether every content item is `like` that; a read without contents has
/// nothing to judge.
fn each_item(
    read: &Reply<ReadResourceResult>,
    like: impl Fn(&ResourceContents) -> bool,
) -> Verdict {
    let evidence = Evidence::new().actual(contents_shown(read));
    if read.contents.is_empty() {
        return Verdict::cannot_judge(evidence);
    }
    Verdict::from_bool(read.contents.iter().all(like), evidence)
}

/// The read returned `count` content items (a number or a range).
///
/// ```
/// # let read = mcptest::expect::samples::resource_reply();
/// read.contents_count(1);
/// ```
///
/// ```should_panic
/// # let read = mcptest::expect::samples::resource_reply();
/// read.contents_count(2..);
/// ```
pub fn contents_count(count: impl Into<Count>) -> impl Check<Reply<ReadResourceResult>> + 'static {
    ContentsCount(count.into())
}

struct ContentsCount(Count);

impl Check<Reply<ReadResourceResult>> for ContentsCount {
    fn describe(&self, polarity: Polarity) -> String {
        self.0.words("content item", polarity)
    }
    fn evaluate(&self, read: &Reply<ReadResourceResult>) -> Verdict {
        Verdict::from_bool(
            self.0.contains(read.contents.len()),
            Evidence::new().actual(contents_shown(read)),
        )
    }
}

/// There are contents, and every item has MIME type `mime_type`.
///
/// ```
/// # let read = mcptest::expect::samples::resource_reply();
/// read.mime_type_eq("text/plain");
/// ```
///
/// ```should_panic
/// # let read = mcptest::expect::samples::resource_reply();
/// read.mime_type_eq("application/json");
/// ```
pub fn mime_type_eq(
    mime_type: impl Into<String>,
) -> impl Check<Reply<ReadResourceResult>> + 'static {
    MimeTypeEq(mime_type.into())
}

struct MimeTypeEq(String);

impl Check<Reply<ReadResourceResult>> for MimeTypeEq {
    fn describe(&self, polarity: Polarity) -> String {
        let with = polarity.pick("with", "not all with");
        format!("contents {with} mimeType {}", quoted(&self.0))
    }
    fn evaluate(&self, read: &Reply<ReadResourceResult>) -> Verdict {
        each_item(read, |c| mime_of(c) == Some(self.0.as_str()))
    }
}

/// There are contents, and every item is text (`text`, not `blob`).
///
/// ```
/// # let read = mcptest::expect::samples::resource_reply();
/// read.text_only();
/// ```
///
/// ```should_panic
/// # let read = mcptest::expect::samples::blob_reply();
/// read.text_only();
/// ```
pub fn text_only() -> impl Check<Reply<ReadResourceResult>> {
    TextOnly
}

struct TextOnly;

impl Check<Reply<ReadResourceResult>> for TextOnly {
    fn describe(&self, polarity: Polarity) -> String {
        polarity
            .pick("text contents", "contents not all text")
            .into()
    }
    fn evaluate(&self, read: &Reply<ReadResourceResult>) -> Verdict {
        each_item(read, |c| {
            matches!(c, ResourceContents::TextResourceContents { .. })
        })
    }
}

/// There are contents, and every item is a base64 `blob`.
///
/// ```
/// # let read = mcptest::expect::samples::blob_reply();
/// read.blob_only();
/// ```
///
/// ```should_panic
/// # let read = mcptest::expect::samples::resource_reply();
/// read.blob_only();
/// ```
pub fn blob_only() -> impl Check<Reply<ReadResourceResult>> {
    BlobOnly
}

struct BlobOnly;

impl Check<Reply<ReadResourceResult>> for BlobOnly {
    fn describe(&self, polarity: Polarity) -> String {
        polarity
            .pick("blob contents", "contents not all blobs")
            .into()
    }
    fn evaluate(&self, read: &Reply<ReadResourceResult>) -> Verdict {
        each_item(read, |c| {
            matches!(c, ResourceContents::BlobResourceContents { .. })
        })
    }
}
