//! The SDK side of the coprocess channel, in Rust.

use std::{ffi::OsStr, process::ExitStatus, time::Duration};

use serde::{Deserialize, de::DeserializeOwned};
use serde_json::{Map, Value, json};

use crate::protocol::{COPROCESS_PROTOCOL_VERSION, codes};
use mcptest_core::Error;
use mcptest_core::RawConnection;
use mcptest_core::Server;
use mcptest_suite::AuthSpec;

/// A coprocess request that did not end in a result.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CoprocessError {
    /// The binary could not be started.
    #[error("the coprocess binary did not start: {0}")]
    Start(#[source] Error),
    /// The binary speaks another protocol version (or none: a v1 binary
    /// answers the handshake with -32601). Nothing else was sent.
    #[error("{message}")]
    VersionMismatch {
        /// The version the binary reported, when it reported one.
        binary: Option<u64>,
        /// What to upgrade, in the protocol's words.
        message: String,
    },
    /// The binary answered with a JSON-RPC error.
    #[error("{method} was answered with coprocess error {code}: {message}{}", data.as_ref().map(|d| format!(" (data: {d})")).unwrap_or_default())]
    Rpc {
        /// The request.
        method: String,
        /// The code (see [`codes`](super::codes)).
        code: i32,
        /// The message.
        message: String,
        /// The data, with `upstream` for an upstream MCP error.
        data: Option<Value>,
    },
    /// No answer within the client's timeout.
    #[error("{method}: the coprocess did not answer within {after:?}")]
    Timeout {
        /// The request.
        method: String,
        /// How long the client waited.
        after: Duration,
    },
    /// The binary went away (with its exit status and stderr, when known).
    #[error("{method}: the coprocess went away: {error}")]
    Closed {
        /// The request in flight.
        method: String,
        /// How it went.
        error: Error,
    },
    /// A reply that breaks the closed response shape: another id, both or
    /// neither of `result` and `error`, an unknown field.
    #[error("{method}: invalid coprocess response ({reason}): {frame}")]
    InvalidResponse {
        /// The request.
        method: String,
        /// What is wrong.
        reason: String,
        /// The reply as received.
        frame: String,
    },
}

/// Deserializes a field that must be present but may be null (serde would
/// otherwise take a missing `Option` for `None`).
fn nullable<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer)
}

/// Deserializes an optional field whose null is a value (`reply: null`).
fn present<'de, D>(deserializer: D) -> Result<Option<Value>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    Value::deserialize(deserializer).map(Some)
}

/// The result of a v3 `coprocess/handshake`, parsed strictly.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandshakeReply {
    /// The version the binary will speak in this session (3).
    pub protocol_version: u64,
    /// The binary's own version.
    pub binary_version: String,
    /// Every method the binary serves.
    pub methods: Vec<String>,
    /// The suite lanes `suite.run` drives.
    pub lanes: Vec<String>,
    /// What the binary can do (`argv`, `passthrough`, `suites`, ...).
    pub features: Vec<String>,
}

/// The verdict of `mcp.call`, parsed strictly: an unknown or a missing
/// field is contract drift and fails the call.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallReply {
    /// The tool ran and did not answer `isError: true`.
    pub success: bool,
    /// The tool's text content, joined with `"\n"`.
    pub text: String,
    /// The tool's `structuredContent`, if any.
    #[serde(deserialize_with = "nullable")]
    pub data: Option<Value>,
    /// The error text, when the tool answered `isError: true`.
    #[serde(deserialize_with = "nullable")]
    pub error: Option<String>,
    /// How long the call took.
    pub duration_ms: u64,
    /// The upstream content blocks, verbatim.
    pub content: Vec<Value>,
    /// What the server sent from the call's start to its answer.
    pub messages: Vec<SentMessage>,
    /// The log messages among them.
    pub logs: Vec<LogEntry>,
}

/// A message the server sent on its own, as the verdict and
/// `mcp.messages` report it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SentMessage {
    /// The JSON-RPC method.
    pub method: String,
    /// Its params (null when it had none).
    pub params: Value,
    /// For a request to the client: its id.
    #[serde(default)]
    pub id: Option<Value>,
    /// For a request to the client: what the client answered (`Some(null)`
    /// when it has not).
    #[serde(default, deserialize_with = "present")]
    pub reply: Option<Value>,
}

