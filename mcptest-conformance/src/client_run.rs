//! The client run: [`ClientConformance`] connects the client under test to
//! the recording server (over stdio or Streamable HTTP, as a command line
//! or an in-process closure), ends the session, and judges each selected
//! client check on the transcript.

use std::{
    future::Future,
    sync::Arc,
    time::{Duration, Instant},
};

use tokio::io::DuplexStream;

use crate::model::{Applies, CannotApply, ClientRegistration, Observed, Role, Transport};
use crate::report::ConformanceReport;
use crate::selection::{Selection, result, selection_methods};
#[cfg(feature = "http-mock")]
use crate::support::recording_server::http as over_http;
use crate::support::recording_server::{Canary, Recording, RecordingServer, serve_stdio};
use crate::support::transcript::Transcript;
use mcptest_core::__support::process::{ChildProcess, Launch, StderrTail, split_command};
use mcptest_core::Error;

/// Stands for the recording server's URL in a client's command line.
pub const URL_PLACEHOLDER: &str = "{{url}}";

/// How an in-process client reaches the recording server (a stand-in
/// for a real server, which is what "mock" means across mcptest).
#[derive(Debug)]
#[non_exhaustive]
pub enum MockLink {
    /// Newline-delimited JSON-RPC over this pipe, as over a server's stdio:
    /// write requests to it, read the recording server's answers from it.
    Stdio(DuplexStream),
    /// Streamable HTTP at this URL (`http://127.0.0.1:<port>/mcp`).
    Http {
        /// The recording server's endpoint.
        url: String,
    },
}

/// Runs the client checks of the 2026-07-28 revision: the client under test
/// talks to a recording stateless mock server, and each check judges what it
/// sent.
///
/// The mock speaks only 2026-07-28 and offers tools that provoke what the
/// checks look for: `echo` (answers), `slow` (never finishes; cancel it),
/// `ask` (asks, with an `input_required` result, for every capability among
/// elicitation, sampling and roots the request declares), `confirm` (the
/// same with a `requestState` the retry must echo, SEP-2322) and `lookup`
/// (its input schema has a `$ref` to a network URI on 127.0.0.1 that the
/// client must not fetch, SEP-2106), `forecast` (arguments marked
/// `x-mcp-header`, which a client mirrors in `Mcp-Param-*` headers over
/// HTTP, SEP-2243), the `tag_*` tools (one with a valid `x-mcp-header`, the
/// others with invalid ones a client must not call), `contact` and
/// `schema_echo` (pass `contact`'s input schema back through `schema_echo`
/// to show which JSON Schema 2020-12 keywords the client kept, SEP-1613 and
/// SEP-2106) and `untyped` (its result reaches the client without
/// `resultType`, which the client must take as complete, SEP-2322), plus
/// the prompt `greeting` and the resource `mcptest://mock/note`. Over HTTP
/// every POST is also checked for the
/// `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers. A check whose
/// situation the client never created — it never called `slow`, never got
/// -32022, never retried an `input_required` call — is skipped with that
/// reason.
///
/// The client is either a command line (over stdio it speaks MCP on its own
/// stdin/stdout; over HTTP it gets the mock's URL where its arguments say
/// `{{url}}`), or an async closure that gets a [`MockLink`].
///
/// ```
/// use mcptest::{conformance::{ClientConformance, MockLink}, report::Status};
/// use serde_json::json;
/// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcptest::Error> {
/// // The client under test; here a few raw lines standing in for a real one.
/// let report = ClientConformance::stdio()
///     .run_in_process(|link| async move {
///         let MockLink::Stdio(pipe) = link else { unreachable!() };
///         let (read, mut write) = tokio::io::split(pipe);
///         let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
///             "params": {"_meta": {
///                 "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///                 "io.modelcontextprotocol/clientCapabilities": {},
///             }}});
///         write.write_all(format!("{discover}\n").as_bytes()).await.unwrap();
///         let answer = BufReader::new(read).lines().next_line().await.unwrap();
///         assert!(answer.unwrap().contains("supportedVersions"));
///     })
///     .await?;
/// assert_eq!(report.status("sep-2575-client-request-meta"), Some(Status::Pass));
/// // No clientInfo in _meta: a SHOULD rule, so a warning.
/// assert_eq!(report.status("sep-2575-client-info"), Some(Status::Warn));
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct ClientConformance {
    transport: Transport,
    session: Duration,
    selection: Selection,
    protected: bool,
    registration: ClientRegistration,
}

