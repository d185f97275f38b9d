//! Text checks, shared by every result that has text: a tool call (its text
//! blocks joined with `"\n"`), a prompt (its messages' text) and a resource
//! (its text contents).

use regex::Regex;

use super::{Check, Evidence, Shown, Verdict};
use crate::wording::{quoted, quoted_list};

/// A result the text checks can look at.
pub trait HasText {
    /// The text, with a label for failure messages (`text`, `prompt text`),
    /// or — when there is no text to look at — what there is instead.
    fn text_for_checks(&self) -> Result<LabelledText, Shown>;

    /// True when the result has content other than text (an image,
    /// structured content); it counts for [`not_empty`].
    fn has_non_text_content(&self) -> bool {
        false
    }
}

/// Text with a label saying what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelledText {
    /// What the text is (`text`, `prompt text`), for failure messages.
    pub label: String,
    /// The text.
    pub text: String,
}

impl LabelledText {
    fn shown(&self) -> Shown {
        Shown::text(self.label.clone(), self.text.clone())
    }
}

/// Runs `judge` on the subject's text, or fails with what there is instead.
fn with_text<S: HasText + ?Sized>(
    subject: &S,
    judge: impl FnOnce(&LabelledText) -> Verdict,
) -> Verdict {
    match subject.text_for_checks() {
        Ok(text) => judge(&text),
        Err(instead) => Verdict::fail(Evidence::new().actual(instead)),
    }
}

/// The text equals `expected`, both trimmed of surrounding whitespace. See [`text_eq`].
#[derive(Debug, Clone)]
pub struct TextEq(String);

/// The text equals `expected`, ignoring whitespace at either end.
///
/// ```
/// # let call = mcptest::expect::samples::add_call();
/// call.text_eq("5");
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::add_call();
/// call.text_eq("6");
/// ```
pub fn text_eq(expected: impl Into<String>) -> TextEq {
    TextEq(expected.into())
}

impl<S: HasText + ?Sized> Check<S> for TextEq {
    fn describe(&self) -> String {
        format!("text equals {}", quoted(self.0.trim()))
    }
    fn describe_negated(&self) -> String {
        format!("text does not equal {}", quoted(self.0.trim()))
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        with_text(subject, |t| {
            let expected = self.0.trim();
            let actual = t.text.trim();
            Verdict::from_bool(
                expected == actual,
                Evidence::new().actual(t.shown()).diff(expected, actual),
            )
        })
    }
}

/// The text contains a substring. See [`text_contains`].
#[derive(Debug, Clone)]
pub struct TextContains(String);

/// The text contains `needle`.
///
/// ```
/// # let call = mcptest::expect::samples::echo_call("hello world");
/// call.text_contains("world");
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::echo_call("hello world");
/// call.text_contains("Paris");
/// ```
pub fn text_contains(needle: impl Into<String>) -> TextContains {
    TextContains(needle.into())
}

impl<S: HasText + ?Sized> Check<S> for TextContains {
    fn describe(&self) -> String {
        format!("text contains {}", quoted(&self.0))
    }
    fn describe_negated(&self) -> String {
        format!("text does not contain {}", quoted(&self.0))
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        with_text(subject, |t| {
            let mut evidence = Evidence::new().actual(t.shown());
            let found = t.text.find(&self.0);
            if let Some(at) = found {
                evidence = evidence.note(format!("found at byte {at}"));
            }
            Verdict::from_bool(found.is_some(), evidence)
        })
    }
}

/// The text contains at least one of several substrings. See [`text_contains_any`].
#[derive(Debug, Clone)]
pub struct TextContainsAny(Vec<String>);

/// The text contains at least one of `needles`.
///
/// ```
/// # let call = mcptest::expect::samples::echo_call("it is sunny");
/// call.text_contains_any(["rain", "sun"]);
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::echo_call("it is sunny");
/// call.text_contains_any(["rain", "snow"]);
/// ```
pub fn text_contains_any<S: Into<String>>(needles: impl IntoIterator<Item = S>) -> TextContainsAny {
    TextContainsAny(needles.into_iter().map(Into::into).collect())
}

impl<S: HasText + ?Sized> Check<S> for TextContainsAny {
    fn describe(&self) -> String {
        format!("text contains any of {}", quoted_list(&self.0))
    }
    fn describe_negated(&self) -> String {
        format!("text contains none of {}", quoted_list(&self.0))
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        with_text(subject, |t| {
            let found = self.0.iter().find(|n| t.text.contains(n.as_str()));
            let mut evidence = Evidence::new().actual(t.shown());
            if let Some(found) = found {
                evidence = evidence.note(format!("it contains {}", quoted(found)));
            }
            Verdict::from_bool(found.is_some(), evidence)
        })
    }
}

