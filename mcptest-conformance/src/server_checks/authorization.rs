//! Checks of a protected server, the resource-server side of MCP
//! authorization (2025-11-25 basic/authorization), over Streamable HTTP.
//!
//! A server that answers a request without a token is not protected, and
//! every check here folds as such. The checks that need a valid token (to
//! change one thing about it) obtain it by the client-credentials grant at
//! the authorization server the resource names, with the credentials given
//! to [`Server::client_credentials`](mcptest_core::Server::client_credentials)
//! (`--client-id`/`--client-secret` on the command line); without them they
//! are skipped with that reason.

#[cfg(not(feature = "http"))]
mod checks {
    //! Without the `http` feature no server is reached over HTTP, and these
    //! checks (for Streamable HTTP only) never run.
    use crate::model::Checked;
    use crate::support::probe::Probe;

    fn never() -> Checked {
        unreachable!("HTTP checks run only over HTTP, which needs the http feature")
    }

    pub(crate) async fn challenge(_: &mut Probe) -> Checked {
        never()
    }
    pub(crate) async fn resource_metadata(_: &mut Probe) -> Checked {
        never()
    }
    pub(crate) async fn audience_rejected(_: &mut Probe) -> Checked {
        never()
    }
    pub(crate) async fn invalid_token(_: &mut Probe) -> Checked {
        never()
    }
    pub(crate) async fn insufficient_scope(_: &mut Probe) -> Checked {
        never()
    }
    pub(crate) async fn token_in_query(_: &mut Probe) -> Checked {
        never()
    }
}

#[cfg(feature = "http")]
mod checks {
    use base64::Engine as _;
    use mcptest_core::{
        __support::oauth::{ClientCredentials, Discovery, challenge_param},
        HttpReply, RawHttp, Server,
    };
    use serde_json::Value;

    use crate::model::{CannotApply, Checked, Observed, Problems};
    use crate::support::probe::Probe;

    /// The body every request here sends: a ping, which a protected server
    /// must refuse before reading it unless the token is good.
    const PING: &str = r#"{"jsonrpc":"2.0","id":"mcptest-auth","method":"ping"}"#;

    /// What a request without a token found, once the server is known to be
    /// protected.
    struct Protected {
        url: String,
        reply: HttpReply,
    }

    fn url(p: &Probe) -> Result<String, Observed> {
        p.raw_http()
            .map(|http| http.url().to_owned())
            .ok_or_else(|| Observed::NotApplicable("the server is not reached over HTTP".into()))
    }

    fn failed(what: &str, error: mcptest_core::Error) -> Observed {
        Observed::Broken(format!("{what}: {error}"))
    }

    /// POSTs a ping to `url` with `token` (if any) as the bearer token.
    async fn send(p: &Probe, url: &str, token: Option<&str>) -> Result<HttpReply, Observed> {
        let mut server = Server::url(url).timeout(p.settings.timeout);
        if let Some(token) = token {
            server = server.header("Authorization", format!("Bearer {token}"));
        }
        let http = RawHttp::open(&server).map_err(|e| failed("cannot build the request", e))?;
        http.post(PING, &[])
            .await
            .map_err(|e| failed(&format!("a request to {url}"), e))
    }

    /// Sends a request without a token: a server that answers other than
    /// 401 is not protected, and the check cannot apply.
    async fn protected(p: &Probe) -> Result<Protected, Observed> {
        let url = url(p)?;
        let reply = send(p, &url, None).await?;
        if reply.status != 401 {
            return Err(Observed::CannotApply(
                CannotApply::Unprotected,
                "the server is not protected (a request without a token is not answered 401)"
                    .into(),
            ));
        }
        Ok(Protected { url, reply })
    }

    /// The documents the resource leads to, and the credentials to ask for
    /// tokens with; skipped without credentials.
    async fn discovery(p: &Probe) -> Result<(Protected, Discovery, ClientCredentials), Observed> {
        let protected = protected(p).await?;
        let Some(credentials) = p.credentials.clone() else {
            return Err(Observed::NotApplicable(
                "no client credentials were given to obtain tokens with \
                 (Server::client_credentials, --client-id/--client-secret)"
                    .into(),
            ));
        };
        let found = Discovery::find(&protected.url, p.settings.timeout)
            .await
            .map_err(|e| Observed::NotApplicable(format!("no token can be obtained: {e}")))?;
        Ok((protected, found, credentials))
    }

