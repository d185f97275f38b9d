//! Dialing a Streamable HTTP server: rmcp's client transport with the
//! configured headers and bearer token, every message recorded. The
//! headers and the token are read here for the legacy HTTP+SSE transport
//! too.

use std::{collections::HashMap, sync::Arc, time::Duration};

use reqwest::header::{HeaderName, HeaderValue};
use rmcp::{
    RoleClient,
    service::{RxJsonRpcMessage, TxJsonRpcMessage},
    transport::{
        StreamableHttpClientTransport, Transport,
        streamable_http_client::StreamableHttpClientTransportConfig,
    },
};

use super::HttpSpec;
use crate::command::expand_env;
use crate::{error::Error, transport::inbound::Inbound};

/// rmcp's Streamable HTTP client, with every message recorded.
pub(crate) struct Recorded<T> {
    inner: T,
    inbound: Arc<Inbound>,
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Recorded<T> {
    type Error = T::Error;

    /// How rmcp's errors name this transport (by default a Rust type name).
    fn name() -> std::borrow::Cow<'static, str> {
        "Streamable HTTP".into()
    }

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inbound.outgoing(&item);
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await;
        match &message {
            Some(message) => {
                let raw = serde_json::to_value(message).unwrap_or_default();
                self.inbound.schema.received(&raw);
                self.inbound.incoming(message, raw);
            }
            None => self.inbound.closed("the HTTP connection closed"),
        }
        message
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

pub(crate) fn transport(
    spec: &HttpSpec,
    connect_timeout: Duration,
    inbound: Arc<Inbound>,
) -> Result<Recorded<impl Transport<RoleClient> + 'static>, Error> {
    let headers: HashMap<HeaderName, HeaderValue> = custom_headers(spec)?.into_iter().collect();
    let mut config =
        StreamableHttpClientTransportConfig::with_uri(spec.url.clone()).custom_headers(headers);
    // A test must see a lost session, not have it silently re-established.
    config = config.reinit_on_expired_session(false);
    if let Some(token) = bearer_token(spec)? {
        config = config.auth_header(token);
    }
    let client = reqwest::Client::builder()
        .connect_timeout(connect_timeout)
        .build()
        .map_err(|e| invalid(format!("HTTP client: {e}")))?;
    Ok(Recorded {
        inner: StreamableHttpClientTransport::with_client(client, config),
        inbound,
    })
}

fn invalid(message: String) -> Error {
    Error::InvalidConfig { message }
}

/// The headers given with [`Server::header`](crate::Server::header), their
/// `${VAR}`s expanded. An error names the header, never its value (which
/// may be a credential).
pub(crate) fn custom_headers(spec: &HttpSpec) -> Result<Vec<(HeaderName, HeaderValue)>, Error> {
    let mut headers = Vec::new();
    for (name, value) in &spec.headers {
        let value = expand_env(value, |var| std::env::var(var).ok())
            .map_err(|e| invalid(format!("header {name}: {e}")))?;
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|e| invalid(format!("header name {name:?}: {e}")))?;
        let mut value =
            HeaderValue::from_str(&value).map_err(|e| invalid(format!("header {name}: {e}")))?;
        value.set_sensitive(true);
        headers.push((name, value));
    }
    Ok(headers)
}

/// The bearer token of [`Server::bearer_token_env`](crate::Server::bearer_token_env),
/// read from its variable now.
pub(crate) fn bearer_token(spec: &HttpSpec) -> Result<Option<String>, Error> {
    let Some(var) = &spec.bearer_env else {
        return Ok(None);
    };
    match std::env::var(var) {
        Ok(token) if !token.is_empty() => Ok(Some(token)),
        Ok(_) => Err(invalid(format!(
            "environment variable {var} (the bearer token) is empty"
        ))),
        Err(_) => Err(invalid(format!(
            "environment variable {var} (the bearer token) is not set"
        ))),
    }
}