/// Marks what needs the `http-mock` feature: without it no type meets the
/// bound, and the compiler says what to turn on.
#[diagnostic::on_unimplemented(
    message = "client conformance over Streamable HTTP needs mcptest's `http-mock` feature",
    label = "needs the `http-mock` feature",
    note = "turn it on in Cargo.toml: mcptest = {{ ..., features = [\"http-mock\"] }}"
)]
#[doc(hidden)]
pub trait NeedsHttpMock {}
#[cfg(feature = "http-mock")]
impl<T: ?Sized> NeedsHttpMock for T {}

impl ClientConformance {
    /// Checks a client over stdio.
    pub fn stdio() -> Self {
        ClientConformance {
            transport: Transport::Stdio,
            session: Duration::from_secs(30),
            selection: Selection::default(),
            protected: false,
            registration: ClientRegistration::Dynamic,
        }
    }

    /// Checks a client over Streamable HTTP; the recording server listens
    /// on 127.0.0.1.
    #[cfg(feature = "http-mock")]
    pub fn http() -> Self {
        ClientConformance {
            transport: Transport::Http,
            ..ClientConformance::stdio()
        }
    }

    /// Without the `http-mock` feature: a compile error that says to turn it
    /// on (the bound is checked where `http()` is called).
    #[cfg(not(feature = "http-mock"))]
    #[doc(hidden)]
    pub fn http<'a>() -> Self
    where
        &'a (): NeedsHttpMock,
    {
        unreachable!("no type implements NeedsHttpMock without the `http-mock` feature")
    }

    /// The longest the client's session may last (default 30 s); a command
    /// still running then is stopped, an in-process client abandoned.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), mcptest::Error> {
    /// use std::time::Duration;
    /// use mcptest::conformance::ClientConformance;
    ///
    /// // A client that answers quickly but never exits by itself.
    /// let report = ClientConformance::stdio()
    ///     .session_limit(Duration::from_secs(5))
    ///     .run_command("my-mcp-client --stdio")
    ///     .await?;
    /// report.assert_conforms();
    /// # Ok(()) }
    /// ```
    pub fn session_limit(mut self, limit: Duration) -> Self {
        self.session = limit;
        self
    }

    /// Serves the recording server as a protected resource (Streamable HTTP
    /// only), with its own authorization server on the same 127.0.0.1
    /// listener, so that the authorization checks (`mcp-client-auth-*`)
    /// judge how the client gets and uses its token: a request without a
    /// valid bearer token gets 401 with `WWW-Authenticate: Bearer
    /// resource_metadata="..."`; the client must find the Protected Resource
    /// Metadata (RFC 9728) and the authorization server's metadata
    /// (RFC 8414), register (RFC 7591), authorize with PKCE (S256), `state`
    /// and `resource` (RFC 8707) — `/authorize` approves at once with a 302
    /// to the `redirect_uri`, no browser needed — and trade the code at
    /// `/token`. The first token lives 2 s, so a client that keeps going
    /// must refresh it; a `tools/call` needs the scope `mcp:call`, asked
    /// for with a 403 `insufficient_scope` (step-up). Without it (the
    /// default) every authorization check is skipped: the client never
    /// meets a 401.
    ///
    /// With the `http-mock` feature: `ClientConformance::http()
    /// .authorization(true).only(["mcp-client-auth-*"]).run_command("my-client
    /// --url {{url}}")`. Over stdio there is no header to carry a token, so
    /// the run is refused:
    ///
    /// ```
    /// use mcptest::conformance::ClientConformance;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let refused = ClientConformance::stdio()
    ///     .authorization(true)
    ///     .run_in_process(|_link| async {})
    ///     .await
    ///     .unwrap_err();
    /// assert!(refused.to_string().contains("needs Streamable HTTP"));
    /// # }
    /// ```
    pub fn authorization(mut self, protected: bool) -> Self {
        self.protected = protected;
        self
    }

