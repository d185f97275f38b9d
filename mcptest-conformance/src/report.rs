//! A conformance run's outcome: one result per check, rendered as a table
//! for a terminal, as JSON, or as the message of a failing test.

use std::{fmt, time::Duration};

use serde::Serialize;
use serde_json::Value;

use crate::model::{CheckResult, Exchange, RawResponse, Role, Transport};
use mcptest_core::ServerOutput;
use mcptest_core::expect::Evidence;
use mcptest_core::expect::Failure;
use mcptest_core::expect::Miss;
use mcptest_core::expect::Shown;
use mcptest_core::report::Counts;
use mcptest_core::report::Outcome;
use mcptest_core::report::Report;
use mcptest_core::report::Status;
use mcptest_core::report::TestResult;

/// Evidence lines longer than this are cut in the table and in failure
/// messages (the JSON report keeps them whole).
const SHOWN_CHARS: usize = 400;
/// At most this many exchanges are shown per check in the table.
const SHOWN_EXCHANGES: usize = 8;

/// The outcome of a conformance run.
///
/// `Display` renders the table, with the checks that cannot apply to the
/// server folded into one line per reason
/// ([`full_table`](ConformanceReport::full_table) keeps every row);
/// [`to_json`](ConformanceReport::to_json) the whole report with all evidence; [`assert_conforms`](ConformanceReport::assert_conforms) fails a
/// test when a MUST rule is broken.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct ConformanceReport {
    /// What was checked: the server's command line or URL, or the client's.
    pub target: String,
    /// Whether a server or a client was checked.
    pub role: Role,
    /// The transport the checks ran over.
    pub transport: Transport,
    /// The protocol revisions the server was found to speak, oldest first:
    /// the one `initialize` agreed on and those `server/discover` lists
    /// (empty for a client, and for a server that spoke neither).
    pub revisions: Vec<String>,
    /// One result per check, in catalogue order.
    pub results: Vec<CheckResult>,
    /// How long the whole run took.
    #[serde(skip)]
    pub elapsed: Duration,
}

impl ConformanceReport {
    /// Turns the statuses of the listed checks: a failure becomes an
    /// expected failure (a warning that does not fail the run), a pass or a
    /// warning becomes a failure that asks for the entry to be removed.
    pub(crate) fn apply_expected_failures(&mut self, listed: &[String]) {
        for result in &mut self.results {
            if !listed.iter().any(|id| id == result.rule.id) {
                continue;
            }
            match result.status {
                Status::Fail => {
                    result.status = Status::Warn;
                    result.expected_failure = true;
                    result.reason = Some(match result.reason.take() {
                        Some(reason) => format!("expected failure (listed): {reason}"),
                        None => "expected failure (listed)".to_owned(),
                    });
                }
                Status::Pass | Status::Warn => {
                    let now = match result.status {
                        Status::Pass => "passes",
                        _ => "only warns",
                    };
                    result.status = Status::Fail;
                    result.reason = Some(format!(
                        "{} is listed as an expected failure and now {now}: remove it from the list",
                        result.rule.id
                    ));
                }
                Status::Skip => {}
            }
        }
    }

