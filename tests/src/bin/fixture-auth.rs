//! A protected MCP server and the authorization server that issues its
//! tokens, both on one 127.0.0.1 port over Streamable HTTP.
//!
//! - `/mcp` (and, over the legacy HTTP+SSE transport, `/sse` with
//!   `/messages`): an rmcp server (one tool, `echo`) that serves only requests
//!   with `Authorization: Bearer <token>`, the token a JWT (HS256) whose
//!   `aud` is this resource, whose `exp` has not passed and whose `scope`
//!   holds `mcp:tools`; otherwise 401 (403 `insufficient_scope` for a token
//!   without the scope), with a `WWW-Authenticate` challenge naming
//!   `resource_metadata`.
//! - `/.well-known/oauth-protected-resource/mcp`: its Protected Resource
//!   Metadata (RFC 9728).
//! - `/.well-known/oauth-authorization-server`: the authorization server's
//!   metadata (RFC 8414); `/token`: the client-credentials grant for the
//!   client `mcptest-client` with the secret `mcptest-secret`
//!   (`client_secret_post` or `client_secret_basic`), honouring the RFC 8707
//!   `resource` parameter and a `scope` among `mcp:tools profile`.
//!
//! ```text
//! fixture-auth                      # announces `listening on <url>`
//! fixture-auth --broken <check-id>  # breaks the rule of that auth check
//! ```

