//! The recording server over Streamable HTTP on 127.0.0.1, every exchange
//! recorded; when protected, with its authorization server on the same
//! listener (see [`authorization`](super::authorization)).

use std::{
    convert::Infallible,
    net::Ipv4Addr,
    sync::{Arc, Mutex},
};

use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::{Request, Response, body::Incoming, service::service_fn};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio::{net::TcpListener, task::JoinHandle};

use super::authorization::{Answer, Protected};
use super::{Event, Recording, RecordingServer};
use crate::model::ClientRegistration;
use mcptest_core::Error;

/// A recording server running over HTTP: its URL and the task serving it. Dropping it
/// stops the server and ends the HTTP service's open streams.
pub(crate) struct ServedOverHttp {
    pub(crate) url: String,
    task: JoinHandle<()>,
    cancel: Option<Box<dyn FnOnce() + Send + Sync>>,
}

impl Drop for ServedOverHttp {
    fn drop(&mut self) {
        self.task.abort();
        if let Some(cancel) = self.cancel.take() {
            cancel();
        }
    }
}

/// Binds 127.0.0.1 on a free port and serves the recording server there;
/// `protected`: as a protected resource, with its authorization server
/// offering that registration.
pub(crate) async fn serve(
    recording: Arc<Recording>,
    server: RecordingServer,
    protected: Option<ClientRegistration>,
) -> Result<ServedOverHttp, Error> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .map_err(|e| Error::InvalidConfig {
            message: format!("the mock server cannot bind 127.0.0.1: {e}"),
        })?;
    let port = listener
        .local_addr()
        .map_err(|e| Error::InvalidConfig {
            message: format!("the mock server's address: {e}"),
        })?
        .port();
    let config = StreamableHttpServerConfig::default()
        .with_sse_keep_alive(None)
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_stateless_protocol_metadata_required(true);
    let token = config.cancellation_token.clone();
    let protected = protected.map(|registration| {
        Arc::new(Protected::new(
            format!("http://127.0.0.1:{port}"),
            registration,
        ))
    });
    let service = Arc::new(StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    ));
    let task = tokio::spawn(async move {
        let mut connections = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            let service = service.clone();
            let recording = recording.clone();
            let protected = protected.clone();
            let handler = service_fn(move |request: Request<Incoming>| {
                let service = service.clone();
                let recording = recording.clone();
                let protected = protected.clone();
                async move {
                    Ok::<_, Infallible>(
                        record(&service, &recording, protected.as_deref(), request).await,
                    )
                }
            });
            connections.retain(|c: &JoinHandle<()>| !c.is_finished());
            connections.push(tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), handler)
                    .await;
            }));
        }
    });
    Ok(ServedOverHttp {
        url: format!("http://127.0.0.1:{port}/mcp"),
        task,
        cancel: Some(Box::new(move || token.cancel())),
    })
}

/// The answer to a `tools/call` of the untyped tool, its `resultType`
/// taken out (a JSON body; an SSE one passes as it is).
async fn without_result_type(
    response: Response<BoxBody<Bytes, Infallible>>,
    id: String,
) -> Response<BoxBody<Bytes, Infallible>> {
    let (mut parts, body) = response.into_parts();
    let bytes = match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(never) => match never {},
    };
    let ids = Mutex::new(vec![id]);
    let stripped = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|mut message| {
            super::strip_result_type(&mut message, &ids).then(|| message.to_string())
        });
    let bytes = match stripped {
        Some(text) => {
            parts.headers.remove(hyper::header::CONTENT_LENGTH);
            Bytes::from(text)
        }
        None => bytes,
    };
    Response::from_parts(parts, Full::new(bytes).boxed())
}

/// An answer of the authorization side as an HTTP response.
fn respond(answer: Answer) -> Response<BoxBody<Bytes, Infallible>> {
    let mut response = Response::new(Full::new(Bytes::from(answer.body)).boxed());
    *response.status_mut() =
        hyper::StatusCode::from_u16(answer.status).unwrap_or(hyper::StatusCode::OK);
    for (name, value) in answer.headers {
        if let (Ok(name), Ok(value)) = (
            hyper::header::HeaderName::from_bytes(name.as_bytes()),
            hyper::header::HeaderValue::from_str(&value),
        ) {
            response.headers_mut().append(name, value);
        }
    }
    response
}

async fn record(
    service: &StreamableHttpService<RecordingServer, LocalSessionManager>,
    recording: &Recording,
    protected: Option<&Protected>,
    request: Request<Incoming>,
) -> Response<BoxBody<Bytes, Infallible>> {
    let at = std::time::Instant::now();
    let (parts, body) = request.into_parts();
    let bytes = match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => Bytes::new(),
    };
    let headers: Vec<(String, String)> = parts
        .headers
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let body_text = String::from_utf8_lossy(&bytes).into_owned();
    let method = parts.method.as_str().to_owned();
    let target = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| parts.uri.path().to_owned());
    let guarded = match protected {
        Some(p) => {
            p.answer(
                recording,
                &method,
                parts.uri.path(),
                parts.uri.query().unwrap_or_default(),
                &headers,
                &body_text,
            )
            .await
        }
        None => None,
    };
    let response = match guarded {
        Some(answer) => respond(answer),
        None => {
            let is_post = parts.method == hyper::Method::POST;
            let untyped = serde_json::from_slice::<serde_json::Value>(&bytes)
                .ok()
                .and_then(|m| super::untyped_call(&m));
            let response = service
                .handle(Request::from_parts(parts, Full::new(bytes)))
                .await;
            // Unprotected, only the POSTs are the client's messages; the
            // rest need recording only for the authorization checks.
            if !is_post && protected.is_none() {
                return response;
            }
            match untyped {
                Some(id) => without_result_type(response, id).await,
                None => response,
            }
        }
    };
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or_default().trim().to_owned());
    let answer_headers = response
        .headers()
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let answer = Arc::new(Mutex::new(Vec::new()));
    recording.push(Event::Http {
        method,
        target,
        at,
        headers,
        body: body_text,
        status,
        content_type,
        answer_headers,
        answer: answer.clone(),
    });
    let (parts, body) = response.into_parts();
    let body = body
        .map_frame(move |frame| {
            if let Some(data) = frame.data_ref() {
                answer
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .extend_from_slice(data);
            }
            frame
        })
        .boxed();
    Response::from_parts(parts, body)
}