    /// How many checks ended in each status.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for result in &self.results {
            counts.add(result.status);
        }
        counts
    }

    /// The result of the check with this id, if it ran.
    pub fn result(&self, id: &str) -> Option<&CheckResult> {
        self.results.iter().find(|r| r.rule.id == id)
    }

    /// The status of the check with this id, if it ran.
    pub fn status(&self, id: &str) -> Option<Status> {
        self.result(id).map(|r| r.status)
    }

    /// The results that broke a MUST rule.
    pub fn failures(&self) -> impl Iterator<Item = &CheckResult> {
        self.with(Status::Fail)
    }

    /// The results that broke a SHOULD rule.
    pub fn warnings(&self) -> impl Iterator<Item = &CheckResult> {
        self.with(Status::Warn)
    }

    fn with(&self, status: Status) -> impl Iterator<Item = &CheckResult> {
        self.results.iter().filter(move |r| r.status == status)
    }

    /// True when no MUST rule is broken (warnings and skips allowed).
    pub fn conforms(&self) -> bool {
        self.failures().next().is_none()
    }

    /// The report as JSON: target, role, transport, counts, and every result
    /// with its full evidence.
    pub fn to_json(&self) -> Value {
        let mut value = serde_json::to_value(self).expect("a report serializes");
        value["counts"] = serde_json::to_value(self.counts()).expect("counts serialize");
        value["elapsed_ms"] = u64::try_from(self.elapsed.as_millis())
            .unwrap_or(u64::MAX)
            .into();
        value
    }

    /// The table, the same as `to_string()`: one row per check, except the
    /// skipped checks that cannot apply to this server (a revision it does
    /// not speak, an extension it does not declare, a rule for the other
    /// transport), which fold into one line per reason with their count.
    pub fn table(&self) -> String {
        self.to_string()
    }

    /// The table with a row for every check, folded skips included (what
    /// `mcptest conformance --verbose` prints).
    ///
    /// ```
    /// use mcptest::{Server, conformance::Conformance};
    /// use mcptest::rmcp::ServerHandler;
    ///
    /// #[derive(Clone)]
    /// struct Minimal;
    /// impl ServerHandler for Minimal {}
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcptest::Error> {
    /// let report = Conformance::new(Server::in_process(Minimal))
    ///     .only(["classic-ping", "classic-http-*"])
    ///     .run()
    ///     .await?;
    /// // Over stdio the HTTP rules cannot apply: one line in the table...
    /// assert!(report.table().contains("checks: the rule is for Streamable HTTP"));
    /// // ...and a row each in the full table.
    /// assert!(report.full_table().contains("classic-http-dns-rebinding"));
    /// # Ok(()) }
    /// ```
    pub fn full_table(&self) -> String {
        let mut out = String::new();
        self.write_table(&mut out, false)
            .expect("writing to a String never fails");
        out
    }

    /// The summary line's words on the revisions: ` (speaks 2025-11-25 and
    /// 2026-07-28)`; empty for a client.
    fn speaks(&self) -> String {
        if self.role == Role::Client {
            return String::new();
        }
        match self.revisions.as_slice() {
            [] => " (speaks no revision mcptest checks)".to_owned(),
            [one] => format!(" (speaks {one})"),
            [rest @ .., last] => format!(" (speaks {} and {last})", rest.join(", ")),
        }
    }

    fn write_table(&self, f: &mut impl fmt::Write, fold: bool) -> fmt::Result {
        self.write_heading(f)?;
        let folded = |result: &CheckResult| {
            fold && result.status == Status::Skip && result.cannot_apply.is_some()
        };
        let rows: Vec<&CheckResult> = self.results.iter().filter(|r| !folded(r)).collect();
        // Four columns (PASS, FAIL, WARN, SKIP), five when an XFAIL is there.
        let status_width = rows
            .iter()
            .map(|r| status_of(r).len())
            .max()
            .unwrap_or(0)
            .max(4);
        self.write_rows(f, &rows, status_width)?;
        let skipped: Vec<&CheckResult> = self.results.iter().filter(|r| folded(r)).collect();
        write_folded(f, &skipped, status_width)
    }

    /// The line of counts, and how to read the evidence.
    fn write_heading(&self, f: &mut impl fmt::Write) -> fmt::Result {
        let counts = self.counts();
        let who = match self.role {
            Role::Server => "server",
            Role::Client => "client",
        };
        let expected = self.results.iter().filter(|r| r.expected_failure).count();
        let expected = match expected {
            0 => String::new(),
            n => format!(" ({n} of them expected failure{})", plural(n)),
        };
        writeln!(
            f,
            "MCP conformance of {who} {} over {}{}: {} checks, {} passed, {} failed, {} warning{}{expected}, {} skipped",
            self.target,
            self.transport,
            self.speaks(),
            self.results.len(),
            counts.passed,
            counts.failed,
            counts.warned,
            plural(counts.warned),
            counts.skipped
        )?;
        match self.role {
            Role::Server => writeln!(f, "(> sent by mcptest, < what came back)"),
            Role::Client => writeln!(f, "(> sent by the client, < the mock server's answer)"),
        }
    }

    /// One line per check, then for a check that did not pass its reason
    /// and (failed or warned) its evidence.
    fn write_rows(
        &self,
        f: &mut impl fmt::Write,
        rows: &[&CheckResult],
        status_width: usize,
    ) -> fmt::Result {
        let id_width = rows.iter().map(|r| r.rule.id.len()).max().unwrap_or(0);
        for result in rows {
            let status = status_of(result);
            let official = match result.official {
                [] => String::new(),
                ids => format!(" (official: {})", ids.join(", ")),
            };
            writeln!(
                f,
                "{:<status_width$}  {:<6}  {:<id_width$}  {} {}{official}",
                status,
                result.rule.level.to_string(),
                result.rule.id,
                result.rule.revision,
                result.rule.section,
            )?;
            if result.status == Status::Pass {
                continue;
            }
            let indent = "      ";
            if let Some(reason) = &result.reason {
                writeln!(f, "{indent}{reason}")?;
            }
            if matches!(result.status, Status::Fail | Status::Warn) {
                let mut text = String::new();
                write_evidence(
                    &mut text,
                    self.role,
                    &result.evidence,
                    indent,
                    SHOWN_EXCHANGES,
                );
                f.write_str(&text)?;
            }
        }
        Ok(())
    }

    /// The run as a [`Report`], the model every runner shares, for its
    /// JSON, JUnit and Markdown renderings: one result per check, named by
    /// its id, grouped by revision and section, with the level, revision,
    /// section and transport as properties. A failed or warned check's
    /// failure names the rule, the reason, and the exchanges it rests on.
    pub fn to_report(&self) -> Report {
        let who = match self.role {
            Role::Server => "server",
            Role::Client => "client",
        };
        let mut report = Report::new(format!(
            "MCP conformance of {who} {} over {}{}",
            self.target,
            self.transport,
            self.speaks()
        ))
        .with_duration(self.elapsed);
        for result in &self.results {
            let failure = || {
                let mut exchanges = String::new();
                write_evidence(&mut exchanges, self.role, &result.evidence, "", usize::MAX);
                let mut evidence = Evidence::new();
                if !exchanges.is_empty() {
                    evidence = evidence.actual(Shown::plain("exchanges", exchanges.trim_end()));
                }
                if let Some(reason) = &result.reason {
                    evidence = evidence.note(reason.clone());
                }
                Failure::new(
                    None,
                    vec![Miss::new(result.rule.rule, evidence)],
                    ServerOutput::default(),
                )
            };
            let outcome = match result.status {
                Status::Pass => Outcome::Pass,
                Status::Fail => Outcome::fail(failure()),
                Status::Warn => Outcome::warn(failure()),
                Status::Skip => Outcome::skip(result.reason.clone().unwrap_or_default()),
            };
            let mut test = TestResult::new(result.rule.id, outcome)
                .group(format!("{} {}", result.rule.revision, result.rule.section))
                .duration(result.elapsed)
                .property("level", result.rule.level.to_string())
                .property("revision", result.rule.revision)
                .property("section", result.rule.section)
                .property("transport", result.transport.to_string());
            if !result.official.is_empty() {
                test = test.property("official", result.official.join(" "));
            }
            if result.expected_failure {
                test = test.property("expected-failure", "true");
            }
            report.push(test);
        }
        report
    }

    /// Panics, listing every failed check with its evidence, when a MUST rule
    /// is broken. Warnings and skipped checks do not fail the test.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), mcptest::Error> {
    /// use mcptest::{Server, conformance::Conformance};
    ///
    /// let report = Conformance::new(Server::command("my-server")).run().await?;
    /// report.assert_conforms();
    /// # Ok(()) }
    /// ```
    #[track_caller]
    pub fn assert_conforms(&self) {
        if let Err(message) = self.check_conforms() {
            panic!("{message}");
        }
    }

    /// The `Result` form of [`assert_conforms`](Self::assert_conforms): the
    /// failure message as the error.
    pub fn check_conforms(&self) -> Result<(), String> {
        let failures: Vec<&CheckResult> = self.failures().collect();
        if failures.is_empty() {
            return Ok(());
        }
        let counts = self.counts();
        let mut message = format!(
            "{} breaks {} MUST rule{} of the MCP spec over {} ({} passed, {} warning{}, {} skipped):\n",
            self.target,
            failures.len(),
            plural(failures.len()),
            self.transport,
            counts.passed,
            counts.warned,
            plural(counts.warned),
            counts.skipped
        );
        for result in failures {
            message.push('\n');
            message.push_str(&format!(
                "FAIL {} ({} {})\n  rule: {}\n",
                result.rule.id, result.rule.revision, result.rule.section, result.rule.rule
            ));
            if let Some(reason) = &result.reason {
                message.push_str(&format!("  why:  {reason}\n"));
            }
            write_evidence(&mut message, self.role, &result.evidence, "  ", usize::MAX);
        }
        Err(message)
    }
}

