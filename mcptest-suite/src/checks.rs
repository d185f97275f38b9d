//! mcp-assert's `expect` block compiled into checks of [`mcptest_core::expect`]:
//! the text checks are the fluent ones (`contains` is
//! [`expect::text_contains`], `equals` is [`expect::text_eq`], ...); what only
//! mcp-assert means (`json_path` compared as text, `min_results`, files
//! relative to the working directory, `file_unchanged`, `min_progress`, ...)
//! are a few [`Check`] impls of their own here. Checked in mcp-assert's
//! order; the first that fails is reported, under the key it came from.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::judged::Judged;
use mcptest_core::__support::quoted;
use mcptest_core::__support::quoted_list;
use mcptest_core::LogLevel;
use mcptest_core::ServerMessages;
use mcptest_core::expect;
use mcptest_core::expect::Check;
use mcptest_core::expect::Evidence;
use mcptest_core::expect::Miss;
use mcptest_core::expect::Polarity;
use mcptest_core::expect::Shown;
use mcptest_core::expect::Verdict;
use mcptest_suite_format::assertion::{
    Expect, LoggingBlock, NotificationsBlock, TraceEntry, TrajectoryCheck,
};

/// A check of an answer, whatever the lifetime of the answer.
type AnswerCheck = Box<dyn for<'a> Check<Judged<'a>> + Send + Sync>;

/// A check under the `expect` key it was written as: `text contains "a"
/// (contains)`.
struct Keyed<C> {
    key: &'static str,
    check: C,
}

impl<S: ?Sized, C: Check<S>> Check<S> for Keyed<C> {
    fn describe(&self, polarity: Polarity) -> String {
        format!("{} ({})", self.check.describe(polarity), self.key)
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        self.check.evaluate(subject)
    }
}

/// A check of what the server sent on its own.
type LogCheck = Box<dyn Check<ServerMessages> + Send + Sync>;

