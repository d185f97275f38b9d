//! The coprocess protocol (v2): test frameworks in any language drive one
//! engine over newline-delimited JSON-RPC on a child process's stdin and
//! stdout, instead of speaking MCP themselves.
//!
//! Two halves live here:
//!
//! - [`serve`]: the engine side, behind `mcptest exec --connection-server`.
//!   It holds one MCP connection to the server under test and answers
//!   `coprocess/handshake`, `mcp.initialize`, `mcp.call`, `mcp.listTools`,
//!   `mcp.listResources`, `mcp.readResource`, `mcp.callPrompt`,
//!   `mcp.reporter.setUpload`, `mcp.reporter.flush`, `mcp.cassette.set_mode`,
//!   `mcp.cache.set_mode` (both on the [`cassette`](mcptest_core::cassette) store)
//!   and `mcp.shutdown`, one
//!   request line in, one response line out, strictly in order.
//! - [`Client`]: the SDK side, in Rust. It spawns any v2 binary, performs the
//!   handshake and fails fast on a version mismatch or on a binary that does
//!   not know the handshake (a v1 binary answers it with -32601).
//!
//! What the engine keeps that a bare bridge loses: an upstream JSON-RPC error
//! keeps its code, message and data (`data.upstream`; the coprocess error is
//! -32000); a dropped upstream connection is -32001 with the exit status and
//! the tail of the server's stderr; a call that takes too long is -32603
//! naming the method and the limit; `mcp.initialize` reports the server's
//! real name and version.
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcptest_coprocess::CoprocessError> {
//! use mcptest_coprocess::Client;
//! use serde_json::json;
//!
//! let mut engine = Client::spawn(
//!     "mcptest",
//!     ["exec", "--connection-server", "--server-command", "my-server --stdio"],
//! )
//! .await?;
//! let reply = engine.call_tool("get_weather", json!({"city": "Paris"})).await?;
//! assert!(reply.success, "{:?}", reply.error);
//! engine.shutdown().await?;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod client;
mod serve;

pub use client::{CallReply, Client, CoprocessError};
pub use serve::{ExecOptions, serve};

/// The coprocess protocol version this crate speaks, on both sides. Any
/// change to a frame shape bumps it.
pub const COPROCESS_PROTOCOL_VERSION: u32 = 2;

/// JSON-RPC and application error codes of the coprocess channel.
pub mod codes {
    /// The line is not JSON.
    pub const PARSE_ERROR: i32 = -32700;
    /// Not a request of the closed envelope (an extra field, no method, a
    /// line over the size limit).
    pub const INVALID_REQUEST: i32 = -32600;
    /// No such method (also: a lane that runs only from the command line).
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// The params are wrong (also: a handshake with another version).
    pub const INVALID_PARAMS: i32 = -32602;
    /// The engine failed (also: a call over its time limit).
    pub const INTERNAL_ERROR: i32 = -32603;
    /// The upstream MCP server answered with an error.
    pub const UPSTREAM_ERROR: i32 = -32000;
    /// The upstream MCP connection dropped (or never came up).
    pub const UPSTREAM_DROPPED: i32 = -32001;
}

/// Suite lanes that no coprocess method drives, each with the command that
/// runs it. A request for one is answered with an error naming the command.
pub const COMMAND_LINE_LANES: &[(&str, &str)] = &[
    (
        "agents",
        "mcptest intercept --server CMD --trajectory FILE (checks a real agent's tool calls)",
    ),
    (
        "compliance",
        "mcptest conformance --server CMD (or --url URL)",
    ),
    (
        "security",
        "mcptest audit --server CMD; mcptest fuzz --server CMD",
    ),
    ("evals", "mcptest run <suite>"),
];
