//! Everything that can go wrong between the host and a plugin, one variant
//! per failure a caller may want to tell apart.

use std::{path::PathBuf, process::ExitStatus, time::Duration};

use serde_json::Value;

use crate::error::{describe_status, fmt_duration};

/// How many lines of the plugin's stderr a message shows.
const STDERR_LINES_SHOWN: usize = 20;
/// A raw line in a message is cut to this many characters.
const LINE_SHOWN: usize = 300;

/// A failed plugin request.
///
/// Every variant but [`PluginError::Rpc`] is a failure of the host or the
/// protocol; `Rpc` is the plugin answering a well-formed request with an
/// error of its own, and the plugin stays usable after it.
///
/// ```
/// use mcptest::plugin::{Plugin, PluginError};
///
/// let err = Plugin::command("definitely-not-installed-plugin").start().unwrap_err();
/// assert!(matches!(err, PluginError::Spawn { .. }));
/// assert!(err.to_string().contains("could not start plugin"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PluginError {
    /// The command line could not be split into words, or names no program.
    #[error("invalid plugin command {input:?}: {reason}")]
    InvalidCommand {
        /// The command line as given.
        input: String,
        /// Why it was rejected.
        reason: String,
    },

    /// The plugin process could not be started.
    #[error("{}", spawn_message(program, searched, source))]
    Spawn {
        /// The program that was to be run.
        program: String,
        /// The directories of `PATH` that were searched, when the program was
        /// named without a directory and not found.
        searched: Vec<PathBuf>,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },

    /// The process started, but one of its standard streams could not be
    /// connected to the host.
    #[error("plugin {program:?} started without a {pipe} pipe; the host cannot talk to it")]
    MissingPipe {
        /// The program that was run.
        program: String,
        /// `stdin`, `stdout` or `stderr`.
        pipe: &'static str,
    },

    /// The plugin exited, or closed its stdout, before it answered. Every
    /// later request fails the same way: a crashed plugin is not restarted.
    #[error("{}{}", crashed_message(method.as_deref(), status.as_ref()), fmt_stderr(stderr))]
    Crashed {
        /// The request that was waiting, if any.
        method: Option<String>,
        /// How the process exited; `None` when it closed stdout but is still
        /// running (it is stopped when the plugin is closed).
        status: Option<ExitStatus>,
        /// The tail of the plugin's stderr.
        stderr: String,
    },

    /// No answer within the request timeout. The plugin keeps running; a
    /// late answer to this request is discarded when it arrives.
    #[error("plugin did not answer {method:?} within {}{}", fmt_duration(*after), fmt_stderr(stderr))]
    Timeout {
        /// The request that went unanswered.
        method: String,
        /// How long the host waited.
        after: Duration,
        /// The tail of the plugin's stderr.
        stderr: String,
    },

    /// The plugin wrote a line that is not JSON.
    #[error(
        "plugin answered {method:?} with a line that is not JSON ({reason}):\n  | {}",
        cut(line)
    )]
    InvalidJson {
        /// The request being answered.
        method: String,
        /// The line as received.
        line: String,
        /// The parser's error.
        reason: String,
    },

    /// The plugin wrote JSON that is not a valid response: another id than the
    /// request's, both or neither of `result` and `error`, a malformed
    /// `error` object.
    #[error(
        "plugin answered {method:?} with an invalid response: {reason}\n  | {}",
        cut(line)
    )]
    InvalidResponse {
        /// The request being answered.
        method: String,
        /// The line as received.
        line: String,
        /// What is wrong with it.
        reason: String,
    },

    /// Reading from or writing to the plugin failed for another reason.
    #[error("plugin I/O failed during {method:?}: {source}")]
    Io {
        /// The request in flight.
        method: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },

    /// The plugin answered with an error object of its own (an unknown
    /// method, bad params, an application failure).
    #[error("plugin answered {method:?} with error {code}: {message}{}", data.as_ref().map(|d| format!(" (data: {d})")).unwrap_or_default())]
    Rpc {
        /// The request that was rejected.
        method: String,
        /// The error code (`-32601` method not found, ...).
        code: i64,
        /// The plugin's message.
        message: String,
        /// The error's `data` member, if any.
        data: Option<Value>,
    },
}

impl PluginError {
    /// True for an error answer from a working plugin ([`PluginError::Rpc`]),
    /// false for every failure of the host or the protocol.
    pub fn is_plugin_answer(&self) -> bool {
        matches!(self, PluginError::Rpc { .. })
    }
}

fn spawn_message(program: &str, searched: &[PathBuf], source: &std::io::Error) -> String {
    if source.kind() == std::io::ErrorKind::NotFound && !searched.is_empty() {
        let dirs: Vec<String> = searched.iter().map(|p| p.display().to_string()).collect();
        format!(
            "could not start plugin {program:?}: not found in PATH (searched: {})",
            dirs.join(":")
        )
    } else {
        format!("could not start plugin {program:?}: {source}")
    }
}

fn crashed_message(method: Option<&str>, status: Option<&ExitStatus>) -> String {
    let how = match status {
        Some(status) => format!("plugin {}", describe_status(status)),
        None => "plugin closed its stdout".to_owned(),
    };
    match method {
        Some(method) => format!("{how} before it answered {method:?}"),
        None => how,
    }
}

fn fmt_stderr(stderr: &str) -> String {
    let stderr = stderr.trim_end();
    if stderr.trim().is_empty() {
        return String::new();
    }
    let lines: Vec<&str> = stderr.lines().collect();
    let skip = lines.len().saturating_sub(STDERR_LINES_SHOWN);
    let mut out = if skip > 0 {
        format!(
            "\n\nplugin stderr (last {STDERR_LINES_SHOWN} of {} lines):",
            lines.len()
        )
    } else {
        "\n\nplugin stderr:".to_owned()
    };
    for line in &lines[skip..] {
        out.push_str("\n  | ");
        out.push_str(line);
    }
    out
}

fn cut(line: &str) -> String {
    if line.chars().count() <= LINE_SHOWN {
        return line.to_owned();
    }
    let kept: String = line.chars().take(LINE_SHOWN).collect();
    format!("{kept}… ({} more bytes)", line.len() - kept.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crash_says_how_and_ends_with_stderr() {
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            let err = PluginError::Crashed {
                method: Some("check".into()),
                status: Some(ExitStatus::from_raw(3 << 8)),
                stderr: "boom\n".into(),
            };
            assert_eq!(
                err.to_string(),
                "plugin exited with code 3 before it answered \"check\"\n\nplugin stderr:\n  | boom"
            );
        }
        let err = PluginError::Crashed {
            method: None,
            status: None,
            stderr: String::new(),
        };
        assert_eq!(err.to_string(), "plugin closed its stdout");
    }

    #[test]
    fn long_lines_are_cut() {
        let err = PluginError::InvalidJson {
            method: "m".into(),
            line: "x".repeat(1000),
            reason: "expected value".into(),
        };
        let text = err.to_string();
        assert!(text.contains("… (700 more bytes)"), "{text}");
    }
}
