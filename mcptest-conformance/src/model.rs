//! The check model, the floor everything else stands on: what a check is
//! (a rule from a spec revision, with a level), what its code found, and
//! what running it reported (a status with its evidence).

use std::{fmt, time::Duration};

use serde::Serialize;
use serde_json::Value;

use mcptest_core::report::Status;

/// Messages kept as the evidence of one exchange (and handed to its checks):
/// the first this many; the rest are read and counted
/// ([`RawResponse::Messages`]'s `dropped`), so a server that floods
/// notifications before its answer cannot grow a conformance run.
pub const EVIDENCE_KEPT: usize = 1_000;

/// How binding a rule is, as the spec words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    /// MUST / MUST NOT: breaking it is a failure.
    Must,
    /// SHOULD / SHOULD NOT: breaking it is a warning.
    Should,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
        })
    }
}

/// Whose behaviour a check judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The server under test.
    Server,
    /// The client under test (talking to mcptest's recording mock server).
    Client,
}

/// A transport a check ran over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// Newline-delimited JSON-RPC over a process's stdin/stdout (or an
    /// in-process pipe).
    Stdio,
    /// Streamable HTTP.
    Http,
    /// The legacy HTTP+SSE transport (2024-11-05): its messages go over
    /// mcptest's line bridge, as over stdio, and its own rules are checked
    /// on the raw stream.
    Sse,
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Transport::Stdio => "stdio",
            Transport::Http => "http",
            Transport::Sse => "sse",
        })
    }
}

/// Which transports a rule applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applies {
    /// Any transport (over HTTP the check may also judge status codes).
    Any,
    /// Only stdio.
    Stdio,
    /// Only Streamable HTTP.
    Http,
    /// Only the legacy HTTP+SSE transport.
    Sse,
}

impl Applies {
    pub(crate) fn includes(self, transport: Transport) -> bool {
        matches!(
            (self, transport),
            (Applies::Any, _)
                | (Applies::Stdio, Transport::Stdio)
                | (Applies::Http, Transport::Http)
                | (Applies::Sse, Transport::Sse)
        )
    }
}

/// Why a skipped check could not apply to the server at all, rather than
/// finding nothing on it to check: the table folds the skips of each such
/// reason into one line with their count (the JSON and JUnit reports, and
/// [`ConformanceReport::full_table`](crate::ConformanceReport::full_table),
/// keep every row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum CannotApply {
    /// The rule belongs to a protocol revision the server does not speak.
    Revision,
    /// The rule belongs to an extension the server does not declare.
    Extension,
    /// The rule is for the other transport (HTTP rules over stdio).
    Transport,
    /// The rule is for a protected server, and this one answers without a
    /// token (the authorization checks).
    Unprotected,
}

/// How the client under test registers with the protected recording
/// server's authorization server
/// ([`ClientConformance::registration`](crate::ClientConformance::registration)):
/// one of the client registration approaches of the MCP authorization spec
/// (2025-11-25, basic/authorization#client-registration-approaches). The
/// check `mcp-client-auth-registration` judges the approach in force.
///
/// ```
/// use mcptest::conformance::{ClientConformance, ClientRegistration};
///
/// // The authorization server knows this client already: no
/// // registration endpoint, the client must bring the id (and secret).
/// let checks = ClientConformance::stdio()
///     .authorization(true)
///     .registration(ClientRegistration::pre_registered("my-client").with_secret("s3cret"));
/// # let _ = checks;
/// assert_eq!(ClientRegistration::default(), ClientRegistration::Dynamic);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientRegistration {
    /// Dynamic client registration (RFC 7591), the default: the metadata
    /// names a `registration_endpoint` (`/register`), and every
    /// authorization request must name a `client_id` issued there.
    #[default]
    Dynamic,
    /// Pre-registration: the metadata names no `registration_endpoint` and
    /// `/register` answers 404; the client must use `client_id`, and, when
    /// there is a `client_secret`, present it at `/token` by a method the
    /// metadata names (`client_secret_basic` or `client_secret_post`).
    PreRegistered {
        /// The id the client was given out of band.
        client_id: String,
        /// Its secret; `None`: a public client (`token_endpoint_auth_method`
        /// `none`).
        client_secret: Option<String>,
    },
    /// Client ID Metadata Documents: the metadata says
    /// `client_id_metadata_document_supported: true` and names no
    /// `registration_endpoint`; the client's `client_id` is the URL of a
    /// JSON document describing it, which the authorization server fetches
    /// (within 5 s, at most 64 KiB, from 127.0.0.1 only: the mock reaches
    /// nothing else) and whose `client_id` must equal that URL and whose
    /// `redirect_uris` must hold the redirect the client uses. The spec
    /// asks for an `https` URL with a path; as a test cannot serve https,
    /// `http://127.0.0.1` and `http://localhost` URLs are accepted too, and
    /// any other non-https URL is a problem.
    MetadataDocument,
}

