//! The recording server as a protected resource, with its own authorization
//! server on the same 127.0.0.1 listener (MCP authorization, client side):
//! what a client under test must discover, register with, authorize at and
//! present tokens to.
//!
//! - `/mcp` serves only requests with `Authorization: Bearer <token>` for a
//!   token this server issued and that has not expired; otherwise 401 with
//!   `WWW-Authenticate: Bearer resource_metadata="...", scope="mcp:read"`.
//!   A `tools/call` needs the scope `mcp:call` too: without it, 403
//!   `error="insufficient_scope", scope="mcp:read mcp:call"` (step-up).
//! - `/.well-known/oauth-protected-resource[/mcp]`: Protected Resource
//!   Metadata (RFC 9728) naming this origin as the authorization server.
//! - `/.well-known/oauth-authorization-server` and
//!   `/.well-known/openid-configuration`: its metadata (RFC 8414).
//! - `/register` (RFC 7591), `/authorize` (approves at once: 302 to the
//!   `redirect_uri` with `code` and `state`), `/token` (`authorization_code`
//!   and `refresh_token`).
//! - How a client registers follows the [`ClientRegistration`] in force:
//!   dynamically at `/register`; pre-registered (no `registration_endpoint`
//!   in the metadata, `/register` answers 404, a secret is taken at `/token`
//!   by `client_secret_basic` or `client_secret_post`); or with a Client ID
//!   Metadata Document (`client_id_metadata_document_supported: true`, no
//!   `registration_endpoint`), which `/authorize` fetches from the
//!   `client_id` URL, on 127.0.0.1 only, within [`DOCUMENT_TIMEOUT`] and
//!   [`DOCUMENT_LIMIT`], recording each fetch as evidence.
//!
//! The authorization server is lenient on purpose: it grants what a client
//! asks even when the client breaks a rule (no PKCE, no `resource`, no
//! `state`), so that one broken rule fails its own check and not every check
//! after it. The checks judge the recorded exchanges, not this server's
//! answers. The first access token lives [`FIRST_TOKEN_LIFETIME`], so that a
//! client which keeps going meets its expiry and must refresh.

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

use serde_json::{Value, json};

use super::DocumentFetch;
use super::{Event, Recording};
use crate::model::ClientRegistration;

/// The scope the 401 challenge asks for: enough for everything but
/// `tools/call`.
pub(crate) const BASE_SCOPE: &str = "mcp:read";
/// The scope a 403 `insufficient_scope` asks for on `tools/call`.
pub(crate) const STEP_UP_SCOPE: &str = "mcp:read mcp:call";
/// How long the first access token lives: short, so that a client meets
/// its expiry; later tokens live [`TOKEN_LIFETIME`].
pub(crate) const FIRST_TOKEN_LIFETIME: Duration = Duration::from_secs(2);
const TOKEN_LIFETIME: Duration = Duration::from_secs(300);
/// The paths of the authorization server's endpoints.
pub(crate) const AUTHORIZE_PATH: &str = "/authorize";
pub(crate) const TOKEN_PATH: &str = "/token";
pub(crate) const REGISTER_PATH: &str = "/register";
pub(crate) const RESOURCE_METADATA_PATH: &str = "/.well-known/oauth-protected-resource";
/// The longest a Client ID Metadata Document fetch may take.
pub(crate) const DOCUMENT_TIMEOUT: Duration = Duration::from_secs(5);
/// The most of a Client ID Metadata Document the authorization server reads.
pub(crate) const DOCUMENT_LIMIT: usize = 64 * 1024;
/// The hosts a Client ID Metadata Document is fetched from: the mock
/// reaches nothing but the loopback interface.
pub(crate) const DOCUMENT_HOSTS: [&str; 2] = ["127.0.0.1", "localhost"];
/// The paths that serve the authorization server's metadata.
pub(crate) const SERVER_METADATA_PATHS: [&str; 2] = [
    "/.well-known/oauth-authorization-server",
    "/.well-known/openid-configuration",
];

/// An access token this server issued.
#[derive(Debug, Clone)]
struct Issued {
    token: String,
    scope: String,
    expires: Instant,
}