fn keyed_log<C>(key: &'static str, check: C) -> LogCheck
where
    C: Check<ServerMessages> + Send + Sync + 'static,
{
    Box::new(Keyed { key, check })
}

/// A level by its name, as the loader checked it (one of
/// [`LOG_LEVELS`](mcptest_suite_format::assertion::LOG_LEVELS)).
pub(crate) fn log_level(name: &str) -> LogLevel {
    serde_json::from_value(Value::String(name.to_owned()))
        .expect("the loader accepts only the names of LOG_LEVELS, each a LogLevel")
}

/// The checks of an `assert_logging` block's `expect`, in mcp-assert's
/// order, on everything the server sent.
pub(crate) fn logging(block: &LoggingBlock) -> Vec<LogCheck> {
    let mut checks = Vec::new();
    if let Some(min) = block.min_messages {
        checks.push(keyed_log("min_messages", MinLogMessages(min)));
    }
    for level in &block.contains_level {
        checks.push(keyed_log(
            "contains_level",
            expect::log_level_seen(log_level(level)),
        ));
    }
    for needle in &block.contains_data {
        checks.push(keyed_log("contains_data", LogDataContains(needle.clone())));
    }
    checks
}

/// The checks of an `assert_notifications` block's `expect`, in
/// mcp-assert's order, on the notifications the server sent (its requests
/// to the client left out).
pub(crate) fn notifications(block: &NotificationsBlock) -> Vec<LogCheck> {
    let mut checks = Vec::new();
    if let Some(min) = block.min_count {
        checks.push(keyed_log("min_count", expect::notification_count(min..)));
    }
    if let Some(max) = block.max_count {
        checks.push(keyed_log("max_count", expect::notification_count(..=max)));
    }
    for method in &block.methods {
        checks.push(keyed_log("methods", expect::seen(method.clone())));
    }
    for method in &block.not_methods {
        checks.push(keyed_log(
            "not_methods",
            expect::not(expect::seen(method.clone())),
        ));
    }
    for needle in &block.contains_data {
        checks.push(keyed_log(
            "contains_data",
            expect::any_params_contain(needle.clone()),
        ));
    }
    for needle in &block.not_contains_data {
        checks.push(keyed_log(
            "not_contains_data",
            expect::not(expect::any_params_contain(needle.clone())),
        ));
    }
    checks
}

fn keyed<C>(key: &'static str, check: C) -> AnswerCheck
where
    C: for<'a> Check<Judged<'a>> + Send + Sync + 'static,
{
    Box::new(Keyed { key, check })
}

/// Generates [`compile`] from the one table of `expect` keys: each key's
/// checks come from the builder of the same name in [`build`], in the
/// table's order (mcp-assert's).
macro_rules! define_compile {
    ($($key:ident: $reader:ident,)*) => {
        /// The checks of an `expect` block, in the order mcp-assert checks them.
        pub(crate) fn compile(expect: &Expect) -> Vec<AnswerCheck> {
            let mut checks: Vec<AnswerCheck> = Vec::new();
            $(build::$key(expect, &mut checks);)*
            checks
        }
    };
}

mcptest_suite_format::expect_keys!(define_compile);

/// Each `expect` key's check builder, named after the key: what the key's
/// value becomes (nothing when it is unset).
mod build {
    use super::*;

    pub(super) fn not_error(e: &Expect, out: &mut Vec<AnswerCheck>) {
        if e.not_error {
            out.push(keyed("not_error", expect::not(IsError)));
        }
    }

    pub(super) fn is_error(e: &Expect, out: &mut Vec<AnswerCheck>) {
        if e.is_error {
            out.push(keyed("is_error", IsError));
        }
    }

    pub(super) fn not_empty(e: &Expect, out: &mut Vec<AnswerCheck>) {
        if e.not_empty {
            out.push(keyed("not_empty", expect::not_empty()));
        }
    }

    pub(super) fn equals(e: &Expect, out: &mut Vec<AnswerCheck>) {
        if let Some(want) = &e.equals {
            out.push(keyed("equals", expect::text_eq(want.clone())));
        }
    }

    pub(super) fn contains(e: &Expect, out: &mut Vec<AnswerCheck>) {
        for needle in &e.contains {
            out.push(keyed("contains", expect::text_contains(needle.clone())));
        }
    }

    pub(super) fn contains_any(e: &Expect, out: &mut Vec<AnswerCheck>) {
        if !e.contains_any.is_empty() {
            out.push(keyed(
                "contains_any",
                expect::text_contains_any(e.contains_any.clone()),
            ));
        }
    }

    /// The text must exist before its absence of a needle means anything.
    pub(super) fn not_contains(e: &Expect, out: &mut Vec<AnswerCheck>) {
        if !e.not_contains.is_empty() {
            out.push(keyed("not_contains", HasSomeText(e.not_contains.clone())));
        }
        for needle in &e.not_contains {
            out.push(keyed(
                "not_contains",
                expect::not(expect::text_contains(needle.clone())),
            ));
        }
    }

    pub(super) fn matches_regex(e: &Expect, out: &mut Vec<AnswerCheck>) {
        for (_, regex) in &e.matches_regex {
            // The loader compiled it already; this compiles the same pattern.
            out.push(keyed("matches_regex", expect::text_matches(regex.as_str())));
        }
    }

    pub(super) fn json_path(e: &Expect, out: &mut Vec<AnswerCheck>) {
        for (path, want) in &e.json_path {
            out.push(keyed(
                "json_path",
                JsonPathText {
                    path: path.clone(),
                    want: want.clone(),
                },
            ));
        }
    }

    /// `min_results` and `max_results` are one check of the count.
    pub(super) fn min_results(e: &Expect, out: &mut Vec<AnswerCheck>) {
        let key = match (e.min_results, e.max_results) {
            (None, None) => return,
            (Some(_), Some(_)) => "min_results, max_results",
            (Some(_), None) => "min_results",
            (None, Some(_)) => "max_results",
        };
        out.push(keyed(
            key,
            ResultCount {
                min: e.min_results,
                max: e.max_results,
            },
        ));
    }

    /// Checked together with `min_results`, in its check.
    pub(super) fn max_results(_: &Expect, _: &mut Vec<AnswerCheck>) {}

    pub(super) fn net_delta(e: &Expect, out: &mut Vec<AnswerCheck>) {
        if let Some(want) = e.net_delta {
            out.push(keyed("net_delta", NetDelta(want)));
        }
    }

    pub(super) fn file_contains(e: &Expect, out: &mut Vec<AnswerCheck>) {
        for (path, needle) in &e.file_contains {
            out.push(keyed(
                "file_contains",
                FileText {
                    path: path.clone(),
                    needle: needle.clone(),
                },
            ));
        }
    }

    pub(super) fn file_not_contains(e: &Expect, out: &mut Vec<AnswerCheck>) {
        for (path, needle) in &e.file_not_contains {
            out.push(keyed(
                "file_not_contains",
                expect::not(FileText {
                    path: path.clone(),
                    needle: needle.clone(),
                }),
            ));
        }
    }

    pub(super) fn file_not_exists(e: &Expect, out: &mut Vec<AnswerCheck>) {
        for path in &e.file_not_exists {
            out.push(keyed("file_not_exists", FileAbsent(path.clone())));
        }
    }

    pub(super) fn in_order(e: &Expect, out: &mut Vec<AnswerCheck>) {
        if !e.in_order.is_empty() {
            out.push(keyed("in_order", expect::text_in_order(e.in_order.clone())));
        }
    }

    pub(super) fn file_unchanged(e: &Expect, out: &mut Vec<AnswerCheck>) {
        for path in &e.file_unchanged {
            out.push(keyed("file_unchanged", FileUnchanged(path.clone())));
        }
    }

    pub(super) fn min_progress(e: &Expect, out: &mut Vec<AnswerCheck>) {
        if let Some(min) = e.min_progress {
            out.push(keyed("min_progress", MinProgress(min)));
        }
    }

    pub(super) fn plugin(e: &Expect, out: &mut Vec<AnswerCheck>) {
        for entry in &e.plugin {
            out.push(keyed("plugin", crate::plugin::check(entry)));
        }
    }
}

/// Runs the block's checks on `answer`; the first that fails is the miss.
pub(crate) fn check(expect: &Expect, answer: &Judged<'_>) -> Result<(), Miss> {
    first_miss(&compile(expect), answer)
}

/// Runs `checks` in order on `subject`; the first that fails is the miss
/// (mcp-assert reports one failure per assertion).
pub(crate) fn first_miss<S: ?Sized, C: Check<S>>(checks: &[C], subject: &S) -> Result<(), Miss> {
    for check in checks {
        let verdict = check.evaluate(subject);
        if !verdict.holds() {
            let mut misses = verdict.into_misses(|| check.describe(Polarity::Positive));
            if !misses.is_empty() {
                return Err(misses.remove(0));
            }
        }
    }
    Ok(())
}

/// A trajectory's check, judging the calls of a trace (inline or from an
/// audit log), in order.
pub(crate) struct Traced<'a>(pub(crate) &'a TrajectoryCheck);

impl Check<[TraceEntry]> for Traced<'_> {
    fn describe(&self, polarity: Polarity) -> String {
        let not = polarity.pick("", "not ");
        match self.0 {
            TrajectoryCheck::Order(tools) => {
                format!("the tools {tools:?} {not}called in this order (order)")
            }
            TrajectoryCheck::Presence(tools) => {
                format!(
                    "{}calls of {tools:?} (presence)",
                    polarity.pick("", "not all ")
                )
            }
            TrajectoryCheck::Absence(tools) => {
                format!(
                    "{} calls of {tools:?} (absence)",
                    polarity.pick("no", "some")
                )
            }
            TrajectoryCheck::ArgsContain { tool, args } => format!(
                "{} call of {tool:?} with arguments {} (args_contain)",
                polarity.pick("a", "no"),
                Value::Object(args.iter().cloned().collect())
            ),
        }
    }

    fn evaluate(&self, trace: &[TraceEntry]) -> Verdict {
        let names = format!(
            "[{}]",
            trace
                .iter()
                .map(|e| e.tool.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let calls = Evidence::new().actual(Shown::plain("calls", names));
        match self.0 {
            TrajectoryCheck::Order(tools) => {
                let mut next = 0;
                for entry in trace {
                    if next < tools.len() && entry.tool == tools[next] {
                        next += 1;
                    }
                }
                match next {
                    n if n == tools.len() => Verdict::pass(calls),
                    0 => Verdict::fail(calls.note(format!("{:?} was never called", tools[0]))),
                    n => Verdict::fail(calls.note(format!(
                        "{:?} was not called after {:?}",
                        tools[n],
                        tools[n - 1]
                    ))),
                }
            }
            TrajectoryCheck::Presence(tools) => {
                match tools.iter().find(|t| !trace.iter().any(|e| &e.tool == *t)) {
                    Some(missing) => {
                        Verdict::fail(calls.note(format!("{missing:?} was never called")))
                    }
                    None => Verdict::pass(calls),
                }
            }
            TrajectoryCheck::Absence(tools) => match trace.iter().find(|e| tools.contains(&e.tool))
            {
                Some(found) => Verdict::fail(calls.note(format!("{:?} was called", found.tool))),
                None => Verdict::pass(calls),
            },
            TrajectoryCheck::ArgsContain { tool, args } => {
                let Some(entry) = trace.iter().find(|e| &e.tool == tool) else {
                    return Verdict::fail(calls.note(format!("{tool:?} was never called")));
                };
                let shown = Evidence::new().actual(Shown::json("args", entry.args.clone()));
                for (key, want) in args {
                    match entry.args.get(key) {
                        None => {
                            return Verdict::fail(
                                shown.note(format!("it was called without {key:?}")),
                            );
                        }
                        Some(found) if as_compared(found) != as_compared(want) => {
                            return Verdict::fail(
                                shown.note(format!("{key:?} was {}", as_compared(found))),
                            );
                        }
                        Some(_) => {}
                    }
                }
                Verdict::pass(shown)
            }
        }
    }
}

/// `{{fixture}}` substituted; a relative path stays relative, so it resolves
/// against the working directory of the run (as mcp-assert resolves it), not
/// silently inside the fixture copy.
pub(crate) fn file_path(path: &str, fixture: Option<&Path>) -> PathBuf {
    PathBuf::from(super::substitute::fixture(path, fixture))
}

/// `is_error: true`; `not_error: true` is its negation.
struct IsError;

impl Check<Judged<'_>> for IsError {
    fn describe(&self, polarity: Polarity) -> String {
        polarity
            .pick("a result with isError: true", "a result without isError")
            .into()
    }
    /// What the tool said is the evidence: its text is why it failed (or
    /// what it answered instead of failing).
    fn evaluate(&self, answer: &Judged<'_>) -> Verdict {
        let label = format!("isError: {} with text", answer.is_error);
        let evidence = Evidence::new().actual(Shown::text(label, answer.text));
        Verdict::from_bool(answer.is_error, evidence)
    }
}

/// `not_contains` on a result without text checks nothing, so it fails.
struct HasSomeText(Vec<String>);

impl Check<Judged<'_>> for HasSomeText {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("not containing", "containing");
        format!("text {verb} {}", quoted_list(&self.0))
    }
    fn evaluate(&self, answer: &Judged<'_>) -> Verdict {
        if answer.text.is_empty() {
            Verdict::cannot_judge(
                Evidence::new().note("the result has no text, so there is nothing to check"),
            )
        } else {
            Verdict::pass(Evidence::new().actual(Shown::text("text", answer.text)))
        }
    }
}

