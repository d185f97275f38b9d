//! The recording server over Streamable HTTP on 127.0.0.1, every exchange
//! recorded.

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

use super::{Event, Recording, RecordingServer};
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

/// Binds 127.0.0.1 on a free port and serves the recording server there.
pub(crate) async fn serve(
    recording: Arc<Recording>,
    server: RecordingServer,
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
            let handler = service_fn(move |request: Request<Incoming>| {
                let service = service.clone();
                let recording = recording.clone();
                async move { Ok::<_, Infallible>(record(&service, &recording, request).await) }
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

async fn record(
    service: &StreamableHttpService<RecordingServer, LocalSessionManager>,
    recording: &Recording,
    request: Request<Incoming>,
) -> Response<BoxBody<Bytes, Infallible>> {
    let (parts, body) = request.into_parts();
    let bytes = match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => Bytes::new(),
    };
    let headers = parts
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
    let is_post = parts.method == hyper::Method::POST;
    let untyped = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|m| super::untyped_call(&m));
    let response = service
        .handle(Request::from_parts(parts, Full::new(bytes)))
        .await;
    if !is_post {
        return response;
    }
    let response = match untyped {
        Some(id) => without_result_type(response, id).await,
        None => response,
    };
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or_default().trim().to_owned());
    let answer = Arc::new(Mutex::new(Vec::new()));
    recording.push(Event::Http {
        headers,
        body: body_text,
        status,
        content_type,
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
