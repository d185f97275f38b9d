//! `fixture-stateless`: a server that conforms to both protocol revisions the
//! conformance checks cover — 2025-11-25 (`initialize`) and 2026-07-28
//! (stateless, SEP-2575) — and `fixture-broken`, the same server with flags
//! that each break one rule ([`Breakage`]).
//!
//! rmcp serves both revisions; what it leaves to the server is done here:
//! rejecting `initialize` and `logging/setLevel` on a stateless request,
//! tool argument errors as `isError` results, -32021 for a tool that needs a
//! client capability the request does not declare, logging only when the
//! request's `_meta` asks for a level, pagination with cursors checked.
//! Over stdio a line pump in front of rmcp answers lines that are not JSON
//! with -32700 (rmcp drops them); the pump, and an HTTP middleware, are also
//! where [`Breakage`]s bend messages.

// Logging is deprecated by SEP-2577 in rmcp, but it is part of the revisions
// this fixture serves.
#![allow(deprecated)]

mod adaptive;
mod breakage;
mod features;
mod listen;
mod mrtr;
mod serve;
mod skills;
mod tasks;
mod transport_breakage;

use std::sync::{Arc, Mutex};

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams,
        CompleteResult, ContentBlock, GetPromptRequestParams, GetPromptResponse, Implementation,
        InitializeRequestParams, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
        ListResourcesResult, ListToolsResult, LoggingLevel, LoggingMessageNotificationParam,
        PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
        ServerCapabilities, ServerConfig, SetLevelRequestMethod, SetLevelRequestParams, Tool,
    },
    service::RequestContext,
};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

pub use adaptive::{MEDIA_TOOL, PROGRESS_TOOL};
pub use breakage::{BREAKAGES, Breakage, Breakages, Conn, Inbound, status_for};
pub use listen::LIST_CHANGE_TOOL;
pub use serve::{main_with, serve_http, serve_stdio};
pub use skills::SKILL_URI;
pub use tasks::{FAILING_TASK_TOOL, INPUT_TASK_TOOL, REQUIRED_TASK_TOOL, TASK_TOOL};

/// Server name in `initialize` and `server/discover`.
pub const SERVER_NAME: &str = "fixture-stateless";
/// Items per page of every list.
pub const PAGE_SIZE: usize = 2;
/// The tool that needs the elicitation client capability.
pub const CAPABILITY_TOOL: &str = "confirm";
/// The tool that logs.
pub const LOG_TOOL: &str = "log";
/// The tool with an `x-mcp-header` argument (SEP-2243 custom headers).
pub const ROUTED_TOOL: &str = "route";

/// The fixture's MCP behaviour; a fresh value per connection.
#[derive(Clone, Default)]
pub struct Stateless {
    breakages: Arc<Breakages>,
    /// The classic log level (`logging/setLevel`); `None` until set.
    log_level: Arc<Mutex<Option<LoggingLevel>>>,
}

/// rmcp types built from their JSON form: shorter than their builders, and
/// the JSON is what the checks see.
fn typed<T: DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).expect("fixture JSON matches the rmcp model")
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

