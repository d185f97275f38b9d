//! Results built by hand, shaped like `fixture-everything`'s, for the
//! examples in this documentation: they run as doctests without a server.

use rmcp::model::{
    CallToolResult, CompleteResult, CompletionInfo, ContentBlock, GetPromptResult, JsonObject,
    ProgressNotificationParam, ProgressToken, PromptMessage, ReadResourceResult, ResourceContents,
    Role, Tool, ToolAnnotations,
};
use serde_json::{Value, json};

use crate::{
    client::Reply, client::Request, client::ToolCall, client::ToolOutcome,
    server_messages::ServerMessages,
};

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

fn weather_schema() -> JsonObject {
    object(json!({
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "temperature": {"type": "number"},
            "conditions": {"type": "string"}
        },
        "required": ["city", "temperature", "conditions"]
    }))
}

fn tool(name: &'static str, input: Value) -> Tool {
    Tool::new(name, "a sample tool", object(input))
}

fn weather_tool(name: &'static str) -> Tool {
    tool(
        name,
        json!({"type": "object", "properties": {"city": {"type": "string"}}}),
    )
    .with_raw_output_schema(std::sync::Arc::new(weather_schema()))
    .annotate(ToolAnnotations::new().read_only(true))
}

/// `add {"a": 2, "b": 3}` answered with the text `5`.
pub fn add_call() -> ToolCall {
    ToolCall::from_parts(
        "add",
        json!({"a": 2, "b": 3}),
        ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text("5")])),
    )
}

/// `echo` answered with `text`.
pub fn echo_call(text: &str) -> ToolCall {
    ToolCall::from_parts(
        "echo",
        json!({"message": text}),
        ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text(text)])),
    )
}

/// `weather {"city": "Paris"}` with structured content matching its outputSchema.
pub fn weather_call() -> ToolCall {
    let structured = json!({"city": "Paris", "temperature": 21.5, "conditions": "sunny"});
    ToolCall::from_parts(
        "weather",
        json!({"city": "Paris"}),
        ToolOutcome::Success(CallToolResult::structured(structured)),
    )
    .with_tool(weather_tool("weather"))
}

/// `weather_bad`: declares the weather outputSchema and violates it.
pub fn weather_bad_call() -> ToolCall {
    let structured = json!({"city": "Paris", "temperature": "warm"});
    ToolCall::from_parts(
        "weather_bad",
        json!({"city": "Paris"}),
        ToolOutcome::Success(CallToolResult::structured(structured)),
    )
    .with_tool(weather_tool("weather_bad"))
}

/// `fail`: a tool error (`isError: true`).
pub fn failing_call() -> ToolCall {
    ToolCall::from_parts(
        "fail",
        json!({}),
        ToolOutcome::ToolError(CallToolResult::error(vec![ContentBlock::text(
            "the tool failed on purpose",
        )])),
    )
}

/// A call of an unknown tool, answered with JSON-RPC error -32602.
pub fn rpc_error_call() -> ToolCall {
    ToolCall::from_parts(
        "nope",
        json!({}),
        ToolOutcome::RpcError(crate::client::RpcError {
            code: -32602,
            message: "tool not found".into(),
            data: None,
        }),
    )
}

/// A call that got no answer: it timed out.
pub fn timed_out_call() -> ToolCall {
    ToolCall::from_parts(
        "slow",
        json!({}),
        ToolOutcome::Failed(crate::error::Error::Timeout {
            method: "tools/call".into(),
            after: std::time::Duration::from_millis(500),
            output: Box::default(),
        }),
    )
}

/// `image`: one PNG block.
pub fn image_call() -> ToolCall {
    ToolCall::from_parts(
        "image",
        json!({}),
        ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::image(
            "iVBORw0KGgo=",
            "image/png",
        )])),
    )
}

