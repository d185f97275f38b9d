//! Checks made of checks: all of several (a tuple), `not`, `any_of`, and
//! soft checks that collect failures across results.

use super::{Check, Evidence, Failure, Subject, Verdict};

/// The negation of a check. See [`not`].
#[derive(Debug, Clone)]
pub struct Not<C>(C);

/// Passes when `check` fails, and fails when it passes. It reads as the
/// negation (`text does not contain "error"`) and keeps what the check saw
/// (the text, where a needle was found), leaving out only an equality diff.
///
/// ```
/// # use mcptest::{ToolCall, ToolOutcome, rmcp::model::{CallToolResult, ContentBlock}};
/// # use serde_json::json;
/// use mcptest::expect::{not, text_contains};
/// # let call = ToolCall::from_parts("echo", json!({"message": "hello"}),
/// #     ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text("hello")])));
/// call.assert(not(text_contains("error")));
/// ```
///
/// ```should_panic
/// # use mcptest::{ToolCall, ToolOutcome, rmcp::model::{CallToolResult, ContentBlock}};
/// # use serde_json::json;
/// # use mcptest::expect::{not, text_contains};
/// # let call = ToolCall::from_parts("echo", json!({"message": "hello"}),
/// #     ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text("hello")])));
/// call.assert(not(text_contains("hell")));
/// ```
pub fn not<C>(check: C) -> Not<C> {
    Not(check)
}

impl<S: ?Sized, C: Check<S>> Check<S> for Not<C> {
    fn describe(&self) -> String {
        self.0.describe_negated()
    }

    fn describe_negated(&self) -> String {
        self.0.describe()
    }

    fn evaluate(&self, subject: &S) -> Verdict {
        let (holds, evidence) = self.0.evaluate(subject).into_parts();
        let evidence = evidence.without_diff();
        if holds {
            Verdict::fail(evidence)
        } else {
            Verdict::pass(evidence)
        }
    }
}

/// Passes when at least one of several checks does. See [`any_of`].
#[derive(Debug, Clone)]
pub struct AnyOf<T>(T);

/// Passes when at least one of the checks in the tuple passes; a failure
/// lists why each did not.
///
/// ```
/// # use mcptest::{ToolCall, ToolOutcome, rmcp::model::{CallToolResult, ContentBlock}};
/// # use serde_json::json;
/// use mcptest::expect::{any_of, text_eq, tool_error};
/// # let call = ToolCall::from_parts("add", json!({"a": 2, "b": 3}),
/// #     ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text("5")])));
/// call.assert(any_of((text_eq("5"), tool_error())));
/// ```
///
/// ```should_panic
/// # use mcptest::{ToolCall, ToolOutcome, rmcp::model::{CallToolResult, ContentBlock}};
/// # use serde_json::json;
/// # use mcptest::expect::{any_of, text_eq, tool_error};
/// # let call = ToolCall::from_parts("add", json!({"a": 2, "b": 3}),
/// #     ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text("5")])));
/// call.assert(any_of((text_eq("6"), tool_error())));
/// ```
pub fn any_of<T>(checks: T) -> AnyOf<T> {
    AnyOf(checks)
}

/// A group of checks on the same result: implemented for tuples of up to
/// eight checks and for `Vec<Box<dyn Check<S>>>`.
pub trait CheckGroup<S: ?Sized> {
    /// Runs `visit` on each check in order.
    fn each(&self, visit: &mut dyn FnMut(&dyn Check<S>));
}

impl<S: ?Sized> CheckGroup<S> for Vec<Box<dyn Check<S>>> {
    fn each(&self, visit: &mut dyn FnMut(&dyn Check<S>)) {
        for check in self {
            visit(check.as_ref());
        }
    }
}

impl<S: ?Sized> Check<S> for Vec<Box<dyn Check<S>>> {
    fn describe(&self) -> String {
        describe_all(self)
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        evaluate_all(self, subject)
    }
}

fn describe_all<S: ?Sized>(group: &dyn CheckGroup<S>) -> String {
    let mut parts = Vec::new();
    group.each(&mut |c| parts.push(c.describe()));
    format!("all of: {}", parts.join("; "))
}

