//! The one error type every fallible mcptest call returns.

use std::{fmt, path::PathBuf, process::ExitStatus, time::Duration};

use serde_json::Value;

/// Everything that can go wrong between a test and the server under test.
///
/// Each variant is a different layer of failure, so a test can match on the one
/// it expects. A tool that reports failure with `isError: true` is *not* an
/// error here: it is a [`ToolOutcome::ToolError`](crate::ToolOutcome::ToolError).
///
/// The `Display` text is meant to be read in a failing test's output: it says
/// what was attempted and ends with what the server printed (the tail of its
/// stderr, stray stdout lines), when there is any.
///
/// ```
/// use mcptest::{Error, Server};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let err = Server::command("definitely-not-installed --stdio")
///     .connect()
///     .await
///     .unwrap_err();
/// assert!(matches!(err, Error::Spawn { .. }));
/// assert!(err.to_string().contains("not found in PATH"));
/// # }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A command line could not be split into words (unbalanced quote) or was empty.
    #[error("invalid server command {input:?}: {reason}")]
    InvalidCommand {
        /// The command line as given.
        input: String,
        /// Why it was rejected.
        reason: String,
    },

    /// A [`Server`](crate::Server) option is unusable: a malformed URL or header, an
    /// environment variable that is not set, an in-process handler used twice.
    #[error("invalid server configuration: {message}")]
    InvalidConfig {
        /// What is wrong and how to fix it.
        message: String,
    },

    /// The server process could not be started.
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

    /// The server answered the opening handshake (`initialize` or
    /// `server/discover`) with something unusable.
    #[error("handshake ({method}) failed: {reason}{output}")]
    Handshake {
        /// `initialize` or `server/discover`.
        method: String,
        /// What went wrong.
        reason: String,
        /// What the server printed meanwhile.
        output: Box<ServerOutput>,
    },

    /// No answer within the allowed time.
    #[error("{method} timed out after {}{output}", fmt_duration(*after))]
    Timeout {
        /// The request that went unanswered (`initialize`, `tools/call`, ...).
        method: String,
        /// How long mcptest waited.
        after: Duration,
        /// What the server printed meanwhile.
        output: Box<ServerOutput>,
    },

    /// A wait on [`ServerMessages`](crate::ServerMessages) ran out of time.
    #[error(
        "no notification {expected} arrived within {}; {}",
        fmt_duration(*after),
        fmt_seen(seen)
    )]
    NotificationTimeout {
        /// What was waited for, in words.
        expected: String,
        /// How long mcptest waited.
        after: Duration,
        /// The methods of every message the server did send, in order.
        seen: Vec<String>,
    },

    /// The server process ended while mcptest was waiting for it.
    #[error("{}{output}", exited_message(method.as_deref(), status.as_ref()))]
    ServerExited {
        /// The request in flight when the server exited, if any.
        method: Option<String>,
        /// How it exited, when known.
        status: Option<ExitStatus>,
        /// What the server printed before it exited.
        output: Box<ServerOutput>,
    },

    /// The server answered a request with a JSON-RPC error.
    #[error("{method} was answered with JSON-RPC error {code}: {message}{}{output}", fmt_data(data.as_ref()))]
    JsonRpc {
        /// The request that was rejected.
        method: String,
        /// The JSON-RPC error code (`-32602` invalid params, `-32601` method not found, ...).
        code: i32,
        /// The error message.
        message: String,
        /// The error's `data` member, if any.
        data: Option<Value>,
        /// What the server printed meanwhile.
        output: Box<ServerOutput>,
    },

    /// The server answered, but not with a valid MCP message: a result that does
    /// not match the schema, pagination cursors that never end.
    #[error("{method}: {reason}{output}")]
    Protocol {
        /// The request whose answer was wrong.
        method: String,
        /// What is wrong with it.
        reason: String,
        /// What the server printed meanwhile.
        output: Box<ServerOutput>,
    },

    /// The server's answer breaks the official MCP schema of the session's
    /// revision (see [`Server::wire_schema`](crate::Server::wire_schema)):
    /// the message, the path inside it and what the schema requires there.
    #[error("{method}: {violation}{output}")]
    SchemaViolation {
        /// The request whose answer broke the schema.
        method: String,
        /// Where and how.
        violation: Box<crate::wire_schema::SchemaViolation>,
        /// What the server printed meanwhile.
        output: Box<ServerOutput>,
    },

    /// The connection failed for a reason other than the process exiting:
    /// a refused HTTP connection, an oversized message, a broken pipe. The
    /// reason ends with the root cause: `initialize: cannot connect to
    /// http://127.0.0.1:9/mcp: connection refused`.
    #[error("{}{reason}{output}", method.as_deref().map(|m| format!("{m}: ")).unwrap_or_default())]
    Transport {
        /// The request in flight, if any.
        method: Option<String>,
        /// What failed.
        reason: String,
        /// What the server printed meanwhile.
        output: Box<ServerOutput>,
    },
}

