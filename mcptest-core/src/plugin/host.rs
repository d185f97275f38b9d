//! The host side of one plugin process: a thread of its own with a small
//! runtime, serving requests one at a time.
//!
//! The thread is what lets a plugin serve synchronous callers — a
//! [`Check`](crate::expect::Check) judges a result without `async`, often
//! on the single thread of a `#[tokio::test]` runtime, which would deadlock
//! if the plugin's pipes were driven by that same runtime.

use std::{
    process::ExitStatus,
    sync::{Arc, mpsc},
    time::Duration,
};

use serde_json::Value;
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    process::{ChildStdin, ChildStdout},
    sync::{mpsc::UnboundedReceiver, oneshot},
};

use super::{
    error::PluginError,
    frames::{Answer, parse_answer, request_line},
};
use crate::{
    error::Error,
    transport::{
        process::{ChildProcess, Launch},
        stderr::StderrTail,
    },
};

/// A line from the plugin longer than this is refused (and the plugin is
/// treated as broken): a missing newline must not eat the test's memory.
const MAX_LINE: usize = 64 * 1024 * 1024;
/// After stdout closed, how long to wait for the process to exit so the
/// error can say how it ended.
const EXIT_WAIT: Duration = Duration::from_secs(1);
/// How long to wait for the last of stderr after the process exited.
const STDERR_WAIT: Duration = Duration::from_millis(500);

/// Where an answer goes: an awaiting task or a blocked thread.
pub(super) enum ReplyTo {
    Task(oneshot::Sender<Result<Value, PluginError>>),
    Thread(mpsc::Sender<Result<Value, PluginError>>),
}

pub(super) enum Job {
    Call {
        method: String,
        params: Option<Value>,
        reply: ReplyTo,
    },
    Close {
        reply: oneshot::Sender<Option<ExitStatus>>,
    },
}

/// Runs on the plugin's own thread until the last handle is gone or
/// [`Job::Close`] arrives; reports the spawn's outcome (the pid) on `ready`.
pub(super) fn run(
    launch: Launch,
    timeout: Duration,
    ready: mpsc::Sender<Result<Option<u32>, PluginError>>,
    mut jobs: UnboundedReceiver<Job>,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(source) => {
            let _ = ready.send(Err(PluginError::Io {
                method: "(start)".to_owned(),
                source,
            }));
            return;
        }
    };
    runtime.block_on(async move {
        let mut host = match Host::start(&launch, timeout) {
            Ok(host) => {
                let _ = ready.send(Ok(host.process.pid()));
                host
            }
            Err(error) => {
                let _ = ready.send(Err(error));
                return;
            }
        };
        while let Some(job) = jobs.recv().await {
            match job {
                Job::Call {
                    method,
                    params,
                    reply,
                } => {
                    let answer = host.call(&method, params.as_ref()).await;
                    match reply {
                        ReplyTo::Task(reply) => {
                            let _ = reply.send(answer);
                        }
                        ReplyTo::Thread(reply) => {
                            let _ = reply.send(answer);
                        }
                    }
                }
                Job::Close { reply } => {
                    let _ = reply.send(host.close().await);
                    return;
                }
            }
        }
        host.close().await;
    });
}

struct Host {
    process: ChildProcess,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    stderr: Arc<StderrTail>,
    /// The start of a line not yet ended by a newline.
    pending: Vec<u8>,
    next_id: u64,
    /// Requests that timed out: their late answers are dropped.
    timed_out: Vec<u64>,
    /// Set once stdout closed: how the process ended, if it did.
    crashed: Option<Option<ExitStatus>>,
    timeout: Duration,
}

impl Host {
    fn start(launch: &Launch, timeout: Duration) -> Result<Host, PluginError> {
        let parts = ChildProcess::spawn_parts(launch).map_err(|error| match error {
            Error::Spawn {
                program,
                searched,
                source,
            } => PluginError::Spawn {
                program,
                searched,
                source,
            },
            other => PluginError::Spawn {
                program: launch.program.clone(),
                searched: Vec::new(),
                source: std::io::Error::other(other.to_string()),
            },
        })?;
        let missing = |pipe| PluginError::MissingPipe {
            program: launch.program.clone(),
            pipe,
        };
        // On an early return the process is dropped, which kills and reaps it.
        let stdin = parts.stdin.ok_or_else(|| missing("stdin"))?;
        let stdout = parts.stdout.ok_or_else(|| missing("stdout"))?;
        let stderr = parts.stderr.ok_or_else(|| missing("stderr"))?;
        Ok(Host {
            process: parts.process,
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
            stderr: StderrTail::spawn_reader(stderr),
            pending: Vec::new(),
            next_id: 1,
            timed_out: Vec::new(),
            crashed: None,
            timeout,
        })
    }

