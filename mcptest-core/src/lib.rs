//! The core of [mcptest](https://docs.rs/mcptest): the client harness, fluent
//! checks, snapshots, fixtures, cassettes and reports that a test needs.
//!
//! Use it through the `mcptest` crate, which re-exports what a test author
//! uses and, behind features, the floors built on it (suites, conformance,
//! scans). The crates above this one use its public API, and what they need
//! beyond a test's API from one hidden module, `__support`.
#![warn(missing_docs)]
// Sampling, roots and logging are deprecated by SEP-2577 in rmcp, but they are
// part of every protocol revision up to 2025-11-25, which is what servers speak
// and so what a test tool must exercise.
#![allow(deprecated)]

#[doc(hidden)]
pub mod __private;
#[doc(hidden)]
pub mod __support;
mod assertions;
pub mod cassette;
mod client;
mod command;
mod definitions;
mod error;
pub mod expect;
mod fixture;
mod future;
pub mod limits;
#[doc(hidden)]
pub mod needs;
#[cfg(feature = "http")]
mod oauth;
pub mod plugin;
mod raw;
pub mod report;
mod server;
mod server_messages;
pub mod snapshot;
pub(crate) mod transport;
mod wire_schema;
mod wording;

pub use cassette::CassetteMode;
pub use client::answers::{Elicitation, Roots, Sampling};
pub use client::options::{DEFAULT_PROTOCOL_VERSION, STATELESS_PROTOCOL_VERSION};
pub use client::{
    CompletionRef, McpClient, Origin, PendingToolCall, Reply, Request, RpcError, ServerInfo,
    ToolCall, ToolOutcome,
};
pub use definitions::Definitions;
pub use error::{Error, ServerOutput};
pub use fixture::Fixture;
#[cfg(feature = "http")]
pub use oauth::ClientCredentials;
pub use raw::RawConnection;
#[cfg(feature = "http")]
pub use raw::{HttpReply, RawHttp};
pub use server::Server;
pub use server_messages::{ListKind, LogLevel, LogMessage, ServerMessage, ServerMessages};
pub use wire_schema::{SchemaViolation, WireSchema};

/// The rmcp crate mcptest is built on, re-exported so tests can name its
/// model types (`Tool`, `CallToolResult`, `LoggingLevel`, ...) without a
/// version-matched dependency of their own.
pub use rmcp;

#[doc = include_str!("mcp_test.md")]
pub use mcptest_macros::mcp_test;

/// Everything a test file needs: `use mcptest::prelude::*;`
///
/// It leaves std's `assert_eq!` alone; for assertions that print a diff,
/// add `use mcptest::{assert_eq, assert_ne};` (see [`assert_eq`]).
pub mod prelude {
    pub use crate::{
        CompletionRef, Elicitation, Error, ListKind, LogLevel, McpClient, Roots, Sampling, Server,
        ServerMessages, ToolCall, ToolOutcome,
    };
    pub use crate::{Fixture, mcp_test};
    pub use crate::{
        assert_json_snapshot, assert_snapshot, assert_tool_surface_snapshot,
        expect::{self, Check, ContentKind, FileSnapshot, SoftChecks},
    };
    pub use serde_json::json;
}
