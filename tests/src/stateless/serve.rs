//! Serving the fixture: over stdio through a line pump in front of rmcp, or
//! over Streamable HTTP on 127.0.0.1 with a middleware; both apply the
//! [`Breakages`].

use std::{
    collections::HashMap,
    io::{Read as _, Write as _},
    net::Ipv4Addr,
    process::ExitCode,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    body::Body,
    extract::{Request, State},
    http::{HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use futures::StreamExt;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::{
    Stateless,
    breakage::{Breakage, Breakages, Conn, Inbound, status_for},
};

/// The largest HTTP body the middleware reads.
const MAX_BODY: usize = 16 * 1024 * 1024;

/// The entry point of `fixture-stateless` (`allow_breakages: false`) and
/// `fixture-broken` (at least one breakage flag).
pub fn main_with(name: &str, allow_breakages: bool) -> ExitCode {
    let usage = if allow_breakages {
        format!(
            "usage: {name} [--http] FLAG...\n\nServes fixture-stateless with rules broken, over stdio \
             or (--http) Streamable HTTP on 127.0.0.1, announcing `listening on <url>`.\nFlags:\n{}",
            super::BREAKAGES
                .iter()
                .map(|(_, flag, check, what)| format!("  {flag:<40} {what} (fails {check})"))
                .collect::<Vec<_>>()
                .join("\n")
        )
    } else {
        format!(
            "usage: {name} [--http]\n\nServes an MCP server that conforms to 2025-11-25 and \
             2026-07-28 over stdio, or (--http) Streamable HTTP on 127.0.0.1, announcing \
             `listening on <url>`."
        )
    };
    let mut http = false;
    let mut flags = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--http" => http = true,
            "--help" | "-h" => {
                println!("{usage}");
                return ExitCode::SUCCESS;
            }
            _ => flags.push(arg),
        }
    }
    let breakages = match Breakages::parse(flags) {
        Ok(breakages) => breakages,
        Err(message) => {
            eprintln!("{name}: {message}");
            return ExitCode::from(2);
        }
    };
    if allow_breakages == breakages.is_empty() {
        let wanted = if allow_breakages {
            "give at least one flag (fixture-stateless is the conforming server)"
        } else {
            "takes no flags (fixture-broken breaks rules)"
        };
        eprintln!("{name}: {wanted}\n{usage}");
        return ExitCode::from(2);
    }
    let breakages = Arc::new(breakages);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("{name}: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        if http {
            serve_http(breakages).await
        } else {
            serve_stdio(breakages).await
        }
    });
    runtime.shutdown_timeout(Duration::from_millis(100));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{name}: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The JSON text of an id, as the key of the request it belongs to.
fn id_key(message: &Value) -> Option<String> {
    let id = message.get("id")?;
    (!id.is_null()).then(|| id.to_string())
}

/// Serves one connection on stdin/stdout until stdin ends.
pub async fn serve_stdio(breakages: Arc<Breakages>) -> Result<(), String> {
    let (server_io, pump_io) = tokio::io::duplex(1024 * 1024);
    let handler = Stateless::new(breakages.clone());
    let server = tokio::spawn(async move {
        match rmcp::serve_server(handler, server_io).await {
            Ok(running) => {
                let _ = running.waiting().await;
            }
            Err(error) => eprintln!("the connection ended during its first request: {error}"),
        }
    });
    let (from_server, mut to_server) = tokio::io::split(pump_io);
    let (out, mut lines_out) = tokio::sync::mpsc::channel::<String>(1024);
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(mut line) = lines_out.recv().await {
            line.push('\n');
            if stdout.write_all(line.as_bytes()).await.is_err() || stdout.flush().await.is_err() {
                break;
            }
        }
    });
    let requests: Arc<Mutex<HashMap<String, Value>>> = Arc::default();

    let outbound = {
        let requests = requests.clone();
        let breakages = breakages.clone();
        let out = out.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(from_server).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let Ok(mut message) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                if super::features::drops(&breakages, &message) {
                    continue;
                }
                if message.get("method").is_none() {
                    let request = id_key(&message).and_then(|key| {
                        requests
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .remove(&key)
                    });
                    breakages.outbound(request.as_ref(), &mut message);
                }
                let follower = super::features::follows(&breakages, &message);
                if out.send(message.to_string()).await.is_err() {
                    break;
                }
                if let Some(follower) = follower
                    && out.send(follower.to_string()).await.is_err()
                {
                    break;
                }
            }
        })
    };

    let mut stdin = BufReader::new(tokio::io::stdin()).lines();
    let mut conn = Conn::default();
    while let Ok(Some(line)) = stdin.next_line().await {
        if line.trim().is_empty() {
            continue;
        }
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            if let Some(answer) = breakages.unparsable() {
                let _ = out.send(answer.to_string()).await;
            }
            continue;
        };
        match breakages.inbound(message, &mut conn, None) {
            Inbound::Forward(message) => {
                if message.get("method").is_some()
                    && let Some(key) = id_key(&message)
                {
                    requests
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .insert(key, message.clone());
                }
                let line = format!("{message}\n");
                if to_server.write_all(line.as_bytes()).await.is_err() {
                    break;
                }
            }
            Inbound::Reply(answer) => {
                let _ = out.send(answer.to_string()).await;
            }
            Inbound::Drop => {}
        }
    }
    let _ = to_server.shutdown().await;
    let _ = tokio::time::timeout(Duration::from_secs(5), outbound).await;
    server.abort();
    drop(out);
    let _ = writer.await;
    Ok(())
}

