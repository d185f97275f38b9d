//! The recording mock server client checks talk to: a stateless
//! (2026-07-28-only) MCP server on rmcp, behind a recorder that keeps every
//! line or HTTP exchange exactly as it went over the wire.
//!
//! Its tools exist to provoke what the checks look for: `echo` answers,
//! `slow` never finishes on its own (a client must cancel it), `ask` needs
//! client input — it asks, with an `input_required` result, for every one of
//! elicitation, sampling and roots the request declares, and rejects a
//! request that declares none with -32021 — `confirm` does the same with an
//! opaque `requestState` the retry must echo (SEP-2322), and `lookup`'s
//! input schema holds a `$ref` to a network URI on 127.0.0.1 that no client
//! may fetch on its own (SEP-2106): a canary listener records any connection.
//! `forecast` marks four of its arguments (a string, an integer, a boolean
//! and free text) with `x-mcp-header`, which a client mirrors in
//! `Mcp-Param-*` headers over HTTP (SEP-2243). `contact`'s input schema uses
//! JSON Schema 2020-12 keywords (`$schema`, `$defs` with an `$anchor`,
//! `additionalProperties`, `allOf`/`anyOf`, `if`/`then`/`else`) that a
//! client passes back through `schema_echo` to show what it kept. The
//! `tag_*` tools carry `x-mcp-header` annotations: `tag_valid` a valid one,
//! the others one each that breaks a rule (empty, not an HTTP token,
//! repeated, on an object), which a client must not call over HTTP.
//! `untyped`'s answers lose their `resultType` on the wire: a client must
//! take them as complete (SEP-2322). One prompt (`greeting`) and one
//! resource (`mcptest://mock/note`) let a client send `prompts/get` and
//! `resources/read`, whose `Mcp-Name` header is checked over HTTP.

use std::{
    borrow::Cow,
    sync::{Arc, Mutex},
    time::Duration,
};

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock,
        GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation,
        InputRequiredResult, ListPromptsResult, ListResourcesResult, ListToolsResult,
        PaginatedRequestParams, Prompt, PromptMessage, ProtocolVersion, ReadResourceRequestParams,
        ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, Role,
        ServerCapabilities, ServerConfig, Tool,
    },
    service::RequestContext,
};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader},
    task::JoinHandle,
};

/// The longest a `slow` call waits for its cancellation.
const SLOW_LIMIT: Duration = Duration::from_secs(120);

/// The mock's name in `server/discover`.
pub(crate) const MOCK_NAME: &str = "mcptest-mock";

/// Everything that went over the wire, in order.
#[derive(Debug, Default)]
pub(crate) struct Recording {
    events: Mutex<Vec<Event>>,
}

/// One thing on the wire.
#[derive(Debug, Clone)]
pub(crate) enum Event {
    /// A line the client wrote (stdio).
    FromClient { message: Option<Value>, raw: String },
    /// A line the mock wrote (stdio).
    FromMock { message: Value },
    /// One HTTP request from the client and the mock's answer.
    #[cfg_attr(not(feature = "http-mock"), allow(dead_code))]
    Http {
        headers: Vec<(String, String)>,
        body: String,
        status: u16,
        content_type: Option<String>,
        /// The answer's body, filled while it streams.
        answer: Arc<Mutex<Vec<u8>>>,
    },
    /// A connection to the canary (a network `$ref` was dereferenced).
    CanaryHit { peer: String },
}

impl Recording {
    pub(crate) fn push(&self, event: Event) {
        self.events
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(event);
    }

