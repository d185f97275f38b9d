//! A 2026-07-28 (stateless MCP) client for the client conformance checks,
//! written with raw JSON so that flags can make it break one rule each.
//!
//! It speaks over its own stdin/stdout, or to `--url URL` over Streamable
//! HTTP, and runs one scenario: `server/discover` (retrying after -32022 with
//! a supported version), `tools/list`, `tools/call echo`, over stdio
//! `tools/call slow` and its cancellation, then `tools/call ask` and
//! `tools/call confirm` answering the server's input requests (the latter
//! echoing its `requestState`, SEP-2322). It never fetches the network `$ref`
//! in `lookup`'s schema (SEP-2106) and sends `Mcp-Method` / `Mcp-Name` on
//! every HTTP POST (SEP-2243), and on `tools/call forecast` an `Mcp-Param-*`
//! header for each argument its schema marks `x-mcp-header`. It passes
//! `contact`'s input schema back through `schema_echo` as it holds it, and
//! calls each `tag_*` tool it kept, leaving out those whose `x-mcp-header`
//! annotations are invalid. It takes `untyped`'s result, which has no
//! `resultType`, as complete.
//!
//! With `--auth` (over HTTP) it answers a 401 by authorizing: Protected
//! Resource Metadata, the authorization server's metadata, dynamic
//! registration, the authorization code with PKCE (S256), `state` and
//! `resource`, read from the authorization endpoint's 302 without a browser;
//! it waits out its first token and refreshes it, and steps up on a 403
//! `insufficient_scope`. Each `--broken-*` flag breaks one of those rules.
//! It registers dynamically, or with `--client-id ID [--client-secret S]`
//! as that pre-registered client (the secret by HTTP Basic at the token
//! endpoint), or with `--metadata-document` by the URL of a Client ID
//! Metadata Document it serves itself on 127.0.0.1.

use std::{process::ExitCode, time::Duration};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines, Stdin};

const VERSION: &str = "2026-07-28";
const UNSUPPORTED: &str = "2099-12-31";
const WAIT: Duration = Duration::from_secs(10);

const FLAGS: &[(&str, &str)] = &[
    (
        "--start-unsupported",
        "start with version 2099-12-31 (provokes -32022)",
    ),
    ("--no-retry", "give up after -32022 instead of retrying"),
    (
        "--omit-capabilities",
        "leave clientCapabilities out of _meta",
    ),
    ("--omit-client-info", "leave clientInfo out of _meta"),
    (
        "--switch-version",
        "send tools/list with 2025-11-25 after 2026-07-28 was chosen",
    ),
    (
        "--header-mismatch",
        "HTTP: send MCP-Protocol-Version 2025-11-25",
    ),
    (
        "--no-cancel",
        "stdio: abandon the slow call without notifications/cancelled",
    ),
    (
        "--ignore-input-requests",
        "retry `ask` without answering its input requests",
    ),
    (
        "--alter-state",
        "retry `confirm` with a changed requestState",
    ),
    (
        "--reuse-id",
        "retry `ask` and `confirm` with the JSON-RPC id of the first call",
    ),
    (
        "--invent-state",
        "retry `ask` with a requestState it was never given",
    ),
    (
        "--leak-input",
        "send the last inputResponses again on an unrelated `echo` call",
    ),
    (
        "--fetch-refs",
        "GET every network $ref in the listed tools' input schemas",
    ),
    (
        "--no-method-header",
        "HTTP: leave out the Mcp-Method header",
    ),
    (
        "--wrong-name-header",
        "HTTP: send Mcp-Name `other` on tools/call",
    ),
    ("--bad-arguments", "call `echo` with a number for `text`"),
    (
        "--no-param-headers",
        "HTTP: leave out the Mcp-Param headers of x-mcp-header arguments",
    ),
    (
        "--mirror-unmarked",
        "HTTP: also send Mcp-Param-Comment for `forecast`'s unmarked `comment`",
    ),
    (
        "--bool-as-number",
        "HTTP: write a boolean Mcp-Param value as 0 or 1",
    ),
    (
        "--plain-unsafe-values",
        "HTTP: send Mcp-Param values that need Base64 as they are",
    ),
    (
        "--header-for-absent",
        "HTTP: send Mcp-Param `null` for a marked argument left out",
    ),
    (
        "--no-version-header",
        "HTTP: leave out the MCP-Protocol-Version header",
    ),
    (
        "--strip-schema-core",
        "echo `contact`'s inputSchema without $schema, $defs, additionalProperties",
    ),
    (
        "--strip-schema-vocabulary",
        "echo `contact`'s inputSchema without allOf, if/then/else and $anchor",
    ),
    (
        "--keep-invalid-header-tools",
        "keep (and call) the tools whose x-mcp-header annotations are invalid",
    ),
    (
        "--retry-untyped",
        "retry `untyped`, whose result has no resultType, with inputResponses",
    ),
    (
        "--capability-true",
        "declare the elicitation capability as `true`, not an object",
    ),
    (
        "--auth",
        "HTTP: on 401, authorize (discovery, registration, PKCE); refresh; step up on 403",
    ),
    (
        "--broken-resource-metadata",
        "--auth: skip the Protected Resource Metadata",
    ),
    (
        "--broken-server-metadata",
        "--auth: skip the authorization server's metadata, guess its endpoints",
    ),
    (
        "--broken-registration",
        "--auth: use a client_id it never registered",
    ),
    ("--broken-pkce", "--auth: PKCE with the plain method"),
    (
        "--broken-resource",
        "--auth: leave out the resource parameter",
    ),
    ("--broken-state", "--auth: leave out state"),
    (
        "--broken-redirect",
        "--auth: authorize with a redirect_uri it did not register",
    ),
    (
        "--broken-token-in-query",
        "--auth: also put the token in the MCP URL's query string",
    ),
    (
        "--broken-refresh",
        "--auth: authorize again when the token expires instead of refreshing",
    ),
    (
        "--broken-step-up",
        "--auth: give up on a 403 insufficient_scope",
    ),
    (
        "--broken-audience",
        "--auth: send the access token to the authorization server too",
    ),
    (
        "--metadata-document",
        "--auth: register by a Client ID Metadata Document served on 127.0.0.1",
    ),
    (
        "--broken-registers-anyway",
        "--client-id, --metadata-document: also register dynamically at /register",
    ),
    (
        "--broken-pre-registered-id",
        "--client-id: authorize with another client_id",
    ),
    (
        "--broken-client-secret",
        "--client-secret: leave the secret out of token requests",
    ),
    (
        "--broken-document-id",
        "--metadata-document: a document whose client_id is not its URL",
    ),
    (
        "--broken-document-redirect",
        "--metadata-document: a document whose redirect_uris leave out the redirect used",
    ),
];