/// A `notifications/message` the server sent.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogEntry {
    /// How severe.
    pub level: mcptest_core::LogLevel,
    /// The logger's name, if given.
    #[serde(default)]
    pub logger: Option<String>,
    /// The payload.
    pub data: Value,
}

/// The result of `mcp.messages`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MessagesReply {
    /// Every message, in arrival order.
    pub messages: Vec<SentMessage>,
    /// The log messages among them.
    pub logs: Vec<LogEntry>,
}

/// The upstream `tools/call` result, verbatim (`mcp.call` with
/// `passthrough: true`), recognised by its shape: an object with a
/// `content` array and no `success`.
#[derive(Debug, Clone, PartialEq)]
pub struct Passthrough {
    /// The result as the server sent it.
    pub result: Map<String, Value>,
}

impl Passthrough {
    /// The passthrough shape, or why `value` is not one.
    ///
    /// ```
    /// use mcptest_coprocess::Passthrough;
    /// use serde_json::json;
    ///
    /// let ok = Passthrough::from_value(json!({"content": [], "isError": true})).unwrap();
    /// assert!(!ok.success());
    /// assert!(Passthrough::from_value(json!({"success": true, "content": []})).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// Not an object, a `success` member (a verdict), no `content` array.
    pub fn from_value(value: Value) -> Result<Passthrough, String> {
        let Value::Object(result) = value else {
            return Err("a passthrough result is a JSON object".into());
        };
        if result.contains_key("success") {
            return Err("a passthrough result has no `success` (that is the verdict)".into());
        }
        if !result.get("content").is_some_and(Value::is_array) {
            return Err("a passthrough result has a `content` array".into());
        }
        Ok(Passthrough { result })
    }

    /// The tool did not answer `isError: true`.
    pub fn success(&self) -> bool {
        self.result.get("isError") != Some(&Value::Bool(true))
    }

    /// The content blocks.
    pub fn content(&self) -> &[Value] {
        self.result
            .get("content")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }
}

/// The result of `mcp.reporter.flush`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlushReply {
    /// Always true: a failed upload is an error.
    pub uploaded: bool,
    /// The HTTP status of the upload.
    pub status: u16,
    /// How many results the report held.
    pub results: usize,
}

/// One test of `suite.list`, parsed strictly.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListedTest {
    /// Opaque: give it to [`Client::suite_run`] as it is.
    pub id: String,
    /// The test's name.
    pub name: String,
    /// Its file, as the binary found it.
    pub file: String,
    /// 1-based line of its block (or case); 0 when unknown.
    pub line: u32,
    /// 1-based column; 0 when unknown.
    pub column: u32,
    /// Its kind (`tool`, `resources`, ..., `cases`).
    pub lane: String,
    /// Why it will not run here, if it will not.
    #[serde(deserialize_with = "nullable")]
    pub skip: Option<TestSkip>,
}

/// Why a listed test will not run here.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestSkip {
    /// The reason.
    pub reason: String,
    /// The command that runs it instead, for a lane the channel does not
    /// drive.
    #[serde(default)]
    pub command: Option<String>,
}

/// What `suite.run` is asked: the test and how to run it.
///
/// ```
/// use std::time::Duration;
/// use mcptest_coprocess::{SuiteRun, SuiteServer};
///
/// let run = SuiteRun::new("tests/evals/add.yaml#0")
///     .fixture("tests/fixtures")
///     .server(SuiteServer::argv(["my-server", "--root", "{{fixture}}"]))
///     .timeout(Duration::from_secs(10));
/// assert_eq!(run.id, "tests/evals/add.yaml#0");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SuiteRun {
    /// A test's id from `suite.list`.
    pub id: String,
    /// The directory copied afresh for the test.
    pub fixture: Option<std::path::PathBuf>,
    /// The server for files that name none.
    pub server: Option<SuiteServer>,
    /// The timeout of a test that sets none.
    pub timeout: Option<Duration>,
    /// `fail`, `warn` or `off`.
    pub wire_schema: Option<String>,
}

