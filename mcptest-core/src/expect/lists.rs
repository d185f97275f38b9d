//! Checks on the tool, prompt, resource and resource-template lists.

use std::collections::BTreeSet;

use rmcp::model::{Prompt, Resource, ResourceTemplate, Tool};
use serde_json::Value;

use super::{
    check::{Check, Polarity},
    failure::{Evidence, Shown, Verdict},
};
use crate::client::Reply;
use crate::wording::{quoted, quoted_list};

/// An item of a list the list checks work on: tools and prompts by name,
/// resources by URI, resource templates by URI template.
pub trait Listed {
    /// What the items are called in failure messages (`tool`).
    const KIND: &'static str;
    /// The key the list checks find the item by.
    fn key(&self) -> &str;
    /// The item's annotations as JSON, if it has any.
    fn annotations_json(&self) -> Option<Value>;
}

impl Listed for Tool {
    const KIND: &'static str = "tool";
    fn key(&self) -> &str {
        &self.name
    }
    fn annotations_json(&self) -> Option<Value> {
        self.annotations
            .as_ref()
            .and_then(|a| serde_json::to_value(a).ok())
    }
}

impl Listed for Prompt {
    const KIND: &'static str = "prompt";
    fn key(&self) -> &str {
        &self.name
    }
    fn annotations_json(&self) -> Option<Value> {
        None
    }
}

impl Listed for Resource {
    const KIND: &'static str = "resource";
    fn key(&self) -> &str {
        &self.uri
    }
    fn annotations_json(&self) -> Option<Value> {
        self.annotations
            .as_ref()
            .and_then(|a| serde_json::to_value(a).ok())
    }
}

impl Listed for ResourceTemplate {
    const KIND: &'static str = "resource template";
    fn key(&self) -> &str {
        &self.uri_template
    }
    fn annotations_json(&self) -> Option<Value> {
        self.annotations
            .as_ref()
            .and_then(|a| serde_json::to_value(a).ok())
    }
}

/// The list's keys, shown as one line.
pub(super) fn keys_shown<T: Listed>(items: &[T]) -> Shown {
    let keys: Vec<&str> = items.iter().map(Listed::key).collect();
    let what = format!(
        "{} {}{}:",
        keys.len(),
        T::KIND,
        if keys.len() == 1 { "" } else { "s" }
    );
    if keys.is_empty() {
        Shown::plain(what.trim_end_matches(':'), "")
    } else {
        Shown::plain(what, keys.join(", "))
    }
}

/// The list has an item with this key: a tool or prompt by name, a
/// resource by URI, a resource template by URI template. Under
/// [`not`](super::not) (and in the fluent `lacks`), it has none.
///
/// ```
/// # let tools = mcptest::expect::samples::tool_list();
/// tools.has("add").lacks("delete_everything");
/// ```
///
/// ```should_panic
/// # let tools = mcptest::expect::samples::tool_list();
/// tools.has("subtract");
/// ```
///
/// ```should_panic
/// # let tools = mcptest::expect::samples::tool_list();
/// tools.lacks("add");
/// ```
pub fn has<T: Listed>(key: impl Into<String>) -> impl Check<Reply<Vec<T>>> + 'static {
    Has(key.into())
}

struct Has(String);

impl<T: Listed> Check<Reply<Vec<T>>> for Has {
    fn describe(&self, polarity: Polarity) -> String {
        let has = polarity.pick("has", "has no");
        format!("the list {has} {} {}", T::KIND, quoted(&self.0))
    }
    fn evaluate(&self, list: &Reply<Vec<T>>) -> Verdict {
        let found = list.iter().any(|item| item.key() == self.0);
        let mut evidence = Evidence::new().actual(keys_shown(list));
        if !found
            && let Some(near) = list
                .iter()
                .find(|item| item.key().eq_ignore_ascii_case(&self.0))
        {
            evidence = evidence.note(format!("{} differs only in case", quoted(near.key())));
        }
        Verdict::from_bool(found, evidence)
    }
}

