//! The engine side of the coprocess channel: the read loop, the session
//! (its protocol version, its connection to the server under test, its
//! report) and the method of each request.

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::{
    fault::{Fault, object},
    frames::FrameSchema,
    messages,
    protocol::{
        COMMAND_LINE_LANES, COPROCESS_PROTOCOL_VERSION, OLDEST_COPROCESS_PROTOCOL_VERSION, codes,
        features, methods_of,
    },
    suite,
};
use mcptest_core::Error;
use mcptest_core::McpClient;
use mcptest_core::Server;
use mcptest_core::ToolOutcome;
use mcptest_core::cassette::CassetteMode;
use mcptest_core::report::Location;
use mcptest_core::report::Outcome;
use mcptest_core::report::Report;
use mcptest_core::report::TestResult;

/// How [`serve`] treats its peer.
///
/// ```
/// use std::time::Duration;
/// use mcptest_coprocess::ExecOptions;
///
/// let options = ExecOptions {
///     call_timeout: Duration::from_secs(10),
///     check_frames: true,
///     ..ExecOptions::default()
/// };
/// ```
#[derive(Debug, Clone)]
pub struct ExecOptions {
    /// How long one upstream call may take (default 30 s); over it, the
    /// request is answered with -32603 naming the method and the limit.
    pub call_timeout: Duration,
    /// The longest request line accepted, in bytes (default 4 MiB); a longer
    /// one is answered with -32600 and skipped.
    pub max_line: usize,
    /// Check every frame received and sent against the coprocess schema
    /// (default false): a received frame that breaks it is answered with
    /// -32600 naming the path and the rule; a frame of the engine's own
    /// that breaks it is replaced by a -32603 that says so.
    pub check_frames: bool,
}

impl Default for ExecOptions {
    fn default() -> Self {
        ExecOptions {
            call_timeout: Duration::from_secs(30),
            max_line: 4 * 1024 * 1024,
            check_frames: false,
        }
    }
}

/// What an MCP request in a session without a server is answered with.
const NO_SERVER: &str = "no server under test: start mcptest exec with --server-command, --server-url or -- PROGRAM ARG...";

/// Serves the coprocess protocol on `input` / `output` for the MCP server
/// `server` (none: a session that only runs suite files), until
/// `mcp.shutdown` or the end of `input`. The server is started on the first
/// request that needs it (`mcp.initialize`, or any MCP call) and stopped
/// before this returns. `suite.run` starts each test's own server, as
/// `mcptest run` does; `server` serves the files that name none.
///
/// The future is not `Send` (suite tests are not): run it with
/// `block_on`, or on a local set.
///
/// ```no_run
/// # async fn demo() -> std::io::Result<()> {
/// use mcptest_coprocess::{ExecOptions, serve};
///
/// let server = mcptest_core::Server::program("my-server").arg("--stdio");
/// let stdin = tokio::io::BufReader::new(tokio::io::stdin());
/// serve(Some(server), ExecOptions::default(), stdin, tokio::io::stdout()).await
/// # }
/// ```
///
/// # Errors
///
/// Reading `input` or writing `output` fails.
pub async fn serve<R, W>(
    server: Option<Server>,
    options: ExecOptions,
    mut input: R,
    mut output: W,
) -> std::io::Result<()>
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut session = Session::new(server, options);
    let mut line = Vec::new();
    loop {
        line.clear();
        let limit = session.options.max_line as u64 + 1;
        let n = (&mut input)
            .take(limit)
            .read_until(b'\n', &mut line)
            .await?;
        if n == 0 {
            break;
        }
        if line.last() != Some(&b'\n') && line.len() as u64 == limit {
            // Over the limit: answer, then skip the rest of the line.
            skip_line(&mut input).await?;
            let fault = Fault::new(
                codes::INVALID_REQUEST,
                format!(
                    "request line over the limit of {} bytes; nothing of it was run",
                    session.options.max_line
                ),
            );
            let frame = session.checked(None, error_frame(Value::Null, fault));
            write(&mut output, &frame).await?;
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        let (frame, stop) = session.handle(text.trim()).await;
        write(&mut output, &frame).await?;
        if stop {
            break;
        }
    }
    session.close().await;
    Ok(())
}