/// The options that take a value: the pre-registered client's id and
/// secret.
const VALUED: &[(&str, &str)] = &[
    ("--url", "Streamable HTTP: the server's URL"),
    ("--client-id", "--auth: the pre-registered client_id"),
    (
        "--client-secret",
        "--client-id: its secret, sent by HTTP Basic at /token",
    ),
];

/// The path of the Client ID Metadata Document (`--metadata-document`).
const DOCUMENT_PATH: &str = "/client-metadata.json";

/// Where the authorization server is told to send the browser back; never
/// contacted (the code is read from the 302's Location).
const REDIRECT: &str = "http://127.0.0.1:1/callback";
/// A redirect the client never registered (`--broken-redirect`).
const UNREGISTERED_REDIRECT: &str = "http://127.0.0.1:1/elsewhere";

/// The client's authorization state (`--auth`).
#[derive(Default)]
struct Auth {
    token: Option<String>,
    refresh: Option<String>,
    expires: Option<std::time::Instant>,
    client_id: Option<String>,
    /// The scope last asked for.
    scope: Option<String>,
    resource: Option<String>,
    token_endpoint: Option<String>,
}

struct Client {
    flags: Vec<String>,
    next_id: u64,
    link: Link,
    /// The tools the server listed, for their `x-mcp-header` arguments.
    tools: Vec<Value>,
    auth: Auth,
    /// How it registers: pre-registered (`--client-id`, `--client-secret`)
    /// or by the URL of its metadata document; otherwise dynamically.
    registration: Registration,
}

#[derive(Default)]
struct Registration {
    client_id: Option<String>,
    client_secret: Option<String>,
    document_url: Option<String>,
}

enum Link {
    Stdio {
        input: Lines<BufReader<Stdin>>,
        output: tokio::io::Stdout,
    },
    Http {
        url: String,
        http: reqwest::Client,
    },
}

