//! Checks on results, with failures that explain themselves.
//!
//! Every result the harness returns — a [`ToolCall`](crate::ToolCall), a [`Reply`] of a prompt,
//! a resource, a list or a completion, the [`ServerMessages`](crate::ServerMessages) log — has fluent
//! check methods that read like the sentence they test and panic with
//! `#[track_caller]`, so the failure points at the test's line:
//!
//! ```
//! # use mcptest::{ToolCall, ToolOutcome, rmcp::model::{CallToolResult, ContentBlock}};
//! # use serde_json::json;
//! # let call = ToolCall::from_parts("add", json!({"a": 2, "b": 3}),
//! #     ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text("5")])));
//! // call = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
//! call.assert_success().text_eq("5");
//! ```
//!
//! # One convention, two forms
//!
//! Each check is a function in this module that returns a value
//! implementing [`Check`] — `expect::text_eq("5")`. The fluent method of the
//! same name (`call.text_eq("5")`) runs that value and panics when it fails;
//! `.check(value)` runs it and returns `Result<&Self, Failure>` instead, for
//! composing or for tests that return `Result`. The outcome checks are the
//! one exception to "same name": their fluent forms are `assert_success()`,
//! `assert_tool_error()` and `assert_rpc_error(code)`, because `is_success()`
//! and friends are already the plain boolean getters.
//!
//! ```
//! # use mcptest::{ToolCall, ToolOutcome, rmcp::model::{CallToolResult, ContentBlock}};
//! # use serde_json::json;
//! use mcptest::expect;
//! # let call = ToolCall::from_parts("add", json!({"a": 2, "b": 3}),
//! #     ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text("5")])));
//!
//! let failure = call.check(expect::text_eq("6")).unwrap_err();
//! assert!(failure.to_string().contains(r#"expected: text equals "6""#));
//! ```
//!
//! # Negation
//!
//! [`not`] turns any check over, and every check says in its own words what
//! the opposite expects: `not(text_contains("error"))` fails with `expected:
//! text does not contain "error"`. The fluent negations are that and nothing
//! else: `text_not_contains`, `file_not_contains`, `file_not_exists`, `lacks`
//! and `not_seen`. A check that cannot look at what it judges (a text check
//! on a call that got a JSON-RPC error, a file check without a fixture
//! directory) fails under `not` too, saying why: nothing passes vacuously.
//!
//! ```
//! # let call = mcptest::expect::samples::rpc_error_call();
//! use mcptest::expect::{not, text_contains};
//!
//! let failure = call.check(not(text_contains("error"))).unwrap_err();
//! assert!(failure.to_string().contains("actual:   JSON-RPC error -32602"));
//! ```
//!
//! # Several checks, every failure at once
//!
//! A tuple of checks is a check that runs all of them and reports every one
//! that failed, not just the first: `call.assert((expect::success(),
//! expect::text_eq("5"), expect::duration_under(Duration::from_secs(1))))`.
//! [`any_of`] passes when one of several does, and [`SoftChecks`] collects
//! failures across different results.
//!
//! # The failure message
//!
//! Every failure has the same layout: the call (method and arguments), the
//! expectation in words, the actual value (pretty-printed past 60 characters;
//! long values are cut with a note of how much was cut), a line diff for
//! equality checks on values that span lines, and the tail of the server's
//! stderr when there is any. Color is used only when stderr is a terminal and
//! `NO_COLOR` is not set; [`Failure`]'s `Display` never has color.

mod combinators;
mod completions;
pub(crate) mod failure;
mod files;
mod fluent;
pub(crate) mod json;
mod lists;
mod outcome;
mod plugin;
mod prompts;
mod resources;
#[cfg(feature = "doc-samples")]
#[doc(hidden)]
pub mod samples;
#[cfg(feature = "json-schema")]
mod schema;
#[cfg(not(feature = "json-schema"))]
mod schema_needs_feature;
mod server_messages;
mod text;
mod tool_call;

use std::{
    fmt,
    ops::{Bound, RangeBounds},
};

