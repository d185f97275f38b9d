//! The raw channels server checks talk through, and the evidence they keep.
//!
//! A check opens channels (over stdio each one is a fresh server process, so
//! no check sees another's state; over HTTP each is a request context that
//! may hold a legacy session), sends exact JSON-RPC, and gets what was
//! [`Received`]. Every exchange is recorded as evidence unless it is set-up,
//! and every message the server sent is held against the official schema
//! ([`SchemaLedger`]).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::evidence::{Kept, append_late};
#[cfg(feature = "http")]
use super::http;
#[cfg(feature = "http")]
use super::message::{classic_headers, stateless_headers};
use super::message::{initialize_params, request, routing_headers, stateless};
use super::received::Received;
use super::revision::CLASSIC;
use super::schema_ledger::SchemaLedger;
use super::stdio;
use crate::model::{Exchange, Observed, RawRequest, Transport};
use mcptest_core::Error;
use mcptest_core::RawConnection;
use mcptest_core::Server;

#[cfg(feature = "http")]
use mcptest_core::__support::sse::RawSse;
#[cfg(feature = "http")]
use mcptest_core::RawHttp;

/// A channel a check opened, by index into the run's channels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ch(usize);

enum Channel {
    Stdio(Box<RawConnection>),
    #[cfg(feature = "http")]
    Http {
        /// `Mcp-Session-Id` of a legacy session, once `initialize` gave one.
        session: Option<String>,
        /// `MCP-Protocol-Version` of a legacy session, once negotiated.
        version: Option<String>,
    },
}

/// The HTTP headers of a request [`Probe::open_call`] sends (over stdio a
/// line has none, and every choice sends the same line).
pub(crate) enum Headers<'a> {
    /// The ones the message implies (see [`Probe::call`]); recorded.
    Derived,
    /// The derived ones, not recorded: set-up whose outcome the check
    /// reports itself if it matters.
    Quietly,
    /// The routing headers with `MCP-Protocol-Version` set to this value
    /// (none for `None`) whatever `_meta` says (see
    /// [`Probe::call_with_version_header`]); recorded.
    Version(Option<&'a str>),
    /// Exactly these (see [`Probe::call_with_headers`]); recorded.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Exactly(Vec<(String, String)>),
}

/// Check settings the runner passes on.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    /// How long to wait for each answer.
    pub(crate) timeout: Duration,
    /// How long to listen for messages that must not come.
    pub(crate) quiet: Duration,
    /// A tool that needs a client capability, and arguments for it.
    pub(crate) capability_tool: Option<(String, Value)>,
    /// A tool that logs, and arguments for it.
    pub(crate) log_tool: Option<(String, Value)>,
    /// A tool that asks for input (SEP-2322), and arguments for it.
    pub(crate) input_tool: Option<(String, Value)>,
    /// A tool that changes the tool list, and arguments for it.
    pub(crate) list_change_tool: Option<(String, Value)>,
    /// A tool that reports progress, and arguments for it.
    pub(crate) progress_tool: Option<(String, Value)>,
    /// A tool that runs as a task (SEP-2663), and arguments for it.
    pub(crate) task_tool: Option<(String, Value)>,
    /// A tool that changes the prompt list, and arguments for it.
    pub(crate) prompt_change_tool: Option<(String, Value)>,
    /// A tool that updates resources, and arguments for it.
    pub(crate) resource_update_tool: Option<(String, Value)>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            timeout: Duration::from_secs(10),
            quiet: Duration::from_millis(500),
            capability_tool: None,
            log_tool: None,
            input_tool: None,
            list_change_tool: None,
            progress_tool: None,
            task_tool: None,
            prompt_change_tool: None,
            resource_update_tool: None,
        }
    }
}

