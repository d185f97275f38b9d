//! Checks on a completion (`completion/complete`): its values and `hasMore`.

use rmcp::model::CompleteResult;

use super::{Check, Evidence, Shown, Verdict};
use crate::client::Reply;
use crate::wording::{quoted, quoted_list};

fn values_shown(done: &CompleteResult) -> Shown {
    let c = &done.completion;
    let n = c.values.len();
    let mut label = format!("{n} value{}", if n == 1 { "" } else { "s" });
    if let Some(total) = c.total {
        label.push_str(&format!(" (total {total})"));
    }
    if let Some(more) = c.has_more {
        label.push_str(&format!(" (hasMore {more})"));
    }
    Shown::plain(format!("{label}:"), format!("[{}]", quoted_list(&c.values)))
}

/// The completion's values are exactly these. See [`values_eq`].
#[derive(Debug, Clone)]
pub struct ValuesEq(Vec<String>);

/// The completion's values are exactly `values`, in this order.
///
/// ```
/// # let done = mcptest::expect::samples::completion_reply();
/// done.values_eq(["rust", "ruby"]);
/// ```
///
/// ```should_panic
/// # let done = mcptest::expect::samples::completion_reply();
/// done.values_eq(["rust"]);
/// ```
pub fn values_eq<S: Into<String>>(values: impl IntoIterator<Item = S>) -> ValuesEq {
    ValuesEq(values.into_iter().map(Into::into).collect())
}

impl Check<Reply<CompleteResult>> for ValuesEq {
    fn describe(&self) -> String {
        format!("completion values [{}]", quoted_list(&self.0))
    }
    fn evaluate(&self, done: &Reply<CompleteResult>) -> Verdict {
        Verdict::from_bool(
            done.completion.values == self.0,
            Evidence::new().actual(values_shown(done)),
        )
    }
}

/// The completion offers a value. See [`values_contain`].
#[derive(Debug, Clone)]
pub struct ValuesContain(String);

/// The completion's values include `value`.
///
/// ```
/// # let done = mcptest::expect::samples::completion_reply();
/// done.values_contain("ruby");
/// ```
///
/// ```should_panic
/// # let done = mcptest::expect::samples::completion_reply();
/// done.values_contain("python");
/// ```
pub fn values_contain(value: impl Into<String>) -> ValuesContain {
    ValuesContain(value.into())
}

impl Check<Reply<CompleteResult>> for ValuesContain {
    fn describe(&self) -> String {
        format!("completion values include {}", quoted(&self.0))
    }
    fn evaluate(&self, done: &Reply<CompleteResult>) -> Verdict {
        Verdict::from_bool(
            done.completion.values.contains(&self.0),
            Evidence::new().actual(values_shown(done)),
        )
    }
}

/// The completion says whether there are more values. See [`has_more`].
#[derive(Debug, Clone)]
pub struct HasMore(bool);

/// The completion's `hasMore` is `more` (a missing `hasMore` counts as
/// `false`).
///
/// ```
/// # let done = mcptest::expect::samples::completion_reply();
/// done.has_more(false);
/// ```
///
/// ```should_panic
/// # let done = mcptest::expect::samples::completion_reply();
/// done.has_more(true);
/// ```
pub fn has_more(more: bool) -> HasMore {
    HasMore(more)
}

impl Check<Reply<CompleteResult>> for HasMore {
    fn describe(&self) -> String {
        format!("completion hasMore is {}", self.0)
    }
    fn evaluate(&self, done: &Reply<CompleteResult>) -> Verdict {
        Verdict::from_bool(
            done.completion.has_more.unwrap_or(false) == self.0,
            Evidence::new().actual(values_shown(done)),
        )
    }
}

/// The fluent completion checks; each panics with the failure message.
impl Reply<CompleteResult> {
    /// Checks the values. See [`expect::values_eq`](crate::expect::values_eq).
    #[track_caller]
    pub fn values_eq<S: Into<String>>(&self, values: impl IntoIterator<Item = S>) -> &Self {
        self.assert(values_eq(values))
    }

    /// Checks a value is offered. See [`expect::values_contain`](crate::expect::values_contain).
    #[track_caller]
    pub fn values_contain(&self, value: impl Into<String>) -> &Self {
        self.assert(values_contain(value))
    }

    /// Checks `hasMore`. See [`expect::has_more`](crate::expect::has_more).
    #[track_caller]
    pub fn has_more(&self, more: bool) -> &Self {
        self.assert(has_more(more))
    }
}
