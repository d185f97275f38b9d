//! The SDK side of the coprocess channel, in Rust.

use std::{ffi::OsStr, process::ExitStatus, time::Duration};

use serde::Deserialize;
use serde_json::{Value, json};

use super::{COPROCESS_PROTOCOL_VERSION, codes};
use mcptest_core::Error;
use mcptest_core::RawConnection;
use mcptest_core::Server;

/// A coprocess request that did not end in a result.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CoprocessError {
    /// The binary could not be started.
    #[error("the coprocess binary did not start: {0}")]
    Start(#[source] Error),
    /// The binary speaks another protocol version (or none: a v1 binary
    /// answers the handshake with -32601). Nothing else was sent.
    #[error("{message}")]
    VersionMismatch {
        /// The version the binary reported, when it reported one.
        binary: Option<u64>,
        /// What to upgrade, in the protocol's words.
        message: String,
    },
    /// The binary answered with a JSON-RPC error.
    #[error("{method} was answered with coprocess error {code}: {message}{}", data.as_ref().map(|d| format!(" (data: {d})")).unwrap_or_default())]
    Rpc {
        /// The request.
        method: String,
        /// The code (see [`codes`](super::codes)).
        code: i32,
        /// The message.
        message: String,
        /// The data, with `upstream` for an upstream MCP error.
        data: Option<Value>,
    },
    /// No answer within the client's timeout.
    #[error("{method}: the coprocess did not answer within {after:?}")]
    Timeout {
        /// The request.
        method: String,
        /// How long the client waited.
        after: Duration,
    },
    /// The binary went away (with its exit status and stderr, when known).
    #[error("{method}: the coprocess went away: {error}")]
    Closed {
        /// The request in flight.
        method: String,
        /// How it went.
        error: Error,
    },
    /// A reply that breaks the closed response shape: another id, both or
    /// neither of `result` and `error`, an unknown field.
    #[error("{method}: invalid coprocess response ({reason}): {frame}")]
    InvalidResponse {
        /// The request.
        method: String,
        /// What is wrong.
        reason: String,
        /// The reply as received.
        frame: String,
    },
}

/// The result of `mcp.call`, parsed strictly: an unknown field is contract
/// drift and fails the call.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallReply {
    /// The tool ran and did not answer `isError: true`.
    pub success: bool,
    /// The tool's `structuredContent`, if any.
    pub data: Option<Value>,
    /// The tool's text content, joined.
    pub text: String,
    /// The error text, when the tool answered `isError: true`.
    pub error: Option<String>,
    /// How long the call took.
    pub duration_ms: u64,
}

/// A running coprocess binary after a successful v2 handshake.
pub struct Client {
    raw: RawConnection,
    next_id: u64,
    timeout: Duration,
    binary_version: String,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("binary_version", &self.binary_version)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// Spawns `program args...` and performs the handshake.
    ///
    /// # Errors
    ///
    /// The binary does not start, does not answer, or speaks another
    /// version ([`CoprocessError::VersionMismatch`]).
    pub async fn spawn<I, S>(
        program: impl Into<std::path::PathBuf>,
        args: I,
    ) -> Result<Client, CoprocessError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        Client::start(Server::program(program).args(args)).await
    }

    /// Starts the binary `server` describes (program, args, env, cwd) and
    /// performs the handshake. Each request waits at most 60 s; change it
    /// with [`timeout`](Self::timeout).
    ///
    /// # Errors
    ///
    /// As for [`spawn`](Self::spawn).
    pub async fn start(server: Server) -> Result<Client, CoprocessError> {
        let raw = RawConnection::open(&server)
            .await
            .map_err(CoprocessError::Start)?;
        let mut client = Client {
            raw,
            next_id: 0,
            timeout: Duration::from_secs(60),
            binary_version: String::new(),
        };
        let params = json!({
            "protocol_version": COPROCESS_PROTOCOL_VERSION,
            "sdk": "rust",
            "sdk_version": env!("CARGO_PKG_VERSION"),
        });
        let upgrade = |binary: &str| {
            format!(
                "mcptest binary speaks coprocess {binary}; this SDK needs v{COPROCESS_PROTOCOL_VERSION}. \
                 Upgrade the mcptest binary (or pin the SDK to the matching release)."
            )
        };
        match client.request("coprocess/handshake", Some(params)).await {
            Ok(result) => {
                let version = result.get("protocol_version").and_then(Value::as_u64);
                if version != Some(u64::from(COPROCESS_PROTOCOL_VERSION)) {
                    let said = version.map_or("no version".to_owned(), |v| format!("v{v}"));
                    client.raw.close().await;
                    return Err(CoprocessError::VersionMismatch {
                        binary: version,
                        message: upgrade(&said),
                    });
                }
                client.binary_version = result
                    .get("binary_version")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                Ok(client)
            }
            Err(CoprocessError::Rpc {
                code,
                message,
                data,
                ..
            }) if code == codes::METHOD_NOT_FOUND || code == codes::INVALID_PARAMS => {
                client.raw.close().await;
                Err(if code == codes::METHOD_NOT_FOUND {
                    CoprocessError::VersionMismatch {
                        binary: Some(1),
                        message: upgrade("v1"),
                    }
                } else {
                    CoprocessError::VersionMismatch {
                        binary: data
                            .as_ref()
                            .and_then(|d| d.get("binary"))
                            .and_then(Value::as_u64),
                        message,
                    }
                })
            }
            Err(other) => {
                client.raw.close().await;
                Err(other)
            }
        }
    }

    /// How long each request may wait for its answer.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The binary's version, from the handshake.
    pub fn binary_version(&self) -> &str {
        &self.binary_version
    }

    /// The binary's process id.
    pub fn pid(&self) -> Option<u32> {
        self.raw.pid()
    }

    /// Sends one request and waits for its answer: the `result`, or the
    /// error as [`CoprocessError::Rpc`].
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn request(
        &mut self,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, CoprocessError> {
        self.next_id += 1;
        let id = self.next_id;
        let mut frame = json!({ "jsonrpc": "2.0", "id": id, "method": method });
        if let Some(params) = params {
            frame["params"] = params;
        }
        self.raw
            .send(&frame)
            .await
            .map_err(|error| CoprocessError::Closed {
                method: method.to_owned(),
                error,
            })?;
        let reply = self
            .raw
            .recv(self.timeout)
            .await
            .map_err(|error| match error {
                Error::Timeout { .. } => CoprocessError::Timeout {
                    method: method.to_owned(),
                    after: self.timeout,
                },
                error => CoprocessError::Closed {
                    method: method.to_owned(),
                    error,
                },
            })?;
        parse_reply(method, id, reply)
    }

    /// `mcp.call`: calls `tool` on the server under test.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`]; an upstream JSON-RPC error is
    /// [`CoprocessError::Rpc`] with code -32000 and `data.upstream`.
    pub async fn call_tool(
        &mut self,
        tool: &str,
        arguments: Value,
    ) -> Result<CallReply, CoprocessError> {
        let result = self
            .request(
                "mcp.call",
                Some(json!({ "tool": tool, "arguments": arguments })),
            )
            .await?;
        serde_json::from_value(result.clone()).map_err(|e| CoprocessError::InvalidResponse {
            method: "mcp.call".into(),
            reason: format!("not a reply: {e}"),
            frame: result.to_string(),
        })
    }

    /// `mcp.shutdown`, then waits for the binary to exit (killing and
    /// reaping it after its grace period). Returns its exit status.
    ///
    /// # Errors
    ///
    /// The binary did not acknowledge the shutdown; it is stopped anyway.
    pub async fn shutdown(mut self) -> Result<Option<ExitStatus>, CoprocessError> {
        let acknowledged = self.request("mcp.shutdown", None).await;
        let status = self.raw.close().await;
        acknowledged.map(|_| status)
    }
}

