//! Zero-config audit: does every tool survive being called at all?
//!
//! [`Audit`] lists the server's tools, builds one valid input for each from
//! its `inputSchema` ([`valid_input`]), calls it, and classifies what came
//! back as one [`report::TestResult`](mcptest_core::report::TestResult) per tool:
//!
//! | classification   | outcome | what happened |
//! |------------------|---------|---------------|
//! | `healthy`        | pass    | a result, `isError` or not (a tool may refuse an input; the server is fine) |
//! | `crash`          | fail    | the server died (exit status and stderr tail) or the connection broke |
//! | `timeout`        | fail    | no answer within the timeout |
//! | `protocol-error` | fail    | a JSON-RPC error, an answer that is no MCP result, or `structuredContent` that breaks the tool's `outputSchema` |
//! | `skipped`        | skip    | destructive (`annotations.destructiveHint: true`) or listed in [`skip`](Audit::skip) |
//!
//! Every failure uses the shared failure layout: the `tools/call` line with
//! the input that was sent, what was expected, what came back, the server's
//! stderr. Each tool's result carries the labels `classification`, `input`
//! (the JSON sent) and `pid` (the server process that answered, when it ran
//! as one).
//!
//! ```no_run
//! use mcptest::{Server, scan::audit::Audit};
//!
//! #[tokio::test]
//! async fn every_tool_survives_a_call() {
//!     Audit::new(Server::command("my-server --stdio")).assert_healthy().await;
//! }
//! ```
//!
//! # One connection, restarted after a crash
//!
//! The tools are called one after another on one connection, like a client
//! would: one server start per audit keeps it fast, and a tool that breaks
//! only after another one ran (leaked state) is found too. After a crash, a
//! timeout or a broken connection the server is closed (killed and reaped)
//! and started afresh for the next tool, so one crash is counted once and
//! does not take the rest of the audit down with it.
//! [`fresh_server_per_tool`](Audit::fresh_server_per_tool) starts a new server
//! for every tool instead, when tools must not see each other's effects.

pub(crate) mod input;

use std::{collections::BTreeSet, fmt, time::Instant};

use rmcp::model::Tool;
use serde_json::{Value, json};

pub use input::{input_problems, valid_input};

use mcptest_core::McpClient;

use mcptest_core::ToolCall;

use mcptest_core::ToolOutcome;

use mcptest_core::Error;

use mcptest_core::expect;

use mcptest_core::expect::Evidence;

use mcptest_core::expect::Failure;

use mcptest_core::expect::Miss;

use mcptest_core::expect::Shown;

use mcptest_core::expect::Subject;

use mcptest_core::report::Outcome;

use mcptest_core::report::Report;

use mcptest_core::report::TestResult;

use mcptest_core::Server;

use crate::failure::failure_of_error;
use crate::target::{Target, listing_failed, target_methods};

/// The label every tool's result carries: `healthy`, `crash`, `timeout`,
/// `protocol-error` or `skipped`.
pub const CLASSIFICATION: &str = "classification";

/// How an audited tool call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Classification {
    /// The server answered with a result (`isError` or not).
    Healthy,
    /// The server died or the connection broke.
    Crash,
    /// No answer within the timeout.
    Timeout,
    /// A JSON-RPC error, an answer that is no MCP result, or
    /// `structuredContent` that breaks the `outputSchema`.
    ProtocolError,
    /// Not called: destructive, or on the skip list.
    Skipped,
}

impl Classification {
    /// The label's value: `healthy`, `crash`, `timeout`, `protocol-error`,
    /// `skipped`.
    ///
    /// ```
    /// use mcptest::scan::audit::Classification;
    /// assert_eq!(Classification::ProtocolError.as_str(), "protocol-error");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Classification::Healthy => "healthy",
            Classification::Crash => "crash",
            Classification::Timeout => "timeout",
            Classification::ProtocolError => "protocol-error",
            Classification::Skipped => "skipped",
        }
    }

    /// The classification an audit gave `result`, read from its label.
    ///
    /// ```
    /// use mcptest::scan::audit::{CLASSIFICATION, Classification};
    /// use mcptest::report::{Outcome, TestResult};
    ///
    /// let result = TestResult::new("echo", Outcome::Pass).property(CLASSIFICATION, "healthy");
    /// assert_eq!(Classification::of(&result), Some(Classification::Healthy));
    /// ```
    pub fn of(result: &TestResult) -> Option<Classification> {
        Some(match result.property_value(CLASSIFICATION)? {
            "healthy" => Classification::Healthy,
            "crash" => Classification::Crash,
            "timeout" => Classification::Timeout,
            "protocol-error" => Classification::ProtocolError,
            "skipped" => Classification::Skipped,
            _ => return None,
        })
    }
}