/// `json_path: {"$.a.b": value}`: the value at the path, compared as text.
struct JsonPathText {
    path: String,
    want: Value,
}

impl Check<Judged<'_>> for JsonPathText {
    fn describe(&self, polarity: Polarity) -> String {
        format!(
            "{} {} {}, compared as text",
            self.path,
            polarity.pick("=", "!="),
            as_compared(&self.want)
        )
    }
    fn evaluate(&self, answer: &Judged<'_>) -> Verdict {
        let shown = Shown::text("text", answer.text);
        let Some(document) = json_document(answer.text) else {
            return Verdict::cannot_judge(
                Evidence::new()
                    .actual(shown)
                    .note("neither the text nor any of its lines is JSON"),
            );
        };
        match lookup(&document, &self.path) {
            Err(why) => Verdict::cannot_judge(Evidence::new().actual(shown).note(why)),
            Ok(found) => {
                let found = as_compared(found);
                let holds = found == as_compared(&self.want);
                Verdict::from_bool(
                    holds,
                    Evidence::new().actual(shown).note(format!("it is {found}")),
                )
            }
        }
    }
}

/// `min_results` / `max_results`: how many results the text lists.
struct ResultCount {
    min: Option<usize>,
    max: Option<usize>,
}

impl Check<Judged<'_>> for ResultCount {
    fn describe(&self, polarity: Polarity) -> String {
        match (self.min, self.max, polarity) {
            (Some(min), Some(max), p) => {
                format!("{}between {min} and {max} results", p.pick("", "not "))
            }
            (Some(min), None, p) => format!("{} {min} results", p.pick("at least", "fewer than")),
            (None, Some(max), p) => format!("{} {max} results", p.pick("at most", "more than")),
            (None, None, p) => p
                .pick("any number of results", "no number of results")
                .into(),
        }
    }
    fn evaluate(&self, answer: &Judged<'_>) -> Verdict {
        let evidence = Evidence::new().actual(Shown::text("text", answer.text));
        let Some(count) = result_count(answer.text) else {
            return Verdict::cannot_judge(evidence.note(
                "the text is neither a JSON array nor an object with an array under locations, \
                 items, results, references or symbols",
            ));
        };
        let holds =
            self.min.is_none_or(|min| count >= min) && self.max.is_none_or(|max| count <= max);
        Verdict::from_bool(holds, evidence.note(format!("there are {count}")))
    }
}