async fn skip_line<R: AsyncBufRead + Unpin>(input: &mut R) -> std::io::Result<()> {
    loop {
        let buf = input.fill_buf().await?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(at) => {
                input.consume(at + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

async fn write<W: AsyncWrite + Unpin>(output: &mut W, frame: &Value) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(frame).expect("a JSON value serialises");
    bytes.push(b'\n');
    output.write_all(&bytes).await?;
    output.flush().await
}

fn result_frame(id: Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn error_frame(id: Value, fault: Fault) -> Value {
    let mut error = Map::new();
    error.insert("code".into(), fault.code.into());
    error.insert("message".into(), fault.message.into());
    if let Some(data) = fault.data {
        error.insert("data".into(), data);
    }
    json!({ "jsonrpc": "2.0", "id": id, "error": error })
}

/// The id to answer a request with: its own when it is a number or a
/// string, else null.
fn id_of(request: &Value) -> Value {
    match request.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    }
}

struct Session {
    /// The server under test as given (what `suite.run` defaults to).
    server: Option<Server>,
    /// The same, with the call timeout (what the MCP methods connect to).
    upstream: Option<Server>,
    options: ExecOptions,
    /// The session's protocol version: 2 until a handshake says otherwise.
    version: u32,
    mcp: Option<McpClient>,
    /// How far the connection's messages have been reported (v3).
    inbox: messages::Inbox,
    upload: Option<(String, Option<String>)>,
    /// The cassette (or cache, on the same store) the next connection uses.
    tape: Option<(std::path::PathBuf, CassetteMode)>,
    report: Report,
    started: Instant,
    /// The schema, under `--check-frames`.
    frames: Option<FrameSchema>,
}

/// The listings, each the MCP method it follows every page of.
#[derive(Debug, Clone, Copy)]
enum Listing {
    Tools,
    Resources,
    Prompts,
    ResourceTemplates,
}

impl Listing {
    fn method(self) -> &'static str {
        match self {
            Listing::Tools => "tools/list",
            Listing::Resources => "resources/list",
            Listing::Prompts => "prompts/list",
            Listing::ResourceTemplates => "resources/templates/list",
        }
    }
}

impl Session {
    fn new(server: Option<Server>, options: ExecOptions) -> Session {
        Session {
            frames: options.check_frames.then(FrameSchema::new),
            upstream: server.clone().map(|s| s.timeout(options.call_timeout)),
            server,
            options,
            version: OLDEST_COPROCESS_PROTOCOL_VERSION,
            mcp: None,
            inbox: messages::Inbox::default(),
            upload: None,
            tape: None,
            report: Report::new("mcptest exec"),
            started: Instant::now(),
        }
    }

    /// The response frame to one request line, and whether to stop.
    async fn handle(&mut self, line: &str) -> (Value, bool) {
        let request: Value = match serde_json::from_str(line) {
            Ok(value) => value,
            Err(e) => {
                let fault = Fault::new(codes::PARSE_ERROR, format!("the line is not JSON: {e}"));
                return (self.checked(None, error_frame(Value::Null, fault)), false);
            }
        };
        if let Some(schema) = &self.frames
            && let Err(broken) = schema.check_request(self.version, &request)
        {
            let fault = Fault::new(
                codes::INVALID_REQUEST,
                format!("the request broke the coprocess schema at {broken}"),
            )
            .data(broken.data());
            return (
                self.checked(None, error_frame(id_of(&request), fault)),
                false,
            );
        }
        let (id, method, params) = match envelope(&request) {
            Ok(parts) => parts,
            Err((id, fault)) => return (self.checked(None, error_frame(id, fault)), false),
        };
        let answer = self.dispatch(&method, &params).await;
        let stop = method == "mcp.shutdown" && answer.is_ok();
        let frame = match answer {
            Ok(result) => result_frame(id, result),
            Err(fault) => error_frame(id, fault),
        };
        (self.checked(Some(&method), frame), stop)
    }

    /// `frame`, or under `--check-frames` the -32603 that replaces it when
    /// it breaks the schema.
    fn checked(&self, method: Option<&str>, frame: Value) -> Value {
        let Some(schema) = &self.frames else {
            return frame;
        };
        match schema.check_response(self.version, method, &frame) {
            Ok(()) => frame,
            Err(broken) => {
                let fault = Fault::new(
                    codes::INTERNAL_ERROR,
                    format!(
                        "the mcptest binary's own frame broke the coprocess schema at {broken} \
                         (this is a bug in mcptest)"
                    ),
                )
                .data(broken.data());
                error_frame(id_of(&frame), fault)
            }
        }
    }

    async fn dispatch(&mut self, method: &str, params: &Value) -> Result<Value, Fault> {
        if !methods_of(self.version).contains(&method) {
            return Err(unknown_method(method, self.version));
        }
        match method {
            "coprocess/handshake" => {
                let (version, result) = handshake(params)?;
                self.version = version;
                Ok(result)
            }
            "mcp.initialize" => {
                self.no_params(params)?;
                self.initialize().await
            }
            "mcp.call" => self.call(params).await,
            "mcp.listTools" => self.list(params, Listing::Tools).await,
            "mcp.listResources" => self.list(params, Listing::Resources).await,
            "mcp.listPrompts" => self.list(params, Listing::Prompts).await,
            "mcp.listResourceTemplates" => self.list(params, Listing::ResourceTemplates).await,
            "mcp.readResource" => self.read_resource(params).await,
            "mcp.callPrompt" => self.call_prompt(params).await,
            "mcp.messages" => self.messages(params),
            "mcp.reporter.setUpload" => self.set_upload(params),
            "mcp.reporter.record" => self.record_result(params),
            "mcp.reporter.flush" => {
                self.no_params(params)?;
                self.flush().await
            }
            "mcp.cassette.set_mode" => self.set_tape(params, Tape::Cassette).await,
            "mcp.cache.set_mode" => self.set_tape(params, Tape::Cache).await,
            "mcp.shutdown" => {
                self.no_params(params)?;
                self.close().await;
                Ok(json!({}))
            }
            "suite.list" => suite::list(params),
            "suite.run" => {
                let (verdict, result) = suite::run(params, self.server.as_ref()).await?;
                self.report.push(result);
                Ok(verdict)
            }
            other => Err(unknown_method(other, self.version)),
        }
    }

    /// A v3 method without params takes none (`{}` or absent); v2 never
    /// looked, and still does not.
    fn no_params(&self, params: &Value) -> Result<(), Fault> {
        if self.version >= 3 {
            object(params, &[], &[])?;
        }
        Ok(())
    }

    fn v3(&self) -> bool {
        self.version >= 3
    }

    async fn connected(&mut self) -> Result<&McpClient, Fault> {
        if self.mcp.is_none() {
            let Some(upstream) = &self.upstream else {
                return Err(Fault::params(NO_SERVER));
            };
            let server = match &self.tape {
                Some((path, mode)) => upstream.clone().cassette(path, *mode),
                None => upstream.clone(),
            };
            let mcp = server
                .connect()
                .await
                .map_err(|e| upstream_fault("mcp.initialize", &e, self.options.call_timeout))?;
            self.inbox.reconnected();
            self.mcp = Some(mcp);
        }
        Ok(self.mcp.as_ref().expect("connected above"))
    }

    /// What the server sent since the inbox was last read (nothing when
    /// not connected).
    fn read_messages(&mut self) -> Vec<mcptest_core::ServerMessage> {
        match &self.mcp {
            Some(mcp) => self.inbox.read(&mcp.server_messages()),
            None => Vec::new(),
        }
    }

    async fn initialize(&mut self) -> Result<Value, Fault> {
        let info = self.connected().await?.server_info().clone();
        Ok(json!({
            "serverInfo": { "name": info.name, "version": info.version },
            "protocolVersion": info.protocol_version.to_string(),
            "capabilities": serde_json::to_value(&info.capabilities).unwrap_or(Value::Null),
        }))
    }

    async fn call(&mut self, params: &Value) -> Result<Value, Fault> {
        let allowed: &[&str] = if self.v3() {
            &["tool", "arguments", "passthrough"]
        } else {
            &["tool", "arguments"]
        };
        let fields = object(params, allowed, &["tool"])?;
        let tool = fields["tool"]
            .as_str()
            .ok_or_else(|| Fault::params("`tool` must be a string"))?
            .to_owned();
        let arguments = fields.get("arguments").cloned().unwrap_or(json!({}));
        if !arguments.is_object() {
            return Err(Fault::params("`arguments` must be a JSON object"));
        }
        let passthrough = match fields.get("passthrough") {
            None | Some(Value::Bool(false)) => false,
            Some(Value::Bool(true)) => true,
            Some(_) => return Err(Fault::params("`passthrough` must be true or false")),
        };
        let timeout = self.options.call_timeout;
        self.connected().await?;
        if self.v3() {
            // What arrived before the call is not the call's.
            let before = self.read_messages();
            self.inbox.keep(before);
        }
        let started = Instant::now();
        let call = self
            .mcp
            .as_ref()
            .expect("connected above")
            .call_tool_with_timeout(&tool, arguments, timeout)
            .await;
        let duration = started.elapsed();
        let during = if self.v3() {
            self.read_messages()
        } else {
            Vec::new()
        };
        let duration_ms = duration.as_millis() as u64;
        let name = format!("tools/call {tool}");
        let (success, text) = match call.outcome() {
            ToolOutcome::Success(_) => (true, call.text()),
            ToolOutcome::ToolError(_) => (false, call.text()),
            ToolOutcome::RpcError(e) => {
                let fault = Fault::new(codes::UPSTREAM_ERROR, e.message.clone()).data(json!({
                    "method": "tools/call",
                    "tool": tool,
                    "upstream": { "code": e.code, "message": e.message, "data": e.data },
                }));
                self.inbox.keep(during);
                self.record(&name, Err(&fault.message), duration);
                return Err(fault);
            }
            ToolOutcome::Failed(error) => {
                let fault = upstream_fault("mcp.call", error, timeout);
                self.inbox.keep(during);
                self.record(&name, Err(&fault.message), duration);
                if !matches!(error, Error::Timeout { .. }) {
                    // The connection is gone: the next call starts afresh.
                    self.close().await;
                }
                return Err(fault);
            }
        };
        self.record(&name, if success { Ok(()) } else { Err(&text) }, duration);
        if passthrough {
            // The upstream result as it came: `raw` is what the server
            // sent; the typed result only when there is no raw one.
            let raw = call
                .raw()
                .cloned()
                .or_else(|| call.result().and_then(|r| serde_json::to_value(r).ok()));
            return Ok(raw.unwrap_or(Value::Null));
        }
        let error = if success {
            Value::Null
        } else {
            text.clone().into()
        };
        if !self.v3() {
            return Ok(json!({
                "success": success,
                "data": call.structured().cloned(),
                "text": text,
                "error": error,
                "duration_ms": duration_ms,
            }));
        }
        let (messages, logs) = messages::render(&during);
        Ok(json!({
            "success": success,
            "text": text,
            "data": call.structured().cloned(),
            "error": error,
            "duration_ms": duration_ms,
            "content": call.raw().and_then(|r| r.get("content")).cloned()
                .unwrap_or_else(|| serde_json::to_value(call.content()).unwrap_or(json!([]))),
            "messages": messages,
            "logs": logs,
        }))
    }

    fn record(&mut self, name: &str, outcome: Result<(), &str>, duration: Duration) {
        let outcome = match outcome {
            Ok(()) => Outcome::Pass,
            Err(why) => Outcome::error("the call succeeds", why),
        };
        self.report
            .push(TestResult::new(name, outcome).duration(duration));
    }

    async fn list(&mut self, params: &Value, listing: Listing) -> Result<Value, Fault> {
        self.no_params(params)?;
        let timeout = self.options.call_timeout;
        let mcp = self.connected().await?;
        let listed = tokio::time::timeout(timeout, async {
            Ok(match listing {
                Listing::Tools => json!({ "tools": mcp.list_tools().await?.into_inner() }),
                Listing::Resources => {
                    json!({ "resources": mcp.list_resources().await?.into_inner() })
                }
                Listing::Prompts => json!({ "prompts": mcp.list_prompts().await?.into_inner() }),
                Listing::ResourceTemplates => json!({
                    "resourceTemplates": mcp.list_resource_templates().await?.into_inner()
                }),
            })
        })
        .await;
        self.answer(listing.method(), listed, timeout).await
    }

    async fn read_resource(&mut self, params: &Value) -> Result<Value, Fault> {
        let fields = object(params, &["uri"], &["uri"])?;
        let uri = fields["uri"]
            .as_str()
            .ok_or_else(|| Fault::params("`uri` must be a string"))?
            .to_owned();
        let timeout = self.options.call_timeout;
        let mcp = self.connected().await?;
        let read = tokio::time::timeout(timeout, async {
            let reply = mcp.read_resource(&uri).await?;
            Ok(serde_json::to_value(reply.into_inner()).unwrap_or(Value::Null))
        })
        .await;
        self.answer("resources/read", read, timeout).await
    }

    async fn call_prompt(&mut self, params: &Value) -> Result<Value, Fault> {
        let fields = object(params, &["name", "arguments"], &["name"])?;
        let name = fields["name"]
            .as_str()
            .ok_or_else(|| Fault::params("`name` must be a string"))?
            .to_owned();
        let arguments = fields.get("arguments").cloned().unwrap_or(Value::Null);
        let timeout = self.options.call_timeout;
        let mcp = self.connected().await?;
        let got = tokio::time::timeout(timeout, async {
            let reply = mcp.get_prompt(&name, arguments).await?;
            Ok(serde_json::to_value(reply.into_inner()).unwrap_or(Value::Null))
        })
        .await;
        self.answer("prompts/get", got, timeout).await
    }

    /// `mcp.messages`: what arrived outside calls, then forgotten.
    fn messages(&mut self, params: &Value) -> Result<Value, Fault> {
        object(params, &[], &[])?;
        if self.upstream.is_none() {
            return Err(Fault::params(NO_SERVER));
        }
        let new = self.read_messages();
        self.inbox.keep(new);
        let (messages, logs) = messages::render(&self.inbox.take_kept());
        Ok(json!({ "messages": messages, "logs": logs }))
    }

    /// The frame of an upstream request bounded by `timeout`.
    async fn answer(
        &mut self,
        method: &str,
        outcome: Result<Result<Value, Error>, tokio::time::error::Elapsed>,
        timeout: Duration,
    ) -> Result<Value, Fault> {
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) => {
                let fault = upstream_fault(method, &error, timeout);
                if fault.code == codes::UPSTREAM_DROPPED {
                    self.close().await;
                }
                Err(fault)
            }
            Err(_) => Err(timed_out(method, timeout)),
        }
    }

    fn set_upload(&mut self, params: &Value) -> Result<Value, Fault> {
        let fields = object(params, &["url", "token"], &["url"])?;
        let url = fields["url"]
            .as_str()
            .filter(|u| u.starts_with("http://") || u.starts_with("https://"))
            .ok_or_else(|| Fault::params("`url` must be an http:// or https:// URL"))?;
        let token = match fields.get("token") {
            None | Some(Value::Null) => None,
            Some(Value::String(t)) => Some(t.clone()),
            Some(_) => return Err(Fault::params("`token` must be a string")),
        };
        self.upload = Some((url.to_owned(), token));
        Ok(json!({}))
    }

    /// `mcp.reporter.record`: the SDK's own test and its verdict.
    fn record_result(&mut self, params: &Value) -> Result<Value, Fault> {
        let fields = object(
            params,
            &["name", "status", "duration_ms", "message", "file", "line"],
            &["name", "status"],
        )?;
        let text = |key: &str| -> Result<Option<String>, Fault> {
            match fields.get(key) {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(Fault::params(format!("`{key}` must be a string"))),
            }
        };
        let count = |key: &str| -> Result<Option<u64>, Fault> {
            match fields.get(key) {
                None => Ok(None),
                Some(value) => value.as_u64().map(Some).ok_or_else(|| {
                    Fault::params(format!("`{key}` must be a non-negative integer"))
                }),
            }
        };
        let name = text("name")?.unwrap_or_default();
        let message = text("message")?;
        let outcome = match text("status")?.as_deref() {
            Some("pass") => Outcome::Pass,
            Some("fail") => Outcome::error(
                "the test passes",
                message.unwrap_or_else(|| "it failed".into()),
            ),
            Some("skip") => Outcome::skip(message.unwrap_or_else(|| "skipped".into())),
            _ => return Err(Fault::params("`status` must be pass, fail or skip")),
        };
        let mut result = TestResult::new(name, outcome)
            .duration(Duration::from_millis(count("duration_ms")?.unwrap_or(0)));
        if let Some(file) = text("file")? {
            let line = count("line")?.unwrap_or(0);
            let line = u32::try_from(line).map_err(|_| Fault::params("`line` is too large"))?;
            result = result
                .group(file.clone())
                .location(Location::new(file, line, 0));
        }
        self.report.push(result);
        Ok(json!({}))
    }

    async fn flush(&mut self) -> Result<Value, Fault> {
        let Some((url, token)) = self.upload.clone() else {
            return Err(Fault::new(
                codes::INVALID_REQUEST,
                "no upload is set: send mcp.reporter.setUpload first",
            ));
        };
        let mut report = self.report.clone().with_duration(self.started.elapsed());
        if let Some(mcp) = &self.mcp {
            report.title = format!("mcptest exec: {}", mcp.server_info().name);
        }
        let results = report.results.len();
        let status = upload(
            &url,
            token.as_deref(),
            &report.to_json(),
            self.options.call_timeout,
        )
        .await
        .map_err(|why| {
            Fault::new(
                codes::INTERNAL_ERROR,
                format!("uploading to {url} failed: {why}"),
            )
        })?;
        Ok(json!({ "uploaded": true, "status": status, "results": results }))
    }

    /// `mcp.cassette.set_mode` / `mcp.cache.set_mode`: closes the current
    /// connection (a recording is written then) and makes the next one use
    /// the store.
    async fn set_tape(&mut self, params: &Value, kind: Tape) -> Result<Value, Fault> {
        let fields = object(params, &["mode", "path"], &["mode"])?;
        let mode = fields["mode"].as_str().unwrap_or_default();
        let mode = kind
            .mode(mode)
            .ok_or_else(|| Fault::params(format!("`mode` must be one of {}", kind.modes())))?;
        let path = match fields.get("path") {
            Some(Value::String(path)) if !path.is_empty() => std::path::PathBuf::from(path),
            None if kind == Tape::Cache => std::path::PathBuf::from(DEFAULT_CACHE),
            _ => return Err(Fault::params("`path` must name the store's file")),
        };
        if mode == CassetteMode::Replay && !path.is_file() {
            return Err(Fault::params(format!(
                "nothing to replay: {} does not exist",
                path.display()
            )));
        }
        self.close().await;
        let shown = path.display().to_string();
        self.tape = (mode != CassetteMode::Off).then_some((path, mode));
        Ok(json!({ "mode": fields["mode"], "path": shown }))
    }

    /// Closes the connection; what it sent and nobody read yet waits for
    /// `mcp.messages`.
    async fn close(&mut self) {
        if self.v3() {
            let unread = self.read_messages();
            self.inbox.keep(unread);
        }
        if let Some(mcp) = self.mcp.take() {
            mcp.close().await;
        }
    }
}