    pub(crate) fn events(&self) -> Vec<Event> {
        self.events
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

/// The mock's MCP behaviour.
#[derive(Debug, Clone)]
pub(crate) struct MockHandler {
    /// Where `lookup`'s network `$ref` points: the canary's URL.
    pub(crate) canary_url: Arc<str>,
}

/// The mock's one prompt and one resource: `prompts/get` and
/// `resources/read` carry `Mcp-Name` over HTTP (SEP-2243).
pub(crate) const PROMPT: &str = "greeting";
pub(crate) const RESOURCE: &str = "mcptest://mock/note";

/// The tool whose answers lose `resultType` on the wire: a client must
/// take such a result as complete (SEP-2322).
pub(crate) const UNTYPED_TOOL: &str = "untyped";

/// Whether `message` is a `tools/call` of [`UNTYPED_TOOL`]; its id, if so.
fn untyped_call(message: &Value) -> Option<String> {
    (message.get("method")? == "tools/call" && message["params"]["name"] == UNTYPED_TOOL)
        .then(|| message.get("id").map(Value::to_string))
        .flatten()
}

/// Takes `resultType` out of a response whose id is in `ids`; whether it did.
fn strip_result_type(message: &mut Value, ids: &Mutex<Vec<String>>) -> bool {
    let Some(id) = message.get("id").map(Value::to_string) else {
        return false;
    };
    if !ids.lock().unwrap_or_else(|p| p.into_inner()).contains(&id) {
        return false;
    }
    message
        .get_mut("result")
        .and_then(Value::as_object_mut)
        .is_some_and(|result| result.remove("resultType").is_some())
}

/// The `requestState` `confirm` sends; the retry must carry it unchanged.
pub(crate) const CONFIRM_STATE: &str = "mcptest-opaque-state:7f3a9c";

/// A listener on 127.0.0.1 that records every connection: the target of
/// `lookup`'s network `$ref`, which a client must never dereference.
#[derive(Debug)]
pub(crate) struct Canary {
    pub(crate) url: String,
    task: JoinHandle<()>,
}

impl Canary {
    /// Binds a free port on 127.0.0.1; each accepted connection is recorded
    /// as [`Event::CanaryHit`] and closed.
    pub(crate) async fn start(recording: Arc<Recording>) -> Result<Canary, mcptest_core::Error> {
        let listener = tokio::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0))
            .await
            .map_err(|e| mcptest_core::Error::InvalidConfig {
                message: format!("the mock's canary listener cannot bind 127.0.0.1: {e}"),
            })?;
        let port = listener
            .local_addr()
            .map_err(|e| mcptest_core::Error::InvalidConfig {
                message: format!("the canary listener's address: {e}"),
            })?
            .port();
        let task = tokio::spawn(async move {
            while let Ok((stream, peer)) = listener.accept().await {
                recording.push(Event::CanaryHit {
                    peer: peer.to_string(),
                });
                drop(stream);
            }
        });
        Ok(Canary {
            url: format!("http://127.0.0.1:{port}/schemas/user-profile.json"),
            task,
        })
    }
}

impl Drop for Canary {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn object_schema(schema: Value) -> Arc<serde_json::Map<String, Value>> {
    match schema {
        Value::Object(map) => Arc::new(map),
        _ => Arc::default(),
    }
}

/// A `tag_*` tool: its properties, each required, carry `x-mcp-header`
/// annotations, valid or not.
fn tag_tool(name: &'static str, description: &'static str, properties: Value) -> Tool {
    let required: Vec<&String> = properties
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, _)| k)
        .collect();
    Tool::new(
        name,
        description,
        object_schema(json!({ "type": "object", "properties": properties, "required": required })),
    )
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// The input request the mock sends for each client capability.
fn input_request(capability: &str) -> Value {
    match capability {
        "elicitation" => json!({
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": "mcptest's mock server asks for a name",
                "requestedSchema": {
                    "type": "object",
                    "properties": { "name": { "type": "string" } },
                    "required": ["name"],
                },
            },
        }),
        "sampling" => json!({
            "method": "sampling/createMessage",
            "params": {
                "messages": [{ "role": "user", "content": { "type": "text", "text": "Say hi" } }],
                "maxTokens": 16,
            },
        }),
        _ => json!({ "method": "roots/list" }),
    }
}

/// The client capabilities `ask` asks for, in the order it asks.
pub(crate) const ASKABLE: &[&str] = &["elicitation", "sampling", "roots"];

