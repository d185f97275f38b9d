//! Tokens for a protected server (MCP authorization, 2025-11-25): finding
//! the authorization server a resource names, and the client-credentials
//! grant (RFC 6749 §4.4) for a token meant for that resource (RFC 8707).
//!
//! [`Server::client_credentials`](crate::Server::client_credentials) uses
//! this to connect; the pieces are public for checks that need tokens of
//! their own (another audience, another scope).
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcptest::Error> {
//! use std::time::Duration;
//! use mcptest_core::__support::oauth::{ClientCredentials, Discovery};
//!
//! let found = Discovery::find("http://127.0.0.1:3001/mcp", Duration::from_secs(10)).await?;
//! let token = found
//!     .token(&ClientCredentials::new("my-client", "my-secret"), None, None)
//!     .await?;
//! # let _ = token; Ok(()) }
//! ```

use std::time::Duration;

use serde_json::Value;

use crate::error::Error;

/// A confidential client's id and secret, sent to the token endpoint as
/// `client_id` and `client_secret` in the form (`client_secret_post`).
///
/// Its `Debug` shows the secret as `[redacted]`, so it can be printed.
///
/// ```
/// use mcptest::ClientCredentials;
/// let credentials = ClientCredentials::new("my-client", "s3cret").scope("mcp:tools");
/// assert!(!format!("{credentials:?}").contains("s3cret"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct ClientCredentials {
    /// The client id.
    pub id: String,
    /// The client secret.
    pub secret: String,
    /// The scope to ask for (space-separated); none asks for the
    /// authorization server's default.
    pub scope: Option<String>,
    /// The token endpoint to use, instead of the one discovery finds (the
    /// Protected Resource Metadata, then the authorization server's).
    pub token_url: Option<String>,
}

impl std::fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientCredentials")
            .field("id", &self.id)
            .field("secret", &"[redacted]")
            .field("scope", &self.scope)
            .field("token_url", &self.token_url)
            .finish()
    }
}

impl ClientCredentials {
    /// Credentials asking for the default scope.
    pub fn new(id: impl Into<String>, secret: impl Into<String>) -> Self {
        ClientCredentials {
            id: id.into(),
            secret: secret.into(),
            scope: None,
            token_url: None,
        }
    }

    /// Asks for this scope (space-separated).
    pub fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scope = Some(scope.into());
        self
    }

    /// Runs the grant at this token endpoint, for the server's URL as the
    /// resource, without discovery: for authorization servers the
    /// resource's metadata does not name.
    ///
    /// ```
    /// let credentials = mcptest::ClientCredentials::new("my-client", "s3cret")
    ///     .token_url("http://127.0.0.1:9000/oauth/token");
    /// # drop(credentials);
    /// ```
    pub fn token_url(mut self, url: impl Into<String>) -> Self {
        self.token_url = Some(url.into());
        self
    }
}

/// What a protected resource answers without a token, and the documents it
/// leads to.
#[derive(Clone, Debug)]
pub struct Discovery {
    /// The resource's URL, as dialed.
    pub url: String,
    /// The HTTP status of a request without a token.
    pub status: u16,
    /// Its `WWW-Authenticate` header, if any.
    pub challenge: Option<String>,
    /// Where the Protected Resource Metadata was read: the URL the
    /// challenge names, else the RFC 9728 well-known URL.
    pub metadata_url: String,
    /// The Protected Resource Metadata document (RFC 9728).
    pub metadata: Value,
    /// The metadata (RFC 8414) of the first authorization server it names.
    pub authorization_server: Value,
    timeout: Duration,
}

fn failed(what: impl std::fmt::Display) -> Error {
    Error::InvalidConfig {
        message: format!("authorization: {what}"),
    }
}

