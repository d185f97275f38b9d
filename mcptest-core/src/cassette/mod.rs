//! Record a session with a server once, replay it without the server.
//!
//! [`Server::cassette`](crate::Server::cassette) puts a cassette file
//! between the client and a server that speaks over stdio (a command or an
//! in-process handler). In [`CassetteMode::Record`] every message of the
//! session — requests and answers, notifications, in order — is written to
//! the file as readable JSON when the connection closes. In
//! [`CassetteMode::Replay`] no server is started: each request is answered
//! with the recorded answer of the first unused recorded request with the
//! same method and params (`_meta` and `initialize`'s `clientInfo`
//! ignored), preceded by the notifications
//! the server sent meanwhile. A request the cassette does not hold is
//! answered with a JSON-RPC error ([`CASSETTE_MISS`](reading::CASSETTE_MISS)) that shows the
//! closest recorded request. [`CassetteMode::Auto`] replays when the file
//! exists and records otherwise.
//!
//! Only messages reach the file: no environment variables, no headers, not
//! even the command line. Payload fields that hold secrets are replaced by
//! `"[redacted]"` wherever they appear, by name
//! ([`Server::cassette_redact`](crate::Server::cassette_redact)); replay
//! redacts the live request the same way before matching it.
//!
//! ```no_run
//! use mcptest::{CassetteMode, Server};
//! use serde_json::json;
//!
//! # async fn demo() -> Result<(), mcptest::Error> {
//! let mcp = Server::command("my-mcp-server --stdio")
//!     .cassette("tests/cassettes/add.json", CassetteMode::Auto)
//!     .cassette_redact(["apiKey"])
//!     .connect()
//!     .await?;
//! let call = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
//! assert_eq!(call.text(), "5");
//! mcp.close().await; // the first run writes the cassette here
//! # Ok(()) }
//! ```

mod file;
pub(crate) mod reading;
mod record;
mod replay;

use std::path::PathBuf;

pub(crate) use file::Tape;
pub(crate) use record::Recorder;
pub(crate) use replay::serve as replay;

use crate::error::Error;

/// What a cassette does with the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CassetteMode {
    /// Run the server and write every message to the file (replacing it).
    Record,
    /// Start no server; answer from the file, which must exist.
    Replay,
    /// Replay when the file exists, record otherwise.
    Auto,
    /// Ignore the cassette: run the server, record nothing.
    Off,
}

/// A cassette as configured on a [`Server`](crate::Server).
#[derive(Debug, Clone)]
pub(crate) struct CassetteSpec {
    pub(crate) path: PathBuf,
    pub(crate) mode: CassetteMode,
    pub(crate) redact: Vec<String>,
}

/// What a connection does, the mode resolved against the file system.
pub(crate) enum Plan {
    Record(std::sync::Arc<Recorder>),
    Replay(Tape),
    Off,
}

impl CassetteSpec {
    pub(crate) fn plan(&self) -> Result<Plan, Error> {
        let mode = match self.mode {
            CassetteMode::Auto if self.path.exists() => CassetteMode::Replay,
            CassetteMode::Auto => CassetteMode::Record,
            other => other,
        };
        Ok(match mode {
            CassetteMode::Record => Plan::Record(Recorder::new(&self.path, &self.redact)),
            CassetteMode::Replay => Plan::Replay(Tape::load(&self.path, &self.redact)?),
            _ => Plan::Off,
        })
    }
}