impl ServerHandler for MockHandler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new(MOCK_NAME, env!("CARGO_PKG_VERSION")))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![ProtocolVersion::V_2026_07_28])
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![
            Tool::new(
                "echo",
                "Returns `text`.",
                object_schema(json!({
                    "type": "object",
                    "properties": { "text": { "type": "string" } },
                    "required": ["text"],
                })),
            ),
            Tool::new(
                "slow",
                "Never finishes on its own: cancel it.",
                object_schema(json!({ "type": "object" })),
            ),
            Tool::new(
                "ask",
                "Asks the client for input with every client capability the request declares \
                 (elicitation, sampling, roots).",
                object_schema(json!({ "type": "object" })),
            ),
            Tool::new(
                "confirm",
                "Like `ask`, with an opaque requestState the retry must echo unchanged.",
                object_schema(json!({ "type": "object" })),
            ),
            Tool::new(
                "forecast",
                "Forecasts the weather for a region; over HTTP the arguments marked x-mcp-header \
                 travel in Mcp-Param-* headers too.",
                object_schema(json!({
                    "type": "object",
                    "properties": {
                        "region": { "type": "string", "x-mcp-header": "Region" },
                        "days": { "type": "integer", "x-mcp-header": "Days" },
                        "metric": { "type": "boolean", "x-mcp-header": "Metric" },
                        "label": {
                            "type": "string",
                            "description": "Free text, any characters",
                            "x-mcp-header": "Label",
                        },
                        "comment": { "type": "string" },
                    },
                    "required": ["region"],
                })),
            ),
            tag_tool(
                "tag_valid",
                "A valid x-mcp-header.",
                json!({
                    "label": { "type": "string", "x-mcp-header": "Tag" },
                }),
            ),
            tag_tool(
                "tag_empty",
                "An empty x-mcp-header: a client must not use this tool.",
                json!({
                    "label": { "type": "string", "x-mcp-header": "" },
                }),
            ),
            tag_tool(
                "tag_spaced",
                "An x-mcp-header that is no HTTP token: a client must not use this tool.",
                json!({ "label": { "type": "string", "x-mcp-header": "Tag Name" } }),
            ),
            tag_tool(
                "tag_twice",
                "One x-mcp-header on two properties (ignoring case): a client must not use this \
                 tool.",
                json!({
                    "first": { "type": "string", "x-mcp-header": "Tag" },
                    "second": { "type": "string", "x-mcp-header": "tag" },
                }),
            ),
            tag_tool(
                "tag_object",
                "An x-mcp-header on an object property: a client must not use this tool.",
                json!({ "label": { "type": "object", "x-mcp-header": "Tag" } }),
            ),
            Tool::new(
                UNTYPED_TOOL,
                "Answers with a result that has no resultType: a complete result.",
                object_schema(json!({ "type": "object" })),
            ),
            Tool::new(
                "contact",
                "Records how to reach someone; its inputSchema uses JSON Schema 2020-12 \
                 keywords a client must keep.",
                object_schema(json!({
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "type": "object",
                    "$defs": {
                        "postal": {
                            "$anchor": "postal",
                            "type": "object",
                            "properties": {
                                "line": { "type": "string" },
                                "town": { "type": "string" },
                            },
                        },
                    },
                    "properties": {
                        "who": { "type": "string" },
                        "by": { "type": "string", "enum": ["phone", "mail", "post"] },
                        "phone": { "type": "string" },
                        "mail": { "type": "string" },
                        "post": { "$ref": "#/$defs/postal" },
                    },
                    "allOf": [{ "anyOf": [{ "required": ["phone"] }, { "required": ["mail"] }] }],
                    "if": {
                        "properties": { "by": { "const": "post" } },
                        "required": ["by"],
                    },
                    "then": { "required": ["post"] },
                    "else": { "required": ["who"] },
                    "additionalProperties": false,
                })),
            ),
            Tool::new(
                "schema_echo",
                "Returns `schema`: pass a listed tool's name and its inputSchema exactly as \
                 you hold it.",
                object_schema(json!({
                    "type": "object",
                    "properties": {
                        "tool": { "type": "string" },
                        "schema": { "type": "object" },
                    },
                    "required": ["tool", "schema"],
                })),
            ),
            Tool::new(
                "lookup",
                "Looks up a user profile by id.",
                object_schema(json!({
                    "type": "object",
                    "$defs": { "userId": { "type": "string", "pattern": "^u[0-9]+$" } },
                    "properties": {
                        "id": { "$ref": "#/$defs/userId" },
                        "profile": { "$ref": self.canary_url.as_ref() },
                    },
                    "required": ["id"],
                })),
            ),
        ]))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            PROMPT,
            Some("A greeting to send"),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != PROMPT {
            return Err(ErrorData::invalid_params(
                format!("unknown prompt {:?}", request.name),
                None,
            ));
        }
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, "Say hello")]).into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![Resource::new(
            RESOURCE, "note",
        )]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != RESOURCE {
            return Err(ErrorData::resource_not_found(
                format!("no resource {:?}", request.uri),
                None,
            ));
        }
        Ok(ReadResourceResult::new(vec![ResourceContents::text("a note", RESOURCE)]).into())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match request.name.as_ref() {
            "echo" => {
                let said = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("text"))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                Ok(text(said).into())
            }
            "slow" => {
                tokio::select! {
                    () = context.ct.cancelled() => {
                        Err(ErrorData::internal_error("cancelled by the client", None))
                    }
                    () = tokio::time::sleep(SLOW_LIMIT) => Ok(text("slow finished uncancelled").into()),
                }
            }
            "ask" | "confirm" => {
                if request.input_responses.is_some() {
                    return Ok(text("thank you for the input").into());
                }
                let declared = context
                    .meta
                    .client_capabilities()
                    .and_then(|c| serde_json::to_value(c).ok())
                    .unwrap_or(Value::Null);
                let asked: Vec<&str> = ASKABLE
                    .iter()
                    .copied()
                    .filter(|c| declared.get(c).is_some_and(|v| !v.is_null()))
                    .collect();
                if asked.is_empty() {
                    let required: ClientCapabilities =
                        serde_json::from_value(json!({ "elicitation": {} }))
                            .expect("elicitation is a client capability");
                    return Err(ErrorData::missing_required_client_capability(required));
                }
                let requests: serde_json::Map<String, Value> = asked
                    .iter()
                    .map(|c| ((*c).to_owned(), input_request(c)))
                    .collect();
                let mut result = json!({
                    "resultType": "input_required",
                    "inputRequests": requests,
                });
                if request.name == "confirm" {
                    result["requestState"] = json!(CONFIRM_STATE);
                }
                let result: InputRequiredResult = serde_json::from_value(result)
                    .map_err(|e| ErrorData::internal_error(format!("input request: {e}"), None))?;
                Ok(CallToolResponse::InputRequired(result))
            }
            "lookup" => Ok(text("no such user").into()),
            "forecast" => Ok(text("sunny").into()),
            "contact" => Ok(text("noted").into()),
            UNTYPED_TOOL => Ok(text("done; no resultType on the wire").into()),
            tag if tag.starts_with("tag_") => Ok(text("tagged").into()),
            "schema_echo" => {
                let schema = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("schema"))
                    .cloned()
                    .unwrap_or(Value::Null);
                Ok(text(schema.to_string()).into())
            }
            other => Err(ErrorData::invalid_params(
                format!("unknown tool {other:?}"),
                None,
            )),
        }
    }
}