impl Error {
    /// The JSON-RPC error code, when this is [`Error::JsonRpc`].
    pub fn json_rpc_code(&self) -> Option<i32> {
        match self {
            Error::JsonRpc { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// True when a request failed because the server stopped reading its
    /// stdin (a write to it stayed blocked past the request's timeout): the
    /// server is alive but stuck, which a tool sorting failures may count
    /// as a timeout rather than a crash.
    pub fn is_stopped_reading(&self) -> bool {
        matches!(self, Error::Transport { reason, .. } if reason.contains(STOPPED_READING))
    }

    /// What the server printed (stderr tail, stray stdout lines), when this error
    /// carries it.
    pub fn server_output(&self) -> Option<&ServerOutput> {
        Some(match self {
            Error::Handshake { output, .. }
            | Error::Timeout { output, .. }
            | Error::ServerExited { output, .. }
            | Error::JsonRpc { output, .. }
            | Error::Protocol { output, .. }
            | Error::SchemaViolation { output, .. }
            | Error::Transport { output, .. } => output,
            _ => return None,
        })
    }
}

/// How the reason of a request that could not be written begins.
pub(crate) const STOPPED_READING: &str = "the server stopped reading its stdin";

/// What a server printed besides its protocol messages, attached to errors and
/// failure messages.
///
/// `Display` renders nothing when everything is empty, and otherwise a block
/// that starts on a new line, so it can be appended to any message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerOutput {
    /// The tail of the server's stderr (at most the last 64 KiB).
    pub stderr: String,
    /// Lines on stdout that were not JSON-RPC messages, oldest first (the most
    /// recent ones; see `stdout_noise_total`).
    pub stdout_noise: Vec<String>,
    /// How many such lines there were in all.
    pub stdout_noise_total: usize,
    /// The start of an unterminated line the server left on stdout.
    pub partial_line: Option<String>,
    /// Responses whose id matches no request mcptest sent (the first
    /// [`STRAY_KEPT`](crate::limits::STRAY_KEPT); see `stray_responses_total`).
    pub stray_responses: Vec<String>,
    /// How many such responses there were in all.
    pub stray_responses_total: usize,
    /// Server-to-client requests left unanswered because
    /// [`SERVER_REQUESTS_IN_FLIGHT`](crate::limits::SERVER_REQUESTS_IN_FLIGHT)
    /// answers were still waiting for the server to read its stdin.
    pub unanswered_requests: usize,
}

impl ServerOutput {
    /// True when there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.stderr.trim().is_empty()
            && self.stdout_noise.is_empty()
            && self.partial_line.is_none()
            && self.stray_responses.is_empty()
            && self.unanswered_requests == 0
    }
}

/// How many lines of stderr a message shows; the full tail stays available
/// through [`ServerOutput::stderr`] and [`McpClient::stderr`](crate::McpClient::stderr).
const STDERR_LINES_SHOWN: usize = 20;

impl fmt::Display for ServerOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.stray_responses.is_empty() {
            let total = self.stray_responses_total.max(self.stray_responses.len());
            write!(f, "\n\nresponses with an id mcptest never sent ({total}):")?;
            for line in &self.stray_responses {
                write!(f, "\n  | {line}")?;
            }
            let more = total - self.stray_responses.len();
            if more > 0 {
                write!(f, "\n  … and {more} more stray answers")?;
            }
        }
        if self.unanswered_requests > 0 {
            write!(
                f,
                "\n\n{} requests from the server were not answered: {} answers were still \
                 waiting for it to read its stdin",
                self.unanswered_requests,
                crate::limits::SERVER_REQUESTS_IN_FLIGHT
            )?;
        }
        if let Some(partial) = &self.partial_line {
            write!(
                f,
                "\n\nunterminated line on stdout (no newline yet):\n  | {partial}"
            )?;
        }
        if !self.stdout_noise.is_empty() {
            write!(
                f,
                "\n\nnon-JSON-RPC lines on stdout ({} in all):",
                self.stdout_noise_total
            )?;
            for line in &self.stdout_noise {
                write!(f, "\n  | {line}")?;
            }
        }
        let stderr = self.stderr.trim_end();
        if !stderr.trim().is_empty() {
            let lines: Vec<&str> = stderr.lines().collect();
            let skip = lines.len().saturating_sub(STDERR_LINES_SHOWN);
            if skip > 0 {
                write!(
                    f,
                    "\n\nserver stderr (last {STDERR_LINES_SHOWN} of {} lines):",
                    lines.len()
                )?;
            } else {
                write!(f, "\n\nserver stderr:")?;
            }
            for line in &lines[skip..] {
                write!(f, "\n  | {line}")?;
            }
        }
        Ok(())
    }
}