pub use combinators::{AnyOf, CheckGroup, Not, SoftChecks, any_of, not};
pub use completions::{has_more, values_contain, values_eq};
pub use failure::{Evidence, Failure, Miss, Shown, Verdict};
pub use files::{FileSnapshot, file_contains, file_exists, files_unchanged};
pub use json::{
    array_len, json_path_count, json_path_eq, json_path_exists, structured_contains, structured_eq,
};
pub use lists::{Listed, annotations_contain, has, has_exactly};
pub use plugin::{PluginSubject, plugin};
pub use prompts::{message_count, roles_eq};
pub use resources::{blob_only, contents_count, mime_type_eq, text_only};
#[cfg(feature = "json-schema")]
pub use schema::{input_schemas_valid, matches_output_schema, matches_schema, validate_schema};
#[cfg(not(feature = "json-schema"))]
pub use schema_needs_feature::{
    input_schemas_valid, matches_output_schema, matches_schema, validate_schema,
};
pub use server_messages::{
    any_params_contain, log_level_seen, notification_count, params_contain, progress_count, seen,
};
pub use text::{
    HasText, LabelledText, TextCheck, not_empty, text_contains, text_contains_any, text_eq,
    text_in_order, text_matches,
};
pub use tool_call::{
    ContentKind, duration_under, failed, has_content, rpc_error, success, tool_error,
};

use serde_json::Value;

use crate::{client::Reply, client::Request, error::ServerOutput};

/// Which way a check is meant: as its function says (`text contains
/// "Paris"`), or the opposite, as [`not`] asks for it (`text does not
/// contain "Paris"`).
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
/// expects, either way (for [`not`]), and judges a result.
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
    /// of [`not`] of it shows.
    fn describe(&self, polarity: Polarity) -> String;
    /// Judges `subject`: whether the expectation holds, and what was seen
    /// (the same either way: [`not`] turns the verdict over).
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

/// The call in words: `tools/call add {"a":2,"b":3}`, `resources/read
/// file:///a.txt`, `tools/list (3 pages)`. Long arguments go on the lines
/// after the method, pretty-printed.
pub(crate) fn describe_request(request: &Request, pages: usize) -> String {
    let method = request.method.as_str();
    let params = &request.params;
    let text_of = |key: &str| params.get(key).and_then(Value::as_str).map(str::to_owned);
    let (head, args) = match method {
        "tools/call" | "prompts/get" => match text_of("name") {
            Some(name) => (
                format!("{method} {name}"),
                Some(params.get("arguments").cloned().unwrap_or(Value::Null)),
            ),
            None => (method.to_owned(), Some(params.clone())),
        },
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
            match text_of("uri") {
                Some(uri) => (format!("{method} {uri}"), None),
                None => (method.to_owned(), Some(params.clone())),
            }
        }
        _ => (method.to_owned(), Some(params.clone())),
    };
    let head = if pages > 1 {
        format!("{head} ({pages} pages)")
    } else {
        head
    };
    match args {
        None | Some(Value::Null) => head,
        Some(args) => {
            let args = shorten_strings(args);
            let compact = args.to_string();
            if compact.chars().count() <= CALL_INLINE_MAX {
                format!("{head} {compact}")
            } else {
                let pretty = serde_json::to_string_pretty(&args).unwrap_or(compact);
                format!("{head}\n{pretty}")
            }
        }
    }
}

/// Arguments up to this many characters stay on the call's line.
const CALL_INLINE_MAX: usize = 120;
/// Strings in the call's arguments are cut to this many characters: the
/// call is context, the full value is in the test.
const CALL_STRING_MAX: usize = 200;

fn shorten_strings(value: Value) -> Value {
    match value {
        Value::String(s) if s.chars().count() > CALL_STRING_MAX => {
            let kept: String = s.chars().take(CALL_STRING_MAX).collect();
            let cut = s.len() - kept.len();
            Value::String(format!("{kept}… ({cut} more bytes)"))
        }
        Value::Array(items) => Value::Array(items.into_iter().map(shorten_strings).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, shorten_strings(v)))
                .collect(),
        ),
        other => other,
    }
}

/// How many of something: an exact number or a range.
///
/// Made from a `usize` (`3`) or any range (`1..`, `..=5`, `2..4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    min: usize,
    /// Inclusive upper bound.
    max: Option<usize>,
}

impl Count {
    /// True when `n` is within the bounds.
    pub fn contains(&self, n: usize) -> bool {
        n >= self.min && self.max.is_none_or(|max| n <= max)
    }