/// Serves the mock over a pair of byte streams from and to the client,
/// recording every line. Returns the tasks; they end when the client closes
/// its side.
pub(crate) fn serve_stdio<R, W>(
    from_client: R,
    to_client: W,
    recording: Arc<Recording>,
    mock: MockHandler,
) -> Vec<JoinHandle<()>>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let (server_io, pump_io) = tokio::io::duplex(256 * 1024);
    let server = tokio::spawn(async move {
        if let Ok(service) = rmcp::serve_server(mock, server_io).await {
            let _ = service.waiting().await;
        }
    });
    let (from_mock, mut to_mock) = tokio::io::split(pump_io);
    let untyped: Arc<Mutex<Vec<String>>> = Arc::default();
    let inbound = {
        let recording = recording.clone();
        let untyped = untyped.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(from_client).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let message = serde_json::from_str::<Value>(&line).ok();
                if let Some(id) = message.as_ref().and_then(untyped_call) {
                    untyped.lock().unwrap_or_else(|p| p.into_inner()).push(id);
                }
                recording.push(Event::FromClient {
                    message,
                    raw: line.clone(),
                });
                let mut bytes = line.into_bytes();
                bytes.push(b'\n');
                if to_mock.write_all(&bytes).await.is_err() {
                    break;
                }
            }
            let _ = to_mock.shutdown().await;
        })
    };
    let outbound = tokio::spawn(async move {
        let mut to_client = to_client;
        let mut lines = BufReader::new(from_mock).lines();
        while let Ok(Some(mut line)) = lines.next_line().await {
            if let Ok(mut message) = serde_json::from_str::<Value>(&line) {
                if strip_result_type(&mut message, &untyped) {
                    line = message.to_string();
                }
                recording.push(Event::FromMock { message });
            }
            let mut bytes = line.into_bytes();
            bytes.push(b'\n');
            if to_client.write_all(&bytes).await.is_err() || to_client.flush().await.is_err() {
                break;
            }
        }
        let _ = to_client.shutdown().await;
    });
    vec![server, inbound, outbound]
}

#[cfg(feature = "http-mock")]
pub(crate) mod http {
    //! The mock over Streamable HTTP on 127.0.0.1, every exchange recorded.

    use std::{
        convert::Infallible,
        net::Ipv4Addr,
        sync::{Arc, Mutex},
    };

