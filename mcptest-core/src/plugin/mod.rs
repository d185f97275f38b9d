//! Checks and helpers written in any language, run as child processes.
//!
//! A plugin is a program that reads one JSON request per line on stdin and
//! writes one JSON response per line on stdout:
//!
//! ```text
//! host → plugin   {"method": "echo", "params": {"a": 1}, "id": 1}
//! plugin → host   {"id": 1, "result": {"echoed": {"a": 1}}}
//!             or  {"id": 1, "error": {"code": -32601, "message": "no such method", "data": ..}}
//! ```
//!
//! Exactly one of `result` and `error` is present, and `id` is the
//! request's: an answer with another id is an error, never taken for the
//! answer. The plugin logs to stderr (kept for error messages), and exits
//! when stdin reaches EOF. Error codes follow JSON-RPC: -32700 parse error,
//! -32600 invalid request, -32601 method not found, -32602 invalid params,
//! -32603 internal error; any other integer is the plugin's own. The
//! protocol version is [`PLUGIN_PROTOCOL_VERSION`].
//!
//! One process serves every request of a [`Plugin`], one at a time, each
//! with a timeout ([`DEFAULT_TIMEOUT`] unless set). Closing or dropping
//! the plugin closes its stdin, waits up to that timeout for it to exit,
//! then kills its process group; it is always reaped.
//!
//! ```no_run
//! use mcptest::plugin::Plugin;
//! use serde_json::json;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), mcptest::plugin::PluginError> {
//! let plugin = Plugin::command("python3 examples/plugins/echo.py").start()?;
//! assert_eq!(plugin.call("ping", None).await?, json!({"pong": true}));
//! assert_eq!(plugin.call("echo", json!([1, 2])).await?, json!({"echoed": [1, 2]}));
//! plugin.close().await;
//! # Ok(()) }
//! ```
//!
//! A plugin can judge any result as a check: see [`expect::plugin`](crate::expect::plugin).

mod error;
mod frames;
mod host;

use std::{
    fmt,
    path::{Path, PathBuf},
    process::ExitStatus,
    sync::mpsc,
    thread::JoinHandle,
    time::Duration,
};

use serde_json::Value;
use tokio::sync::{mpsc::UnboundedSender, oneshot};

pub use error::PluginError;
use host::{Job, ReplyTo};

use crate::{command::split, transport::process::Launch};

/// The version of the plugin protocol this host speaks.
pub const PLUGIN_PROTOCOL_VERSION: &str = "v1";

/// How long a request waits for its answer unless
/// [`PluginCommand::timeout`] says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

/// Extra time a blocked caller waits beyond the request timeout, for the
/// host to collect how a crashed plugin ended.
const REPLY_SLACK: Duration = Duration::from_secs(10);

/// How to start a plugin: a program, its arguments, environment and working
/// directory, and the per-request timeout. Made by [`Plugin::command`] or
/// [`Plugin::program`]; [`start`](Self::start) runs it.
#[derive(Debug, Clone)]
#[must_use = "a plugin command does nothing until `.start()`"]
pub struct PluginCommand {
    program: Result<String, (String, String)>,
    args: Vec<String>,
    env: Vec<(String, String)>,
    current_dir: Option<PathBuf>,
    timeout: Duration,
}

