//! From a [`Server`] recipe to a connected [`McpClient`]: start or dial the
//! server, then the handshake (`initialize`, or `server/discover` for
//! stateless MCP).

use std::sync::Arc;

use rmcp::{
    model::{ClientCapabilities, ClientConfig, ProtocolVersion},
    service::{ClientInitializeError, ClientLifecycleMode, serve_client_with_lifecycle},
    transport::Transport,
};
use serde_json::json;

use super::{Harness, Inner, McpClient, ServerInfo, connection_lost};
use crate::{
    Error, Notifications,
    server::{
        Options, Server,
        launch::{Started, start},
    },
    transport::{endpoint::Endpoint, lines::LineTransport, wire::Wire},
};

pub(crate) async fn connect(server: &Server) -> Result<McpClient, Error> {
    let options = &server.options;
    let harness = Arc::new(harness(options));
    match start(server, Notifications::new())? {
        Started::Stream(streams) => {
            let wire = streams.wire;
            let transport = LineTransport::new(
                streams.read,
                streams.write,
                wire.clone(),
                options.max_message_size,
            );
            let writer = transport.write_handle();
            let endpoint = Endpoint::new(
                wire,
                Some(writer),
                streams.in_process,
                options.shutdown_grace,
            );
            handshake(transport, harness, endpoint, options).await
        }
        #[cfg(feature = "http")]
        Started::Http(spec, wire) => {
            let transport = http::transport(&spec, options, wire.clone())?;
            let endpoint = Endpoint::new(wire, None, None, options.shutdown_grace);
            handshake(transport, harness, endpoint, options).await
        }
        #[cfg(not(feature = "http"))]
        Started::Http(..) => Err(Error::InvalidConfig {
            message: "Streamable HTTP needs mcptest's `http` feature".into(),
        }),
    }
}

fn harness(options: &Options) -> Harness {
    let capabilities = options.capabilities.clone().unwrap_or_else(|| {
        let mut caps = serde_json::Map::new();
        if options.sampling.is_some() {
            caps.insert("sampling".into(), json!({}));
        }
        if options.roots.is_some() {
            caps.insert("roots".into(), json!({ "listChanged": true }));
        }
        if options.elicitation.is_some() {
            caps.insert("elicitation".into(), json!({ "form": {} }));
        }
        serde_json::from_value::<ClientCapabilities>(caps.into())
            .expect("client capabilities built from known fields")
    });
    let version: ProtocolVersion =
        serde_json::from_value(json!(options.protocol_version)).expect("any string is a version");
    let config =
        ClientConfig::new(capabilities, options.client_info.clone()).with_protocol_version(version);
    Harness {
        config,
        sampling: options.sampling.clone(),
        roots: options.roots.clone(),
        elicitation: options.elicitation.clone(),
    }
}

async fn handshake<T>(
    transport: T,
    harness: Arc<Harness>,
    endpoint: Endpoint,
    options: &Options,
) -> Result<McpClient, Error>
where
    T: Transport<rmcp::RoleClient> + 'static,
{
    let version = harness.config.protocol_version.clone();
    let (lifecycle, method) = if version.has_initialize() {
        (ClientLifecycleMode::Initialize, "initialize")
    } else {
        (
            ClientLifecycleMode::Discover {
                preferred_versions: vec![version],
            },
            "server/discover",
        )
    };
    let started = tokio::time::timeout(
        options.connect_timeout,
        serve_client_with_lifecycle(harness.clone(), transport, lifecycle),
    )
    .await;
    let failure = match started {
        Ok(Ok(service)) => {
            endpoint.wire.use_raw_answers();
            let peer = service.peer().clone();
            let info = server_info(&peer);
            return Ok(McpClient {
                inner: Arc::new(Inner {
                    service: std::sync::Mutex::new(Some(service)),
                    peer,
                    wire: endpoint.wire.clone(),
                    endpoint,
                    info,
                    request_timeout: options.request_timeout,
                    fetch_tool_definitions: options.fetch_tool_definitions,
                    tools: tokio::sync::Mutex::new(None),
                    harness,
                    fixture_dir: options.fixture_dir.clone(),
                }),
            });
        }
        Ok(Err(error)) => init_error(method, error, &endpoint.wire).await,
        Err(_) => Error::Timeout {
            method: method.to_owned(),
            after: options.connect_timeout,
            output: endpoint.wire.output(),
        },
    };
    // Nothing will own the server now: stop it before reporting.
    endpoint.close().await;
    Err(failure)
}