impl ClientRegistration {
    /// A pre-registered public client with this id; add a secret with
    /// [`with_secret`](Self::with_secret).
    ///
    /// ```
    /// use mcptest::conformance::ClientRegistration;
    ///
    /// let registration = ClientRegistration::pre_registered("my-client");
    /// assert_eq!(
    ///     registration,
    ///     ClientRegistration::PreRegistered { client_id: "my-client".into(), client_secret: None }
    /// );
    /// ```
    pub fn pre_registered(client_id: impl Into<String>) -> Self {
        ClientRegistration::PreRegistered {
            client_id: client_id.into(),
            client_secret: None,
        }
    }

    /// The same pre-registered client, with this secret (a confidential
    /// client); other approaches are returned unchanged.
    ///
    /// ```
    /// use mcptest::conformance::ClientRegistration;
    ///
    /// let registration = ClientRegistration::pre_registered("my-client").with_secret("s3cret");
    /// assert!(matches!(
    ///     registration,
    ///     ClientRegistration::PreRegistered { client_secret: Some(s), .. } if s == "s3cret"
    /// ));
    /// ```
    pub fn with_secret(self, secret: impl Into<String>) -> Self {
        match self {
            ClientRegistration::PreRegistered { client_id, .. } => {
                ClientRegistration::PreRegistered {
                    client_id,
                    client_secret: Some(secret.into()),
                }
            }
            other => other,
        }
    }

    /// The approach's name and its section of the authorization spec, for
    /// findings.
    #[cfg_attr(not(feature = "http-mock"), allow(dead_code))]
    pub(crate) fn approach(&self) -> (&'static str, &'static str) {
        match self {
            ClientRegistration::Dynamic => (
                "dynamic client registration",
                "basic/authorization#dynamic-client-registration (RFC 7591 §3)",
            ),
            ClientRegistration::PreRegistered { .. } => {
                ("pre-registration", "basic/authorization#preregistration")
            }
            ClientRegistration::MetadataDocument => (
                "Client ID Metadata Documents",
                "basic/authorization#client-id-metadata-documents",
            ),
        }
    }
}

/// One rule a check verifies. The [`id`](Rule::id) is stable across
/// releases: filter on it, and refer to it in bug reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Rule {
    /// Stable identifier, e.g. `sep-2575-unsupported-version`.
    pub id: &'static str,
    /// The rule, in one sentence.
    pub rule: &'static str,
    /// The spec revision the rule comes from, e.g. `2026-07-28`.
    pub revision: &'static str,
    /// Where in that revision (a spec page and anchor, or a SEP section).
    pub section: &'static str,
    /// MUST (a failure when broken) or SHOULD (a warning).
    pub level: Level,
    /// Whether a server or a client is judged.
    pub role: Role,
    /// The transports the rule applies to.
    pub applies: Applies,
}

/// A request as it went over the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct RawRequest {
    /// The HTTP method when it is not `POST` (a session's `DELETE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<&'static str>,
    /// HTTP headers that were chosen for this request (for stdio: none).
    /// `Content-Type: application/json` and
    /// `Accept: application/json, text/event-stream` are always sent as well.
    pub headers: Vec<(String, String)>,
    /// The exact bytes of the line or HTTP body, as text.
    pub body: String,
}

/// What came back for one request.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum RawResponse {
    /// JSON-RPC messages over stdio: the answer, and any notifications or
    /// requests that came before it.
    Messages {
        /// In arrival order: the first [`EVIDENCE_KEPT`](EVIDENCE_KEPT).
        messages: Vec<Value>,
        /// How many more arrived and were only counted.
        #[serde(default, skip_serializing_if = "is_zero")]
        dropped: usize,
    },
    /// An HTTP response.
    Http {
        /// The status code.
        status: u16,
        /// The `Content-Type`, without parameters.
        content_type: Option<String>,
        /// The JSON-RPC messages in the body (JSON or SSE).
        messages: Vec<Value>,
        /// The body text, when it held no JSON-RPC message.
        body: Option<String>,
    },
    /// No answer arrived within this time.
    Nothing {
        /// How long the check waited, in milliseconds.
        waited_ms: u64,
    },
    /// The connection failed (the server exited, the HTTP request failed).
    Failed {
        /// What went wrong.
        error: String,
    },
}

/// One request and what came back: the evidence behind a status.
///
/// For server checks the request is what mcptest sent; for client checks it
/// is what the client under test sent, and the response is the mock
/// server's answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Exchange {
    /// The transport it went over.
    pub transport: Transport,
    /// What was sent.
    pub request: RawRequest,
    /// What came back.
    pub response: RawResponse,
}

