//! The recording server client checks talk to: a stateless
//! (2026-07-28-only) MCP server on rmcp, behind a recorder that keeps every
//! line or HTTP exchange exactly as it went over the wire.
//!
//! Its tools exist to provoke what the checks look for: `echo` answers,
//! `slow` never finishes on its own (a client must cancel it), `ask` needs
//! client input — it asks, with an `input_required` result, for every one of
//! elicitation, sampling and roots the request declares, and rejects a
//! request that declares none with -32021 — `confirm` does the same with an
//! opaque `requestState` the retry must echo (SEP-2322), and `lookup`'s
//! input schema holds a `$ref` to a network URI on 127.0.0.1 that no client
//! may fetch on its own (SEP-2106): a canary listener records any connection.
//! `forecast` marks four of its arguments (a string, an integer, a boolean
//! and free text) with `x-mcp-header`, which a client mirrors in
//! `Mcp-Param-*` headers over HTTP (SEP-2243). `contact`'s input schema uses
//! JSON Schema 2020-12 keywords (`$schema`, `$defs` with an `$anchor`,
//! `additionalProperties`, `allOf`/`anyOf`, `if`/`then`/`else`) that a
//! client passes back through `schema_echo` to show what it kept. The
//! `tag_*` tools carry `x-mcp-header` annotations: `tag_valid` a valid one,
//! the others one each that breaks a rule (empty, not an HTTP token,
//! repeated, on an object), which a client must not call over HTTP.
//! `untyped`'s answers lose their `resultType` on the wire: a client must
//! take them as complete (SEP-2322). One prompt (`greeting`) and one
//! resource (`mcptest://mock/note`) let a client send `prompts/get` and
//! `resources/read`, whose `Mcp-Name` header is checked over HTTP. Over
//! HTTP it can be a protected resource with its own authorization server
//! ([`authorization`]).

#[cfg(feature = "http-mock")]
pub(crate) mod authorization;
mod behaviour;
#[cfg(feature = "http-mock")]
pub(crate) mod http;
mod tools;

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use serde_json::Value;
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader},
    task::JoinHandle,
};

/// The longest a `slow` call waits for its cancellation.
const SLOW_LIMIT: Duration = Duration::from_secs(120);

/// The recording server's name in `server/discover`.
pub(crate) const SERVER_NAME: &str = "mcptest-mock";

/// Everything that went over the wire, in order.
#[derive(Debug, Default)]
pub(crate) struct Recording {
    events: Mutex<Vec<Event>>,
}

/// One thing on the wire.
#[derive(Debug, Clone)]
pub(crate) enum Event {
    /// A line the client wrote (stdio).
    FromClient { message: Option<Value>, raw: String },
    /// A line the recording server wrote (stdio).
    FromServer { message: Value },
    /// One HTTP request from the client and the recording server's answer.
    #[cfg_attr(not(feature = "http-mock"), allow(dead_code))]
    Http {
        /// The request's method and target (path and query).
        method: String,
        target: String,
        /// When the request arrived.
        at: std::time::Instant,
        headers: Vec<(String, String)>,
        body: String,
        status: u16,
        content_type: Option<String>,
        /// The response's headers.
        answer_headers: Vec<(String, String)>,
        /// The answer's body, filled while it streams.
        answer: Arc<Mutex<Vec<u8>>>,
    },
    /// A connection to the canary (a network `$ref` was dereferenced).
    CanaryHit { peer: String },
    /// The authorization server fetched a client's Client ID Metadata
    /// Document.
    #[cfg_attr(not(feature = "http-mock"), allow(dead_code))]
    DocumentFetch(DocumentFetch),
}

impl Recording {
    pub(crate) fn push(&self, event: Event) {
        self.events
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(event);
    }

