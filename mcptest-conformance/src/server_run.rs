//! The server run: [`Conformance`] gathers what the checks need (the
//! server, timeouts, tools to call), learns the server's revisions, runs
//! each selected check from the catalogue in turn and reports.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::catalogue::CheckId;
use crate::model::{Applies, CannotApply, CheckResult, Observed, RawResponse, Role};
use crate::report::ConformanceReport;
use crate::selection::{Selection, result, selection_methods};
use crate::server_checks::facts::Facts;
use crate::support::probe::{Probe, Settings};
use mcptest_core::{Error, Server};

/// Runs server checks against a [`Server`] and reports rule by rule.
///
/// A server started by command (or in-process) is checked over stdio, a
/// [`Server::url`] over Streamable HTTP; rules for the other transport are
/// skipped. The server's own options apply (environment, working
/// directory, headers, bearer token).
///
/// ```
/// use mcptest::{Server, conformance::Conformance, report::Status};
/// use mcptest::rmcp::ServerHandler;
///
/// #[derive(Clone)]
/// struct Minimal;
/// impl ServerHandler for Minimal {}
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcptest::Error> {
/// let report = Conformance::new(Server::in_process(Minimal))
///     .only(["classic-initialize-result", "classic-ping", "sep-2575-unknown-method"])
///     .run()
///     .await?;
/// assert_eq!(report.status("classic-ping"), Some(Status::Pass));
/// assert_eq!(report.status("sep-2575-unknown-method"), Some(Status::Pass));
/// report.assert_conforms();
/// # Ok(()) }
/// ```
///
/// Over HTTP, with the checks that need a named tool:
///
/// ```no_run
/// # async fn demo() -> Result<(), mcptest::Error> {
/// use mcptest::{Server, conformance::Conformance, report::Status};
/// use serde_json::json;
///
/// let report = Conformance::new(Server::url("http://127.0.0.1:3001/mcp"))
///     .only(["sep-2575-*"])
///     .capability_tool("confirm_delete", json!({"path": "a.txt"}))
///     .run()
///     .await?;
/// assert_eq!(report.status("sep-2575-unknown-method"), Some(Status::Pass));
/// println!("{}", report.to_json());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Conformance {
    server: Server,
    settings: Settings,
    selection: Selection,
}

impl Conformance {
    /// Checks for `server`; every server check unless filtered.
    pub fn new(server: Server) -> Self {
        Conformance {
            server,
            settings: Settings::default(),
            selection: Selection::default(),
        }
    }

    selection_methods! {
        /// Checks known to fail, by exact id: a listed check that fails is
        /// reported as an expected failure (a warning marked `XFAIL`, so the
        /// run still conforms), and a listed check that passes (or only warns)
        /// fails the run, asking for it to be taken off the list — the list can
        /// only shrink as the server is fixed. A listed check that is skipped
        /// or not selected stays as it is. An id that is no check is an error.
        ///
        /// ```no_run
        /// # async fn demo() -> Result<(), mcptest::Error> {
        /// use mcptest::{Server, conformance::Conformance};
        ///
        /// let report = Conformance::new(Server::command("my-server"))
        ///     .expected_failures(["classic-invalid-json"])
        ///     .run()
        ///     .await?;
        /// report.assert_conforms(); // a listed failure does not fail it
        /// # Ok(()) }
        /// ```
    }