/// The outcome of one check.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct CheckResult {
    /// The rule that was checked.
    #[serde(rename = "check")]
    pub rule: Rule,
    /// The transport it ran over.
    pub transport: Transport,
    /// Pass, fail, warn or skipped.
    pub status: Status,
    /// Why it failed, warned or was skipped (for a pass: a note, if any).
    pub reason: Option<String>,
    /// For a skipped check that could not apply to this server at all: why
    /// (`None` for every other result, a skip for want of something to
    /// check included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cannot_apply: Option<CannotApply>,
    /// The exchanges the status rests on, in order.
    pub evidence: Vec<Exchange>,
    /// The official conformance suite's check ids for the same requirement
    /// (see [`official_ids`](crate::official_ids)); empty when it has none.
    pub official: &'static [&'static str],
    /// The check was listed as an expected failure
    /// ([`Conformance::expected_failures`](crate::Conformance::expected_failures))
    /// and failed: reported as a warning, so it does not fail the run.
    pub expected_failure: bool,
    /// How long the check took.
    #[serde(rename = "elapsed_ms", serialize_with = "millis")]
    pub elapsed: Duration,
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis().try_into().unwrap_or(u64::MAX))
}

/// What a check's code found, before the level turns it into a status.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Observed {
    /// The rule holds; an optional note for the report.
    Holds(Option<String>),
    /// The rule is broken.
    Broken(String),
    /// The peer stopped answering altogether (exited, dropped the
    /// connection): a failure whatever the rule's level.
    Crashed(String),
    /// The check found nothing on the server to check (no suitable tool,
    /// no list with pages).
    NotApplicable(String),
    /// The check cannot apply to this server at all.
    CannotApply(CannotApply, String),
}

/// What every check returns; `Err` lets a check end early with `?`.
pub(crate) type Checked = Result<Observed, Observed>;

impl Observed {
    pub(crate) fn holds() -> Observed {
        Observed::Holds(None)
    }

    pub(crate) fn status(&self, level: Level) -> (Status, Option<String>) {
        match self {
            Observed::Holds(note) => (Status::Pass, note.clone()),
            Observed::Broken(reason) => (
                match level {
                    Level::Must => Status::Fail,
                    Level::Should => Status::Warn,
                },
                Some(reason.clone()),
            ),
            Observed::Crashed(reason) => (Status::Fail, Some(reason.clone())),
            Observed::NotApplicable(reason) | Observed::CannotApply(_, reason) => {
                (Status::Skip, Some(reason.clone()))
            }
        }
    }

    /// Why the check cannot apply at all, for a skip of that kind.
    pub(crate) fn cannot_apply(&self) -> Option<CannotApply> {
        match self {
            Observed::CannotApply(why, _) => Some(*why),
            _ => None,
        }
    }
}

/// Several problems found by one check, joined into one reason; a problem
/// found again (the same words, from another message or round) is said once.
#[derive(Debug, Default)]
pub(crate) struct Problems(Vec<String>);

impl Problems {
    pub(crate) fn push(&mut self, problem: impl Into<String>) {
        let problem = problem.into();
        if !self.0.contains(&problem) {
            self.0.push(problem);
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Holds when nothing was found, otherwise broken with every problem.
    pub(crate) fn into_finding(self) -> Observed {
        if self.0.is_empty() {
            Observed::holds()
        } else {
            Observed::Broken(self.0.join("; "))
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_decides_between_failure_and_warning() {
        let broken = Observed::Broken("no".into());
        assert_eq!(broken.status(Level::Must).0, Status::Fail);
        assert_eq!(broken.status(Level::Should).0, Status::Warn);
        let crashed = Observed::Crashed("exited".into());
        assert_eq!(crashed.status(Level::Should).0, Status::Fail);
        let skipped = Observed::NotApplicable("no tools".into());
        assert_eq!(
            skipped.status(Level::Must),
            (Status::Skip, Some("no tools".into()))
        );
    }

    #[test]
    fn problems_join_into_one_reason() {
        let mut problems = Problems::default();
        assert_eq!(Problems::default().into_finding(), Observed::holds());
        problems.push("a");
        problems.push("b");
        problems.push("a");
        assert_eq!(problems.into_finding(), Observed::Broken("a; b".into()));
    }

    #[test]
    fn applies_matches_transports() {
        assert!(Applies::Any.includes(Transport::Http));
        assert!(Applies::Stdio.includes(Transport::Stdio));
        assert!(!Applies::Http.includes(Transport::Stdio));
        assert!(Applies::Sse.includes(Transport::Sse));
        assert!(!Applies::Stdio.includes(Transport::Sse));
        assert!(Applies::Any.includes(Transport::Sse));
    }
}