/// One run's connection to the server under test.
pub(crate) struct Probe {
    server: Server,
    pub(crate) transport: Transport,
    #[cfg(feature = "http")]
    http: Option<RawHttp>,
    /// The raw stream of an HTTP+SSE server, for the transport's own rules.
    #[cfg(feature = "http")]
    sse: Option<RawSse>,
    pub(crate) settings: Settings,
    /// The client credentials the server was given, for checks that ask
    /// for tokens of their own.
    #[cfg(feature = "http")]
    pub(crate) credentials: Option<mcptest_core::ClientCredentials>,
    channels: Vec<Channel>,
    evidence: Vec<Exchange>,
    next_id: u64,
    /// Every message the server sent, held against the official schema.
    pub(crate) schema: SchemaLedger,
}

impl Probe {
    pub(crate) fn new(server: Server, settings: Settings) -> Result<Probe, Error> {
        let is_url = server.is_http();
        let is_sse = server.is_sse();
        #[cfg(feature = "http")]
        let http = if is_url {
            Some(RawHttp::open(&server)?.timeout(settings.timeout))
        } else {
            None
        };
        #[cfg(feature = "http")]
        let sse = if is_sse {
            Some(RawSse::open(&server)?)
        } else {
            None
        };
        #[cfg(not(feature = "http"))]
        if is_url {
            return Err(Error::InvalidConfig {
                message: "checking a Streamable HTTP server needs mcptest's `http` feature".into(),
            });
        }
        Ok(Probe {
            server,
            transport: if is_url {
                Transport::Http
            } else if is_sse {
                Transport::Sse
            } else {
                Transport::Stdio
            },
            #[cfg(feature = "http")]
            http,
            #[cfg(feature = "http")]
            sse,
            settings,
            #[cfg(feature = "http")]
            credentials: None,
            channels: Vec::new(),
            evidence: Vec::new(),
            next_id: 0,
            schema: SchemaLedger::default(),
        })
    }