/// A check's status in the table: `XFAIL` for an expected failure.
fn status_of(result: &CheckResult) -> String {
    match result.expected_failure {
        true => "XFAIL".to_owned(),
        false => result.status.to_string(),
    }
}

/// The checks that cannot apply, one line per reason (with their count),
/// in the order the reasons first come.
fn write_folded(
    f: &mut impl fmt::Write,
    skipped: &[&CheckResult],
    status_width: usize,
) -> fmt::Result {
    let mut groups: Vec<(&str, usize)> = Vec::new();
    for result in skipped {
        let reason = result.reason.as_deref().unwrap_or_default();
        match groups.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, count)) => *count += 1,
            None => groups.push((reason, 1)),
        }
    }
    let count_width = groups
        .iter()
        .map(|(_, n)| n.to_string().len())
        .max()
        .unwrap_or(0);
    for (reason, count) in &groups {
        writeln!(
            f,
            "{:<status_width$}  {count:>count_width$} check{}: {reason}",
            Status::Skip.to_string(),
            plural(*count),
        )?;
    }
    if !groups.is_empty() {
        writeln!(
            f,
            "(the checks that cannot apply, one line per reason: full_table() or --verbose lists each)"
        )?;
    }
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl fmt::Display for ConformanceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_table(f, true)
    }
}