/// `net_delta: n`: the text is a JSON object whose `net_delta` is `n`.
struct NetDelta(i64);

impl Check<Judged<'_>> for NetDelta {
    fn describe(&self, polarity: Polarity) -> String {
        format!("net_delta {} {}", polarity.pick("=", "!="), self.0)
    }
    fn evaluate(&self, answer: &Judged<'_>) -> Verdict {
        let evidence = Evidence::new().actual(Shown::text("text", answer.text));
        let found = serde_json::from_str::<Value>(answer.text)
            .ok()
            .and_then(|v| v.get("net_delta").and_then(Value::as_f64));
        match found {
            None => Verdict::cannot_judge(
                evidence.note("the text is not a JSON object with a numeric net_delta"),
            ),
            Some(found) => Verdict::from_bool(
                found as i64 == self.0,
                evidence.note(format!("it is {found}")),
            ),
        }
    }
}

/// `file_contains`; `file_not_contains` is its negation. A file that cannot
/// be read fails either way.
struct FileText {
    path: String,
    needle: String,
}

impl Check<Judged<'_>> for FileText {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("to contain", "not to contain");
        format!("{} {verb} {}", self.path, quoted(&self.needle))
    }
    fn evaluate(&self, answer: &Judged<'_>) -> Verdict {
        let resolved = file_path(&self.path, answer.fixture);
        let label = resolved.display().to_string();
        match std::fs::read(&resolved) {
            Err(e) => {
                Verdict::cannot_judge(Evidence::new().note(format!("{label} cannot be read: {e}")))
            }
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let found = text.find(self.needle.as_str());
                let mut evidence = Evidence::new();
                if let Some(at) = found {
                    evidence = evidence.note(format!("it is there, at byte {at}"));
                }
                Verdict::from_bool(found.is_some(), evidence.actual(Shown::text(label, text)))
            }
        }
    }
}

