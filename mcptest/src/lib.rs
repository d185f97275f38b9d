//! Test any MCP (Model Context Protocol) server from `cargo test`.
//!
//! mcptest starts the server under test — a command, a Streamable HTTP URL,
//! or an rmcp handler hosted in-process — performs the handshake, and hands
//! the test an [`McpClient`] with one typed async method per MCP request.
//! Results are owned values that remember their request, every notification
//! is recorded, and the server is always shut down and reaped, also when the
//! test panics.
//!
//! ```no_run
//! use mcptest::prelude::*;
//!
//! #[tokio::test]
//! async fn adds_numbers() -> Result<(), mcptest::Error> {
//!     let mcp = Server::command("my-mcp-server --stdio").connect().await?;
//!     let call = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
//!     assert!(call.is_success(), "{call:?}");
//!     assert_eq!(call.text(), "5");
//!     Ok(())
//! }
//! ```
//!
//! Three layers of failure are kept apart, because a test usually cares
//! about exactly one of them: a tool that reports failure (`isError: true`,
//! [`ToolOutcome::ToolError`]), a JSON-RPC error ([`ToolOutcome::RpcError`],
//! [`Error::JsonRpc`]), and a broken connection (timeout, the server exited;
//! [`Error::Timeout`], [`Error::ServerExited`], [`Error::Transport`]).
#![warn(missing_docs)]
// Sampling, roots and logging are deprecated by SEP-2577 in rmcp, but they are
// part of every protocol revision up to 2025-11-25, which is what servers speak
// and so what a test tool must exercise.
#![allow(deprecated)]

#[doc(hidden)]
pub mod __private;
pub mod audit;
pub mod cassette;
mod client;
pub mod conformance;
pub mod coprocess;
mod error;
pub mod expect;
mod fixture;
pub mod fuzz;
pub mod lint;
mod notifications;
pub mod plugin;
mod raw;
pub mod report;
mod server;
pub mod snapshot;
#[cfg(feature = "suite")]
pub mod suite;
pub(crate) mod transport;

pub use cassette::CassetteMode;
pub use client::mocks::{Elicitation, Roots, Sampling};
pub use client::options::{DEFAULT_PROTOCOL_VERSION, STATELESS_PROTOCOL_VERSION};
pub use client::{
    CompletionRef, McpClient, Origin, PendingToolCall, Reply, Request, RpcError, ServerInfo,
    ToolCall, ToolCallStart, ToolOutcome,
};
pub use error::{Error, ServerOutput};
pub use fixture::Fixture;
pub use notifications::{ListKind, LogLevel, LogMessage, Notifications, ServerMessage};
#[cfg(feature = "http")]
pub use raw::http::{HttpReply, RawHttp};
pub use raw::stdio::RawConnection;
pub use server::Server;

/// One `#[test]` per suite file (mcp-assert) or case (MCP Cases), generated
/// at compile time from a directory or glob relative to the crate.
///
/// ```ignore
/// mcptest::suite!("tests/evals");
/// mcptest::suite!(
///     "tests/evals/**/*.yaml",
///     server = mcptest::Server::program(env!("CARGO_BIN_EXE_my-server")),
///     fixture = "tests/fixtures",
/// );
/// ```
///
/// Options: `server = <expr>` (a [`Server`] or a command line, for files
/// that name no server), `bin = "name"` (the same, for a binary of this
/// package), `handler = <expr>` (the same, an rmcp handler served in
/// process), `fixture = "dir"` (copied afresh for each test), `timeout =
/// "10s"` (or a `Duration` expression), `name = module_name` (default: the
/// last directory of the path), `ignore = "reason"` (marks every test
/// `#[ignore]`), `crate = path` (where mcptest is, when renamed). Every
/// mistake in the arguments is reported at once, on its tokens. See
/// [`mod@suite`].
#[cfg(feature = "suite")]
pub use mcptest_macros::suite;

/// The rmcp crate mcptest is built on, re-exported so tests can name its
/// model types (`Tool`, `CallToolResult`, `LoggingLevel`, ...) without a
/// version-matched dependency of their own.
pub use rmcp;

#[doc = include_str!("mcp_test.md")]
pub use mcptest_macros::mcp_test;

/// pretty_assertions' `assert_eq!` and `assert_ne!`: the same syntax as
/// std's, but a mismatch prints a line-by-line diff of the two values'
/// pretty `Debug` forms — handy for a result's JSON.
///
/// They are imported by name, next to the prelude, because no glob import
/// can bring them: a macro from a glob import that has the name of one of
/// std's is ambiguous (E0659) wherever it is used. A named import shadows
/// std's cleanly:
///
/// ```should_panic
/// use mcptest::prelude::*;
/// use mcptest::{assert_eq, assert_ne};
///
/// let reply = json!({"city": "Paris", "conditions": "sunny"});
/// assert_ne!(reply, json!({}));
/// // panics with a diff: `<` the left value, `>` the right one
/// assert_eq!(reply, json!({"city": "Paris", "conditions": "rain"}));
/// ```
pub use pretty_assertions::{assert_eq, assert_ne};

/// Everything a test file needs: `use mcptest::prelude::*;`
///
/// It leaves std's `assert_eq!` alone; for assertions that print a diff,
/// add `use mcptest::{assert_eq, assert_ne};` (see [`assert_eq`]).
pub mod prelude {
    pub use crate::{
        CompletionRef, Elicitation, Error, ListKind, LogLevel, McpClient, Notifications, Roots,
        Sampling, Server, ToolCall, ToolOutcome,
    };
    pub use crate::{Fixture, mcp_test};
    pub use crate::{
        assert_json_snapshot, assert_snapshot, assert_tool_surface_snapshot,
        expect::{self, Check, ContentKind, FileSnapshot, SoftChecks},
    };
    pub use serde_json::json;
}
