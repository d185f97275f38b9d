//! A headless OAuth client on rmcp (feature `auth`) for client conformance
//! with authorization: it meets the protected server's 401, authorizes with
//! rmcp's `OAuthState` (discovery, registration, PKCE), reads the code from
//! the authorization endpoint's 302 instead of a browser, and connects over
//! Streamable HTTP with rmcp's `AuthClient`. It lists the tools, waits out its
//! first token (the server issues it for 2 s) and lists them again, then
//! calls `echo`, whose 403 `insufficient_scope` it answers with a step-up.
//!
//!     rmcp-oauth-client --url URL

use std::time::Duration;

use rmcp::ServiceError;
use rmcp::model::CallToolRequestParams;
use rmcp::model::ProtocolVersion;
use rmcp::service::ClientInitializeError;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _};
use rmcp::transport::DynamicTransportError;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::auth::{AuthClient, AuthorizationManager, AuthorizationRequest, OAuthState};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransportConfig, StreamableHttpError,
};
use rmcp::transport::worker::WorkerQuitReason;

/// Never contacted: the code is read from the authorization endpoint's 302.
const REDIRECT: &str = "http://127.0.0.1:1/callback";
const LIMIT: Duration = Duration::from_secs(20);

type Failure = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let url = match (args.next().as_deref(), args.next()) {
        (Some("--url"), Some(url)) => url,
        _ => {
            eprintln!("usage: rmcp-oauth-client --url URL");
            std::process::exit(2);
        }
    };
    match tokio::time::timeout(LIMIT, run(&url)).await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => {
            eprintln!("rmcp-oauth-client: {}", chain(error.as_ref()));
            std::process::exit(1);
        }
        Err(_) => {
            eprintln!("rmcp-oauth-client: gave up after {LIMIT:?}");
            std::process::exit(1);
        }
    }
}

/// An error and every source under it, on one line.
fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The `WWW-Authenticate` challenge of a 401 (`AuthRequired`) or 403
/// (`InsufficientScope`) that ended the transport's worker. rmcp boxes the
/// transport's error without exposing it as a source, hence the downcast.
fn challenge(error: &DynamicTransportError) -> Option<String> {
    let error = error.error.as_ref();
    let http = match error.downcast_ref::<WorkerQuitReason<StreamableHttpError<reqwest::Error>>>() {
        Some(WorkerQuitReason::Fatal { error, .. }) => error,
        Some(_) => return None,
        None => error.downcast_ref::<StreamableHttpError<reqwest::Error>>()?,
    };
    http.auth_challenge().map(str::to_owned)
}

/// What a browser would do: GET the authorization URL without following the
/// redirect and read `code` and `state` from the 302's `Location`.
async fn approve(authorization_url: &str) -> Result<(String, String), Failure> {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()?;
    let answer = http.get(authorization_url).send().await?;
    let location = answer
        .headers()
        .get(reqwest::header::LOCATION)
        .ok_or_else(|| {
            format!(
                "the authorization endpoint answered {} with no Location",
                answer.status()
            )
        })?
        .to_str()?;
    let back = reqwest::Url::parse(location)?;
    let param = |name: &str| {
        back.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
            .ok_or_else(|| format!("no {name} in the redirect {location}"))
    };
    Ok((param("code")?, param("state")?))
}

fn transport(
    url: &str,
    manager: AuthorizationManager,
) -> (
    StreamableHttpClientTransport<AuthClient<reqwest::Client>>,
    AuthClient<reqwest::Client>,
) {
    let client = AuthClient::new(reqwest::Client::default(), manager);
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    (
        StreamableHttpClientTransport::with_client(client.clone(), config),
        client,
    )
}

/// The current revision's `server/discover`, which the recording server
/// speaks (rmcp's plain `serve` would send `initialize`, which it rejects).
fn lifecycle() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::LATEST],
    }
}

/// `echo` needs the scope `mcp:call`, beyond what the 401 asked for.
fn echo() -> CallToolRequestParams {
    let mut arguments = serde_json::Map::new();
    arguments.insert("text".into(), "hi".into());
    CallToolRequestParams::new("echo").with_arguments(arguments)
}

async fn run(url: &str) -> Result<(), Failure> {
    // Unauthenticated first: the server's 401 carries the challenge that
    // drives authorization.
    let (unauthorized, _) = transport(url, AuthorizationManager::new(url).await?);
    let header = match ().serve_with_lifecycle(unauthorized, lifecycle()).await {
        Ok(client) => {
            client.cancel().await?;
            return Err("the server let an unauthenticated client in".into());
        }
        Err(ClientInitializeError::TransportError { error, .. }) if challenge(&error).is_some() => {
            challenge(&error).unwrap_or_default()
        }
        Err(error) => {
            return Err(format!(
                "connecting unauthenticated failed without a challenge: {}",
                chain(&error)
            )
            .into());
        }
    };

    let mut state = OAuthState::new(url, None).await?;
    state
        .start_authorization(
            AuthorizationRequest::new(REDIRECT)
                .with_client_name("rmcp-oauth-client")
                // The challenge's scope first (the spec's scope selection);
                // by default rmcp got a token wide enough that `echo` never
                // met the 403 and the step-up went untested.
                .with_initial_scope_selection()
                .with_challenge(header),
        )
        .await?;
    let (code, csrf) = approve(&state.get_authorization_url().await?).await?;
    state.handle_callback(&code, &csrf).await?;
    let manager = state
        .into_authorization_manager()
        .ok_or("no authorization manager after the callback")?;

    let (authorized, auth) = transport(url, manager);
    let client = ().serve_with_lifecycle(authorized, lifecycle()).await?;
    client.list_all_tools().await?;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    client.list_all_tools().await?;
    let client = match client.call_tool(echo()).await {
        Ok(_) => client,
        Err(ServiceError::TransportSend(error)) if challenge(&error).is_some() => {
            let header = challenge(&error).unwrap_or_default();
            let needed = header
                .split("scope=\"")
                .nth(1)
                .and_then(|s| s.split('"').next())
                .ok_or_else(|| format!("a 403 challenge without a scope: {header}"))?
                .to_owned();
            {
                let manager = auth.auth_manager.lock().await;
                let (code, csrf) = approve(&manager.request_scope_upgrade(&needed).await?).await?;
                manager.exchange_code_for_token(&code, &csrf).await?;
            }
            // The 403 ended the transport's worker: reconnect with the
            // upgraded token.
            let _ = client.cancel().await;
            let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
            let client = ()
                .serve_with_lifecycle(
                    StreamableHttpClientTransport::with_client(auth, config),
                    lifecycle(),
                )
                .await?;
            client.call_tool(echo()).await?;
            client
        }
        Err(error) => return Err(format!("tools/call failed: {}", chain(&error)).into()),
    };
    client.cancel().await?;
    Ok(())
}