impl PluginCommand {
    /// Adds one argument.
    pub fn arg(mut self, arg: impl Into<String>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// Adds arguments.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Sets an environment variable for the plugin (on top of the test's
    /// environment), passed as written.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Runs the plugin in `dir`.
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.current_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// How long each request waits for its answer (default
    /// [`DEFAULT_TIMEOUT`]); also how long closing waits for the plugin to
    /// exit before it is killed.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Starts the plugin process. Works in and out of an async runtime: the
    /// plugin is served from a thread of its own.
    ///
    /// Fails with [`PluginError::InvalidCommand`], [`PluginError::Spawn`] or
    /// [`PluginError::MissingPipe`].
    pub fn start(self) -> Result<Plugin, PluginError> {
        let program = self
            .program
            .map_err(|(input, reason)| PluginError::InvalidCommand { input, reason })?;
        let label = std::iter::once(&program)
            .chain(&self.args)
            .map(|word| match Path::new(word).file_name() {
                Some(name) => name.to_string_lossy().into_owned(),
                None => word.clone(),
            })
            .collect::<Vec<_>>()
            .join(" ");
        let launch = Launch {
            program: program.clone(),
            args: self.args,
            env: self.env,
            current_dir: self.current_dir,
        };
        let (ready_tx, ready) = mpsc::channel();
        let (jobs, jobs_rx) = tokio::sync::mpsc::unbounded_channel();
        let timeout = self.timeout;
        let thread = std::thread::Builder::new()
            .name(format!("mcptest plugin {program}"))
            .spawn(move || host::run(launch, timeout, ready_tx, jobs_rx))
            .map_err(|source| PluginError::Io {
                method: "(start)".to_owned(),
                source,
            })?;
        let pid = match ready.recv() {
            Ok(Ok(pid)) => pid,
            Ok(Err(error)) => {
                let _ = thread.join();
                return Err(error);
            }
            Err(_) => {
                let _ = thread.join();
                return Err(PluginError::Io {
                    method: "(start)".to_owned(),
                    source: std::io::Error::other("the plugin's host thread ended"),
                });
            }
        };
        Ok(Plugin {
            jobs: Some(jobs),
            thread: Some(thread),
            pid,
            label,
            timeout,
        })
    }
}

/// A running plugin process: send it requests with [`call`](Self::call)
/// (or [`call_blocking`](Self::call_blocking) outside `async`), use it in
/// checks with [`expect::plugin`](crate::expect::plugin), and stop it with
/// [`close`](Self::close) or by dropping it.
///
/// Requests from several tasks or threads are served one at a time, in the
/// order they arrive.
pub struct Plugin {
    jobs: Option<UnboundedSender<Job>>,
    thread: Option<JoinHandle<()>>,
    pid: Option<u32>,
    label: String,
    timeout: Duration,
}

impl Plugin {
    /// A plugin started from a command line, split like a shell (never run
    /// through one): `Plugin::command("python3 checks.py --strict")`.
    pub fn command(line: &str) -> PluginCommand {
        match split(line) {
            Ok((program, args)) => Plugin::program(program).args(args),
            Err(crate::error::Error::InvalidCommand { input, reason }) => PluginCommand {
                program: Err((input, reason)),
                ..Plugin::program("")
            },
            Err(other) => PluginCommand {
                program: Err((line.to_owned(), other.to_string())),
                ..Plugin::program("")
            },
        }
    }

    /// A plugin started from a program path (or a name looked up in `PATH`).
    pub fn program(program: impl AsRef<std::ffi::OsStr>) -> PluginCommand {
        PluginCommand {
            program: Ok(program.as_ref().to_string_lossy().into_owned()),
            args: Vec::new(),
            env: Vec::new(),
            current_dir: None,
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// Sends `method` with `params` (`None` leaves `params` out) and waits
    /// for the answer: the plugin's `result`, or a [`PluginError`].
    pub async fn call(
        &self,
        method: &str,
        params: impl Into<Option<Value>>,
    ) -> Result<Value, PluginError> {
        let (reply, answer) = oneshot::channel();
        self.send(method, params.into(), ReplyTo::Task(reply))?;
        answer.await.unwrap_or_else(|_| Err(self.gone(method)))
    }

    /// [`call`](Self::call) for code that is not `async` (a
    /// [`Check`](crate::expect::Check), a plain `#[test]`). It blocks the
    /// calling thread for at most the timeout (plus a moment to collect how
    /// a crashed plugin ended), and is safe inside an async runtime too.
    pub fn call_blocking(
        &self,
        method: &str,
        params: impl Into<Option<Value>>,
    ) -> Result<Value, PluginError> {
        let (reply, answer) = mpsc::channel();
        self.send(method, params.into(), ReplyTo::Thread(reply))?;
        match answer.recv_timeout(self.timeout + REPLY_SLACK) {
            Ok(answer) => answer,
            Err(_) => Err(self.gone(method)),
        }
    }

    /// The operating system's id of the plugin process.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// The command line in short, for messages: each word's file name
    /// (`python3 echo.py`).
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The per-request timeout.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Closes the plugin's stdin, waits up to the timeout for it to exit,
    /// then kills its process group. Returns how it exited, when known.
    pub async fn close(mut self) -> Option<ExitStatus> {
        let (reply, status) = oneshot::channel();
        let sent = self
            .jobs
            .take()
            .is_some_and(|jobs| jobs.send(Job::Close { reply }).is_ok());
        if !sent {
            return None;
        }
        status.await.ok().flatten()
    }

    fn send(&self, method: &str, params: Option<Value>, reply: ReplyTo) -> Result<(), PluginError> {
        let job = Job::Call {
            method: method.to_owned(),
            params,
            reply,
        };
        match &self.jobs {
            Some(jobs) if jobs.send(job).is_ok() => Ok(()),
            _ => Err(self.gone(method)),
        }
    }

    /// The host thread is gone (it panicked): nothing can answer.
    fn gone(&self, method: &str) -> PluginError {
        PluginError::Io {
            method: method.to_owned(),
            source: std::io::Error::other(format!(
                "the host of plugin {:?} stopped unexpectedly",
                self.label
            )),
        }
    }
}

impl fmt::Debug for Plugin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Plugin")
            .field("command", &self.label)
            .field("pid", &self.pid)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl Drop for Plugin {
    fn drop(&mut self) {
        // Without a sender the host thread closes the plugin and ends; the
        // join makes drop return only once the process is reaped.
        self.jobs.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
