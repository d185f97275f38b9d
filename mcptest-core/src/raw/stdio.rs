//! Raw JSON-RPC over a server's stdio (or an in-process server's pipe): for
//! what a well-behaved client cannot send — malformed JSON, missing fields,
//! wrong ids, batches, requests before `initialize` — and for replaying
//! recorded exchanges message by message.

use std::{process::ExitStatus, sync::Arc, time::Duration};

use serde_json::{Value, json};

use crate::{
    client::connection_lost,
    error::Error,
    limits::Bounded,
    server::{
        Server,
        launch::{Started, start},
    },
    server_messages::ServerMessages,
    transport::{
        endpoint::Endpoint,
        inbound::Inbound,
        lines::{Incoming, LineReader, WriteHandle},
    },
};

/// A connection that sends and receives JSON exactly as given: no handshake,
/// no ids assigned behind your back, nothing parsed beyond JSON.
///
/// The server is started like [`Server::connect`] starts it and stopped the
/// same way when this is closed or dropped.
///
/// ```no_run
/// # async fn demo() -> Result<(), mcptest::Error> {
/// use std::time::Duration;
/// use mcptest::{RawConnection, Server};
///
/// let mut raw = RawConnection::open(&Server::command("my-server")).await?;
/// raw.send_line("{not json").await?;
/// let reply = raw.recv(Duration::from_secs(5)).await?;
/// assert_eq!(reply["error"]["code"], -32700);
/// # Ok(()) }
/// ```
pub struct RawConnection {
    endpoint: Endpoint,
    writer: WriteHandle,
    reader: LineReader,
    /// Messages passed over by `recv_matching`, delivered first by `recv`;
    /// bounded like the notification log.
    skipped: Bounded<Value>,
    skipped_dropped: usize,
    next_id: u64,
}

impl RawConnection {
    /// Starts the server (a command, a program or an in-process handler),
    /// or opens a session with an HTTP+SSE server (`Server::sse`; its
    /// client credentials, if any, are used first): each line sent is
    /// POSTed, each message of its stream is a line received. Streamable
    /// HTTP servers are dialled with an HTTP client instead.
    pub async fn open(server: &Server) -> Result<RawConnection, Error> {
        #[cfg(feature = "http")]
        if server.credentials().is_some() {
            let authorized = server.clone().authorize().await?;
            return Box::pin(RawConnection::open(&authorized)).await;
        }
        match start(server, ServerMessages::new())? {
            Started::Stream(streams) => {
                let reader = LineReader::new(
                    streams.read,
                    streams.inbound.clone(),
                    server.options.max_message_size,
                );
                let writer = WriteHandle::new(streams.write, streams.inbound.clone());
                Ok(RawConnection {
                    endpoint: Endpoint::new(
                        streams.inbound,
                        Some(writer.clone()),
                        streams.in_process,
                        server.options.shutdown_grace,
                    ),
                    writer,
                    reader,
                    skipped: Bounded::default(),
                    skipped_dropped: 0,
                    next_id: 1,
                })
            }
            Started::Http(..) => Err(Error::InvalidConfig {
                message: "a raw connection speaks stdio; dial a Streamable HTTP server with an \
                          HTTP client instead"
                    .into(),
            }),
        }
    }

    fn inbound(&self) -> &Arc<Inbound> {
        &self.endpoint.inbound
    }

    /// Writes `bytes` exactly as given (no newline added): a message in
    /// pieces, a line without its end, bytes that are not UTF-8.
    ///
    /// ```no_run
    /// # async fn demo(raw: mcptest::RawConnection) -> Result<(), mcptest::Error> {
    /// raw.send_bytes(br#"{"jsonrpc": "2.0", "id": 1, "#).await?; // the server must wait
    /// raw.send_bytes(b"\"method\": \"ping\"}\n").await?;
    /// # Ok(()) }
    /// ```
    pub async fn send_bytes(&self, bytes: &[u8]) -> Result<(), Error> {
        self.writer
            .write_raw(bytes)
            .await
            .map_err(|e| self.write_failed(e))
    }

    /// Writes `line` followed by a newline; `line` need not be JSON.
    pub async fn send_line(&self, line: &str) -> Result<(), Error> {
        self.writer
            .write_line(line.as_bytes().to_vec())
            .await
            .map_err(|e| self.write_failed(e))
    }

    /// Writes `message` as one line of JSON.
    pub async fn send(&self, message: &Value) -> Result<(), Error> {
        self.send_line(&message.to_string()).await
    }

