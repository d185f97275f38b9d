//! What an `expect` block of a suite file judges, gathered once per call:
//! the checks (`checks`) and plugin entries (`plugin`) read it.

use std::{collections::BTreeMap, path::Path};

use mcptest_core::expect::{HasText, LabelledText, Shown};

/// What a suite expectation judges: the text mcp-assert compares (text
/// blocks joined, other content as the JSON the server sent) and what it
/// looks at besides.
pub(crate) struct Judged<'a> {
    pub(crate) text: &'a str,
    pub(crate) is_error: bool,
    /// Where `{{fixture}}` points, if anywhere.
    pub(crate) fixture: Option<&'a Path>,
    /// File contents before the call, for `file_unchanged` (path as written
    /// → contents, `None` when it did not exist).
    pub(crate) snapshots: &'a BTreeMap<String, Option<Vec<u8>>>,
    /// Progress notifications received for the call, when collected.
    pub(crate) progress: Option<usize>,
}

impl HasText for Judged<'_> {
    fn text_for_checks(&self) -> Result<LabelledText, Shown> {
        Ok(LabelledText {
            label: "text".into(),
            text: self.text.to_owned(),
        })
    }
}
