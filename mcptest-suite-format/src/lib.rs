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
mod error;
#[cfg(feature = "files")]
pub mod fields;
#[cfg(feature = "files")]
mod json;
#[cfg(feature = "files")]
pub mod keys;
#[cfg(feature = "files")]
mod load;
mod names;
#[cfg(feature = "files")]
pub mod pattern;
#[cfg(feature = "files")]
pub mod plugin;
#[cfg(feature = "files")]
mod tree;

#[cfg(feature = "files")]
pub use error::LoadError;
#[cfg(feature = "files")]
pub use json::{ToJson, parse_documents};
#[cfg(feature = "files")]
pub use load::{Format, Loaded, format_of, load, parse};
pub use names::{LOG_LEVELS, nearest};
#[cfg(feature = "files")]
pub use tree::{Kind, Node, Pos, SyntaxError};