impl Client {
    fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }

    fn meta(&self, version: &str) -> Value {
        let mut meta = json!({
            "io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientInfo": { "name": "fixture-client", "version": "1.0.0" },
            "io.modelcontextprotocol/clientCapabilities": { "elicitation": { "form": {} } },
        });
        let map = meta.as_object_mut().expect("an object");
        if self.has("--omit-capabilities") {
            map.remove("io.modelcontextprotocol/clientCapabilities");
        }
        if self.has("--omit-client-info") {
            map.remove("io.modelcontextprotocol/clientInfo");
        }
        if self.has("--capability-true")
            && let Some(capabilities) = map.get_mut("io.modelcontextprotocol/clientCapabilities")
        {
            capabilities["elicitation"] = json!(true);
        }
        meta
    }

    fn message(&mut self, method: &str, params: Value, version: &str) -> (Value, Value) {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.message_with_id(id, method, params, version)
    }

    fn message_with_id(
        &mut self,
        id: Value,
        method: &str,
        params: Value,
        version: &str,
    ) -> (Value, Value) {
        let mut params = match params {
            Value::Object(map) => map,
            _ => serde_json::Map::new(),
        };
        params.insert("_meta".into(), self.meta(version));
        let message = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        (id, message)
    }

    /// Sends a request and returns its answer (`None`: no answer in time).
    async fn call(&mut self, method: &str, params: Value, version: &str) -> Option<Value> {
        let (id, message) = self.message(method, params, version);
        self.exchange(id, message, version).await
    }

    async fn exchange(&mut self, id: Value, message: Value, version: &str) -> Option<Value> {
        let answer = self.send(&message, version).await?;
        match self.link {
            Link::Stdio { .. } => self.answer(&id).await,
            Link::Http { .. } => Some(answer),
        }
    }

    /// Writes `message`; over HTTP returns the answer that came back, over
    /// stdio `Null` (the answer arrives on stdin).
    async fn send(&mut self, message: &Value, version: &str) -> Option<Value> {
        let header_version = if self.has("--header-mismatch") {
            "2025-11-25"
        } else {
            version
        };
        let no_method_header = self.has("--no-method-header");
        let wrong_name_header = self.has("--wrong-name-header");
        let params = self.param_headers(message);
        let no_version_header = self.has("--no-version-header");
        match &mut self.link {
            Link::Stdio { output, .. } => {
                let line = format!("{message}\n");
                output.write_all(line.as_bytes()).await.ok()?;
                output.flush().await.ok()?;
                Some(Value::Null)
            }
            Link::Http { url, http } => {
                let (url, http) = (url.clone(), http.clone());
                let method = message["method"].as_str().unwrap_or_default().to_owned();
                let mut headers: Vec<(String, String)> = Vec::new();
                if !no_version_header {
                    headers.push(("MCP-Protocol-Version".into(), header_version.into()));
                }
                if !no_method_header {
                    headers.push(("Mcp-Method".into(), method.clone()));
                }
                let name = match method.as_str() {
                    "tools/call" | "prompts/get" => message["params"]["name"].as_str(),
                    "resources/read" => message["params"]["uri"].as_str(),
                    _ => None,
                };
                if let Some(name) = name {
                    let name = if wrong_name_header { "other" } else { name };
                    headers.push(("Mcp-Name".into(), name.into()));
                }
                let mut tries = 0;
                let response = loop {
                    tries += 1;
                    if self.has("--auth") {
                        self.renew_if_expired(&url).await;
                    }
                    let token = self.auth.token.clone();
                    let target = match &token {
                        Some(token) if self.has("--broken-token-in-query") => {
                            format!("{url}?access_token={token}")
                        }
                        _ => url.clone(),
                    };
                    let mut request = http
                        .post(target.as_str())
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .body(message.to_string());
                    for (name, value) in &headers {
                        request = request.header(name, value);
                    }
                    for (name, value) in &params {
                        request = request.header(name.clone(), value.clone());
                    }
                    if let Some(token) = token {
                        request = request.bearer_auth(token);
                    }
                    let response = tokio::time::timeout(WAIT, request.send())
                        .await
                        .ok()?
                        .ok()?;
                    if !self.has("--auth") || tries > 3 {
                        break response;
                    }
                    let challenge = response
                        .headers()
                        .get("www-authenticate")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or_default()
                        .to_owned();
                    match response.status().as_u16() {
                        401 => self.authorize(&url, &challenge).await?,
                        403 if challenge.contains("insufficient_scope")
                            && !self.has("--broken-step-up") =>
                        {
                            self.authorize(&url, &challenge).await?
                        }
                        _ => break response,
                    }
                };
                let body = tokio::time::timeout(WAIT, response.text())
                    .await
                    .ok()?
                    .ok()?;
                // The mock answers JSON, or SSE whose last data line is the answer.
                let answer = serde_json::from_str::<Value>(&body).ok().or_else(|| {
                    body.lines()
                        .filter_map(|l| l.strip_prefix("data:"))
                        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
                        .next_back()
                });
                answer.or(Some(Value::Null))
            }
        }
    }

    /// The `Mcp-Param-*` headers of a `tools/call` (SEP-2243): each argument
    /// whose property the listed tool marks `x-mcp-header`, written as text
    /// (Base64-wrapped when it cannot travel as it is); none for a null or
    /// absent argument.
    fn param_headers(
        &self,
        message: &Value,
    ) -> Vec<(reqwest::header::HeaderName, reqwest::header::HeaderValue)> {
        use base64::Engine as _;
        use reqwest::header::{HeaderName, HeaderValue};

        if message["method"] != "tools/call" || self.has("--no-param-headers") {
            return Vec::new();
        }
        let name = &message["params"]["name"];
        let arguments = &message["params"]["arguments"];
        let Some(tool) = self.tools.iter().find(|t| t["name"] == *name) else {
            return Vec::new();
        };
        let Some(properties) = tool["inputSchema"]["properties"].as_object() else {
            return Vec::new();
        };
        let mut headers = Vec::new();
        for (property, schema) in properties {
            let marked = schema["x-mcp-header"].as_str().filter(|h| !h.is_empty());
            let header = match marked {
                Some(suffix) => format!("Mcp-Param-{suffix}"),
                None if self.has("--mirror-unmarked") && arguments.get(property).is_some() => {
                    format!("Mcp-Param-{}", capitalized(property))
                }
                None => continue,
            };
            let text = match arguments.get(property) {
                None | Some(Value::Null) if self.has("--header-for-absent") => "null".to_owned(),
                None | Some(Value::Null) => continue,
                Some(Value::Bool(b)) if self.has("--bool-as-number") => u8::from(*b).to_string(),
                Some(Value::String(text)) => text.clone(),
                Some(Value::Bool(b)) => b.to_string(),
                Some(Value::Number(n)) => n.to_string(),
                Some(_) => continue,
            };
            let value = if needs_base64(&text) && !self.has("--plain-unsafe-values") {
                let encoded = base64::engine::general_purpose::STANDARD.encode(&text);
                HeaderValue::from_str(&format!("=?base64?{encoded}?="))
            } else {
                HeaderValue::from_bytes(text.as_bytes())
            };
            if let (Ok(name), Ok(value)) = (HeaderName::try_from(header), value) {
                headers.push((name, value));
            }
        }
        headers
    }

    /// The next response with `id` on stdin.
    async fn answer(&mut self, id: &Value) -> Option<Value> {
        let Link::Stdio { input, .. } = &mut self.link else {
            return None;
        };
        loop {
            let line = tokio::time::timeout(WAIT, input.next_line())
                .await
                .ok()?
                .ok()??;
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("id") == Some(id) && message.get("method").is_none() {
                return Some(message);
            }
        }
    }

    async fn notify(&mut self, method: &str, params: Value) {
        let message = json!({ "jsonrpc": "2.0", "method": method, "params": params });
        let _ = self.send(&message, VERSION).await;
    }

    async fn run(&mut self) {
        // Version negotiation through server/discover.
        let mut version = if self.has("--start-unsupported") {
            UNSUPPORTED.to_owned()
        } else {
            VERSION.to_owned()
        };
        let answer = self
            .call("server/discover", json!({}), &version.clone())
            .await;
        if answer.as_ref().and_then(|a| a["error"]["code"].as_i64()) == Some(-32022) {
            if self.has("--no-retry") {
                return;
            }
            let supported = answer
                .as_ref()
                .and_then(|a| a["error"]["data"]["supported"].as_array().cloned())
                .unwrap_or_default();
            let Some(pick) = supported
                .iter()
                .filter_map(Value::as_str)
                .find(|v| *v == VERSION)
            else {
                return;
            };
            version = pick.to_owned();
            self.call("server/discover", json!({}), &version.clone())
                .await;
        }
        let list_version = if self.has("--switch-version") {
            "2025-11-25".to_owned()
        } else {
            version.clone()
        };
        let listed = self.call("tools/list", json!({}), &list_version).await;
        self.tools = listed
            .as_ref()
            .and_then(|l| l["result"]["tools"].as_array().cloned())
            .unwrap_or_default();
        // A tool with invalid x-mcp-header annotations is left out (SEP-2243).
        if !self.has("--keep-invalid-header-tools") {
            self.tools.retain(|t| valid_annotations(&t["inputSchema"]));
        }
        if self.has("--fetch-refs") {
            let tools = listed
                .as_ref()
                .and_then(|l| l["result"]["tools"].as_array().cloned())
                .unwrap_or_default();
            for url in tools.iter().flat_map(|t| network_refs(&t["inputSchema"])) {
                let _ = tokio::time::timeout(WAIT, reqwest::get(url.as_str())).await;
            }
        }
        // Wait out the first token, which the protected mock issues for
        // 2 s, so that the next request needs a refreshed one.
        if let Some(expires) = self.auth.expires {
            let now = std::time::Instant::now();
            if expires > now && expires - now < WAIT {
                tokio::time::sleep(expires - now + Duration::from_millis(200)).await;
            }
        }
        let text = if self.has("--bad-arguments") {
            json!(5)
        } else {
            json!("hi")
        };
        self.call(
            "tools/call",
            json!({ "name": "echo", "arguments": { "text": text } }),
            &version,
        )
        .await;

        if matches!(self.link, Link::Stdio { .. }) {
            let (id, message) = self.message(
                "tools/call",
                json!({ "name": "slow", "arguments": {} }),
                &version,
            );
            self.send(&message, &version).await;
            tokio::time::sleep(Duration::from_millis(100)).await;
            if !self.has("--no-cancel") {
                self.notify(
                    "notifications/cancelled",
                    json!({ "requestId": id, "reason": "the client gave up" }),
                )
                .await;
            }
        }

        // The schema of `contact` as this client holds it, passed back.
        if let Some(contact) = self.tools.iter().find(|t| t["name"] == "contact") {
            let mut schema = contact["inputSchema"].clone();
            if let Some(root) = schema.as_object_mut() {
                if self.has("--strip-schema-core") {
                    for keyword in ["$schema", "$defs", "additionalProperties"] {
                        root.remove(keyword);
                    }
                }
                if self.has("--strip-schema-vocabulary") {
                    for keyword in ["allOf", "if", "then", "else"] {
                        root.remove(keyword);
                    }
                    if let Some(defs) = root.get_mut("$defs").and_then(Value::as_object_mut) {
                        for def in defs.values_mut().filter_map(Value::as_object_mut) {
                            def.remove("$anchor");
                        }
                    }
                }
            }
            self.call(
                "tools/call",
                json!({ "name": "schema_echo", "arguments": { "tool": "contact", "schema": schema } }),
                &version,
            )
            .await;
        }

        // Arguments marked x-mcp-header: mirrored in Mcp-Param headers over
        // HTTP, one of them in need of Base64; then only the required one.
        self.call(
            "tools/call",
            json!({ "name": "forecast", "arguments": {
                "region": "eu-west 1",
                "days": 3,
                "metric": false,
                "label": " Zürich",
                "comment": "for the weekend",
            } }),
            &version,
        )
        .await;
        self.call(
            "tools/call",
            json!({ "name": "forecast", "arguments": { "region": "us-east1" } }),
            &version,
        )
        .await;

        // Every `tag_*` tool this client kept, each argument "x" (or {}).
        let tags: Vec<Value> = self
            .tools
            .iter()
            .filter(|t| t["name"].as_str().is_some_and(|n| n.starts_with("tag_")))
            .cloned()
            .collect();
        for tag in tags {
            let arguments: serde_json::Map<String, Value> = tag["inputSchema"]["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(name, schema)| {
                    let value = match schema["type"].as_str() {
                        Some("object") => json!({}),
                        _ => json!("x"),
                    };
                    (name.clone(), value)
                })
                .collect();
            self.call(
                "tools/call",
                json!({ "name": tag["name"], "arguments": arguments }),
                &version,
            )
            .await;
        }

        // The prompt and the resource: Mcp-Name over HTTP.
        self.call("prompts/list", json!({}), &version).await;
        self.call("prompts/get", json!({ "name": "greeting" }), &version)
            .await;
        self.call("resources/list", json!({}), &version).await;
        self.call(
            "resources/read",
            json!({ "uri": "mcptest://mock/note" }),
            &version,
        )
        .await;

        // A result without resultType is complete.
        let untyped = self
            .call(
                "tools/call",
                json!({ "name": "untyped", "arguments": {} }),
                &version,
            )
            .await;
        let kind = untyped.as_ref().map(|u| &u["result"]["resultType"]);
        if kind == Some(&Value::Null) && self.has("--retry-untyped") {
            self.call(
                "tools/call",
                json!({ "name": "untyped", "arguments": {}, "inputResponses": {} }),
                &version,
            )
            .await;
        }

        let ask = self.input_round("ask", &version).await;
        self.input_round("confirm", &version).await;
        if self.has("--leak-input")
            && let Some(responses) = ask
        {
            self.call(
                "tools/call",
                json!({ "name": "echo", "arguments": { "text": "again" }, "inputResponses": responses }),
                &version,
            )
            .await;
        }
    }

    /// Calls `tool`; when it answers `input_required`, retries with an
    /// answer to each input request (and its requestState). Returns the
    /// inputResponses sent.
    async fn input_round(&mut self, tool: &str, version: &str) -> Option<Value> {
        let (id, message) = self.message(
            "tools/call",
            json!({ "name": tool, "arguments": {} }),
            version,
        );
        let asked = self.exchange(id.clone(), message, version).await?;
        let result = &asked["result"];
        let requests = result["inputRequests"].as_object()?;
        let mut params = json!({ "name": tool, "arguments": {} });
        let mut responses = serde_json::Map::new();
        if !self.has("--ignore-input-requests") {
            for key in requests.keys() {
                let answer = match key.as_str() {
                    "roots" => json!({ "roots": [] }),
                    "sampling" => json!({
                        "role": "assistant",
                        "content": { "type": "text", "text": "hi" },
                        "model": "fixture",
                    }),
                    _ => json!({ "action": "accept", "content": { "name": "fixture-client" } }),
                };
                responses.insert(key.clone(), answer);
            }
            params["inputResponses"] = Value::Object(responses.clone());
        }
        match result.get("requestState") {
            Some(state) if self.has("--alter-state") => {
                params["requestState"] = json!(format!("{}-changed", state.as_str()?));
            }
            Some(state) => params["requestState"] = state.clone(),
            None if self.has("--invent-state") => params["requestState"] = json!("made-up"),
            None => {}
        }
        let (retry_id, retry) = if self.has("--reuse-id") {
            self.message_with_id(id, "tools/call", params, version)
        } else {
            self.message("tools/call", params, version)
        };
        self.exchange(retry_id, retry, version).await;
        Some(Value::Object(responses))
    }
}