fn write_evidence(out: &mut String, role: Role, evidence: &[Exchange], indent: &str, max: usize) {
    for exchange in evidence.iter().take(max) {
        let headers: Vec<String> = exchange
            .request
            .headers
            .iter()
            .map(|(n, v)| format!("{n}: {v}"))
            .collect();
        // Over HTTP+SSE the raw stream's own exchanges (a GET, a POST with
        // its headers) are shown as HTTP; the bridged messages as lines.
        let as_http = match exchange.transport {
            Transport::Http => true,
            Transport::Sse => {
                exchange.request.method.is_some() || !exchange.request.headers.is_empty()
            }
            Transport::Stdio => false,
        };
        if as_http {
            let method = exchange.request.method.unwrap_or("POST");
            let what = match role {
                Role::Server => method.to_owned(),
                Role::Client => format!("client {method}"),
            };
            if headers.is_empty() {
                out.push_str(&format!("{indent}> {what}\n"));
            } else {
                out.push_str(&format!("{indent}> {what} {}\n", headers.join(", ")));
            }
            if !exchange.request.body.is_empty() {
                out.push_str(&format!("{indent}  {}\n", shorten(&exchange.request.body)));
            }
        } else {
            out.push_str(&format!("{indent}> {}\n", shorten(&exchange.request.body)));
        }
        match &exchange.response {
            RawResponse::Messages { messages, dropped } => {
                for message in messages {
                    out.push_str(&format!("{indent}< {}\n", shorten(&message.to_string())));
                }
                if *dropped > 0 {
                    out.push_str(&format!(
                        "{indent}< … and {dropped} more messages, counted, not kept\n"
                    ));
                }
                if messages.is_empty() {
                    out.push_str(&format!("{indent}< (nothing)\n"));
                }
            }
            RawResponse::Http {
                status,
                content_type,
                messages,
                body,
            } => {
                let kind = content_type.as_deref().unwrap_or("no content type");
                out.push_str(&format!("{indent}< HTTP {status} {kind}\n"));
                for message in messages {
                    out.push_str(&format!("{indent}  {}\n", shorten(&message.to_string())));
                }
                if let Some(body) = body.as_deref().filter(|b| !b.trim().is_empty()) {
                    out.push_str(&format!("{indent}  {}\n", shorten(body.trim())));
                }
            }
            RawResponse::Nothing { waited_ms } => {
                out.push_str(&format!("{indent}< (nothing within {waited_ms} ms)\n"));
            }
            RawResponse::Failed { error } => {
                out.push_str(&format!("{indent}< (failed: {error})\n"));
            }
        }
    }
    if evidence.len() > max {
        out.push_str(&format!(
            "{indent}… {} more exchange{} in the JSON report\n",
            evidence.len() - max,
            plural(evidence.len() - max)
        ));
    }
}

