//! Client checks: a client under test talks to a recording stateless mock
//! server; the checks judge what it sent.

mod checks;
mod mock;

use std::{
    future::Future,
    sync::Arc,
    time::{Duration, Instant},
};

use tokio::io::DuplexStream;

use super::{
    ConformanceReport, Filter,
    check::{Applies, CannotApply, CheckResult, Observed, Role, Transport},
};
use mcptest_core::__support::process::ChildProcess;
use mcptest_core::__support::process::Launch;
use mcptest_core::__support::process::split_command;
use mcptest_core::Error;
use mock::{Canary, MockHandler, Recording};

/// Stands for the mock server's URL in a client's command line.
pub const URL_PLACEHOLDER: &str = "{{url}}";

/// How an in-process client reaches the mock server.
#[derive(Debug)]
#[non_exhaustive]
pub enum MockLink {
    /// Newline-delimited JSON-RPC over this pipe, as over a server's stdio:
    /// write requests to it, read the mock's answers from it.
    Stdio(DuplexStream),
    /// Streamable HTTP at this URL (`http://127.0.0.1:<port>/mcp`).
    Http {
        /// The mock server's endpoint.
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
    filter: Filter,
    label: Option<String>,
    expected_failures: Vec<String>,
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
            filter: Filter::default(),
            label: None,
            expected_failures: Vec::new(),
        }
    }

    /// Checks a client over Streamable HTTP; the mock listens on 127.0.0.1.
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

    /// Runs only the client checks whose id matches one of `patterns` (an
    /// exact id, or a prefix ending in `*`).
    pub fn only<I, S>(mut self, patterns: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.filter
            .only
            .extend(patterns.into_iter().map(Into::into));
        self
    }

    /// Leaves out the client checks whose id matches one of `patterns`.
    pub fn except<I, S>(mut self, patterns: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.filter
            .except
            .extend(patterns.into_iter().map(Into::into));
        self
    }

    /// Checks known to fail, by exact id, as
    /// [`Conformance::expected_failures`](super::Conformance::expected_failures):
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
    pub fn expected_failures<I, S>(mut self, ids: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.expected_failures
            .extend(ids.into_iter().map(Into::into));
        self
    }

    /// How the report names the client.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Runs `client` against the mock and reports. The session ends when the
    /// closure's future completes (or the session limit passes).
    pub async fn run_in_process<F, Fut>(self, client: F) -> Result<ConformanceReport, Error>
    where
        F: FnOnce(MockLink) -> Fut,
        Fut: Future<Output = ()>,
    {
        let started = Instant::now();
        self.filter.select(Role::Client)?;
        super::report::check_listed_ids(&self.expected_failures)?;
        let recording = Arc::new(Recording::default());
        let (canary, server) = mock_server(&recording).await?;
        let label = self
            .label
            .clone()
            .unwrap_or_else(|| "in-process client".into());
        match self.transport {
            Transport::Stdio => {
                let (ours, theirs) = tokio::io::duplex(256 * 1024);
                let (read, write) = tokio::io::split(ours);
                let tasks = mock::serve_stdio(read, write, recording.clone(), server);
                let _ = tokio::time::timeout(self.session, client(MockLink::Stdio(theirs))).await;
                finish(tasks).await;
            }
            Transport::Http => {
                #[cfg(feature = "http-mock")]
                {
                    let server = mock::http::serve(recording.clone(), server).await?;
                    let link = MockLink::Http {
                        url: server.url.clone(),
                    };
                    let _ = tokio::time::timeout(self.session, client(link)).await;
                    drop(server);
                }
            }
        }
        drop(canary);
        Ok(self.report(label, &recording, started).await)
    }

    /// Runs the client command line (split like a shell, never run through
    /// one) against the mock and reports. Over stdio the client's stdin and
    /// stdout are connected to the mock; over HTTP `{{url}}` in its
    /// arguments is replaced by the mock's URL. The session ends when the
    /// client exits (or the session limit passes: then it is killed).
    pub async fn run_command(self, command_line: &str) -> Result<ConformanceReport, Error> {
        let started = Instant::now();
        self.filter.select(Role::Client)?;
        super::report::check_listed_ids(&self.expected_failures)?;
        let (program, args) = split_command(command_line)?;
        let recording = Arc::new(Recording::default());
        let (canary, server) = mock_server(&recording).await?;
        let label = self
            .label
            .clone()
            .unwrap_or_else(|| command_line.to_owned());
        match self.transport {
            Transport::Stdio => {
                let spawned = ChildProcess::spawn(&Launch {
                    program,
                    args,
                    env: Vec::new(),
                    current_dir: None,
                })?;
                let tasks =
                    mock::serve_stdio(spawned.stdout, spawned.stdin, recording.clone(), server);
                let _stderr =
                    mcptest_core::__support::process::StderrTail::spawn_reader(spawned.stderr);
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
                    let server = mock::http::serve(recording.clone(), server).await?;
                    let args = args
                        .iter()
                        .map(|a| a.replace(URL_PLACEHOLDER, &server.url))
                        .collect();
                    let spawned = ChildProcess::spawn(&Launch {
                        program,
                        args,
                        env: Vec::new(),
                        current_dir: None,
                    })?;
                    let _stderr =
                        mcptest_core::__support::process::StderrTail::spawn_reader(spawned.stderr);
                    let process = spawned.process;
                    process.wait_for_exit(self.session).await;
                    process.shutdown(Duration::from_millis(100)).await;
                    drop(server);
                }
            }
        }
        drop(canary);
        Ok(self.report(label, &recording, started).await)
    }

    async fn report(
        &self,
        target: String,
        recording: &Recording,
        started: Instant,
    ) -> ConformanceReport {
        let events = recording.events();
        let sent = checks::sent_messages(&events).await;
        let selected = self
            .filter
            .select(Role::Client)
            .expect("the filter was checked before the session");
        let results = selected
            .into_iter()
            .map(|id| {
                let check = id.check();
                let (finding, evidence) = if check.applies.includes(self.transport) {
                    checks::evaluate(id, &sent, &events)
                } else {
                    let other = match check.applies {
                        Applies::Http => "Streamable HTTP; this client is checked over stdio",
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
                let (status, reason) = finding.status(check.level);
                CheckResult {
                    rule: *check,
                    transport: self.transport,
                    status,
                    reason,
                    cannot_apply: finding.cannot_apply(),
                    evidence,
                    official: crate::official_ids(check.id),
                    expected_failure: false,
                    elapsed: Duration::ZERO,
                }
            })
            .collect();
        let mut report = ConformanceReport {
            target,
            role: Role::Client,
            transport: self.transport,
            revisions: Vec::new(),
            results,
            elapsed: started.elapsed(),
        };
        report.apply_expected_failures(&self.expected_failures);
        report
    }
}

/// The mock's canary listener and the mock server pointing at it.
async fn mock_server(recording: &Arc<Recording>) -> Result<(Canary, MockHandler), Error> {
    let canary = Canary::start(recording.clone()).await?;
    let server = MockHandler {
        canary_url: Arc::from(canary.url.as_str()),
    };
    Ok((canary, server))
}

/// Lets the mock's tasks drain what the client sent last, then stops them.
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
