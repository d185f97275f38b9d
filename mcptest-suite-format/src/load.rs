//! A suite file's documents into what they hold — one assertion, or cases —
//! or a [`LoadError`] that says where and what.

use std::path::Path;

use crate::{
    assertion::{self, Assertion},
    cases::{self, Case},
    error::LoadError,
    json,
    tree::Node,
};

/// Which format a suite file is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One mcp-assert assertion.
    McpAssert,
    /// One or more MCP Cases documents.
    McpCases,
}

/// What a suite file holds, loaded and checked.
#[derive(Debug, Clone)]
pub enum Loaded {
    /// An mcp-assert file's one assertion.
    Assertion(Box<Assertion>),
    /// An MCP Cases file's cases, in file order.
    Cases(Vec<Case>),
}

/// Tells the formats apart: a file with several documents, or whose
/// document has `case` or a key starting with `in` / `out`, is MCP Cases.
pub fn format_of(docs: &[Node]) -> Format {
    if docs.len() > 1 || docs.iter().any(Node::is_cases_document) {
        Format::McpCases
    } else {
        Format::McpAssert
    }
}

/// What one file's text holds. `format` is the format already told apart
/// (by `suite!` at compile time); `None` tells it from the content.
pub fn parse(file: &str, text: &str, format: Option<Format>) -> Result<Loaded, LoadError> {
    load(file, &json::parse_documents(file, text)?, format)
}

/// What one file's documents hold, parsed already (by [`parse`], or by
/// `suite!` at compile time).
pub fn load(file: &str, docs: &[Node], format: Option<Format>) -> Result<Loaded, LoadError> {
    if docs.is_empty() {
        return Err(LoadError::file(
            file,
            "the file is empty: expected an mcp-assert assertion or MCP Cases documents",
        ));
    }
    Ok(match format.unwrap_or_else(|| format_of(docs)) {
        Format::McpAssert => {
            let stem = Path::new(file)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            Loaded::Assertion(Box::new(assertion::load(file, &docs[0], &stem)?))
        }
        Format::McpCases => Loaded::Cases(cases::load_cases(file, docs)?),
    })
}