/// `file_not_exists`.
struct FileAbsent(String);

impl Check<Judged<'_>> for FileAbsent {
    fn describe(&self, polarity: Polarity) -> String {
        format!("{} {} exist", self.0, polarity.pick("not to", "to"))
    }
    fn evaluate(&self, answer: &Judged<'_>) -> Verdict {
        let resolved = file_path(&self.0, answer.fixture);
        let label = resolved.display().to_string();
        match std::fs::symlink_metadata(&resolved) {
            Ok(_) => Verdict::fail(Evidence::new().actual(Shown::plain(label, "exists"))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Verdict::pass(Evidence::new().actual(Shown::plain(label, "does not exist")))
            }
            Err(e) => Verdict::cannot_judge(
                Evidence::new().note(format!("{label} cannot be checked: {e}")),
            ),
        }
    }
}

/// `file_unchanged`: the file as it was before the call, which it must have
/// been (a file that did not exist has nothing to compare).
struct FileUnchanged(String);

impl Check<Judged<'_>> for FileUnchanged {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("unchanged", "changed");
        format!("{} to be {verb} by the call", self.0)
    }
    fn evaluate(&self, answer: &Judged<'_>) -> Verdict {
        let resolved = file_path(&self.0, answer.fixture);
        let Some(before) = answer.snapshots.get(&self.0).cloned().flatten() else {
            return Verdict::cannot_judge(Evidence::new().note(format!(
                "{} did not exist before the call, so there is nothing to compare",
                resolved.display()
            )));
        };
        let after = std::fs::read(&resolved).ok();
        let describe = |c: Option<&[u8]>| match c {
            None => "(missing)".to_owned(),
            Some(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        };
        let holds = after.as_deref() == Some(before.as_slice());
        if holds {
            return Verdict::pass(
                Evidence::new().note(format!("{} is unchanged", resolved.display())),
            );
        }
        Verdict::fail(
            Evidence::new()
                .note(format!("{} changed", resolved.display()))
                .diff(describe(Some(&before)), describe(after.as_deref())),
        )
    }
}