    /// Sends a request with a fresh id (`"raw-1"`, `"raw-2"`, …) and waits for
    /// the message answering it; returns the whole answer (`result` or
    /// `error`). Other messages that arrive meanwhile stay queued for
    /// [`recv`](Self::recv).
    pub async fn request(
        &mut self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, Error> {
        let id = json!(format!("raw-{}", self.next_id));
        self.next_id += 1;
        let mut message = json!({ "jsonrpc": "2.0", "id": id, "method": method });
        if !params.is_null() {
            message["params"] = params;
        }
        // The timeout covers sending too: a server that stopped reading its
        // stdin blocks the write.
        let started = tokio::time::Instant::now();
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        self.writer
            .write_raw_within(&line, timeout)
            .await
            .map_err(|e| Error::Transport {
                method: Some(method.to_owned()),
                reason: e.to_string(),
                output: self.inbound().output(),
            })?;
        let timeout = timeout.saturating_sub(started.elapsed());
        self.recv_matching(
            |m| m.get("id") == Some(&id) && m.get("method").is_none(),
            timeout,
        )
        .await
        .map_err(|e| match e {
            Error::Timeout { after, output, .. } => Error::Timeout {
                method: method.to_owned(),
                after,
                output,
            },
            other => other,
        })
    }

    /// Sends a notification.
    pub async fn notify(&self, method: &str, params: Value) -> Result<(), Error> {
        let mut message = json!({ "jsonrpc": "2.0", "method": method });
        if !params.is_null() {
            message["params"] = params;
        }
        self.send(&message).await
    }

    /// The `initialize` handshake with `protocol_version` and no client
    /// capabilities, followed by `notifications/initialized`. Returns the
    /// answer to `initialize`.
    pub async fn initialize(
        &mut self,
        protocol_version: &str,
        timeout: Duration,
    ) -> Result<Value, Error> {
        let answer = self
            .request(
                "initialize",
                json!({
                    "protocolVersion": protocol_version,
                    "capabilities": {},
                    "clientInfo": { "name": "mcptest-raw", "version": env!("CARGO_PKG_VERSION") },
                }),
                timeout,
            )
            .await?;
        if answer.get("result").is_some() {
            self.notify("notifications/initialized", Value::Null)
                .await?;
        }
        Ok(answer)
    }

    /// The next message from the server (a line that was JSON, of any shape).
    pub async fn recv(&mut self, timeout: Duration) -> Result<Value, Error> {
        if let Some(message) = self.skipped.remove(0) {
            return Ok(message);
        }
        self.next_message(timeout).await
    }

    /// How many messages passed over by [`recv_matching`](Self::recv_matching)
    /// were dropped, oldest first, to keep the queue within the bounds of the
    /// notification log ([`NOTIFICATIONS_KEPT`](crate::limits::NOTIFICATIONS_KEPT)
    /// messages, [`NOTIFICATIONS_KEPT_BYTES`](crate::limits::NOTIFICATIONS_KEPT_BYTES)).
    pub fn dropped(&self) -> usize {
        self.skipped_dropped
    }

    fn skip(&mut self, message: Value) {
        let size = crate::server_messages::json_size(&message);
        let dropped = &mut self.skipped_dropped;
        self.skipped.push(message, size, |_| *dropped += 1);
    }

    /// The next message for which `predicate` holds; messages passed over stay
    /// queued, in order, for [`recv`](Self::recv).
    pub async fn recv_matching(
        &mut self,
        predicate: impl Fn(&Value) -> bool,
        timeout: Duration,
    ) -> Result<Value, Error> {
        let passed_over = self.skipped.iter().position(&predicate);
        if let Some(at) = passed_over {
            return Ok(self.skipped.remove(at).expect("position is in range"));
        }
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let message = self.next_message(left).await.map_err(|e| match e {
                Error::Timeout { output, .. } => Error::Timeout {
                    method: "a matching message".into(),
                    after: timeout,
                    output,
                },
                other => other,
            })?;
            if predicate(&message) {
                return Ok(message);
            }
            self.skip(message);
        }
    }

    /// Whether nothing has arrived within `wait` (for checking that a server
    /// stays silent, e.g. after a notification).
    pub async fn is_silent_for(&mut self, wait: Duration) -> Result<bool, Error> {
        if !self.skipped.is_empty() {
            return Ok(false);
        }
        match self.next_message(wait).await {
            Ok(message) => {
                self.skip(message);
                Ok(false)
            }
            Err(Error::Timeout { .. }) => Ok(true),
            Err(other) => Err(other),
        }
    }

    async fn next_message(&mut self, timeout: Duration) -> Result<Value, Error> {
        match tokio::time::timeout(timeout, self.reader.next()).await {
            Ok(Some(Incoming::Json(message))) => Ok(message),
            Ok(Some(Incoming::Refused(refused))) => Err(Error::Protocol {
                method: "the next message".into(),
                reason: refused.reason,
                output: self.inbound().output(),
            }),
            Ok(None) => Err(connection_lost(None, self.inbound()).await),
            Err(_) => Err(Error::Timeout {
                method: "the next message".into(),
                after: timeout,
                output: self.inbound().output(),
            }),
        }
    }

    fn write_failed(&self, error: std::io::Error) -> Error {
        Error::Transport {
            method: None,
            reason: format!("writing to the server failed: {error}"),
            output: self.inbound().output(),
        }
    }

    /// The tail of the server's stderr.
    pub fn stderr(&self) -> String {
        self.inbound()
            .stderr
            .as_ref()
            .map(|s| s.text())
            .unwrap_or_default()
    }

    /// Lines on stdout that were not JSON (the most recent 50).
    pub fn stdout_noise(&self) -> Vec<String> {
        self.inbound().noise_lines().0
    }

    /// The server process's id, for a server started as a process.
    pub fn pid(&self) -> Option<u32> {
        self.inbound().process.as_ref().and_then(|p| p.pid())
    }

    /// Closes stdin, waits the grace period, kills the process group and
    /// reaps it. Returns the exit status for a process.
    pub async fn close(self) -> Option<ExitStatus> {
        self.endpoint.close().await
    }
}
