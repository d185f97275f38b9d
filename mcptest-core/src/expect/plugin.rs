//! A check judged by a plugin process: the result goes to the plugin, the
//! plugin's answer is the verdict. See [`plugin`].

use serde_json::{Value, json};

use super::{
    check::{Check, Polarity},
    failure::{Evidence, Shown, Verdict},
};
use crate::{
    client::Reply,
    client::Request,
    client::ToolCall,
    client::ToolOutcome,
    plugin::{Plugin, PluginError},
    server_messages::ServerMessages,
};

/// A result a plugin can judge: what it is as JSON, and the request that
/// produced it.
pub trait PluginSubject {
    /// The request that produced this result, when there was one.
    fn plugin_request(&self) -> Option<&Request>;
    /// The result as JSON: the `result` member as the server sent it, or
    /// `{"error": {..}}` when the request failed.
    fn plugin_result(&self) -> Value;
}

impl PluginSubject for ToolCall {
    fn plugin_request(&self) -> Option<&Request> {
        Some(self.request())
    }
    fn plugin_result(&self) -> Value {
        if let Some(raw) = self.raw() {
            return raw.clone();
        }
        match self.outcome() {
            ToolOutcome::RpcError(e) => {
                json!({"error": {"code": e.code, "message": e.message, "data": e.data}})
            }
            _ => {
                let message = self
                    .failure()
                    .map(ToString::to_string)
                    .unwrap_or_else(|| "no result".to_owned());
                json!({"error": {"message": message}})
            }
        }
    }
}

impl<T> PluginSubject for Reply<T> {
    fn plugin_request(&self) -> Option<&Request> {
        Some(self.request())
    }
    /// One page as it came; several pages as an array of them.
    fn plugin_result(&self) -> Value {
        match self.raw() {
            [one] => one.clone(),
            pages => Value::Array(pages.to_vec()),
        }
    }
}

impl PluginSubject for ServerMessages {
    fn plugin_request(&self) -> Option<&Request> {
        None
    }
    /// Every message, in order: `[{"method": .., "params": ..}, ..]`.
    fn plugin_result(&self) -> Value {
        Value::Array(
            self.all()
                .into_iter()
                .map(|m| {
                    let mut message = json!({"method": m.method, "params": m.params});
                    if let Some(id) = m.id {
                        message["id"] = id;
                    }
                    message
                })
                .collect(),
        )
    }
}

/// A result judged by a plugin. See [`plugin`].
struct PluginCheck<'a> {
    plugin: &'a Plugin,
    method: String,
    args: Value,
}

/// The plugin's `method` judges the result.
///
/// The plugin receives `{"result": <the result as JSON>, "request":
/// {"method": .., "params": ..} | null, "args": <args>}` and answers with a
/// verdict: `true`, `false`, or `{"pass": <bool>, "message": <why>,
/// "actual": <what it saw>}` (`message` and `actual` optional). Anything
/// else fails the check, and so does every plugin error — an error answer,
/// a crash, a timeout, a malformed line — with the plugin's own message:
/// a plugin that cannot judge never passes a result, also under
/// [`not`](super::not).
///
/// In an mcp-assert suite file the same check is the `plugin` key of
/// `expect`, mcptest's one extension to that format (strict loading checks
/// it like every other key). The plugin sees the text the file's other
/// expectations compare, as `{"content": [{"type": "text", "text": ..}],
/// "isError": ..}`, and `request` is null; each entry starts its plugin on
/// first use and stops it when the file's run ends:
///
/// ```yaml
/// assert:
///   tool: summarise
///   args: {topic: tides}
///   expect:
///     plugin:
///       - command: node checks/word_count.js   # split like a shell, run from the working directory
///         method: words_at_most
///         args: {max: 50}                      # optional, any value
///         timeout: 5s                          # optional, per request (default 2s)
/// ```
///
/// One entry may be written as a mapping instead of a list.
///
/// ```no_run
/// use mcptest::{expect, plugin::Plugin};
/// use serde_json::json;
/// # async fn demo(mcp: mcptest::McpClient) -> Result<(), mcptest::plugin::PluginError> {
/// let words = Plugin::command("node examples/plugins/word_count.js").start()?;
/// let call = mcp.call_tool("summarise", json!({"topic": "tides"})).await;
/// call.assert(expect::plugin(&words, "words_at_most", json!({"max": 50})));
/// # Ok(()) }
/// ```
pub fn plugin<'a, S: PluginSubject + ?Sized>(
    plugin: &'a Plugin,
    method: impl Into<String>,
    args: Value,
) -> impl Check<S> + 'a {
    PluginCheck {
        plugin,
        method: method.into(),
        args,
    }
}