impl SuiteRun {
    /// Runs test `id` with the session's defaults.
    pub fn new(id: impl Into<String>) -> SuiteRun {
        SuiteRun {
            id: id.into(),
            fixture: None,
            server: None,
            timeout: None,
            wire_schema: None,
        }
    }

    /// The fixture directory (`{{fixture}}` stands for its copy).
    pub fn fixture(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.fixture = Some(dir.into());
        self
    }

    /// The server for files that name none.
    pub fn server(mut self, server: SuiteServer) -> Self {
        self.server = Some(server);
        self
    }

    /// The timeout of a test that sets none.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// What a server message that breaks the MCP schema does: `fail`,
    /// `warn` or `off`.
    pub fn wire_schema(mut self, mode: impl Into<String>) -> Self {
        self.wire_schema = Some(mode.into());
        self
    }

    fn params(&self) -> Value {
        let mut params = json!({ "id": self.id });
        if let Some(dir) = &self.fixture {
            params["fixture"] = dir.display().to_string().into();
        }
        if let Some(server) = &self.server {
            params["server"] = server.to_json();
        }
        if let Some(timeout) = self.timeout {
            params["timeout_ms"] = (timeout.as_millis().max(1) as u64).into();
        }
        if let Some(mode) = &self.wire_schema {
            params["wire_schema"] = mode.clone().into();
        }
        params
    }
}

/// The server `suite.run` starts (or reaches) for files that name none.
///
/// ```
/// use mcptest_coprocess::{AuthSpec, SuiteServer};
///
/// let server = SuiteServer::Sse {
///     url: "http://127.0.0.1:8080/sse".into(),
///     auth: AuthSpec {
///         bearer_env: Some("MY_TOKEN".into()),
///         ..AuthSpec::default()
///     },
/// };
/// # drop(server);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SuiteServer {
    /// A program and its arguments, exactly (no shell), with environment
    /// variables and a working directory.
    Argv {
        /// Program, then arguments.
        argv: Vec<String>,
        /// Environment variables.
        env: Vec<(String, String)>,
        /// The working directory.
        cwd: Option<String>,
    },
    /// A Streamable HTTP URL, with the credentials the binary applies.
    Url {
        /// The URL.
        url: String,
        /// Headers, a bearer token's variable, client credentials: the
        /// meaning of `mcptest exec --header`, `--bearer-env`, `--client-id`.
        auth: AuthSpec,
    },
    /// The URL of a legacy HTTP+SSE server's event stream, with the
    /// credentials the binary applies.
    Sse {
        /// The URL.
        url: String,
        /// As for [`SuiteServer::Url`].
        auth: AuthSpec,
    },
}

impl SuiteServer {
    /// `argv` with no environment or working directory of its own.
    pub fn argv<I, S>(argv: I) -> SuiteServer
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        SuiteServer::Argv {
            argv: argv.into_iter().map(Into::into).collect(),
            env: Vec::new(),
            cwd: None,
        }
    }

    /// A Streamable HTTP server at `url`, without credentials.
    pub fn url(url: impl Into<String>) -> SuiteServer {
        SuiteServer::Url {
            url: url.into(),
            auth: AuthSpec::default(),
        }
    }

    /// A legacy HTTP+SSE server whose event stream is at `url`, without
    /// credentials.
    pub fn sse(url: impl Into<String>) -> SuiteServer {
        SuiteServer::Sse {
            url: url.into(),
            auth: AuthSpec::default(),
        }
    }

    fn to_json(&self) -> Value {
        match self {
            SuiteServer::Url { url, auth } => remote_json("url", url, auth),
            SuiteServer::Sse { url, auth } => remote_json("sse", url, auth),
            SuiteServer::Argv { argv, env, cwd } => {
                let mut spec = json!({ "argv": argv });
                if !env.is_empty() {
                    spec["env"] = env
                        .iter()
                        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                        .collect::<Map<_, _>>()
                        .into();
                }
                if let Some(cwd) = cwd {
                    spec["cwd"] = cwd.clone().into();
                }
                spec
            }
        }
    }
}