    /// How the protected mock's authorization server lets the client
    /// register (default [`ClientRegistration::Dynamic`]), and so what the
    /// check `mcp-client-auth-registration` asks of it: dynamic
    /// registration at `/register`, a pre-registered `client_id` (and
    /// secret), or a Client ID Metadata Document the mock fetches from
    /// 127.0.0.1. Only with [`authorization(true)`](Self::authorization):
    /// another approach on an unprotected run is refused.
    ///
    /// With the `http-mock` feature: `ClientConformance::http()
    /// .authorization(true).registration(ClientRegistration::MetadataDocument)
    /// .run_command("my-client --url {{url}}")`.
    ///
    /// ```
    /// use mcptest::conformance::{ClientConformance, ClientRegistration};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let refused = ClientConformance::stdio()
    ///     .registration(ClientRegistration::pre_registered("my-client"))
    ///     .run_in_process(|_link| async {})
    ///     .await
    ///     .unwrap_err();
    /// assert!(refused.to_string().contains("needs authorization(true)"));
    /// # }
    /// ```
    pub fn registration(mut self, registration: ClientRegistration) -> Self {
        self.registration = registration;
        self
    }

    /// Protection is for Streamable HTTP: over stdio there is no header to
    /// carry a token; a registration approach is for a protected run.
    fn check_protection(&self) -> Result<(), Error> {
        if !self.protected && self.registration != ClientRegistration::Dynamic {
            return Err(Error::InvalidConfig {
                message: format!(
                    "ClientConformance::registration({:?}) needs authorization(true): an \
                     unprotected mock has no authorization server to register with",
                    self.registration.approach().0
                ),
            });
        }
        if self.protected && self.transport == Transport::Stdio {
            return Err(Error::InvalidConfig {
                message: "client conformance with authorization needs Streamable HTTP \
                          (ClientConformance::http()); over stdio a client carries no token"
                    .into(),
            });
        }
        Ok(())
    }

    selection_methods! {
        /// Checks known to fail, by exact id, as
        /// [`Conformance::expected_failures`](crate::Conformance::expected_failures):
        /// a listed check that fails is reported as an expected failure (a
        /// warning marked `XFAIL`, so the run still conforms), a listed check
        /// that passes or only warns fails the run, asking for it to be taken
        /// off the list. A listed check that is skipped or not selected stays as
        /// it is. An id that is no check is an error.
        ///
        /// ```
        /// use mcptest::{conformance::ClientConformance, report::Status};
        ///
        /// # #[tokio::main(flavor = "current_thread")]
        /// # async fn main() -> Result<(), mcptest::Error> {
        /// // A client that sends nothing breaks sep-2575-client-request-meta.
        /// let report = ClientConformance::stdio()
        ///     .expected_failures(["sep-2575-client-request-meta"])
        ///     .run_in_process(|_link| async {})
        ///     .await?;
        /// let result = report.result("sep-2575-client-request-meta").unwrap();
        /// assert!(result.expected_failure);
        /// assert_eq!(result.status, Status::Warn);
        /// # Ok(()) }
        /// ```
    }

    /// Runs `client` against the recording server and reports. The session
    /// ends when the closure's future completes (or the session limit
    /// passes).
    pub async fn run_in_process<F, Fut>(self, client: F) -> Result<ConformanceReport, Error>
    where
        F: FnOnce(MockLink) -> Fut,
        Fut: Future<Output = ()>,
    {
        let started = Instant::now();
        self.selection.select(Role::Client)?;
        self.check_protection()?;
        let recording = Arc::new(Recording::default());
        let (canary, server) = recording_server(&recording).await?;
        match self.transport {
            Transport::Stdio => {
                let (ours, theirs) = tokio::io::duplex(256 * 1024);
                let (read, write) = tokio::io::split(ours);
                let tasks = serve_stdio(read, write, recording.clone(), server);
                let _ = tokio::time::timeout(self.session, client(MockLink::Stdio(theirs))).await;
                finish(tasks).await;
            }
            Transport::Http => {
                #[cfg(feature = "http-mock")]
                {
                    let served =
                        over_http::serve(recording.clone(), server, self.protection()).await?;
                    let link = MockLink::Http {
                        url: served.url.clone(),
                    };
                    let _ = tokio::time::timeout(self.session, client(link)).await;
                    drop(served);
                }
            }
            Transport::Sse => unreachable!("a client is checked over stdio or Streamable HTTP"),
        }
        drop(canary);
        Ok(self
            .report("in-process client".into(), &recording, started)
            .await)
    }

