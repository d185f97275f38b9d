//! The check of a `plugin:` entry of an `expect` block (loaded by the
//! format crate): its plugin process judges the answer, exactly as
//! [`expect::plugin`](mcptest_core::expect::plugin) does for a fluent check.

use std::sync::OnceLock;

use serde_json::{Value, json};

use mcptest_core::Request;
use mcptest_core::expect;
use mcptest_core::expect::Check;
use mcptest_core::expect::Evidence;
use mcptest_core::expect::PluginSubject;
use mcptest_core::expect::Polarity;
use mcptest_core::expect::Shown;
use mcptest_core::expect::Verdict;
use mcptest_core::plugin::DEFAULT_TIMEOUT;
use mcptest_core::plugin::Plugin;
use mcptest_core::plugin::PluginError;
use mcptest_suite_format::plugin::PluginExpect;

use super::judged::Judged;

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
    fn describe(&self, polarity: Polarity) -> String {
        let mut words = format!(
            "plugin `{}` {:?} {}",
            self.entry.command,
            self.entry.method,
            polarity.pick("passes", "fails")
        );
        if !self.entry.args.is_null() {
            words.push_str(&format!(" with {}", self.entry.args));
        }
        words
    }

    fn evaluate(&self, answer: &Judged<'a>) -> Verdict {
        let started = self.plugin.get_or_init(|| {
            Plugin::command(&self.entry.command)
                .timeout(self.entry.timeout.unwrap_or(DEFAULT_TIMEOUT))
                .start()
        });
        match started {
            Ok(plugin) => {
                let check =
                    expect::plugin(plugin, self.entry.method.clone(), self.entry.args.clone());
                Check::<Judged<'a>>::evaluate(&check, answer)
            }
            Err(error) => Verdict::cannot_judge(
                Evidence::new()
                    .actual(Shown::plain("plugin failure", error.to_string()))
                    .note("the plugin did not start, so it did not judge the result"),
            ),
        }
    }
}
