//! The coprocess protocol (v3, and the v2 it still serves): test frameworks
//! in any language drive one engine over newline-delimited JSON-RPC on a
//! child process's stdin and stdout, instead of speaking MCP themselves.
//!
//! The halves that live here:
//!
//! - [`serve`]: the engine side, behind `mcptest exec --connection-server`.
//!   It holds one MCP connection to the server under test (when there is
//!   one) and answers every method of [`METHODS`], one request line in, one
//!   response line out, strictly in order. A session without a handshake,
//!   or with `protocol_version: 2`, gets the v2 surface and shapes byte for
//!   byte; a handshake of v3 gets the v3 surface: the verdict of `mcp.call`
//!   with the content and what the server sent during the call, the
//!   passthrough result, `mcp.messages`, the suite methods (`suite.list`,
//!   `suite.run`: the runner behind `mcptest run`) and recorded results.
//! - [`Client`]: the SDK side, in Rust. It spawns any v3 binary, performs the
//!   handshake and fails fast on a version mismatch or on a binary that does
//!   not know the handshake (a v1 binary answers it with -32601); it parses
//!   every result strictly.
//! - [`SCHEMA`] and [`FrameSchema`]: the JSON Schema of every frame (the file
//!   `coprocess.schema.json` of this crate), which `mcptest exec
//!   --check-frames` applies to every frame it receives and sends.
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
//!     ["exec", "--connection-server", "--", "my-server", "--stdio"],
//! )
//! .await?;
//! let reply = engine.call_tool("get_weather", json!({"city": "Paris"})).await?;
//! assert!(reply.success, "{:?}", reply.error);
//! engine.shutdown().await?;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod client;
mod fault;
mod frames;
mod messages;
mod protocol;
mod serve;
mod suite;

pub use client::{
    CallReply, Client, CoprocessError, FlushReply, HandshakeReply, ListedTest, LogEntry,
    MessagesReply, Passthrough, SentMessage, SuiteRun, SuiteRunReply, SuiteServer, TestSkip,
};
pub use frames::{FrameError, FrameSchema};
/// The credentials of a [`SuiteServer`] reached at a URL.
pub use mcptest_suite::AuthSpec;
pub use protocol::{
    COMMAND_LINE_LANES, COPROCESS_PROTOCOL_VERSION, METHODS, OLDEST_COPROCESS_PROTOCOL_VERSION,
    SCHEMA, codes, features, methods_of,
};
pub use serve::{ExecOptions, serve};