/// `{url}` or `{sse}` (as `key` says) with the credentials keys `auth` fills.
fn remote_json(key: &str, url: &str, auth: &AuthSpec) -> Value {
    let mut spec = json!({ key: url });
    if !auth.headers.is_empty() {
        spec["headers"] = auth
            .headers
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect::<Map<_, _>>()
            .into();
    }
    let keys = [
        ("bearer_env", &auth.bearer_env),
        ("client_id", &auth.client_id),
        ("client_secret_env", &auth.client_secret_env),
        ("token_url", &auth.token_url),
    ];
    for (key, value) in keys {
        if let Some(value) = value {
            spec[key] = value.clone().into();
        }
    }
    spec
}

/// The verdict of `suite.run`, parsed strictly.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteRunReply {
    /// The test's id.
    pub id: String,
    /// The test's name.
    pub name: String,
    /// `pass`, `fail` or `skip`.
    pub status: String,
    /// How long it took.
    pub duration_ms: u64,
    /// `file:line:column`.
    pub location: String,
    /// For a failed test, the failure as `mcptest run` prints it.
    #[serde(deserialize_with = "nullable")]
    pub failure: Option<String>,
    /// For a skipped test, why.
    #[serde(deserialize_with = "nullable")]
    pub skip_reason: Option<String>,
    /// The result's labels.
    pub properties: std::collections::BTreeMap<String, String>,
}

