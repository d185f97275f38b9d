//! Checks made of checks: all of several (a tuple), `not`, `any_of`, and
//! soft checks that collect failures across results.

use super::{
    check::{Check, Polarity, Subject},
    failure::{Evidence, Failure, Verdict},
};

/// The negation of a check. See [`not`].
#[derive(Debug, Clone)]
pub struct Not<C>(C);

/// Passes when `check` fails, and fails when it passes. It reads as the
/// negation (`text does not contain "error"`: every check describes itself
/// both ways) and keeps what the check saw (the text, where a needle was
/// found), leaving out only an equality diff. A check that cannot judge
/// (the result has no text to look at) fails under `not` too: nothing
/// passes vacuously.
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
    fn describe(&self, polarity: Polarity) -> String {
        self.0.describe(!polarity)
    }

    fn evaluate(&self, subject: &S) -> Verdict {
        self.0.evaluate(subject).negated()
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
    fn describe(&self, polarity: Polarity) -> String {
        describe_all(self, polarity)
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        evaluate_all(self, subject)
    }
}

/// `all of: a; b`, and its negation by De Morgan: `any of: not a; or not b`.
fn describe_all<S: ?Sized>(group: &dyn CheckGroup<S>, polarity: Polarity) -> String {
    let mut parts = Vec::new();
    group.each(&mut |c| parts.push(c.describe(polarity)));
    match polarity {
        Polarity::Positive => format!("all of: {}", parts.join("; ")),
        Polarity::Negative => format!("any of: {}", parts.join("; or ")),
    }
}

/// Runs every check and keeps every miss.
fn evaluate_all<S: ?Sized>(group: &dyn CheckGroup<S>, subject: &S) -> Verdict {
    let mut verdicts = Vec::new();
    group.each(&mut |c| {
        let describe = c.describe(Polarity::Positive);
        verdicts.push((c.evaluate(subject), describe));
    });
    Verdict::all(verdicts)
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
            fn describe(&self, polarity: Polarity) -> String {
                describe_all(self, polarity)
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
    /// `any of: a; or b`, and its negation: `all of: not a; not b`.
    fn describe(&self, polarity: Polarity) -> String {
        let mut parts = Vec::new();
        self.0.each(&mut |c| parts.push(c.describe(polarity)));
        match polarity {
            Polarity::Positive => format!("any of: {}", parts.join("; or ")),
            Polarity::Negative => format!("all of: {}", parts.join("; ")),
        }
    }

    /// Passes on the first check that holds; otherwise fails, unless one of
    /// them could not judge (then neither can this).
    fn evaluate(&self, subject: &S) -> Verdict {
        let mut passed = None;
        let mut judged = true;
        let mut first_actual = None;
        let mut notes = Vec::new();
        self.0.each(&mut |c| {
            if passed.is_some() {
                return;
            }
            let (holds, evidence) = c.evaluate(subject).into_parts();
            if holds == Some(true) {
                passed = Some(evidence);
                return;
            }
            judged &= holds.is_some();
            let describe = c.describe(Polarity::Positive);
            let why = evidence.explanation().map(|w| w.replace('\n', "; "));
            notes.push(match why {
                Some(why) => format!("- {describe} ({why})"),
                None => format!("- {describe}"),
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
        if judged {
            Verdict::fail(evidence)
        } else {
            Verdict::cannot_judge(evidence)
        }
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
        match super::check::run(subject, &check) {
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
    use crate::expect::{self, Polarity, samples::echo_call};

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
        let cases: [(Box<dyn Check<crate::client::ToolCall>>, &str); 6] = [
            (
                Box::new(not(expect::text_eq("x"))),
                r#"text does not equal "x""#,
            ),
            (
                Box::new(not(not(expect::text_contains("x")))),
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
                Box::new(not((expect::success(), expect::text_eq("5")))),
                r#"any of: the tool does not succeed; or text does not equal "5""#,
            ),
            (
                Box::new(not(any_of((expect::tool_error(), expect::text_eq("5"))))),
                r#"all of: the tool does not report an error (isError: true); text does not equal "5""#,
            ),
        ];
        for (check, words) in cases {
            assert_eq!(check.describe(Polarity::Positive), words);
        }
    }

    /// A check that cannot look at its subject fails either way: `not` of
    /// a text check on a call without text does not pass.
    #[test]
    fn not_of_a_check_that_cannot_judge_fails_too() {
        let rpc = expect::samples::rpc_error_call();
        for check in [
            Box::new(expect::text_contains("x")) as Box<dyn Check<crate::client::ToolCall>>,
            Box::new(not(expect::text_contains("x"))),
            Box::new(not((expect::text_eq("x"), expect::text_contains("y")))),
            Box::new(not(any_of((
                expect::text_eq("x"),
                expect::text_contains("y"),
            )))),
        ] {
            let failure = rpc.check(check).unwrap_err();
            assert!(
                failure
                    .to_string()
                    .contains("actual:   JSON-RPC error -32602"),
                "{failure}"
            );
        }
        // One check that fails is enough for "not all of": it is judged.
        assert!(
            rpc.check(not((expect::success(), expect::text_contains("x"))))
                .is_ok()
        );
        let call = echo_call("x");
        let invalid = call.check(not(expect::text_matches("(")));
        assert!(
            invalid
                .unwrap_err()
                .to_string()
                .contains("not a valid regex")
        );
    }
}