fn spawn_message(program: &str, searched: &[PathBuf], source: &std::io::Error) -> String {
    if source.kind() == std::io::ErrorKind::NotFound {
        if searched.is_empty() {
            format!("could not start server: {program:?} not found ({source})")
        } else {
            let dirs: Vec<String> = searched.iter().map(|p| p.display().to_string()).collect();
            format!(
                "could not start server: {program:?} not found in PATH (searched: {})",
                dirs.join(":")
            )
        }
    } else {
        format!("could not start server {program:?}: {source}")
    }
}

fn exited_message(method: Option<&str>, status: Option<&ExitStatus>) -> String {
    let how = match status {
        Some(status) => describe_status(status),
        None => "exited".to_owned(),
    };
    match method {
        Some(method) => format!("server {how} while mcptest waited for the answer to {method}"),
        None => format!("server {how}"),
    }
}

/// "exited with code 7" / "was killed by signal 9".
pub(crate) fn describe_status(status: &ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("was killed by signal {signal}");
        }
    }
    format!("exited ({status})")
}

fn fmt_data(data: Option<&Value>) -> String {
    match data {
        Some(data) => format!(" (data: {data})"),
        None => String::new(),
    }
}

fn fmt_seen(seen: &[String]) -> String {
    if seen.is_empty() {
        "the server sent no notifications or requests".to_owned()
    } else {
        format!("the server sent: {}", seen.join(", "))
    }
}

/// A duration the way every message and report writes it: whole seconds as
/// `10s`, otherwise milliseconds (`1500ms`), below a millisecond as Debug.
///
/// ```
/// use std::time::Duration;
/// use mcptest_core::__support::fmt_duration;
/// assert_eq!(fmt_duration(Duration::from_secs(10)), "10s");
/// assert_eq!(fmt_duration(Duration::from_millis(1500)), "1500ms");
/// ```
pub fn fmt_duration(d: Duration) -> String {
    if d.as_secs() >= 1 && d.subsec_millis() == 0 {
        format!("{}s", d.as_secs())
    } else if d.as_millis() >= 1 {
        format!("{}ms", d.as_millis())
    } else {
        format!("{d:?}")
    }
}

