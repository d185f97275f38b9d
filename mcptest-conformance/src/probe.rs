//! The raw channels server checks talk through, and the evidence they keep.
//!
//! A check opens channels (over stdio each one is a fresh server process, so
//! no check sees another's state; over HTTP each is a request context that
//! may hold a legacy session), sends exact JSON-RPC, and gets a [`Reply`].
//! Every exchange is recorded as evidence unless it is set-up.

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::check::{Exchange, Observed, RawRequest, RawResponse, Transport};
use super::wire::SchemaLedger;
use mcptest_core::__support::is_response;
use mcptest_core::Error;
use mcptest_core::RawConnection;
use mcptest_core::Server;

#[cfg(feature = "http")]
use mcptest_core::RawHttp;

/// `_meta` keys of SEP-2575.
pub(crate) const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub(crate) const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub(crate) const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub(crate) const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The `clientInfo` checks present.
pub(crate) fn client_info() -> Value {
    json!({ "name": "mcptest-conformance", "version": env!("CARGO_PKG_VERSION") })
}

/// A complete SEP-2575 `_meta` for `version`, declaring no client capabilities.
pub(crate) fn meta(version: &str) -> Value {
    json!({
        META_VERSION: version,
        META_CLIENT_INFO: client_info(),
        META_CAPABILITIES: {},
    })
}

/// A JSON-RPC request; `params` is left out when null.
pub(crate) fn request(id: impl Into<Value>, method: &str, params: Value) -> Value {
    let mut message = json!({ "jsonrpc": "2.0", "id": id.into(), "method": method });
    if !params.is_null() {
        message["params"] = params;
    }
    message
}

/// A request whose params carry `meta` as `_meta` (`Value::Null`: no `_meta`).
pub(crate) fn stateless(id: impl Into<Value>, method: &str, params: Value, meta: Value) -> Value {
    let mut params = match params {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    if !meta.is_null() {
        params.insert("_meta".into(), meta);
    }
    request(id, method, Value::Object(params))
}

/// The `initialize` params mcptest's classic checks send.
pub(crate) fn initialize_params(version: &str) -> Value {
    json!({ "protocolVersion": version, "capabilities": {}, "clientInfo": client_info() })
}

/// Why there is no JSON-RPC response in a [`Reply`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Missing {
    /// Nothing within the wait.
    Silent(Duration),
    /// The server answered a later request but never this message.
    Dropped,
    /// The connection failed.
    Broke(String),
    /// An HTTP response without a JSON-RPC response in its body.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    NoMessage,
}

/// What came back for one message.
#[derive(Debug, Clone, Default)]
pub(crate) struct Reply {
    /// The JSON-RPC response, if one came.
    pub(crate) response: Option<Value>,
    /// Notifications and server requests that arrived with it.
    pub(crate) others: Vec<Value>,
    /// The HTTP status, over HTTP.
    pub(crate) status: Option<u16>,
    /// The HTTP response headers, over HTTP.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) headers: Vec<(String, String)>,
    /// Why there is no response.
    pub(crate) missing: Option<Missing>,
}

impl Reply {
    pub(crate) fn result(&self) -> Option<&Value> {
        self.response.as_ref().and_then(|r| r.get("result"))
    }

    pub(crate) fn error(&self) -> Option<&Value> {
        self.response.as_ref().and_then(|r| r.get("error"))
    }

    pub(crate) fn code(&self) -> Option<i64> {
        self.error()
            .and_then(|e| e.get("code"))
            .and_then(Value::as_i64)
    }

    /// The id of the response (`None` when there is no response).
    pub(crate) fn id(&self) -> Option<&Value> {
        self.response
            .as_ref()
            .map(|r| r.get("id").unwrap_or(&Value::Null))
    }

