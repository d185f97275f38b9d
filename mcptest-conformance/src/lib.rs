//! Protocol conformance: one call that says, rule by rule, where a server
//! (or a client) departs from the MCP spec — the classic revision
//! (2025-11-25, with its `initialize` handshake) and the stateless one
//! (2026-07-28, SEP-2575).
//!
//! Every check has a stable id, the spec revision and section it comes from,
//! and a level: a broken MUST rule is a failure, a broken SHOULD rule a
//! warning. A check that does not apply is skipped with the reason (a server
//! that does not speak 2026-07-28 gets every SEP-2575 check skipped, saying
//! what `server/discover` was answered with). Each status carries its
//! evidence: the exact requests sent and what came back, HTTP status
//! included.
//!
//! Checks speak raw JSON-RPC — over stdio each check starts a fresh server,
//! over HTTP each request is sent with exactly the headers the rule needs —
//! because what they probe (missing `_meta`, malformed JSON, contradicting
//! headers) is what a well-behaved client never sends.
//!
//! ```no_run
//! use mcptest::{Server, conformance::Conformance};
//!
//! #[tokio::test]
//! async fn my_server_conforms() -> Result<(), mcptest::Error> {
//!     let report = Conformance::new(Server::program(env!("CARGO_BIN_EXE_my-server")))
//!         .except(["classic-invalid-json"])
//!         .run()
//!         .await?;
//!     println!("{report}"); // the table
//!     report.assert_conforms(); // fails listing each broken MUST rule and its evidence
//!     Ok(())
//! }
//! ```
//!
//! Clients are checked against a recording mock server with
//! [`ClientConformance`].

#![warn(missing_docs)]
// Sampling, roots and logging are deprecated by SEP-2577 in rmcp, but the
// classic revisions have them, so their checks do too.
#![allow(deprecated)]

mod adaptive;
mod auth;
mod catalogue;
mod check;
mod classic;
mod client;
mod features;
mod gates;
mod http;
mod listen;
mod mrtr;
mod official;
mod probe;
mod report;
mod skills;
mod stateless;
mod tasks;
mod wire;

use std::time::{Duration, Instant};

use serde_json::Value;

pub use catalogue::catalogue;

/// Messages kept as the evidence of one exchange (and handed to its checks):
/// the first this many; the rest are read and counted
/// ([`RawResponse::Messages`]'s `dropped`), so a server that floods
/// notifications before its answer cannot grow a conformance run.
pub const EVIDENCE_KEPT: usize = 1_000;
pub use check::{
    Applies, CannotApply, CheckResult, Exchange, Level, RawRequest, RawResponse, Role, Rule,
    Transport,
};
#[doc(hidden)]
pub use client::NeedsHttpMock;
pub use client::{ClientConformance, MockLink, URL_PLACEHOLDER};
pub use official::{official_ids, ours_for_official};
pub use report::ConformanceReport;

use mcptest_core::Error;

use catalogue::CheckId;
use check::Observed;
use gates::Facts;
use mcptest_core::Server;
use probe::{Probe, Settings};

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
    filter: Filter,
    label: Option<String>,
    expected_failures: Vec<String>,
}

impl Conformance {
    /// Checks for `server`; every server check unless filtered.
    pub fn new(server: Server) -> Self {
        Conformance {
            server,
            settings: Settings::default(),
            filter: Filter::default(),
            label: None,
            expected_failures: Vec::new(),
        }
    }

    /// Runs only the checks whose id matches one of `patterns`: an exact id,
    /// or a prefix ending in `*` (`"sep-2575-*"`).
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

