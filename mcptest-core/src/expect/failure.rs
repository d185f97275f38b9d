//! What a check saw, and the one failure layout every check shares.

use std::fmt;

use console::Style;
use serde_json::Value;
use similar::{ChangeTag, TextDiff};

use crate::error::ServerOutput;

/// Values up to this many characters print on the label's line; longer ones
/// (and anything with a line break) print as an indented block.
const INLINE_MAX: usize = 60;
/// A block shows at most this many lines ...
const BLOCK_MAX_LINES: usize = 40;
/// ... and at most this many bytes.
const BLOCK_MAX_BYTES: usize = 4000;
/// A diff shows at most this many lines.
const DIFF_MAX_LINES: usize = 60;
/// Unchanged lines shown around each change in a diff.
const DIFF_CONTEXT: usize = 3;

/// A value as a failure message shows it, with a label saying what it is
/// (`text`, `structuredContent`, `file notes.txt`).
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    label: String,
    value: ShownValue,
}

#[derive(Debug, Clone, PartialEq)]
enum ShownValue {
    /// A string: quoted when short, a `|` block otherwise.
    Text(String),
    /// JSON: compact when short, pretty otherwise.
    Json(Value),
    /// Words, printed as they are (`12ms`, `none`).
    Plain(String),
}

impl Shown {
    /// A string value, shown quoted (or as a block when long).
    pub fn text(label: impl Into<String>, text: impl Into<String>) -> Self {
        Shown {
            label: label.into(),
            value: ShownValue::Text(text.into()),
        }
    }

    /// A JSON value, shown compact (or pretty-printed when long).
    pub fn json(label: impl Into<String>, value: Value) -> Self {
        Shown {
            label: label.into(),
            value: ShownValue::Json(value),
        }
    }

    /// Words shown as they are.
    pub fn plain(label: impl Into<String>, words: impl Into<String>) -> Self {
        Shown {
            label: label.into(),
            value: ShownValue::Plain(words.into()),
        }
    }

    /// What the value is.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The value for a machine-readable report: `{"label": .., "text": ..}`,
    /// `{"label": .., "json": ..}` or `{"label": .., "plain": ..}`.
    pub fn to_json(&self) -> Value {
        let (kind, value) = match &self.value {
            ShownValue::Text(text) => ("text", Value::String(text.clone())),
            ShownValue::Json(json) => ("json", json.clone()),
            ShownValue::Plain(words) => ("plain", Value::String(words.clone())),
        };
        serde_json::json!({ "label": self.label, kind: value })
    }

    /// The value [`to_json`](Shown::to_json) wrote; `None` for anything else.
    pub fn from_json(value: &Value) -> Option<Shown> {
        let label = value.get("label")?.as_str()?.to_owned();
        let value = if let Some(text) = value.get("text") {
            ShownValue::Text(text.as_str()?.to_owned())
        } else if let Some(json) = value.get("json") {
            ShownValue::Json(json.clone())
        } else {
            ShownValue::Plain(value.get("plain")?.as_str()?.to_owned())
        };
        Some(Shown { label, value })
    }
}

/// What a check saw: the actual value, a note on why it holds or not, and
/// for equality checks the two sides to diff.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Evidence {
    actual: Option<Box<Shown>>,
    note: Option<String>,
    diff: Option<Box<(String, String)>>,
}

impl Evidence {
    /// No evidence yet.
    pub fn new() -> Self {
        Evidence::default()
    }

    /// The value the check looked at.
    pub fn actual(mut self, shown: Shown) -> Self {
        self.actual = Some(Box::new(shown));
        self
    }

    /// Why it holds or not, in words (`"Paris" is missing`).
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// The expected and actual sides of an equality, diffed line by line
    /// when either spans more than one line.
    pub fn diff(mut self, expected: impl Into<String>, actual: impl Into<String>) -> Self {
        self.diff = Some(Box::new((expected.into(), actual.into())));
        self
    }

    /// The value the check looked at, if it said.
    pub fn shown(&self) -> Option<&Shown> {
        self.actual.as_deref()
    }