/// The text does not contain a substring. See [`text_not_contains`].
#[derive(Debug, Clone)]
pub struct TextNotContains(String);

/// The text does not contain `needle`.
///
/// ```
/// # let call = mcptest::expect::samples::echo_call("all good");
/// call.text_not_contains("error");
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::echo_call("an error happened");
/// call.text_not_contains("error");
/// ```
pub fn text_not_contains(needle: impl Into<String>) -> TextNotContains {
    TextNotContains(needle.into())
}

impl<S: HasText + ?Sized> Check<S> for TextNotContains {
    fn describe(&self) -> String {
        format!("text does not contain {}", quoted(&self.0))
    }
    fn describe_negated(&self) -> String {
        format!("text contains {}", quoted(&self.0))
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        with_text(subject, |t| {
            let mut evidence = Evidence::new().actual(t.shown());
            let found = t.text.find(&self.0);
            if let Some(at) = found {
                evidence = evidence.note(format!("found at byte {at}"));
            }
            Verdict::from_bool(found.is_none(), evidence)
        })
    }
}

/// The text matches a regular expression. See [`text_matches`].
#[derive(Debug, Clone)]
pub struct TextMatches {
    pattern: String,
    regex: Result<Regex, String>,
}

/// The text matches the regular expression `pattern` (anywhere in the text;
/// anchor it with `^` and `$` to match the whole). An invalid pattern fails
/// the check with the parser's message.
///
/// ```
/// # let call = mcptest::expect::samples::echo_call("order #1234 confirmed");
/// call.text_matches(r"#\d{4} confirmed");
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::echo_call("order #12 confirmed");
/// call.text_matches(r"#\d{4} confirmed");
/// ```
pub fn text_matches(pattern: impl Into<String>) -> TextMatches {
    let pattern = pattern.into();
    let regex = Regex::new(&pattern).map_err(|e| e.to_string());
    TextMatches { pattern, regex }
}

impl TextMatches {
    /// A regex already compiled (and so already known to be valid).
    pub fn from_regex(regex: Regex) -> Self {
        TextMatches {
            pattern: regex.as_str().to_owned(),
            regex: Ok(regex),
        }
    }
}

impl<S: HasText + ?Sized> Check<S> for TextMatches {
    fn describe(&self) -> String {
        format!("text matches /{}/", self.pattern)
    }
    fn describe_negated(&self) -> String {
        format!("text does not match /{}/", self.pattern)
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        let regex = match &self.regex {
            Ok(regex) => regex,
            Err(error) => {
                return Verdict::fail(
                    Evidence::new().note(format!("the pattern is not a valid regex:\n{error}")),
                );
            }
        };
        with_text(subject, |t| {
            let mut evidence = Evidence::new().actual(t.shown());
            let found = regex.find(&t.text);
            if let Some(m) = &found {
                evidence = evidence.note(format!(
                    "matched {} at byte {}",
                    quoted(m.as_str()),
                    m.start()
                ));
            }
            Verdict::from_bool(found.is_some(), evidence)
        })
    }
}

/// The text contains substrings in a given order. See [`text_in_order`].
#[derive(Debug, Clone)]
pub struct TextInOrder(Vec<String>);

/// The text contains each of `parts`, each one after the end of the one
/// before.
///
/// ```
/// # let call = mcptest::expect::samples::echo_call("first, then second, finally third");
/// call.text_in_order(["first", "second", "third"]);
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::echo_call("first, then third, finally second");
/// call.text_in_order(["first", "second", "third"]);
/// ```
pub fn text_in_order<S: Into<String>>(parts: impl IntoIterator<Item = S>) -> TextInOrder {
    TextInOrder(parts.into_iter().map(Into::into).collect())
}