/// The value of `name` among a challenge's `auth-param`s (quoted or not).
pub fn challenge_param(challenge: &str, name: &str) -> Option<String> {
    let lower = challenge.to_ascii_lowercase();
    let mut from = 0;
    while let Some(found) = lower[from..].find(name) {
        let start = from + found;
        from = start + name.len();
        let before = lower[..start].chars().last();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let rest = challenge[from..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else {
            continue;
        };
        let rest = rest.trim_start();
        return Some(match rest.strip_prefix('"') {
            Some(quoted) => quoted.split('"').next().unwrap_or_default().to_owned(),
            None => rest.split([',', ' ']).next().unwrap_or_default().to_owned(),
        });
    }
    None
}

/// RFC 9728 §3.1 and RFC 8414 §3.1: the well-known suffix goes between
/// the host and the path.
fn well_known(url: &str, suffix: &str) -> Result<String, Error> {
    let parsed = reqwest::Url::parse(url).map_err(|e| failed(format!("URL {url:?}: {e}")))?;
    let origin = parsed.origin().ascii_serialization();
    let path = parsed.path().trim_end_matches('/');
    Ok(format!("{origin}/.well-known/{suffix}{path}"))
}

async fn get_json(client: &reqwest::Client, url: &str, what: &str) -> Result<Value, Error> {
    let response = client
        .get(url)
        .header("Accept", "application/json")
        .send()
        .await
        .map_err(|e| failed(format!("cannot read the {what} at {url}: {e}")))?;
    let status = response.status();
    let body = response
        .bytes()
        .await
        .map_err(|e| failed(format!("cannot read the {what} at {url}: {e}")))?;
    if !status.is_success() {
        return Err(failed(format!(
            "the {what} at {url} answered HTTP {status}"
        )));
    }
    serde_json::from_slice(&body)
        .map_err(|e| failed(format!("the {what} at {url} is not JSON: {e}")))
}

fn client(timeout: Duration) -> Result<reqwest::Client, Error> {
    reqwest::Client::builder()
        .timeout(timeout)
        .build()
        .map_err(|e| failed(format!("HTTP client: {e}")))
}

impl Discovery {
    /// Sends the resource at `url` a request without a token and follows
    /// what it names: the Protected Resource Metadata, then the metadata of
    /// its first authorization server. Each request may take `timeout`.
    /// An error says which step failed and at which URL.
    pub async fn find(url: &str, timeout: Duration) -> Result<Discovery, Error> {
        Discovery::find_from(url, timeout, false).await
    }

    /// [`find`](Self::find) for an HTTP+SSE server, whose URL takes a GET
    /// (the event stream) rather than a POST.
    pub async fn find_sse(url: &str, timeout: Duration) -> Result<Discovery, Error> {
        Discovery::find_from(url, timeout, true).await
    }

    async fn find_from(url: &str, timeout: Duration, legacy_sse: bool) -> Result<Discovery, Error> {
        let http = client(timeout)?;
        let request = match legacy_sse {
            true => http.get(url).header("Accept", "text/event-stream"),
            false => http
                .post(url)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .body(json_rpc_ping()),
        };
        // Only the status and headers are read: an SSE stream that opens
        // (an unprotected server) is dropped at once.
        let response = request
            .send()
            .await
            .map_err(|e| failed(format!("cannot reach {url}: {e}")))?;
        let status = response.status().as_u16();
        let challenge = response
            .headers()
            .get("WWW-Authenticate")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let metadata_url = match challenge
            .as_deref()
            .and_then(|c| challenge_param(c, "resource_metadata"))
        {
            Some(named) => named,
            None => well_known(url, "oauth-protected-resource")?,
        };
        let metadata = get_json(&http, &metadata_url, "protected resource metadata").await?;
        let issuer = metadata
            .get("authorization_servers")
            .and_then(Value::as_array)
            .and_then(|servers| servers.first())
            .and_then(Value::as_str)
            .ok_or_else(|| {
                failed(format!(
                    "the protected resource metadata at {metadata_url} names no authorization_servers"
                ))
            })?;
        let server_url = well_known(issuer, "oauth-authorization-server")?;
        let authorization_server =
            get_json(&http, &server_url, "authorization server metadata").await?;
        Ok(Discovery {
            url: url.to_owned(),
            status,
            challenge,
            metadata_url,
            metadata,
            authorization_server,
            timeout,
        })
    }

    /// The `resource` the metadata names, else the URL dialed.
    pub fn resource(&self) -> &str {
        self.metadata
            .get("resource")
            .and_then(Value::as_str)
            .unwrap_or(&self.url)
    }

    /// A token by the client-credentials grant, for `resource` (RFC 8707;
    /// by default [`resource`](Self::resource)) and `scope` (by default the
    /// credentials' scope).
    pub async fn token(
        &self,
        credentials: &ClientCredentials,
        resource: Option<&str>,
        scope: Option<&str>,
    ) -> Result<String, Error> {
        let endpoint = match &credentials.token_url {
            Some(url) => url.as_str(),
            None => self
                .authorization_server
                .get("token_endpoint")
                .and_then(Value::as_str)
                .ok_or_else(|| failed("the authorization server metadata has no token_endpoint"))?,
        };
        grant(
            endpoint,
            credentials,
            resource.unwrap_or(self.resource()),
            scope,
            self.timeout,
        )
        .await
    }
}

/// A token by the client-credentials grant at the token endpoint
/// `credentials` name, for the resource `url` (RFC 8707), without
/// discovery; see [`ClientCredentials::token_url`].
///
/// ```no_run
/// # async fn demo() -> Result<(), mcptest::Error> {
/// use std::time::Duration;
/// use mcptest_core::__support::oauth::{ClientCredentials, token_at};
/// let credentials = ClientCredentials::new("my-client", "s3cret")
///     .token_url("http://127.0.0.1:9000/token");
/// let token = token_at(&credentials, "http://127.0.0.1:3001/mcp", Duration::from_secs(5)).await?;
/// # let _ = token; Ok(()) }
/// ```
pub async fn token_at(
    credentials: &ClientCredentials,
    url: &str,
    timeout: Duration,
) -> Result<String, Error> {
    let endpoint = credentials
        .token_url
        .as_deref()
        .ok_or_else(|| failed("no token endpoint was given (ClientCredentials::token_url)"))?;
    grant(endpoint, credentials, url, None, timeout).await
}

/// The client-credentials grant (RFC 6749 §4.4) at `endpoint`. Its errors
/// name the client, never the secret.
async fn grant(
    endpoint: &str,
    credentials: &ClientCredentials,
    resource: &str,
    scope: Option<&str>,
    timeout: Duration,
) -> Result<String, Error> {
    let mut form = vec![
        ("grant_type", "client_credentials"),
        ("client_id", credentials.id.as_str()),
        ("client_secret", credentials.secret.as_str()),
        ("resource", resource),
    ];
    if let Some(scope) = scope.or(credentials.scope.as_deref()) {
        form.push(("scope", scope));
    }
    let response = client(timeout)?
        .post(endpoint)
        .form(&form)
        .send()
        .await
        .map_err(|e| failed(format!("cannot reach the token endpoint {endpoint}: {e}")))?;
    let status = response.status();
    let body: Value = response
        .bytes()
        .await
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(Value::Null);
    if !status.is_success() {
        let error = body
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("no error code");
        let description = body
            .get("error_description")
            .and_then(Value::as_str)
            .map(|d| format!(": {d}"))
            .unwrap_or_default();
        return Err(failed(format!(
            "the token endpoint {endpoint} refused client {:?} with HTTP {status} ({error}{description})",
            credentials.id
        )));
    }
    body.get("access_token")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| {
            failed(format!(
                "the token endpoint {endpoint} answered without an access_token"
            ))
        })
}

/// The body of the request sent without a token: a ping, which any
/// protected server must refuse before reading it.
fn json_rpc_ping() -> String {
    r#"{"jsonrpc":"2.0","id":"mcptest-auth","method":"ping"}"#.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenge_params_are_found_quoted_or_not() {
        let challenge = r#"Bearer resource_metadata="http://h/.well-known/x", scope=mcp:tools, error="insufficient_scope""#;
        assert_eq!(
            challenge_param(challenge, "resource_metadata").as_deref(),
            Some("http://h/.well-known/x")
        );
        assert_eq!(
            challenge_param(challenge, "scope").as_deref(),
            Some("mcp:tools")
        );
        assert_eq!(
            challenge_param(challenge, "error").as_deref(),
            Some("insufficient_scope")
        );
        assert_eq!(challenge_param("Bearer", "scope"), None);
    }

    #[test]
    fn well_known_urls_keep_the_path_after_the_suffix() {
        assert_eq!(
            well_known("http://127.0.0.1:9/mcp", "oauth-protected-resource").unwrap(),
            "http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            well_known("http://127.0.0.1:9", "oauth-authorization-server").unwrap(),
            "http://127.0.0.1:9/.well-known/oauth-authorization-server"
        );
    }
}