    /// The note, if any.
    pub fn explanation(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// The expected and actual sides given to [`diff`](Evidence::diff).
    pub fn diff_sides(&self) -> Option<(&str, &str)> {
        self.diff.as_deref().map(|(e, a)| (e.as_str(), a.as_str()))
    }

    pub(crate) fn without_diff(mut self) -> Self {
        self.diff = None;
        self
    }
}

/// The judgement of one check: it holds, it does not, or it could not be
/// made (the check had nothing to look at) — with what was seen; for a
/// group of checks, which of them did not hold.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    truth: Truth,
    detail: Detail,
}

/// Three-valued: a check that could not look at its subject neither holds
/// nor fails, so that [`not`](super::not) of it cannot pass vacuously.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Truth {
    Holds,
    Fails,
    Unjudged,
}

#[derive(Debug, Clone, PartialEq)]
enum Detail {
    Evidence(Evidence),
    /// A group's misses (never empty).
    Misses(Vec<Miss>),
}

impl Verdict {
    /// The expectation holds.
    pub fn pass(evidence: Evidence) -> Self {
        Verdict {
            truth: Truth::Holds,
            detail: Detail::Evidence(evidence),
        }
    }

    /// The expectation does not hold.
    pub fn fail(evidence: Evidence) -> Self {
        Verdict {
            truth: Truth::Fails,
            detail: Detail::Evidence(evidence),
        }
    }

    /// The check could not judge: what it looks at is not there (a result
    /// without text, a call without a fixture directory, a tool without an
    /// `outputSchema`) or the check itself is malformed (a pattern that does
    /// not compile). It fails whichever way the check is meant: `not(..)` of
    /// it fails too, with the same evidence, instead of passing on nothing.
    pub fn cannot_judge(evidence: Evidence) -> Self {
        Verdict {
            truth: Truth::Unjudged,
            detail: Detail::Evidence(evidence),
        }
    }

    /// Pass when `holds`, fail otherwise, with the same evidence.
    pub fn from_bool(holds: bool, evidence: Evidence) -> Self {
        if holds {
            Verdict::pass(evidence)
        } else {
            Verdict::fail(evidence)
        }
    }

    /// The verdict of a group of checks: passes when `misses` is empty.
    pub fn from_misses(misses: Vec<Miss>) -> Self {
        Verdict::of_group(misses, Truth::Fails)
    }

    /// A group's verdict: `misses` are those of its checks that failed or
    /// could not be judged; `truth` is the group's when there are any.
    fn of_group(misses: Vec<Miss>, truth: Truth) -> Self {
        if misses.is_empty() {
            Verdict::pass(Evidence::new())
        } else {
            Verdict {
                truth,
                detail: Detail::Misses(misses),
            }
        }
    }

    /// All of several verdicts, each with its check's expectation in words:
    /// it fails when one fails, else it cannot be judged when one cannot,
    /// else it holds.
    pub(crate) fn all(verdicts: Vec<(Verdict, String)>) -> Verdict {
        let mut misses = Vec::new();
        let mut truth = Truth::Holds;
        for (verdict, describe) in verdicts {
            truth = match (truth, verdict.truth) {
                (Truth::Fails, _) | (_, Truth::Fails) => Truth::Fails,
                (Truth::Unjudged, _) | (_, Truth::Unjudged) => Truth::Unjudged,
                _ => Truth::Holds,
            };
            misses.extend(verdict.into_misses(|| describe));
        }
        Verdict::of_group(misses, truth)
    }

    /// True when the expectation holds.
    pub fn holds(&self) -> bool {
        self.truth == Truth::Holds
    }

    /// False when the check could not judge (see
    /// [`cannot_judge`](Verdict::cannot_judge)): it neither holds nor fails.
    pub fn is_judged(&self) -> bool {
        self.truth != Truth::Unjudged
    }

    /// The evidence of a single check (`None` for a failed group).
    pub fn evidence(&self) -> Option<&Evidence> {
        match &self.detail {
            Detail::Evidence(e) => Some(e),
            Detail::Misses(_) => None,
        }
    }

    /// Each expectation that did not hold; `describe` names this check's own.
    pub fn into_misses(self, describe: impl FnOnce() -> String) -> Vec<Miss> {
        match (self.truth, self.detail) {
            (Truth::Holds, _) => Vec::new(),
            (_, Detail::Evidence(evidence)) => vec![Miss {
                expected: describe(),
                evidence,
            }],
            (_, Detail::Misses(misses)) => misses,
        }
    }