    /// How the server is reached, in words: an HTTP+SSE server is checked
    /// over its line channel, as a stdio one is.
    pub(crate) fn reached_over(&self) -> &'static str {
        match self.transport {
            Transport::Http => "HTTP",
            Transport::Sse => "the legacy HTTP+SSE transport",
            Transport::Stdio => "stdio",
        }
    }

    /// A fresh id for a request.
    pub(crate) fn id(&mut self) -> Value {
        self.next_id += 1;
        json!(self.next_id)
    }

    /// Takes the evidence gathered since the last call.
    pub(crate) fn take_evidence(&mut self) -> Vec<Exchange> {
        std::mem::take(&mut self.evidence)
    }

    /// Opens a channel: over stdio a fresh server process.
    pub(crate) async fn open(&mut self) -> Result<Ch, Observed> {
        self.open_raw()
            .await
            .map_err(|error| Observed::Crashed(format!("the server could not be started: {error}")))
    }

    /// [`open`](Self::open) with the error as it came.
    pub(crate) async fn open_raw(&mut self) -> Result<Ch, Error> {
        let channel = match self.transport {
            Transport::Stdio | Transport::Sse => {
                Channel::Stdio(Box::new(RawConnection::open(&self.server).await?))
            }
            #[cfg(feature = "http")]
            Transport::Http => Channel::Http {
                session: None,
                version: None,
            },
            #[cfg(not(feature = "http"))]
            Transport::Http => unreachable!("Probe::new refuses URLs without the http feature"),
        };
        self.channels.push(channel);
        Ok(Ch(self.channels.len() - 1))
    }

    /// Stops every server this check started.
    #[cfg_attr(not(feature = "http"), allow(irrefutable_let_patterns))]
    pub(crate) async fn close_all(&mut self) {
        for channel in self.channels.drain(..) {
            if let Channel::Stdio(connection) = channel {
                connection.close().await;
            }
        }
        self.schema.channels_closed();
    }

    /// Opens a channel and performs the `initialize` handshake (2025-11-25).
    /// Set-up is evidence only when it fails.
    pub(crate) async fn classic_session(&mut self) -> Result<(Ch, Value), Observed> {
        let ch = self.open().await?;
        let id = self.id();
        let init = request(id, "initialize", initialize_params(CLASSIC));
        let (reply, exchange) = self.exchange(ch, &init, None).await;
        let Some(result) = reply.result().cloned() else {
            self.evidence.push(exchange);
            return Err(Observed::Broken(format!(
                "initialize failed: it got {}",
                reply.describe()
            )));
        };
        #[cfg(feature = "http")]
        if let Channel::Http { session, version } = &mut self.channels[ch.0] {
            *session = reply
                .headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("mcp-session-id"))
                .map(|(_, v)| v.clone());
            *version = result
                .get("protocolVersion")
                .and_then(Value::as_str)
                .map(str::to_owned);
        }
        self.notify(
            ch,
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .await;
        Ok((ch, result))
    }

    /// The opening most checks share: opens a channel (over stdio a fresh
    /// server process), makes the request `build` returns for a fresh id,
    /// sends it with `headers` and waits for its answer. Recorded as
    /// evidence unless [`Headers::Quietly`].
    pub(crate) async fn open_call(
        &mut self,
        build: impl FnOnce(Value) -> Value,
        headers: Headers<'_>,
    ) -> Result<(Ch, Received), Observed> {
        let ch = self.open().await?;
        let id = self.id();
        let message = build(id);
        let reply = match headers {
            Headers::Derived => self.call(ch, message).await,
            Headers::Quietly => self.call_quietly(ch, message).await,
            Headers::Version(header) => self.call_with_version_header(ch, message, header).await,
            Headers::Exactly(headers) => self.call_with_headers(ch, message, headers).await,
        };
        Ok((ch, reply))
    }

    /// Sends a request and waits for its answer; recorded as evidence.
    pub(crate) async fn call(&mut self, ch: Ch, message: Value) -> Received {
        let (reply, exchange) = self.exchange(ch, &message, None).await;
        self.evidence.push(exchange);
        reply
    }

    /// Sends a stateless request (`params` with `meta` as `_meta`) for a
    /// fresh id on `ch`; recorded.
    pub(crate) async fn call_stateless(
        &mut self,
        ch: Ch,
        method: &str,
        params: Value,
        meta: Value,
    ) -> Received {
        let id = self.id();
        self.call(ch, stateless(id, method, params, meta)).await
    }

    /// Like [`call`](Self::call), not recorded: for set-up whose outcome the
    /// check reports itself if it matters.
    pub(crate) async fn call_quietly(&mut self, ch: Ch, message: Value) -> Received {
        self.exchange(ch, &message, None).await.0
    }

    /// Like [`call`](Self::call), with the routing headers of a stateless
    /// request but `MCP-Protocol-Version: header` (none when `None`) whatever
    /// the message's `_meta` says. Over stdio the same as `call`.
    pub(crate) async fn call_with_version_header(
        &mut self,
        ch: Ch,
        message: Value,
        header: Option<&str>,
    ) -> Received {
        let headers = routing_headers(header, &message);
        self.call_with_headers(ch, message, headers).await
    }

    /// Like [`call`](Self::call) with exactly these HTTP headers instead of
    /// the ones derived from the message (over stdio: the same as `call`).
    pub(crate) async fn call_with_headers(
        &mut self,
        ch: Ch,
        message: Value,
        headers: Vec<(String, String)>,
    ) -> Received {
        let (reply, exchange) = self.exchange(ch, &message, Some(headers)).await;
        self.evidence.push(exchange);
        reply
    }

    /// Sends `body` as is (a line over stdio, an HTTP body); recorded.
    ///
    /// Over stdio, `sentinel` (a request) is sent right after it: its answer
    /// shows the server is still reading, so a server that drops `body`
    /// costs no timeout. The reply is the first other response.
    pub(crate) async fn send_raw(&mut self, ch: Ch, body: &str, sentinel: Value) -> Received {
        let started = Instant::now();
        let timeout = self.settings.timeout;
        let transport = self.transport;
        let headers = self.http_headers_for(ch, None);
        let (reply, response) = match &mut self.channels[ch.0] {
            Channel::Stdio(connection) => {
                stdio::send_raw(connection, body, &sentinel, timeout, started).await
            }
            #[cfg(feature = "http")]
            Channel::Http { .. } => {
                let http = self.http.as_ref().expect("an HTTP probe has a client");
                http::send(http, Some(body.to_owned()), &headers).await
            }
        };
        let exchange = Exchange {
            transport,
            request: RawRequest {
                method: None,
                headers,
                body: body.to_owned(),
            },
            response,
        };
        self.schema.hold(ch.0, &exchange);
        self.evidence.push(exchange);
        reply
    }

    /// Adds an exchange a check made itself to the evidence (its messages
    /// are held against the schema too, outside any channel).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn record(&mut self, exchange: Exchange) {
        self.schema.hold(usize::MAX, &exchange);
        self.evidence.push(exchange);
    }

    /// Cites an exchange already seen as evidence of the current check.
    pub(crate) fn cite(&mut self, exchange: Exchange) {
        self.evidence.push(exchange);
    }

    /// The raw HTTP client (over HTTP).
    #[cfg(feature = "http")]
    pub(crate) fn raw_http(&self) -> Option<RawHttp> {
        self.http.clone()
    }

    /// The raw stream of an HTTP+SSE server (`None` for another transport).
    #[cfg(feature = "http")]
    pub(crate) fn raw_sse(&self) -> Option<RawSse> {
        self.sse.clone()
    }

    /// The `Mcp-Session-Id` a classic HTTP session was given, if any.
    #[cfg(feature = "http")]
    pub(crate) fn session_id(&self, ch: Ch) -> Option<String> {
        match &self.channels[ch.0] {
            Channel::Http { session, .. } => session.clone(),
            Channel::Stdio(_) => None,
        }
    }

    /// The headers a classic request on `ch` carries (session and version).
    #[cfg(feature = "http")]
    pub(crate) fn session_headers(&self, ch: Ch) -> Vec<(String, String)> {
        self.http_headers_for(ch, None)
    }

    /// Sends a notification (not recorded).
    pub(crate) async fn notify(&mut self, ch: Ch, message: Value) {
        match &mut self.channels[ch.0] {
            Channel::Stdio(connection) => {
                let _ = connection.send(&message).await;
            }
            #[cfg(feature = "http")]
            Channel::Http { session, version } => {
                let headers = classic_headers(session, version);
                let http = self.http.as_ref().expect("an HTTP probe has a client");
                let _ = http::send(http, Some(message.to_string()), &headers).await;
            }
        }
    }

    /// Adds messages that arrived later to the last exchange's evidence.
    pub(crate) fn append_to_last(&mut self, late: &[Value]) {
        if late.is_empty() {
            return;
        }
        if let Some(exchange) = self.evidence.last_mut() {
            append_late(exchange, late);
        }
    }

    /// Messages that arrive within the quiet period (stdio only: over HTTP
    /// everything for a request comes in its response).
    #[cfg_attr(not(feature = "http"), allow(irrefutable_let_patterns))]
    pub(crate) async fn listen(&mut self, ch: Ch) -> Vec<Value> {
        let quiet = self.settings.quiet;
        let mut messages = Kept::default();
        if let Channel::Stdio(connection) = &mut self.channels[ch.0] {
            let deadline = Instant::now() + quiet;
            while let Some(left) = deadline.checked_duration_since(Instant::now()) {
                match connection.recv(left).await {
                    Ok(message) => messages.push(message),
                    Err(_) => break,
                }
            }
        }
        // Unasked messages: notifications and requests, judged as such.
        self.schema.hold(
            ch.0,
            &Exchange {
                transport: self.transport,
                request: RawRequest {
                    method: None,
                    headers: Vec::new(),
                    body: String::new(),
                },
                response: messages.response(),
            },
        );
        messages.messages
    }

    /// Sends `message`, which opens a stream (`subscriptions/listen`), and
    /// collects what arrives on it: up to the first message (at most the
    /// timeout), then `trigger` is sent — on the same connection over stdio,
    /// as a request of its own over HTTP — and answered, then the quiet
    /// period passes. Both exchanges are recorded. Returns the messages of
    /// the stream (over stdio: everything on the connection but the
    /// trigger's answer) and the trigger's reply.
    pub(crate) async fn stream(
        &mut self,
        ch: Ch,
        message: Value,
        trigger: Option<Value>,
    ) -> (Vec<Value>, Option<Received>) {
        let timeout = self.settings.timeout;
        let quiet = self.settings.quiet;
        let transport = self.transport;
        let headers = self.http_headers_for(ch, Some(&message));
        let trigger_headers = trigger
            .as_ref()
            .map(|t| self.http_headers_for(ch, Some(t)))
            .unwrap_or_default();
        let (stream, response, trigger_reply) = match &mut self.channels[ch.0] {
            Channel::Stdio(connection) => {
                stdio::stream(connection, &message, trigger.as_ref(), timeout, quiet).await
            }
            #[cfg(feature = "http")]
            Channel::Http { .. } => {
                let http = self.http.as_ref().expect("an HTTP probe has a client");
                http::stream(
                    http,
                    &message,
                    &headers,
                    trigger.as_ref(),
                    &trigger_headers,
                    timeout,
                    quiet,
                )
                .await
            }
        };
        let opened = Exchange {
            transport,
            request: RawRequest {
                method: None,
                headers,
                body: message.to_string(),
            },
            response,
        };
        self.schema.hold(ch.0, &opened);
        self.evidence.push(opened);
        if let (Some(trigger), Some((_, exchange))) = (&trigger, &trigger_reply) {
            let triggered = Exchange {
                transport,
                request: RawRequest {
                    method: None,
                    headers: trigger_headers,
                    body: trigger.to_string(),
                },
                response: exchange.clone(),
            };
            self.schema.hold(ch.0, &triggered);
            self.evidence.push(triggered);
        }
        (stream, trigger_reply.map(|(reply, _)| reply))
    }

    /// The HTTP headers a message gets when none are chosen.
    fn http_headers_for(&self, ch: Ch, message: Option<&Value>) -> Vec<(String, String)> {
        match &self.channels[ch.0] {
            #[cfg(feature = "http")]
            Channel::Http { session, version } => match message.and_then(stateless_headers) {
                Some(headers) => headers,
                None => classic_headers(session, version),
            },
            _ => {
                let _ = message;
                Vec::new()
            }
        }
    }

    async fn exchange(
        &mut self,
        ch: Ch,
        message: &Value,
        headers: Option<Vec<(String, String)>>,
    ) -> (Received, Exchange) {
        let timeout = self.settings.timeout;
        let transport = self.transport;
        let headers = match transport {
            Transport::Http => headers.unwrap_or_else(|| self.http_headers_for(ch, Some(message))),
            Transport::Stdio | Transport::Sse => Vec::new(),
        };
        let body = message.to_string();
        let (reply, response) = match &mut self.channels[ch.0] {
            Channel::Stdio(connection) => stdio::call(connection, message, timeout).await,
            #[cfg(feature = "http")]
            Channel::Http { .. } => {
                let http = self.http.as_ref().expect("an HTTP probe has a client");
                http::send(http, Some(body.clone()), &headers).await
            }
        };
        let exchange = Exchange {
            transport,
            request: RawRequest {
                method: None,
                headers,
                body,
            },
            response,
        };
        self.schema.hold(ch.0, &exchange);
        (reply, exchange)
    }
}