/// Why a transport failed, in words a user can act on: the error and its
/// causes (each said once), without the transport layer's wrapper types.
/// A connection that could not be opened at all reads
/// "cannot connect to http://127.0.0.1:9/mcp: connection refused".
pub(crate) fn describe_failure(error: &(dyn std::error::Error + 'static)) -> String {
    let chain = causes(error);
    #[cfg(feature = "http")]
    if let Some(text) = connect_failure(&chain) {
        return text;
    }
    join_causes(&chain)
}

/// True when `error` (or one of its causes) is an HTTP connection that could
/// not be opened: refused, unreachable, an unknown host, a connect timeout.
#[cfg(feature = "http")]
pub(crate) fn is_connect_failure(error: &(dyn std::error::Error + 'static)) -> bool {
    connect_failure(&causes(error)).is_some()
}

/// `error` and its `source()`s, outermost first, leaving out the wrappers
/// whose text names Rust types (and following the one wrapper that hides
/// its cause from `source()`).
fn causes<'a>(
    error: &'a (dyn std::error::Error + 'static),
) -> Vec<&'a (dyn std::error::Error + 'static)> {
    let mut chain = Vec::new();
    let mut next = Some(error);
    while let Some(error) = next {
        next = error.source();
        if error
            .downcast_ref::<rmcp::transport::DynamicTransportError>()
            .is_some()
        {
            continue;
        }
        #[cfg(feature = "http")]
        if let Some(rmcp::transport::streamable_http_client::StreamableHttpError::Client(inner)) =
            error.downcast_ref::<rmcp::transport::streamable_http_client::StreamableHttpError<
                reqwest::Error,
            >>()
        {
            next = Some(inner);
            continue;
        }
        chain.push(error);
    }
    chain
}

fn join_causes(chain: &[&(dyn std::error::Error + 'static)]) -> String {
    let mut text = String::new();
    for cause in chain {
        let cause = cause.to_string();
        if cause.is_empty() || text.contains(&cause) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&cause);
    }
    text
}

/// "cannot connect to URL: connection refused", when the chain holds an HTTP
/// request that failed before a connection was made.
#[cfg(feature = "http")]
fn connect_failure(chain: &[&(dyn std::error::Error + 'static)]) -> Option<String> {
    let (at, request) = chain.iter().enumerate().find_map(|(at, e)| {
        e.downcast_ref::<reqwest::Error>()
            .filter(|r| r.is_connect())
            .map(|r| (at, r))
    })?;
    let deeper = &chain[at + 1..];
    let cause = match deeper
        .last()
        .and_then(|e| e.downcast_ref::<std::io::Error>())
    {
        Some(io) => io_words(io),
        None if request.is_timeout() => "the connect timeout passed".to_owned(),
        None => join_causes(deeper),
    };
    let target = match request.url() {
        Some(url) => format!("cannot connect to {url}"),
        None => "cannot connect".to_owned(),
    };
    Some(match cause.is_empty() {
        true => target,
        false => format!("{target}: {cause}"),
    })
}

/// The common reasons a connection is not made, in plain words; others as
/// the operating system says them.
#[cfg(feature = "http")]
fn io_words(error: &std::io::Error) -> String {
    use std::io::ErrorKind::*;
    match error.kind() {
        ConnectionRefused => "connection refused".to_owned(),
        ConnectionReset => "connection reset".to_owned(),
        ConnectionAborted => "connection aborted".to_owned(),
        TimedOut => "timed out".to_owned(),
        HostUnreachable => "host unreachable".to_owned(),
        NetworkUnreachable => "network unreachable".to_owned(),
        AddrNotAvailable => "address not available".to_owned(),
        _ => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transport_failure_reads_as_its_causes_without_type_names() {
        let error = rmcp::transport::DynamicTransportError::from_parts(
            "some::crate::Transport<some::Client>",
            std::any::TypeId::of::<()>(),
            Box::new(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "the pipe broke",
            )),
        );
        assert_eq!(describe_failure(&error), "the pipe broke");
    }
}
