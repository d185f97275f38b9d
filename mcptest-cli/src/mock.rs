//! `mcptest mock`: plays MCP Cases files as an MCP server, over stdio or
//! Streamable HTTP on 127.0.0.1, for testing MCP clients against a
//! contract. The answers are the library's ([`MockServer`]); this module
//! only moves messages.

use std::{
    collections::HashMap,
    io::{BufRead, Write},
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use axum::{
    Router,
    body::Bytes,
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::post,
};
use mcptest::suite::MockServer;
use serde_json::{Value, json};

use crate::{Exit, args::MockArgs};

const SESSION_HEADER: &str = "mcp-session-id";

pub fn mock(args: MockArgs) -> Exit {
    let mut mock: Option<MockServer> = None;
    for path in &args.files {
        match MockServer::load(path) {
            Ok(loaded) => {
                mock = Some(match mock {
                    Some(m) => m.merge(loaded),
                    None => loaded,
                })
            }
            Err(e) => {
                eprintln!("mcptest mock: {e}");
                return Exit::Usage;
            }
        }
    }
    let mock = mock.expect("clap requires a file");
    match args.http {
        Some(port) => http(mock, port),
        None => stdio(mock),
    }
}

/// Reports a reply that is an error (an unmatched request) on stderr.
fn log_errors(replies: &[Value]) {
    for reply in replies {
        if let Some(message) = reply.pointer("/error/message").and_then(Value::as_str) {
            eprintln!("mcptest mock: {message}");
        }
    }
}

fn parse_error(e: &serde_json::Error) -> Value {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("Parse error: {e}")}})
}

fn stdio(mock: MockServer) -> Exit {
    eprintln!("mcptest mock: serving {} cases on stdio", mock.len());
    let mut session = mock.session();
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("mcptest mock: reading stdin failed: {e}");
                return Exit::Failures;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let replies = match serde_json::from_str(&line) {
            Ok(message) => session.respond(&message),
            Err(e) => {
                eprintln!("mcptest mock: not JSON ({e}): {line}");
                vec![parse_error(&e)]
            }
        };
        log_errors(&replies);
        for reply in replies {
            if writeln!(stdout, "{reply}")
                .and_then(|()| stdout.flush())
                .is_err()
            {
                // The client went away.
                return Exit::Pass;
            }
        }
    }
    Exit::Pass
}

/// One conversation's state: answers an incoming message.
type Session = Box<dyn FnMut(&Value) -> Vec<Value> + Send>;

fn session(mock: &MockServer) -> Session {
    let mut session = mock.session();
    Box::new(move |message| session.respond(message))
}

struct Sessions {
    mock: MockServer,
    sessions: Mutex<HashMap<String, Session>>,
    next_id: AtomicU64,
}

fn http(mock: MockServer, port: u16) -> Exit {
    let runtime = match crate::runtime(1) {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
            Ok(listener) => listener,
            Err(e) => {
                eprintln!("mcptest mock: cannot listen on 127.0.0.1:{port}: {e}");
                return Exit::Usage;
            }
        };
        let address = listener
            .local_addr()
            .map(|a| a.to_string())
            .unwrap_or_default();
        eprintln!(
            "mcptest mock: serving {} cases on http://{address}/mcp",
            mock.len()
        );
        let state = Arc::new(Sessions {
            mock,
            sessions: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
        });
        let app = Router::new()
            .route("/mcp", post(handle_post).delete(handle_delete))
            .with_state(state);
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        match axum::serve(listener, app)
            .with_graceful_shutdown(shutdown)
            .await
        {
            Ok(()) => Exit::Pass,
            Err(e) => {
                eprintln!("mcptest mock: the HTTP server stopped: {e}");
                Exit::Failures
            }
        }
    })
}

/// One POSTed message: no reply is 202, one is a JSON body, several (a
/// notification before the answer) are an event stream.
async fn handle_post(
    State(state): State<Arc<Sessions>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let message: Value = match serde_json::from_slice(&body) {
        Ok(message) => message,
        Err(e) => {
            eprintln!("mcptest mock: not JSON ({e})");
            return (StatusCode::BAD_REQUEST, json_body(&parse_error(&e))).into_response();
        }
    };
    let is_initialize = message.get("method").and_then(Value::as_str) == Some("initialize");
    let given = headers
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let id = match (given, is_initialize) {
        (Some(id), _) => id,
        (None, true) => format!(
            "mock-session-{}",
            state.next_id.fetch_add(1, Ordering::Relaxed)
        ),
        // A client that never initialized shares one session.
        (None, false) => String::new(),
    };
    let replies = {
        let mut sessions = state.sessions.lock().expect("no panics while locked");
        let session = sessions
            .entry(id.clone())
            .or_insert_with(|| session(&state.mock));
        session(&message)
    };
    log_errors(&replies);
    let mut response = match replies.len() {
        0 => StatusCode::ACCEPTED.into_response(),
        1 => json_body(&replies[0]).into_response(),
        _ => {
            let events: String = replies
                .iter()
                .map(|reply| format!("event: message\ndata: {reply}\n\n"))
                .collect();
            ([(header::CONTENT_TYPE, "text/event-stream")], events).into_response()
        }
    };
    if is_initialize
        && !id.is_empty()
        && let Ok(value) = HeaderValue::from_str(&id)
    {
        response.headers_mut().insert(SESSION_HEADER, value);
    }
    response
}

fn json_body(value: &Value) -> impl IntoResponse + use<> {
    (
        [(header::CONTENT_TYPE, "application/json")],
        value.to_string(),
    )
}

async fn handle_delete(State(state): State<Arc<Sessions>>, headers: HeaderMap) -> StatusCode {
    let id = headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok());
    match id {
        Some(id)
            if state
                .sessions
                .lock()
                .expect("no panics while locked")
                .remove(id)
                .is_some() =>
        {
            StatusCode::OK
        }
        _ => StatusCode::NOT_FOUND,
    }
}
