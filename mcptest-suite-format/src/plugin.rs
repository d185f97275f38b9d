//! `plugin:`, mcptest's one extension to mcp-assert's `expect` block: a
//! check judged by a plugin process (mcptest's plugin host).
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
//! <args>}` and answers a verdict, exactly as for mcptest's
//! `expect::plugin`. Each entry starts its plugin for its first check and
//! stops and reaps it when the file's run ends.

use std::time::Duration;

use serde_json::Value;

use crate::{
    error::LoadError,
    fields::{self, Fields},
    json::ToJson,
    tree::{Kind, Node, Pos},
};

const KEYS: &[&str] = &["command", "method", "args", "timeout"];

/// One `plugin:` entry as loaded.
#[derive(Debug, Clone)]
pub struct PluginExpect {
    /// The command line that starts the plugin (split like a shell).
    pub command: String,
    /// Where `command`'s value is written.
    pub command_pos: Pos,
    /// The plugin method that judges the result.
    pub method: String,
    /// Its `args` (`null` when none).
    pub args: Value,
    /// Its `timeout`, per request (the plugin host's default when `None`).
    pub timeout: Option<Duration>,
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
            Ok(PluginExpect {
                command,
                command_pos: f.get("command").expect("present").pos,
                method: f.required_string("method", "the plugin method that judges the result")?,
                args: match f.get("args") {
                    None => Value::Null,
                    Some(n) => n.to_json(file, "`args`")?,
                },
                timeout: f.duration("timeout")?,
            })
        })
        .collect()
}