/// The list has exactly these items, in any order: none missing, none
/// more. A failure names the missing and the unexpected ones.
///
/// ```
/// # let tools = mcptest::expect::samples::tool_list();
/// tools.has_exactly(["echo", "add", "weather"]);
/// ```
///
/// ```should_panic
/// # let tools = mcptest::expect::samples::tool_list();
/// tools.has_exactly(["echo", "add", "subtract"]);
/// ```
pub fn has_exactly<T: Listed>(
    keys: impl IntoIterator<Item = impl Into<String>>,
) -> impl Check<Reply<Vec<T>>> + 'static {
    HasExactly(keys.into_iter().map(Into::into).collect())
}

struct HasExactly(Vec<String>);

impl<T: Listed> Check<Reply<Vec<T>>> for HasExactly {
    fn describe(&self, polarity: Polarity) -> String {
        let has = polarity.pick("has", "does not have");
        format!(
            "the list {has} exactly the {}s {}",
            T::KIND,
            quoted_list(&self.0)
        )
    }
    fn evaluate(&self, list: &Reply<Vec<T>>) -> Verdict {
        let want: BTreeSet<&str> = self.0.iter().map(String::as_str).collect();
        let have: BTreeSet<&str> = list.iter().map(Listed::key).collect();
        let missing: Vec<&str> = want.difference(&have).copied().collect();
        let extra: Vec<&str> = have.difference(&want).copied().collect();
        let mut notes = Vec::new();
        if !missing.is_empty() {
            notes.push(format!("missing: {}", quoted_list(&missing)));
        }
        if !extra.is_empty() {
            notes.push(format!("not expected: {}", quoted_list(&extra)));
        }
        let mut evidence = Evidence::new().actual(keys_shown(list));
        if !notes.is_empty() {
            evidence = evidence.note(notes.join("\n"));
        }
        Verdict::from_bool(notes.is_empty(), evidence)
    }
}

/// The item with this key has annotations containing `expected` (a JSON
/// object such as `{"readOnlyHint": true}`, compared like
/// [`structured_contains`](crate::expect::structured_contains)). A list
/// without the item fails, also under [`not`](super::not).
///
/// ```
/// use serde_json::json;
/// # let tools = mcptest::expect::samples::tool_list();
/// tools.annotations_contain("weather", json!({"readOnlyHint": true}));
/// ```
///
/// ```should_panic
/// # use serde_json::json;
/// # let tools = mcptest::expect::samples::tool_list();
/// tools.annotations_contain("weather", json!({"destructiveHint": true}));
/// ```
pub fn annotations_contain<T: Listed>(
    key: impl Into<String>,
    expected: Value,
) -> impl Check<Reply<Vec<T>>> + 'static {
    AnnotationsContain(key.into(), expected)
}

struct AnnotationsContain(String, Value);

impl<T: Listed> Check<Reply<Vec<T>>> for AnnotationsContain {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("containing", "not containing");
        format!(
            "{} {} has annotations {verb} {}",
            T::KIND,
            quoted(&self.0),
            self.1
        )
    }
    fn evaluate(&self, list: &Reply<Vec<T>>) -> Verdict {
        let Some(item) = list.iter().find(|item| item.key() == self.0) else {
            return Verdict::cannot_judge(Evidence::new().actual(keys_shown(list)).note(format!(
                "there is no {} {}",
                T::KIND,
                quoted(&self.0)
            )));
        };
        let label = format!("annotations of {}", self.0);
        match item.annotations_json() {
            None => Verdict::fail(Evidence::new().actual(Shown::plain(label, "none"))),
            Some(annotations) => {
                let holds = super::json::contains(&annotations, &self.1);
                let mut evidence = Evidence::new().actual(Shown::json(label, annotations));
                if let Err(why) = &holds {
                    evidence = evidence.note(why.clone());
                }
                Verdict::from_bool(holds.is_ok(), evidence)
            }
        }
    }
}
