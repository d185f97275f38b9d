//! The legacy HTTP+SSE transport of protocol 2024-11-05, served in front of
//! any rmcp server: `GET /sse` opens a session (a fresh handler on an
//! in-memory pipe) whose stream starts with the `endpoint` event naming
//! `/messages?session_id=N`, and then carries each message of the server
//! as a `message` event; `POST /messages?session_id=N` hands one message to
//! the session's handler and answers 202.
//!
//! rmcp 3 has no SSE server, so this one is written for the tests. A
//! [`Quirk`] makes it misbehave in one way, for the tests of the client's
//! bounds.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use axum::{
    Router,
    body::{Body, Bytes},
    extract::{Query, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use rmcp::ServerHandler;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, WriteHalf};

/// One way the SSE server misbehaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quirk {
    /// Opens the stream and never names the endpoint.
    NoEndpoint,
    /// Sends a `message` event before the `endpoint` event.
    MessageFirst,
    /// Names an endpoint on another origin (127.0.0.2).
    ForeignEndpoint,
    /// Answers the GET with JSON instead of an event stream.
    NotSse,
    /// After the endpoint, sends an event of 2 MiB, then never ends it.
    HugeEvent,
    /// Ends the stream shortly after its first message (the answer to
    /// `initialize`).
    DropAfterHandshake,
    /// Refuses every POST after the second one (the handshake) with 404.
    RefusePosts,
    /// Leaves every POST after the second one unanswered.
    SlowPosts,
    /// Sends a line that names no SSE field before its answers.
    BadLine,
    /// Sends every message of the server as an event named `reply`, not
    /// `message`.
    NamedReplies,
}

