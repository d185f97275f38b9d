//! The suite file formats of mcptest — mcp-assert assertion files and MCP
//! Cases files — read, checked and typed: the one loader that the suite
//! runner (at run time) and the `suite!` macro (at compile time) share, so a
//! file is refused alike, with the same `file:line:column: message`,
//! whichever reads it first.
//!
//! Nothing here runs a server: the runner (`mcptest-suite`) turns what is
//! loaded into calls and checks. Every `expect` key of an mcp-assert file is
//! declared once, in [`expect_keys!`]: its field, how its value is read, and
//! (in the runner) the check it becomes.
//!
//! Without its `files` feature (on by default) the crate is only [`nearest`], the one
//! did-you-mean of mcptest's keys (the attribute's options use it too), and
//! [`LOG_LEVELS`], the one list of MCP's log level names (the core's
//! `LogLevel` names itself from it).
//!
//! This crate is not a public API of mcptest; use `mcptest::suite`.

#[cfg(feature = "files")]
pub mod assertion;
#[cfg(feature = "files")]
pub mod cases;
#[cfg(feature = "files")]
pub mod fields;
#[cfg(feature = "files")]
mod json;
#[cfg(feature = "files")]
pub mod keys;
#[cfg(feature = "files")]
mod load;
#[cfg(feature = "files")]
pub mod pattern;
#[cfg(feature = "files")]
pub mod plugin;
#[cfg(feature = "files")]
mod tree;

#[cfg(feature = "files")]
pub use json::{ToJson, parse_documents};
#[cfg(feature = "files")]
pub use load::{Format, LoadError, Loaded, format_of, load, parse};
#[cfg(feature = "files")]
pub use tree::{Kind, Node, Pos, SyntaxError};

/// The log levels of MCP (syslog's severities), least severe first: the
/// one list of their names, for the loader, the core's `LogLevel` and the
/// conformance checks (which reach it as `mcptest_core::__support::LOG_LEVELS`).
///
/// ```
/// use mcptest_suite_format::LOG_LEVELS;
/// assert_eq!(LOG_LEVELS.first(), Some(&"debug"));
/// assert!(LOG_LEVELS.contains(&"warning"));
/// ```
pub const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// The allowed name closest to `name`, if any is close enough to be a typo
/// (a third of the longer name's length, at least 2 edits away at most).
///
/// ```
/// use mcptest_suite_format::nearest;
/// let keys = ["contains", "contains_any", "not_contains", "equals"];
/// assert_eq!(nearest("contians", &keys), Some("contains"));
/// assert_eq!(nearest("equal", &keys), Some("equals"));
/// assert_eq!(nearest("zzzzzz", &keys), None);
/// ```
pub fn nearest<'b>(name: &str, allowed: &[&'b str]) -> Option<&'b str> {
    allowed
        .iter()
        .map(|candidate| (strsim::damerau_levenshtein(name, candidate), *candidate))
        .filter(|(distance, candidate)| *distance <= (candidate.len().max(name.len()) / 3).max(2))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}
