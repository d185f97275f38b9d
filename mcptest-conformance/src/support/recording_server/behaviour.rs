//! What the recording server answers: a stateless (2026-07-28-only) MCP
//! server on rmcp, with the tools, prompt and resource the client checks
//! need.

use std::borrow::Cow;

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock,
        GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation,
        InputRequiredResult, ListPromptsResult, ListResourcesResult, ListToolsResult,
        PaginatedRequestParams, Prompt, PromptMessage, ProtocolVersion, ReadResourceRequestParams,
        ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, Role,
        ServerCapabilities, ServerConfig,
    },
    service::RequestContext,
};
use serde_json::{Value, json};

use super::{
    ASKABLE, CONFIRM_STATE, PROMPT, RESOURCE, RecordingServer, SERVER_NAME, SLOW_LIMIT,
    UNTYPED_TOOL, tools,
};

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// The input request the recording server sends for each client capability.
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

impl ServerHandler for RecordingServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![ProtocolVersion::V_2026_07_28])
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::all(
            &self.canary_url,
        )))
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
