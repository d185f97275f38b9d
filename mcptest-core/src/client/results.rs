//! Owned results that remember the request they answer.

use std::{
    fmt,
    ops::Deref,
    path::{Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use rmcp::model::{
    CallToolResult, ContentBlock, ProgressNotificationParam, ProtocolVersion, ServerCapabilities,
    Tool,
};
use serde_json::Value;

use crate::{error::Error, error::ServerOutput, transport::inbound::Inbound};

/// A request as it was sent: the method and its params (without the `_meta`
/// rmcp adds). Results carry it so a failure can say what was called.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Request {
    /// The JSON-RPC method, e.g. `tools/call`.
    pub method: String,
    /// The params member (`Value::Null` when there is none).
    pub params: Value,
}

impl Request {
    /// A request description; handy when building results by hand in tests.
    pub fn new(method: impl Into<String>, params: Value) -> Self {
        Request {
            method: method.into(),
            params,
        }
    }
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.params.is_null() {
            f.write_str(&self.method)
        } else {
            write!(f, "{} {}", self.method, self.params)
        }
    }
}

/// Where a result came from, for failure messages and file checks: a live
/// view of what the server printed, and the test's fixture directory.
#[derive(Clone, Default)]
pub struct Origin {
    inbound: Option<Arc<Inbound>>,
    fixture_dir: Option<Arc<Path>>,
    /// Where a failed call the test never looked at is reported: its client.
    unexamined: Option<Unexamined>,
}

/// The failed requests a client handed out and the test dropped without
/// looking at them, in words: `tools/call add_todo: did not finish ...`.
pub(crate) type Unexamined = Arc<std::sync::Mutex<Vec<String>>>;

impl Origin {
    pub(crate) fn new(
        inbound: Arc<Inbound>,
        fixture_dir: Option<Arc<Path>>,
        unexamined: Unexamined,
    ) -> Self {
        Origin {
            inbound: Some(inbound),
            fixture_dir,
            unexamined: Some(unexamined),
        }
    }

    /// An origin with only a fixture directory (for results built by hand).
    pub fn with_fixture_dir(dir: impl Into<PathBuf>) -> Self {
        Origin {
            inbound: None,
            fixture_dir: Some(Arc::from(dir.into())),
            unexamined: None,
        }
    }

    /// What the server printed up to now (stderr tail, stray stdout lines).
    pub fn server_output(&self) -> ServerOutput {
        self.inbound
            .as_ref()
            .map(|w| *w.output())
            .unwrap_or_default()
    }

    /// The test's fixture directory, when the server was given one with
    /// [`Server::fixture_dir`](crate::Server::fixture_dir).
    pub fn fixture_dir(&self) -> Option<&Path> {
        self.fixture_dir.as_deref()
    }
}

impl fmt::Debug for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Origin")
    }
}

/// The answer to one request (or, for `list_*`, to every page of it), with the
/// request it answers.
///
/// Dereferences to the typed value, so `reply.tools`, `reply.len()` and the
/// like read naturally.
///
/// ```no_run
/// # async fn demo(mcp: mcptest::McpClient) -> Result<(), mcptest::Error> {
/// let tools = mcp.list_tools().await?;
/// assert!(tools.iter().any(|t| t.name == "add"));
/// println!("{} tools in {} pages, asked with {}", tools.len(), tools.pages(), tools.request());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
#[must_use = "a result is only tested when something looks at it: check it, e.g. `.has(\"name\")`, or read `.value()`"]
pub struct Reply<T> {
    request: Request,
    value: T,
    raw: Vec<Value>,
    elapsed: Duration,
    origin: Origin,
}

impl<T> Reply<T> {
    pub(crate) fn new(
        request: Request,
        value: T,
        raw: Vec<Value>,
        elapsed: Duration,
        origin: Origin,
    ) -> Self {
        Reply {
            request,
            value,
            raw,
            elapsed,
            origin,
        }
    }

    /// Builds a reply by hand (for testing checks without a server).
    pub fn from_parts(request: Request, value: T, raw: Value) -> Self {
        Reply::new(request, value, vec![raw], Duration::ZERO, Origin::default())
    }

    /// The request this answers (for a list: the first page's request).
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// The typed value.
    pub fn value(&self) -> &T {
        &self.value
    }

    /// The typed value, by value.
    pub fn into_inner(self) -> T {
        self.value
    }

    /// The `result` member of each answer exactly as the server sent it (one
    /// per page for lists). Over Streamable HTTP this is the typed result
    /// serialized again, so fields rmcp does not know are missing.
    pub fn raw(&self) -> &[Value] {
        &self.raw
    }

    /// How many answers made up this reply (pages, for a list).
    pub fn pages(&self) -> usize {
        self.raw.len()
    }

    /// Time from sending the (first) request to the (last) answer.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// What the server printed up to now, for failure messages.
    pub fn server_output(&self) -> ServerOutput {
        self.origin.server_output()
    }

