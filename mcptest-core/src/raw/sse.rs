//! Raw access to a server of the legacy HTTP+SSE transport (2024-11-05):
//! the stream's opening as it came (status, `Content-Type`, the first
//! event), each POST's status and body, and each event with its name — what
//! the line bridge of [`Server::sse`] hides, for checking the transport's
//! own rules. The same target, bounds and event parser as the bridge.

use std::time::Duration;

use futures::StreamExt;
use reqwest::Url;

use crate::{
    error::Error,
    server::sse::{Bounds, Events, Opened, SseTarget},
    server::{Server, Target},
};

/// An HTTP+SSE server, reached without the bridge: each
/// [`connect`](RawSse::connect) opens a session of its own.
///
/// ```no_run
/// # async fn demo() -> Result<(), mcptest_core::Error> {
/// use mcptest_core::{Server, __support::sse::RawSse};
///
/// let raw = RawSse::open(&Server::sse("http://127.0.0.1:8000/sse"))?;
/// match raw.connect().await {
///     Ok(session) => println!("POST to {}", session.endpoint()),
///     Err(refusal) => println!("{}", refusal.why),
/// }
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct RawSse {
    target: SseTarget,
}

impl std::fmt::Debug for RawSse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawSse")
            .field("url", &self.target.url().as_str())
            .finish_non_exhaustive()
    }
}

/// One event of the stream: its name (`None` is a `message` event) and data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, if the event had one.
    pub event: Option<String>,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
}

/// Why [`RawSse::connect`] found no session, and what it saw on the way.
#[derive(Debug, Clone)]
pub struct SseRefusal {
    /// What went wrong, in words.
    pub why: String,
    /// The GET's status, when an answer came (`None`: nothing answered).
    pub status: Option<u16>,
    /// The GET's `Content-Type`, when the answer had one.
    pub content_type: Option<String>,
    /// The stream's first event, when one came.
    pub first_event: Option<SseEvent>,
}

/// A POST's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SsePost {
    /// The HTTP status.
    pub status: u16,
    /// The start of the body (at most 64 KiB), as text.
    pub body: String,
}

/// What [`SseSession::next_event`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseNext {
    /// An event.
    Event(SseEvent),
    /// The server ended the stream.
    Ended,
    /// The stream broke (an event over the size limit, a line the event
    /// format has no field for, a failed read), in words.
    Broken(String),
    /// Nothing came within the time given.
    Quiet,
}

/// A stream opened up to its `endpoint` event.
pub struct SseSession {
    target: SseTarget,
    events: Events,
    endpoint: Url,
    /// The GET's status.
    pub status: u16,
    /// The GET's `Content-Type`.
    pub content_type: Option<String>,
    /// The `endpoint` event's data as sent (the endpoint, maybe relative).
    pub named: String,
}

impl std::fmt::Debug for SseSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SseSession")
            .field("endpoint", &self.endpoint.as_str())
            .finish_non_exhaustive()
    }
}

impl RawSse {
    /// The server `server` names, which must be a [`Server::sse`]; its
    /// headers and bearer token go with every request, and its connect,
    /// request and message-size bounds hold.
    pub fn open(server: &Server) -> Result<RawSse, Error> {
        let invalid = |message: String| Error::InvalidConfig { message };
        let spec = match &server.target {
            Target::Url(spec) if spec.legacy_sse => spec,
            _ => {
                return Err(invalid(format!(
                    "raw HTTP+SSE needs a Server::sse; {server} is not one"
                )));
            }
        };
        if spec.credentials.is_some() {
            return Err(invalid(
                "raw HTTP+SSE cannot run the client-credentials grant itself: \
                 open it on `server.authorize().await?`"
                    .into(),
            ));
        }
        let bounds = Bounds {
            connect_timeout: server.client.connect_timeout,
            request_timeout: server.client.request_timeout,
            max_message: server.options.max_message_size,
        };
        Ok(RawSse {
            target: SseTarget::new(spec, bounds)?,
        })
    }

    /// The stream's URL.
    pub fn url(&self) -> &str {
        self.target.url().as_str()
    }

    /// Whether anything listens at the stream's URL: a failed connection
    /// (refused, unknown host) is an error; any answer, or none within the
    /// connect timeout, is not (what it says is for the checks to judge).
    pub async fn reachable(&self) -> Result<(), Error> {
        self.target.reachable().await
    }

    /// GETs the stream and reads up to its `endpoint` event, within the
    /// connect timeout: a session, or why there is none.
    pub async fn connect(&self) -> Result<SseSession, SseRefusal> {
        match self.target.open(None).await {
            Ok(Opened {
                events,
                endpoint,
                status,
                content_type,
                named,
            }) => Ok(SseSession {
                target: self.target.clone(),
                events,
                endpoint,
                status,
                content_type,
                named,
            }),
            Err(refusal) => {
                let (status, content_type) = refusal.head.unzip();
                Err(SseRefusal {
                    why: refusal.why,
                    status,
                    content_type: content_type.flatten(),
                    first_event: refusal.first.map(|(event, data)| SseEvent { event, data }),
                })
            }
        }
    }
}

impl SseSession {
    /// The URL messages are POSTed to (the `endpoint` event's, resolved
    /// against the stream's URL).
    pub fn endpoint(&self) -> &str {
        self.endpoint.as_str()
    }

    /// POSTs `body` to the endpoint, within the request timeout.
    pub async fn post(&self, body: &str) -> Result<SsePost, String> {
        self.target
            .post(&self.endpoint, body.as_bytes().to_vec())
            .await
            .map(|(status, body)| SsePost { status, body })
            .map_err(|why| format!("POST {} {why}", self.endpoint))
    }

    /// The next event, waiting at most `within`.
    pub async fn next_event(&mut self, within: Duration) -> SseNext {
        match tokio::time::timeout(within, self.events.next()).await {
            Err(_) => SseNext::Quiet,
            Ok(None) => SseNext::Ended,
            Ok(Some(Err(e))) => SseNext::Broken(self.target.broken(&e, None)),
            Ok(Some(Ok(event))) => SseNext::Event(SseEvent {
                event: event.event,
                data: event.data.unwrap_or_default(),
            }),
        }
    }
}