    /// The opposite verdict, for [`not`](super::not): a pass fails and a
    /// failure passes, with what the check saw but no equality diff (the
    /// two sides are no longer what was expected and what came back); one
    /// that could not be judged still cannot.
    pub(crate) fn negated(self) -> Verdict {
        let truth = match self.truth {
            Truth::Holds => Truth::Fails,
            Truth::Fails => Truth::Holds,
            Truth::Unjudged => Truth::Unjudged,
        };
        Verdict {
            truth,
            detail: Detail::Evidence(self.into_evidence().without_diff()),
        }
    }

    /// Whether it holds (`Some(true)`), fails (`Some(false)`) or could not
    /// be judged (`None`), and the evidence: a group's misses folded into
    /// one note.
    pub(crate) fn into_parts(self) -> (Option<bool>, Evidence) {
        let holds = match self.truth {
            Truth::Holds => Some(true),
            Truth::Fails => Some(false),
            Truth::Unjudged => None,
        };
        (holds, self.into_evidence())
    }

    fn into_evidence(self) -> Evidence {
        match self.detail {
            Detail::Evidence(evidence) => evidence,
            Detail::Misses(misses) => {
                let notes: Vec<String> = misses.iter().map(|m| m.expected.clone()).collect();
                let mut evidence = misses
                    .into_iter()
                    .next()
                    .map(|m| m.evidence.without_diff())
                    .unwrap_or_default();
                let which = if self.truth == Truth::Unjudged {
                    "these could not be judged"
                } else {
                    "these did not hold"
                };
                evidence.note = Some(format!("{which}: {}", notes.join("; ")));
                evidence
            }
        }
    }
}

/// One expectation that did not hold, and what was seen instead.
#[derive(Debug, Clone, PartialEq)]
pub struct Miss {
    expected: String,
    evidence: Evidence,
}

impl Miss {
    /// A miss of the expectation described as `expected`.
    pub fn new(expected: impl Into<String>, evidence: Evidence) -> Self {
        Miss {
            expected: expected.into(),
            evidence,
        }
    }

    /// The expectation, in words.
    pub fn expected(&self) -> &str {
        &self.expected
    }

    /// What was seen.
    pub fn evidence(&self) -> &Evidence {
        &self.evidence
    }
}

/// A check that did not hold: what was called, every expectation that
/// failed with what came back, and what the server printed.
///
/// `Display` renders the failure message without color; the panicking
/// checks add color when stderr is a terminal and `NO_COLOR` is not set.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    call: Option<String>,
    misses: Vec<Miss>,
    output: Box<ServerOutput>,
    /// Where the test's fixture copy is kept for inspection, if it is.
    fixture_kept: Option<std::path::PathBuf>,
}

impl Failure {
    /// A failure of `misses` on the result of `call`.
    pub fn new(call: Option<String>, misses: Vec<Miss>, output: ServerOutput) -> Self {
        Failure {
            call,
            misses,
            output: Box::new(output),
            fixture_kept: None,
        }
    }

    /// Where the test's fixture copy is kept, for a line of its own in the
    /// message (`fixture:  kept at ...`), after the expectations.
    pub fn fixture_kept(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.fixture_kept = Some(dir.into());
        self
    }

    /// Where the test's fixture copy is kept, if it is.
    pub fn kept_fixture(&self) -> Option<&std::path::Path> {
        self.fixture_kept.as_deref()
    }

    /// The call, in words, when the result came from one.
    pub fn call(&self) -> Option<&str> {
        self.call.as_deref()
    }

    /// Every expectation that did not hold.
    pub fn misses(&self) -> &[Miss] {
        &self.misses
    }

    /// What the server printed when the check ran.
    pub fn server_output(&self) -> &ServerOutput {
        &self.output
    }

