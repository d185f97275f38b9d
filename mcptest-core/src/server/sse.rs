//! The legacy HTTP+SSE transport of protocol 2024-11-05, as a pair of byte
//! streams: the client writes newline-delimited JSON-RPC as it does to a
//! child's stdin, and a bridge task POSTs each line to the endpoint the
//! server named; every `message` event of the server's stream comes back
//! as one line, as from a child's stdout.
//!
//! So the line transport, [`RawConnection`](crate::RawConnection), cassettes
//! and every check that reads lines work on an SSE server unchanged, and
//! every bound of the stdio path holds here too, plus the ones HTTP needs:
//!
//! - the GET and the `endpoint` event within the connect timeout;
//! - each POST within the request timeout (one at a time, in order);
//! - each event within the message size limit, counted on the raw bytes
//!   before the event parser buffers them (a server that never ends an
//!   event cannot grow mcptest);
//! - no reconnection: the transport cannot resume a session (a new GET
//!   opens a new one), so a stream that ends or breaks ends the connection,
//!   with the reason, and a request whose POST is refused fails at once
//!   rather than waiting for an answer that cannot come.
//!
//! Messages are POSTed only to the stream's own origin: an `endpoint`
//! elsewhere would receive the session's credentials.
//!
//! The event parser is `sse-stream` (the one rmcp's own HTTP transports
//! use, maintained with it, and already in the build); it refuses lines
//! that name no known field, which this transport reports as a broken
//! stream.

use std::{sync::Arc, time::Duration};

use futures::StreamExt;
use reqwest::{
    Url,
    header::{ACCEPT, CONTENT_TYPE, HeaderMap},
};
use serde_json::Value;
use tokio::{
    io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream},
    task::JoinHandle,
};

use super::{
    HttpSpec,
    http::{bearer_token, custom_headers},
};
use crate::{
    error::{Error, describe_failure},
    transport::{inbound::Inbound, lines::human_bytes, stderr::StderrTail},
};

/// How long the bridge waits for each step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    /// The GET, up to and including the `endpoint` event.
    pub(crate) connect_timeout: Duration,
    /// Each POST, from sending to the end of its answer.
    pub(crate) request_timeout: Duration,
    /// The largest event accepted, in bytes.
    pub(crate) max_message: usize,
}

/// How much of a refused POST's answer is kept for the log.
const REFUSAL_SHOWN: usize = 300;
/// How much of a POST's answer is read at most (it is not used).
const ANSWER_READ: usize = 64 * 1024;

/// Starts the bridge to the SSE server `spec` names; returns the client's
/// end of the pipe and the bridge's task (aborted when the connection is
/// closed). Fails only on a configuration that cannot work (a bad header, a
/// bearer variable not set, a URL that is not one); a server that cannot be
/// reached fails the connection, through `inbound`, with the reason.
pub(crate) fn start(
    spec: &HttpSpec,
    bounds: Bounds,
    inbound: Arc<Inbound>,
    log: Arc<StderrTail>,
    pipe_bytes: usize,
) -> Result<(DuplexStream, JoinHandle<()>), Error> {
    let target = SseTarget::new(spec, bounds)?;
    let (client_io, bridge_io) = tokio::io::duplex(pipe_bytes);
    let bridge = Bridge {
        target,
        inbound,
        log,
    };
    let task = tokio::spawn(bridge.run(bridge_io));
    Ok((client_io, task))
}

/// An HTTP+SSE server as each reader of it reaches it (the bridge, and
/// [`RawSse`](crate::__support::sse::RawSse), which conformance checks the
/// transport's rules with): the stream's URL, the headers each request
/// carries, and the bounds.
#[derive(Clone)]
pub(crate) struct SseTarget {
    http: reqwest::Client,
    url: Url,
    headers: HeaderMap,
    bounds: Bounds,
}

/// Why a stream could not be opened up to its `endpoint` event, and what
/// was seen on the way.
#[derive(Debug)]
pub(crate) struct Refusal {
    /// What went wrong, in words.
    pub(crate) why: String,
    /// The GET's status and `Content-Type`, when an answer came.
    pub(crate) head: Option<(u16, Option<String>)>,
    /// The first event (its name and data), when one came.
    pub(crate) first: Option<(Option<String>, String)>,
}

/// A stream opened up to its `endpoint` event.
pub(crate) struct Opened {
    pub(crate) events: Events,
    pub(crate) endpoint: Url,
    pub(crate) status: u16,
    pub(crate) content_type: Option<String>,
    /// The `endpoint` event's data, as sent.
    pub(crate) named: String,
}

type Head = Option<(u16, Option<String>)>;

