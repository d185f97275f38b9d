//! Checks on a resource read (`resources/read`): its contents, their MIME
//! types, text or blob.

use rmcp::model::{ReadResourceResult, ResourceContents};

use super::{
    Check, Count, Evidence, Shown, Verdict,
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

/// The read returned a number of content items. See [`contents_count`].
#[derive(Debug, Clone)]
pub struct ContentsCount(Count);

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
pub fn contents_count(count: impl Into<Count>) -> ContentsCount {
    ContentsCount(count.into())
}

impl Check<Reply<ReadResourceResult>> for ContentsCount {
    fn describe(&self) -> String {
        self.0.of("content item")
    }
    fn evaluate(&self, read: &Reply<ReadResourceResult>) -> Verdict {
        Verdict::from_bool(
            self.0.contains(read.contents.len()),
            Evidence::new().actual(contents_shown(read)),
        )
    }
}

/// Every content item has a MIME type. See [`mime_type_eq`].
#[derive(Debug, Clone)]
pub struct MimeTypeEq(String);

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
pub fn mime_type_eq(mime_type: impl Into<String>) -> MimeTypeEq {
    MimeTypeEq(mime_type.into())
}

impl Check<Reply<ReadResourceResult>> for MimeTypeEq {
    fn describe(&self) -> String {
        format!("contents with mimeType {}", quoted(&self.0))
    }
    fn evaluate(&self, read: &Reply<ReadResourceResult>) -> Verdict {
        let holds = !read.contents.is_empty()
            && read
                .contents
                .iter()
                .all(|c| mime_of(c) == Some(self.0.as_str()));
        Verdict::from_bool(holds, Evidence::new().actual(contents_shown(read)))
    }
}

/// Every content item is text. See [`text_only`].
#[derive(Debug, Clone)]
pub struct TextOnly;

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
pub fn text_only() -> TextOnly {
    TextOnly
}

impl Check<Reply<ReadResourceResult>> for TextOnly {
    fn describe(&self) -> String {
        "text contents".into()
    }
    fn evaluate(&self, read: &Reply<ReadResourceResult>) -> Verdict {
        let holds = !read.contents.is_empty()
            && read
                .contents
                .iter()
                .all(|c| matches!(c, ResourceContents::TextResourceContents { .. }));
        Verdict::from_bool(holds, Evidence::new().actual(contents_shown(read)))
    }
}

/// Every content item is a blob. See [`blob_only`].
#[derive(Debug, Clone)]
pub struct BlobOnly;

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
pub fn blob_only() -> BlobOnly {
    BlobOnly
}

impl Check<Reply<ReadResourceResult>> for BlobOnly {
    fn describe(&self) -> String {
        "blob contents".into()
    }
    fn evaluate(&self, read: &Reply<ReadResourceResult>) -> Verdict {
        let holds = !read.contents.is_empty()
            && read
                .contents
                .iter()
                .all(|c| matches!(c, ResourceContents::BlobResourceContents { .. }));
        Verdict::from_bool(holds, Evidence::new().actual(contents_shown(read)))
    }
}

super::text::text_methods!(Reply<ReadResourceResult>);

/// The fluent resource checks; each panics with the failure message.
impl Reply<ReadResourceResult> {
    /// Checks the number of content items. See
    /// [`expect::contents_count`](crate::expect::contents_count).
    #[track_caller]
    pub fn contents_count(&self, count: impl Into<Count>) -> &Self {
        self.assert(contents_count(count))
    }

    /// Checks every item's MIME type. See [`expect::mime_type_eq`](crate::expect::mime_type_eq).
    #[track_caller]
    pub fn mime_type_eq(&self, mime_type: impl Into<String>) -> &Self {
        self.assert(mime_type_eq(mime_type))
    }

    /// Checks the contents are text. See [`expect::text_only`](crate::expect::text_only).
    #[track_caller]
    pub fn text_only(&self) -> &Self {
        self.assert(text_only())
    }

    /// Checks the contents are blobs. See [`expect::blob_only`](crate::expect::blob_only).
    #[track_caller]
    pub fn blob_only(&self) -> &Self {
        self.assert(blob_only())
    }
}