#[derive(Debug, Default)]
struct Grants {
    counter: u64,
    /// Authorization codes and the scope they stand for.
    codes: Vec<(String, String)>,
    /// Refresh tokens and their scope.
    refresh: Vec<(String, String)>,
    tokens: Vec<Issued>,
}

/// The protected resource's and the authorization server's state.
#[derive(Debug)]
pub(crate) struct Protected {
    /// `http://127.0.0.1:<port>`: the issuer.
    pub(crate) origin: String,
    registration: ClientRegistration,
    grants: Mutex<Grants>,
}

/// An answer of the authorization side: status, headers, body.
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Answer {
    fn json(status: u16, body: Value) -> Answer {
        Answer {
            status,
            headers: vec![
                ("content-type".into(), "application/json".into()),
                ("cache-control".into(), "no-store".into()),
            ],
            body: body.to_string(),
        }
    }

    fn oauth_error(error: &str, description: &str) -> Answer {
        Answer::json(
            400,
            json!({ "error": error, "error_description": description }),
        )
    }
}

/// The name/value pairs of a query string or a form body.
pub(crate) fn pairs(encoded: &str) -> Vec<(String, String)> {
    match reqwest::Url::parse(&format!("http://127.0.0.1/?{encoded}")) {
        Ok(url) => url
            .query_pairs()
            .map(|(n, v)| (n.into_owned(), v.into_owned()))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// The first value of `name` among `pairs`.
pub(crate) fn pair<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// The bearer token of an `Authorization` header, if it holds one.
pub(crate) fn bearer(headers: &[(String, String)]) -> Option<&str> {
    let value = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("authorization"))
        .map(|(_, v)| v.trim())?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

impl Protected {
    pub(crate) fn new(origin: String, registration: ClientRegistration) -> Protected {
        Protected {
            origin,
            registration,
            grants: Mutex::new(Grants::default()),
        }
    }

    /// The resource's canonical URI (RFC 8707): its MCP endpoint.
    pub(crate) fn resource(&self) -> String {
        format!("{}/mcp", self.origin)
    }

    fn resource_metadata_url(&self) -> String {
        format!("{}{RESOURCE_METADATA_PATH}/mcp", self.origin)
    }

    /// The answer to a request outside `/mcp`, or to one on `/mcp` that
    /// its token does not admit; `None`: pass it to the MCP server. A
    /// Client ID Metadata Document fetched on the way goes to `recording`.
    pub(crate) async fn answer(
        &self,
        recording: &Recording,
        method: &str,
        path: &str,
        query: &str,
        headers: &[(String, String)],
        body: &str,
    ) -> Option<Answer> {
        match (method, path) {
            (_, "/mcp") => self.admit(headers, body),
            ("GET", p) if p.starts_with(RESOURCE_METADATA_PATH) => Some(Answer::json(
                200,
                json!({
                    "resource": self.resource(),
                    "authorization_servers": [self.origin],
                    "scopes_supported": ["mcp:read", "mcp:call"],
                    "bearer_methods_supported": ["header"],
                }),
            )),
            ("GET", p) if SERVER_METADATA_PATHS.iter().any(|m| p.starts_with(m)) => {
                Some(Answer::json(200, self.server_metadata()))
            }
            ("POST", REGISTER_PATH) if self.registration == ClientRegistration::Dynamic => {
                Some(self.register(body))
            }
            ("GET", AUTHORIZE_PATH) => {
                if self.registration == ClientRegistration::MetadataDocument
                    && let Some(url) = pair(&pairs(query), "client_id")
                    && url.contains("://")
                {
                    recording.push(Event::DocumentFetch(fetch_document(url).await));
                }
                Some(self.authorize(query))
            }
            ("POST", TOKEN_PATH) => Some(self.token(body)),
            _ => Some(Answer::json(404, json!({ "error": "not_found" }))),
        }
    }

    fn server_metadata(&self) -> Value {
        let origin = &self.origin;
        let mut metadata = json!({
            "issuer": origin,
            "authorization_endpoint": format!("{origin}{AUTHORIZE_PATH}"),
            "token_endpoint": format!("{origin}{TOKEN_PATH}"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": token_auth_methods(&self.registration),
            "scopes_supported": ["mcp:read", "mcp:call"],
        });
        match self.registration {
            ClientRegistration::Dynamic => {
                metadata["registration_endpoint"] = json!(format!("{origin}{REGISTER_PATH}"));
            }
            ClientRegistration::MetadataDocument => {
                metadata["client_id_metadata_document_supported"] = json!(true);
            }
            ClientRegistration::PreRegistered { .. } => {}
        }
        metadata
    }

    fn next(&self, kind: &str) -> String {
        let mut grants = self.grants.lock().unwrap_or_else(|p| p.into_inner());
        grants.counter += 1;
        format!("mcptest-{kind}-{}", grants.counter)
    }

    fn register(&self, body: &str) -> Answer {
        let Ok(Value::Object(mut metadata)) = serde_json::from_str::<Value>(body) else {
            return Answer::json(
                400,
                json!({ "error": "invalid_client_metadata",
                        "error_description": "the body is no JSON object" }),
            );
        };
        metadata.insert("client_id".into(), json!(self.next("client")));
        metadata.insert(
            "token_endpoint_auth_method".into(),
            json!(
                metadata
                    .get("token_endpoint_auth_method")
                    .cloned()
                    .unwrap_or(json!("none"))
            ),
        );
        Answer::json(201, Value::Object(metadata))
    }

    fn authorize(&self, query: &str) -> Answer {
        let query = pairs(query);
        let Some(redirect) = pair(&query, "redirect_uri") else {
            return Answer::oauth_error("invalid_request", "no redirect_uri");
        };
        let Ok(mut target) = reqwest::Url::parse(redirect) else {
            return Answer::oauth_error("invalid_request", "the redirect_uri is no URL");
        };
        let code = self.next("code");
        let scope = pair(&query, "scope").unwrap_or(BASE_SCOPE).to_owned();
        self.grants
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .codes
            .push((code.clone(), scope));
        target.query_pairs_mut().append_pair("code", &code);
        if let Some(state) = pair(&query, "state") {
            target.query_pairs_mut().append_pair("state", state);
        }
        Answer {
            status: 302,
            headers: vec![("location".into(), target.to_string())],
            body: String::new(),
        }
    }

    fn token(&self, body: &str) -> Answer {
        let form = pairs(body);
        let scope = {
            let mut grants = self.grants.lock().unwrap_or_else(|p| p.into_inner());
            let (kind, field) = match pair(&form, "grant_type") {
                Some("authorization_code") => ("code", "code"),
                Some("refresh_token") => ("refresh", "refresh_token"),
                _ => {
                    return Answer::json(400, json!({ "error": "unsupported_grant_type" }));
                }
            };
            let given = pair(&form, field).unwrap_or_default();
            let list = match kind {
                "code" => &mut grants.codes,
                _ => &mut grants.refresh,
            };
            let Some(at) = list.iter().position(|(c, _)| c == given) else {
                return Answer::json(
                    400,
                    json!({ "error": "invalid_grant",
                            "error_description": format!("unknown {field}") }),
                );
            };
            let (_, scope) = list.remove(at);
            scope
        };
        let first = self
            .grants
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .tokens
            .is_empty();
        let lifetime = if first {
            FIRST_TOKEN_LIFETIME
        } else {
            TOKEN_LIFETIME
        };
        let access = self.next("access");
        let refresh = self.next("refresh");
        let mut grants = self.grants.lock().unwrap_or_else(|p| p.into_inner());
        grants.tokens.push(Issued {
            token: access.clone(),
            scope: scope.clone(),
            expires: Instant::now() + lifetime,
        });
        grants.refresh.push((refresh.clone(), scope.clone()));
        Answer::json(
            200,
            json!({
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": lifetime.as_secs(),
                "refresh_token": refresh,
                "scope": scope,
            }),
        )
    }

    fn challenge(&self, status: u16, params: &str) -> Answer {
        Answer {
            status,
            headers: vec![
                (
                    "www-authenticate".into(),
                    format!(
                        "Bearer {params}resource_metadata=\"{}\"",
                        self.resource_metadata_url()
                    ),
                ),
                ("content-type".into(), "application/json".into()),
            ],
            body: json!({ "error": if status == 401 { "unauthorized" } else { "forbidden" } })
                .to_string(),
        }
    }

    /// `None` when the request's token admits it to `/mcp`; otherwise the
    /// 401 or 403 that says why.
    fn admit(&self, headers: &[(String, String)], body: &str) -> Option<Answer> {
        let Some(token) = bearer(headers) else {
            return Some(self.challenge(401, &format!("scope=\"{BASE_SCOPE}\", ")));
        };
        let issued = self
            .grants
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .tokens
            .iter()
            .find(|t| t.token == token)
            .cloned();
        let Some(issued) = issued else {
            return Some(self.challenge(
                401,
                "error=\"invalid_token\", error_description=\"unknown token\", ",
            ));
        };
        if Instant::now() >= issued.expires {
            return Some(self.challenge(
                401,
                "error=\"invalid_token\", error_description=\"the token expired\", ",
            ));
        }
        let calls_tool = serde_json::from_str::<Value>(body).is_ok_and(|m| {
            let methods = match &m {
                Value::Array(batch) => batch.iter().collect(),
                one => vec![one],
            };
            methods.iter().any(|m| m["method"] == "tools/call")
        });
        let granted: Vec<&str> = issued.scope.split_whitespace().collect();
        if calls_tool
            && !STEP_UP_SCOPE
                .split_whitespace()
                .all(|s| granted.contains(&s))
        {
            return Some(self.challenge(
                403,
                &format!("error=\"insufficient_scope\", scope=\"{STEP_UP_SCOPE}\", "),
            ));
        }
        None
    }
}

/// The `token_endpoint_auth_methods_supported` the metadata names: a
/// secret by either standard method when the pre-registered client has
/// one, else none.
pub(crate) fn token_auth_methods(registration: &ClientRegistration) -> &'static [&'static str] {
    match registration {
        ClientRegistration::PreRegistered {
            client_secret: Some(_),
            ..
        } => &["client_secret_basic", "client_secret_post"],
        _ => &["none"],
    }
}

/// Fetches the Client ID Metadata Document at `url`, bounded: from
/// 127.0.0.1 only (`localhost` is resolved there), no redirects or
/// proxies, within [`DOCUMENT_TIMEOUT`], at most [`DOCUMENT_LIMIT`] bytes.
async fn fetch_document(url: &str) -> DocumentFetch {
    let at = Instant::now();
    let answer = match tokio::time::timeout(DOCUMENT_TIMEOUT, read_document(url)).await {
        Ok(answer) => answer,
        Err(_) => Err(format!("no answer within {} s", DOCUMENT_TIMEOUT.as_secs())),
    };
    DocumentFetch {
        url: url.to_owned(),
        at,
        answer,
    }
}

async fn read_document(url: &str) -> Result<(u16, Option<String>, String), String> {
    let parsed = reqwest::Url::parse(url).map_err(|e| format!("not a URL: {e}"))?;
    let host = parsed.host_str().unwrap_or_default();
    if !DOCUMENT_HOSTS.contains(&host) {
        return Err(format!(
            "not fetched: the mock fetches Client ID Metadata Documents only from {} \
             (loopback only), and this one is on {host:?}",
            DOCUMENT_HOSTS.join(" or ")
        ));
    }
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .timeout(DOCUMENT_TIMEOUT)
        .resolve(
            "localhost",
            std::net::SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, 0)),
        )
        .build()
        .map_err(|e| format!("no HTTP client: {e}"))?;
    let mut response = http
        .get(parsed)
        .header("accept", "application/json")
        .send()
        .await
        .map_err(|e| format!("the request failed: {e}"))?;
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or_default().trim().to_owned());
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| format!("the body broke off: {e}"))?
    {
        body.extend_from_slice(&chunk);
        if body.len() > DOCUMENT_LIMIT {
            return Err(format!(
                "the document is larger than {} KiB",
                DOCUMENT_LIMIT / 1024
            ));
        }
    }
    Ok((
        status,
        content_type,
        String::from_utf8_lossy(&body).into_owned(),
    ))
}