impl Quirk {
    /// Every quirk, by the name `fixture-everything --sse-quirk` takes.
    pub const ALL: [(&'static str, Quirk); 10] = [
        ("no-endpoint", Quirk::NoEndpoint),
        ("message-first", Quirk::MessageFirst),
        ("foreign-endpoint", Quirk::ForeignEndpoint),
        ("not-sse", Quirk::NotSse),
        ("huge-event", Quirk::HugeEvent),
        ("drop-after-handshake", Quirk::DropAfterHandshake),
        ("refuse-posts", Quirk::RefusePosts),
        ("slow-posts", Quirk::SlowPosts),
        ("bad-line", Quirk::BadLine),
        ("named-replies", Quirk::NamedReplies),
    ];

    /// The quirk called `name`.
    pub fn named(name: &str) -> Option<Quirk> {
        Quirk::ALL.iter().find(|(n, _)| *n == name).map(|(_, q)| *q)
    }
}

type Writer = WriteHalf<tokio::io::DuplexStream>;

struct Session {
    to_server: Arc<tokio::sync::Mutex<Writer>>,
    posts: AtomicU64,
}

struct Site {
    start: Box<dyn Fn(tokio::io::DuplexStream) + Send + Sync>,
    sessions: Mutex<HashMap<u64, Arc<Session>>>,
    next: AtomicU64,
    quirk: Option<Quirk>,
    port: u16,
}

/// `GET /sse` and `POST /messages` serving a fresh handler from `factory`
/// per session, misbehaving as `quirk` says; `port` is the server's own (for
/// the foreign endpoint).
pub fn router<H, F>(factory: F, quirk: Option<Quirk>, port: u16) -> Router
where
    H: ServerHandler,
    F: Fn() -> H + Send + Sync + 'static,
{
    let start = move |io: tokio::io::DuplexStream| {
        let handler = factory();
        tokio::spawn(async move {
            if let Ok(service) = rmcp::serve_server(handler, io).await {
                let _ = service.waiting().await;
            }
        });
    };
    let site = Arc::new(Site {
        start: Box::new(start),
        sessions: Mutex::new(HashMap::new()),
        next: AtomicU64::new(1),
        quirk,
        port,
    });
    Router::new()
        .route("/sse", get(open))
        .route("/messages", post(message))
        .with_state(site)
}

fn event(kind: &str, data: &str) -> Bytes {
    Bytes::from(format!("event: {kind}\ndata: {data}\n\n"))
}

async fn open(State(site): State<Arc<Site>>) -> Response {
    if site.quirk == Some(Quirk::NotSse) {
        return (
            [(header::CONTENT_TYPE, "application/json")],
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"POST here\"}}",
        )
            .into_response();
    }
    let id = site.next.fetch_add(1, Ordering::SeqCst);
    let (ours, theirs) = tokio::io::duplex(1 << 20);
    (site.start)(theirs);
    let (from_server, to_server) = tokio::io::split(ours);
    site.sessions.lock().unwrap().insert(
        id,
        Arc::new(Session {
            to_server: Arc::new(tokio::sync::Mutex::new(to_server)),
            posts: AtomicU64::new(0),
        }),
    );
    let endpoint = match site.quirk {
        Some(Quirk::ForeignEndpoint) => {
            format!("http://127.0.0.2:{}/messages?session_id={id}", site.port)
        }
        _ => format!("/messages?session_id={id}"),
    };
    let quirk = site.quirk;
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(16);
    tokio::spawn(async move {
        let mut first = vec![];
        match quirk {
            Some(Quirk::NoEndpoint) => {
                // Holds the stream open without a word (until the client goes).
                tx.closed().await;
                return;
            }
            Some(Quirk::MessageFirst) => first.push(event(
                "message",
                r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}"#,
            )),
            _ => {}
        }
        first.push(event("endpoint", &endpoint));
        if quirk == Some(Quirk::HugeEvent) {
            first.push(Bytes::from(format!("data: {}", "x".repeat(2 << 20))));
        }
        if quirk == Some(Quirk::BadLine) {
            first.push(Bytes::from_static(b"bogus-field-without-colon\n\n"));
        }
        for bytes in first {
            if tx.send(Ok(bytes)).await.is_err() {
                return;
            }
        }
        if quirk == Some(Quirk::HugeEvent) {
            tx.closed().await;
            return;
        }
        let mut lines = BufReader::new(from_server).lines();
        let mut sent = 0;
        let kind = match quirk {
            Some(Quirk::NamedReplies) => "reply",
            _ => "message",
        };
        while let Ok(Some(line)) = lines.next_line().await {
            if tx.send(Ok(event(kind, &line))).await.is_err() {
                return;
            }
            sent += 1;
            if quirk == Some(Quirk::DropAfterHandshake) && sent == 1 {
                // The initialize answer went out; end the stream a moment
                // later, once the client has had time to POST `initialized`.
                tokio::time::sleep(Duration::from_millis(200)).await;
                return;
            }
        }
    });
    let stream = futures::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}

#[derive(serde::Deserialize)]
struct SessionQuery {
    session_id: u64,
}

async fn message(
    State(site): State<Arc<Site>>,
    Query(query): Query<SessionQuery>,
    body: Bytes,
) -> Response {
    let session = site
        .sessions
        .lock()
        .unwrap()
        .get(&query.session_id)
        .cloned();
    let Some(session) = session else {
        return (StatusCode::NOT_FOUND, "no such session").into_response();
    };
    let posts = session.posts.fetch_add(1, Ordering::SeqCst) + 1;
    if posts > 2 {
        match site.quirk {
            Some(Quirk::RefusePosts) => {
                return (StatusCode::NOT_FOUND, "session expired").into_response();
            }
            Some(Quirk::SlowPosts) => {
                tokio::time::sleep(Duration::from_secs(3600)).await;
            }
            _ => {}
        }
    }
    if serde_json::from_slice::<serde_json::Value>(&body).is_err() {
        return (StatusCode::BAD_REQUEST, "Could not parse message").into_response();
    }
    let mut line = body.to_vec();
    line.push(b'\n');
    let mut writer = session.to_server.lock().await;
    match writer.write_all(&line).await {
        Ok(()) => StatusCode::ACCEPTED.into_response(),
        Err(_) => (StatusCode::GONE, "the session has ended").into_response(),
    }
}