/// Whether a header value must be Base64-wrapped (SEP-2243): non-ASCII or
/// control characters, or whitespace at either end.
/// `pairs` as `application/x-www-form-urlencoded` text.
fn form(pairs: &[(&str, &str)]) -> String {
    let mut url = reqwest::Url::parse("http://127.0.0.1/").expect("a URL");
    url.query_pairs_mut().extend_pairs(pairs);
    url.query().unwrap_or_default().to_owned()
}

fn origin(url: &str) -> String {
    reqwest::Url::parse(url)
        .map(|u| u.origin().ascii_serialization())
        .unwrap_or_default()
}

impl Client {
    /// An HTTP client that does not follow redirects: the authorization
    /// endpoint's 302 is read, not followed.
    fn oauth_http() -> Option<reqwest::Client> {
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(WAIT)
            .build()
            .ok()
    }

    /// Adds the access token to a request to the authorization server
    /// (`--broken-audience` only).
    fn leak(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match (&self.auth.token, self.has("--broken-audience")) {
            (Some(token), true) => request.bearer_auth(token),
            _ => request,
        }
    }

    /// POSTs `body` to the authorization server; its JSON answer.
    async fn post(
        &self,
        http: &reqwest::Client,
        url: &str,
        content_type: &str,
        body: String,
    ) -> Option<Value> {
        let request = self.leak(http.post(url));
        let answer = request
            .header("Content-Type", content_type)
            .body(body)
            .send()
            .await
            .ok()?;
        answer.json().await.ok()
    }

