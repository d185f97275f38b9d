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
//! answered with a JSON-RPC error ([`CASSETTE_MISS`]) that shows the
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

pub(crate) mod reading;
mod record;
mod replay;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub(crate) use reading::CASSETTE_MISS;
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

/// The file: a format marker, the redacted field names, and every message
/// in the order it crossed the connection.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct CassetteFile {
    pub(crate) mcptest_cassette: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) redacted_fields: Vec<String>,
    pub(crate) messages: Vec<Entry>,
}

/// One message and who sent it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Entry {
    pub(crate) from: Side,
    pub(crate) message: Value,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Side {
    Client,
    Server,
}

/// The format version written in `mcptest_cassette`.
pub(crate) const FORMAT: u32 = 1;

/// A loaded cassette, ready to replay.
pub(crate) struct Tape {
    pub(crate) path: PathBuf,
    pub(crate) redact: Vec<String>,
    pub(crate) messages: Vec<Entry>,
}

impl Tape {
    fn load(path: &Path, redact: &[String]) -> Result<Tape, Error> {
        let bad = |why: String| Error::InvalidConfig {
            message: format!("cassette {}: {why}", path.display()),
        };
        let text = std::fs::read_to_string(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                bad("no such file to replay; record it first (CassetteMode::Record or Auto)".into())
            } else {
                bad(e.to_string())
            }
        })?;
        let file: CassetteFile =
            serde_json::from_str(&text).map_err(|e| bad(format!("not a cassette: {e}")))?;
        if file.mcptest_cassette != FORMAT {
            return Err(bad(format!(
                "format {} is not the one this mcptest reads ({FORMAT})",
                file.mcptest_cassette
            )));
        }
        let mut redact = redact.to_vec();
        redact.extend(file.redacted_fields);
        Ok(Tape {
            path: path.to_path_buf(),
            redact,
            messages: file.messages,
        })
    }
}

/// Replaces the value of every object member named in `fields`, at any
/// depth, with `"[redacted]"`.
pub(crate) fn redact(value: &mut Value, fields: &[String]) {
    if fields.is_empty() {
        return;
    }
    match value {
        Value::Object(map) => {
            for (key, member) in map.iter_mut() {
                if fields.iter().any(|f| f == key) {
                    *member = Value::String("[redacted]".into());
                } else {
                    redact(member, fields);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact(v, fields)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn redaction_reaches_every_depth() {
        let mut value =
            json!({"a": {"token": "s3cret", "list": [{"token": 1}, {"keep": 2}]}, "token": null});
        redact(&mut value, &["token".to_owned()]);
        assert_eq!(
            value,
            json!({"a": {"token": "[redacted]", "list": [{"token": "[redacted]"}, {"keep": 2}]}, "token": "[redacted]"})
        );
    }
}