impl SseTarget {
    /// The server `spec` names; fails only on a configuration that cannot
    /// work (a bad header, a bearer variable not set, a URL that is not one).
    pub(crate) fn new(spec: &HttpSpec, bounds: Bounds) -> Result<SseTarget, Error> {
        let invalid = |message: String| Error::InvalidConfig { message };
        let url = Url::parse(&spec.url)
            .map_err(|e| invalid(format!("the HTTP+SSE URL {:?}: {e}", spec.url)))?;
        let mut headers = HeaderMap::new();
        for (name, value) in custom_headers(spec)? {
            headers.insert(name, value);
        }
        if let Some(token) = bearer_token(spec)? {
            let mut value = reqwest::header::HeaderValue::from_str(&format!("Bearer {token}"))
                .map_err(|_| invalid("the bearer token is not a valid header value".into()))?;
            value.set_sensitive(true);
            headers.insert(reqwest::header::AUTHORIZATION, value);
        }
        let http = reqwest::Client::builder()
            .connect_timeout(bounds.connect_timeout)
            .build()
            .map_err(|e| invalid(format!("HTTP client: {e}")))?;
        Ok(SseTarget {
            http,
            url,
            headers,
            bounds,
        })
    }

    pub(crate) fn url(&self) -> &Url {
        &self.url
    }

    /// GETs the stream and reads up to the `endpoint` event, within the
    /// connect timeout. An event over the size limit is reported to
    /// `inbound`, when there is one, as the reason the session ends.
    pub(crate) async fn open(&self, inbound: Option<&Arc<Inbound>>) -> Result<Opened, Refusal> {
        // A little inside the connect timeout, so that the connection fails
        // with what the stream did (or did not do), not a bare timeout.
        let margin = (self.bounds.connect_timeout / 5).min(Duration::from_secs(2));
        let seen = std::sync::Mutex::new(None);
        let opened = tokio::time::timeout(
            self.bounds.connect_timeout - margin,
            self.open_now(inbound, &seen),
        )
        .await;
        match opened {
            Ok(opened) => opened,
            Err(_) => Err(Refusal {
                why: format!(
                    "the HTTP+SSE server at {} did not open its stream and name its \
                     `endpoint` within {} (the connect timeout): a 2024-11-05 server names \
                     the endpoint to POST to as the first event of its stream",
                    self.url,
                    crate::error::fmt_duration(self.bounds.connect_timeout)
                ),
                head: seen.lock().ok().and_then(|mut s| s.take()),
                first: None,
            }),
        }
    }

    async fn open_now(
        &self,
        inbound: Option<&Arc<Inbound>>,
        seen: &std::sync::Mutex<Head>,
    ) -> Result<Opened, Refusal> {
        let response = self
            .http
            .get(self.url.clone())
            .headers(self.headers.clone())
            .header(ACCEPT, "text/event-stream")
            .send()
            .await
            .map_err(|e| Refusal {
                why: format!(
                    "GET {}: cannot open the SSE stream: {}",
                    self.url,
                    describe_failure(&e)
                ),
                head: None,
                first: None,
            })?;
        let status = response.status();
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let head: Head = Some((status.as_u16(), content_type.clone()));
        if let Ok(mut seen) = seen.lock() {
            seen.clone_from(&head);
        }
        let refused = |why: String, first: Option<(Option<String>, String)>| Refusal {
            why,
            head: head.clone(),
            first,
        };
        if !status.is_success() {
            let challenge = response
                .headers()
                .get(reqwest::header::WWW_AUTHENTICATE)
                .and_then(|v| v.to_str().ok())
                .map(|c| format!(" (WWW-Authenticate: {c})"))
                .unwrap_or_default();
            let body = read_some(response, REFUSAL_SHOWN).await;
            return Err(refused(
                format!(
                    "GET {} answered HTTP {status}{challenge}{}",
                    self.url,
                    shown_body(&body)
                ),
                None,
            ));
        }
        let shown_type = content_type.as_deref().unwrap_or("none");
        if !shown_type.trim_start().starts_with("text/event-stream") {
            return Err(refused(
                format!(
                    "GET {} answered with Content-Type {shown_type}, not text/event-stream: \
                     no HTTP+SSE server is there (a Streamable HTTP server is reached with \
                     Server::url)",
                    self.url
                ),
                None,
            ));
        }
        let mut events = self.events(response, inbound.cloned());
        let (endpoint, named) = self.endpoint(&mut events, inbound, &head).await?;
        Ok(Opened {
            events,
            endpoint,
            status: status.as_u16(),
            content_type,
            named,
        })
    }

