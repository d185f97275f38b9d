//! The fixture's tools, one per behaviour an MCP client harness must cope with.

use std::{
    io::Write as _,
    path::{Component, Path, PathBuf},
    time::{Duration, Instant},
};

use rmcp::{
    ErrorData, Json, RoleServer, ServiceError,
    handler::server::{tool::schema_for_output, wrapper::Parameters},
    model::{
        CallToolResult, ClientResult, ContentBlock, CreateMessageRequestParams, ElicitRequest,
        ElicitRequestParams, ElicitationSchema, ErrorCode, LoggingLevel,
        LoggingMessageNotificationParam, ProgressNotificationParam, Resource,
        ResourceUpdatedNotificationParam, SamplingMessage, ServerRequest,
    },
    service::RequestContext,
    tool, tool_router,
};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{
    BONUS_TOOL, Everything, content,
    resources::{STATIC_TEXT_NAME, STATIC_TEXT_URI, static_text_contents},
    severity,
};

/// The order `tools/list` presents tools in: the order they are documented in, which
/// groups related tools, rather than the router's alphabetical order.
pub(super) const TOOL_ORDER: &[&str] = &[
    "echo",
    "add",
    "image",
    "audio",
    "embedded_resource",
    "resource_link",
    "weather",
    "weather_bad",
    "fail",
    "rpc_error",
    "progress",
    "log",
    "sample",
    "roots",
    "elicit",
    "toggle_tool",
    BONUS_TOOL,
    "slow",
    "update_resource",
    "write_file",
    "read_file",
    "stderr",
    "env",
    "cwd",
    "whoami",
];

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