fn shorten(text: &str) -> String {
    let text = text.replace('\n', "\\n");
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}… ({} more bytes)", &text[..cut], text.len() - cut),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::CheckId;
    use crate::model::{CannotApply, RawRequest};
    use serde_json::json;

    fn result(id: CheckId, status: Status, reason: Option<&str>) -> CheckResult {
        CheckResult {
            rule: *id.check(),
            transport: Transport::Stdio,
            status,
            reason: reason.map(str::to_owned),
            cannot_apply: None,
            evidence: vec![Exchange {
                transport: Transport::Stdio,
                request: RawRequest {
                    method: None,
                    headers: Vec::new(),
                    body: r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.into(),
                },
                response: RawResponse::Nothing { waited_ms: 10_000 },
            }],
            official: crate::official::official_ids(id.check().id),
            expected_failure: false,
            elapsed: Duration::from_millis(3),
        }
    }

    fn report() -> ConformanceReport {
        ConformanceReport {
            target: "demo-server".into(),
            role: Role::Server,
            transport: Transport::Stdio,
            revisions: vec!["2025-11-25".into()],
            results: vec![
                result(CheckId::ClassicInitializeResult, Status::Pass, None),
                result(
                    CheckId::ClassicPing,
                    Status::Fail,
                    Some("ping was not answered"),
                ),
                result(CheckId::ClassicInvalidJson, Status::Warn, Some("dropped")),
                result(
                    CheckId::ClassicPagination,
                    Status::Skip,
                    Some("no list has pages"),
                ),
            ],
            elapsed: Duration::from_millis(20),
        }
    }

    #[test]
    fn the_table_lists_every_check_and_evidence_for_problems() {
        let table = report().table();
        assert!(table.starts_with(
            "MCP conformance of server demo-server over stdio (speaks 2025-11-25): 4 checks, 1 passed, 1 failed, 1 warning, 1 skipped\n"
        ), "{table}");
        assert!(table.contains("FAIL  MUST    classic-ping "), "{table}");
        assert!(table.contains("      ping was not answered\n      > {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n      < (nothing within 10000 ms)\n"), "{table}");
        assert!(
            table.contains("SKIP  MUST    classic-pagination"),
            "{table}"
        );
        assert!(table.contains("      no list has pages\n"), "{table}");
    }

    #[test]
    fn evidence_says_how_many_messages_were_counted_and_not_kept() {
        let mut report = report();
        report.results[1].evidence[0].response = RawResponse::Messages {
            messages: vec![json!({"jsonrpc": "2.0", "method": "notifications/message"})],
            dropped: 4_000,
        };
        let table = report.table();
        assert!(
            table.contains("      < … and 4000 more messages, counted, not kept\n"),
            "{table}"
        );
    }

    #[test]
    fn checks_that_cannot_apply_fold_into_one_line_per_reason() {
        let mut report = report();
        for (id, why, reason) in [
            (
                CheckId::StatelessDiscover,
                CannotApply::Revision,
                "no 2026-07-28",
            ),
            (
                CheckId::StatelessMetaRequired,
                CannotApply::Revision,
                "no 2026-07-28",
            ),
            (
                CheckId::Sep2243MethodHeader,
                CannotApply::Transport,
                "HTTP only",
            ),
        ] {
            let mut skipped = result(id, Status::Skip, Some(reason));
            skipped.cannot_apply = Some(why);
            report.results.push(skipped);
        }
        report.revisions = vec!["2025-11-25".into(), "2026-07-28".into()];
        let table = report.table();
        assert!(
            table.contains("(speaks 2025-11-25 and 2026-07-28): 7 checks"),
            "{table}"
        );
        assert!(
            table.contains("\nSKIP  2 checks: no 2026-07-28\n"),
            "{table}"
        );
        assert!(table.contains("\nSKIP  1 check: HTTP only\n"), "{table}");
        assert!(!table.contains("sep-2575-discover"), "{table}");
        // A skip for want of something to check keeps its row.
        assert!(
            table.contains("SKIP  MUST    classic-pagination"),
            "{table}"
        );
        let full = report.full_table();
        assert!(full.contains("sep-2575-discover"), "{full}");
        assert!(!full.contains("2 checks: no 2026-07-28"), "{full}");
        let json = report.to_json();
        assert_eq!(json["results"][4]["cannot_apply"], "revision");
        assert_eq!(json["revisions"], json!(["2025-11-25", "2026-07-28"]));
        assert_eq!(report.to_report().results.len(), 7);
    }

    #[test]
    fn assert_conforms_lists_each_failure_with_its_evidence() {
        let report = report();
        assert!(!report.conforms());
        let message = report.check_conforms().unwrap_err();
        assert!(message.starts_with("demo-server breaks 1 MUST rule of the MCP spec over stdio (1 passed, 1 warning, 1 skipped):"), "{message}");
        assert!(
            message.contains(
                "FAIL classic-ping (2025-11-25 basic/utilities/ping#behavior-requirements)"
            ),
            "{message}"
        );
        assert!(
            message.contains("  why:  ping was not answered\n  > {\"jsonrpc\""),
            "{message}"
        );
        assert!(!message.contains("classic-invalid-json"), "{message}");
        let passing = ConformanceReport {
            results: vec![result(CheckId::ClassicPing, Status::Warn, Some("x"))],
            ..report
        };
        passing.assert_conforms();
    }

    #[test]
    #[should_panic(expected = "FAIL classic-ping")]
    fn assert_conforms_panics_on_failure() {
        report().assert_conforms();
    }

    #[test]
    fn json_has_counts_and_full_evidence() {
        let json = report().to_json();
        assert_eq!(
            json["counts"],
            json!({"passed": 1, "failed": 1, "warned": 1, "skipped": 1})
        );
        assert_eq!(json["results"][1]["check"]["id"], "classic-ping");
        assert_eq!(json["results"][1]["status"], "fail");
        assert_eq!(
            json["results"][1]["evidence"][0]["response"],
            json!({"kind": "nothing", "waited_ms": 10000})
        );
        assert_eq!(json["results"][1]["elapsed_ms"], 3);
    }

    #[test]
    fn official_ids_show_in_the_table_the_json_and_the_report() {
        let report = report();
        let table = report.table();
        assert!(
            table.contains("basic/utilities/ping#behavior-requirements (official: ping)\n"),
            "{table}"
        );
        let json = report.to_json();
        assert_eq!(json["results"][1]["official"], json!(["ping"]));
        assert_eq!(json["results"][3]["official"], json!([]));
        let shared = report.to_report();
        let ping = shared.result("classic-ping").unwrap();
        assert_eq!(ping.property_value("official"), Some("ping"));
        let pages = shared.result("classic-pagination").unwrap();
        assert_eq!(pages.property_value("official"), None);
    }

    #[test]
    fn expected_failures_turn_failures_into_warnings_and_passes_into_failures() {
        let mut report = report();
        report.apply_expected_failures(&[
            "classic-ping".into(),
            "classic-initialize-result".into(),
            "classic-pagination".into(),
        ]);
        let ping = report.result("classic-ping").unwrap();
        assert_eq!(ping.status, Status::Warn);
        assert!(ping.expected_failure);
        assert_eq!(
            ping.reason.as_deref(),
            Some("expected failure (listed): ping was not answered")
        );
        let init = report.result("classic-initialize-result").unwrap();
        assert_eq!(init.status, Status::Fail);
        assert!(!init.expected_failure);
        assert_eq!(
            init.reason.as_deref(),
            Some(
                "classic-initialize-result is listed as an expected failure and now passes: \
                 remove it from the list"
            )
        );
        assert_eq!(report.status("classic-pagination"), Some(Status::Skip));
        let table = report.table();
        assert!(table.contains("XFAIL  MUST    classic-ping "), "{table}");
        assert!(
            table.contains("2 warnings (1 of them expected failure), "),
            "{table}"
        );
        // Every row keeps the same columns as the XFAIL one.
        let column = |id: &str| {
            let line = table.lines().find(|l| l.contains(id)).unwrap();
            line.find(id).unwrap()
        };
        assert_eq!(
            column("classic-ping "),
            column("classic-pagination "),
            "{table}"
        );
        let shared = report.to_report();
        let ping = shared.result("classic-ping").unwrap();
        assert_eq!(ping.property_value("expected-failure"), Some("true"));
        assert_eq!(ping.status(), Status::Warn);
        assert!(!report.conforms());
    }

    #[test]
    fn long_lines_are_cut_with_a_count() {
        let long = "x".repeat(SHOWN_CHARS + 10);
        assert_eq!(
            shorten(&long),
            format!("{}… (10 more bytes)", "x".repeat(SHOWN_CHARS))
        );
        assert_eq!(shorten("a\nb"), "a\\nb");
    }
}
