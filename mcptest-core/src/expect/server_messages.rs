//! Checks on what the server sent on its own ([`ServerMessages`]): counts,
//! methods seen or not, params, progress, log levels.

use serde_json::Value;

use super::{
    check::{Check, Polarity, Subject},
    count::Count,
    failure::{Evidence, Shown, Verdict},
};
use crate::wording::quoted;
use crate::{
    client::ToolCall, error::ServerOutput, server_messages::LogLevel,
    server_messages::ServerMessage, server_messages::ServerMessages,
};

/// A line per message is cut to this many characters.
const LINE_MAX: usize = 100;

impl Subject for ServerMessages {
    fn call(&self) -> Option<String> {
        None
    }
    fn server_output(&self) -> ServerOutput {
        ServerOutput::default()
    }
}

fn messages_shown(messages: &[ServerMessage]) -> Shown {
    let n = messages.len();
    let label = format!(
        "{n} message{} from the server",
        if n == 1 { "" } else { "s" }
    );
    if messages.is_empty() {
        return Shown::plain(label, "");
    }
    let lines: Vec<String> = messages
        .iter()
        .map(|m| {
            let line = m.to_string();
            if line.chars().count() > LINE_MAX {
                line.chars().take(LINE_MAX - 3).collect::<String>() + "..."
            } else {
                line
            }
        })
        .collect();
    Shown::plain(format!("{label}:"), format!("\n{}", lines.join("\n")))
}

fn plural(n: usize, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

/// `count` notifications (a number or a range) have arrived; requests the
/// server made of the client (sampling, roots, elicitation) do not count.
///
/// ```
/// # let log = mcptest::expect::samples::server_messages();
/// log.notification_count(1..);
/// ```
///
/// ```should_panic
/// # let log = mcptest::expect::samples::server_messages();
/// log.notification_count(..=1);
/// ```
pub fn notification_count(count: impl Into<Count>) -> impl Check<ServerMessages> + 'static {
    NotificationCount(count.into())
}

struct NotificationCount(Count);

impl Check<ServerMessages> for NotificationCount {
    fn describe(&self, polarity: Polarity) -> String {
        self.0.words("notification", polarity)
    }
    fn evaluate(&self, log: &ServerMessages) -> Verdict {
        let all = log.all();
        let n = all.iter().filter(|m| !m.is_request()).count();
        Verdict::from_bool(
            self.0.contains(n),
            Evidence::new().actual(messages_shown(&all)).note(format!(
                "{} (not counting requests)",
                plural(n, "notification")
            )),
        )
    }
}

/// The server sent at least one message (notification or request) with
/// `method`. Under [`not`](super::not) (and in the fluent `not_seen`), it
/// sent none.
///
/// ```
/// # let log = mcptest::expect::samples::server_messages();
/// log.seen("notifications/progress")
///     .not_seen("notifications/resources/updated");
/// ```
///
/// ```should_panic
/// # let log = mcptest::expect::samples::server_messages();
/// log.seen("notifications/tools/list_changed");
/// ```
///
/// ```should_panic
/// # let log = mcptest::expect::samples::server_messages();
/// log.not_seen("notifications/message");
/// ```
pub fn seen(method: impl Into<String>) -> impl Check<ServerMessages> + 'static {
    Seen(method.into())
}

struct Seen(String);

impl Check<ServerMessages> for Seen {
    fn describe(&self, polarity: Polarity) -> String {
        let some = polarity.pick("a", "no");
        format!("{some} {} from the server", self.0)
    }
    fn evaluate(&self, log: &ServerMessages) -> Verdict {
        let all = log.all();
        let count = all.iter().filter(|m| m.method == self.0).count();
        let mut evidence = Evidence::new().actual(messages_shown(&all));
        if count > 0 {
            evidence = evidence.note(format!("it sent {}", plural(count, "such message")));
        }
        Verdict::from_bool(count > 0, evidence)
    }
}

/// A message's params contain a substring: [`params_contain`],
/// [`any_params_contain`].
struct ParamsContain {
    /// `None`: any message.
    method: Option<String>,
    needle: String,
}

/// Some message with `method` has params whose JSON text contains `needle`.
///
/// ```
/// # let log = mcptest::expect::samples::server_messages();
/// log.params_contain("notifications/message", "disk almost full");
/// ```
///
/// ```should_panic
/// # let log = mcptest::expect::samples::server_messages();
/// log.params_contain("notifications/message", "disk full");
/// ```
pub fn params_contain(
    method: impl Into<String>,
    needle: impl Into<String>,
) -> impl Check<ServerMessages> + 'static {
    ParamsContain {
        method: Some(method.into()),
        needle: needle.into(),
    }
}

/// Some message, whatever its method, has params whose JSON text contains
/// `needle`.
///
/// ```
/// # let log = mcptest::expect::samples::server_messages();
/// log.assert(mcptest::expect::any_params_contain("almost full"));
/// ```
///
/// ```should_panic
/// # let log = mcptest::expect::samples::server_messages();
/// log.assert(mcptest::expect::any_params_contain("disk full"));
/// ```
pub fn any_params_contain(needle: impl Into<String>) -> impl Check<ServerMessages> + 'static {
    ParamsContain {
        method: None,
        needle: needle.into(),
    }
}