    async fn call(&mut self, method: &str, params: Option<&Value>) -> Result<Value, PluginError> {
        if let Some(status) = self.crashed {
            return Err(PluginError::Crashed {
                method: Some(method.to_owned()),
                status: status.or_else(|| self.process.try_status()),
                stderr: self.stderr.text(),
            });
        }
        let id = self.next_id;
        self.next_id += 1;
        let line = request_line(method, params, id);
        match tokio::time::timeout(self.timeout, self.exchange(method, &line, id)).await {
            Ok(answer) => answer,
            Err(_) => {
                self.timed_out.push(id);
                Err(PluginError::Timeout {
                    method: method.to_owned(),
                    after: self.timeout,
                    stderr: self.stderr.text(),
                })
            }
        }
    }

    async fn exchange(&mut self, method: &str, line: &[u8], id: u64) -> Result<Value, PluginError> {
        let io = |source| PluginError::Io {
            method: method.to_owned(),
            source,
        };
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.crash(method).await);
        };
        let written = match stdin.write_all(line).await {
            Ok(()) => stdin.flush().await,
            Err(error) => Err(error),
        };
        if let Err(error) = written {
            return Err(if error.kind() == std::io::ErrorKind::BrokenPipe {
                self.crash(method).await
            } else {
                io(error)
            });
        }
        loop {
            let Some(line) = self.read_line(method).await? else {
                return Err(self.crash(method).await);
            };
            if line.trim().is_empty() {
                continue;
            }
            let timed_out = &self.timed_out;
            match parse_answer(&line, method, id, |id| timed_out.contains(&id))? {
                Answer::Stale => continue,
                Answer::Result(value) => return Ok(value),
                Answer::Error {
                    code,
                    message,
                    data,
                } => {
                    return Err(PluginError::Rpc {
                        method: method.to_owned(),
                        code,
                        message,
                        data,
                    });
                }
            }
        }
    }

    /// The next complete line, `None` at EOF. Cancel-safe: a partial line
    /// stays in `pending` when a timeout interrupts the read.
    async fn read_line(&mut self, method: &str) -> Result<Option<String>, PluginError> {
        loop {
            let buf = self
                .stdout
                .fill_buf()
                .await
                .map_err(|source| PluginError::Io {
                    method: method.to_owned(),
                    source,
                })?;
            if buf.is_empty() {
                return Ok(None);
            }
            let (taken, complete) = match buf.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (buf.len(), false),
            };
            self.pending.extend_from_slice(&buf[..taken]);
            self.stdout.consume(taken);
            if complete {
                let line = std::mem::take(&mut self.pending);
                return Ok(Some(String::from_utf8_lossy(&line).trim_end().to_owned()));
            }
            if self.pending.len() > MAX_LINE {
                let start = String::from_utf8_lossy(&self.pending[..200]).into_owned();
                self.pending.clear();
                return Err(PluginError::InvalidResponse {
                    method: method.to_owned(),
                    line: start,
                    reason: format!("the line is longer than {MAX_LINE} bytes without a newline"),
                });
            }
        }
    }

    /// Stdout closed (or stdin broke): collect how the plugin ended.
    async fn crash(&mut self, method: &str) -> PluginError {
        self.stdin.take();
        // Marked before the waits below, which a timeout may cut short.
        self.crashed = Some(None);
        let status = self.process.wait_for_exit(EXIT_WAIT).await;
        if status.is_some() {
            self.stderr.wait_closed(STDERR_WAIT).await;
        }
        self.crashed = Some(status);
        PluginError::Crashed {
            method: Some(method.to_owned()),
            status,
            stderr: self.stderr.text(),
        }
    }

    /// EOF on the plugin's stdin, `timeout` to exit, then the process group
    /// is killed; the process is reaped either way.
    async fn close(mut self) -> Option<ExitStatus> {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.shutdown().await;
        }
        self.process.shutdown(self.timeout).await
    }
}