    /// Runs the client command line (split like a shell, never run through
    /// one) against the recording server and reports. Over stdio the
    /// client's stdin and stdout are connected to the recording server; over
    /// HTTP `{{url}}` in its arguments is replaced by the server's URL. The
    /// session ends when the client exits (or the session limit passes: then
    /// it is killed).
    pub async fn run_command(self, command_line: &str) -> Result<ConformanceReport, Error> {
        let started = Instant::now();
        self.selection.select(Role::Client)?;
        self.check_protection()?;
        let (program, args) = split_command(command_line)?;
        let recording = Arc::new(Recording::default());
        let (canary, server) = recording_server(&recording).await?;
        match self.transport {
            Transport::Stdio => {
                let spawned = ChildProcess::spawn(&launch(program, args))?;
                let tasks = serve_stdio(spawned.stdout, spawned.stdin, recording.clone(), server);
                let _stderr = StderrTail::spawn_reader(spawned.stderr);
                let process = spawned.process;
                process.wait_for_exit(self.session).await;
                process.shutdown(Duration::from_millis(100)).await;
                finish(tasks).await;
            }
            Transport::Http => {
                #[cfg(feature = "http-mock")]
                {
                    if !args.iter().any(|a| a.contains(URL_PLACEHOLDER)) {
                        return Err(Error::InvalidConfig {
                            message: format!(
                                "the client command {command_line:?} has no {URL_PLACEHOLDER} \
                                 argument to receive the mock server's URL"
                            ),
                        });
                    }
                    let served =
                        over_http::serve(recording.clone(), server, self.protection()).await?;
                    let args = args
                        .iter()
                        .map(|a| a.replace(URL_PLACEHOLDER, &served.url))
                        .collect();
                    let spawned = ChildProcess::spawn(&launch(program, args))?;
                    let _stderr = StderrTail::spawn_reader(spawned.stderr);
                    let process = spawned.process;
                    process.wait_for_exit(self.session).await;
                    process.shutdown(Duration::from_millis(100)).await;
                    drop(served);
                }
            }
            Transport::Sse => unreachable!("a client is checked over stdio or Streamable HTTP"),
        }
        drop(canary);
        Ok(self
            .report(command_line.to_owned(), &recording, started)
            .await)
    }

    /// The authorization server's setup, when the run is protected.
    #[cfg(feature = "http-mock")]
    fn protection(&self) -> Option<ClientRegistration> {
        self.protected.then(|| self.registration.clone())
    }

    async fn report(
        &self,
        target: String,
        recording: &Recording,
        started: Instant,
    ) -> ConformanceReport {
        let mut transcript = Transcript::of(&recording.events()).await;
        transcript.registration = self.registration.clone();
        let selected = self
            .selection
            .select(Role::Client)
            .expect("the selection was checked before the session");
        let results = selected
            .into_iter()
            .map(|id| {
                let check = id.check();
                let (finding, evidence) = if check.applies.includes(self.transport) {
                    id.judge(&transcript)
                } else {
                    let other = match check.applies {
                        Applies::Http => "Streamable HTTP; this client is checked over stdio",
                        Applies::Sse => "a server reached over the legacy HTTP+SSE transport",
                        _ => "stdio; this client is checked over Streamable HTTP",
                    };
                    (
                        Observed::CannotApply(
                            CannotApply::Transport,
                            format!("the rule is for {other}"),
                        ),
                        Vec::new(),
                    )
                };
                result(id, self.transport, &finding, evidence, Duration::ZERO)
            })
            .collect();
        self.selection.report(
            target,
            Role::Client,
            self.transport,
            Vec::new(),
            results,
            started,
        )
    }
}

/// How the client command starts: as given, nothing else set.
fn launch(program: String, args: Vec<String>) -> Launch {
    Launch {
        program,
        args,
        env: Vec::new(),
        current_dir: None,
    }
}

/// The recording server's canary listener and the server pointing at it.
async fn recording_server(recording: &Arc<Recording>) -> Result<(Canary, RecordingServer), Error> {
    let canary = Canary::start(recording.clone()).await?;
    let server = RecordingServer {
        canary_url: Arc::from(canary.url.as_str()),
    };
    Ok((canary, server))
}

/// Lets the recording server's tasks drain what the client sent last, then
/// stops them.
async fn finish(tasks: Vec<tokio::task::JoinHandle<()>>) {
    let deadline = Instant::now() + Duration::from_secs(2);
    for task in &tasks {
        while !task.is_finished() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    for task in tasks {
        task.abort();
    }
}