impl Check<ServerMessages> for ParamsContain {
    fn describe(&self, polarity: Polarity) -> String {
        format!(
            "{} {} whose params contain {}",
            polarity.pick("a", "no"),
            self.method.as_deref().unwrap_or("message"),
            quoted(&self.needle)
        )
    }
    fn evaluate(&self, log: &ServerMessages) -> Verdict {
        let all = log.all();
        let with_method: Vec<&ServerMessage> = all
            .iter()
            .filter(|m| {
                self.method
                    .as_ref()
                    .is_none_or(|method| &m.method == method)
            })
            .collect();
        let found = with_method.iter().find(|m| {
            let text = match &m.params {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            text.contains(&self.needle)
        });
        let mut evidence = Evidence::new().actual(messages_shown(&all));
        match (found, &self.method) {
            (Some(m), _) => {
                evidence = evidence.note(format!(
                    "the params of {} (message {}) do",
                    m.method,
                    m.seq + 1
                ));
            }
            (None, Some(method)) if with_method.is_empty() => {
                evidence = evidence.note(format!("no {method} arrived at all"));
            }
            (None, None) if with_method.is_empty() => {
                evidence = evidence.note("no message arrived at all");
            }
            (None, _) => {}
        }
        Verdict::from_bool(found.is_some(), evidence)
    }
}

/// `count` progress notifications (a number or a range) arrived: on a
/// [`ServerMessages`] log all of them, on a [`ToolCall`] those for that call.
///
/// ```
/// # let call = mcptest::expect::samples::progress_call();
/// call.progress_count(3);
/// # let log = mcptest::expect::samples::server_messages();
/// log.progress_count(1..);
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::progress_call();
/// call.progress_count(5..);
/// ```
pub fn progress_count(
    count: impl Into<Count>,
) -> impl Check<ServerMessages> + Check<ToolCall> + 'static {
    ProgressCount(count.into())
}

struct ProgressCount(Count);

impl Check<ServerMessages> for ProgressCount {
    fn describe(&self, polarity: Polarity) -> String {
        self.0.words("progress notification", polarity)
    }
    fn evaluate(&self, log: &ServerMessages) -> Verdict {
        let all = log.all();
        let n = all
            .iter()
            .filter(|m| m.method == "notifications/progress")
            .count();
        Verdict::from_bool(
            self.0.contains(n),
            Evidence::new()
                .actual(messages_shown(&all))
                .note(plural(n, "progress notification")),
        )
    }
}

impl Check<ToolCall> for ProgressCount {
    fn describe(&self, polarity: Polarity) -> String {
        let count = self.0.words("progress notification", polarity);
        format!("{count} for this call")
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        let progress = call.progress();
        let lines: Vec<String> = progress
            .iter()
            .map(|p| {
                let mut line = format!("progress {}", p.progress);
                if let Some(total) = p.total {
                    line.push_str(&format!(" of {total}"));
                }
                if let Some(message) = &p.message {
                    line.push_str(&format!(" {}", quoted(message)));
                }
                line
            })
            .collect();
        let label = plural(progress.len(), "progress notification");
        let shown = if lines.is_empty() {
            Shown::plain(label, "")
        } else {
            Shown::plain(format!("{label}:"), format!("\n{}", lines.join("\n")))
        };
        Verdict::from_bool(
            self.0.contains(progress.len()),
            Evidence::new().actual(shown),
        )
    }
}

/// At least one log message (`notifications/message`) at exactly `level`
/// arrived.
///
/// ```
/// use mcptest::LogLevel;
/// # let log = mcptest::expect::samples::server_messages();
/// log.log_level_seen(LogLevel::Warning);
/// ```
///
/// ```should_panic
/// # use mcptest::LogLevel;
/// # let log = mcptest::expect::samples::server_messages();
/// log.log_level_seen(LogLevel::Error);
/// ```
pub fn log_level_seen(level: LogLevel) -> impl Check<ServerMessages> {
    LogLevelSeen(level)
}

struct LogLevelSeen(LogLevel);

impl Check<ServerMessages> for LogLevelSeen {
    fn describe(&self, polarity: Polarity) -> String {
        let some = polarity.pick("a", "no");
        format!("{some} log message at level {}", self.0)
    }
    fn evaluate(&self, log: &ServerMessages) -> Verdict {
        let messages = log.log_messages();
        let found = messages.iter().any(|m| m.level == self.0);
        // Each level once, in order of first appearance, with its count.
        let mut levels: Vec<(LogLevel, usize)> = Vec::new();
        for m in &messages {
            match levels.iter_mut().find(|(l, _)| *l == m.level) {
                Some((_, n)) => *n += 1,
                None => levels.push((m.level, 1)),
            }
        }
        let words: Vec<String> = levels
            .iter()
            .map(|(level, n)| format!("{level} ({})", plural(*n, "message")))
            .collect();
        let shown = Shown::plain(
            "log levels seen:",
            if words.is_empty() {
                "none".to_owned()
            } else {
                words.join(", ")
            },
        );
        Verdict::from_bool(found, Evidence::new().actual(shown))
    }
}