/// `min_progress: n`: at least `n` progress notifications for the call.
struct MinProgress(usize);

impl Check<Judged<'_>> for MinProgress {
    fn describe(&self, polarity: Polarity) -> String {
        let bound = polarity.pick("at least", "fewer than");
        format!("{bound} {} progress notifications", self.0)
    }
    fn evaluate(&self, answer: &Judged<'_>) -> Verdict {
        let count = answer.progress.unwrap_or_default();
        Verdict::from_bool(
            answer.progress.is_some_and(|n| n >= self.0),
            Evidence::new().note(format!("{count} arrived")),
        )
    }
}

/// The log messages as mcp-assert compares them: `[level] data`, a line each.
fn log_lines(log: &ServerMessages) -> (usize, Shown) {
    let messages = log.log_messages();
    let lines: Vec<String> = messages
        .iter()
        .map(|m| format!("[{}] {}", m.level, log_data(&m.data)))
        .collect();
    let shown = if lines.is_empty() {
        Shown::plain("log messages", "none")
    } else {
        Shown::text("log messages", lines.join("\n"))
    };
    (messages.len(), shown)
}

/// A log message's data as text: a string as it is, anything else as JSON.
fn log_data(data: &Value) -> String {
    match data {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `min_messages: n`: at least `n` log messages.
struct MinLogMessages(usize);

impl Check<ServerMessages> for MinLogMessages {
    fn describe(&self, polarity: Polarity) -> String {
        let bound = polarity.pick("at least", "fewer than");
        format!("{bound} {} log messages", self.0)
    }
    fn evaluate(&self, log: &ServerMessages) -> Verdict {
        let (count, shown) = log_lines(log);
        Verdict::from_bool(
            count >= self.0,
            Evidence::new()
                .actual(shown)
                .note(format!("{count} arrived")),
        )
    }
}

/// `contains_data: [..]`: a log message whose data (as text) contains the
/// needle.
struct LogDataContains(String);

impl Check<ServerMessages> for LogDataContains {
    fn describe(&self, polarity: Polarity) -> String {
        let some = polarity.pick("a", "no");
        format!("{some} log message whose data contains {}", quoted(&self.0))
    }
    fn evaluate(&self, log: &ServerMessages) -> Verdict {
        let found = log
            .log_messages()
            .iter()
            .any(|m| log_data(&m.data).contains(self.0.as_str()));
        let (_, shown) = log_lines(log);
        Verdict::from_bool(found, Evidence::new().actual(shown))
    }
}

/// The text as JSON, or else its first line that is JSON.
fn json_document(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok().or_else(|| {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .find_map(|l| serde_json::from_str(l).ok())
    })
}

/// How mcp-assert compares: values as text (strings bare, numbers without
/// a needless `.0`, everything else as JSON).
pub(crate) fn as_compared(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// `$.a.b[0]` lookups: dots for fields, `[n]` for array items.
pub(crate) fn lookup<'v>(root: &'v Value, path: &str) -> Result<&'v Value, String> {
    let rest = path.strip_prefix('$').unwrap_or(path);
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    let mut current = root;
    if rest.is_empty() {
        return Ok(current);
    }
    for part in rest.split('.') {
        let (field, indexes) = match part.find('[') {
            Some(at) => (&part[..at], &part[at..]),
            None => (part, ""),
        };
        if !field.is_empty() {
            current = match current {
                Value::Object(map) => map
                    .get(field)
                    .ok_or_else(|| format!("there is no field {field:?}"))?,
                other => {
                    return Err(format!(
                        "{field:?} is looked up in {}, which is not an object",
                        mcptest_core::__support::kind_of(other)
                    ));
                }
            };
        }
        let mut indexes = indexes;
        while let Some(inner) = indexes.strip_prefix('[') {
            let Some(end) = inner.find(']') else {
                return Err(format!("{part:?} has an unclosed `[`"));
            };
            let index: usize = inner[..end]
                .trim()
                .parse()
                .map_err(|_| format!("{:?} is not an array index", &inner[..end]))?;
            current = match current {
                Value::Array(items) => items.get(index).ok_or_else(|| {
                    format!("index {index} is out of range (length {})", items.len())
                })?,
                other => {
                    return Err(format!(
                        "[{index}] is looked up in {}, which is not an array",
                        mcptest_core::__support::kind_of(other)
                    ));
                }
            };
            indexes = &inner[end + 1..];
        }
    }
    Ok(current)
}

/// A top-level array's length, or that of the first array under one of the
/// well-known keys.
fn result_count(text: &str) -> Option<usize> {
    match serde_json::from_str::<Value>(text).ok()? {
        Value::Array(items) => Some(items.len()),
        Value::Object(map) => ["locations", "items", "results", "references", "symbols"]
            .iter()
            .find_map(|k| map.get(*k).and_then(Value::as_array).map(Vec::len)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::BTreeMap;

    /// Rule: nothing passes vacuously. Each expectation, given a result
    /// whose subject is missing (no text, no files, no progress), fails
    /// with a reason. `file_not_exists` is the one exception: a missing file
    /// is what it asks for. `not_error` looks at the result itself, which
    /// exists whenever a check runs (a call without an answer fails before).
    #[test]
    fn every_level_the_loader_accepts_is_a_log_level() {
        use mcptest_suite_format::assertion::LOG_LEVELS;
        let levels: std::collections::BTreeSet<LogLevel> =
            LOG_LEVELS.iter().map(|name| log_level(name)).collect();
        assert_eq!(levels.len(), LOG_LEVELS.len());
        assert_eq!(log_level("emergency"), LogLevel::Emergency);
    }

    /// An expectation with one field set (by `set`), named after it.
    fn only(field: &'static str, set: impl FnOnce(&mut Expect)) -> (&'static str, Expect) {
        let mut expect = Expect::default();
        set(&mut expect);
        (field, expect)
    }

    #[test]
    fn every_expect_field_fails_when_its_subject_is_missing() {
        let set: Vec<(&str, Expect)> = vec![
            only("contains", |e| e.contains = vec!["a".into()]),
            only("contains_any", |e| e.contains_any = vec!["a".into()]),
            only("not_contains", |e| e.not_contains = vec!["a".into()]),
            only("equals", |e| e.equals = Some("a".into())),
            only("json_path", |e| {
                e.json_path = vec![("$.a".into(), json!(1))]
            }),
            only("min_results", |e| e.min_results = Some(0)),
            only("max_results", |e| e.max_results = Some(5)),
            only("not_empty", |e| e.not_empty = true),
            only("is_error", |e| e.is_error = true),
            only("matches_regex", |e| {
                e.matches_regex = vec![("a".into(), regex::Regex::new("a").unwrap())]
            }),
            only("file_contains", |e| {
                e.file_contains = vec![("/no/such/file".into(), "a".into())]
            }),
            only("file_not_contains", |e| {
                e.file_not_contains = vec![("/no/such/file".into(), "a".into())]
            }),
            only("file_unchanged", |e| {
                e.file_unchanged = vec!["/no/such/file".into()]
            }),
            only("net_delta", |e| e.net_delta = Some(0)),
            only("in_order", |e| e.in_order = vec!["a".into()]),
            only("min_progress", |e| e.min_progress = Some(1)),
        ];
        let snapshots = BTreeMap::from([("/no/such/file".to_owned(), None)]);
        for progress in [None, Some(0)] {
            let answer = Judged {
                text: "",
                is_error: false,
                fixture: None,
                snapshots: &snapshots,
                progress,
            };
            for (field, expect) in &set {
                assert!(!expect.is_empty(), "{field}");
                let miss = check(expect, &answer)
                    .err()
                    .unwrap_or_else(|| panic!("`{field}` passed on a missing subject"));
                assert!(
                    miss.evidence().explanation().is_some() || miss.evidence().shown().is_some(),
                    "`{field}` fails without saying why"
                );
                assert!(
                    miss.expected().ends_with(&format!("({field})")),
                    "{}",
                    miss.expected()
                );
            }
        }
        assert!(Expect::default().is_empty());
    }

    #[test]
    fn file_unchanged_needs_the_file_before_the_call() {
        let snapshots = BTreeMap::from([("/tmp/x".to_owned(), None)]);
        let answer = Judged {
            text: "",
            is_error: false,
            fixture: None,
            snapshots: &snapshots,
            progress: None,
        };
        let expect = Expect {
            file_unchanged: vec!["/tmp/x".into()],
            ..Expect::default()
        };
        let miss = check(&expect, &answer).unwrap_err();
        assert_eq!(
            miss.evidence().explanation(),
            Some("/tmp/x did not exist before the call, so there is nothing to compare")
        );
    }

    #[test]
    fn relative_file_paths_stay_relative_to_the_working_directory() {
        let copy = Path::new("/tmp/copy/fixtures");
        assert_eq!(
            file_path("hello.txt", Some(copy)),
            PathBuf::from("hello.txt")
        );
        assert_eq!(
            file_path("{{fixture}}/hello.txt", Some(copy)),
            PathBuf::from("/tmp/copy/fixtures/hello.txt")
        );
    }

    #[test]
    fn lookups_follow_fields_and_indexes() {
        let doc = json!({"a": {"b": [10, {"c": "x"}]}});
        assert_eq!(lookup(&doc, "$.a.b[0]").unwrap(), &json!(10));
        assert_eq!(lookup(&doc, "$.a.b[1].c").unwrap(), &json!("x"));
        assert_eq!(
            lookup(&doc, "$.a.z").unwrap_err(),
            "there is no field \"z\""
        );
        assert_eq!(
            lookup(&doc, "$.a.b[5]").unwrap_err(),
            "index 5 is out of range (length 2)"
        );
    }

    #[test]
    fn json_falls_back_to_the_first_json_line() {
        assert_eq!(
            json_document("Result:\n{\"n\": 1}\nbye"),
            Some(json!({"n": 1}))
        );
        assert_eq!(json_document("no json here"), None);
    }

    #[test]
    fn values_compare_as_text() {
        assert_eq!(as_compared(&json!(5.0)), "5");
        assert_eq!(as_compared(&json!(2.5)), "2.5");
        assert_eq!(as_compared(&json!("5")), "5");
        assert_eq!(as_compared(&json!(true)), "true");
    }

    #[test]
    fn trajectory_checks_judge_the_trace_and_the_first_miss_is_reported() {
        let entry = |tool: &str, args: Value| TraceEntry {
            tool: tool.into(),
            args,
        };
        let trace = [
            entry("read", json!({"path": "a.txt"})),
            entry("write", json!({"path": "a.txt", "mode": "append"})),
        ];
        let tools = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        let passing = [
            TrajectoryCheck::Order(tools(&["read", "write"])),
            TrajectoryCheck::Presence(tools(&["write"])),
            TrajectoryCheck::Absence(tools(&["delete"])),
            TrajectoryCheck::ArgsContain {
                tool: "write".into(),
                args: vec![("mode".into(), json!("append"))],
            },
        ];
        let passing: Vec<Traced> = passing.iter().map(Traced).collect();
        assert!(first_miss(&passing, &trace[..]).is_ok());
        let failing = [
            TrajectoryCheck::Presence(tools(&["read"])),
            TrajectoryCheck::Order(tools(&["write", "read"])),
            TrajectoryCheck::Absence(tools(&["write"])),
        ];
        let failing: Vec<Traced> = failing.iter().map(Traced).collect();
        let miss = first_miss(&failing, &trace[..]).unwrap_err();
        assert_eq!(
            miss.expected(),
            r#"the tools ["write", "read"] called in this order (order)"#
        );
        assert_eq!(
            miss.evidence().explanation(),
            Some(r#""read" was not called after "write""#)
        );
        let empty: [TraceEntry; 0] = [];
        assert!(first_miss(&passing[..1], &empty[..]).is_err());
    }

    #[test]
    fn counts_arrays_and_known_fields() {
        assert_eq!(result_count("[1,2,3]"), Some(3));
        assert_eq!(result_count("{\"other\": [1], \"items\": [1, 2]}"), Some(2));
        assert_eq!(result_count("{\"other\": [1]}"), None);
    }
}