use std::{
    collections::BTreeSet,
    process::ExitCode,
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use axum::{
    Form, Json, Router,
    extract::{Query, Request, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use base64::Engine as _;
use jsonwebtoken::{DecodingKey, EncodingKey, Header, Validation, errors::ErrorKind};
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{Implementation, ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
    transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    },
};
use serde::{Deserialize, Serialize};
use serde_json::json;

const CLIENT_ID: &str = "mcptest-client";
const CLIENT_SECRET: &str = "mcptest-secret";
const SIGNING_KEY: &[u8] = b"fixture-auth signing key, for tests only";
/// The scope `/mcp` needs; the authorization server also grants `profile`.
const NEEDED_SCOPE: &str = "mcp:tools";
const SCOPES: [&str; 2] = [NEEDED_SCOPE, "profile"];
const TOKEN_LIFETIME: Duration = Duration::from_secs(300);

/// The checks whose rule a `--broken` flag may break.
const BREAKABLE: [&str; 6] = [
    "classic-auth-401-www-authenticate",
    "classic-auth-protected-resource-metadata",
    "classic-auth-audience-rejected",
    "classic-auth-invalid-token",
    "classic-auth-insufficient-scope",
    "classic-auth-token-in-query-rejected",
];

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct EchoArgs {
    message: String,
}

#[derive(Clone)]
struct Echo {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Echo {
    fn new() -> Self {
        Echo {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Returns `message`.")]
    fn echo(&self, Parameters(args): Parameters<EchoArgs>) -> String {
        args.message
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Echo {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("fixture-auth", env!("CARGO_PKG_VERSION")),
        )
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    iss: String,
    sub: String,
    aud: String,
    scope: String,
    exp: u64,
}

/// What every handler needs: the addresses and the rules broken.
struct Site {
    base: String,
    broken: BTreeSet<String>,
}

impl Site {
    fn resource(&self) -> String {
        format!("{}/mcp", self.base)
    }

    fn metadata_url(&self) -> String {
        format!("{}/.well-known/oauth-protected-resource/mcp", self.base)
    }

    fn breaks(&self, check: &str) -> bool {
        self.broken.contains(check)
    }

    /// A rejection with its `WWW-Authenticate` challenge (RFC 6750 §3).
    fn challenge(&self, status: StatusCode, error: Option<&str>) -> Response {
        if self.breaks("classic-auth-401-www-authenticate") {
            return (status, "").into_response();
        }
        let value = {
            let mut value = format!(
                "Bearer resource_metadata=\"{}\", scope=\"{NEEDED_SCOPE}\"",
                self.metadata_url()
            );
            if let Some(error) = error {
                value.push_str(&format!(", error=\"{error}\""));
            }
            value
        };
        let mut response = (status, "").into_response();
        if let Ok(value) = HeaderValue::from_str(&value) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
        response
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The token of an `Authorization: Bearer` header, if any.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

async fn guard(
    State(site): State<Arc<Site>>,
    Query(query): Query<Vec<(String, String)>>,
    request: Request,
    next: Next,
) -> Response {
    let from_query = site
        .breaks("classic-auth-token-in-query-rejected")
        .then(|| {
            query
                .iter()
                .find(|(name, _)| name == "access_token")
                .map(|(_, token)| token.clone())
        })
        .flatten();
    let token = match (bearer(request.headers()), from_query) {
        (Some(token), _) => token.to_owned(),
        (None, Some(token)) => token,
        (None, None) => return site.challenge(StatusCode::UNAUTHORIZED, None),
    };
    let mut validation = Validation::new(jsonwebtoken::Algorithm::HS256);
    validation.leeway = 0;
    validation.set_audience(&[site.resource()]);
    if site.breaks("classic-auth-audience-rejected") {
        validation.validate_aud = false;
    }
    if site.breaks("classic-auth-invalid-token") {
        validation.insecure_disable_signature_validation();
        validation.validate_exp = false;
    }
    let claims = match jsonwebtoken::decode::<Claims>(
        &token,
        &DecodingKey::from_secret(SIGNING_KEY),
        &validation,
    ) {
        Ok(data) => data.claims,
        Err(error)
            if site.breaks("classic-auth-invalid-token")
                && *error.kind() != ErrorKind::InvalidAudience =>
        {
            // Serves whatever it cannot read.
            return next.run(request).await;
        }
        Err(_) => return site.challenge(StatusCode::UNAUTHORIZED, Some("invalid_token")),
    };
    let scoped = claims.scope.split(' ').any(|s| s == NEEDED_SCOPE);
    if !scoped && !site.breaks("classic-auth-insufficient-scope") {
        return site.challenge(StatusCode::FORBIDDEN, Some("insufficient_scope"));
    }
    next.run(request).await
}

async fn resource_metadata(State(site): State<Arc<Site>>) -> Json<serde_json::Value> {
    let mut document = json!({
        "resource": site.resource(),
        "authorization_servers": [site.base],
        "scopes_supported": [NEEDED_SCOPE],
        "bearer_methods_supported": ["header"],
    });
    if site.breaks("classic-auth-protected-resource-metadata") {
        document["authorization_servers"] = json!([]);
    }
    Json(document)
}

async fn server_metadata(State(site): State<Arc<Site>>) -> Json<serde_json::Value> {
    Json(json!({
        "issuer": site.base,
        "token_endpoint": format!("{}/token", site.base),
        "grant_types_supported": ["client_credentials"],
        "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
        "scopes_supported": SCOPES,
        "response_types_supported": [],
    }))
}

#[derive(Deserialize)]
struct TokenRequest {
    grant_type: String,
    client_id: Option<String>,
    client_secret: Option<String>,
    scope: Option<String>,
    resource: Option<String>,
}

fn token_error(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        Json(json!({"error": error, "error_description": description})),
    )
        .into_response()
}

/// The client's id and secret from HTTP Basic, if sent that way.
fn basic_credentials(headers: &HeaderMap) -> Option<(String, String)> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let encoded = value.strip_prefix("Basic ")?;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let decoded = String::from_utf8(decoded).ok()?;
    let (id, secret) = decoded.split_once(':')?;
    Some((id.to_owned(), secret.to_owned()))
}

async fn token(
    State(site): State<Arc<Site>>,
    headers: HeaderMap,
    Form(request): Form<TokenRequest>,
) -> Response {
    if request.grant_type != "client_credentials" {
        return token_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "only client_credentials is supported",
        );
    }
    let (id, secret) = match (
        basic_credentials(&headers),
        request.client_id,
        request.client_secret,
    ) {
        (Some(pair), _, _) => pair,
        (None, Some(id), Some(secret)) => (id, secret),
        _ => {
            return token_error(
                StatusCode::UNAUTHORIZED,
                "invalid_client",
                "no client credentials",
            );
        }
    };
    if id != CLIENT_ID || secret != CLIENT_SECRET {
        return token_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "unknown client or wrong secret",
        );
    }
    let scope = match request.scope {
        None => SCOPES.join(" "),
        Some(asked) => {
            if let Some(unknown) = asked.split(' ').find(|s| !SCOPES.contains(s)) {
                return token_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_scope",
                    &format!("unknown scope {unknown:?}"),
                );
            }
            asked
        }
    };
    let claims = Claims {
        iss: site.base.clone(),
        sub: id,
        aud: request.resource.unwrap_or_else(|| site.resource()),
        scope: scope.clone(),
        exp: now() + TOKEN_LIFETIME.as_secs(),
    };
    match jsonwebtoken::encode(
        &Header::default(),
        &claims,
        &EncodingKey::from_secret(SIGNING_KEY),
    ) {
        Ok(access_token) => Json(json!({
            "access_token": access_token,
            "token_type": "Bearer",
            "expires_in": TOKEN_LIFETIME.as_secs(),
            "scope": scope,
        }))
        .into_response(),
        Err(error) => token_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server_error",
            &error.to_string(),
        ),
    }
}

fn app(base: &str, port: u16, broken: BTreeSet<String>) -> Router {
    let site = Arc::new(Site {
        base: base.to_owned(),
        broken,
    });
    let service = StreamableHttpService::new(
        || Ok(Echo::new()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let protected = Router::new()
        .nest_service("/mcp", service)
        .merge(mcptest_tests::sse::router(Echo::new, None, port))
        .layer(middleware::from_fn_with_state(site.clone(), guard));
    Router::new()
        .route(
            "/.well-known/oauth-protected-resource/mcp",
            get(resource_metadata),
        )
        .route(
            "/.well-known/oauth-authorization-server",
            get(server_metadata),
        )
        .route("/token", post(token))
        .with_state(site)
        .merge(protected)
}

fn parse_args() -> Result<BTreeSet<String>, String> {
    let mut broken = BTreeSet::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--broken" => {
                let check = args.next().ok_or("--broken needs a check id")?;
                if !BREAKABLE.contains(&check.as_str()) {
                    return Err(format!(
                        "--broken {check}: not an auth check (one of {})",
                        BREAKABLE.join(", ")
                    ));
                }
                broken.insert(check);
            }
            "--help" => {
                println!(
                    "fixture-auth [--broken <check-id>]...\n  check ids: {}",
                    BREAKABLE.join(", ")
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (see --help)")),
        }
    }
    Ok(broken)
}

fn main() -> ExitCode {
    let broken = match parse_args() {
        Ok(broken) => broken,
        Err(message) => {
            eprintln!("fixture-auth: {message}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("fixture-auth: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(mcptest_tests::http::serve_path_on_loopback(
        "/mcp",
        |base, port| app(base, port, broken),
    ));
    runtime.shutdown_timeout(Duration::from_millis(100));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("fixture-auth: {message}");
            ExitCode::FAILURE
        }
    }
}