    pub(crate) fn events(&self) -> Vec<Event> {
        self.events
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

/// The recording server's MCP behaviour (see [`behaviour`]).
#[derive(Debug, Clone)]
pub(crate) struct RecordingServer {
    /// Where `lookup`'s network `$ref` points: the canary's URL.
    pub(crate) canary_url: Arc<str>,
}

/// The recording server's one prompt and one resource: `prompts/get` and
/// `resources/read` carry `Mcp-Name` over HTTP (SEP-2243).
pub(crate) const PROMPT: &str = "greeting";
pub(crate) const RESOURCE: &str = "mcptest://mock/note";

/// The tool whose answers lose `resultType` on the wire: a client must
/// take such a result as complete (SEP-2322).
pub(crate) const UNTYPED_TOOL: &str = "untyped";

/// Whether `message` is a `tools/call` of [`UNTYPED_TOOL`]; its id, if so.
fn untyped_call(message: &Value) -> Option<String> {
    (message.get("method")? == "tools/call" && message["params"]["name"] == UNTYPED_TOOL)
        .then(|| message.get("id").map(Value::to_string))
        .flatten()
}

/// Takes `resultType` out of a response whose id is in `ids`; whether it did.
fn strip_result_type(message: &mut Value, ids: &Mutex<Vec<String>>) -> bool {
    let Some(id) = message.get("id").map(Value::to_string) else {
        return false;
    };
    if !ids.lock().unwrap_or_else(|p| p.into_inner()).contains(&id) {
        return false;
    }
    message
        .get_mut("result")
        .and_then(Value::as_object_mut)
        .is_some_and(|result| result.remove("resultType").is_some())
}

/// The `requestState` `confirm` sends; the retry must carry it unchanged.
pub(crate) const CONFIRM_STATE: &str = "mcptest-opaque-state:7f3a9c";

/// A listener on 127.0.0.1 that records every connection: the target of
/// `lookup`'s network `$ref`, which a client must never dereference.
#[derive(Debug)]
pub(crate) struct Canary {
    pub(crate) url: String,
    task: JoinHandle<()>,
}

impl Canary {
    /// Binds a free port on 127.0.0.1; each accepted connection is recorded
    /// as [`Event::CanaryHit`] and closed.
    pub(crate) async fn start(recording: Arc<Recording>) -> Result<Canary, mcptest_core::Error> {
        let listener = tokio::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0))
            .await
            .map_err(|e| mcptest_core::Error::InvalidConfig {
                message: format!("the mock's canary listener cannot bind 127.0.0.1: {e}"),
            })?;
        let port = listener
            .local_addr()
            .map_err(|e| mcptest_core::Error::InvalidConfig {
                message: format!("the canary listener's address: {e}"),
            })?
            .port();
        let task = tokio::spawn(async move {
            while let Ok((stream, peer)) = listener.accept().await {
                recording.push(Event::CanaryHit {
                    peer: peer.to_string(),
                });
                drop(stream);
            }
        });
        Ok(Canary {
            url: format!("http://127.0.0.1:{port}/schemas/user-profile.json"),
            task,
        })
    }
}

impl Drop for Canary {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The client capabilities `ask` asks for, in the order it asks.
pub(crate) const ASKABLE: &[&str] = &["elicitation", "sampling", "roots"];

/// Serves the recording server over a pair of byte streams from and to the client,
/// recording every line. Returns the tasks; they end when the client closes
/// its side.
pub(crate) fn serve_stdio<R, W>(
    from_client: R,
    to_client: W,
    recording: Arc<Recording>,
    server: RecordingServer,
) -> Vec<JoinHandle<()>>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let (server_io, pump_io) = tokio::io::duplex(256 * 1024);
    let server = tokio::spawn(async move {
        if let Ok(service) = rmcp::serve_server(server, server_io).await {
            let _ = service.waiting().await;
        }
    });
    let (from_server, mut to_server) = tokio::io::split(pump_io);
    let untyped: Arc<Mutex<Vec<String>>> = Arc::default();
    let inbound = {
        let recording = recording.clone();
        let untyped = untyped.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(from_client).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let message = serde_json::from_str::<Value>(&line).ok();
                if let Some(id) = message.as_ref().and_then(untyped_call) {
                    untyped.lock().unwrap_or_else(|p| p.into_inner()).push(id);
                }
                recording.push(Event::FromClient {
                    message,
                    raw: line.clone(),
                });
                let mut bytes = line.into_bytes();
                bytes.push(b'\n');
                if to_server.write_all(&bytes).await.is_err() {
                    break;
                }
            }
            let _ = to_server.shutdown().await;
        })
    };
    let outbound = tokio::spawn(async move {
        let mut to_client = to_client;
        let mut lines = BufReader::new(from_server).lines();
        while let Ok(Some(mut line)) = lines.next_line().await {
            if let Ok(mut message) = serde_json::from_str::<Value>(&line) {
                if strip_result_type(&mut message, &untyped) {
                    line = message.to_string();
                }
                recording.push(Event::FromServer { message });
            }
            let mut bytes = line.into_bytes();
            bytes.push(b'\n');
            if to_client.write_all(&bytes).await.is_err() || to_client.flush().await.is_err() {
                break;
            }
        }
        let _ = to_client.shutdown().await;
    });
    vec![server, inbound, outbound]
}

/// The authorization server's fetch of a Client ID Metadata Document: the
/// URL (a client's `client_id`) and what came back, or why nothing did.
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "http-mock"), allow(dead_code))]
pub(crate) struct DocumentFetch {
    pub(crate) url: String,
    pub(crate) at: std::time::Instant,
    /// The status, content type and body; `Err`: why there is no answer
    /// (refused, unreachable, timed out, too large).
    pub(crate) answer: Result<(u16, Option<String>, String), String>,
}

#[cfg_attr(not(feature = "http-mock"), allow(dead_code))]
impl DocumentFetch {
    /// How it appears in a report: a GET of the document's URL.
    pub(crate) fn exchange(&self) -> crate::model::Exchange {
        crate::model::Exchange {
            transport: crate::model::Transport::Http,
            request: crate::model::RawRequest {
                method: Some("GET"),
                headers: vec![(":url".to_owned(), self.url.clone())],
                body: String::new(),
            },
            response: match &self.answer {
                Ok((status, content_type, body)) => crate::model::RawResponse::Http {
                    status: *status,
                    content_type: content_type.clone(),
                    messages: Vec::new(),
                    body: Some(body.clone()),
                },
                Err(error) => crate::model::RawResponse::Failed {
                    error: error.clone(),
                },
            },
        }
    }
}