impl fmt::Display for Classification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How many audited tools were healthy, unhealthy and skipped.
///
/// ```
/// use mcptest::scan::audit::{CLASSIFICATION, Score};
/// use mcptest::report::{Outcome, Report, TestResult};
///
/// let mut report = Report::new("audit");
/// report.push(TestResult::new("a", Outcome::Pass).property(CLASSIFICATION, "healthy"));
/// report.push(TestResult::new("b", Outcome::error("an answer", "it crashed")).property(CLASSIFICATION, "crash"));
/// let score = Score::of(&report);
/// assert_eq!(score.ratio(), Some(0.5));
/// assert_eq!(score.to_string(), "1 of 2 tools healthy (50%)");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Score {
    /// Tools that answered.
    pub healthy: usize,
    /// Tools that crashed the server, timed out or broke the protocol.
    pub unhealthy: usize,
    /// Tools that were not called.
    pub skipped: usize,
}

impl Score {
    /// The score of an audit's report (results without a classification,
    /// such as a failed `tools/list`, are not tools and not counted).
    pub fn of(report: &Report) -> Score {
        let mut score = Score::default();
        for result in &report.results {
            match Classification::of(result) {
                Some(Classification::Healthy) => score.healthy += 1,
                Some(Classification::Skipped) => score.skipped += 1,
                Some(_) => score.unhealthy += 1,
                None => {}
            }
        }
        score
    }

    /// Healthy tools as a share of the tools called, `None` when none was.
    pub fn ratio(&self) -> Option<f64> {
        let called = self.healthy + self.unhealthy;
        (called > 0).then(|| self.healthy as f64 / called as f64)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let called = self.healthy + self.unhealthy;
        write!(f, "{} of {called} tools healthy", self.healthy)?;
        if let Some(ratio) = self.ratio() {
            write!(f, " ({:.0}%)", ratio * 100.0)?;
        }
        if self.skipped > 0 {
            write!(f, ", {} skipped", self.skipped)?;
        }
        Ok(())
    }
}

/// Calls every tool of a server once with an input built from its schema,
/// and reports which ones the server survives. See the [module](self) docs.
///
/// ```no_run
/// # async fn demo() {
/// use std::time::Duration;
/// use mcptest::{Server, scan::audit::{Audit, Score}};
///
/// let report = Audit::new(Server::command("my-server --stdio"))
///     .timeout(Duration::from_secs(5))
///     .skip(["send_email"])
///     .run()
///     .await;
/// println!("{report}\n{}", Score::of(&report));
/// report.assert_passed();
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Audit {
    target: Target,
    skip: BTreeSet<String>,
    fresh_per_tool: bool,
}

impl Audit {
    /// An audit of `server`.
    ///
    /// ```
    /// use mcptest::{Server, scan::audit::Audit};
    /// let audit = Audit::new(Server::command("my-server --stdio"));
    /// ```
    pub fn new(server: Server) -> Self {
        Audit {
            target: Target::new(server),
            skip: BTreeSet::new(),
            fresh_per_tool: false,
        }
    }

    target_methods! {
        timeout:
        /// How long each tool call may take [default: the server's timeout].
        ///
        /// ```
        /// # use mcptest::{Server, scan::audit::Audit};
        /// # use std::time::Duration;
        /// let audit = Audit::new(Server::command("my-server")).timeout(Duration::from_secs(2));
        /// ```
        include_destructive:
        /// Also call tools annotated `destructiveHint: true` (skipped by default).
        ///
        /// ```
        /// # use mcptest::{Server, scan::audit::Audit};
        /// let audit = Audit::new(Server::command("my-server")).include_destructive(true);
        /// ```
    }