    /// Leaves out the checks whose id matches one of `patterns` (as in
    /// [`only`](Self::only)).
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
    pub fn expected_failures<I, S>(mut self, ids: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.expected_failures
            .extend(ids.into_iter().map(Into::into));
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

    /// How the report names the server (default: its command line or URL).
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
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
        let selected = self.filter.select(Role::Server)?;
        report::check_listed_ids(&self.expected_failures)?;
        let target = self
            .label
            .clone()
            .unwrap_or_else(|| self.server.to_string());
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
        let transport = probe.transport;
        let facts = Facts::learn(&mut probe).await?;
        let limit = self
            .settings
            .timeout
            .saturating_mul(12)
            .max(Duration::from_secs(60));
        let mut results = Vec::new();
        for id in selected {
            let check = id.check();
            let check_started = Instant::now();
            let finding = if !check.applies.includes(transport) {
                Observed::CannotApply(
                    CannotApply::Transport,
                    format!("the rule is for {}", applies_text(check.applies)),
                )
            } else {
                match tokio::time::timeout(limit, id.run(&mut probe, &facts)).await {
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
            let (status, reason) = finding.status(check.level);
            results.push(CheckResult {
                rule: *check,
                transport,
                status,
                reason,
                cannot_apply: finding.cannot_apply(),
                evidence,
                official: official_ids(check.id),
                expected_failure: false,
                elapsed: check_started.elapsed(),
            });
        }
        let mut report = ConformanceReport {
            target,
            role: Role::Server,
            transport,
            revisions: facts.revisions(),
            results,
            elapsed: started.elapsed(),
        };
        report.apply_expected_failures(&self.expected_failures);
        Ok(report)
    }
}

fn applies_text(applies: Applies) -> &'static str {
    match applies {
        Applies::Any => "any transport",
        Applies::Stdio => "stdio; this server is reached over HTTP",
        Applies::Http => "Streamable HTTP; this server is reached over stdio",
    }
}

/// Which checks a run includes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Filter {
    only: Vec<String>,
    except: Vec<String>,
}

impl Filter {
    fn matches(pattern: &str, id: &str) -> bool {
        match pattern.strip_suffix('*') {
            Some(prefix) => id.starts_with(prefix),
            None => pattern == id,
        }
    }

    /// The checks of `role` the filter lets through, in catalogue order.
    /// A pattern that matches no check at all is an error: it is a typo.
    pub(crate) fn select(&self, role: Role) -> Result<Vec<CheckId>, Error> {
        for pattern in self.only.iter().chain(&self.except) {
            if !catalogue().iter().any(|c| Self::matches(pattern, c.id)) {
                return Err(Error::InvalidConfig {
                    message: format!(
                        "no conformance check matches {pattern:?}; ids look like \
                         \"classic-ping\" or \"sep-2575-unknown-method\", and a pattern may \
                         end in * (\"sep-2575-*\")"
                    ),
                });
            }
        }
        Ok(CheckId::ALL
            .iter()
            .copied()
            .filter(|id| id.check().role == role)
            .filter(|id| {
                let check_id = id.check().id;
                (self.only.is_empty() || self.only.iter().any(|p| Self::matches(p, check_id)))
                    && !self.except.iter().any(|p| Self::matches(p, check_id))
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_take_exact_ids_and_prefixes() {
        let filter = Filter {
            only: vec!["sep-2575-*".into(), "classic-ping".into()],
            except: vec!["sep-2575-http-*".into()],
        };
        let ids: Vec<&str> = filter
            .select(Role::Server)
            .unwrap()
            .iter()
            .map(|id| id.check().id)
            .collect();
        assert!(ids.contains(&"classic-ping"));
        assert!(ids.contains(&"sep-2575-unknown-method"));
        assert!(!ids.contains(&"sep-2575-http-header-mismatch"));
        assert!(!ids.contains(&"classic-ping-x"));
        assert!(!ids.iter().any(|id| id.starts_with("sep-2575-client-")));
    }

    #[test]
    fn a_pattern_that_matches_nothing_is_an_error() {
        let filter = Filter {
            only: vec!["clasic-ping".into()],
            except: Vec::new(),
        };
        let err = filter.select(Role::Server).unwrap_err();
        assert!(
            err.to_string()
                .contains("no conformance check matches \"clasic-ping\""),
            "{err}"
        );
    }
}