    /// Reads the stream's first event, which must name the endpoint: the
    /// endpoint resolved against the stream's URL, and the event's data.
    async fn endpoint(
        &self,
        events: &mut Events,
        inbound: Option<&Arc<Inbound>>,
        head: &Head,
    ) -> Result<(Url, String), Refusal> {
        let refused_at = |why: String, first: Option<(Option<String>, String)>| Refusal {
            why,
            head: head.clone(),
            first,
        };
        let first = match events.next().await {
            Some(Ok(event)) => event,
            Some(Err(e)) => return Err(refused_at(self.broken(&e, inbound), None)),
            None => {
                return Err(refused_at(
                    format!(
                        "the SSE stream at {} ended before its `endpoint` event",
                        self.url
                    ),
                    None,
                ));
            }
        };
        let named = first.data.clone().unwrap_or_default();
        let first_seen = Some((first.event.clone(), named.clone()));
        if first.event.as_deref() != Some("endpoint") {
            return Err(refused_at(
                format!(
                    "the first event of the SSE stream at {} is {} with data {:?}, not \
                     `endpoint`: a 2024-11-05 server names the endpoint to POST to first",
                    self.url,
                    first
                        .event
                        .as_deref()
                        .map(|e| format!("`{e}`"))
                        .unwrap_or_else(|| "a `message`".into()),
                    cut(&named),
                ),
                first_seen,
            ));
        }
        let endpoint = match self.url.join(named.trim()) {
            Ok(endpoint) => endpoint,
            Err(e) => {
                return Err(refused_at(
                    format!(
                        "the `endpoint` event of {} names {named:?}, which is no URL: {e}",
                        self.url
                    ),
                    first_seen,
                ));
            }
        };
        if endpoint.origin() != self.url.origin() {
            return Err(refused_at(
                format!(
                    "the `endpoint` event of {} names {endpoint}, on another origin: \
                     mcptest sends a session's messages (and its credentials) only to the \
                     origin of its stream",
                    self.url
                ),
                first_seen,
            ));
        }
        Ok((endpoint, named))
    }

    /// The events of `response`, each bounded by the message size limit.
    fn events(&self, response: reqwest::Response, inbound: Option<Arc<Inbound>>) -> Events {
        let mut bound = EventBound::new(self.bounds.max_message);
        let bytes = response.bytes_stream().map(move |chunk| {
            let chunk = chunk.map_err(std::io::Error::other)?;
            if let Err(seen) = bound.feed(&chunk) {
                let why = format!(
                    "the server sent an SSE event of more than {} (at least {seen} bytes \
                     without the blank line that ends an event); raise the limit with \
                     Server::max_message_size if that is expected",
                    human_bytes(bound.max)
                );
                if let Some(inbound) = &inbound {
                    inbound.fatal(why.clone());
                }
                return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, why));
            }
            Ok(chunk)
        });
        Box::pin(sse_stream::SseStream::from_bytes_stream(bytes))
    }

    /// Why the stream broke, in words.
    pub(crate) fn broken(
        &self,
        error: &sse_stream::Error,
        inbound: Option<&Arc<Inbound>>,
    ) -> String {
        if let Some(why) = inbound.and_then(|i| i.fatal_reason()) {
            return why;
        }
        let why = match error {
            sse_stream::Error::Body(e) => {
                let e: &(dyn std::error::Error + 'static) = e.as_ref();
                format!("reading it failed: {}", describe_failure(e))
            }
            other => format!("it broke the event-stream format ({other})"),
        };
        format!("the SSE stream at {}: {why}", self.url)
    }

    /// See [`RawSse::reachable`](crate::__support::sse::RawSse::reachable).
    pub(crate) async fn reachable(&self) -> Result<(), Error> {
        let sent = self
            .http
            .head(self.url.clone())
            .headers(self.headers.clone())
            .send();
        match tokio::time::timeout(self.bounds.connect_timeout, sent).await {
            Ok(Err(error)) if crate::error::is_connect_failure(&error) => Err(Error::Transport {
                method: None,
                reason: describe_failure(&error),
                output: Box::default(),
            }),
            _ => Ok(()),
        }
    }

    /// POSTs one message to `endpoint` within the request timeout: the
    /// status and the start of the answer's body, or what went wrong.
    pub(crate) async fn post(
        &self,
        endpoint: &Url,
        body: Vec<u8>,
    ) -> Result<(u16, String), String> {
        let exchange = async {
            let response = self
                .http
                .post(endpoint.clone())
                .headers(self.headers.clone())
                .header(CONTENT_TYPE, "application/json")
                .body(body)
                .send()
                .await?;
            let status = response.status();
            let answer = read_some(response, ANSWER_READ).await;
            Ok::<_, reqwest::Error>((status.as_u16(), answer))
        };
        match tokio::time::timeout(self.bounds.request_timeout, exchange).await {
            Ok(Ok(done)) => Ok(done),
            Ok(Err(e)) => Err(format!("failed: {}", describe_failure(&e))),
            Err(_) => Err(format!(
                "got no answer within {} (the request timeout); \
                 an HTTP+SSE server acknowledges each POST and answers on the stream",
                crate::error::fmt_duration(self.bounds.request_timeout)
            )),
        }
    }
}

