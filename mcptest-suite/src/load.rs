//! The loader: a suite file's text into tests ready to run, or a
//! [`LoadError`] that says where and what. Below the runner: nothing here
//! starts a server.

use std::{fmt, path::Path};

use super::{SuiteTest, TestKind, assertion, cases, yaml};
use mcptest_core::report::Location;

/// A suite file that cannot be used: where, and what was expected.
///
/// `Display` reads `path:line:column: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file, as given.
    pub file: String,
    /// 1-based line (0 when the error is about the file as a whole).
    pub line: u64,
    /// 1-based column (0 when the error is about the file as a whole).
    pub column: u64,
    /// What is wrong and what was expected.
    pub message: String,
}

impl LoadError {
    pub(crate) fn at(file: &str, pos: yaml::Pos, message: impl Into<String>) -> Self {
        LoadError {
            file: file.to_owned(),
            line: pos.line,
            column: pos.column,
            message: message.into(),
        }
    }

    pub(super) fn file(file: &str, message: impl Into<String>) -> Self {
        LoadError::at(file, yaml::Pos::default(), message)
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

impl std::error::Error for LoadError {}

/// Which format a suite file is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One mcp-assert assertion.
    McpAssert,
    /// One or more MCP Cases documents.
    McpCases,
}

/// Tells the formats apart: a file with several documents, or whose
/// document has `case` or a key starting with `in` / `out`, is MCP Cases.
fn format_of(docs: &[yaml::Node]) -> Format {
    if docs.len() > 1 || docs.iter().any(yaml::Node::is_cases_document) {
        Format::McpCases
    } else {
        Format::McpAssert
    }
}

fn location(file: &str, pos: yaml::Pos) -> Location {
    let narrow = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    Location::new(file, narrow(pos.line), narrow(pos.column))
}

/// The tests of one file's text. `format` is the format already told apart
/// (by `suite!` at compile time); `None` tells it from the content.
pub(super) fn parse(
    file: &str,
    text: &str,
    format: Option<Format>,
) -> Result<Vec<SuiteTest>, LoadError> {
    load(file, &yaml::parse_documents(file, text)?, format)
}

/// The tests of one file's documents, parsed already (by [`parse`], or by
/// `suite!` at compile time).
pub(super) fn load(
    file: &str,
    docs: &[yaml::Node],
    format: Option<Format>,
) -> Result<Vec<SuiteTest>, LoadError> {
    if docs.is_empty() {
        return Err(LoadError::file(
            file,
            "the file is empty: expected an mcp-assert assertion or MCP Cases documents",
        ));
    }
    let format = format.unwrap_or_else(|| format_of(docs));
    Ok(match format {
        Format::McpAssert => {
            let stem = Path::new(file)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let a = assertion::load(file, &docs[0], &stem)?;
            vec![SuiteTest {
                name: a.name.clone(),
                file: file.to_owned(),
                format,
                location: location(file, a.pos),
                kind: TestKind::Assertion(Box::new(a)),
            }]
        }
        Format::McpCases => cases::load(file, docs)?
            .into_iter()
            .map(|c| SuiteTest {
                name: c
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("case {}", c.number)),
                file: file.to_owned(),
                format,
                location: location(file, c.pos),
                kind: TestKind::Case(Box::new(c)),
            })
            .collect(),
    })
}