/// Checks the closed response shape and the id.
fn parse_reply(method: &str, id: u64, reply: Value) -> Result<Value, CoprocessError> {
    let invalid = |reason: String, reply: &Value| CoprocessError::InvalidResponse {
        method: method.to_owned(),
        reason,
        frame: reply.to_string(),
    };
    let Some(fields) = reply.as_object() else {
        return Err(invalid("not a JSON object".into(), &reply));
    };
    if let Some(extra) = fields
        .keys()
        .find(|k| !["jsonrpc", "id", "result", "error"].contains(&k.as_str()))
    {
        return Err(invalid(format!("unknown field `{extra}`"), &reply));
    }
    if fields.get("id") != Some(&json!(id)) {
        return Err(invalid(format!("the id is not {id}"), &reply));
    }
    match (fields.get("result"), fields.get("error")) {
        (Some(result), None) => Ok(result.clone()),
        (None, Some(error)) => Err(CoprocessError::Rpc {
            method: method.to_owned(),
            code: error
                .get("code")
                .and_then(Value::as_i64)
                .and_then(|c| i32::try_from(c).ok())
                .unwrap_or(codes::INTERNAL_ERROR),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            data: error.get("data").cloned(),
        }),
        _ => Err(invalid(
            "exactly one of `result` and `error` is required".into(),
            &reply,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_must_have_the_id_and_one_of_result_or_error() {
        assert_eq!(
            parse_reply("m", 1, json!({"jsonrpc": "2.0", "id": 1, "result": 5})).unwrap(),
            json!(5)
        );
        for bad in [
            json!({"jsonrpc": "2.0", "id": 2, "result": 5}),
            json!({"jsonrpc": "2.0", "id": 1}),
            json!({"jsonrpc": "2.0", "id": 1, "result": 5, "error": {}}),
            json!({"jsonrpc": "2.0", "id": 1, "result": 5, "extra": true}),
        ] {
            assert!(
                matches!(
                    parse_reply("m", 1, bad.clone()),
                    Err(CoprocessError::InvalidResponse { .. })
                ),
                "{bad}"
            );
        }
        let rpc = parse_reply(
            "m",
            1,
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "no", "data": {"x": 1}}}),
        )
        .unwrap_err();
        assert!(
            matches!(rpc, CoprocessError::Rpc { code: -32000, .. }),
            "{rpc}"
        );
    }

    #[test]
    fn a_verdict_with_an_unknown_field_is_drift() {
        let reply =
            json!({"success": true, "data": null, "text": "ok", "error": null, "duration_ms": 3});
        assert!(serde_json::from_value::<CallReply>(reply.clone()).is_ok());
        let mut drifted = reply;
        drifted["score"] = json!(1);
        assert!(serde_json::from_value::<CallReply>(drifted).is_err());
    }
}