struct Bridge {
    target: SseTarget,
    inbound: Arc<Inbound>,
    log: Arc<StderrTail>,
}

/// Why the session ended: by itself, or because the server did something
/// a client cannot go on from.
enum Ended {
    Closed(String),
    Fatal(String),
}

impl Bridge {
    async fn run(self, io: DuplexStream) {
        let (mut from_client, mut to_client) = tokio::io::split(io);
        let ended = self.session(&mut from_client, &mut to_client).await;
        // The reason first: until `from_client` is dropped below, the
        // client's writes still succeed, so a write that fails finds it.
        match ended {
            Ended::Closed(why) => self.inbound.closed(why),
            Ended::Fatal(why) => self.inbound.fatal(why),
        }
        // The client reads the end of the stream next, and the reason above.
        let _ = to_client.shutdown().await;
        drop(from_client);
    }

    async fn session(
        &self,
        from_client: impl tokio::io::AsyncRead + Unpin,
        to_client: &mut (impl AsyncWrite + Unpin),
    ) -> Ended {
        let Opened {
            mut events,
            endpoint,
            ..
        } = match self.target.open(Some(&self.inbound)).await {
            Ok(opened) => opened,
            Err(refusal) => return Ended::Fatal(refusal.why),
        };
        tokio::select! {
            ended = self.pump_events(&mut events, to_client) => ended,
            ended = self.pump_posts(from_client, &endpoint) => ended,
        }
    }

    /// Hands every `message` event to the client as one line.
    async fn pump_events(
        &self,
        events: &mut Events,
        to_client: &mut (impl AsyncWrite + Unpin),
    ) -> Ended {
        loop {
            let event = match events.next().await {
                Some(Ok(event)) => event,
                Some(Err(e)) => return Ended::Fatal(self.target.broken(&e, Some(&self.inbound))),
                None => {
                    return Ended::Closed(format!(
                        "the server ended the SSE stream at {}",
                        self.target.url()
                    ));
                }
            };
            let data = event.data.unwrap_or_default();
            match event.event.as_deref() {
                None | Some("message") => {
                    let mut line = one_line(&data).into_bytes();
                    line.push(b'\n');
                    if to_client.write_all(&line).await.is_err() {
                        return Ended::Closed("the client closed the connection".into());
                    }
                }
                // Not JSON-RPC: kept where stray output of a stdio server is.
                Some(other) => self
                    .inbound
                    .noise(format!("SSE event `{other}`: {data}").as_bytes()),
            }
        }
    }

    /// POSTs every line the client writes, one at a time, in order.
    async fn pump_posts(
        &self,
        from_client: impl tokio::io::AsyncRead + Unpin,
        endpoint: &Url,
    ) -> Ended {
        let mut lines = BufReader::new(from_client);
        let mut line = Vec::new();
        loop {
            line.clear();
            match lines.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => {
                    return Ended::Closed("the client closed the connection".into());
                }
                Ok(_) => {}
            }
            let body = line.strip_suffix(b"\n").unwrap_or(&line);
            let body = body.strip_suffix(b"\r").unwrap_or(body);
            if body.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if let Some(ended) = self.post(endpoint, body.to_vec()).await {
                return ended;
            }
        }
    }

    /// POSTs one message; `Some` ends the session.
    async fn post(&self, endpoint: &Url, body: Vec<u8>) -> Option<Ended> {
        let request = serde_json::from_slice::<Value>(&body)
            .ok()
            .filter(|m| m.get("method").is_some() && m.get("id").is_some_and(|id| !id.is_null()));
        let what = match &request {
            Some(m) => format!(
                "request {} (id {})",
                m["method"].as_str().unwrap_or("?"),
                m["id"]
            ),
            None => "a message".to_owned(),
        };
        let (status, answer) = match self.target.post(endpoint, body).await {
            Ok(done) => done,
            Err(why) => return Some(Ended::Fatal(format!("POST {endpoint} ({what}) {why}"))),
        };
        if (200..300).contains(&status) {
            return None;
        }
        let refusal = format!(
            "POST {endpoint} ({what}) answered HTTP {}{}",
            http_status(status),
            shown_body(&answer)
        );
        // A refused request is answered nowhere: fail it now. A refused
        // notification or answer leaves the session usable, and is kept
        // where a stdio server's stderr is.
        match request {
            Some(_) => Some(Ended::Fatal(format!(
                "{refusal}; no answer can come on the stream"
            ))),
            None => {
                self.log.push(format!("mcptest: {refusal}\n").as_bytes());
                None
            }
        }
    }
}