    async fn get_json(&self, http: &reqwest::Client, url: &str) -> Option<Value> {
        let response = self.leak(http.get(url)).send().await.ok()?;
        response.json().await.ok()
    }

    /// The authorization code flow, from the challenge of a 401 or 403.
    async fn authorize(&mut self, mcp_url: &str, challenge: &str) -> Option<()> {
        let http = Self::oauth_http()?;
        let origin = origin(mcp_url);
        let path = reqwest::Url::parse(mcp_url).ok()?.path().to_owned();
        let (resource, issuer) = if self.has("--broken-resource-metadata") {
            (mcp_url.to_owned(), origin.clone())
        } else {
            let metadata_url =
                mcptest_core::__support::oauth::challenge_param(challenge, "resource_metadata")
                    .unwrap_or_else(|| {
                        format!("{origin}/.well-known/oauth-protected-resource{path}")
                    });
            let metadata = self.get_json(&http, &metadata_url).await?;
            (
                metadata["resource"].as_str()?.to_owned(),
                metadata["authorization_servers"][0].as_str()?.to_owned(),
            )
        };
        let (authorize, token, register) = if self.has("--broken-server-metadata") {
            (
                format!("{issuer}/authorize"),
                format!("{issuer}/token"),
                Some(format!("{issuer}/register")),
            )
        } else {
            let metadata = self
                .get_json(
                    &http,
                    &format!("{issuer}/.well-known/oauth-authorization-server"),
                )
                .await?;
            let field = |name: &str| metadata[name].as_str().map(str::to_owned);
            (
                field("authorization_endpoint")?,
                field("token_endpoint")?,
                field("registration_endpoint"),
            )
        };
        let given = self
            .registration
            .client_id
            .clone()
            .or_else(|| self.registration.document_url.clone());
        if self.auth.client_id.is_none()
            && let Some(given) = given
        {
            if self.has("--broken-registers-anyway") {
                let register = register
                    .clone()
                    .unwrap_or_else(|| format!("{issuer}/register"));
                let body = json!({ "client_name": "fixture-client", "redirect_uris": [REDIRECT] });
                let _ = self
                    .post(&http, &register, "application/json", body.to_string())
                    .await;
            }
            self.auth.client_id = Some(if self.has("--broken-pre-registered-id") {
                "fixture-client-not-pre-registered".to_owned()
            } else {
                given
            });
        }
        if self.auth.client_id.is_none() {
            let register = register?;
            let id = if self.has("--broken-registration") {
                "fixture-client-unregistered".to_owned()
            } else {
                let body = json!({
                    "client_name": "fixture-client",
                    "redirect_uris": [REDIRECT],
                    "grant_types": ["authorization_code", "refresh_token"],
                    "response_types": ["code"],
                    "token_endpoint_auth_method": "none",
                });
                let answer = self
                    .post(&http, &register, "application/json", body.to_string())
                    .await?;
                answer["client_id"].as_str()?.to_owned()
            };
            self.auth.client_id = Some(id);
        }
        let client_id = self.auth.client_id.clone()?;
        let scope = mcptest_core::__support::oauth::challenge_param(challenge, "scope")
            .or_else(|| self.auth.scope.clone())
            .unwrap_or_default();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let verifier = format!("fixture-client-verifier-{nanos:032}-0123456789");
        let (code_challenge, method) = if self.has("--broken-pkce") {
            (verifier.clone(), "plain")
        } else {
            use base64::Engine as _;
            use sha2::Digest as _;
            let hashed = sha2::Sha256::digest(verifier.as_bytes());
            (
                base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(hashed),
                "S256",
            )
        };
        let state = format!("state-{nanos}");
        let redirect = if self.has("--broken-redirect") {
            UNREGISTERED_REDIRECT
        } else {
            REDIRECT
        };
        let mut query = vec![
            ("response_type", "code"),
            ("client_id", client_id.as_str()),
            ("redirect_uri", redirect),
            ("code_challenge", code_challenge.as_str()),
            ("code_challenge_method", method),
        ];
        if !scope.is_empty() {
            query.push(("scope", scope.as_str()));
        }
        if !self.has("--broken-state") {
            query.push(("state", state.as_str()));
        }
        if !self.has("--broken-resource") {
            query.push(("resource", resource.as_str()));
        }
        let url = format!("{authorize}?{}", form(&query));
        let answer = self.leak(http.get(url.as_str())).send().await.ok()?;
        let location = answer.headers().get("location")?.to_str().ok()?;
        let back = reqwest::Url::parse(location).ok()?;
        let field = |name: &str| {
            back.query_pairs()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.into_owned())
        };
        let code = field("code")?;
        if !self.has("--broken-state") && field("state").as_deref() != Some(state.as_str()) {
            return None;
        }
        let mut trade = vec![
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", redirect),
            ("client_id", client_id.as_str()),
            ("code_verifier", verifier.as_str()),
        ];
        if !self.has("--broken-resource") {
            trade.push(("resource", resource.as_str()));
        }
        self.auth.scope = Some(scope.clone());
        self.auth.resource = Some(resource.clone());
        self.auth.token_endpoint = Some(token.clone());
        self.grant(&http, &trade).await
    }

    /// A token request; keeps what it grants.
    async fn grant(&mut self, http: &reqwest::Client, form_pairs: &[(&str, &str)]) -> Option<()> {
        let endpoint = self.auth.token_endpoint.clone()?;
        let mut request = self
            .leak(http.post(&endpoint))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(form(form_pairs));
        // A confidential client authenticates by HTTP Basic (RFC 6749
        // §2.3.1), each part form-encoded before the base64.
        if let (Some(id), Some(secret), false) = (
            &self.auth.client_id,
            &self.registration.client_secret,
            self.has("--broken-client-secret"),
        ) {
            use base64::Engine as _;
            let encode = |part: &str| form(&[("v", part)])[2..].to_owned();
            let credentials = format!("{}:{}", encode(id), encode(secret));
            request = request.header(
                "Authorization",
                format!(
                    "Basic {}",
                    base64::engine::general_purpose::STANDARD.encode(credentials)
                ),
            );
        }
        let answer: Value = request.send().await.ok()?.json().await.ok()?;
        self.auth.token = Some(answer["access_token"].as_str()?.to_owned());
        self.auth.refresh = answer["refresh_token"].as_str().map(str::to_owned);
        self.auth.expires = answer["expires_in"]
            .as_u64()
            .map(|s| std::time::Instant::now() + Duration::from_secs(s));
        Some(())
    }

    /// Renews an expired token: with its refresh token, or (with
    /// `--broken-refresh`) a new authorization.
    async fn renew_if_expired(&mut self, mcp_url: &str) {
        let expired = self
            .auth
            .expires
            .is_some_and(|e| std::time::Instant::now() >= e);
        if !expired {
            return;
        }
        self.auth.expires = None;
        let refresh = self.auth.refresh.clone();
        match refresh {
            Some(refresh) if !self.has("--broken-refresh") => {
                let Some(http) = Self::oauth_http() else {
                    return;
                };
                let client_id = self.auth.client_id.clone().unwrap_or_default();
                let resource = self.auth.resource.clone().unwrap_or_default();
                let mut pairs = vec![
                    ("grant_type", "refresh_token"),
                    ("refresh_token", refresh.as_str()),
                    ("client_id", client_id.as_str()),
                ];
                if !self.has("--broken-resource") {
                    pairs.push(("resource", resource.as_str()));
                }
                let _ = self.grant(&http, &pairs).await;
            }
            _ => {
                let scope = self.auth.scope.clone().unwrap_or_default();
                let _ = self
                    .authorize(mcp_url, &format!("Bearer scope=\"{scope}\""))
                    .await;
            }
        }
    }
}