    /// `exactly 1 message`, `at least 2 messages`: the bound and `noun`,
    /// plural unless the number is one.
    pub fn of(&self, noun: &str) -> String {
        let one = match (self.min, self.max) {
            (_, Some(max)) if max == self.min => max == 1,
            (0, Some(max)) => max == 1,
            (min, None) => min == 1,
            _ => false,
        };
        format!("{self} {noun}{}", if one { "" } else { "s" })
    }

    /// The opposite of [`of`](Count::of), as `not(..)` says it: `no
    /// messages`, `fewer than 2 messages`, `more than 5 messages`, `not
    /// exactly 3 messages`, `fewer than 2 or more than 4 messages`.
    pub fn not_of(&self, noun: &str) -> String {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        match (self.min, self.max) {
            (min, Some(max)) if min == max => format!("not exactly {min} {noun}{}", plural(min)),
            (1, None) => format!("no {noun}s"),
            (min, None) => format!("fewer than {min} {noun}s"),
            (0, Some(max)) => format!("more than {max} {noun}{}", plural(max)),
            (min, Some(max)) => format!("fewer than {min} or more than {max} {noun}s"),
        }
    }

    /// [`of`](Count::of) or [`not_of`](Count::not_of), as `polarity` asks.
    pub(crate) fn words(&self, noun: &str, polarity: Polarity) -> String {
        match polarity {
            Polarity::Positive => self.of(noun),
            Polarity::Negative => self.not_of(noun),
        }
    }

    fn from_bounds(range: impl RangeBounds<usize>) -> Self {
        let min = match range.start_bound() {
            Bound::Included(&n) => n,
            Bound::Excluded(&n) => n.saturating_add(1),
            Bound::Unbounded => 0,
        };
        let max = match range.end_bound() {
            Bound::Included(&n) => Some(n),
            Bound::Excluded(&n) => Some(n.saturating_sub(1)),
            Bound::Unbounded => None,
        };
        Count { min, max }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (min, Some(max)) if min == max => write!(f, "exactly {min}"),
            (0, Some(max)) => write!(f, "at most {max}"),
            (min, None) => write!(f, "at least {min}"),
            (min, Some(max)) => write!(f, "between {min} and {max}"),
        }
    }
}

impl From<usize> for Count {
    fn from(n: usize) -> Self {
        Count {
            min: n,
            max: Some(n),
        }
    }
}

macro_rules! count_from_range {
    ($($range:ty),*) => {$(
        impl From<$range> for Count {
            fn from(range: $range) -> Self {
                Count::from_bounds(range)
            }
        }
    )*};
}
count_from_range!(
    std::ops::Range<usize>,
    std::ops::RangeInclusive<usize>,
    std::ops::RangeFrom<usize>,
    std::ops::RangeTo<usize>,
    std::ops::RangeToInclusive<usize>,
    std::ops::RangeFull
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_describe_themselves() {
        assert_eq!(Count::from(3).to_string(), "exactly 3");
        assert_eq!(Count::from(1..).to_string(), "at least 1");
        assert_eq!(Count::from(..=5).to_string(), "at most 5");
        assert_eq!(Count::from(..5).to_string(), "at most 4");
        assert_eq!(Count::from(2..4).to_string(), "between 2 and 3");
        assert_eq!(Count::from(..).to_string(), "at least 0");
        assert!(Count::from(2..=4).contains(4));
        assert!(!Count::from(2..4).contains(4));
        assert_eq!(Count::from(1).of("message"), "exactly 1 message");
        assert_eq!(Count::from(1..).of("message"), "at least 1 message");
        assert_eq!(Count::from(..=1).of("message"), "at most 1 message");
        assert_eq!(Count::from(2).of("message"), "exactly 2 messages");
        assert_eq!(Count::from(0..=1).of("message"), "at most 1 message");
        assert_eq!(Count::from(1..=3).of("message"), "between 1 and 3 messages");
        assert_eq!(Count::from(1..).not_of("message"), "no messages");
        assert_eq!(Count::from(2..).not_of("message"), "fewer than 2 messages");
        assert_eq!(Count::from(..=1).not_of("message"), "more than 1 message");
        assert_eq!(Count::from(3).not_of("message"), "not exactly 3 messages");
        assert_eq!(
            Count::from(2..=4).not_of("message"),
            "fewer than 2 or more than 4 messages"
        );
    }
}
