//! The one error of loading a suite file: [`LoadError`], which says where
//! (`file:line:column`) and what was expected.

use std::fmt;

use crate::tree::Pos;

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
    /// An error at `pos` of `file`.
    pub fn at(file: &str, pos: Pos, message: impl Into<String>) -> Self {
        LoadError {
            file: file.to_owned(),
            line: pos.line,
            column: pos.column,
            message: message.into(),
        }
    }

    /// An error about `file` as a whole.
    pub fn file(file: &str, message: impl Into<String>) -> Self {
        LoadError::at(file, Pos::default(), message)
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