pub(crate) type Events = std::pin::Pin<
    Box<dyn futures::Stream<Item = Result<sse_stream::Sse, sse_stream::Error>> + Send>,
>;

/// At most `limit` bytes of a response's body, as text.
async fn read_some(mut response: reqwest::Response, limit: usize) -> String {
    let mut kept = Vec::new();
    while kept.len() < limit {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                kept.extend_from_slice(&chunk[..chunk.len().min(limit - kept.len())])
            }
            _ => break,
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

/// A status code as reqwest shows it (`404 Not Found`).
fn http_status(status: u16) -> String {
    reqwest::StatusCode::from_u16(status)
        .map(|s| s.to_string())
        .unwrap_or_else(|_| status.to_string())
}

fn shown_body(body: &str) -> String {
    match body.trim() {
        "" => String::new(),
        text => format!(": {}", cut(text)),
    }
}

fn cut(text: &str) -> String {
    if text.chars().count() <= REFUSAL_SHOWN {
        return text.to_owned();
    }
    let kept: String = text.chars().take(REFUSAL_SHOWN).collect();
    format!("{kept}…")
}

/// An event's data as one line: JSON spread over several `data:` lines is
/// written compactly; anything else keeps its text, line breaks as spaces
/// (it is noise to the reader either way).
fn one_line(data: &str) -> String {
    if !data.contains(['\n', '\r']) {
        return data.to_owned();
    }
    match serde_json::from_str::<Value>(data) {
        Ok(value) => value.to_string(),
        Err(_) => data.replace(['\n', '\r'], " "),
    }
}

/// Counts the bytes of the event being received (since the blank line that
/// ended the last one, line ends not counted), so an event over the limit
/// is refused before the parser has buffered it whole.
struct EventBound {
    max: usize,
    seen: usize,
    /// The last byte was a line end (so another one ends the event).
    at_line_start: bool,
    /// The last byte was `\r` (so a `\n` now completes the same line end).
    after_cr: bool,
}

impl EventBound {
    fn new(max: usize) -> Self {
        EventBound {
            max,
            seen: 0,
            at_line_start: true,
            after_cr: false,
        }
    }

    /// Takes the next bytes; `Err(seen)` once the event passes the limit.
    fn feed(&mut self, bytes: &[u8]) -> Result<(), usize> {
        for &b in bytes {
            match b {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' | b'\r' => {
                    if self.at_line_start {
                        self.seen = 0;
                    }
                    self.at_line_start = true;
                    self.after_cr = b == b'\r';
                }
                _ => {
                    self.at_line_start = false;
                    self.after_cr = false;
                    self.seen += 1;
                    if self.seen > self.max {
                        return Err(self.seen);
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_counts_each_event_whatever_its_line_ends() {
        for end in ["\n", "\r\n", "\r"] {
            let mut bound = EventBound::new(10);
            let event = format!("data: 1234{end}{end}");
            for _ in 0..100 {
                assert_eq!(bound.feed(event.as_bytes()), Ok(()), "{end:?}");
            }
            // Two lines of one event count together.
            let long = format!("data: 12{end}data: 34{end}");
            assert_eq!(bound.feed(long.as_bytes()), Err(11), "{end:?}");
        }
    }

    #[test]
    fn the_bound_holds_across_chunks() {
        let mut bound = EventBound::new(8);
        assert_eq!(bound.feed(b"data: 1"), Ok(()));
        assert_eq!(bound.feed(b"2"), Ok(()));
        assert_eq!(bound.feed(b"3"), Err(9));
        let mut bound = EventBound::new(8);
        assert_eq!(bound.feed(b"data: 1\r"), Ok(()));
        assert_eq!(bound.feed(b"\n\r\ndata: 12"), Ok(()));
    }

    #[test]
    fn json_over_several_data_lines_becomes_one_line() {
        assert_eq!(one_line("{\"a\":\n1}"), "{\"a\":1}");
        assert_eq!(one_line("not\njson"), "not json");
        assert_eq!(one_line("{\"a\":1}"), "{\"a\":1}");
    }
}