    async fn token(
        found: &Discovery,
        credentials: &ClientCredentials,
        resource: Option<&str>,
        scope: Option<&str>,
    ) -> Result<String, Observed> {
        found
            .token(credentials, resource, scope)
            .await
            .map_err(|e| Observed::NotApplicable(format!("no token can be obtained: {e}")))
    }

    fn describe(reply: &HttpReply) -> String {
        match reply.header("WWW-Authenticate") {
            Some(challenge) => format!("HTTP {} (WWW-Authenticate: {challenge})", reply.status),
            None => format!("HTTP {} (no WWW-Authenticate)", reply.status),
        }
    }

    /// The claims of a JWT, if the token is one.
    fn claims(token: &str) -> Option<Value> {
        let payload = token.split('.').nth(1)?;
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload.trim_end_matches('='))
            .ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// `token` with its `exp` claim an hour in the past, the signature
    /// left as it was; none when the token is not a JWT.
    fn expired(token: &str) -> Option<String> {
        let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
        let mut claims = claims(token)?;
        let past = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_secs()
            .saturating_sub(3600);
        claims["exp"] = past.into();
        parts[1] = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(claims.to_string());
        Some(parts.join("."))
    }

    /// `classic-auth-401-www-authenticate` (2025-11-25 basic/authorization,
    /// authorization server location): "MCP servers MUST implement one of
    /// the following discovery mechanisms … WWW-Authenticate Header: When
    /// returning 401 Unauthorized responses, servers SHOULD include the
    /// resource_metadata parameter …"; RFC 9110 §15.5.2: "The server
    /// generating a 401 response MUST send a WWW-Authenticate header field".
    /// A challenge without `resource_metadata` holds with a note when the
    /// well-known URL serves the metadata (the other mechanism).
    pub(crate) async fn challenge(p: &mut Probe) -> Checked {
        let protected = protected(p).await?;
        let Some(challenge) = protected.reply.header("WWW-Authenticate") else {
            return Ok(Observed::Broken(
                "a request without a token got HTTP 401 with no WWW-Authenticate header".into(),
            ));
        };
        if !challenge
            .trim_start()
            .to_ascii_lowercase()
            .starts_with("bearer")
        {
            return Ok(Observed::Broken(format!(
                "the 401's WWW-Authenticate is {challenge:?}, not a Bearer challenge"
            )));
        }
        if challenge_param(challenge, "resource_metadata").is_some() {
            return Ok(Observed::holds());
        }
        match Discovery::find(&protected.url, p.settings.timeout).await {
            Ok(found) => Ok(Observed::Holds(Some(format!(
                "the challenge {challenge:?} names no resource_metadata; \
                 the metadata is at the well-known URL {}",
                found.metadata_url
            )))),
            Err(error) => Ok(Observed::Broken(format!(
                "the challenge {challenge:?} names no resource_metadata, \
                 and the well-known URL does not lead to it either ({error})"
            ))),
        }
    }

