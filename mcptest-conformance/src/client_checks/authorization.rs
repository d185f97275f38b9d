//! Client checks of MCP authorization (the client side of a protected
//! server): how the client under test finds the Protected Resource Metadata
//! (RFC 9728) and the authorization server's metadata (RFC 8414), registers
//! the way that server offers (dynamically by RFC 7591, pre-registered, or
//! by a Client ID Metadata Document), authorizes with PKCE (RFC 7636), `state`, its registered
//! redirect and `resource` (RFC 8707), and then carries, refreshes, steps up
//! and keeps to its audience the token it got. They judge every HTTP
//! exchange the recording server saw when it was protected
//! ([`ClientConformance::authorization`](crate::ClientConformance::authorization));
//! a client that never met a 401 has them all skipped as unprotected.

use base64::Engine as _;
use serde_json::Value;
use sha2::Digest as _;

use super::Judgement;
use crate::model::{CannotApply, ClientRegistration, Exchange, Observed};
use crate::support::recording_server::authorization::{
    AUTHORIZE_PATH, DOCUMENT_HOSTS, REGISTER_PATH, RESOURCE_METADATA_PATH, SERVER_METADATA_PATHS,
    TOKEN_PATH, bearer, pair, pairs, token_auth_methods,
};
use crate::support::transcript::{HttpExchange, Transcript};

/// A finding and its evidence.
type Finding = (Observed, Vec<Exchange>);

const MCP_PATH: &str = "/mcp";

/// The first 401 the MCP endpoint answered; without one, every check here
/// is skipped: the server was not protected.
fn first_challenge(t: &Transcript) -> Result<&HttpExchange, Finding> {
    t.http
        .iter()
        .find(|h| h.path() == MCP_PATH && h.status == 401)
        .ok_or_else(|| {
            (
                Observed::CannotApply(
                    CannotApply::Unprotected,
                    "the client never met a 401: the recording server was not protected \
                     (ClientConformance::authorization)"
                        .into(),
                ),
                Vec::new(),
            )
        })
}

fn on<'a>(t: &'a Transcript, method: &str, path: &str) -> Vec<&'a HttpExchange> {
    t.http
        .iter()
        .filter(|h| h.method == method && h.path() == path)
        .collect()
}

fn authorizations(t: &Transcript) -> Vec<&HttpExchange> {
    on(t, "GET", AUTHORIZE_PATH)
}

fn token_requests(t: &Transcript) -> Vec<&HttpExchange> {
    on(t, "POST", TOKEN_PATH)
}

fn answer_json(h: &HttpExchange) -> Value {
    serde_json::from_str(&h.answer).unwrap_or(Value::Null)
}

/// The finding of a client that met a 401 and never asked for
/// authorization: what the check needed is missing.
fn never_authorized(challenge: &HttpExchange) -> Finding {
    (
        Observed::Broken(format!(
            "the client met a 401 ({}) but never sent an authorization request to {AUTHORIZE_PATH}",
            challenge
                .answer_header("www-authenticate")
                .unwrap_or("no WWW-Authenticate")
        )),
        vec![challenge.exchange()],
    )
}

/// The authorization code the answer to an `/authorize` request carries.
fn issued_code(authorize: &HttpExchange) -> Option<String> {
    let location = authorize.answer_header("location")?;
    let (_, query) = location.split_once('?')?;
    pair(&pairs(query), "code").map(str::to_owned)
}

/// The token request that traded `code`.
fn trade_of<'a>(t: &'a Transcript, code: &str) -> Option<&'a HttpExchange> {
    token_requests(t).into_iter().find(|h| {
        let form = pairs(&h.body);
        pair(&form, "grant_type") == Some("authorization_code") && pair(&form, "code") == Some(code)
    })
}

/// Every access token the authorization server issued.
fn issued_tokens(t: &Transcript) -> Vec<String> {
    token_requests(t)
        .iter()
        .filter_map(|h| answer_json(h)["access_token"].as_str().map(str::to_owned))
        .collect()
}