/// `progress {"steps": 3}` with its three progress notifications.
pub fn progress_call() -> ToolCall {
    let token = ProgressToken(rmcp::model::NumberOrString::Number(1));
    let progress = (1..=3)
        .map(|step| {
            ProgressNotificationParam::new(token.clone(), f64::from(step))
                .with_total(3.0)
                .with_message(format!("step {step} of 3"))
        })
        .collect();
    ToolCall::from_parts(
        "progress",
        json!({"steps": 3}),
        ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text(
            "done after 3 steps",
        )])),
    )
    .with_progress(progress)
}

/// `tools/list` with `echo`, `add` and `weather`.
pub fn tool_list() -> Reply<Vec<Tool>> {
    let tools = vec![
        tool(
            "echo",
            json!({"type": "object", "properties": {"message": {"type": "string"}}}),
        ),
        tool(
            "add",
            json!({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}),
        ),
        weather_tool("weather"),
    ];
    let raw = json!({ "tools": tools });
    Reply::from_parts(Request::new("tools/list", Value::Null), tools, raw)
}

/// `tools/list` where one tool's inputSchema is not an object schema.
pub fn tool_list_with_bad_schema() -> Reply<Vec<Tool>> {
    let tools = vec![
        tool("echo", json!({"type": "object"})),
        tool("broken", json!({"type": "string"})),
    ];
    let raw = json!({ "tools": tools });
    Reply::from_parts(Request::new("tools/list", Value::Null), tools, raw)
}

/// `prompts/get code_review`: a user and an assistant message.
pub fn prompt_reply() -> Reply<GetPromptResult> {
    let prompt = GetPromptResult::new(vec![
        PromptMessage::new_text(Role::User, "Review this rust code:\nfn main() {}"),
        PromptMessage::new_text(Role::Assistant, "I will review it."),
    ]);
    let raw = serde_json::to_value(&prompt).unwrap_or_default();
    Reply::from_parts(
        Request::new(
            "prompts/get",
            json!({"name": "code_review", "arguments": {"language": "rust", "code": "fn main() {}"}}),
        ),
        prompt,
        raw,
    )
}

/// `resources/read fixture://static/text`.
pub fn resource_reply() -> Reply<ReadResourceResult> {
    let read = ReadResourceResult::new(vec![ResourceContents::text(
        "Hello from fixture-everything.",
        "fixture://static/text",
    )]);
    let raw = serde_json::to_value(&read).unwrap_or_default();
    Reply::from_parts(
        Request::new("resources/read", json!({"uri": "fixture://static/text"})),
        read,
        raw,
    )
}

/// `resources/read fixture://static/blob`.
pub fn blob_reply() -> Reply<ReadResourceResult> {
    let read = ReadResourceResult::new(vec![
        ResourceContents::blob("AAECA/8=", "fixture://static/blob")
            .with_mime_type("application/octet-stream"),
    ]);
    let raw = serde_json::to_value(&read).unwrap_or_default();
    Reply::from_parts(
        Request::new("resources/read", json!({"uri": "fixture://static/blob"})),
        read,
        raw,
    )
}

/// `completion/complete` of `code_review`'s `language` from `r`.
pub fn completion_reply() -> Reply<CompleteResult> {
    let info = CompletionInfo::with_all_values(vec!["rust".into(), "ruby".into()])
        .expect("two values are within the limit");
    let done = CompleteResult::new(info);
    let raw = serde_json::to_value(&done).unwrap_or_default();
    Reply::from_parts(
        Request::new(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "code_review"}, "argument": {"name": "language", "value": "r"}}),
        ),
        done,
        raw,
    )
}

/// Two progress notifications and a warning log message.
pub fn server_messages() -> ServerMessages {
    ServerMessages::from_messages([
        json!({"method": "notifications/progress", "params": {"progressToken": 1, "progress": 1, "total": 2}}),
        json!({"method": "notifications/progress", "params": {"progressToken": 1, "progress": 2, "total": 2}}),
        json!({"method": "notifications/message", "params": {"level": "warning", "logger": "fixture", "data": "disk almost full"}}),
    ])
}