/// A running coprocess binary after a successful v3 handshake.
pub struct Client {
    raw: RawConnection,
    next_id: u64,
    timeout: Duration,
    handshake: HandshakeReply,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("binary_version", &self.handshake.binary_version)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// Spawns `program args...` and performs the handshake.
    ///
    /// # Errors
    ///
    /// The binary does not start, does not answer, or speaks another
    /// version ([`CoprocessError::VersionMismatch`]).
    pub async fn spawn<I, S>(
        program: impl Into<std::path::PathBuf>,
        args: I,
    ) -> Result<Client, CoprocessError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        Client::start(Server::program(program).args(args)).await
    }

    /// Starts the binary `server` describes (program, args, env, cwd) and
    /// performs the handshake. Each request waits at most 60 s; change it
    /// with [`timeout`](Self::timeout).
    ///
    /// # Errors
    ///
    /// As for [`spawn`](Self::spawn).
    pub async fn start(server: Server) -> Result<Client, CoprocessError> {
        let raw = RawConnection::open(&server)
            .await
            .map_err(CoprocessError::Start)?;
        let mut client = Client {
            raw,
            next_id: 0,
            timeout: Duration::from_secs(60),
            handshake: HandshakeReply {
                protocol_version: 0,
                binary_version: String::new(),
                methods: Vec::new(),
                lanes: Vec::new(),
                features: Vec::new(),
            },
        };
        match client.shake_hands().await {
            Ok(handshake) => {
                client.handshake = handshake;
                Ok(client)
            }
            Err(error) => {
                client.raw.close().await;
                Err(error)
            }
        }
    }

    async fn shake_hands(&mut self) -> Result<HandshakeReply, CoprocessError> {
        let params = json!({
            "protocol_version": COPROCESS_PROTOCOL_VERSION,
            "sdk": "rust",
            "sdk_version": env!("CARGO_PKG_VERSION"),
        });
        let upgrade = |binary: &str| {
            format!(
                "mcptest binary speaks coprocess {binary}; this SDK needs v{COPROCESS_PROTOCOL_VERSION}. \
                 Upgrade the mcptest binary (or pin the SDK to the matching release)."
            )
        };
        match self.request("coprocess/handshake", Some(params)).await {
            Ok(result) => {
                let version = result.get("protocol_version").and_then(Value::as_u64);
                if version != Some(u64::from(COPROCESS_PROTOCOL_VERSION)) {
                    let said = version.map_or("no version".to_owned(), |v| format!("v{v}"));
                    return Err(CoprocessError::VersionMismatch {
                        binary: version,
                        message: upgrade(&said),
                    });
                }
                parse("coprocess/handshake", result)
            }
            Err(CoprocessError::Rpc { code, .. }) if code == codes::METHOD_NOT_FOUND => {
                Err(CoprocessError::VersionMismatch {
                    binary: Some(1),
                    message: upgrade("v1"),
                })
            }
            Err(CoprocessError::Rpc {
                code,
                message,
                data,
                ..
            }) if code == codes::INVALID_PARAMS => {
                // A v2 binary says `binary: 2`; a later one the range it speaks.
                let binary = data.as_ref().and_then(|d| d.get("binary"));
                let newest = match binary {
                    Some(Value::Array(range)) => range.last().and_then(Value::as_u64),
                    Some(version) => version.as_u64(),
                    None => None,
                };
                Err(CoprocessError::VersionMismatch {
                    binary: newest,
                    message,
                })
            }
            Err(other) => Err(other),
        }
    }

    /// How long each request may wait for its answer.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The binary's version, from the handshake.
    pub fn binary_version(&self) -> &str {
        &self.handshake.binary_version
    }

    /// The handshake's result: the binary's methods, lanes and features.
    pub fn handshake(&self) -> &HandshakeReply {
        &self.handshake
    }

    /// The binary's process id.
    pub fn pid(&self) -> Option<u32> {
        self.raw.pid()
    }

    /// Sends one request and waits for its answer: the `result`, or the
    /// error as [`CoprocessError::Rpc`].
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn request(
        &mut self,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, CoprocessError> {
        self.next_id += 1;
        let id = self.next_id;
        let mut frame = json!({ "jsonrpc": "2.0", "id": id, "method": method });
        if let Some(params) = params {
            frame["params"] = params;
        }
        self.raw
            .send(&frame)
            .await
            .map_err(|error| CoprocessError::Closed {
                method: method.to_owned(),
                error,
            })?;
        let reply = self
            .raw
            .recv(self.timeout)
            .await
            .map_err(|error| match error {
                Error::Timeout { .. } => CoprocessError::Timeout {
                    method: method.to_owned(),
                    after: self.timeout,
                },
                error => CoprocessError::Closed {
                    method: method.to_owned(),
                    error,
                },
            })?;
        parse_reply(method, id, reply)
    }

    /// `mcp.initialize`: who the server under test is (`serverInfo`,
    /// `protocolVersion`, `capabilities`).
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn initialize(&mut self) -> Result<Value, CoprocessError> {
        let result = self.request("mcp.initialize", None).await?;
        let shape = result
            .as_object()
            .is_some_and(|o| o.len() == 3 && o.contains_key("serverInfo"));
        if !shape {
            return Err(invalid(
                "mcp.initialize",
                "not an initialize result",
                &result,
            ));
        }
        Ok(result)
    }

    /// `mcp.call`: calls `tool` on the server under test; the verdict.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`]; an upstream JSON-RPC error is
    /// [`CoprocessError::Rpc`] with code -32000 and `data.upstream`.
    pub async fn call_tool(
        &mut self,
        tool: &str,
        arguments: Value,
    ) -> Result<CallReply, CoprocessError> {
        let result = self
            .request(
                "mcp.call",
                Some(json!({ "tool": tool, "arguments": arguments })),
            )
            .await?;
        if result.get("success").is_none() {
            return Err(invalid(
                "mcp.call",
                "a passthrough result where the verdict was asked for",
                &result,
            ));
        }
        let reply: CallReply = parse("mcp.call", result.clone())?;
        if let Some(broken) = reply
            .messages
            .iter()
            .find(|m| m.id.is_some() != m.reply.is_some())
        {
            return Err(invalid(
                "mcp.call",
                &format!("`{}`: `id` and `reply` come together", broken.method),
                &result,
            ));
        }
        Ok(reply)
    }

    /// `mcp.call` with `passthrough: true`: the upstream result verbatim.
    ///
    /// # Errors
    ///
    /// As for [`call_tool`](Self::call_tool); a verdict where the
    /// passthrough shape was asked for is [`CoprocessError::InvalidResponse`].
    pub async fn call_tool_passthrough(
        &mut self,
        tool: &str,
        arguments: Value,
    ) -> Result<Passthrough, CoprocessError> {
        let result = self
            .request(
                "mcp.call",
                Some(json!({ "tool": tool, "arguments": arguments, "passthrough": true })),
            )
            .await?;
        Passthrough::from_value(result.clone()).map_err(|why| invalid("mcp.call", &why, &result))
    }

    /// `mcp.listTools`: every tool, every page.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn list_tools(&mut self) -> Result<Vec<Value>, CoprocessError> {
        self.listing("mcp.listTools", "tools").await
    }

    /// `mcp.listResources`: every resource, every page.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn list_resources(&mut self) -> Result<Vec<Value>, CoprocessError> {
        self.listing("mcp.listResources", "resources").await
    }

    /// `mcp.listPrompts`: every prompt, every page.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn list_prompts(&mut self) -> Result<Vec<Value>, CoprocessError> {
        self.listing("mcp.listPrompts", "prompts").await
    }

    /// `mcp.listResourceTemplates`: every resource template, every page.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn list_resource_templates(&mut self) -> Result<Vec<Value>, CoprocessError> {
        self.listing("mcp.listResourceTemplates", "resourceTemplates")
            .await
    }

    async fn listing(&mut self, method: &str, key: &str) -> Result<Vec<Value>, CoprocessError> {
        let result = self.request(method, None).await?;
        match result.as_object() {
            Some(fields) if fields.len() == 1 => match fields.get(key) {
                Some(Value::Array(items)) => Ok(items.clone()),
                _ => Err(invalid(method, &format!("no `{key}` array"), &result)),
            },
            _ => Err(invalid(method, &format!("not `{{{key}: [..]}}`"), &result)),
        }
    }

    /// `mcp.readResource`: the `resources/read` result.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn read_resource(&mut self, uri: &str) -> Result<Value, CoprocessError> {
        let result = self
            .request("mcp.readResource", Some(json!({ "uri": uri })))
            .await?;
        upstream_shaped("mcp.readResource", "contents", result)
    }

    /// `mcp.callPrompt`: the `prompts/get` result.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn call_prompt(
        &mut self,
        name: &str,
        arguments: Value,
    ) -> Result<Value, CoprocessError> {
        let result = self
            .request(
                "mcp.callPrompt",
                Some(json!({ "name": name, "arguments": arguments })),
            )
            .await?;
        upstream_shaped("mcp.callPrompt", "messages", result)
    }

    /// `mcp.messages`: what the server sent outside calls since the last
    /// time, then forgotten by the binary.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn messages(&mut self) -> Result<MessagesReply, CoprocessError> {
        let result = self.request("mcp.messages", None).await?;
        parse("mcp.messages", result)
    }

    /// `mcp.reporter.record`: one test of the caller's own and its status
    /// (`pass`, `fail`, `skip`), with why it failed or was skipped.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn record(
        &mut self,
        name: &str,
        status: &str,
        message: Option<&str>,
    ) -> Result<(), CoprocessError> {
        let mut params = json!({ "name": name, "status": status });
        if let Some(message) = message {
            params["message"] = message.into();
        }
        let result = self.request("mcp.reporter.record", Some(params)).await?;
        empty("mcp.reporter.record", result)
    }

    /// `mcp.reporter.setUpload`: where `flush` posts the report.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn set_upload(
        &mut self,
        url: &str,
        token: Option<&str>,
    ) -> Result<(), CoprocessError> {
        let mut params = json!({ "url": url });
        if let Some(token) = token {
            params["token"] = token.into();
        }
        let result = self.request("mcp.reporter.setUpload", Some(params)).await?;
        empty("mcp.reporter.setUpload", result)
    }

    /// `mcp.reporter.flush`: posts the session's report.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`].
    pub async fn flush(&mut self) -> Result<FlushReply, CoprocessError> {
        let result = self.request("mcp.reporter.flush", None).await?;
        parse("mcp.reporter.flush", result)
    }

    /// `suite.list`: every test of the suite files (or directories)
    /// `paths`, filtered by name or file.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`]; a file that does not load is
    /// [`CoprocessError::Rpc`] -32602 with `data: {file, line?, column?}`.
    pub async fn suite_list(
        &mut self,
        paths: &[&str],
        filter: Option<&str>,
    ) -> Result<Vec<ListedTest>, CoprocessError> {
        let mut params = json!({ "paths": paths });
        if let Some(filter) = filter {
            params["filter"] = filter.into();
        }
        let result = self.request("suite.list", Some(params)).await?;
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Listing {
            tests: Vec<ListedTest>,
        }
        parse::<Listing>("suite.list", result).map(|l| l.tests)
    }

    /// `suite.run`: one listed test, run by the binary's runner.
    ///
    /// # Errors
    ///
    /// See [`CoprocessError`]. A test that fails is a reply with status
    /// `fail`, not an error.
    pub async fn suite_run(&mut self, run: &SuiteRun) -> Result<SuiteRunReply, CoprocessError> {
        let result = self.request("suite.run", Some(run.params())).await?;
        let reply: SuiteRunReply = parse("suite.run", result.clone())?;
        let consistent = match reply.status.as_str() {
            "pass" => reply.failure.is_none() && reply.skip_reason.is_none(),
            "fail" => reply.failure.is_some() && reply.skip_reason.is_none(),
            "skip" => reply.failure.is_none() && reply.skip_reason.is_some(),
            _ => false,
        };
        if !consistent {
            return Err(invalid(
                "suite.run",
                "`status` does not agree with `failure` and `skip_reason`",
                &result,
            ));
        }
        Ok(reply)
    }

    /// `mcp.shutdown`, then waits for the binary to exit (killing and
    /// reaping it after its grace period). Returns its exit status.
    ///
    /// # Errors
    ///
    /// The binary did not acknowledge the shutdown; it is stopped anyway.
    pub async fn shutdown(mut self) -> Result<Option<ExitStatus>, CoprocessError> {
        let acknowledged = self.request("mcp.shutdown", None).await;
        let status = self.raw.close().await;
        acknowledged.and_then(|result| empty("mcp.shutdown", result).map(|()| status))
    }
}