/// Serves Streamable HTTP on 127.0.0.1 (a free port, announced as
/// `listening on <url>`) until stdin ends.
pub async fn serve_http(breakages: Arc<Breakages>) -> Result<(), String> {
    let config = StreamableHttpServerConfig::default()
        .with_sse_keep_alive(None)
        .with_legacy_session_mode(true)
        .with_json_response(true);
    let per_session = breakages.clone();
    let service = StreamableHttpService::new(
        move || Ok(Stateless::new(per_session.clone())),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let app = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn_with_state(
            breakages.clone(),
            bend,
        ))
        .layer(axum::middleware::from_fn_with_state(
            breakages,
            super::transport_breakage::bend,
        ));
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .map_err(|e| format!("cannot bind 127.0.0.1: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?
        .port();
    {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "listening on http://127.0.0.1:{port}/mcp")
            .and_then(|()| stdout.flush())
            .map_err(|e| format!("cannot announce the address: {e}"))?;
    }
    // A plain thread: tokio's stdin reads on a blocking thread that cannot be
    // cancelled and would hold up the runtime's shutdown.
    let (eof_tx, eof_rx) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let mut sink = [0u8; 4096];
        let mut stdin = std::io::stdin().lock();
        while matches!(stdin.read(&mut sink), Ok(n) if n > 0) {}
        let _ = eof_tx.send(());
    });
    tokio::select! {
        result = axum::serve(listener, app) => result.map_err(|e| format!("HTTP server failed: {e}")),
        _ = eof_rx => Ok(()),
    }
}

fn json_answer(breakages: &Breakages, answer: &Value) -> Response {
    let status = if breakages.has(Breakage::HttpErrors200) {
        200
    } else {
        status_for(answer)
    };
    let mut response = Response::new(Body::from(answer.to_string()));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// In front of rmcp over HTTP: answers what is not a JSON-RPC message with
/// -32700 / -32600 and HTTP 400 (rmcp answers 415 with plain text), and
/// applies the breakages — to the request before rmcp sees it and, when a
/// breakage needs it, to the answer after.
async fn bend(State(breakages): State<Arc<Breakages>>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (mut parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        return (StatusCode::PAYLOAD_TOO_LARGE, "body too large").into_response();
    };
    let Ok(message) = serde_json::from_slice::<Value>(&bytes) else {
        return match breakages.unparsable() {
            Some(answer) => json_answer(&breakages, &answer),
            None => StatusCode::ACCEPTED.into_response(),
        };
    };
    let mut version = parts
        .headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let mut conn = Conn {
        initialized: parts.headers.contains_key("mcp-session-id"),
    };
    let forwarded = match breakages.inbound(message, &mut conn, Some(&mut version)) {
        Inbound::Drop => return StatusCode::ACCEPTED.into_response(),
        Inbound::Reply(answer) => return json_answer(&breakages, &answer),
        Inbound::Forward(message) => message,
    };
    match version.as_deref().map(HeaderValue::from_str) {
        Some(Ok(value)) => {
            parts.headers.insert("mcp-protocol-version", value);
        }
        _ => {
            parts.headers.remove("mcp-protocol-version");
        }
    }
    parts.headers.remove(header::CONTENT_LENGTH);
    let body = Body::from(forwarded.to_string());
    let response = next.run(Request::from_parts(parts, body)).await;
    if forwarded.get("method").and_then(Value::as_str) == Some("subscriptions/listen") {
        // A listen stream stays open: it is filtered as it goes, never buffered.
        return super::features::filter_stream(breakages, response);
    }
    if !breakages.rewrites_answers() && !breakages.has(Breakage::HttpErrors200) {
        return response;
    }
    rewrite_answer(&breakages, &forwarded, response).await
}

async fn rewrite_answer(breakages: &Breakages, request: &Value, response: Response) -> Response {
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let sse = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    let mut messages: Vec<(Option<String>, Value)> = if sse {
        let chunk: Result<bytes::Bytes, std::convert::Infallible> = Ok(bytes.clone());
        sse_stream::SseStream::from_bytes_stream(futures::stream::iter([chunk]))
            .filter_map(|event| async move {
                let event = event.ok()?;
                let data = serde_json::from_str(event.data.as_deref()?).ok()?;
                Some((event.id, data))
            })
            .collect()
            .await
    } else {
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(message) => vec![(None, message)],
            Err(_) => return Response::from_parts(parts, Body::from(bytes)),
        }
    };
    let mut any_error = false;
    for (_, message) in &mut messages {
        if message.get("method").is_none() {
            breakages.outbound(Some(request), message);
            any_error |= message.get("error").is_some();
        }
    }
    if breakages.has(Breakage::HttpErrors200) && any_error {
        parts.status = StatusCode::OK;
    }
    let body = if sse {
        messages
            .iter()
            .map(|(id, message)| match id {
                Some(id) => format!("event: message\nid: {id}\ndata: {message}\n\n"),
                None => format!("event: message\ndata: {message}\n\n"),
            })
            .collect::<String>()
    } else {
        messages
            .first()
            .map(|(_, m)| m.to_string())
            .unwrap_or_default()
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
}