    /// Where the reply came from (server output, fixture directory).
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// Replaces the origin (for replies built by hand in tests).
    pub fn with_origin(mut self, origin: Origin) -> Self {
        self.origin = origin;
        self
    }
}

impl<T> Deref for Reply<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

/// A JSON-RPC error as the server sent it: the three members the JSON-RPC
/// error object has.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The error code (`-32602` invalid params, ...).
    pub code: i32,
    /// The message.
    pub message: String,
    /// The `data` member, if any.
    pub data: Option<Value>,
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JSON-RPC error {}: {}", self.code, self.message)?;
        if let Some(data) = &self.data {
            write!(f, " (data: {data})")?;
        }
        Ok(())
    }
}

/// How a tool call ended. The first three are answers from a healthy server;
/// only [`ToolOutcome::Failed`] means the connection itself failed. The four
/// are the whole classification (the tool's answer, the protocol's, the
/// transport's), so a `match` needs no wildcard.
#[derive(Debug)]
pub enum ToolOutcome {
    /// The tool ran and reported success.
    Success(CallToolResult),
    /// The tool ran and reported failure: `isError: true`.
    ToolError(CallToolResult),
    /// The server rejected the call with a JSON-RPC error (unknown tool, bad
    /// arguments, a crash in the handler).
    RpcError(RpcError),
    /// No answer: timeout, the server exited, the connection broke.
    Failed(Error),
}

/// The result of one `tools/call`: what was called, how it ended, and what
/// came with it. A failed call is data here, never a panic; the checks in
/// [`expect`](crate::expect) turn it into a test failure.
///
/// ```no_run
/// # async fn demo(mcp: mcptest::McpClient) {
/// use mcptest::ToolOutcome;
/// use serde_json::json;
///
/// let call = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
/// match call.outcome() {
///     ToolOutcome::Success(_) => assert_eq!(call.text(), "5"),
///     other => panic!("add failed: {other:?}"),
/// }
/// # }
/// ```
///
/// A call that got no answer (timeout, the server exited, the connection
/// broke: [`ToolOutcome::Failed`]) must be looked at: if the test drops it
/// without calling any of its methods or checks, the test fails when its
/// client is closed (the end of an `#[mcp_test]`, [`McpClient::close`](crate::McpClient::close)),
/// naming the call and the failure. To expect that failure, say so:
/// [`assert_failed`](ToolCall::assert_failed).
#[derive(Debug)]
#[must_use = "a tool call is only tested when something looks at it: check it, e.g. `.assert_success()`"]
pub struct ToolCall {
    pub(crate) request: Request,
    pub(crate) name: String,
    pub(crate) arguments: Value,
    pub(crate) outcome: ToolOutcome,
    pub(crate) raw: Option<Value>,
    pub(crate) elapsed: Duration,
    pub(crate) tool: Option<Tool>,
    pub(crate) progress: Vec<ProgressNotificationParam>,
    pub(crate) origin: Origin,
    pub(crate) watch: FailureWatch,
}

/// Watches a call that got no answer: dropped without anyone looking at it,
/// it is reported to the client it came from, which fails the test.
#[derive(Debug, Default)]
pub(crate) struct FailureWatch {
    examined: std::sync::atomic::AtomicBool,
    /// The call and its failure in words, and where to report it.
    report: Option<(String, Unexamined)>,
}

impl FailureWatch {
    pub(crate) fn new(request: &Request, outcome: &ToolOutcome, origin: &Origin) -> Self {
        let report = match (outcome, &origin.unexamined) {
            (ToolOutcome::Failed(error), Some(sink)) => {
                let name = request.params.get("name").and_then(Value::as_str);
                let call = match name {
                    Some(name) => format!("{} {name}", request.method),
                    None => request.method.clone(),
                };
                Some((format!("{call}: {error}"), sink.clone()))
            }
            _ => None,
        };
        FailureWatch {
            examined: std::sync::atomic::AtomicBool::new(false),
            report,
        }
    }

