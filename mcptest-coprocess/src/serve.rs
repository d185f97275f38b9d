//! The engine side of the coprocess channel.

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::{COMMAND_LINE_LANES, COPROCESS_PROTOCOL_VERSION, codes};
use mcptest_core::Error;
use mcptest_core::McpClient;
use mcptest_core::Server;
use mcptest_core::ToolOutcome;
use mcptest_core::cassette::CassetteMode;
use mcptest_core::report::Outcome;
use mcptest_core::report::Report;
use mcptest_core::report::TestResult;

/// How [`serve`] treats its peer.
#[derive(Debug, Clone)]
pub struct ExecOptions {
    /// How long one upstream call may take (default 30 s); over it, the
    /// request is answered with -32603 naming the method and the limit.
    pub call_timeout: Duration,
    /// The longest request line accepted, in bytes (default 4 MiB); a longer
    /// one is answered with -32600 and skipped.
    pub max_line: usize,
}

impl Default for ExecOptions {
    fn default() -> Self {
        ExecOptions {
            call_timeout: Duration::from_secs(30),
            max_line: 4 * 1024 * 1024,
        }
    }
}

/// A coprocess error: code, message and optional data.
#[derive(Debug)]
struct Fault {
    code: i32,
    message: String,
    data: Option<Value>,
}

impl Fault {
    fn new(code: i32, message: impl Into<String>) -> Fault {
        Fault {
            code,
            message: message.into(),
            data: None,
        }
    }

    fn data(mut self, data: Value) -> Fault {
        self.data = Some(data);
        self
    }
}

/// Serves the coprocess protocol on `input` / `output` for the MCP server
/// `server`, until `mcp.shutdown` or the end of `input`. The server is
/// started on the first request that needs it (`mcp.initialize`, or any
/// `mcp.*` call) and stopped before this returns.
///
/// # Errors
///
/// Reading `input` or writing `output` fails.
pub async fn serve<R, W>(
    server: Server,
    options: ExecOptions,
    mut input: R,
    mut output: W,
) -> std::io::Result<()>
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut session = Session {
        server: server.timeout(options.call_timeout),
        options,
        mcp: None,
        upload: None,
        tape: None,
        report: Report::new("mcptest exec"),
        started: Instant::now(),
    };
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
            write(&mut output, &error_frame(Value::Null, fault)).await?;
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

struct Session {
    server: Server,
    options: ExecOptions,
    mcp: Option<McpClient>,
    upload: Option<(String, Option<String>)>,
    /// The cassette (or cache, on the same store) the next connection uses.
    tape: Option<(std::path::PathBuf, CassetteMode)>,
    report: Report,
    started: Instant,
}

impl Session {
    /// The response frame to one request line, and whether to stop.
    async fn handle(&mut self, line: &str) -> (Value, bool) {
        let request: Value = match serde_json::from_str(line) {
            Ok(value) => value,
            Err(e) => {
                let fault = Fault::new(codes::PARSE_ERROR, format!("the line is not JSON: {e}"));
                return (error_frame(Value::Null, fault), false);
            }
        };
        let (id, method, params) = match envelope(&request) {
            Ok(parts) => parts,
            Err((id, fault)) => return (error_frame(id, fault), false),
        };
        let stop = method == "mcp.shutdown";
        let answer = match method.as_str() {
            "coprocess/handshake" => handshake(&params),
            "mcp.initialize" => self.initialize().await,
            "mcp.call" => self.call(&params).await,
            "mcp.listTools" => self.list("tools/list").await,
            "mcp.listResources" => self.list("resources/list").await,
            "mcp.readResource" => self.read_resource(&params).await,
            "mcp.callPrompt" => self.call_prompt(&params).await,
            "mcp.reporter.setUpload" => self.set_upload(&params),
            "mcp.reporter.flush" => self.flush().await,
            "mcp.cassette.set_mode" => self.set_tape(&params, Tape::Cassette).await,
            "mcp.cache.set_mode" => self.set_tape(&params, Tape::Cache).await,
            "mcp.shutdown" => {
                self.close().await;
                Ok(json!({}))
            }
            other => Err(unknown_method(other)),
        };
        let frame = match answer {
            Ok(result) => result_frame(id, result),
            Err(fault) => error_frame(id, fault),
        };
        (frame, stop)
    }

