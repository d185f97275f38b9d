//! Checks on a prompt (`prompts/get`): its messages, their roles and text.

use rmcp::model::{GetPromptResult, Role};

use super::{
    check::{Check, Polarity},
    count::Count,
    failure::{Evidence, Shown, Verdict},
    text::{HasText, LabelledText},
};
use crate::client::Reply;

impl HasText for Reply<GetPromptResult> {
    fn text_for_checks(&self) -> Result<LabelledText, Shown> {
        let texts: Vec<&str> = self
            .messages
            .iter()
            .filter_map(|m| m.content.as_text().map(|t| t.text.as_str()))
            .collect();
        Ok(LabelledText {
            label: "prompt text".into(),
            text: texts.join("\n"),
        })
    }

    fn has_non_text_content(&self) -> bool {
        self.messages.iter().any(|m| m.content.as_text().is_none())
    }
}

fn role_name(role: &Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

/// The messages as `role: text` lines.
fn messages_shown(prompt: &GetPromptResult) -> Shown {
    let n = prompt.messages.len();
    let lines: Vec<String> = prompt
        .messages
        .iter()
        .map(|m| {
            let content = match m.content.as_text() {
                Some(t) => crate::wording::quoted(&t.text),
                None => "(not text)".to_owned(),
            };
            format!("{}: {content}", role_name(&m.role))
        })
        .collect();
    let label = format!("{n} message{}", if n == 1 { "" } else { "s" });
    if lines.is_empty() {
        Shown::plain(label, "")
    } else {
        Shown::plain(format!("{label}:"), format!("\n{}", lines.join("\n")))
    }
}

/// The prompt has `count` messages (a number or a range).
///
/// ```
/// # let prompt = mcptest::expect::samples::prompt_reply();
/// prompt.message_count(2);
/// ```
///
/// ```should_panic
/// # let prompt = mcptest::expect::samples::prompt_reply();
/// prompt.message_count(3..);
/// ```
pub fn message_count(count: impl Into<Count>) -> impl Check<Reply<GetPromptResult>> + 'static {
    MessageCount(count.into())
}

struct MessageCount(Count);

impl Check<Reply<GetPromptResult>> for MessageCount {
    fn describe(&self, polarity: Polarity) -> String {
        self.0.words("message", polarity)
    }
    fn evaluate(&self, prompt: &Reply<GetPromptResult>) -> Verdict {
        Verdict::from_bool(
            self.0.contains(prompt.messages.len()),
            Evidence::new().actual(messages_shown(prompt)),
        )
    }
}

/// The prompt's messages have exactly these roles, in this order.
///
/// ```
/// use mcptest::rmcp::model::Role;
/// # let prompt = mcptest::expect::samples::prompt_reply();
/// prompt.roles_eq([Role::User, Role::Assistant]);
/// ```
///
/// ```should_panic
/// # use mcptest::rmcp::model::Role;
/// # let prompt = mcptest::expect::samples::prompt_reply();
/// prompt.roles_eq([Role::User]);
/// ```
pub fn roles_eq(
    roles: impl IntoIterator<Item = Role>,
) -> impl Check<Reply<GetPromptResult>> + 'static {
    RolesEq(roles.into_iter().collect())
}

struct RolesEq(Vec<Role>);

impl Check<Reply<GetPromptResult>> for RolesEq {
    fn describe(&self, polarity: Polarity) -> String {
        let roles: Vec<&str> = self.0.iter().map(role_name).collect();
        let other = polarity.pick("", "other than ");
        format!("messages with roles {other}[{}]", roles.join(", "))
    }
    fn evaluate(&self, prompt: &Reply<GetPromptResult>) -> Verdict {
        let actual: Vec<&Role> = prompt.messages.iter().map(|m| &m.role).collect();
        let holds =
            actual.len() == self.0.len() && actual.iter().zip(&self.0).all(|(a, b)| *a == b);
        Verdict::from_bool(holds, Evidence::new().actual(messages_shown(prompt)))
    }
}
