//! `plugin:`, mcptest's one extension to mcp-assert's `expect` block: a
//! check judged by a plugin process (see [`mcptest_core::plugin`]).
//!
//! ```yaml
//! expect:
//!   plugin:
//!     - command: node checks/word_count.js   # split like a shell, run from the working directory
//!       method: words_at_most
//!       args: {max: 50}                     # optional, any YAML value
//!       timeout: 5s                         # optional, per request (default 2s)
//! ```
//!
//! One entry may be written as a mapping instead of a list. The plugin
//! receives `{"result": {"content": [{"type": "text", "text": <the text
//! mcp-assert compares>}], "isError": <bool>}, "request": null, "args":
//! <args>}` and answers a verdict, exactly as for
//! [`expect::plugin`](mcptest_core::expect::plugin). Each entry starts its plugin
//! for its first check and stops and reaps it when the file's run ends.

use std::{sync::OnceLock, time::Duration};

use serde_json::{Value, json};

use super::{
    LoadError,
    checks::Judged,
    fields::{self, Fields},
    yaml::{Kind, Node, ToJson},
};
use mcptest_core::Request;
use mcptest_core::expect;
use mcptest_core::expect::Check;
use mcptest_core::expect::Evidence;
use mcptest_core::expect::PluginSubject;
use mcptest_core::expect::Shown;
use mcptest_core::expect::Verdict;
use mcptest_core::plugin::DEFAULT_TIMEOUT;
use mcptest_core::plugin::Plugin;
use mcptest_core::plugin::PluginError;

const KEYS: &[&str] = &["command", "method", "args", "timeout"];

/// One `plugin:` entry as loaded.
#[derive(Debug, Clone)]
pub(crate) struct PluginExpect {
    command: String,
    method: String,
    args: Value,
    timeout: Duration,
}

/// Reads `plugin:` (absent: no entries).
pub(crate) fn load(file: &str, node: Option<&Node>) -> Result<Vec<PluginExpect>, LoadError> {
    let Some(node) = node else {
        return Ok(Vec::new());
    };
    let entries: Vec<&Node> = match &node.kind {
        Kind::Seq(items) if !items.is_empty() => items.iter().collect(),
        Kind::Seq(_) => {
            return Err(LoadError::at(
                file,
                node.pos,
                "`plugin` is an empty list, so it would check nothing",
            ));
        }
        _ if node.as_map().is_some() => vec![node],
        _ => {
            return Err(fields::expected(
                file,
                node,
                "`plugin` to be a mapping with `command` and `method`, or a list of them",
            ));
        }
    };
    entries
        .into_iter()
        .map(|entry| {
            let f = Fields::new(file, entry, "a `plugin` entry", KEYS)?;
            let command =
                f.required_string("command", "the command line that starts the plugin")?;
            if let Err(error) = mcptest_core::process::split_command(&command) {
                return Err(f.error(
                    f.get("command").expect("present"),
                    format!("`command`: {error}"),
                ));
            }
            Ok(PluginExpect {
                command,
                method: f.required_string("method", "the plugin method that judges the result")?,
                args: match f.get("args") {
                    None => Value::Null,
                    Some(n) => n.to_json(file, "`args`")?,
                },
                timeout: f.duration("timeout")?.unwrap_or(DEFAULT_TIMEOUT),
            })
        })
        .collect()
}

impl PluginSubject for Judged<'_> {
    fn plugin_request(&self) -> Option<&Request> {
        None
    }
    fn plugin_result(&self) -> Value {
        json!({"content": [{"type": "text", "text": self.text}], "isError": self.is_error})
    }
}

/// The check of one entry; its plugin starts on first use and is reaped
/// when the check is dropped.
pub(crate) struct PluginEntryCheck {
    entry: PluginExpect,
    plugin: OnceLock<Result<Plugin, PluginError>>,
}

pub(crate) fn check(entry: &PluginExpect) -> PluginEntryCheck {
    PluginEntryCheck {
        entry: entry.clone(),
        plugin: OnceLock::new(),
    }
}

impl<'a> Check<Judged<'a>> for PluginEntryCheck {
    fn describe(&self) -> String {
        let mut words = format!(
            "plugin `{}` {:?} passes",
            self.entry.command, self.entry.method
        );
        if !self.entry.args.is_null() {
            words.push_str(&format!(" with {}", self.entry.args));
        }
        words
    }

    fn evaluate(&self, answer: &Judged<'a>) -> Verdict {
        let started = self.plugin.get_or_init(|| {
            Plugin::command(&self.entry.command)
                .timeout(self.entry.timeout)
                .start()
        });
        match started {
            Ok(plugin) => {
                expect::plugin(plugin, self.entry.method.clone(), self.entry.args.clone())
                    .evaluate(answer)
            }
            Err(error) => Verdict::fail(
                Evidence::new()
                    .actual(Shown::plain("plugin failure", error.to_string()))
                    .note("the plugin did not start, so it did not judge the result"),
            ),
        }
    }
}