fn tool_error(text: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// Whether the request names a stateless (2026-07-28 or later) version in
/// its own `_meta`.
fn is_stateless(context: &RequestContext<RoleServer>) -> bool {
    context
        .meta
        .protocol_version()
        .is_some_and(|v| !v.has_initialize())
}

impl Stateless {
    /// The server with these breakages (none: the conforming server).
    pub fn new(breakages: Arc<Breakages>) -> Self {
        Stateless {
            breakages,
            log_level: Arc::default(),
        }
    }

    fn broken(&self, breakage: Breakage) -> bool {
        self.breakages.has(breakage)
    }

    fn tools() -> Vec<Tool> {
        let object = |properties: Value, required: &[&str]| json!({ "type": "object", "properties": properties, "required": required });
        let tool = |name: &str, description: &str, schema: Value| -> Tool {
            typed(json!({ "name": name, "description": description, "inputSchema": schema }))
        };
        let mut tools = vec![
            tool(
                "echo",
                "Returns `message`.",
                object(json!({ "message": { "type": "string" } }), &["message"]),
            ),
            tool(
                "add",
                "Adds `a` and `b`.",
                object(
                    json!({ "a": { "type": "number" }, "b": { "type": "number" } }),
                    &["a", "b"],
                ),
            ),
            tool("fail", "Always reports failure.", object(json!({}), &[])),
            tool(
                LOG_TOOL,
                "Sends `message` as a log notification at info level, when the client asked \
                 for logs (2026-07-28: io.modelcontextprotocol/logLevel in _meta).",
                object(json!({ "message": { "type": "string" } }), &[]),
            ),
            tool(
                adaptive::MEDIA_TOOL,
                "Returns an image, an audio clip and an embedded resource.",
                object(json!({}), &[]),
            ),
            tool(
                adaptive::PROGRESS_TOOL,
                "Reports progress (notifications/progress) twice before it answers.",
                object(json!({}), &[]),
            ),
            tool(
                listen::LIST_CHANGE_TOOL,
                "Announces a change of the tool list: notifications/tools/list_changed on \
                 every subscriptions/listen stream that asked for tool list changes.",
                object(json!({}), &[]),
            ),
            tool(
                listen::PROMPTS_CHANGE_TOOL,
                "Announces a change of the prompt list: notifications/prompts/list_changed on \
                 every subscriptions/listen stream that asked for prompt list changes.",
                object(json!({}), &[]),
            ),
            tool(
                listen::RESOURCE_UPDATE_TOOL,
                "Updates every resource: notifications/resources/updated on every \
                 subscriptions/listen stream subscribed to its URI.",
                object(json!({}), &[]),
            ),
            tool(
                CAPABILITY_TOOL,
                "Asks the user to confirm; needs the elicitation client capability.",
                object(json!({}), &[]),
            ),
            tool(
                ROUTED_TOOL,
                "Returns `region`, which HTTP clients also send as the Mcp-Param-Region \
                 header (SEP-2243).",
                object(
                    json!({ "region": { "type": "string", "x-mcp-header": "Region" } }),
                    &["region"],
                ),
            ),
        ];
        tools.extend(tasks::tools());
        tools
    }

    fn prompts() -> Vec<Value> {
        vec![
            json!({ "name": "greet", "description": "Greets `name`.",
                    "arguments": [{ "name": "name", "required": true }] }),
            json!({ "name": "plain", "description": "A prompt without arguments." }),
            json!({ "name": "farewell", "description": "Says goodbye.",
                    "arguments": [{ "name": "name", "required": false }] }),
            json!({ "name": mrtr::CONFIRM_PROMPT,
                    "description": "Asks the user to confirm (elicitation), then greets." }),
        ]
    }

    fn resources() -> Vec<Value> {
        vec![
            json!({ "uri": "fixture://hello", "name": "hello", "mimeType": "text/plain" }),
            json!({ "uri": "fixture://world", "name": "world", "mimeType": "text/plain" }),
            json!({ "uri": "fixture://third", "name": "third", "mimeType": "text/plain" }),
            json!({ "uri": mrtr::CONFIRM_RESOURCE, "name": "confirmed", "mimeType": "text/plain",
                    "description": "Asks the user to confirm (elicitation) before it is read." }),
        ]
    }

    /// One page of `items` and the cursor of the next. A cursor the server
    /// never issued is invalid params.
    fn page<T>(
        &self,
        items: Vec<T>,
        request: Option<PaginatedRequestParams>,
    ) -> Result<(Vec<T>, Option<String>), ErrorData> {
        let len = items.len();
        let start = match request.and_then(|r| r.cursor) {
            None => 0,
            Some(cursor) => match cursor.parse::<usize>() {
                Ok(offset) if offset < len && offset % PAGE_SIZE == 0 => offset,
                _ if self.broken(Breakage::AcceptInvalidCursor) => 0,
                _ => {
                    return Err(ErrorData::invalid_params(
                        format!("invalid cursor {cursor:?}"),
                        None,
                    ));
                }
            },
        };
        let end = (start + PAGE_SIZE).min(len);
        let next = if end < len {
            Some(end.to_string())
        } else if self.broken(Breakage::CursorLoops) {
            Some("0".to_owned())
        } else {
            None
        };
        Ok((
            items.into_iter().skip(start).take(end - start).collect(),
            next,
        ))
    }

    async fn log(&self, message: &str, context: &RequestContext<RoleServer>) {
        let wanted = if is_stateless(context) {
            context.meta.log_level()
        } else {
            *self.log_level.lock().unwrap_or_else(|p| p.into_inner())
        };
        let level = match wanted {
            Some(_) if self.broken(Breakage::LogIgnoresLevel) => None,
            Some(level) => Some(level),
            None if self.broken(Breakage::LogWithoutLevel) => Some(LoggingLevel::Info),
            None => None,
        };
        // Info is sent unless the client asked for warning or above.
        let sends = level.is_some_and(|l| matches!(l, LoggingLevel::Debug | LoggingLevel::Info));
        if sends {
            let _ = context
                .peer
                .notify_logging_message(LoggingMessageNotificationParam::new(
                    LoggingLevel::Info,
                    json!(message),
                ))
                .await;
        }
    }
}

impl ServerHandler for Stateless {
    // rmcp checks a tool's `Mcp-Param-*` headers against the schema found here.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        Self::tools().into_iter().find(|tool| tool.name == name)
    }

    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_prompts()
            .enable_prompts_list_changed()
            .enable_resources()
            .enable_logging()
            .enable_completions()
            .enable_tasks()
            .enable_skills()
            .build();
        // Resources are subscribed to on a 2026-07-28 listen stream
        // (resourceSubscriptions); `initialize` takes this back, since the
        // classic resources/subscribe is not served.
        if let Some(resources) = capabilities.resources.as_mut() {
            resources.subscribe = Some(true);
        }
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
    }

    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
        std::borrow::Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS)
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        // 2026-07-28 has no initialize: a request that says it speaks that
        // revision is calling a method that does not exist.
        if is_stateless(&context) {
            return Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                "initialize does not exist in 2026-07-28",
                None,
            ));
        }
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        if let Some(resources) = result.capabilities.resources.as_mut() {
            resources.subscribe = None;
        }
        Ok(result)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &rmcp::model::SubscriptionFilter,
    ) -> Option<rmcp::model::SubscriptionFilter> {
        Some(listen::accepted(requested, |uri| {
            Self::resources().iter().any(|r| r["uri"] == uri)
        }))
    }

    async fn listen(&self, context: rmcp::service::SubscriptionContext) -> Result<(), ErrorData> {
        listen::listen(&self.breakages, context).await
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if is_stateless(&context) {
            return Err(ErrorData::method_not_found::<SetLevelRequestMethod>());
        }
        *self.log_level.lock().unwrap_or_else(|p| p.into_inner()) = Some(request.level);
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        features::complete(&request)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let (tools, next) = self.page(Self::tools(), request)?;
        let mut result = ListToolsResult::with_all_items(tools);
        result.next_cursor = next;
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.clone().unwrap_or_default();
        let argument_error = |message: String| -> Result<CallToolResponse, ErrorData> {
            if self.broken(Breakage::ArgumentErrorsAsRpcErrors) {
                Err(ErrorData::invalid_params(message, None))
            } else {
                Ok(tool_error(message).into())
            }
        };
        match request.name.as_ref() {
            "echo" => match arguments.get("message").and_then(Value::as_str) {
                Some(message) => Ok(text(message).into()),
                None => argument_error("echo needs a string `message`".into()),
            },
            ROUTED_TOOL => match arguments.get("region").and_then(Value::as_str) {
                Some(region) => Ok(text(region).into()),
                None => argument_error("route needs a string `region`".into()),
            },
            "add" => {
                let number = |key: &str| arguments.get(key).and_then(Value::as_f64);
                match (number("a"), number("b")) {
                    (Some(a), Some(b)) => Ok(text((a + b).to_string()).into()),
                    _ => argument_error("add needs numbers `a` and `b`".into()),
                }
            }
            "fail" => Ok(tool_error("the tool failed on purpose").into()),
            LOG_TOOL => {
                let message = arguments
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("a log message");
                self.log(message, &context).await;
                Ok(text("logged").into())
            }
            adaptive::MEDIA_TOOL => Ok(adaptive::media(&self.breakages)),
            adaptive::PROGRESS_TOOL => adaptive::slow(&self.breakages, &context).await,
            listen::LIST_CHANGE_TOOL => {
                let sent = listen::announce_tool_change(&self.breakages).await;
                Ok(text(format!("announced on {sent} listen streams")).into())
            }
            listen::PROMPTS_CHANGE_TOOL => {
                let sent = listen::announce_prompt_change(&self.breakages).await;
                Ok(text(format!("announced on {sent} listen streams")).into())
            }
            listen::RESOURCE_UPDATE_TOOL => {
                let sent = listen::announce_resource_update(&self.breakages).await;
                Ok(text(format!("announced {sent} updates")).into())
            }
            CAPABILITY_TOOL => mrtr::confirm(&self.breakages, &request, &context),
            tasks::TASK_TOOL => tasks::call(&self.breakages, false, tasks::Work::Done, &context),
            tasks::REQUIRED_TASK_TOOL => {
                tasks::call(&self.breakages, true, tasks::Work::Done, &context)
            }
            tasks::INPUT_TASK_TOOL => {
                tasks::call(&self.breakages, true, tasks::Work::Approval, &context)
            }
            tasks::FAILING_TASK_TOOL => {
                tasks::call(&self.breakages, true, tasks::Work::ToolError, &context)
            }
            other => Err(ErrorData::invalid_params(
                format!("unknown tool {other:?}"),
                None,
            )),
        }
    }

    async fn get_task(
        &self,
        request: rmcp::model::GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetTaskResult, ErrorData> {
        tasks::get(&self.breakages, &request)
    }

    async fn update_task(
        &self,
        request: rmcp::model::UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        tasks::update(&request)
    }

    async fn cancel_task(
        &self,
        request: rmcp::model::CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        tasks::cancel(&request)
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListSkillsResult, ErrorData> {
        skills::list(&self.breakages)
    }

    async fn get_skill(
        &self,
        request: rmcp::model::GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetSkillResult, ErrorData> {
        skills::get(&self.breakages, &request.uri)
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let (prompts, next) = self.page(Self::prompts(), request)?;
        let mut result =
            ListPromptsResult::with_all_items(prompts.into_iter().map(typed).collect());
        result.next_cursor = next;
        Ok(result)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name == mrtr::CONFIRM_PROMPT {
            return mrtr::confirm_prompt(&self.breakages, &request, &context);
        }
        let name = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("name"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let message = |text: String| -> Result<GetPromptResponse, ErrorData> {
            Ok(GetPromptResponse::Complete(typed(json!({
                "resultType": "complete",
                "messages": [{ "role": "user", "content": { "type": "text", "text": text } }],
            }))))
        };
        match request.name.as_str() {
            "greet" => match name {
                Some(name) => message(format!("Hello, {name}!")),
                None => Err(ErrorData::invalid_params(
                    "prompt greet needs the argument `name`",
                    None,
                )),
            },
            "plain" => message("A plain prompt.".into()),
            "farewell" => message(format!("Goodbye, {}!", name.as_deref().unwrap_or("friend"))),
            other => Err(ErrorData::invalid_params(
                format!("unknown prompt {other:?}"),
                None,
            )),
        }
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let (resources, next) = self.page(Self::resources(), request)?;
        let mut result =
            ListResourcesResult::with_all_items(resources.into_iter().map(typed).collect());
        result.next_cursor = next;
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let templates = vec![json!({ "uriTemplate": features::ITEM_TEMPLATE, "name": "item" })];
        let (templates, next) = self.page(templates, request)?;
        let mut result =
            ListResourceTemplatesResult::with_all_items(templates.into_iter().map(typed).collect());
        result.next_cursor = next;
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        if uri == mrtr::CONFIRM_RESOURCE {
            return mrtr::confirm_resource(&self.breakages, &request, &context);
        }
        if let Some(skill) = skills::read(&self.breakages, uri) {
            return Ok(skill);
        }
        let known = Self::resources().iter().any(|r| r["uri"] == uri)
            || uri
                .strip_prefix("fixture://items/")
                .is_some_and(|id| !id.is_empty());
        if !known {
            return Err(features::resource_not_found(
                &self.breakages,
                uri,
                is_stateless(&context),
            ));
        }
        Ok(ReadResourceResponse::Complete(typed(json!({
            "resultType": "complete",
            "contents": [{ "uri": uri, "mimeType": "text/plain", "text": format!("the text of {uri}") }],
        }))))
    }
}