/// Where `mcp.cache.set_mode` keeps its store when no `path` is given
/// (relative to the engine's working directory).
const DEFAULT_CACHE: &str = ".mcptest/cache.json";

/// The two faces of the one store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tape {
    /// `mcp.cassette.set_mode`: record / replay / auto / off.
    Cassette,
    /// `mcp.cache.set_mode`: read (replay) / write (record) / readwrite
    /// (replay when stored, record otherwise) / off.
    Cache,
}

impl Tape {
    fn mode(self, name: &str) -> Option<CassetteMode> {
        Some(match (self, name) {
            (Tape::Cassette, "record") | (Tape::Cache, "write") => CassetteMode::Record,
            (Tape::Cassette, "replay") | (Tape::Cache, "read") => CassetteMode::Replay,
            (Tape::Cassette, "auto") | (Tape::Cache, "readwrite") => CassetteMode::Auto,
            (_, "off") => CassetteMode::Off,
            _ => return None,
        })
    }

    fn modes(self) -> &'static str {
        match self {
            Tape::Cassette => "record, replay, auto, off",
            Tape::Cache => "read, write, readwrite, off",
        }
    }
}

/// POSTs the report as JSON; the HTTP status of a 2xx answer.
#[cfg(feature = "http")]
async fn upload(
    url: &str,
    token: Option<&str>,
    report: &Value,
    timeout: Duration,
) -> Result<u16, String> {
    let client = reqwest::Client::builder()
        .timeout(timeout)
        .build()
        .map_err(|e| e.to_string())?;
    let mut request = client
        .post(url)
        .header("content-type", "application/json")
        .body(serde_json::to_vec(report).expect("a JSON value serialises"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.map_err(|e| e.to_string())?;
    let status = response.status();
    if status.is_success() {
        Ok(status.as_u16())
    } else {
        Err(format!("the server answered HTTP {status}"))
    }
}

#[cfg(not(feature = "http"))]
async fn upload(_: &str, _: Option<&str>, _: &Value, _: Duration) -> Result<u16, String> {
    Err("this build of mcptest has no HTTP client (enable the `http` feature)".into())
}

/// Splits a request into id, method and params, enforcing the closed
/// envelope. On an error, the id to answer with.
#[allow(clippy::result_large_err)]
fn envelope(request: &Value) -> Result<(Value, String, Value), (Value, Fault)> {
    let Some(fields) = request.as_object() else {
        return Err((
            Value::Null,
            Fault::new(codes::INVALID_REQUEST, "a request is a JSON object"),
        ));
    };
    let id = match fields.get("id") {
        None | Some(Value::Null) => Value::Null,
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        Some(other) => {
            return Err((
                Value::Null,
                Fault::new(
                    codes::INVALID_REQUEST,
                    format!("`id` must be a number or a string, not {other}"),
                ),
            ));
        }
    };
    if let Some(extra) = fields
        .keys()
        .find(|k| !["jsonrpc", "id", "method", "params"].contains(&k.as_str()))
    {
        return Err((
            id,
            Fault::new(
                codes::INVALID_REQUEST,
                format!(
                    "unknown top-level field `{extra}`: a request has only jsonrpc, id, method and params"
                ),
            ),
        ));
    }
    if fields.get("jsonrpc") != Some(&json!("2.0")) {
        return Err((
            id,
            Fault::new(codes::INVALID_REQUEST, "`jsonrpc` must be \"2.0\""),
        ));
    }
    let Some(method) = fields.get("method").and_then(Value::as_str) else {
        return Err((
            id,
            Fault::new(codes::INVALID_REQUEST, "`method` must be a string"),
        ));
    };
    let params = fields.get("params").cloned().unwrap_or(Value::Null);
    if !(params.is_object() || params.is_null()) {
        return Err((
            id,
            Fault::new(codes::INVALID_REQUEST, "`params` must be an object"),
        ));
    }
    Ok((id, method.to_owned(), params))
}

/// The session's version and the result of a handshake; a version this
/// binary does not speak is -32602 naming both sides and which to upgrade.
fn handshake(params: &Value) -> Result<(u32, Value), Fault> {
    let fields = object(
        params,
        &["protocol_version", "sdk", "sdk_version"],
        &["protocol_version"],
    )?;
    let Some(version) = fields["protocol_version"].as_u64() else {
        return Err(Fault::params(
            "`protocol_version` must be a non-negative integer",
        ));
    };
    let sdk = fields
        .get("sdk")
        .and_then(Value::as_str)
        .unwrap_or("unnamed");
    let (oldest, newest) = (
        OLDEST_COPROCESS_PROTOCOL_VERSION,
        COPROCESS_PROTOCOL_VERSION,
    );
    let Some(version) = u32::try_from(version)
        .ok()
        .filter(|v| (oldest..=newest).contains(v))
    else {
        let upgrade = if version > u64::from(newest) {
            "Upgrade the mcptest binary (or pin the SDK to the matching release).".to_owned()
        } else {
            format!("Upgrade the {sdk} SDK (or pin the mcptest binary to the matching release).")
        };
        return Err(Fault::params(format!(
            "coprocess protocol version mismatch: this mcptest binary speaks v{oldest} to v{newest}, \
             the {sdk} SDK sent v{version}. {upgrade}"
        ))
        .data(json!({ "binary": [oldest, newest], "sdk": version })));
    };
    let mut result = json!({
        "protocol_version": version,
        "binary_version": env!("CARGO_PKG_VERSION"),
    });
    if version >= 3 {
        result["methods"] = json!(methods_of(version));
        result["lanes"] = json!(lanes());
        result["features"] = json!(features());
    }
    Ok((version, result))
}

/// The suite lanes `suite.run` drives over this channel: every kind of
/// test the runner runs.
fn lanes() -> Vec<&'static str> {
    mcptest_suite::LANES.to_vec()
}

fn unknown_method(method: &str, version: u32) -> Fault {
    let lane = method
        .strip_prefix("mcp.")
        .map(|rest| rest.split('.').next().unwrap_or(rest));
    if let Some((lane, command)) = COMMAND_LINE_LANES
        .iter()
        .find(|(name, _)| Some(*name) == lane)
    {
        return Fault::new(
            codes::METHOD_NOT_FOUND,
            format!(
                "the `{lane}:` lane is not drivable over the coprocess; run it with: {command}"
            ),
        )
        .data(json!({ "lane": lane, "command": command }));
    }
    Fault::new(
        codes::METHOD_NOT_FOUND,
        format!(
            "unknown method `{method}` (coprocess protocol v{version}: {})",
            methods_of(version).join(", ")
        ),
    )
}

fn timed_out(method: &str, timeout: Duration) -> Fault {
    Fault::new(
        codes::INTERNAL_ERROR,
        format!("{method} did not answer within {}", humanize(timeout)),
    )
    .data(json!({ "method": method, "timeout_ms": timeout.as_millis() as u64 }))
}

fn humanize(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

/// The coprocess error for an upstream failure.
fn upstream_fault(method: &str, error: &Error, timeout: Duration) -> Fault {
    const TAIL: usize = 2000;
    let tail = |text: &str| {
        let start = text.len().saturating_sub(TAIL);
        let start = (start..=text.len())
            .find(|i| text.is_char_boundary(*i))
            .unwrap_or(text.len());
        text[start..].to_owned()
    };
    match error {
        Error::JsonRpc {
            code,
            message,
            data,
            ..
        } => Fault::new(codes::UPSTREAM_ERROR, message.clone()).data(json!({
            "method": method,
            "upstream": { "code": code, "message": message, "data": data },
        })),
        Error::Timeout { .. } => timed_out(method, timeout),
        Error::ServerExited { status, output, .. } => Fault::new(
            codes::UPSTREAM_DROPPED,
            format!(
                "the MCP server exited{}",
                status.map(|s| format!(" ({s})")).unwrap_or_default()
            ),
        )
        .data(json!({
            "method": method,
            "exit_code": status.and_then(|s| s.code()),
            "stderr_tail": tail(&output.stderr),
        })),
        Error::Transport { reason, output, .. } => Fault::new(
            codes::UPSTREAM_DROPPED,
            format!("the MCP connection dropped: {reason}"),
        )
        .data(json!({ "method": method, "stderr_tail": tail(&output.stderr) })),
        Error::Spawn { .. } | Error::InvalidCommand { .. } | Error::Handshake { .. } => Fault::new(
            codes::UPSTREAM_DROPPED,
            format!("the MCP server did not come up: {error}"),
        )
        .data(json!({ "method": method })),
        other => {
            Fault::new(codes::UPSTREAM_ERROR, other.to_string()).data(json!({ "method": method }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelope_is_closed() {
        let (id, fault) =
            envelope(&json!({"jsonrpc": "2.0", "id": 3, "method": "x", "extra": 1})).unwrap_err();
        assert_eq!(id, json!(3));
        assert_eq!(fault.code, codes::INVALID_REQUEST);
        assert!(fault.message.contains("`extra`"), "{}", fault.message);
        let (id, _, params) = envelope(&json!({"jsonrpc": "2.0", "method": "x"})).unwrap();
        assert_eq!((id, params), (Value::Null, Value::Null));
        assert!(envelope(&json!({"jsonrpc": "1.0", "id": 1, "method": "x"})).is_err());
        assert!(envelope(&json!({"jsonrpc": "2.0", "id": [1], "method": "x"})).is_err());
    }

    #[test]
    fn a_version_mismatch_names_both_sides_the_range_and_the_side_to_upgrade() {
        let newer = handshake(&json!({"protocol_version": 4, "sdk": "python"})).unwrap_err();
        assert_eq!(newer.code, codes::INVALID_PARAMS);
        assert_eq!(
            newer.message,
            "coprocess protocol version mismatch: this mcptest binary speaks v2 to v3, the python \
             SDK sent v4. Upgrade the mcptest binary (or pin the SDK to the matching release)."
        );
        assert_eq!(newer.data, Some(json!({"binary": [2, 3], "sdk": 4})));
        let older = handshake(&json!({"protocol_version": 1, "sdk": "go"})).unwrap_err();
        assert_eq!(
            older.message,
            "coprocess protocol version mismatch: this mcptest binary speaks v2 to v3, the go SDK \
             sent v1. Upgrade the go SDK (or pin the mcptest binary to the matching release)."
        );
        let huge = handshake(&json!({"protocol_version": u64::MAX})).unwrap_err();
        assert!(
            huge.message.contains("Upgrade the mcptest binary"),
            "{}",
            huge.message
        );
        assert!(handshake(&json!({"protocol_version": 2, "color": "red"})).is_err());
    }

    #[test]
    fn a_v2_handshake_gets_the_v2_result_and_a_v3_one_the_surface() {
        let (version, v2) = handshake(&json!({"protocol_version": 2})).unwrap();
        assert_eq!(version, 2);
        assert_eq!(
            v2,
            json!({"protocol_version": 2, "binary_version": env!("CARGO_PKG_VERSION")})
        );
        let (version, v3) = handshake(&json!({"protocol_version": 3, "sdk": "rust"})).unwrap();
        assert_eq!(version, 3);
        assert_eq!(v3["methods"], json!(methods_of(3)));
        assert_eq!(v3["features"], json!(features()));
        assert!(v3["lanes"].is_array());
    }

    #[test]
    fn under_check_frames_a_frame_of_its_own_that_breaks_the_schema_becomes_32603() {
        let options = ExecOptions {
            check_frames: true,
            ..ExecOptions::default()
        };
        let mut session = Session::new(None, options);
        session.version = 3;
        // A verdict that lost its `logs`: what a bug would send.
        let broken = json!({"jsonrpc": "2.0", "id": 7, "result": {"success": true, "text": "",
            "data": null, "error": null, "duration_ms": 1, "content": [], "messages": []}});
        let frame = session.checked(Some("mcp.call"), broken);
        assert_eq!(frame["id"], 7, "{frame}");
        assert_eq!(frame["error"]["code"], codes::INTERNAL_ERROR, "{frame}");
        let message = frame["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with(
                "the mcptest binary's own frame broke the coprocess schema at /result: "
            ) && message.ends_with(" (this is a bug in mcptest)"),
            "{message}"
        );
        assert_eq!(frame["error"]["data"]["path"], "/result", "{frame}");
        // The replacement itself is a valid frame.
        let again = session.checked(Some("mcp.call"), frame.clone());
        assert_eq!(again, frame);
        let fine = json!({"jsonrpc": "2.0", "id": 8, "result": {}});
        assert_eq!(session.checked(Some("mcp.shutdown"), fine.clone()), fine);
    }

    #[test]
    fn an_unknown_method_lists_the_sessions_methods_and_a_lane_names_its_command() {
        let fault = unknown_method("mcp.compliance.run", 3);
        assert_eq!(fault.code, codes::METHOD_NOT_FOUND);
        assert!(
            fault.message.contains("mcptest conformance"),
            "{}",
            fault.message
        );
        // v2's message, word for word.
        assert_eq!(
            unknown_method("mcp.nope", 2).message,
            "unknown method `mcp.nope` (coprocess protocol v2: coprocess/handshake, \
             mcp.initialize, mcp.call, mcp.listTools, mcp.listResources, mcp.readResource, \
             mcp.callPrompt, mcp.reporter.setUpload, mcp.reporter.flush, mcp.cache.set_mode, \
             mcp.cassette.set_mode, mcp.shutdown)"
        );
        assert!(
            unknown_method("mcp.nope", 3)
                .message
                .contains("mcp.messages")
        );
    }
}