    /// Tools not to call (reported as skipped). A name the server does not
    /// list is reported as a warning, so a typo does not go unnoticed.
    ///
    /// ```
    /// # use mcptest::{Server, scan::audit::Audit};
    /// let audit = Audit::new(Server::command("my-server")).skip(["delete_all", "send_email"]);
    /// ```
    pub fn skip<I, S>(mut self, tools: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.skip.extend(tools.into_iter().map(Into::into));
        self
    }

    /// Start a new server for every tool instead of sharing one connection
    /// (restarted only after a crash or timeout).
    ///
    /// ```
    /// # use mcptest::{Server, scan::audit::Audit};
    /// let audit = Audit::new(Server::command("my-server")).fresh_server_per_tool(true);
    /// ```
    pub fn fresh_server_per_tool(mut self, fresh: bool) -> Self {
        self.fresh_per_tool = fresh;
        self
    }

    /// Runs the audit: one result per tool, in the server's order. A server
    /// that does not start or cannot list its tools is one failed result
    /// named `tools/list`; a server with no tools fails too (nothing was
    /// audited).
    pub async fn run(&self) -> Report {
        let started = Instant::now();
        let mut report = Report::new(format!("audit of {}", self.target.server));
        self.run_into(&mut report).await;
        report.with_duration(started.elapsed())
    }

    /// Runs the audit and panics with every unhealthy tool in full unless
    /// each tool called was healthy; returns the report otherwise.
    ///
    /// ```no_run
    /// # async fn demo() {
    /// use mcptest::{Server, scan::audit::Audit};
    /// Audit::new(Server::command("my-server --stdio")).assert_healthy().await;
    /// # }
    /// ```
    #[track_caller]
    pub fn assert_healthy(&self) -> impl Future<Output = Report> + '_ {
        let caller = std::panic::Location::caller();
        async move {
            let report = self.run().await;
            if let Err(message) = report.check_passed() {
                panic!(
                    "{message}\n{}\n(audit asserted at {caller})",
                    Score::of(&report)
                );
            }
            report
        }
    }

    async fn run_into(&self, report: &mut Report) {
        let listing_started = Instant::now();
        let (mut mcp, tools) = match self.target.connect_and_list().await {
            Ok((mcp, tools)) => (Some(mcp), tools),
            Err(error) => {
                report.push(listing_failed(&error, "audit").duration(listing_started.elapsed()));
                return;
            }
        };
        if tools.is_empty() {
            report.push(
                TestResult::new(
                    "tools/list",
                    Outcome::error(
                        "the server lists at least one tool to audit",
                        "tools/list returned no tools",
                    ),
                )
                .group("audit"),
            );
        }
        for name in &self.skip {
            if !tools.iter().any(|t| t.name == name.as_str()) {
                let known: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
                report.push(
                    TestResult::new(
                        format!("skip {name}"),
                        Outcome::warn(Failure::new(
                            None,
                            vec![Miss::new(
                                format!("tool {name:?}, listed to be skipped, exists"),
                                Evidence::new().note(format!(
                                    "the server lists no such tool; it lists {}",
                                    known.join(", ")
                                )),
                            )],
                            Default::default(),
                        )),
                    )
                    .group("audit"),
                );
            }
        }
        for (index, tool) in tools.iter().enumerate() {
            if let Some(reason) = self.skip_reason(tool) {
                report.push(
                    TestResult::new(tool.name.as_ref(), Outcome::skip(reason))
                        .group("tools")
                        .property(CLASSIFICATION, Classification::Skipped.as_str()),
                );
                continue;
            }
            if mcp.is_none() || (self.fresh_per_tool && index > 0) {
                if let Some(old) = mcp.take() {
                    old.close().await;
                }
                match self.target.server.connect().await {
                    Ok(client) => mcp = Some(client),
                    Err(error) => {
                        report.push(
                            TestResult::new(
                                tool.name.as_ref(),
                                Outcome::fail(failure_of_error(
                                    None,
                                    "the server starts again for this tool",
                                    &error,
                                )),
                            )
                            .group("tools")
                            .property(CLASSIFICATION, Classification::Crash.as_str()),
                        );
                        continue;
                    }
                }
            }
            let client = mcp.as_ref().expect("connected above");
            let (result, broken) = self.audit_tool(client, tool).await;
            report.push(result);
            if broken && let Some(old) = mcp.take() {
                old.close().await;
            }
        }
        if let Some(client) = mcp {
            client.close().await;
        }
    }

    fn skip_reason(&self, tool: &Tool) -> Option<String> {
        if self.skip.contains(tool.name.as_ref()) {
            return Some("listed to be skipped".into());
        }
        self.target.spares(tool).then(|| {
            "destructive (annotations.destructiveHint: true); include it with \
             include_destructive(true) or --include-destructive"
                .to_owned()
        })
    }

    /// Calls `tool` once; the result, and whether the connection is broken
    /// (the server must be restarted for the next tool).
    async fn audit_tool(&self, mcp: &McpClient, tool: &Tool) -> (TestResult, bool) {
        let schema = Value::Object((*tool.input_schema).clone());
        let input = valid_input(&schema);
        let problems = input_problems(&schema, &input);
        let pid = mcp.pid();
        let call = self.target.call(mcp, tool, input.clone()).await;
        let (classification, outcome) = classify(&call, &problems);
        let broken = matches!(
            classification,
            Classification::Crash | Classification::Timeout
        );
        let mut result = TestResult::new(tool.name.as_ref(), outcome)
            .group("tools")
            .duration(call.elapsed())
            .property(CLASSIFICATION, classification.as_str())
            .property("input", input.to_string());
        if let Some(pid) = pid {
            result = result.property("pid", pid.to_string());
        }
        (result, broken)
    }
}