    async fn connected(&mut self) -> Result<&McpClient, Fault> {
        if self.mcp.is_none() {
            let server = match &self.tape {
                Some((path, mode)) => self.server.clone().cassette(path, *mode),
                None => self.server.clone(),
            };
            let mcp = server
                .connect()
                .await
                .map_err(|e| upstream("mcp.initialize", &e, self.options.call_timeout))?;
            self.mcp = Some(mcp);
        }
        Ok(self.mcp.as_ref().expect("connected above"))
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
        let fields = object(params, &["tool", "arguments"], &["tool"])?;
        let tool = fields["tool"]
            .as_str()
            .ok_or_else(|| Fault::new(codes::INVALID_PARAMS, "`tool` must be a string"))?
            .to_owned();
        let arguments = fields.get("arguments").cloned().unwrap_or(json!({}));
        if !arguments.is_object() {
            return Err(Fault::new(
                codes::INVALID_PARAMS,
                "`arguments` must be a JSON object",
            ));
        }
        let timeout = self.options.call_timeout;
        let started = Instant::now();
        let call = self
            .connected()
            .await?
            .call_tool_with_timeout(&tool, arguments, timeout)
            .await;
        let duration = started.elapsed();
        let duration_ms = duration.as_millis() as u64;
        let name = format!("tools/call {tool}");
        let reply = match call.outcome() {
            ToolOutcome::Success(_) => json!({
                "success": true,
                "data": call.structured().cloned(),
                "text": call.text(),
                "error": null,
                "duration_ms": duration_ms,
            }),
            ToolOutcome::ToolError(_) => json!({
                "success": false,
                "data": call.structured().cloned(),
                "text": call.text(),
                "error": call.text(),
                "duration_ms": duration_ms,
            }),
            ToolOutcome::RpcError(e) => {
                let fault = Fault::new(codes::UPSTREAM_ERROR, e.message.clone()).data(json!({
                    "method": "tools/call",
                    "tool": tool,
                    "upstream": { "code": e.code, "message": e.message, "data": e.data },
                }));
                self.record(&name, Err(&fault.message), duration);
                return Err(fault);
            }
            ToolOutcome::Failed(error) => {
                let fault = upstream("mcp.call", error, timeout);
                self.record(&name, Err(&fault.message), duration);
                if !matches!(error, Error::Timeout { .. }) {
                    // The connection is gone: the next call starts afresh.
                    self.close().await;
                }
                return Err(fault);
            }
        };
        let outcome = if reply["success"] == true {
            Ok(())
        } else {
            Err(reply["error"].as_str().unwrap_or_default())
        };
        self.record(&name, outcome, duration);
        Ok(reply)
    }

    fn record(&mut self, name: &str, outcome: Result<(), &str>, duration: Duration) {
        let outcome = match outcome {
            Ok(()) => Outcome::Pass,
            Err(why) => Outcome::error("the call succeeds", why),
        };
        self.report
            .push(TestResult::new(name, outcome).duration(duration));
    }

    async fn list(&mut self, method: &'static str) -> Result<Value, Fault> {
        let timeout = self.options.call_timeout;
        let mcp = self.connected().await?;
        let listed = tokio::time::timeout(timeout, async {
            match method {
                "tools/list" => mcp
                    .list_tools()
                    .await
                    .map(|r| json!({ "tools": r.into_inner() })),
                _ => mcp
                    .list_resources()
                    .await
                    .map(|r| json!({ "resources": r.into_inner() })),
            }
        })
        .await;
        self.answer(method, listed, timeout).await
    }

    async fn read_resource(&mut self, params: &Value) -> Result<Value, Fault> {
        let fields = object(params, &["uri"], &["uri"])?;
        let uri = fields["uri"]
            .as_str()
            .ok_or_else(|| Fault::new(codes::INVALID_PARAMS, "`uri` must be a string"))?
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
            .ok_or_else(|| Fault::new(codes::INVALID_PARAMS, "`name` must be a string"))?
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
                let fault = upstream(method, &error, timeout);
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
            .ok_or_else(|| {
                Fault::new(
                    codes::INVALID_PARAMS,
                    "`url` must be an http:// or https:// URL",
                )
            })?;
        let token = match fields.get("token") {
            None | Some(Value::Null) => None,
            Some(Value::String(t)) => Some(t.clone()),
            Some(_) => {
                return Err(Fault::new(
                    codes::INVALID_PARAMS,
                    "`token` must be a string",
                ));
            }
        };
        self.upload = Some((url.to_owned(), token));
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
        let calls = report.results.len();
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
        Ok(json!({ "uploaded": true, "status": status, "results": calls }))
    }

    /// `mcp.cassette.set_mode` / `mcp.cache.set_mode`: closes the current
    /// connection (a recording is written then) and makes the next one use
    /// the store.
    async fn set_tape(&mut self, params: &Value, kind: Tape) -> Result<Value, Fault> {
        let fields = object(params, &["mode", "path"], &["mode"])?;
        let mode = fields["mode"].as_str().unwrap_or_default();
        let mode = kind.mode(mode).ok_or_else(|| {
            Fault::new(
                codes::INVALID_PARAMS,
                format!("`mode` must be one of {}", kind.modes()),
            )
        })?;
        let path = match fields.get("path") {
            Some(Value::String(path)) if !path.is_empty() => std::path::PathBuf::from(path),
            None if kind == Tape::Cache => std::path::PathBuf::from(DEFAULT_CACHE),
            _ => {
                return Err(Fault::new(
                    codes::INVALID_PARAMS,
                    "`path` must name the store's file",
                ));
            }
        };
        if mode == CassetteMode::Replay && !path.is_file() {
            return Err(Fault::new(
                codes::INVALID_PARAMS,
                format!("nothing to replay: {} does not exist", path.display()),
            ));
        }
        self.close().await;
        let shown = path.display().to_string();
        self.tape = (mode != CassetteMode::Off).then_some((path, mode));
        Ok(json!({ "mode": fields["mode"], "path": shown }))
    }