/// Runs every check and keeps every miss.
fn evaluate_all<S: ?Sized>(group: &dyn CheckGroup<S>, subject: &S) -> Verdict {
    let mut misses = Vec::new();
    group.each(&mut |c| misses.extend(c.evaluate(subject).into_misses(|| c.describe())));
    Verdict::from_misses(misses)
}

macro_rules! tuple_checks {
    ($($name:ident . $idx:tt),+) => {
        impl<S: ?Sized, $($name: Check<S>),+> CheckGroup<S> for ($($name,)+) {
            fn each(&self, visit: &mut dyn FnMut(&dyn Check<S>)) {
                $(visit(&self.$idx);)+
            }
        }

        /// All of the checks; a failure reports every one that did not hold.
        impl<S: ?Sized, $($name: Check<S>),+> Check<S> for ($($name,)+) {
            fn describe(&self) -> String {
                describe_all(self)
            }
            fn evaluate(&self, subject: &S) -> Verdict {
                evaluate_all(self, subject)
            }
        }
    };
}
tuple_checks!(A.0);
tuple_checks!(A.0, B.1);
tuple_checks!(A.0, B.1, C.2);
tuple_checks!(A.0, B.1, C.2, D.3);
tuple_checks!(A.0, B.1, C.2, D.3, E.4);
tuple_checks!(A.0, B.1, C.2, D.3, E.4, F.5);
tuple_checks!(A.0, B.1, C.2, D.3, E.4, F.5, G.6);
tuple_checks!(A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7);

impl<S: ?Sized, T: CheckGroup<S>> Check<S> for AnyOf<T> {
    fn describe(&self) -> String {
        let mut parts = Vec::new();
        self.0.each(&mut |c| parts.push(c.describe()));
        format!("any of: {}", parts.join("; or "))
    }

    fn evaluate(&self, subject: &S) -> Verdict {
        let mut passed = None;
        let mut first_actual = None;
        let mut notes = Vec::new();
        self.0.each(&mut |c| {
            if passed.is_some() {
                return;
            }
            let (holds, evidence) = c.evaluate(subject).into_parts();
            if holds {
                passed = Some(evidence);
                return;
            }
            let why = evidence.explanation().map(|w| w.replace('\n', "; "));
            notes.push(match why {
                Some(why) => format!("- {} ({why})", c.describe()),
                None => format!("- {}", c.describe()),
            });
            if first_actual.is_none() {
                first_actual = evidence.shown().cloned();
            }
        });
        if let Some(evidence) = passed {
            return Verdict::pass(evidence.without_diff());
        }
        let mut evidence =
            Evidence::new().note(format!("none of them holds:\n{}", notes.join("\n")));
        if let Some(actual) = first_actual {
            evidence = evidence.actual(actual);
        }
        Verdict::fail(evidence)
    }
}

/// Collects failures from checks on different results, and reports them
/// all at the end (or when dropped without [`finish`](SoftChecks::finish)).
///
/// ```
/// use mcptest::expect::{self, SoftChecks};
/// # use mcptest::{ToolCall, ToolOutcome, rmcp::model::{CallToolResult, ContentBlock}};
/// # use serde_json::json;
/// # let add = ToolCall::from_parts("add", json!({"a": 2, "b": 3}),
/// #     ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text("5")])));
/// # let echo = ToolCall::from_parts("echo", json!({"message": "hi"}),
/// #     ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text("hi")])));
/// let mut soft = SoftChecks::new();
/// soft.check(&add, expect::text_eq("5"));
/// soft.check(&echo, expect::text_contains("hi"));
/// soft.finish();
/// ```
///
/// ```should_panic
/// # use mcptest::expect::{self, SoftChecks};
/// # use mcptest::{ToolCall, ToolOutcome, rmcp::model::{CallToolResult, ContentBlock}};
/// # use serde_json::json;
/// # let add = ToolCall::from_parts("add", json!({"a": 2, "b": 3}),
/// #     ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text("5")])));
/// let mut soft = SoftChecks::new();
/// soft.check(&add, expect::text_eq("6"));   // recorded, no panic yet
/// soft.check(&add, expect::tool_error());    // recorded too
/// soft.finish();                             // panics, showing both
/// ```
#[derive(Debug, Default)]
pub struct SoftChecks {
    failures: Vec<Failure>,
    finished: bool,
}