fn invalid(method: &str, reason: &str, result: &Value) -> CoprocessError {
    CoprocessError::InvalidResponse {
        method: method.to_owned(),
        reason: reason.to_owned(),
        frame: result.to_string(),
    }
}

/// A result of a closed shape, parsed strictly.
fn parse<T: DeserializeOwned>(method: &str, result: Value) -> Result<T, CoprocessError> {
    T::deserialize(&result).map_err(|e| invalid(method, &format!("not its result: {e}"), &result))
}

/// `{}`.
fn empty(method: &str, result: Value) -> Result<(), CoprocessError> {
    match &result {
        Value::Object(fields) if fields.is_empty() => Ok(()),
        _ => Err(invalid(method, "expected `{}`", &result)),
    }
}

/// An upstream result forwarded verbatim (open), with its `key` array.
fn upstream_shaped(method: &str, key: &str, result: Value) -> Result<Value, CoprocessError> {
    if result.get(key).is_some_and(Value::is_array) {
        Ok(result)
    } else {
        Err(invalid(method, &format!("no `{key}` array"), &result))
    }
}

/// Checks the closed response shape and the id.
fn parse_reply(method: &str, id: u64, reply: Value) -> Result<Value, CoprocessError> {
    let invalid = |reason: String, reply: &Value| CoprocessError::InvalidResponse {
        method: method.to_owned(),
        reason,
        frame: reply.to_string(),
    };
    let Some(fields) = reply.as_object() else {
        return Err(invalid("not a JSON object".into(), &reply));
    };
    if let Some(extra) = fields
        .keys()
        .find(|k| !["jsonrpc", "id", "result", "error"].contains(&k.as_str()))
    {
        return Err(invalid(format!("unknown field `{extra}`"), &reply));
    }
    if fields.get("id") != Some(&json!(id)) {
        return Err(invalid(format!("the id is not {id}"), &reply));
    }
    match (fields.get("result"), fields.get("error")) {
        (Some(result), None) => Ok(result.clone()),
        (None, Some(error)) => Err(CoprocessError::Rpc {
            method: method.to_owned(),
            code: error
                .get("code")
                .and_then(Value::as_i64)
                .and_then(|c| i32::try_from(c).ok())
                .unwrap_or(codes::INTERNAL_ERROR),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            data: error.get("data").cloned(),
        }),
        _ => Err(invalid(
            "exactly one of `result` and `error` is required".into(),
            &reply,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_must_have_the_id_and_one_of_result_or_error() {
        assert_eq!(
            parse_reply("m", 1, json!({"jsonrpc": "2.0", "id": 1, "result": 5})).unwrap(),
            json!(5)
        );
        for bad in [
            json!({"jsonrpc": "2.0", "id": 2, "result": 5}),
            json!({"jsonrpc": "2.0", "id": 1}),
            json!({"jsonrpc": "2.0", "id": 1, "result": 5, "error": {}}),
            json!({"jsonrpc": "2.0", "id": 1, "result": 5, "extra": true}),
        ] {
            assert!(
                matches!(
                    parse_reply("m", 1, bad.clone()),
                    Err(CoprocessError::InvalidResponse { .. })
                ),
                "{bad}"
            );
        }
        let rpc = parse_reply(
            "m",
            1,
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "no", "data": {"x": 1}}}),
        )
        .unwrap_err();
        assert!(
            matches!(rpc, CoprocessError::Rpc { code: -32000, .. }),
            "{rpc}"
        );
    }

    #[test]
    fn a_verdict_with_an_unknown_or_a_missing_field_is_drift() {
        let reply = json!({"success": true, "data": null, "text": "ok", "error": null,
            "duration_ms": 3, "content": [{"type": "text", "text": "ok"}],
            "messages": [{"method": "roots/list", "params": null, "id": 1, "reply": null}],
            "logs": [{"level": "info", "data": "x"}]});
        let parsed: CallReply = parse("mcp.call", reply.clone()).unwrap();
        assert_eq!(parsed.messages[0].reply, Some(Value::Null));
        let mut drifted = reply.clone();
        drifted["score"] = json!(1);
        assert!(parse::<CallReply>("mcp.call", drifted).is_err());
        for missing in ["data", "error", "content", "logs"] {
            let mut short = reply.clone();
            short.as_object_mut().unwrap().remove(missing);
            let error = parse::<CallReply>("mcp.call", short).unwrap_err();
            assert!(error.to_string().contains(missing), "{error}");
        }
        let mut loud = reply;
        loud["logs"][0]["level"] = json!("loud");
        assert!(parse::<CallReply>("mcp.call", loud).is_err());
    }

    #[test]
    fn a_passthrough_is_told_from_a_verdict_by_its_shape() {
        let ok = Passthrough::from_value(
            json!({"content": [{"type": "text", "text": "5"}], "_meta": {}}),
        )
        .unwrap();
        assert!(ok.success());
        assert_eq!(ok.content().len(), 1);
        assert!(Passthrough::from_value(json!({"isError": true})).is_err());
        assert!(Passthrough::from_value(json!([1])).is_err());
    }

    #[test]
    fn a_suite_server_at_a_url_sends_its_credentials_as_the_schema_says() {
        let schema = crate::FrameSchema::new();
        let auth = AuthSpec {
            headers: vec![("X-Api-Key".into(), "${MY_KEY}".into())],
            bearer_env: Some("MY_TOKEN".into()),
            client_id: Some("my-client".into()),
            client_secret_env: Some("MY_SECRET".into()),
            token_url: Some("http://127.0.0.1:9/token".into()),
        };
        let sse = SuiteServer::Sse {
            url: "http://127.0.0.1:9/sse".into(),
            auth: auth.clone(),
        };
        let params = SuiteRun::new("a.yaml#0").server(sse).params();
        assert_eq!(
            params["server"],
            json!({"sse": "http://127.0.0.1:9/sse", "headers": {"X-Api-Key": "${MY_KEY}"},
                "bearer_env": "MY_TOKEN", "client_id": "my-client",
                "client_secret_env": "MY_SECRET", "token_url": "http://127.0.0.1:9/token"})
        );
        schema
            .check("/$defs/params/suite.run", &params)
            .unwrap_or_else(|e| panic!("{e}: {params}"));
        let url = SuiteRun::new("a.yaml#0")
            .server(SuiteServer::url("http://127.0.0.1:9/mcp"))
            .params();
        assert_eq!(url["server"], json!({"url": "http://127.0.0.1:9/mcp"}));
        schema.check("/$defs/params/suite.run", &url).unwrap();
        // The schema refuses what the binary refuses.
        for bad in [
            json!({"id": "a#0", "server": {"argv": ["srv"], "bearer_env": "T"}}),
            json!({"id": "a#0", "server": {"url": "http://x/mcp", "sse": "http://x/sse"}}),
            json!({"id": "a#0", "server": {"sse": "http://x/sse", "token_url": "http://x/t"}}),
        ] {
            assert!(
                schema.check("/$defs/params/suite.run", &bad).is_err(),
                "{bad}"
            );
        }
    }
}