pub(crate) fn resource_metadata_discovery(t: &Transcript) -> Finding {
    let challenge = match first_challenge(t) {
        Ok(c) => c,
        Err(skip) => return skip,
    };
    let named = challenge
        .answer_header("www-authenticate")
        .and_then(|c| mcptest_core::__support::oauth::challenge_param(c, "resource_metadata"));
    let fetched: Vec<&HttpExchange> = t
        .http
        .iter()
        .filter(|h| h.method == "GET" && h.path().starts_with(RESOURCE_METADATA_PATH))
        .collect();
    match fetched.first() {
        Some(_) => (
            Observed::holds(),
            std::iter::once(challenge)
                .chain(fetched)
                .map(HttpExchange::exchange)
                .collect(),
        ),
        None => (
            Observed::Broken(format!(
                "the client met a 401 but never fetched the Protected Resource Metadata \
                 (neither the resource_metadata URL {} nor {RESOURCE_METADATA_PATH}{MCP_PATH})",
                named.as_deref().unwrap_or("(none)")
            )),
            vec![challenge.exchange()],
        ),
    }
}

pub(crate) fn server_metadata_discovery(t: &Transcript) -> Finding {
    let challenge = match first_challenge(t) {
        Ok(c) => c,
        Err(skip) => return skip,
    };
    let fetched: Vec<Exchange> = t
        .http
        .iter()
        .filter(|h| {
            h.method == "GET"
                && SERVER_METADATA_PATHS
                    .iter()
                    .any(|p| h.path().starts_with(p))
        })
        .map(HttpExchange::exchange)
        .collect();
    if fetched.is_empty() {
        return (
            Observed::Broken(format!(
                "the client met a 401 but never fetched the authorization server's metadata \
                 ({} or {})",
                SERVER_METADATA_PATHS[0], SERVER_METADATA_PATHS[1]
            )),
            vec![challenge.exchange()],
        );
    }
    (Observed::holds(), fetched)
}