impl<S: HasText + ?Sized> Check<S> for TextInOrder {
    fn describe(&self) -> String {
        format!("text contains {} in this order", quoted_list(&self.0))
    }
    fn describe_negated(&self) -> String {
        format!(
            "text does not contain {} in this order",
            quoted_list(&self.0)
        )
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        with_text(subject, |t| {
            let evidence = Evidence::new().actual(t.shown());
            let mut from = 0;
            let mut previous: Option<&str> = None;
            for part in &self.0 {
                match t.text[from..].find(part.as_str()) {
                    Some(at) => {
                        from += at + part.len();
                        previous = Some(part);
                    }
                    None => {
                        let note = match (previous, t.text.contains(part.as_str())) {
                            (None, _) | (_, false) => format!("{} is missing", quoted(part)),
                            (Some(previous), true) => format!(
                                "{} is not after {} (which ends at byte {from})",
                                quoted(part),
                                quoted(previous)
                            ),
                        };
                        return Verdict::fail(evidence.note(note));
                    }
                }
            }
            Verdict::pass(evidence)
        })
    }
}

/// The result is not empty. See [`not_empty`].
#[derive(Debug, Clone)]
pub struct NotEmpty;

/// The result is not empty: it has content other than text (an image,
/// structured content), or its text, trimmed, is not `""`, `null`, `[]` or
/// `{}`.
///
/// ```
/// # let call = mcptest::expect::samples::echo_call("[1, 2]");
/// call.not_empty();
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::echo_call(" [ ] ");
/// call.not_empty();
/// ```
pub fn not_empty() -> NotEmpty {
    NotEmpty
}

/// `""`, `null`, `[]` and `{}` (as JSON, so `[ ]` too) are empty.
pub(crate) fn is_empty_text(text: &str) -> bool {
    let text = text.trim();
    if text.is_empty() {
        return true;
    }
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Null) => true,
        Ok(serde_json::Value::Array(a)) => a.is_empty(),
        Ok(serde_json::Value::Object(o)) => o.is_empty(),
        _ => false,
    }
}

impl<S: HasText + ?Sized> Check<S> for NotEmpty {
    fn describe(&self) -> String {
        "the result is not empty".into()
    }
    fn describe_negated(&self) -> String {
        "the result is empty".into()
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        if subject.has_non_text_content() {
            let evidence = match subject.text_for_checks() {
                Ok(t) => Evidence::new().actual(t.shown()),
                Err(instead) => Evidence::new().actual(instead),
            };
            return Verdict::pass(evidence.note("it has content other than text"));
        }
        with_text(subject, |t| {
            Verdict::from_bool(!is_empty_text(&t.text), Evidence::new().actual(t.shown()))
        })
    }
}

/// The fluent text checks for a result type that implements [`HasText`].
macro_rules! text_methods {
    ($ty:ty) => {
        /// The fluent text checks; each panics with the failure message.
        impl $ty {
            /// Checks the text equals `expected` (trimmed). See
            /// [`expect::text_eq`](crate::expect::text_eq).
            #[track_caller]
            pub fn text_eq(&self, expected: impl Into<String>) -> &Self {
                self.assert($crate::expect::text_eq(expected))
            }

            /// Checks the text contains `needle`. See
            /// [`expect::text_contains`](crate::expect::text_contains).
            #[track_caller]
            pub fn text_contains(&self, needle: impl Into<String>) -> &Self {
                self.assert($crate::expect::text_contains(needle))
            }

            /// Checks the text contains one of `needles`. See
            /// [`expect::text_contains_any`](crate::expect::text_contains_any).
            #[track_caller]
            pub fn text_contains_any<S: Into<String>>(
                &self,
                needles: impl IntoIterator<Item = S>,
            ) -> &Self {
                self.assert($crate::expect::text_contains_any(needles))
            }

            /// Checks the text does not contain `needle`. See
            /// [`expect::text_not_contains`](crate::expect::text_not_contains).
            #[track_caller]
            pub fn text_not_contains(&self, needle: impl Into<String>) -> &Self {
                self.assert($crate::expect::text_not_contains(needle))
            }

            /// Checks the text matches a regular expression. See
            /// [`expect::text_matches`](crate::expect::text_matches).
            #[track_caller]
            pub fn text_matches(&self, pattern: impl Into<String>) -> &Self {
                self.assert($crate::expect::text_matches(pattern))
            }

            /// Checks the text contains `parts` in order. See
            /// [`expect::text_in_order`](crate::expect::text_in_order).
            #[track_caller]
            pub fn text_in_order<S: Into<String>>(
                &self,
                parts: impl IntoIterator<Item = S>,
            ) -> &Self {
                self.assert($crate::expect::text_in_order(parts))
            }

            /// Checks the result is not empty. See
            /// [`expect::not_empty`](crate::expect::not_empty).
            #[track_caller]
            pub fn not_empty(&self) -> &Self {
                self.assert($crate::expect::not_empty())
            }
        }
    };
}
pub(crate) use text_methods;