    /// How long to wait for each answer (default 10 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.settings.timeout = timeout;
        self
    }

    /// How long to listen for messages that must not come, e.g. log
    /// notifications after a request without a log level (default 500 ms).
    pub fn quiet_period(mut self, quiet: Duration) -> Self {
        self.settings.quiet = quiet;
        self
    }

    /// A tool that needs a client capability (elicitation, sampling, roots)
    /// and arguments for it: `sep-2575-missing-client-capability` calls it
    /// without declaring any and expects -32021. Without one the check is
    /// skipped.
    pub fn capability_tool(mut self, name: impl Into<String>, arguments: Value) -> Self {
        self.settings.capability_tool = Some((name.into(), arguments));
        self
    }

    /// A tool that sends log messages, and arguments for it:
    /// `sep-2575-no-log-without-level` calls it without a log level and
    /// expects no `notifications/message`. Without one the check is skipped.
    pub fn log_tool(mut self, name: impl Into<String>, arguments: Value) -> Self {
        self.settings.log_tool = Some((name.into(), arguments));
        self
    }

    /// A tool that needs input from the client, and arguments for it: the
    /// input-required checks (SEP-2322, `sep-2322-*`) call it with every
    /// client capability declared and expect `resultType: "input_required"`.
    /// Without one they look for a candidate among the server's tools and
    /// prompts (the capability tool, then those whose description mentions
    /// elicitation, sampling, roots or confirmation and that take no
    /// required arguments), and are skipped when none asks for input.
    pub fn input_tool(mut self, name: impl Into<String>, arguments: Value) -> Self {
        self.settings.input_tool = Some((name.into(), arguments));
        self
    }

    /// A tool whose call changes the server's tool list, and arguments for
    /// it: the `subscriptions/listen` checks call it while a listen stream is
    /// open and expect `notifications/tools/list_changed` there only when the
    /// stream asked for it. Without one they look for a tool whose
    /// description mentions list changes and that takes no required
    /// arguments, and the checks that need a change are skipped when there
    /// is none.
    pub fn list_change_tool(mut self, name: impl Into<String>, arguments: Value) -> Self {
        self.settings.list_change_tool = Some((name.into(), arguments));
        self
    }

    /// A tool whose call changes the server's prompt list, and arguments for
    /// it: `sep-2575-listen-prompts-list-changed` calls it while a listen
    /// stream that asked for prompt list changes is open and expects
    /// `notifications/prompts/list_changed` there. Without one it looks for
    /// a tool whose description says it changes the prompt list, and is
    /// skipped when there is none.
    pub fn prompt_change_tool(mut self, name: impl Into<String>, arguments: Value) -> Self {
        self.settings.prompt_change_tool = Some((name.into(), arguments));
        self
    }

    /// A tool whose call updates the server's resources, and arguments for
    /// it: `sep-2575-listen-resource-updated` calls it while a listen stream
    /// subscribed to the first listed resources is open and expects
    /// `notifications/resources/updated` for them there. Without one it
    /// looks for a tool whose description says it updates resources, and is
    /// skipped when there is none.
    pub fn resource_update_tool(mut self, name: impl Into<String>, arguments: Value) -> Self {
        self.settings.resource_update_tool = Some((name.into(), arguments));
        self
    }

    /// A tool that reports progress, and arguments for it:
    /// `sep-2575-progress` calls it with a progress token and judges the
    /// `notifications/progress` that come before its answer. Without one a
    /// tool whose description mentions progress is used, and the check is
    /// skipped when there is none.
    pub fn progress_tool(mut self, name: impl Into<String>, arguments: Value) -> Self {
        self.settings.progress_tool = Some((name.into(), arguments));
        self
    }

    /// A tool that runs as a task (the tasks extension, SEP-2663), and
    /// arguments for it: the `sep-2663-*` checks call it with the extension
    /// declared and expect `resultType: "task"`, then poll, cancel and call
    /// it without the extension. Without one they look for a listed tool
    /// that declares `execution.taskSupport` or whose description speaks of
    /// tasks, taking no required arguments, and are skipped when none makes
    /// a task. Name a tool that finishes within the check timeout.
    pub fn task_tool(mut self, name: impl Into<String>, arguments: Value) -> Self {
        self.settings.task_tool = Some((name.into(), arguments));
        self
    }

    /// Runs the checks, one after the other, and reports.
    ///
    /// Fails only when the checks cannot run at all: a bad filter, a server
    /// that cannot be started, a URL no connection can be made to (refused,
    /// unknown host) or an unusable configuration. Everything a server that
    /// answers does wrong is in the report.
    pub async fn run(self) -> Result<ConformanceReport, Error> {
        let started = Instant::now();
        let selected = self.selection.select(Role::Server)?;
        let mut probe = self.probe().await?;
        let transport = probe.transport;
        let facts = Facts::learn(&mut probe).await?;
        let limit = self
            .settings
            .timeout
            .saturating_mul(12)
            .max(Duration::from_secs(60));
        let mut results = Vec::new();
        for id in selected {
            results.push(run_one(id, &mut probe, &facts, limit).await);
        }
        Ok(self.selection.report(
            self.server.to_string(),
            Role::Server,
            transport,
            facts.revisions(),
            results,
            started,
        ))
    }

    /// The probe of the run, once the server is known to be reachable.
    async fn probe(&self) -> Result<Probe, Error> {
        // A grant given to the server is run once, up front: the checks
        // see a server with its token, and the authorization checks keep
        // the credentials to ask for tokens of their own.
        #[cfg(feature = "http")]
        let (server, credentials) = (
            self.server.clone().authorize().await?,
            self.server.credentials().cloned(),
        );
        #[cfg(not(feature = "http"))]
        let server = self.server.clone();
        #[allow(unused_mut)]
        let mut probe = Probe::new(server, self.settings.clone())?;
        #[cfg(feature = "http")]
        {
            probe.credentials = credentials;
        }
        // Nothing listening is no status on the server: every check would
        // fail for the same reason, none of them the server's.
        #[cfg(feature = "http")]
        if let Some(http) = probe.raw_http() {
            http.reachable().await?;
        }
        #[cfg(feature = "http")]
        if let Some(sse) = probe.raw_sse() {
            sse.reachable().await?;
        }
        Ok(probe)
    }
}

/// Runs one check within `limit`, closes what it opened, and reports it
/// with its evidence: a broken rule whose evidence shows the connection
/// failing is a crash.
async fn run_one(id: CheckId, probe: &mut Probe, facts: &Facts, limit: Duration) -> CheckResult {
    let check = id.check();
    let started = Instant::now();
    let transport = probe.transport;
    let finding = if !check.applies.includes(transport) {
        Observed::CannotApply(
            CannotApply::Transport,
            format!(
                "the rule is for {}; this server is reached over {}",
                applies_text(check.applies),
                probe.reached_over()
            ),
        )
    } else {
        match tokio::time::timeout(limit, id.run(probe, facts)).await {
            Ok(finding) => finding,
            Err(_) => Observed::Broken(format!(
                "the check did not finish within {}",
                mcptest_core::__support::fmt_duration(limit)
            )),
        }
    };
    probe.close_all().await;
    let evidence = probe.take_evidence();
    let crashed = evidence
        .iter()
        .any(|e| matches!(e.response, RawResponse::Failed { .. }));
    let finding = match finding {
        Observed::Broken(reason) if crashed => Observed::Crashed(reason),
        other => other,
    };
    result(id, transport, &finding, evidence, started.elapsed())
}

fn applies_text(applies: Applies) -> &'static str {
    match applies {
        Applies::Any => "any transport",
        Applies::Stdio => "stdio",
        Applies::Http => "Streamable HTTP",
        Applies::Sse => "the legacy HTTP+SSE transport",
    }
}