/// The classification of one audited call, and its outcome with evidence.
pub(crate) fn classify(call: &ToolCall, input_problems: &[String]) -> (Classification, Outcome) {
    let note_input = |evidence: Evidence| {
        if input_problems.is_empty() {
            evidence
        } else {
            evidence.note(format!(
                "the generated input does not satisfy the inputSchema, so the server may \
                 rightly reject it: {}",
                input_problems.join("; ")
            ))
        }
    };
    let fail = |expected: &str, evidence: Evidence| {
        Outcome::fail(Failure::new(
            call.call(),
            vec![Miss::new(expected, note_input(evidence))],
            call.server_output(),
        ))
    };
    match call.outcome() {
        ToolOutcome::ToolError(_) => (Classification::Healthy, Outcome::Pass),
        ToolOutcome::Success(_) => {
            let declares_output = call.tool().is_some_and(|t| t.output_schema.is_some());
            if !declares_output {
                return (Classification::Healthy, Outcome::Pass);
            }
            match expect::run(call, &expect::matches_output_schema()) {
                Ok(()) => (Classification::Healthy, Outcome::Pass),
                Err(failure) => (Classification::ProtocolError, Outcome::fail(failure)),
            }
        }
        ToolOutcome::RpcError(error) => (
            Classification::ProtocolError,
            fail(
                "a tool result (isError or not), not a JSON-RPC error",
                Evidence::new().actual(Shown::json(
                    "JSON-RPC error",
                    json!({"code": error.code, "message": error.message, "data": error.data}),
                )),
            ),
        ),
        ToolOutcome::Failed(error) => {
            let (classification, expected) = match error {
                Error::Timeout { .. } => (Classification::Timeout, "an answer within the timeout"),
                // Alive but stuck: it never read the call.
                error if error.is_stopped_reading() => {
                    (Classification::Timeout, "an answer within the timeout")
                }
                Error::ServerExited { .. } | Error::Transport { .. } => {
                    (Classification::Crash, "the server survives the call")
                }
                Error::JsonRpc { .. } | Error::Protocol { .. } => {
                    (Classification::ProtocolError, "a valid tools/call result")
                }
                _ => (Classification::Crash, "the call reaches the server"),
            };
            let mut failure = failure_of_error(call.call(), expected, error);
            if !input_problems.is_empty() {
                let miss = failure.misses()[0].clone();
                failure = Failure::new(
                    failure.call().map(str::to_owned),
                    vec![Miss::new(
                        miss.expected(),
                        note_input(miss.evidence().clone()),
                    )],
                    failure.server_output().clone(),
                );
            }
            (classification, Outcome::fail(failure))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rmcp::model::{CallToolResult, ContentBlock};

    use super::*;

    fn tool(schema: Value, output: Option<Value>) -> Tool {
        let mut tool: Tool = serde_json::from_value(json!({
            "name": "t", "inputSchema": schema,
        }))
        .unwrap();
        tool.output_schema = output.map(|o| std::sync::Arc::new(o.as_object().unwrap().clone()));
        tool
    }

    #[test]
    fn a_tool_error_is_healthy() {
        let call = ToolCall::from_parts(
            "t",
            json!({}),
            ToolOutcome::ToolError(CallToolResult::error(vec![ContentBlock::text("no")])),
        );
        assert_eq!(classify(&call, &[]).0, Classification::Healthy);
    }

    #[test]
    fn a_json_rpc_error_is_a_protocol_error_with_the_input_and_the_error() {
        let call = ToolCall::from_parts(
            "t",
            json!({"a": 1}),
            ToolOutcome::RpcError(mcptest_core::RpcError {
                code: -32603,
                message: "boom".into(),
                data: None,
            }),
        );
        let (classification, outcome) = classify(&call, &["at /a: bad".into()]);
        assert_eq!(classification, Classification::ProtocolError);
        let text = outcome.failure().unwrap().to_string();
        assert!(text.contains("tools/call t"), "{text}");
        assert!(text.contains("\"a\""), "{text}");
        assert!(text.contains("boom"), "{text}");
        assert!(text.contains("does not satisfy the inputSchema"), "{text}");
    }

    #[test]
    fn structured_content_that_breaks_the_output_schema_is_a_protocol_error() {
        let output =
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        let bad = CallToolResult::structured(json!({"n": "x"}));
        let call = ToolCall::from_parts("t", json!({}), ToolOutcome::Success(bad))
            .with_tool(tool(json!({"type": "object"}), Some(output.clone())));
        let (classification, outcome) = classify(&call, &[]);
        assert_eq!(classification, Classification::ProtocolError);
        assert!(
            outcome
                .failure()
                .unwrap()
                .to_string()
                .contains("outputSchema")
        );
        let good = CallToolResult::structured(json!({"n": 1}));
        let call = ToolCall::from_parts("t", json!({}), ToolOutcome::Success(good))
            .with_tool(tool(json!({"type": "object"}), Some(output)));
        assert_eq!(classify(&call, &[]).0, Classification::Healthy);
    }

    #[test]
    fn a_timeout_and_an_exit_are_told_apart() {
        let timeout = ToolCall::from_parts(
            "t",
            json!({}),
            ToolOutcome::Failed(Error::Timeout {
                method: "tools/call".into(),
                after: Duration::from_secs(1),
                output: Default::default(),
            }),
        );
        assert_eq!(classify(&timeout, &[]).0, Classification::Timeout);
        let exited = ToolCall::from_parts(
            "t",
            json!({}),
            ToolOutcome::Failed(Error::ServerExited {
                method: Some("tools/call".into()),
                status: None,
                output: Default::default(),
            }),
        );
        let (classification, outcome) = classify(&exited, &[]);
        assert_eq!(classification, Classification::Crash);
        assert!(
            outcome
                .failure()
                .unwrap()
                .to_string()
                .contains("exit status"),
            "{outcome:?}"
        );
    }

    #[test]
    fn skip_reasons() {
        let mut destructive = tool(json!({"type": "object"}), None);
        destructive.annotations =
            Some(serde_json::from_value(json!({"destructiveHint": true})).unwrap());
        let audit = Audit::new(Server::command("x"));
        assert!(
            audit
                .skip_reason(&destructive)
                .unwrap()
                .contains("destructive")
        );
        let audit = audit.include_destructive(true);
        assert_eq!(audit.skip_reason(&destructive), None);
        let audit = audit.skip(["t"]);
        assert_eq!(
            audit.skip_reason(&destructive).as_deref(),
            Some("listed to be skipped")
        );
    }
}