    /// The message, with ANSI color when `color` is true. Server text a
    /// terminal would act on (ESC, BEL, NUL…) or XML cannot carry (U+FFFE,
    /// U+FFFF) is shown escaped, as [`safe_text`](crate::report::safe_text)
    /// does, and then without colour.
    pub fn render(&self, color: bool) -> String {
        // Server text that a terminal would act on, or XML cannot carry, is
        // shown escaped; the colour codes added here could not be told apart
        // from the server's, so such a failure is shown without colour.
        let plain = self.render_styled(false);
        match crate::report::safe::safe_text(&plain) {
            std::borrow::Cow::Owned(safe) => safe,
            std::borrow::Cow::Borrowed(_) if color => self.render_styled(true),
            std::borrow::Cow::Borrowed(_) => plain,
        }
    }

    fn render_styled(&self, color: bool) -> String {
        let styles = Styles::new(color);
        let mut out = String::new();
        if let Some(call) = &self.call {
            render_labelled(
                &mut out,
                &styles,
                "",
                "call:     ",
                &Shown::plain("", call.clone()),
            );
        }
        match self.misses.as_slice() {
            [miss] => render_miss(&mut out, &styles, "", miss),
            misses => {
                out.push_str(&styles.heading(&format!("{} expectations failed:", misses.len())));
                out.push('\n');
                for (i, miss) in misses.iter().enumerate() {
                    out.push('\n');
                    let number = format!("{}) ", i + 1);
                    let indent = " ".repeat(number.len());
                    out.push_str(&number);
                    render_miss(&mut out, &styles, &indent, miss);
                }
            }
        }
        let mut out = out.trim_end().to_owned();
        if let Some(dir) = &self.fixture_kept {
            out.push('\n');
            out.push_str(&styles.heading("fixture:  "));
            out.push_str(&format!("kept at {}", dir.display()));
        }
        format!("{out}{}", self.output)
    }

    /// Panics with the message: colored when stderr is a color terminal (or
    /// `CLICOLOR_FORCE` is set), never when `NO_COLOR` is set. With
    /// `#[track_caller]` all the way up, the panic points at the test's line.
    #[track_caller]
    pub fn panic(&self) -> ! {
        panic!("{}", self.render(color_enabled()))
    }
}

/// Building a failure step by step, for runners that find out what went
/// wrong in stages (a suite runner: what was expected, then the call,
/// then the server's output, then a kept fixture copy).
impl Failure {
    /// A failure of one expectation, described as `expected`, with no
    /// evidence yet.
    pub fn expecting(expected: impl Into<String>) -> Self {
        Failure::from_miss(Miss::new(expected, Evidence::new()))
    }

    /// A failure of one check's miss.
    pub fn from_miss(miss: Miss) -> Self {
        Failure::new(None, vec![miss], ServerOutput::default())
    }

    fn last_evidence(&mut self) -> &mut Evidence {
        if self.misses.is_empty() {
            self.misses.push(Miss::new("", Evidence::new()));
        }
        let last = self.misses.len() - 1;
        &mut self.misses[last].evidence
    }

    /// Adds a line to the note of the (last) expectation.
    pub fn but(mut self, why: impl Into<String>) -> Self {
        let why = why.into();
        let evidence = self.last_evidence();
        evidence.note = Some(match evidence.note.take() {
            Some(note) => format!("{note}\n{why}"),
            None => why,
        });
        self
    }

    /// The call, in words.
    pub fn called(mut self, call: impl Into<String>) -> Self {
        self.call = Some(call.into());
        self
    }

    /// What the server printed.
    pub fn output(mut self, output: ServerOutput) -> Self {
        self.output = Box::new(output);
        self
    }

    /// The answer that came back, as JSON.
    pub fn got_json(mut self, value: Value) -> Self {
        self.last_evidence().actual = Some(Box::new(Shown::json("answer", value)));
        self
    }

    /// The text that came back.
    pub fn got_text(mut self, text: impl Into<String>) -> Self {
        self.last_evidence().actual = Some(Box::new(Shown::text("text", text)));
        self
    }

    /// Rewrites the note of the (last) expectation.
    pub fn map_note(mut self, map: impl FnOnce(&str) -> String) -> Self {
        let evidence = self.last_evidence();
        evidence.note = Some(map(evidence.note.as_deref().unwrap_or_default()));
        self
    }