impl PluginCheck<'_> {
    fn judge(&self, request: Option<&Request>, result: Value) -> Verdict {
        let request = request.map_or(
            Value::Null,
            |r| json!({"method": r.method, "params": r.params}),
        );
        let params = json!({"result": result, "request": request, "args": self.args});
        match self.plugin.call_blocking(&self.method, params) {
            Ok(answer) => verdict_of(answer),
            Err(error) => Verdict::cannot_judge(Evidence::new().actual(error_shown(&error)).note(
                if error.is_plugin_answer() {
                    "the plugin answered with an error, so it did not judge the result"
                } else {
                    "the plugin failed, so it did not judge the result"
                },
            )),
        }
    }
}

fn error_shown(error: &PluginError) -> Shown {
    match error {
        PluginError::Rpc {
            code,
            message,
            data,
            ..
        } => {
            let mut words = format!("{code}: {message}");
            if let Some(data) = data {
                words.push_str(&format!(" (data: {data})"));
            }
            Shown::plain("plugin error", words)
        }
        other => Shown::plain("plugin failure", other.to_string()),
    }
}

/// Reads the plugin's answer as a verdict.
fn verdict_of(answer: Value) -> Verdict {
    let (pass, message, actual) = match &answer {
        Value::Bool(pass) => (*pass, None, None),
        Value::Object(o) => match o.get("pass") {
            Some(Value::Bool(pass)) => (
                *pass,
                o.get("message").and_then(Value::as_str).map(str::to_owned),
                o.get("actual").cloned(),
            ),
            _ => return not_a_verdict(answer),
        },
        _ => return not_a_verdict(answer),
    };
    let mut evidence = Evidence::new();
    if let Some(actual) = actual {
        evidence = evidence.actual(Shown::json("plugin saw", actual));
    }
    if let Some(message) = message {
        evidence = evidence.note(message);
    }
    Verdict::from_bool(pass, evidence)
}

fn not_a_verdict(answer: Value) -> Verdict {
    Verdict::cannot_judge(
        Evidence::new()
            .actual(Shown::json("plugin answer", answer))
            .note(r#"not a verdict: a plugin check answers true, false or {"pass": <bool>, "message": ..}"#),
    )
}

impl<S: PluginSubject + ?Sized> Check<S> for PluginCheck<'_> {
    fn describe(&self, polarity: Polarity) -> String {
        let mut words = format!(
            "plugin {} {:?} {}",
            self.plugin.label(),
            self.method,
            polarity.pick("passes", "fails")
        );
        if !self.args.is_null() {
            words.push_str(&format!(" with {}", self.args));
        }
        words
    }

    fn evaluate(&self, subject: &S) -> Verdict {
        self.judge(subject.plugin_request(), subject.plugin_result())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_read_as_verdicts() {
        assert!(verdict_of(json!(true)).holds());
        assert!(!verdict_of(json!(false)).holds());
        let v = verdict_of(json!({"pass": false, "message": "too long", "actual": 71}));
        assert!(!v.holds());
        let e = v.evidence().unwrap();
        assert_eq!(e.explanation(), Some("too long"));
        assert_eq!(e.shown().unwrap().label(), "plugin saw");
        for not_one in [
            json!(null),
            json!("yes"),
            json!({"ok": true}),
            json!({"pass": "true"}),
        ] {
            let v = verdict_of(not_one);
            assert!(!v.holds() && !v.is_judged());
            assert!(
                v.evidence()
                    .unwrap()
                    .explanation()
                    .unwrap()
                    .starts_with("not a verdict")
            );
        }
    }
}