fn needs_base64(text: &str) -> bool {
    text.chars().any(|c| !(' '..='~').contains(&c))
        || text.starts_with([' ', '\t'])
        || text.ends_with([' ', '\t'])
}

/// Whether every `x-mcp-header` of a schema's properties is a non-empty
/// HTTP token, unique ignoring case, on a string, integer or boolean.
fn valid_annotations(schema: &Value) -> bool {
    let mut seen = Vec::new();
    schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(_, property)| Some((property, property.get("x-mcp-header")?)))
        .all(|(property, header)| {
            let Some(header) = header.as_str() else {
                return false;
            };
            let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
            let fresh = !seen.contains(&header.to_ascii_lowercase());
            seen.push(header.to_ascii_lowercase());
            !header.is_empty()
                && header.chars().all(token)
                && fresh
                && matches!(
                    property["type"].as_str(),
                    Some("string" | "integer" | "boolean")
                )
        })
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// The `$ref`s in `schema` that point outside the document.
fn network_refs(schema: &Value) -> Vec<String> {
    match schema {
        Value::Object(map) => map
            .iter()
            .flat_map(|(key, value)| match (key.as_str(), value.as_str()) {
                ("$ref", Some(url)) if url.starts_with("http") => vec![url.to_owned()],
                _ => network_refs(value),
            })
            .collect(),
        Value::Array(items) => items.iter().flat_map(network_refs).collect(),
        _ => Vec::new(),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let mut url = None;
    let mut flags = Vec::new();
    let mut registration = Registration::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let slot = match arg.as_str() {
            "--url" => Some(&mut url),
            "--client-id" => Some(&mut registration.client_id),
            "--client-secret" => Some(&mut registration.client_secret),
            _ => None,
        };
        match slot {
            Some(slot) => match args.next() {
                Some(value) => *slot = Some(value),
                None => return usage(&format!("{arg} needs a value")),
            },
            None if FLAGS.iter().any(|(f, _)| *f == arg) => flags.push(arg),
            None => return usage(&format!("unknown argument {arg:?}")),
        }
    }
    if registration.client_secret.is_some() && registration.client_id.is_none() {
        return usage("--client-secret needs --client-id");
    }
    // The server that serves the metadata document lives as long as the
    // process.
    if flags.iter().any(|f| f == "--metadata-document") {
        match serve_document(&flags).await {
            Ok(document_url) => registration.document_url = Some(document_url),
            Err(e) => {
                eprintln!("fixture-client: cannot serve the metadata document: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let link = match url {
        Some(url) => Link::Http {
            url,
            http: reqwest::Client::new(),
        },
        None => Link::Stdio {
            input: BufReader::new(tokio::io::stdin()).lines(),
            output: tokio::io::stdout(),
        },
    };
    let mut client = Client {
        flags,
        next_id: 0,
        link,
        tools: Vec::new(),
        auth: Auth::default(),
        registration,
    };
    client.run().await;
    ExitCode::SUCCESS
}

/// Prints what went wrong and the usage; exit status 2.
fn usage(problem: &str) -> ExitCode {
    let width = FLAGS
        .iter()
        .chain(VALUED)
        .map(|(f, _)| f.len())
        .max()
        .unwrap_or(0);
    let known: Vec<String> = VALUED
        .iter()
        .map(|(f, what)| format!("  {f:<width$} {what} (takes a value)"))
        .chain(
            FLAGS
                .iter()
                .map(|(f, what)| format!("  {f:<width$} {what}")),
        )
        .collect();
    eprintln!(
        "fixture-client: {problem}\nusage: fixture-client [--url URL] [FLAG...]\n{}",
        known.join("\n")
    );
    ExitCode::from(2)
}

/// Serves this client's Client ID Metadata Document on 127.0.0.1 (every
/// request gets it) and returns its URL, the client's `client_id`.
async fn serve_document(flags: &[String]) -> std::io::Result<String> {
    let listener = tokio::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0)).await?;
    let url = format!("http://{}{DOCUMENT_PATH}", listener.local_addr()?);
    let has = |flag: &str| flags.iter().any(|f| f == flag);
    let document = json!({
        "client_id": if has("--broken-document-id") {
            format!("{url}-other")
        } else {
            url.clone()
        },
        "client_name": "fixture-client",
        "redirect_uris": [if has("--broken-document-redirect") { UNREGISTERED_REDIRECT } else { REDIRECT }],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    })
    .to_string();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let document = document.clone();
            tokio::spawn(async move {
                // Read the request head (bounded in size and time), then
                // answer with the document whatever was asked.
                let mut head = Vec::new();
                let mut buffer = [0u8; 1024];
                let _ = tokio::time::timeout(WAIT, async {
                    while head.len() < 16 * 1024 && !head.windows(4).any(|w| w == b"\r\n\r\n") {
                        match tokio::io::AsyncReadExt::read(&mut stream, &mut buffer).await {
                            Ok(0) | Err(_) => break,
                            Ok(n) => head.extend_from_slice(&buffer[..n]),
                        }
                    }
                })
                .await;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{document}",
                    document.len()
                );
                let _ = stream.write_all(answer.as_bytes()).await;
                let _ = stream.shutdown().await;
            });
        }
    });
    Ok(url)
}