    /// Rewrites what the (last) expectation says it expected.
    pub fn map_expected(mut self, map: impl FnOnce(&str) -> String) -> Self {
        if let Some(miss) = self.misses.last_mut() {
            miss.expected = map(&miss.expected);
        }
        self
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for Failure {}

/// Whether failures printed now get color: when stderr is a color terminal (or `CLICOLOR_FORCE` asks for it),
/// never with `NO_COLOR` set to anything but "".
pub fn color_enabled() -> bool {
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    console::colors_enabled_stderr()
}

struct Styles {
    label: Style,
    removed: Style,
    added: Style,
    note: Style,
}

impl Styles {
    fn new(color: bool) -> Self {
        let style = |s: Style| s.force_styling(color);
        Styles {
            label: style(Style::new().bold()),
            removed: style(Style::new().red()),
            added: style(Style::new().green()),
            note: style(Style::new().yellow()),
        }
    }

    fn heading(&self, text: &str) -> String {
        self.label.apply_to(text).to_string()
    }
}

fn render_miss(out: &mut String, styles: &Styles, indent: &str, miss: &Miss) {
    // The first line's indent is already written by the caller for numbered misses.
    render_labelled(
        out,
        styles,
        indent,
        "expected: ",
        &Shown::plain("", miss.expected.clone()),
    );
    let evidence = &miss.evidence;
    if let Some(actual) = &evidence.actual {
        out.push_str(indent);
        render_labelled(out, styles, indent, "actual:   ", actual);
    }
    if let Some(note) = &evidence.note {
        for (i, line) in note.lines().enumerate() {
            out.push_str(indent);
            if i == 0 {
                out.push_str(&styles.heading("why:      "));
            } else {
                out.push_str("          ");
            }
            out.push_str(&styles.note.apply_to(line).to_string());
            out.push('\n');
        }
    }
    if let Some((expected, actual)) = evidence.diff.as_deref()
        && (expected.contains('\n') || actual.contains('\n'))
    {
        out.push_str(indent);
        out.push_str(&styles.heading("diff:     "));
        out.push_str(&styles.removed.apply_to("-expected").to_string());
        out.push(' ');
        out.push_str(&styles.added.apply_to("+actual").to_string());
        out.push('\n');
        render_diff(out, styles, indent, expected, actual);
    }
}

/// `label` then the value: on the same line when short, else as a block.
fn render_labelled(out: &mut String, styles: &Styles, indent: &str, label: &str, shown: &Shown) {
    out.push_str(&styles.heading(label));
    let prefix = if shown.label.is_empty() {
        String::new()
    } else {
        format!("{} ", shown.label)
    };
    match &shown.value {
        ShownValue::Plain(words) if !words.contains('\n') => {
            let line = format!("{prefix}{words}");
            out.push_str(line.trim_end());
            out.push('\n');
        }
        ShownValue::Plain(words) => {
            let (first, rest) = words.split_once('\n').unwrap_or((words, ""));
            out.push_str(format!("{prefix}{first}").trim_end());
            out.push('\n');
            render_block(out, indent, "  ", rest);
        }
        ShownValue::Text(text) => {
            let quoted = crate::wording::quoted(text);
            if !text.contains('\n') && quoted.chars().count() <= INLINE_MAX {
                out.push_str(&prefix);
                out.push_str(&quoted);
                out.push('\n');
            } else {
                let lines = text.lines().count();
                out.push_str(&prefix);
                out.push_str(&format!(
                    "({} line{}, {} bytes)\n",
                    lines,
                    if lines == 1 { "" } else { "s" },
                    text.len()
                ));
                render_block(out, indent, "  | ", text);
            }
        }
        ShownValue::Json(value) => {
            let compact = value.to_string();
            if compact.chars().count() <= INLINE_MAX {
                out.push_str(&prefix);
                out.push_str(&compact);
                out.push('\n');
            } else {
                out.push_str(prefix.trim_end());
                out.push('\n');
                let pretty = serde_json::to_string_pretty(value).unwrap_or(compact);
                render_block(out, indent, "  ", &pretty);
            }
        }
    }
}

/// Writes `text` line by line with `prefix`, cut to the block limits.
fn render_block(out: &mut String, indent: &str, prefix: &str, text: &str) {
    let total_lines = text.lines().count();
    let mut bytes_shown = 0;
    let mut lines_shown = 0;
    for line in text.lines() {
        if lines_shown == BLOCK_MAX_LINES || bytes_shown >= BLOCK_MAX_BYTES {
            break;
        }
        let room = BLOCK_MAX_BYTES - bytes_shown;
        let cut = line.len() > room;
        let line = if cut {
            &line[..floor_char_boundary(line, room)]
        } else {
            line
        };
        bytes_shown += line.len() + usize::from(!cut);
        lines_shown += 1;
        out.push_str(indent);
        if line.is_empty() {
            out.push_str(prefix.trim_end());
        } else {
            out.push_str(prefix);
            out.push_str(line);
        }
        out.push('\n');
    }
    let bytes_total = text.len();
    let bytes_shown = bytes_shown.min(bytes_total);
    if lines_shown < total_lines || bytes_shown < bytes_total.saturating_sub(1) {
        out.push_str(indent);
        out.push_str(&format!(
            "  … cut: showing {lines_shown} of {total_lines} lines, {bytes_shown} of {bytes_total} bytes\n"
        ));
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The panic of a failed `assert_eq!` (`op` "==") or `assert_ne!` ("!="):
/// the message, then a diff of the two values' pretty `Debug` forms, or
/// for `assert_ne!` the one value both are.
#[doc(hidden)]
#[track_caller]
pub fn values_differ<L, R>(
    op: &str,
    left: &L,
    right: &R,
    message: Option<std::fmt::Arguments<'_>>,
) -> !
where
    L: std::fmt::Debug + ?Sized,
    R: std::fmt::Debug + ?Sized,
{
    let (left, right) = (format!("{left:#?}"), format!("{right:#?}"));
    panic!(
        "{}",
        assertion_text(op, &left, &right, message, color_enabled())
    )
}

/// The words of a failed `assert_eq!`/`assert_ne!` on the two values'
/// pretty `Debug` forms, colored or not.
fn assertion_text(
    op: &str,
    left: &str,
    right: &str,
    message: Option<std::fmt::Arguments<'_>>,
    color: bool,
) -> String {
    let styles = Styles::new(color);
    let mut out = format!("assertion `left {op} right` failed");
    if let Some(message) = message {
        out.push_str(&format!(": {message}"));
    }
    out.push('\n');
    if op == "==" {
        out.push_str(&styles.heading("diff (- left, + right):"));
        out.push('\n');
        render_diff(&mut out, &styles, "", left, right);
    } else {
        out.push_str(&styles.heading("both:"));
        out.push('\n');
        render_block(&mut out, "", "  ", left);
    }
    out.trim_end().to_owned()
}

fn render_diff(out: &mut String, styles: &Styles, indent: &str, expected: &str, actual: &str) {
    let diff = TextDiff::from_lines(expected, actual);
    let mut written = 0;
    let mut total = 0;
    for (g, group) in diff.grouped_ops(DIFF_CONTEXT).iter().enumerate() {
        if g > 0 {
            total += 1;
            if written < DIFF_MAX_LINES {
                out.push_str(indent);
                out.push_str("  …\n");
                written += 1;
            }
        }
        for op in group {
            for change in diff.iter_changes(op) {
                total += 1;
                if written >= DIFF_MAX_LINES {
                    continue;
                }
                written += 1;
                let line = change.value().trim_end_matches('\n');
                let (sign, style) = match change.tag() {
                    ChangeTag::Delete => ('-', &styles.removed),
                    ChangeTag::Insert => ('+', &styles.added),
                    ChangeTag::Equal => (' ', &styles.note),
                };
                let text = format!("{sign}{line}");
                out.push_str(indent);
                out.push_str("  ");
                if change.tag() == ChangeTag::Equal {
                    out.push_str(&text);
                } else {
                    out.push_str(&style.apply_to(text).to_string());
                }
                out.push('\n');
            }
        }
    }
    if total > written {
        out.push_str(indent);
        out.push_str(&format!("  … cut: {} more diff lines\n", total - written));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn failure(misses: Vec<Miss>) -> Failure {
        Failure::new(
            Some("tools/call add {\"a\":2}".into()),
            misses,
            ServerOutput::default(),
        )
    }

    #[test]
    fn short_values_stay_on_the_label_line() {
        let miss = Miss::new(
            "text equals \"6\"",
            Evidence::new()
                .actual(Shown::text("text", "5"))
                .diff("6", "5"),
        );
        assert_eq!(
            failure(vec![miss]).to_string(),
            "call:     tools/call add {\"a\":2}\n\
             expected: text equals \"6\"\n\
             actual:   text \"5\""
        );
    }

    #[test]
    fn long_json_is_pretty_printed_and_diffed() {
        let expected = json!({"city": "Rome", "temperature": 21.5, "conditions": "sunny and warm"});
        let actual = json!({"city": "Paris", "temperature": 21.5, "conditions": "sunny and warm"});
        let miss = Miss::new(
            "structuredContent equals ...",
            Evidence::new()
                .actual(Shown::json("structuredContent", actual.clone()))
                .diff(
                    serde_json::to_string_pretty(&expected).unwrap(),
                    serde_json::to_string_pretty(&actual).unwrap(),
                ),
        );
        let text = failure(vec![miss]).to_string();
        assert!(
            text.contains("actual:   structuredContent\n  {\n"),
            "{text}"
        );
        assert!(
            text.contains("  -  \"city\": \"Rome\",\n  +  \"city\": \"Paris\","),
            "{text}"
        );
    }

    #[test]
    fn long_text_is_cut_with_a_note() {
        let text: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let miss = Miss::new(
            "x",
            Evidence::new().actual(Shown::text("text", text.clone())),
        );
        let rendered = failure(vec![miss]).to_string();
        assert!(rendered.contains("  | line 39\n"), "{rendered}");
        assert!(!rendered.contains("line 40\n"), "{rendered}");
        assert!(
            rendered.ends_with("  … cut: showing 40 of 100 lines, 310 of 790 bytes"),
            "{rendered}"
        );

        let one_line = "x".repeat(10_000);
        let miss = Miss::new("x", Evidence::new().actual(Shown::text("text", one_line)));
        let rendered = failure(vec![miss]).to_string();
        assert!(
            rendered.ends_with("  … cut: showing 1 of 1 lines, 4000 of 10000 bytes"),
            "{rendered}"
        );
    }

    #[test]
    fn color_only_when_asked() {
        let miss = Miss::new("x", Evidence::new().actual(Shown::text("text", "y")));
        let f = failure(vec![miss]);
        assert!(!f.to_string().contains('\u{1b}'));
        assert!(f.render(true).contains('\u{1b}'));
    }

    fn panic_of(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let payload = std::panic::catch_unwind(f).expect_err("the assertion fails");
        payload
            .downcast_ref::<String>()
            .cloned()
            .expect("a formatted message")
    }

    #[test]
    fn a_failed_assert_eq_diffs_the_pretty_debug_forms() {
        let message = panic_of(|| {
            crate::assert_eq!(
                json!({"a": 1, "b": [1, 2]}),
                json!({"a": 1, "b": [1, 3]}),
                "after {} calls",
                2
            )
        });
        // The words without color (a terminal gets them colored); three
        // lines of context around each change, as in a check's diff.
        assert!(message.starts_with("assertion `left == right` failed: after 2 calls\n"));
        let left = format!("{:#?}", json!({"a": 1, "b": [1, 2]}));
        let right = format!("{:#?}", json!({"a": 1, "b": [1, 3]}));
        let calls = 2;
        let text = assertion_text(
            "==",
            &left,
            &right,
            Some(format_args!("after {calls} calls")),
            false,
        );
        assert_eq!(
            text,
            "assertion `left == right` failed: after 2 calls\n\
             diff (- left, + right):\n  \
             \x20    \"a\": Number(1),\n  \
             \x20    \"b\": Array [\n  \
             \x20        Number(1),\n  \
             -        Number(2),\n  \
             +        Number(3),\n  \
             \x20    ],\n  \
             \x20}"
        );
        crate::assert_eq!(1 + 1, 2);
    }

    #[test]
    fn a_failed_assert_ne_shows_the_one_value() {
        let message = panic_of(|| crate::assert_ne!("same", "same"));
        assert!(
            message.starts_with("assertion `left != right` failed\n"),
            "{message}"
        );
        assert!(message.ends_with("\n  \"same\""), "{message}");
        crate::assert_ne!(1, 2, "never shown");
    }
}