async fn init_error(method: &str, error: ClientInitializeError, wire: &Wire) -> Error {
    match error {
        ClientInitializeError::ConnectionClosed(_) => connection_lost(Some(method), wire).await,
        ClientInitializeError::TransportError { error, .. } => {
            match connection_lost(Some(method), wire).await {
                Error::Transport { method, output, .. } => Error::Transport {
                    method,
                    reason: error_chain(&error),
                    output,
                },
                other => other,
            }
        }
        ClientInitializeError::JsonRpcError(data) => Error::Handshake {
            method: method.to_owned(),
            reason: format!(
                "the server answered with JSON-RPC error {}: {}{}",
                data.code.0,
                data.message,
                data.data
                    .map(|d| format!(" (data: {d})"))
                    .unwrap_or_default()
            ),
            output: wire.output(),
        },
        other => Error::Handshake {
            method: method.to_owned(),
            reason: other.to_string(),
            output: wire.output(),
        },
    }
}

fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

fn server_info(peer: &rmcp::Peer<rmcp::RoleClient>) -> ServerInfo {
    let info = peer.peer_info();
    let info = info.as_deref();
    let implementation = info.and_then(|i| i.server_info.clone());
    let protocol_version = info.map(|i| i.protocol_version.clone()).unwrap_or_default();
    ServerInfo {
        name: implementation
            .as_ref()
            .map(|i| i.name.clone())
            .unwrap_or_default(),
        version: implementation
            .as_ref()
            .map(|i| i.version.clone())
            .unwrap_or_default(),
        title: implementation.and_then(|i| i.title),
        capabilities: info.map(|i| i.capabilities.clone()).unwrap_or_default(),
        instructions: info.and_then(|i| i.instructions.clone()),
        stateless: !protocol_version.has_initialize(),
        protocol_version,
    }
}

#[cfg(feature = "http")]
mod http {
    use std::{collections::HashMap, sync::Arc};

    use reqwest::header::{HeaderName, HeaderValue};
    use rmcp::{
        RoleClient,
        service::{RxJsonRpcMessage, TxJsonRpcMessage},
        transport::{
            StreamableHttpClientTransport, Transport,
            streamable_http_client::StreamableHttpClientTransportConfig,
        },
    };

    use crate::{
        Error,
        server::{HttpSpec, Options, command::expand_env},
        transport::wire::Wire,
    };

    /// rmcp's Streamable HTTP client, with every message recorded.
    pub(super) struct Recorded<T> {
        inner: T,
        wire: Arc<Wire>,
    }

    impl<T: Transport<RoleClient>> Transport<RoleClient> for Recorded<T> {
        type Error = T::Error;

        fn send(
            &mut self,
            item: TxJsonRpcMessage<RoleClient>,
        ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
            self.wire.outgoing(&item);
            self.inner.send(item)
        }

        async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
            let message = self.inner.receive().await;
            match &message {
                Some(message) => {
                    let raw = serde_json::to_value(message).unwrap_or_default();
                    self.wire.incoming(message, raw);
                }
                None => self.wire.closed("the HTTP connection closed"),
            }
            message
        }

        fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
            self.inner.close()
        }
    }

    pub(super) fn transport(
        spec: &HttpSpec,
        options: &Options,
        wire: Arc<Wire>,
    ) -> Result<Recorded<impl Transport<RoleClient> + 'static>, Error> {
        let invalid = |message: String| Error::InvalidConfig { message };
        let mut headers = HashMap::new();
        for (name, value) in &spec.headers {
            let value = expand_env(value, |var| std::env::var(var).ok()).map_err(invalid)?;
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|e| invalid(format!("header name {name:?}: {e}")))?;
            let value = HeaderValue::from_str(&value)
                .map_err(|e| invalid(format!("header {name}: {e}")))?;
            headers.insert(name, value);
        }
        let mut config =
            StreamableHttpClientTransportConfig::with_uri(spec.url.clone()).custom_headers(headers);
        // A test must see a lost session, not have it silently re-established.
        config = config.reinit_on_expired_session(false);
        if let Some(var) = &spec.bearer_env {
            let token = std::env::var(var).map_err(|_| {
                invalid(format!(
                    "environment variable {var} (the bearer token) is not set"
                ))
            })?;
            config = config.auth_header(token);
        }
        let client = reqwest::Client::builder()
            .connect_timeout(options.connect_timeout)
            .build()
            .map_err(|e| invalid(format!("HTTP client: {e}")))?;
        Ok(Recorded {
            inner: StreamableHttpClientTransport::with_client(client, config),
            wire,
        })
    }
}
