//! Checks on a completion (`completion/complete`): its values and `hasMore`.

use rmcp::model::CompleteResult;

use super::{
    check::{Check, Polarity},
    failure::{Evidence, Shown, Verdict},
};
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
pub fn values_eq(
    values: impl IntoIterator<Item = impl Into<String>>,
) -> impl Check<Reply<CompleteResult>> + 'static {
    ValuesEq(values.into_iter().map(Into::into).collect())
}

struct ValuesEq(Vec<String>);

impl Check<Reply<CompleteResult>> for ValuesEq {
    fn describe(&self, polarity: Polarity) -> String {
        let other = polarity.pick("", "other than ");
        format!("completion values {other}[{}]", quoted_list(&self.0))
    }
    fn evaluate(&self, done: &Reply<CompleteResult>) -> Verdict {
        Verdict::from_bool(
            done.completion.values == self.0,
            Evidence::new().actual(values_shown(done)),
        )
    }
}

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
pub fn values_contain(value: impl Into<String>) -> impl Check<Reply<CompleteResult>> + 'static {
    ValuesContain(value.into())
}

struct ValuesContain(String);

impl Check<Reply<CompleteResult>> for ValuesContain {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("include", "do not include");
        format!("completion values {verb} {}", quoted(&self.0))
    }
    fn evaluate(&self, done: &Reply<CompleteResult>) -> Verdict {
        Verdict::from_bool(
            done.completion.values.contains(&self.0),
            Evidence::new().actual(values_shown(done)),
        )
    }
}

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
pub fn has_more(more: bool) -> impl Check<Reply<CompleteResult>> {
    HasMore(more)
}

struct HasMore(bool);

impl Check<Reply<CompleteResult>> for HasMore {
    fn describe(&self, polarity: Polarity) -> String {
        let is = polarity.pick("is", "is not");
        format!("completion hasMore {is} {}", self.0)
    }
    fn evaluate(&self, done: &Reply<CompleteResult>) -> Verdict {
        Verdict::from_bool(
            done.completion.has_more.unwrap_or(false) == self.0,
            Evidence::new().actual(values_shown(done)),
        )
    }
}