/// The client ids the registration endpoint issued, with the redirect
/// URIs each registered.
fn registered(t: &Transcript) -> Vec<(String, Vec<String>)> {
    on(t, "POST", REGISTER_PATH)
        .iter()
        .filter(|h| h.status == 201)
        .filter_map(|h| {
            let answer = answer_json(h);
            let id = answer["client_id"].as_str()?.to_owned();
            let redirects = answer["redirect_uris"]
                .as_array()
                .map(|r| {
                    r.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            Some((id, redirects))
        })
        .collect()
}

/// Judges every authorization request with `problems`, failing when there
/// is none after a 401.
fn every_authorization(
    t: &Transcript,
    problems: impl Fn(&HttpExchange, &[(String, String)]) -> (Vec<Exchange>, Vec<String>),
) -> Finding {
    let challenge = match first_challenge(t) {
        Ok(c) => c,
        Err(skip) => return skip,
    };
    let mut judgement = Judgement::default();
    for authorize in authorizations(t) {
        let (evidence, found) = problems(authorize, &pairs(authorize.query()));
        judgement.case(
            std::iter::once(authorize.exchange()).chain(evidence),
            found.into_iter().map(|p| format!("{AUTHORIZE_PATH}: {p}")),
        );
    }
    if judgement.is_empty() {
        return never_authorized(challenge);
    }
    judgement.finding_by_offenders(Observed::holds)
}

/// Judges registration by the approach the authorization server offered
/// ([`ClientRegistration`]): a dynamically registered, pre-registered or
/// metadata-document `client_id` on every authorization request, no
/// dynamic registration where none is offered, and a pre-registered
/// client's identity (and secret) on every token request.
pub(crate) fn registration(t: &Transcript) -> Finding {
    let challenge = match first_challenge(t) {
        Ok(c) => c,
        Err(skip) => return skip,
    };
    let (approach, section) = t.registration.approach();
    let authorizations = authorizations(t);
    if authorizations.is_empty() {
        let (observed, evidence) = never_authorized(challenge);
        return (in_approach(observed, approach, section), evidence);
    }
    let mut judgement = Judgement::default();
    if t.registration != ClientRegistration::Dynamic {
        for register in on(t, "POST", REGISTER_PATH) {
            judgement.case(
                [register.exchange()],
                [format!(
                    "POST {REGISTER_PATH}: the client registered dynamically, but this \
                     authorization server offers only {approach} (its metadata names no \
                     registration_endpoint)"
                )],
            );
        }
    }
    let issued = registered(t);
    // Documents mcptest cannot reach (https beyond loopback): the URL's
    // rules are judged, the document's are said to be left unjudged.
    let mut unjudged: Vec<String> = Vec::new();
    for authorize in authorizations {
        let query = pairs(authorize.query());
        let mut evidence = Vec::new();
        let problems = match (pair(&query, "client_id"), &t.registration) {
            (None, _) => vec!["no client_id".to_owned()],
            (Some(id), ClientRegistration::Dynamic) => {
                if issued.iter().any(|(r, _)| r == id) {
                    Vec::new()
                } else {
                    vec![format!(
                        "client_id {id:?} was never issued by the registration endpoint \
                         ({REGISTER_PATH}, the only registration this authorization server offers)"
                    )]
                }
            }
            (Some(id), ClientRegistration::PreRegistered { client_id, .. }) => {
                if id == client_id {
                    Vec::new()
                } else {
                    vec![format!(
                        "client_id {id:?}, not the pre-registered {client_id:?}"
                    )]
                }
            }
            (Some(id), ClientRegistration::MetadataDocument) => {
                if off_loopback(id) {
                    unjudged.push(id.to_owned());
                }
                let (fetch, problems) =
                    metadata_document(t, authorize, id, pair(&query, "redirect_uri"));
                evidence.extend(fetch);
                problems
            }
        };
        judgement.case(
            std::iter::once(authorize.exchange()).chain(evidence),
            problems
                .into_iter()
                .map(|p| format!("{AUTHORIZE_PATH}: {p}")),
        );
    }
    if let ClientRegistration::PreRegistered {
        client_id,
        client_secret,
    } = &t.registration
    {
        for request in token_requests(t) {
            let problems = pre_registered_identity(
                request,
                client_id,
                client_secret.as_deref(),
                token_auth_methods(&t.registration),
            );
            judgement.case(
                [request.exchange()],
                problems.into_iter().map(|p| format!("{TOKEN_PATH}: {p}")),
            );
        }
    }
    unjudged.dedup();
    let (observed, evidence) = match judgement.finding_by_offenders(Observed::holds) {
        (Observed::Holds(None), evidence) if !unjudged.is_empty() => (
            Observed::Holds(Some(format!(
                "the client_id is the https URL {}; its document was not fetched (mcptest's \
                 mock reaches only {}), so the document's client_id and redirect_uris are not \
                 judged",
                unjudged.join(", "),
                DOCUMENT_HOSTS.join(" and ")
            ))),
            evidence,
        ),
        other => other,
    };
    (in_approach(observed, approach, section), evidence)
}

/// Whether `id` is an https URL off loopback: a Client ID Metadata
/// Document the mock cannot fetch, as tests reach only 127.0.0.1.
fn off_loopback(id: &str) -> bool {
    reqwest::Url::parse(id).is_ok_and(|url| {
        url.scheme() == "https" && !DOCUMENT_HOSTS.contains(&url.host_str().unwrap_or_default())
    })
}

/// A registration finding that names the approach in force and its
/// section of the spec.
fn in_approach(observed: Observed, approach: &str, section: &str) -> Observed {
    match observed {
        Observed::Holds(note) => Observed::Holds(Some(match note {
            Some(note) => format!("the client registered by {approach} ({section}); {note}"),
            None => format!("the client registered by {approach} ({section})"),
        })),
        Observed::Broken(reason) => Observed::Broken(format!("{approach} ({section}): {reason}")),
        other => other,
    }
}

/// The problems of a token request from a pre-registered client: it names
/// no `client_id` or another, or (for a confidential client) presents no
/// secret, or the wrong one, by the methods the metadata names.
fn pre_registered_identity(
    request: &HttpExchange,
    client_id: &str,
    client_secret: Option<&str>,
    methods: &[&str],
) -> Vec<String> {
    let form = pairs(&request.body);
    let basic = request
        .header("authorization")
        .and_then(|value| value.trim().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("basic"))
        .map(|(_, encoded)| basic_credentials(encoded.trim()));
    let mut problems = Vec::new();
    let (id, secret, method) = match &basic {
        Some(Some((id, secret))) => (
            Some(id.as_str()),
            Some(secret.as_str()),
            "client_secret_basic",
        ),
        Some(None) => {
            return vec![
                "an Authorization: Basic header that is no base64 of client_id:client_secret"
                    .to_owned(),
            ];
        }
        None => (
            pair(&form, "client_id"),
            pair(&form, "client_secret"),
            "client_secret_post",
        ),
    };
    match id {
        None => problems.push(format!("no client_id (the pre-registered {client_id:?})")),
        Some(id) if id != client_id => {
            problems.push(format!(
                "client_id {id:?}, not the pre-registered {client_id:?}"
            ));
        }
        Some(_) => {}
    }
    if let Some(expected) = client_secret {
        match secret {
            None => problems.push(format!(
                "no client secret, though the pre-registered client has one and the metadata \
                 names {} to present it",
                methods.join(" and ")
            )),
            Some(given) if given != expected => problems.push(format!(
                "the client secret presented by {method} is not the pre-registered one"
            )),
            Some(_) => {}
        }
    }
    problems
}

/// The client_id and secret of HTTP Basic client authentication, each
/// form-urlencoded before the base64 (RFC 6749 §2.3.1).
fn basic_credentials(encoded: &str) -> Option<(String, String)> {
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (id, secret) = text.split_once(':')?;
    let unescape = |part: &str| {
        pairs(&format!("v={part}"))
            .pop()
            .map(|(_, v)| v)
            .unwrap_or_default()
    };
    Some((unescape(id), unescape(secret)))
}

/// Whether `id` may name a Client ID Metadata Document: an https URL with
/// a path, or (as tests cannot serve https) an http URL on 127.0.0.1 or
/// localhost; otherwise why not.
fn document_url_problem(id: &str) -> Option<String> {
    let Ok(url) = reqwest::Url::parse(id) else {
        return Some(format!(
            "client_id {id:?} is no URL, but this authorization server registers clients by \
             the URL of their Client ID Metadata Document"
        ));
    };
    let loopback = DOCUMENT_HOSTS.contains(&url.host_str().unwrap_or_default());
    match url.scheme() {
        "https" if url.path().len() > 1 => None,
        "https" => Some(format!("client_id {id:?} has no path component")),
        "http" if loopback => None,
        other => Some(format!(
            "client_id {id:?} uses the {other:?} scheme; a Client ID Metadata Document URL \
             must be https (http only on 127.0.0.1 or localhost, for tests)"
        )),
    }
}

/// The fetch of the Client ID Metadata Document `id` for `authorize` and
/// the problems with it: the document must be there, a JSON object whose
/// `client_id` is its URL and whose `redirect_uris` hold the redirect used.
fn metadata_document(
    t: &Transcript,
    authorize: &HttpExchange,
    id: &str,
    redirect: Option<&str>,
) -> (Option<Exchange>, Vec<String>) {
    if let Some(problem) = document_url_problem(id) {
        return (None, vec![problem]);
    }
    if off_loopback(id) {
        return (None, Vec::new());
    }
    let fetches: Vec<_> = t.documents.iter().filter(|d| d.url == id).collect();
    let Some(fetch) = fetches
        .iter()
        .find(|d| d.at >= authorize.at)
        .or(fetches.last())
    else {
        return (
            None,
            vec![format!(
                "the authorization server never fetched the document at client_id {id:?}"
            )],
        );
    };
    let mut problems = Vec::new();
    match &fetch.answer {
        Err(why) => problems.push(format!("its Client ID Metadata Document {id:?}: {why}")),
        Ok((status, _, _)) if *status != 200 => problems.push(format!(
            "its Client ID Metadata Document {id:?} answered {status}, not 200"
        )),
        Ok((_, _, body)) => match serde_json::from_str::<Value>(body) {
            Ok(document) if document.is_object() => {
                if document["client_id"].as_str() != Some(id) {
                    problems.push(format!(
                        "the document's client_id {} is not its URL {id:?}",
                        document["client_id"]
                    ));
                }
                let redirects: Vec<&str> = document["redirect_uris"]
                    .as_array()
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if let Some(redirect) = redirect
                    && !redirects.contains(&redirect)
                {
                    problems.push(format!(
                        "the document's redirect_uris [{}] do not hold the redirect_uri {redirect:?}",
                        redirects.join(", ")
                    ));
                }
            }
            _ => problems.push(format!(
                "its Client ID Metadata Document {id:?} is no JSON object"
            )),
        },
    }
    (Some(fetch.exchange()), problems)
}

pub(crate) fn pkce(t: &Transcript) -> Finding {
    every_authorization(t, |authorize, query| {
        let mut problems = Vec::new();
        let challenge = pair(query, "code_challenge");
        match pair(query, "code_challenge_method") {
            Some("S256") => {}
            Some(other) => problems.push(format!("code_challenge_method {other:?}, not S256")),
            None => problems.push("no code_challenge_method (plain by default), not S256".into()),
        }
        let Some(challenge) = challenge else {
            problems.push("no code_challenge".into());
            return (Vec::new(), problems);
        };
        let Some(code) = issued_code(authorize) else {
            return (Vec::new(), problems);
        };
        let Some(trade) = trade_of(t, &code) else {
            return (Vec::new(), problems);
        };
        match pair(&pairs(&trade.body), "code_verifier") {
            None => problems.push(format!(
                "the token request for code {code} has no code_verifier"
            )),
            Some(verifier) => {
                let hashed = base64::engine::general_purpose::URL_SAFE_NO_PAD
                    .encode(sha2::Sha256::digest(verifier.as_bytes()));
                if hashed != challenge {
                    problems.push(format!(
                        "BASE64URL(SHA256(code_verifier)) is {hashed:?}, not the code_challenge {challenge:?}"
                    ));
                }
            }
        }
        (vec![trade.exchange()], problems)
    })
}

/// The resource's canonical URI: what its Protected Resource Metadata
/// names, else the URL of its MCP endpoint.
fn canonical_resource(t: &Transcript, challenge: &HttpExchange) -> String {
    t.http
        .iter()
        .filter(|h| h.path().starts_with(RESOURCE_METADATA_PATH) && h.status == 200)
        .find_map(|h| answer_json(h)["resource"].as_str().map(str::to_owned))
        .unwrap_or_else(|| {
            format!(
                "http://{}{MCP_PATH}",
                challenge.header("host").unwrap_or("127.0.0.1")
            )
        })
}

pub(crate) fn resource_parameter(t: &Transcript) -> Finding {
    let challenge = match first_challenge(t) {
        Ok(c) => c,
        Err(skip) => return skip,
    };
    let resource = canonical_resource(t, challenge);
    let mut judgement = Judgement::default();
    let requests = authorizations(t)
        .into_iter()
        .map(|h| (h, pairs(h.query())))
        .chain(token_requests(t).into_iter().map(|h| (h, pairs(&h.body))));
    for (request, fields) in requests {
        let problem = match pair(&fields, "resource") {
            Some(given) if given == resource => None,
            Some(given) => Some(format!(
                "{}: resource {given:?}, not the canonical URI {resource:?}",
                request.path()
            )),
            None => Some(format!("{}: no resource parameter", request.path())),
        };
        judgement.case([request.exchange()], problem);
    }
    if judgement.is_empty() {
        return never_authorized(challenge);
    }
    judgement.finding_by_offenders(Observed::holds)
}

pub(crate) fn state(t: &Transcript) -> Finding {
    every_authorization(t, |_, query| {
        let problems = match pair(query, "state") {
            Some(state) if !state.is_empty() => Vec::new(),
            Some(_) => vec!["an empty state".to_owned()],
            None => vec!["no state".to_owned()],
        };
        (Vec::new(), problems)
    })
}

pub(crate) fn registered_redirect(t: &Transcript) -> Finding {
    let registered = registered(t);
    every_authorization(t, |authorize, query| {
        let mut problems = Vec::new();
        let Some(redirect) = pair(query, "redirect_uri") else {
            return (Vec::new(), vec!["no redirect_uri".to_owned()]);
        };
        let client = pair(query, "client_id").unwrap_or_default();
        if let Some((_, redirects)) = registered.iter().find(|(id, _)| id == client)
            && !redirects.iter().any(|r| r == redirect)
        {
            problems.push(format!(
                "redirect_uri {redirect:?} is not among those client {client:?} registered ({})",
                redirects.join(", ")
            ));
        }
        let mut evidence = Vec::new();
        if let Some(trade) = issued_code(authorize).and_then(|code| trade_of(t, &code)) {
            let traded = pairs(&trade.body);
            if pair(&traded, "redirect_uri") != Some(redirect) {
                problems.push(format!(
                    "the token request's redirect_uri {:?} differs from the authorization request's {redirect:?}",
                    pair(&traded, "redirect_uri")
                ));
            }
            evidence.push(trade.exchange());
        }
        (evidence, problems)
    })
}

/// The first access token issued and when; a finding when the client met a
/// 401 and never got one (or the server was not protected).
fn first_token(t: &Transcript) -> Result<(&HttpExchange, Vec<String>), Finding> {
    let challenge = first_challenge(t)?;
    let issued = issued_tokens(t);
    let Some(first) = token_requests(t)
        .into_iter()
        .find(|h| answer_json(h)["access_token"].is_string())
    else {
        return Err((
            Observed::Broken(
                "the client met a 401 but never obtained an access token at /token".into(),
            ),
            vec![challenge.exchange()],
        ));
    };
    Ok((first, issued))
}

pub(crate) fn bearer_header(t: &Transcript) -> Finding {
    let (first, issued) = match first_token(t) {
        Ok(found) => found,
        Err(finding) => return finding,
    };
    let mut judgement = Judgement::default();
    for request in t.http.iter().filter(|h| h.at >= first.at) {
        let mut problems = Vec::new();
        let query = pairs(request.query());
        if let Some(token) = pair(&query, "access_token") {
            problems.push(format!(
                "{} {}: an access token in the query string ({})",
                request.method,
                request.path(),
                if issued.iter().any(|i| i == token) {
                    "one this server issued"
                } else {
                    "unknown"
                }
            ));
        }
        if request.path() == MCP_PATH && bearer(&request.headers).is_none() {
            problems.push(format!(
                "{} {MCP_PATH}: no Authorization: Bearer header",
                request.method
            ));
        }
        if request.path() == MCP_PATH || !problems.is_empty() {
            judgement.case([request.exchange()], problems);
        }
    }
    if judgement.is_empty() {
        return (
            Observed::Broken(
                "the client obtained an access token but never sent a request to the MCP \
                 endpoint with it"
                    .into(),
            ),
            vec![first.exchange()],
        );
    }
    judgement.finding_by_offenders(Observed::holds)
}

pub(crate) fn refresh(t: &Transcript) -> Finding {
    let (first, _) = match first_token(t) {
        Ok(found) => found,
        Err(finding) => return finding,
    };
    let lifetime = answer_json(first)["expires_in"].as_u64().unwrap_or(0);
    let expiry = first.at + std::time::Duration::from_secs(lifetime);
    let Some(late) = t
        .http
        .iter()
        .find(|h| h.path() == MCP_PATH && h.at >= expiry)
    else {
        return (
            Observed::NotApplicable(format!(
                "the client sent nothing to the MCP endpoint after its first token expired \
                 ({lifetime} s after it was issued)"
            )),
            vec![first.exchange()],
        );
    };
    // The first new grant after the expiry: a refresh, or a new
    // authorization.
    let renewal = t.http.iter().find(|h| {
        h.at >= expiry
            && (h.path() == AUTHORIZE_PATH
                || (h.path() == TOKEN_PATH && answer_json(h)["access_token"].is_string()))
    });
    match renewal {
        Some(h)
            if h.path() == TOKEN_PATH
                && pair(&pairs(&h.body), "grant_type") == Some("refresh_token") =>
        {
            (
                Observed::holds(),
                vec![first.exchange(), late.exchange(), h.exchange()],
            )
        }
        Some(h) => (
            Observed::Broken(format!(
                "after its first token expired the client got a new one through {} \
                 instead of the refresh_token it was given",
                if h.path() == AUTHORIZE_PATH {
                    "a new authorization".to_owned()
                } else {
                    format!(
                        "grant_type {:?}",
                        pair(&pairs(&h.body), "grant_type").unwrap_or("(none)")
                    )
                }
            )),
            vec![first.exchange(), late.exchange(), h.exchange()],
        ),
        None => (
            Observed::Broken(
                "the client went on sending requests after its token expired and never \
                 refreshed it"
                    .into(),
            ),
            vec![first.exchange(), late.exchange()],
        ),
    }
}

pub(crate) fn step_up(t: &Transcript) -> Finding {
    if let Err(skip) = first_challenge(t) {
        return skip;
    }
    let Some(forbidden) = t.http.iter().find(|h| {
        h.path() == MCP_PATH
            && h.status == 403
            && h.answer_header("www-authenticate")
                .is_some_and(|c| c.contains("insufficient_scope"))
    }) else {
        return (
            Observed::NotApplicable(
                "the client never met a 403 insufficient_scope (it called no tool)".into(),
            ),
            Vec::new(),
        );
    };
    let wanted = forbidden
        .answer_header("www-authenticate")
        .and_then(|c| mcptest_core::__support::oauth::challenge_param(c, "scope"))
        .unwrap_or_default();
    let again = t
        .http
        .iter()
        .find(|h| h.path() == AUTHORIZE_PATH && h.at >= forbidden.at);
    let Some(again) = again else {
        return (
            Observed::Broken(format!(
                "after a 403 insufficient_scope (scope {wanted:?}) the client never asked \
                 for authorization again"
            )),
            vec![forbidden.exchange()],
        );
    };
    let asked = pair(&pairs(again.query()), "scope")
        .unwrap_or_default()
        .to_owned();
    let missing: Vec<&str> = wanted
        .split_whitespace()
        .filter(|s| !asked.split_whitespace().any(|a| a == *s))
        .collect();
    let retried = t
        .http
        .iter()
        .find(|h| h.path() == MCP_PATH && h.at >= again.at && h.status < 400);
    let mut evidence = vec![forbidden.exchange(), again.exchange()];
    evidence.extend(retried.map(HttpExchange::exchange));
    if !missing.is_empty() {
        return (
            Observed::Broken(format!(
                "the new authorization asked for scope {asked:?}, without {} that the 403 named",
                missing.join(" ")
            )),
            evidence,
        );
    }
    if retried.is_none() {
        return (
            Observed::Broken(
                "the client authorized with the wider scope but never retried a request that \
                 the server then admitted"
                    .into(),
            ),
            evidence,
        );
    }
    (Observed::holds(), evidence)
}

pub(crate) fn token_audience(t: &Transcript) -> Finding {
    let (first, issued) = match first_token(t) {
        Ok(found) => found,
        Err(finding) => return finding,
    };
    let mut judgement = Judgement::default();
    for request in t
        .http
        .iter()
        .filter(|h| h.at >= first.at && h.path() != MCP_PATH)
    {
        let problem = bearer(&request.headers)
            .filter(|token| issued.iter().any(|i| i == token))
            .map(|_| {
                format!(
                    "{} {}: the access token issued for the MCP resource was sent to it",
                    request.method,
                    request.path()
                )
            });
        judgement.case([request.exchange()], problem);
    }
    judgement.finding_by_offenders(|| {
        Observed::NotApplicable(
            "after it got its token the client sent nothing but to the MCP endpoint".into(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_metadata_document_url_is_https_with_a_path_or_http_on_loopback() {
        for good in [
            "https://client.example/metadata.json",
            "http://127.0.0.1:4000/client.json",
            "http://localhost:4000/client.json",
        ] {
            assert_eq!(document_url_problem(good), None, "{good}");
        }
        for (bad, said) in [
            ("my-client", "is no URL"),
            ("https://client.example", "has no path component"),
            (
                "http://client.example/metadata.json",
                "uses the \"http\" scheme",
            ),
            ("ftp://127.0.0.1/metadata.json", "uses the \"ftp\" scheme"),
        ] {
            let problem = document_url_problem(bad).unwrap_or_default();
            assert!(problem.contains(said), "{bad}: {problem}");
        } // Only an https document beyond loopback goes unfetched.
        assert!(off_loopback("https://client.example/metadata.json"));
        assert!(!off_loopback("https://127.0.0.1/metadata.json"));
        assert!(!off_loopback("http://client.example/metadata.json"));
    }

    #[test]
    fn basic_credentials_are_form_decoded_after_the_base64() {
        use base64::Engine as _;
        let encode = |text: &str| base64::engine::general_purpose::STANDARD.encode(text);
        assert_eq!(
            basic_credentials(&encode("my%3Aclient:s3cret%2B+x")),
            Some(("my:client".to_owned(), "s3cret+ x".to_owned()))
        );
        assert_eq!(basic_credentials(&encode("no-colon")), None);
        assert_eq!(basic_credentials("!not base64!"), None);
    }
}