fn tool_error(text: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// The message a test can match on: for a JSON-RPC error from the client that is the
/// client's own message, not rmcp's "Mcp error: ..." wrapping of it.
fn peer_error_text(error: ServiceError) -> String {
    match error {
        ServiceError::McpError(error) => error.message.into_owned(),
        other => other.to_string(),
    }
}

/// Notifications only fail when the connection is gone; the request's own response
/// will fail the same way, so report it as an internal error rather than hide it.
fn notify_failed(error: ServiceError) -> ErrorData {
    ErrorData::internal_error(format!("failed to send notification: {error}"), None)
}

/// `2 + 3` prints as `5`, not `5.0`; Rust's float `Display` already does that, but
/// prints `-0` for negative zero, which no test would expect from an adder.
fn format_number(x: f64) -> String {
    if x == 0.0 { "0".into() } else { x.to_string() }
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct EchoArgs {
    /// Text to send back.
    message: String,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct AddArgs {
    /// First addend.
    a: f64,
    /// Second addend.
    b: f64,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct CityArgs {
    /// City to report on.
    city: String,
}

/// What `weather` returns; its schema is the outputSchema of both weather tools.
#[derive(Debug, Serialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct WeatherReport {
    city: String,
    temperature: f64,
    conditions: String,
}

fn default_steps() -> u32 {
    3
}

fn default_delay_ms() -> u64 {
    10
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct ProgressArgs {
    /// Number of progress notifications to send.
    #[serde(default = "default_steps")]
    steps: u32,
    /// Pause before each notification, in milliseconds.
    #[serde(default = "default_delay_ms")]
    delay_ms: u64,
}

fn default_level() -> String {
    "info".into()
}

fn default_count() -> u32 {
    1
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct LogArgs {
    /// Syslog severity: debug, info, notice, warning, error, critical, alert or emergency.
    #[serde(default = "default_level")]
    level: String,
    /// Sent as the notification's `data`.
    message: String,
    /// How many identical notifications to send.
    #[serde(default = "default_count")]
    count: u32,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct SampleArgs {
    /// Sent to the client's model as the only user message.
    prompt: String,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct ElicitArgs {
    /// Shown to the user with the form.
    message: String,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct SlowArgs {
    /// How long to sleep, in milliseconds.
    ms: u64,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct UriArgs {
    /// Resource URI to announce as updated.
    uri: String,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct WriteFileArgs {
    /// Relative path below the server's root.
    path: String,
    /// Text to write (replaces the file).
    content: String,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct PathArgs {
    /// Relative path below the server's root.
    path: String,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct NameArgs {
    /// Name of the environment variable.
    name: String,
}

impl Everything {
    /// Joins `path` onto the root, refusing anything that could leave it: tests point
    /// the root at a throwaway fixture directory and must not be able to write outside.
    fn resolve(&self, path: &str) -> Result<PathBuf, String> {
        let relative = Path::new(path);
        let stays_inside = !path.is_empty()
            && relative
                .components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        if stays_inside {
            Ok(self.root().join(relative))
        } else {
            Err(format!(
                "path must be relative and stay inside the root: {path}"
            ))
        }
    }
}

#[tool_router(vis = "pub(super)")]
impl Everything {
    #[tool(description = "Returns the message unchanged.")]
    fn echo(&self, Parameters(args): Parameters<EchoArgs>) -> CallToolResult {
        text(args.message)
    }

    #[tool(description = "Adds two numbers and returns the sum as text.")]
    fn add(&self, Parameters(args): Parameters<AddArgs>) -> CallToolResult {
        text(format_number(args.a + args.b))
    }

    #[tool(description = "Returns a 1x1 PNG image.")]
    fn image(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::image(content::PNG_BASE64, "image/png")])
    }

    #[tool(description = "Returns a short silent WAV clip.")]
    fn audio(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::audio(
            content::wav_base64(),
            "audio/wav",
        )])
    }

    #[tool(description = "Returns fixture://static/text as an embedded resource.")]
    fn embedded_resource(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::resource(static_text_contents())])
    }

    #[tool(description = "Returns a link to fixture://static/text.")]
    fn resource_link(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::resource_link(
            Resource::new(STATIC_TEXT_URI, STATIC_TEXT_NAME).with_mime_type("text/plain"),
        )])
    }

    #[tool(description = "Reports the weather as structured content matching its outputSchema.")]
    fn weather(&self, Parameters(args): Parameters<CityArgs>) -> Json<WeatherReport> {
        Json(WeatherReport {
            city: args.city,
            temperature: 21.5,
            conditions: "sunny".into(),
        })
    }

    #[tool(
        description = "Declares the weather outputSchema but returns content that violates it.",
        output_schema = schema_for_output::<WeatherReport>()
    )]
    fn weather_bad(&self, Parameters(args): Parameters<CityArgs>) -> CallToolResult {
        CallToolResult::structured(json!({ "city": args.city, "temperature": "warm" }))
    }

    #[tool(description = "Always returns a tool error (isError: true).")]
    fn fail(&self) -> CallToolResult {
        tool_error("the tool failed on purpose")
    }

    #[tool(description = "Always answers with a JSON-RPC error instead of a result.")]
    fn rpc_error(&self) -> Result<CallToolResult, ErrorData> {
        Err(ErrorData::new(
            ErrorCode::INTERNAL_ERROR,
            "rpc_error always fails",
            Some(json!({ "reason": "on purpose" })),
        ))
    }

    #[tool(description = "Sends progress notifications for the request's progressToken.")]
    async fn progress(
        &self,
        Parameters(args): Parameters<ProgressArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let steps = args.steps;
        let Some(token) = context.meta.get_progress_token() else {
            return Ok(text(format!("done after {steps} steps")));
        };
        for step in 1..=steps {
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(args.delay_ms)) => {}
                () = context.ct.cancelled() => {
                    return Ok(tool_error(format!("cancelled before step {step} of {steps}")));
                }
            }
            let notification = ProgressNotificationParam::new(token.clone(), f64::from(step))
                .with_total(f64::from(steps))
                .with_message(format!("step {step} of {steps}"));
            context
                .peer
                .notify_progress(notification)
                .await
                .map_err(notify_failed)?;
        }
        Ok(text(format!("done after {steps} steps")))
    }

    #[tool(description = "Sends log notifications at a level, honouring logging/setLevel.")]
    async fn log(
        &self,
        Parameters(args): Parameters<LogArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let Ok(level) = serde_json::from_value::<LoggingLevel>(json!(args.level)) else {
            return Ok(tool_error(format!("unknown log level: {}", args.level)));
        };
        if severity(level) >= severity(self.log_level()) {
            for _ in 0..args.count {
                let message = LoggingMessageNotificationParam::new(level, json!(args.message))
                    .with_logger("fixture");
                context
                    .peer
                    .notify_logging_message(message)
                    .await
                    .map_err(notify_failed)?;
            }
        }
        Ok(text("logged"))
    }

    #[tool(description = "Asks the client's model (sampling/createMessage) and returns its reply.")]
    async fn sample(
        &self,
        Parameters(args): Parameters<SampleArgs>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let request =
            CreateMessageRequestParams::new(vec![SamplingMessage::user_text(args.prompt)], 100);
        match context.peer.create_message(request).await {
            Ok(reply) => {
                let texts: Vec<&str> = reply
                    .message
                    .content
                    .iter()
                    .filter_map(|block| block.as_text())
                    .map(|block| block.text.as_str())
                    .collect();
                if texts.is_empty() {
                    tool_error("the sampling reply had no text content")
                } else {
                    text(texts.concat())
                }
            }
            Err(error) => tool_error(peer_error_text(error)),
        }
    }

    #[tool(description = "Asks the client for its roots and returns their URIs as a JSON array.")]
    async fn roots(&self, context: RequestContext<RoleServer>) -> CallToolResult {
        match context.peer.list_roots().await {
            Ok(reply) => {
                let uris: Vec<&str> = reply.roots.iter().map(|root| root.uri.as_str()).collect();
                text(json!(uris).to_string())
            }
            Err(error) => tool_error(peer_error_text(error)),
        }
    }

    #[tool(description = "Asks the user for a name through an elicitation form.")]
    async fn elicit(
        &self,
        Parameters(args): Parameters<ElicitArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let requested_schema = ElicitationSchema::builder()
            .required_string("name")
            .build()
            .map_err(|e| ErrorData::internal_error(e, None))?;
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: args.message,
            requested_schema,
        };
        // `Peer::create_elicitation` needs rmcp's `elicitation` feature (it pulls in a
        // URL parser for URL mode); a form request needs nothing but the raw request.
        let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
        Ok(match context.peer.send_request(request).await {
            Ok(ClientResult::ElicitResult(reply)) => {
                let action = serde_json::to_value(&reply.action)
                    .ok()
                    .and_then(|value| value.as_str().map(str::to_owned))
                    .unwrap_or_default();
                let content = reply.content.unwrap_or(serde_json::Value::Null);
                text(format!("action={action} content={content}"))
            }
            Ok(_) => tool_error("the client answered elicitation/create with another result"),
            Err(error) => tool_error(peer_error_text(error)),
        })
    }

    #[tool(description = "Adds or removes the `bonus` tool and announces tools/list_changed.")]
    async fn toggle_tool(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let on = self.toggle_bonus();
        context
            .peer
            .notify_tool_list_changed()
            .await
            .map_err(notify_failed)?;
        Ok(text(if on { "bonus on" } else { "bonus off" }))
    }

    #[tool(
        name = "bonus",
        description = "Exists only while toggled on by toggle_tool."
    )]
    fn bonus(&self) -> CallToolResult {
        debug_assert!(self.bonus_enabled(), "{BONUS_TOOL} called while hidden");
        text("bonus!")
    }

    #[tool(description = "Sleeps for `ms` milliseconds, stopping early if cancelled.")]
    async fn slow(
        &self,
        Parameters(args): Parameters<SlowArgs>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let started = Instant::now();
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(args.ms)) => {
                text(format!("slept {} ms", args.ms))
            }
            () = context.ct.cancelled() => {
                tool_error(format!("cancelled after {} ms", started.elapsed().as_millis()))
            }
        }
    }

    #[tool(description = "Sends notifications/resources/updated for `uri` if it is subscribed.")]
    async fn update_resource(
        &self,
        Parameters(args): Parameters<UriArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        if !self.is_subscribed(&args.uri) {
            return Ok(text("not subscribed"));
        }
        context
            .peer
            .notify_resource_updated(ResourceUpdatedNotificationParam::new(args.uri))
            .await
            .map_err(notify_failed)?;
        Ok(text("notified"))
    }

    #[tool(
        description = "Writes a text file below the server's root, creating directories.",
        annotations(destructive_hint = true, read_only_hint = false)
    )]
    async fn write_file(&self, Parameters(args): Parameters<WriteFileArgs>) -> CallToolResult {
        let target = match self.resolve(&args.path) {
            Ok(target) => target,
            Err(message) => return tool_error(message),
        };
        if let Some(parent) = target.parent()
            && let Err(error) = tokio::fs::create_dir_all(parent).await
        {
            return tool_error(format!("cannot create {}: {error}", parent.display()));
        }
        match tokio::fs::write(&target, args.content.as_bytes()).await {
            Ok(()) => text(format!("wrote {} bytes", args.content.len())),
            Err(error) => tool_error(format!("cannot write {}: {error}", args.path)),
        }
    }

    #[tool(
        description = "Reads a text file below the server's root.",
        annotations(read_only_hint = true)
    )]
    async fn read_file(&self, Parameters(args): Parameters<PathArgs>) -> CallToolResult {
        let target = match self.resolve(&args.path) {
            Ok(target) => target,
            Err(message) => return tool_error(message),
        };
        match tokio::fs::read_to_string(&target).await {
            Ok(contents) => text(contents),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                tool_error(format!("no such file: {}", args.path))
            }
            Err(error) => tool_error(format!("cannot read {}: {error}", args.path)),
        }
    }

    #[tool(description = "Writes a line to the server's stderr.")]
    fn stderr(&self, Parameters(args): Parameters<EchoArgs>) -> CallToolResult {
        let mut stderr = std::io::stderr().lock();
        match writeln!(stderr, "{}", args.message).and_then(|()| stderr.flush()) {
            Ok(()) => text("ok"),
            Err(error) => tool_error(format!("cannot write to stderr: {error}")),
        }
    }

    #[tool(description = "Returns the value of an environment variable.")]
    fn env(&self, Parameters(args): Parameters<NameArgs>) -> CallToolResult {
        match std::env::var_os(&args.name) {
            Some(value) => text(value.to_string_lossy()),
            None => tool_error("unset"),
        }
    }

    #[tool(description = "Returns the server's current working directory.")]
    fn cwd(&self) -> CallToolResult {
        match std::env::current_dir() {
            Ok(dir) => text(dir.display().to_string()),
            Err(error) => tool_error(format!("cannot read the current directory: {error}")),
        }
    }

    #[tool(
        description = "Returns what the server knows of the client: clientInfo, protocol \
                       version, capabilities, and for HTTP the request headers."
    )]
    fn whoami(&self, context: RequestContext<RoleServer>) -> CallToolResult {
        let headers = context
            .extensions
            .get::<axum::http::request::Parts>()
            .map(|parts| {
                parts
                    .headers
                    .iter()
                    .map(|(name, value)| {
                        let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                        (name.as_str().to_owned(), json!(value))
                    })
                    .collect::<serde_json::Map<_, _>>()
            });
        text(
            json!({
                "clientInfo": context.client_info(),
                "protocolVersion": context.protocol_version(),
                "capabilities": context.client_capabilities(),
                "httpHeaders": headers,
            })
            .to_string(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_print_like_a_person_would_write_them() {
        assert_eq!(format_number(2.0 + 3.0), "5");
        assert_eq!(format_number(0.5 + 2.0), "2.5");
        assert_eq!(format_number(-1.0 + 1.0), "0");
        assert_eq!(format_number(-0.0), "0");
    }

    #[test]
    fn paths_cannot_escape_the_root() {
        let server = Everything::new(super::super::EverythingConfig {
            root: Some(PathBuf::from("/fixture")),
            page_size: 5,
        });
        assert_eq!(
            server.resolve("a/./b.txt").unwrap(),
            PathBuf::from("/fixture/a/./b.txt")
        );
        for bad in ["", "/etc/passwd", "../x", "a/../../x"] {
            assert!(server.resolve(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_listing_order_names_every_tool_once() {
        let mut listed: Vec<&str> = TOOL_ORDER.to_vec();
        listed.sort_unstable();
        let routed = Everything::tool_router().list_all();
        let routed: Vec<&str> = routed.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(listed, routed, "the router lists alphabetically");
    }

    #[test]
    fn every_tool_has_a_description_and_an_object_schema() {
        let tools = Everything::tool_router().list_all();
        assert_eq!(tools.len(), 25);
        for tool in tools {
            assert!(tool.description.is_some(), "{}", tool.name);
            assert_eq!(tool.input_schema.get("type"), Some(&json!("object")));
        }
    }
}