    async fn close(&mut self) {
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

/// The params as an object with only `allowed` keys and every `required` one.
fn object<'a>(
    params: &'a Value,
    allowed: &[&str],
    required: &[&str],
) -> Result<&'a Map<String, Value>, Fault> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    let fields = match params {
        Value::Object(fields) => fields,
        _ => EMPTY.get_or_init(Map::new),
    };
    if let Some(extra) = fields.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(Fault::new(
            codes::INVALID_PARAMS,
            format!("unknown param `{extra}` (expected: {})", allowed.join(", ")),
        ));
    }
    if let Some(missing) = required.iter().find(|k| !fields.contains_key(**k)) {
        return Err(Fault::new(
            codes::INVALID_PARAMS,
            format!("missing param `{missing}`"),
        ));
    }
    Ok(fields)
}

fn handshake(params: &Value) -> Result<Value, Fault> {
    let fields = object(
        params,
        &["protocol_version", "sdk", "sdk_version"],
        &["protocol_version"],
    )?;
    let Some(version) = fields["protocol_version"].as_u64() else {
        return Err(Fault::new(
            codes::INVALID_PARAMS,
            "`protocol_version` must be a non-negative integer",
        ));
    };
    let sdk = fields
        .get("sdk")
        .and_then(Value::as_str)
        .unwrap_or("unnamed");
    if version != u64::from(COPROCESS_PROTOCOL_VERSION) {
        let upgrade = if version > u64::from(COPROCESS_PROTOCOL_VERSION) {
            "Upgrade the mcptest binary (or pin the SDK to the matching release).".to_owned()
        } else {
            format!("Upgrade the {sdk} SDK (or pin the mcptest binary to the matching release).")
        };
        return Err(Fault::new(
            codes::INVALID_PARAMS,
            format!(
                "coprocess protocol version mismatch: this mcptest binary speaks v{COPROCESS_PROTOCOL_VERSION}, \
                 the {sdk} SDK sent v{version}. {upgrade}"
            ),
        )
        .data(json!({ "binary": COPROCESS_PROTOCOL_VERSION, "sdk": version })));
    }
    Ok(json!({
        "protocol_version": COPROCESS_PROTOCOL_VERSION,
        "binary_version": env!("CARGO_PKG_VERSION"),
    }))
}

fn unknown_method(method: &str) -> Fault {
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
            "unknown method `{method}` (coprocess protocol v{COPROCESS_PROTOCOL_VERSION}: coprocess/handshake, \
             mcp.initialize, mcp.call, mcp.listTools, mcp.listResources, mcp.readResource, \
             mcp.callPrompt, mcp.reporter.setUpload, mcp.reporter.flush, mcp.cache.set_mode, \
             mcp.cassette.set_mode, mcp.shutdown)"
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
fn upstream(method: &str, error: &Error, timeout: Duration) -> Fault {
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
    fn a_version_mismatch_names_both_versions_and_the_side_to_upgrade() {
        let newer = handshake(&json!({"protocol_version": 3, "sdk": "python"})).unwrap_err();
        assert_eq!(newer.code, codes::INVALID_PARAMS);
        assert_eq!(
            newer.message,
            "coprocess protocol version mismatch: this mcptest binary speaks v2, the python SDK \
             sent v3. Upgrade the mcptest binary (or pin the SDK to the matching release)."
        );
        let older = handshake(&json!({"protocol_version": 1, "sdk": "go"})).unwrap_err();
        assert!(
            older.message.contains("Upgrade the go SDK"),
            "{}",
            older.message
        );
        assert!(handshake(&json!({"protocol_version": 2, "color": "red"})).is_err());
        assert_eq!(
            handshake(&json!({"protocol_version": 2})).unwrap()["protocol_version"],
            2
        );
    }

    #[test]
    fn a_lane_names_the_command_that_runs_it() {
        let fault = unknown_method("mcp.compliance.run");
        assert_eq!(fault.code, codes::METHOD_NOT_FOUND);
        assert!(
            fault.message.contains("mcptest conformance"),
            "{}",
            fault.message
        );
        assert!(
            unknown_method("mcp.nope")
                .message
                .contains("unknown method")
        );
    }
}
