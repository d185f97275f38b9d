//! Text checks, shared by every result that has text: a tool call (its text
//! blocks joined with `"\n"`), a prompt (its messages' text) and a resource
//! (its text contents).

use std::fmt;

use regex::Regex;

use super::{
    check::{Check, Polarity},
    failure::{Evidence, Shown, Verdict},
};
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

/// Runs `judge` on the subject's text; without text there is nothing to
/// judge, and the verdict shows what there is instead.
fn with_text(subject: &dyn HasText, judge: impl FnOnce(&LabelledText) -> Verdict) -> Verdict {
    match subject.text_for_checks() {
        Ok(text) => judge(&text),
        Err(instead) => Verdict::cannot_judge(Evidence::new().actual(instead)),
    }
}

/// A check on the text of any result that has text ([`HasText`]: a tool
/// call, a prompt, a resource): what [`text_eq`], [`text_contains`] and the
/// other text checks return.
///
/// ```
/// use mcptest::expect::{self, TextCheck};
/// let checks: Vec<TextCheck> = vec![expect::text_contains("5"), expect::not_empty()];
/// # let call = mcptest::expect::samples::add_call();
/// # for check in checks { call.assert(check); }
/// ```
pub struct TextCheck(Box<dyn for<'a> Check<dyn HasText + 'a> + Send + Sync>);

impl TextCheck {
    fn new(check: impl for<'a> Check<dyn HasText + 'a> + Send + Sync + 'static) -> Self {
        TextCheck(Box::new(check))
    }
}

impl<S: HasText> Check<S> for TextCheck {
    fn describe(&self, polarity: Polarity) -> String {
        self.0.describe(polarity)
    }
    fn evaluate(&self, subject: &S) -> Verdict {
        self.0.evaluate(subject)
    }
}

impl fmt::Debug for TextCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TextCheck")
            .field(&self.0.describe(Polarity::Positive))
            .finish()
    }
}

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
pub fn text_eq(expected: impl Into<String>) -> TextCheck {
    TextCheck::new(Equals(expected.into()))
}

struct Equals(String);

impl<'a> Check<dyn HasText + 'a> for Equals {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("equals", "does not equal");
        format!("text {verb} {}", quoted(self.0.trim()))
    }
    fn evaluate(&self, subject: &(dyn HasText + 'a)) -> Verdict {
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

/// The text contains `needle`; under [`not`](super::not) (and in the
/// fluent `text_not_contains`), it does not.
///
/// ```
/// # let call = mcptest::expect::samples::echo_call("hello world");
/// call.text_contains("world").text_not_contains("error");
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::echo_call("hello world");
/// call.text_contains("Paris");
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::echo_call("an error happened");
/// call.text_not_contains("error");
/// ```
pub fn text_contains(needle: impl Into<String>) -> TextCheck {
    TextCheck::new(Contains(needle.into()))
}

struct Contains(String);

impl<'a> Check<dyn HasText + 'a> for Contains {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("contains", "does not contain");
        format!("text {verb} {}", quoted(&self.0))
    }
    fn evaluate(&self, subject: &(dyn HasText + 'a)) -> Verdict {
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
pub fn text_contains_any(needles: impl IntoIterator<Item = impl Into<String>>) -> TextCheck {
    TextCheck::new(ContainsAny(needles.into_iter().map(Into::into).collect()))
}

struct ContainsAny(Vec<String>);

impl<'a> Check<dyn HasText + 'a> for ContainsAny {
    fn describe(&self, polarity: Polarity) -> String {
        let which = polarity.pick("any", "none");
        format!("text contains {which} of {}", quoted_list(&self.0))
    }
    fn evaluate(&self, subject: &(dyn HasText + 'a)) -> Verdict {
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

/// The text matches the regular expression `pattern` (anywhere in the text;
/// anchor it with `^` and `$` to match the whole). An invalid pattern fails
/// the check with the parser's message, also under [`not`](super::not).
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
pub fn text_matches(pattern: impl Into<String>) -> TextCheck {
    let pattern = pattern.into();
    let regex = Regex::new(&pattern).map_err(|e| e.to_string());
    TextCheck::new(Matches { pattern, regex })
}

struct Matches {
    pattern: String,
    regex: Result<Regex, String>,
}

impl<'a> Check<dyn HasText + 'a> for Matches {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("matches", "does not match");
        format!("text {verb} /{}/", self.pattern)
    }
    fn evaluate(&self, subject: &(dyn HasText + 'a)) -> Verdict {
        let regex = match &self.regex {
            Ok(regex) => regex,
            Err(error) => {
                return Verdict::cannot_judge(
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
pub fn text_in_order(parts: impl IntoIterator<Item = impl Into<String>>) -> TextCheck {
    TextCheck::new(InOrder(parts.into_iter().map(Into::into).collect()))
}

struct InOrder(Vec<String>);

impl<'a> Check<dyn HasText + 'a> for InOrder {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("contains", "does not contain");
        format!("text {verb} {} in this order", quoted_list(&self.0))
    }
    fn evaluate(&self, subject: &(dyn HasText + 'a)) -> Verdict {
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
pub fn not_empty() -> TextCheck {
    TextCheck::new(NotEmpty)
}

struct NotEmpty;

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

impl<'a> Check<dyn HasText + 'a> for NotEmpty {
    fn describe(&self, polarity: Polarity) -> String {
        polarity
            .pick("the result is not empty", "the result is empty")
            .into()
    }
    fn evaluate(&self, subject: &(dyn HasText + 'a)) -> Verdict {
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
