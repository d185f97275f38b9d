//! Authorizing with a server reached at a URL, as an [`AuthSpec`] says:
//! a suite file's `auth:` block, a run's credentials
//! ([`RunOptions::auth`](crate::RunOptions::auth)), the command's
//! `--header`, `--bearer-env` and `--client-id` flags. One reading of them
//! for all: every variable is read, and every mistake named, here.

use mcptest_core::Server;
pub use mcptest_suite_format::assertion::AuthSpec;

/// `server` with the headers, bearer token and client credentials `auth`
/// gives. Errors name a variable or a key, never a value; `auth` applies
/// only to a server reached at a URL.
///
/// ```
/// use mcptest::{Server, suite::{AuthSpec, authorize}};
///
/// let auth = AuthSpec {
///     client_id: Some("my-client".into()),
///     client_secret_env: Some("MY_CLIENT_SECRET".into()),
///     ..AuthSpec::default()
/// };
/// let err = authorize(Server::command("my-server"), &auth).unwrap_err();
/// assert!(err.contains("a server reached at a URL"));
/// // Nothing to say leaves any server as it is.
/// assert!(authorize(Server::command("my-server"), &AuthSpec::default()).is_ok());
/// ```
pub fn authorize(mut server: Server, auth: &AuthSpec) -> Result<Server, String> {
    if auth.is_empty() {
        return Ok(server);
    }
    if !server.is_http() && !server.is_sse() {
        return Err(
            "credentials (headers, a bearer token, client credentials) are for a server \
             reached at a URL; this one is started as a process or in this one"
                .into(),
        );
    }
    for (name, value) in &auth.headers {
        server = server.header(name, value);
    }
    // The token itself is read when the server connects, which names an
    // unset variable as this would.
    if let Some(var) = &auth.bearer_env {
        server = server.bearer_token_env(var);
    }
    if let Some(id) = &auth.client_id {
        let Some(var) = &auth.client_secret_env else {
            return Err(format!("client {id}: no variable holds its secret"));
        };
        let secret = set(var, &format!("the secret of client {id}"))?;
        server = with_credentials(server, id, secret, auth.token_url.as_deref())?;
    }
    Ok(server)
}

/// The value of `var`, which holds `what`.
fn set(var: &str, what: &str) -> Result<String, String> {
    match std::env::var(var) {
        Ok(value) if !value.is_empty() => Ok(value),
        Ok(_) => Err(format!("environment variable {var} ({what}) is empty")),
        Err(_) => Err(format!("environment variable {var} ({what}) is not set")),
    }
}

#[cfg(feature = "http")]
fn with_credentials(
    server: Server,
    id: &str,
    secret: String,
    token_url: Option<&str>,
) -> Result<Server, String> {
    let mut credentials = mcptest_core::ClientCredentials::new(id, secret);
    if let Some(url) = token_url {
        credentials = credentials.token_url(url);
    }
    Ok(server.oauth_client(credentials))
}

#[cfg(not(feature = "http"))]
fn with_credentials(
    _server: Server,
    _id: &str,
    _secret: String,
    _token_url: Option<&str>,
) -> Result<Server, String> {
    Err("client credentials need mcptest's `http` feature".into())
}