    /// The answer in words, for reasons: `error -32601 "Method not found"`,
    /// `a result`, `no answer within 10s`; over HTTP prefixed with the status.
    pub(crate) fn describe(&self) -> String {
        let answer = if let Some(error) = self.error() {
            let code = error
                .get("code")
                .map(|c| c.to_string())
                .unwrap_or_else(|| "without a code".into());
            match error.get("message").and_then(Value::as_str) {
                Some(message) => format!("error {code} {message:?}"),
                None => format!("error {code}"),
            }
        } else if let Some(result) = self.result() {
            if result.get("isError") == Some(&Value::Bool(true)) {
                "a result with isError: true".to_owned()
            } else {
                "a result".to_owned()
            }
        } else {
            match &self.missing {
                Some(Missing::Silent(after)) => {
                    format!(
                        "no answer within {}",
                        mcptest_core::__support::fmt_duration(*after)
                    )
                }
                Some(Missing::Dropped) => {
                    "no answer: it was dropped (the request sent after it was answered)".into()
                }
                Some(Missing::Broke(why)) => why.clone(),
                Some(Missing::NoMessage) | None => "no JSON-RPC response".to_owned(),
            }
        };
        match self.status {
            Some(status) => format!("HTTP {status} with {answer}"),
            None => answer,
        }
    }
}

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
        #[cfg(feature = "http")]
        let http = if is_url {
            Some(RawHttp::open(&server)?.timeout(settings.timeout))
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
            } else {
                Transport::Stdio
            },
            #[cfg(feature = "http")]
            http,
            settings,
            #[cfg(feature = "http")]
            credentials: None,
            channels: Vec::new(),
            evidence: Vec::new(),
            next_id: 0,
            schema: SchemaLedger::default(),
        })
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
            Transport::Stdio => Channel::Stdio(Box::new(RawConnection::open(&self.server).await?)),
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
        let init = request(id, "initialize", initialize_params("2025-11-25"));
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
    ) -> Result<(Ch, Reply), Observed> {
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
    pub(crate) async fn call(&mut self, ch: Ch, message: Value) -> Reply {
        let (reply, exchange) = self.exchange(ch, &message, None).await;
        self.evidence.push(exchange);
        reply
    }

    /// Like [`call`](Self::call), not recorded: for set-up whose outcome the
    /// check reports itself if it matters.
    pub(crate) async fn call_quietly(&mut self, ch: Ch, message: Value) -> Reply {
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
    ) -> Reply {
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
    ) -> Reply {
        let (reply, exchange) = self.exchange(ch, &message, Some(headers)).await;
        self.evidence.push(exchange);
        reply
    }

    /// Sends `body` as is (a line over stdio, an HTTP body); recorded.
    ///
    /// Over stdio, `sentinel` (a request) is sent right after it: its answer
    /// shows the server is still reading, so a server that drops `body`
    /// costs no timeout. The reply is the first other response.
    pub(crate) async fn send_raw(&mut self, ch: Ch, body: &str, sentinel: Value) -> Reply {
        let started = Instant::now();
        let timeout = self.settings.timeout;
        let transport = self.transport;
        let headers = self.http_headers_for(ch, None);
        let (reply, response) = match &mut self.channels[ch.0] {
            Channel::Stdio(connection) => {
                stdio_raw(connection, body, &sentinel, timeout, started).await
            }
            #[cfg(feature = "http")]
            Channel::Http { .. } => {
                let http = self.http.as_ref().expect("an HTTP probe has a client");
                http_exchange(http, body.to_owned(), &headers).await
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
                let _ = http_exchange(http, message.to_string(), &headers).await;
            }
        }
    }

    /// Adds messages that arrived later to the last exchange's evidence.
    pub(crate) fn append_to_last(&mut self, late: &[Value]) {
        if late.is_empty() {
            return;
        }
        if let Some(exchange) = self.evidence.last_mut() {
            match &mut exchange.response {
                RawResponse::Messages { messages, dropped } => {
                    let room = crate::EVIDENCE_KEPT.saturating_sub(messages.len());
                    messages.extend(late.iter().take(room).cloned());
                    *dropped += late.len().saturating_sub(room);
                }
                RawResponse::Http { messages, .. } => {
                    let room = crate::EVIDENCE_KEPT.saturating_sub(messages.len());
                    messages.extend(late.iter().take(room).cloned());
                }
                other => {
                    *other = RawResponse::Messages {
                        messages: late.iter().take(crate::EVIDENCE_KEPT).cloned().collect(),
                        dropped: late.len().saturating_sub(crate::EVIDENCE_KEPT),
                    };
                }
            }
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
    ) -> (Vec<Value>, Option<Reply>) {
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
                stdio_stream(connection, &message, trigger.as_ref(), timeout, quiet).await
            }
            #[cfg(feature = "http")]
            Channel::Http { .. } => {
                let http = self.http.as_ref().expect("an HTTP probe has a client");
                http_stream(
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
    ) -> (Reply, Exchange) {
        let timeout = self.settings.timeout;
        let transport = self.transport;
        let headers = match transport {
            Transport::Http => headers.unwrap_or_else(|| self.http_headers_for(ch, Some(message))),
            Transport::Stdio => Vec::new(),
        };
        let body = message.to_string();
        let (reply, response) = match &mut self.channels[ch.0] {
            Channel::Stdio(connection) => stdio_call(connection, message, timeout).await,
            #[cfg(feature = "http")]
            Channel::Http { .. } => {
                let http = self.http.as_ref().expect("an HTTP probe has a client");
                http_exchange(http, body.clone(), &headers).await
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

/// The first line of an error, without the server output block.
fn error_text(error: &Error) -> String {
    match error {
        Error::ServerExited { .. } => {
            let text = error.to_string();
            text.lines().next().unwrap_or_default().to_owned()
        }
        other => other
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned(),
    }
}

/// A failed write usually means the server exited; its exit status says
/// more than the broken pipe.
async fn gone(connection: &mut RawConnection, error: Error) -> Error {
    match connection.recv(Duration::from_secs(2)).await {
        Err(exited @ Error::ServerExited { .. }) => exited,
        _ => error,
    }
}

async fn stdio_call(
    connection: &mut RawConnection,
    message: &Value,
    timeout: Duration,
) -> (Reply, RawResponse) {
    let started = Instant::now();
    if let Err(error) = connection.send(message).await {
        let why = error_text(&gone(connection, error).await);
        return (
            Reply {
                missing: Some(Missing::Broke(why.clone())),
                ..Reply::default()
            },
            RawResponse::Failed { error: why },
        );
    }
    let mut others = Kept::default();
    loop {
        let left = timeout.saturating_sub(started.elapsed());
        match connection.recv(left).await {
            Ok(incoming) if is_response(&incoming) => {
                let mut messages = others.messages.clone();
                messages.push(incoming.clone());
                return (
                    Reply {
                        response: Some(incoming),
                        others: others.messages,
                        ..Reply::default()
                    },
                    RawResponse::Messages {
                        messages,
                        dropped: others.dropped,
                    },
                );
            }
            Ok(incoming) => others.push(incoming),
            Err(Error::Timeout { .. }) => {
                let response = if others.is_empty() {
                    RawResponse::Nothing {
                        waited_ms: millis(timeout),
                    }
                } else {
                    others.response()
                };
                return (
                    Reply {
                        others: others.messages,
                        missing: Some(Missing::Silent(timeout)),
                        ..Reply::default()
                    },
                    response,
                );
            }
            Err(error) => {
                let why = error_text(&error);
                return (
                    Reply {
                        others: others.messages,
                        missing: Some(Missing::Broke(why.clone())),
                        ..Reply::default()
                    },
                    RawResponse::Failed { error: why },
                );
            }
        }
    }
}

async fn stdio_raw(
    connection: &mut RawConnection,
    body: &str,
    sentinel: &Value,
    timeout: Duration,
    started: Instant,
) -> (Reply, RawResponse) {
    let sent = match connection.send_line(body).await {
        Ok(()) => connection.send(sentinel).await,
        Err(error) => Err(error),
    };
    if let Err(error) = sent {
        let why = error_text(&gone(connection, error).await);
        return (
            Reply {
                missing: Some(Missing::Broke(why.clone())),
                ..Reply::default()
            },
            RawResponse::Failed { error: why },
        );
    }
    let sentinel_id = sentinel.get("id").cloned().unwrap_or(Value::Null);
    let mut messages = Kept::default();
    let mut answer = None;
    loop {
        let left = timeout.saturating_sub(started.elapsed());
        match connection.recv(left).await {
            Ok(incoming) => {
                if is_response(&incoming) && incoming.get("id") == Some(&sentinel_id) {
                    // The sentinel's answer: everything for `body` came before it.
                    let missing = answer.is_none().then_some(Missing::Dropped);
                    let response = messages.response();
                    let others = messages
                        .messages
                        .into_iter()
                        .filter(|m| !is_response(m))
                        .collect();
                    return (
                        Reply {
                            response: answer,
                            others,
                            missing,
                            ..Reply::default()
                        },
                        response,
                    );
                }
                if answer.is_none() && is_response(&incoming) {
                    answer = Some(incoming.clone());
                }
                messages.push(incoming);
            }
            Err(Error::Timeout { .. }) => {
                let response = if messages.is_empty() {
                    RawResponse::Nothing {
                        waited_ms: millis(timeout),
                    }
                } else {
                    messages.response()
                };
                let missing = answer.is_none().then_some(Missing::Silent(timeout));
                return (
                    Reply {
                        response: answer,
                        missing,
                        ..Reply::default()
                    },
                    response,
                );
            }
            Err(error) => {
                let why = error_text(&error);
                return (
                    Reply {
                        response: answer,
                        missing: Some(Missing::Broke(why.clone())),
                        ..Reply::default()
                    },
                    RawResponse::Failed { error: why },
                );
            }
        }
    }
}

/// The messages of one exchange: the first [`EVIDENCE_KEPT`](crate::EVIDENCE_KEPT)
/// kept, the rest counted.
#[derive(Default)]
struct Kept {
    messages: Vec<Value>,
    dropped: usize,
}

impl Kept {
    fn push(&mut self, message: Value) {
        if self.messages.len() < crate::EVIDENCE_KEPT {
            self.messages.push(message);
        } else {
            self.dropped += 1;
        }
    }

    fn is_empty(&self) -> bool {
        self.messages.is_empty() && self.dropped == 0
    }

    fn response(&self) -> RawResponse {
        RawResponse::Messages {
            messages: self.messages.clone(),
            dropped: self.dropped,
        }
    }
}

/// [`Probe::stream`] over stdio.
async fn stdio_stream(
    connection: &mut RawConnection,
    message: &Value,
    trigger: Option<&Value>,
    timeout: Duration,
    quiet: Duration,
) -> (Vec<Value>, RawResponse, Option<(Reply, RawResponse)>) {
    if let Err(error) = connection.send(message).await {
        let why = error_text(&gone(connection, error).await);
        return (Vec::new(), RawResponse::Failed { error: why }, None);
    }
    let mut stream = Kept::default();
    let mut broke = None;
    match connection.recv(timeout).await {
        Ok(first) => stream.push(first),
        Err(Error::Timeout { .. }) => {}
        Err(error) => broke = Some(error_text(&error)),
    }
    let mut trigger_reply = None;
    if let (Some(trigger), None) = (trigger, &broke) {
        let (reply, response) = stdio_call(connection, trigger, timeout).await;
        for other in &reply.others {
            stream.push(other.clone());
        }
        trigger_reply = Some((reply, response));
    }
    if broke.is_none() {
        let deadline = Instant::now() + quiet;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match connection.recv(left).await {
                Ok(message) => stream.push(message),
                Err(Error::Timeout { .. }) => break,
                Err(error) => {
                    broke = Some(error_text(&error));
                    break;
                }
            }
        }
    }
    let response = match broke {
        Some(error) => RawResponse::Failed { error },
        None if stream.is_empty() => RawResponse::Nothing {
            waited_ms: millis(timeout),
        },
        None => stream.response(),
    };
    (stream.messages, response, trigger_reply)
}

/// [`Probe::stream`] over HTTP.
#[cfg(feature = "http")]
async fn http_stream(
    http: &RawHttp,
    message: &Value,
    headers: &[(String, String)],
    trigger: Option<&Value>,
    trigger_headers: &[(String, String)],
    timeout: Duration,
    quiet: Duration,
) -> (Vec<Value>, RawResponse, Option<(Reply, RawResponse)>) {
    let (first_tx, first_rx) = tokio::sync::oneshot::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel();
    let pairs: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let reader = http.post_stream(message.to_string(), &pairs, first_tx, stop_rx);
    let driver = async {
        let _ = tokio::time::timeout(timeout, first_rx).await;
        let reply = match trigger {
            Some(trigger) => Some(http_exchange(http, trigger.to_string(), trigger_headers).await),
            None => None,
        };
        tokio::time::sleep(quiet).await;
        let _ = stop_tx.send(());
        reply
    };
    let (read, trigger_reply) = tokio::join!(reader, driver);
    match read {
        Ok(reply) => {
            let response = RawResponse::Http {
                status: reply.status,
                content_type: reply.content_type().map(str::to_owned),
                body: reply.messages.is_empty().then(|| reply.body.clone()),
                messages: reply.messages.clone(),
            };
            (reply.messages, response, trigger_reply)
        }
        Err(Error::Timeout { after, .. }) => (
            Vec::new(),
            RawResponse::Nothing {
                waited_ms: millis(after),
            },
            trigger_reply,
        ),
        Err(error) => (
            Vec::new(),
            RawResponse::Failed {
                error: error_text(&error),
            },
            trigger_reply,
        ),
    }
}

fn millis(d: Duration) -> u64 {
    d.as_millis().try_into().unwrap_or(u64::MAX)
}

/// The headers of a stateless request: the version from its `_meta`, and
/// the method and name headers routing proxies read.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) fn stateless_headers(message: &Value) -> Option<Vec<(String, String)>> {
    let version = message
        .get("params")?
        .get("_meta")?
        .get(META_VERSION)?
        .as_str()?;
    Some(routing_headers(Some(version), message))
}

/// `MCP-Protocol-Version: version` (when given), `Mcp-Method` and, for
/// requests that name a tool, prompt or resource, `Mcp-Name`.
pub(crate) fn routing_headers(version: Option<&str>, message: &Value) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    if let Some(version) = version {
        headers.push(("MCP-Protocol-Version".to_owned(), version.to_owned()));
    }
    let method = message
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    headers.push(("Mcp-Method".to_owned(), method.to_owned()));
    if let Some(name) = message.get("params").and_then(|p| mcp_name(method, p)) {
        headers.push(("Mcp-Name".to_owned(), name));
    }
    headers
}

/// The `Mcp-Name` of a request: the tool or prompt name, the resource URI,
/// or the task id.
pub(crate) fn mcp_name(method: &str, params: &Value) -> Option<String> {
    let key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => "uri",
        // SEP-2663 routes task requests by their task.
        "tasks/get" | "tasks/update" | "tasks/cancel" => "taskId",
        _ => return None,
    };
    params.get(key)?.as_str().map(str::to_owned)
}

#[cfg(feature = "http")]
fn classic_headers(session: &Option<String>, version: &Option<String>) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    if let Some(session) = session {
        headers.push(("Mcp-Session-Id".to_owned(), session.clone()));
    }
    if let Some(version) = version {
        headers.push(("MCP-Protocol-Version".to_owned(), version.clone()));
    }
    headers
}

#[cfg(feature = "http")]
async fn http_exchange(
    http: &RawHttp,
    body: String,
    headers: &[(String, String)],
) -> (Reply, RawResponse) {
    http_send(http, Some(body), headers).await
}

/// A POST of `body`, or a `DELETE` when there is none, as a [`Reply`] and
/// its evidence.
#[cfg(feature = "http")]
pub(crate) async fn http_send(
    http: &RawHttp,
    body: Option<String>,
    headers: &[(String, String)],
) -> (Reply, RawResponse) {
    let pairs: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let sent = match body {
        Some(body) => http.post(body, &pairs).await,
        None => http.delete(&pairs).await,
    };
    match sent {
        Ok(reply) => {
            let response = reply.response().cloned();
            let others = reply
                .messages
                .iter()
                .filter(|m| !is_response(m))
                .cloned()
                .collect();
            let missing = response.is_none().then_some(Missing::NoMessage);
            let raw = RawResponse::Http {
                status: reply.status,
                content_type: reply.content_type().map(str::to_owned),
                body: reply.messages.is_empty().then(|| reply.body.clone()),
                messages: reply.messages,
            };
            (
                Reply {
                    response,
                    others,
                    status: Some(reply.status),
                    headers: reply.headers,
                    missing,
                },
                raw,
            )
        }
        Err(Error::Timeout { after, .. }) => (
            Reply {
                missing: Some(Missing::Silent(after)),
                ..Reply::default()
            },
            RawResponse::Nothing {
                waited_ms: millis(after),
            },
        ),
        Err(error) => {
            let why = error_text(&error);
            (
                Reply {
                    missing: Some(Missing::Broke(why.clone())),
                    ..Reply::default()
                },
                RawResponse::Failed { error: why },
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stateless_requests_carry_meta_in_params() {
        let message = stateless(3, "tools/list", Value::Null, meta("2026-07-28"));
        assert_eq!(message["params"]["_meta"][META_VERSION], "2026-07-28");
        assert_eq!(message["params"]["_meta"][META_CAPABILITIES], json!({}));
        let bare = stateless(4, "tools/list", Value::Null, Value::Null);
        assert_eq!(bare["params"], json!({}));
        let plain = request(5, "ping", Value::Null);
        assert!(plain.get("params").is_none());
    }

    #[test]
    fn replies_describe_themselves() {
        let error = Reply {
            response: Some(
                json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}),
            ),
            status: Some(404),
            ..Reply::default()
        };
        assert_eq!(
            error.describe(),
            "HTTP 404 with error -32601 \"Method not found\""
        );
        assert_eq!(error.code(), Some(-32601));
        let silent = Reply {
            missing: Some(Missing::Silent(Duration::from_secs(10))),
            ..Reply::default()
        };
        assert_eq!(silent.describe(), "no answer within 10s");
        assert_eq!(silent.id(), None);
    }

    #[cfg(feature = "http")]
    #[test]
    fn stateless_http_headers_name_the_method_and_target() {
        let call = stateless(
            1,
            "tools/call",
            json!({"name": "echo", "arguments": {}}),
            meta("2026-07-28"),
        );
        assert_eq!(
            stateless_headers(&call).unwrap(),
            [
                ("MCP-Protocol-Version".to_owned(), "2026-07-28".to_owned()),
                ("Mcp-Method".to_owned(), "tools/call".to_owned()),
                ("Mcp-Name".to_owned(), "echo".to_owned()),
            ]
        );
        assert_eq!(stateless_headers(&request(1, "ping", Value::Null)), None);
    }
}