impl SoftChecks {
    /// No failures yet.
    pub fn new() -> Self {
        SoftChecks::default()
    }

    /// Runs `check` on `subject` and records a failure instead of panicking.
    /// Returns whether it held.
    pub fn check<S: Subject + ?Sized, C: Check<S>>(&mut self, subject: &S, check: C) -> bool {
        match super::run(subject, &check) {
            Ok(()) => true,
            Err(failure) => {
                self.failures.push(failure);
                false
            }
        }
    }

    /// Records the outcome of a `Result`-returning check.
    pub fn record<T>(&mut self, result: Result<T, Failure>) -> bool {
        match result {
            Ok(_) => true,
            Err(failure) => {
                self.failures.push(failure);
                false
            }
        }
    }

    /// The failures so far.
    pub fn failures(&self) -> &[Failure] {
        &self.failures
    }

    /// `Ok` when every check held; otherwise all the failures.
    pub fn into_result(mut self) -> Result<(), Vec<Failure>> {
        self.finished = true;
        let failures = std::mem::take(&mut self.failures);
        if failures.is_empty() {
            Ok(())
        } else {
            Err(failures)
        }
    }

    /// Panics with every recorded failure, if there were any.
    #[track_caller]
    pub fn finish(self) {
        if let Err(failures) = self.into_result() {
            panic!(
                "{}",
                render_failures(&failures, super::failure::color_enabled())
            );
        }
    }
}

impl Drop for SoftChecks {
    fn drop(&mut self) {
        if !self.finished && !self.failures.is_empty() && !std::thread::panicking() {
            let failures = std::mem::take(&mut self.failures);
            panic!(
                "{}",
                render_failures(&failures, super::failure::color_enabled())
            );
        }
    }
}

/// Several failures, one after the other, numbered.
fn render_failures(failures: &[Failure], color: bool) -> String {
    if let [one] = failures {
        return one.render(color);
    }
    let mut out = format!("{} soft checks failed:", failures.len());
    for (i, failure) in failures.iter().enumerate() {
        out.push_str(&format!("\n\n--- {} of {} ---\n", i + 1, failures.len()));
        out.push_str(&failure.render(color));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expect::{self, samples::echo_call};

    #[test]
    fn not_reads_as_the_negation_and_keeps_the_evidence() {
        let call = echo_call("all good");
        let failure = call.check(not(expect::text_contains("good"))).unwrap_err();
        let [miss] = failure.misses() else {
            panic!("{failure}")
        };
        assert_eq!(miss.expected(), r#"text does not contain "good""#);
        assert_eq!(miss.evidence().explanation(), Some("found at byte 4"));
        assert!(miss.evidence().shown().is_some());
        let cases: [(Box<dyn Check<crate::client::ToolCall>>, &str); 5] = [
            (
                Box::new(not(expect::text_eq("x"))),
                r#"text does not equal "x""#,
            ),
            (
                Box::new(not(expect::text_not_contains("x"))),
                r#"text contains "x""#,
            ),
            (
                Box::new(not(expect::text_matches("x+"))),
                "text does not match /x+/",
            ),
            (
                Box::new(not(expect::success())),
                "the tool does not succeed",
            ),
            (
                Box::new(not(not(expect::text_contains("x")))),
                r#"text contains "x""#,
            ),
        ];
        for (check, words) in cases {
            assert_eq!(check.describe(), words);
        }
        // A check without words of its own for the negation says `not (..)`.
        assert_eq!(
            not(expect::duration_under(std::time::Duration::from_secs(1))).describe(),
            format!(
                "not ({})",
                Check::<crate::client::ToolCall>::describe(&expect::duration_under(
                    std::time::Duration::from_secs(1)
                ))
            )
        );
    }
}