    /// `classic-auth-protected-resource-metadata` (2025-11-25 basic/authorization):
    /// "MCP servers MUST implement the OAuth 2.0 Protected Resource Metadata
    /// (RFC9728) specification to indicate the locations of authorization
    /// servers. The Protected Resource Metadata document returned by the
    /// MCP server MUST include the authorization_servers field containing
    /// at least one authorization server"; RFC 9728 §2: "resource …
    /// REQUIRED".
    pub(crate) async fn resource_metadata(p: &mut Probe) -> Checked {
        let protected = protected(p).await?;
        let named = protected
            .reply
            .header("WWW-Authenticate")
            .and_then(|c| challenge_param(c, "resource_metadata"));
        let url = match named {
            Some(url) => url,
            None => {
                let parsed = reqwest::Url::parse(&protected.url)
                    .map_err(|e| Observed::Broken(format!("URL {}: {e}", protected.url)))?;
                format!(
                    "{}/.well-known/oauth-protected-resource{}",
                    parsed.origin().ascii_serialization(),
                    parsed.path().trim_end_matches('/')
                )
            }
        };
        let response = reqwest::Client::new()
            .get(&url)
            .timeout(p.settings.timeout)
            .send()
            .await
            .map_err(|e| Observed::Broken(format!("cannot read {url}: {e}")))?;
        let status = response.status();
        let body = response
            .bytes()
            .await
            .map_err(|e| Observed::Broken(format!("cannot read {url}: {e}")))?;
        if !status.is_success() {
            return Ok(Observed::Broken(format!("{url} answered HTTP {status}")));
        }
        let Ok(document) = serde_json::from_slice::<Value>(&body) else {
            return Ok(Observed::Broken(format!("{url} did not answer JSON")));
        };
        let mut problems = Problems::default();
        if !document.get("resource").is_some_and(Value::is_string) {
            problems.push(format!("the metadata at {url} has no resource"));
        }
        let servers = document
            .get("authorization_servers")
            .and_then(Value::as_array)
            .map(|s| s.iter().filter(|v| v.is_string()).count())
            .unwrap_or(0);
        if servers == 0 {
            problems.push(format!(
                "the metadata at {url} names no authorization server (authorization_servers: {})",
                document
                    .get("authorization_servers")
                    .unwrap_or(&Value::Null)
            ));
        }
        Ok(problems.into_finding())
    }

