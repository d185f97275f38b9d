//! The handshake over a started transport (`initialize`, or `server/discover`
//! for stateless MCP), ending in a connected [`McpClient`].

use std::sync::Arc;

use rmcp::{
    model::{ClientCapabilities, ClientConfig, ProtocolVersion},
    service::{ClientInitializeError, ClientLifecycleMode, serve_client_with_lifecycle},
    transport::Transport,
};
use serde_json::json;

use super::{
    Harness, Inner, Link, McpClient, ServerInfo, connection_lost, options::ClientOptions,
    transport_failed,
};
use crate::{
    error::Error,
    transport::{endpoint::Endpoint, inbound::Inbound},
};

fn harness(options: &ClientOptions) -> Harness {
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

/// The handshake over a started transport (`initialize`, or
/// `server/discover` for stateless MCP); on failure the server is stopped
/// before the error is returned.
pub(crate) async fn handshake<T>(
    transport: T,
    endpoint: Endpoint,
    options: &ClientOptions,
    fixture_dir: Option<Arc<std::path::Path>>,
) -> Result<McpClient, Error>
where
    T: Transport<rmcp::RoleClient> + 'static,
{
    let harness = Arc::new(harness(options));
    endpoint.inbound.schema.set_mode(options.wire_schema);
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
            endpoint.inbound.use_raw_answers();
            let peer = service.peer().clone();
            let info = server_info(&peer);
            endpoint
                .inbound
                .schema
                .set_revision(info.protocol_version.as_str());
            return Ok(McpClient {
                inner: Arc::new(Inner {
                    view: false,
                    peer,
                    inbound: endpoint.inbound.clone(),
                    notifications: endpoint.inbound.notifications.clone(),
                    link: Arc::new(Link {
                        service: std::sync::Mutex::new(Some(service)),
                        endpoint,
                    }),
                    info,
                    request_timeout: options.request_timeout,
                    fetch_tool_definitions: options.fetch_tool_definitions,
                    tools: tokio::sync::Mutex::new(None),
                    harness,
                    fixture_dir,
                    unexamined: Default::default(),
                }),
            });
        }
        Ok(Err(error)) => init_error(method, error, &endpoint.inbound).await,
        Err(_) => Error::Timeout {
            method: method.to_owned(),
            after: options.connect_timeout,
            output: endpoint.inbound.output(),
        },
    };
    // Nothing will own the server now: stop it before reporting.
    endpoint.close().await;
    Err(failure)
}

async fn init_error(method: &str, error: ClientInitializeError, inbound: &Inbound) -> Error {
    match error {
        ClientInitializeError::ConnectionClosed(_) => connection_lost(Some(method), inbound).await,
        ClientInitializeError::TransportError { error, .. } => {
            transport_failed(Some(method), &error, inbound).await
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
            output: inbound.output(),
        },
        other => Error::Handshake {
            method: method.to_owned(),
            reason: other.to_string(),
            output: inbound.output(),
        },
    }
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