    /// The test looked at the call.
    pub(crate) fn examine(&self) {
        self.examined
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Drop for FailureWatch {
    fn drop(&mut self) {
        if self.examined.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        if let Some((what, sink)) = self.report.take() {
            sink.lock().unwrap_or_else(|p| p.into_inner()).push(what);
        }
    }
}

impl ToolCall {
    /// Builds a tool call by hand (for testing checks without a server).
    pub fn from_parts(name: impl Into<String>, arguments: Value, outcome: ToolOutcome) -> Self {
        let name = name.into();
        let raw = match &outcome {
            ToolOutcome::Success(r) | ToolOutcome::ToolError(r) => serde_json::to_value(r).ok(),
            _ => None,
        };
        ToolCall {
            request: Request::new(
                "tools/call",
                serde_json::json!({ "name": name, "arguments": arguments }),
            ),
            name,
            arguments,
            outcome,
            raw,
            elapsed: Duration::ZERO,
            tool: None,
            progress: Vec::new(),
            origin: Origin::default(),
            watch: FailureWatch::default(),
        }
    }

    /// Attaches the tool's declared definition (input and output schema).
    pub fn with_tool(mut self, tool: Tool) -> Self {
        self.tool = Some(tool);
        self
    }

    /// Attaches the progress notifications sent for the call (for calls built
    /// by hand).
    pub fn with_progress(mut self, progress: Vec<ProgressNotificationParam>) -> Self {
        self.progress = progress;
        self
    }

    /// The request that was sent.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The arguments it was called with.
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// How the call ended. Every method that shows how the call ended, and
    /// every check, counts as looking at it (see [`ToolCall`]).
    pub fn outcome(&self) -> &ToolOutcome {
        self.watch.examine();
        &self.outcome
    }

    /// The outcome, by value.
    pub fn into_outcome(self) -> ToolOutcome {
        self.watch.examine();
        self.outcome
    }

    /// True when the tool reported success.
    pub fn is_success(&self) -> bool {
        matches!(self.outcome(), ToolOutcome::Success(_))
    }

    /// True when the tool reported failure with `isError: true`.
    pub fn is_tool_error(&self) -> bool {
        matches!(self.outcome(), ToolOutcome::ToolError(_))
    }

    /// The result, when the tool answered (successfully or with `isError`).
    pub fn result(&self) -> Option<&CallToolResult> {
        match self.outcome() {
            ToolOutcome::Success(r) | ToolOutcome::ToolError(r) => Some(r),
            _ => None,
        }
    }

    /// The JSON-RPC error, when the server answered with one.
    pub fn rpc_error(&self) -> Option<&RpcError> {
        match self.outcome() {
            ToolOutcome::RpcError(e) => Some(e),
            _ => None,
        }
    }

    /// The connection failure, when there was no answer at all.
    pub fn failure(&self) -> Option<&Error> {
        match self.outcome() {
            ToolOutcome::Failed(e) => Some(e),
            _ => None,
        }
    }

    /// The content blocks (empty without a result).
    pub fn content(&self) -> &[ContentBlock] {
        self.result().map(|r| r.content.as_slice()).unwrap_or(&[])
    }

    /// All text blocks joined with `"\n"` (empty without a result).
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self
            .content()
            .iter()
            .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
            .collect();
        texts.join("\n")
    }

    /// `structuredContent`, if the tool returned any.
    pub fn structured(&self) -> Option<&Value> {
        self.result().and_then(|r| r.structured_content.as_ref())
    }

    /// The `result` member exactly as the server sent it (see [`Reply::raw`]).
    pub fn raw(&self) -> Option<&Value> {
        self.watch.examine();
        self.raw.as_ref()
    }

    /// Time from sending the request to the answer.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// The tool's definition from the server's tool list, when known: from
    /// a list fetched earlier on this connection, or fetched for this call
    /// because its answer carries `structuredContent` (see
    /// [`Server::fetch_tool_definitions`](crate::Server::fetch_tool_definitions)).
    pub fn tool(&self) -> Option<&Tool> {
        self.tool.as_ref()
    }

    /// The progress notifications the server sent for this call, in order.
    pub fn progress(&self) -> &[ProgressNotificationParam] {
        &self.progress
    }

    /// What the server printed up to now, for failure messages.
    pub fn server_output(&self) -> ServerOutput {
        self.origin.server_output()
    }

    /// Where the call came from (server output, fixture directory).
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// Replaces the origin (for calls built by hand in tests).
    pub fn with_origin(mut self, origin: Origin) -> Self {
        self.origin = origin;
        self
    }

    /// The test's fixture directory, if the server was given one.
    pub fn fixture_dir(&self) -> Option<&Path> {
        self.origin.fixture_dir()
    }

    /// The result when the tool answered (also with `isError: true`);
    /// otherwise the JSON-RPC error or connection failure as an [`Error`].
    pub fn into_result(self) -> Result<CallToolResult, Error> {
        self.watch.examine();
        match self.outcome {
            ToolOutcome::Success(r) | ToolOutcome::ToolError(r) => Ok(r),
            ToolOutcome::RpcError(e) => Err(Error::JsonRpc {
                method: "tools/call".into(),
                code: e.code,
                message: e.message,
                data: e.data,
                output: Box::new(self.origin.server_output()),
            }),
            ToolOutcome::Failed(e) => Err(e),
        }
    }
}

/// Who the server is and what it said it can do, from `initialize` (or
/// `server/discover` for stateless servers).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServerInfo {
    /// `serverInfo.name` (empty if a stateless server did not say).
    pub name: String,
    /// `serverInfo.version`.
    pub version: String,
    /// `serverInfo.title`, if given.
    pub title: Option<String>,
    /// The capabilities the server declared.
    pub capabilities: ServerCapabilities,
    /// The instructions, if any.
    pub instructions: Option<String>,
    /// The protocol version in use.
    pub protocol_version: ProtocolVersion,
    /// True when the connection is stateless (2026-07-28, `server/discover`).
    pub stateless: bool,
}