    use bytes::Bytes;
    use http_body_util::{BodyExt, Full, combinators::BoxBody};
    use hyper::{Request, Response, body::Incoming, service::service_fn};
    use hyper_util::rt::TokioIo;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    };
    use tokio::{net::TcpListener, task::JoinHandle};

    use super::{Event, MockHandler, Recording};
    use mcptest_core::Error;

    /// A running HTTP mock: its URL and the task serving it. Dropping it
    /// stops the server and ends the HTTP service's open streams.
    pub(crate) struct HttpMock {
        pub(crate) url: String,
        task: JoinHandle<()>,
        cancel: Option<Box<dyn FnOnce() + Send + Sync>>,
    }

    impl Drop for HttpMock {
        fn drop(&mut self) {
            self.task.abort();
            if let Some(cancel) = self.cancel.take() {
                cancel();
            }
        }
    }

    /// Binds 127.0.0.1 on a free port and serves the mock there.
    pub(crate) async fn serve(
        recording: Arc<Recording>,
        mock: MockHandler,
    ) -> Result<HttpMock, Error> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .map_err(|e| Error::InvalidConfig {
                message: format!("the mock server cannot bind 127.0.0.1: {e}"),
            })?;
        let port = listener
            .local_addr()
            .map_err(|e| Error::InvalidConfig {
                message: format!("the mock server's address: {e}"),
            })?
            .port();
        let config = StreamableHttpServerConfig::default()
            .with_sse_keep_alive(None)
            .with_legacy_session_mode(false)
            .with_json_response(true)
            .with_stateless_protocol_metadata_required(true);
        let token = config.cancellation_token.clone();
        let service = Arc::new(StreamableHttpService::new(
            move || Ok(mock.clone()),
            Arc::new(LocalSessionManager::default()),
            config,
        ));
        let task = tokio::spawn(async move {
            let mut connections = Vec::new();
            while let Ok((stream, _)) = listener.accept().await {
                let service = service.clone();
                let recording = recording.clone();
                let handler = service_fn(move |request: Request<Incoming>| {
                    let service = service.clone();
                    let recording = recording.clone();
                    async move { Ok::<_, Infallible>(record(&service, &recording, request).await) }
                });
                connections.retain(|c: &JoinHandle<()>| !c.is_finished());
                connections.push(tokio::spawn(async move {
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), handler)
                        .await;
                }));
            }
        });
        Ok(HttpMock {
            url: format!("http://127.0.0.1:{port}/mcp"),
            task,
            cancel: Some(Box::new(move || token.cancel())),
        })
    }

    /// The answer to a `tools/call` of the untyped tool, its `resultType`
    /// taken out (a JSON body; an SSE one passes as it is).
    async fn without_result_type(
        response: Response<BoxBody<Bytes, Infallible>>,
        id: String,
    ) -> Response<BoxBody<Bytes, Infallible>> {
        let (mut parts, body) = response.into_parts();
        let bytes = match body.collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(never) => match never {},
        };
        let ids = Mutex::new(vec![id]);
        let stripped = serde_json::from_slice::<serde_json::Value>(&bytes)
            .ok()
            .and_then(|mut message| {
                super::strip_result_type(&mut message, &ids).then(|| message.to_string())
            });
        let bytes = match stripped {
            Some(text) => {
                parts.headers.remove(hyper::header::CONTENT_LENGTH);
                Bytes::from(text)
            }
            None => bytes,
        };
        Response::from_parts(parts, Full::new(bytes).boxed())
    }

    async fn record(
        service: &StreamableHttpService<MockHandler, LocalSessionManager>,
        recording: &Recording,
        request: Request<Incoming>,
    ) -> Response<BoxBody<Bytes, Infallible>> {
        let (parts, body) = request.into_parts();
        let bytes = match body.collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(_) => Bytes::new(),
        };
        let headers = parts
            .headers
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let body_text = String::from_utf8_lossy(&bytes).into_owned();
        let is_post = parts.method == hyper::Method::POST;
        let untyped = serde_json::from_slice::<serde_json::Value>(&bytes)
            .ok()
            .and_then(|m| super::untyped_call(&m));
        let response = service
            .handle(Request::from_parts(parts, Full::new(bytes)))
            .await;
        if !is_post {
            return response;
        }
        let response = match untyped {
            Some(id) => without_result_type(response, id).await,
            None => response,
        };
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get(hyper::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.split(';').next().unwrap_or_default().trim().to_owned());
        let answer = Arc::new(Mutex::new(Vec::new()));
        recording.push(Event::Http {
            headers,
            body: body_text,
            status,
            content_type,
            answer: answer.clone(),
        });
        let (parts, body) = response.into_parts();
        let body = body
            .map_frame(move |frame| {
                if let Some(data) = frame.data_ref() {
                    answer
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .extend_from_slice(data);
                }
                frame
            })
            .boxed();
        Response::from_parts(parts, body)
    }
}
