//! The [`Check`] trait every expectation implements, the [`Subject`]s it
//! runs on, and [`run`], which turns a verdict into a failure.

use super::{
    failure::{Failure, Verdict},
    request::describe_request,
};
use crate::{client::Reply, error::ServerOutput};

/// Which way a check is meant: as its function says (`text contains
/// "Paris"`), or the opposite, as [`not`](crate::expect::not) asks for it
/// (`text does not contain "Paris"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Polarity {
    /// The expectation as the check states it.
    Positive,
    /// Its opposite.
    Negative,
}

impl Polarity {
    /// `positive` or `negative`, whichever way this is.
    ///
    /// ```
    /// use mcptest::expect::Polarity;
    /// assert_eq!(Polarity::Negative.pick("is", "is not"), "is not");
    /// ```
    pub fn pick<T>(self, positive: T, negative: T) -> T {
        match self {
            Polarity::Positive => positive,
            Polarity::Negative => negative,
        }
    }
}

impl std::ops::Not for Polarity {
    type Output = Polarity;
    fn not(self) -> Polarity {
        self.pick(Polarity::Negative, Polarity::Positive)
    }
}

/// One expectation about a result of type `S`: it says in words what it
/// expects, either way (for [`not`](crate::expect::not)), and judges a result.
///
/// Every check in this module is a function returning a `Check` value,
/// and every fluent method runs one through `assert` / `check`. Implement it
/// to write your own:
///
/// ```
/// use mcptest::expect::{Check, Evidence, Polarity, Shown, Verdict, not};
/// use mcptest::ToolCall;
///
/// /// The text is a palindrome.
/// struct Palindrome;
///
/// impl Check<ToolCall> for Palindrome {
///     fn describe(&self, polarity: Polarity) -> String {
///         polarity.pick("text is a palindrome", "text is not a palindrome").into()
///     }
///     fn evaluate(&self, call: &ToolCall) -> Verdict {
///         let text = call.text();
///         let evidence = Evidence::new().actual(Shown::text("text", &text));
///         Verdict::from_bool(text.chars().eq(text.chars().rev()), evidence)
///     }
/// }
/// # let call = mcptest::expect::samples::echo_call("level");
/// call.assert(Palindrome);
/// let failure = call.check(not(Palindrome)).unwrap_err();
/// assert!(failure.to_string().contains("expected: text is not a palindrome"));
/// ```
pub trait Check<S: ?Sized> {
    /// The expectation in words: with [`Polarity::Positive`] as the check
    /// states it (`text contains "Paris"`), with [`Polarity::Negative`] its
    /// opposite (`text does not contain "Paris"`), which is what a failure
    /// of [`not`](crate::expect::not) of it shows.
    fn describe(&self, polarity: Polarity) -> String;
    /// Judges `subject`: whether the expectation holds, and what was seen
    /// (the same either way: [`not`](crate::expect::not) turns the verdict over).
    fn evaluate(&self, subject: &S) -> Verdict;
}

impl<S: ?Sized, C: Check<S> + ?Sized> Check<S> for &C {
    fn describe(&self, polarity: Polarity) -> String {
        (**self).describe(polarity)
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        (**self).evaluate(subject)
    }
}

impl<S: ?Sized, C: Check<S> + ?Sized> Check<S> for Box<C> {
    fn describe(&self, polarity: Polarity) -> String {
        (**self).describe(polarity)
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        (**self).evaluate(subject)
    }
}

/// A result that checks can run on: it knows the call that produced it and
/// what the server printed, for the failure message.
pub trait Subject {
    /// The call that produced this result, in words (`tools/call add
    /// {"a":2}`); `None` when there was none.
    fn call(&self) -> Option<String>;
    /// What the server printed up to now.
    fn server_output(&self) -> ServerOutput;
}

/// Runs `check` on `subject`: `Ok` when it holds, otherwise the failure with
/// the call, what was expected, what came back and the server's stderr.
pub fn run<S: Subject + ?Sized, C: Check<S> + ?Sized>(
    subject: &S,
    check: &C,
) -> Result<(), Failure> {
    let misses = check
        .evaluate(subject)
        .into_misses(|| check.describe(Polarity::Positive));
    if misses.is_empty() {
        Ok(())
    } else {
        Err(Failure::new(
            subject.call(),
            misses,
            subject.server_output(),
        ))
    }
}

impl<T> Subject for Reply<T> {
    fn call(&self) -> Option<String> {
        Some(describe_request(self.request(), self.pages()))
    }
    fn server_output(&self) -> ServerOutput {
        Reply::server_output(self)
    }
}