    /// `classic-auth-audience-rejected` (2025-11-25 basic/authorization, token
    /// handling): "MCP servers MUST validate that access tokens were issued
    /// specifically for them as the intended audience, according to RFC
    /// 8707 Section 2" and "Invalid or expired tokens MUST receive a HTTP
    /// 401 response". The token is asked for another resource (RFC 8707
    /// `resource`); an authorization server that will not issue one leaves
    /// the rule untestable.
    pub(crate) async fn audience_rejected(p: &mut Probe) -> Checked {
        let (protected, found, credentials) = discovery(p).await?;
        let other = format!(
            "{}/mcptest-other-audience",
            protected.url.trim_end_matches('/')
        );
        let token = token(&found, &credentials, Some(&other), None).await?;
        if let Some(claims) = claims(&token) {
            let audiences: Vec<&str> = match &claims["aud"] {
                Value::String(aud) => vec![aud.as_str()],
                Value::Array(auds) => auds.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if audiences.contains(&found.resource()) {
                return Err(Observed::NotApplicable(format!(
                    "asked for a token for {other}, the authorization server issued one for \
                     this resource ({})",
                    found.resource()
                )));
            }
        }
        let reply = send(p, &protected.url, Some(&token)).await?;
        Ok(match reply.status {
            401 => Observed::holds(),
            _ => Observed::Broken(format!(
                "a token issued for {other} got {}, not 401",
                describe(&reply)
            )),
        })
    }

    /// `classic-auth-invalid-token` (2025-11-25 basic/authorization, error
    /// handling): "Invalid or expired tokens MUST receive a HTTP 401
    /// response". Sent: a token that is not a token at all and, with
    /// credentials, a valid token whose `exp` was moved an hour into the
    /// past (its signature no longer matches, and it is expired either way).
    pub(crate) async fn invalid_token(p: &mut Probe) -> Checked {
        let protected = protected(p).await?;
        let mut cases = vec![(
            "a malformed token".to_owned(),
            "mcptest-malformed-token".to_owned(),
        )];
        let mut note = None;
        match discovery(p).await {
            Ok((_, found, credentials)) => {
                let valid = token(&found, &credentials, None, None).await?;
                match expired(&valid) {
                    Some(expired) => cases.push(("an expired token".into(), expired)),
                    None => note = Some("the tokens are not JWTs: no expired one was crafted"),
                }
            }
            Err(_) => note = Some("without credentials no expired token was crafted"),
        }
        let mut problems = Problems::default();
        for (what, token) in &cases {
            let reply = send(p, &protected.url, Some(token)).await?;
            if reply.status != 401 {
                problems.push(format!("{what} got {}, not 401", describe(&reply)));
            }
        }
        Ok(match (problems.into_finding(), note) {
            (Observed::Holds(_), Some(note)) => Observed::Holds(Some(note.into())),
            (finding, _) => finding,
        })
    }

    /// `classic-auth-insufficient-scope` (2025-11-25 basic/authorization, runtime
    /// insufficient scope errors): "When a client makes a request with an
    /// access token with insufficient scope for the requested operation,
    /// the server SHOULD respond with: HTTP 403 Forbidden status code (per
    /// RFC 6750 Section 3.1); WWW-Authenticate header with the Bearer scheme
    /// and additional parameters: error="insufficient_scope" … scope="…"".
    /// The token is asked for a scope the authorization server offers that
    /// the resource does not name as needed (its challenge's `scope`, else
    /// the metadata's `scopes_supported`).
    pub(crate) async fn insufficient_scope(p: &mut Probe) -> Checked {
        let (protected, found, credentials) = discovery(p).await?;
        let words = |value: Option<&Value>| -> Vec<String> {
            match value {
                Some(Value::Array(items)) => items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
                _ => Vec::new(),
            }
        };
        let needed: Vec<String> = match protected
            .reply
            .header("WWW-Authenticate")
            .and_then(|c| challenge_param(c, "scope"))
        {
            Some(scope) => scope.split(' ').map(str::to_owned).collect(),
            None => words(found.metadata.get("scopes_supported")),
        };
        if needed.is_empty() {
            return Err(Observed::NotApplicable(
                "the resource names no scope it needs (no scope in its challenge, \
                 no scopes_supported in its metadata)"
                    .into(),
            ));
        }
        let offered = words(found.authorization_server.get("scopes_supported"));
        let Some(other) = offered.iter().find(|s| !needed.contains(s)) else {
            return Err(Observed::NotApplicable(format!(
                "the authorization server offers no scope besides the needed {needed:?}"
            )));
        };
        let token = token(&found, &credentials, None, Some(other)).await?;
        let reply = send(p, &protected.url, Some(&token)).await?;
        let challenge = reply.header("WWW-Authenticate").unwrap_or_default();
        let mut problems = Problems::default();
        if reply.status != 403 {
            problems.push(format!(
                "a token with scope {other:?} (without {needed:?}) got {}, not 403",
                describe(&reply)
            ));
        } else {
            if challenge_param(challenge, "error").as_deref() != Some("insufficient_scope") {
                problems.push(format!(
                    "the 403's challenge {challenge:?} has no error=\"insufficient_scope\""
                ));
            }
            let named = challenge_param(challenge, "scope").unwrap_or_default();
            if !needed.iter().any(|s| named.split(' ').any(|n| n == s)) {
                problems.push(format!(
                    "the 403's challenge {challenge:?} does not name the needed scope {needed:?}"
                ));
            }
        }
        Ok(problems.into_finding())
    }

    /// `classic-auth-token-in-query-rejected` (2025-11-25 basic/authorization,
    /// token requirements): "Access tokens MUST NOT be included in the URI
    /// query string"; OAuth 2.1 §5.1.1 leaves a resource server no query
    /// method to accept. A valid token as `?access_token=` with no header
    /// must be answered as no token: 401.
    pub(crate) async fn token_in_query(p: &mut Probe) -> Checked {
        let (protected, found, credentials) = discovery(p).await?;
        let token = token(&found, &credentials, None, None).await?;
        let mut url = reqwest::Url::parse(&protected.url)
            .map_err(|e| Observed::Broken(format!("URL {}: {e}", protected.url)))?;
        url.query_pairs_mut().append_pair("access_token", &token);
        let reply = send(p, url.as_str(), None).await?;
        Ok(match reply.status {
            401 => Observed::holds(),
            _ => Observed::Broken(format!(
                "a valid token in the query string (no Authorization header) got {}, not 401",
                describe(&reply)
            )),
        })
    }
}

pub(crate) use checks::*;
