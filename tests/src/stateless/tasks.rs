//! The tasks extension in the fixture (SEP-2663): the server declares
//! `io.modelcontextprotocol/tasks`, and two tools run as tasks kept by
//! rmcp's task manager (one per process, so HTTP requests of any session
//! see the same tasks). [`TASK_TOOL`] makes a task when the request
//! declares the extension and runs synchronously otherwise;
//! [`REQUIRED_TASK_TOOL`] runs only as a task and refuses a request
//! without the extension with -32021, and [`INPUT_TASK_TOOL`]'s task asks
//! for approval (an elicitation answered with `tasks/update`) before it
//! completes, and [`FAILING_TASK_TOOL`]'s task completes with a tool
//! error. Breakages bend the answers (the
//! declaration, the task's shape and fields, `tasks/get`, `tasks/cancel`,
//! the removed methods) and the gate on the client's declaration.

use std::{
    collections::HashSet,
    sync::{LazyLock, Mutex},
    time::Duration,
};

use rmcp::{
    ErrorData, RoleServer,
    model::{
        CallToolResponse, CallToolResult, CancelTaskParams, ClientCapabilities, ContentBlock,
        CreateTaskResult, GetTaskParams, GetTaskResult, Tool, UpdateTaskParams,
    },
    service::RequestContext,
    task_manager::{TaskExit, TaskManager, TaskOptions},
};
use serde_json::{Value, json};

use super::{
    breakage::{Breakage, Breakages},
    typed,
};

/// The tool that runs as a task when the request declares the extension.
pub const TASK_TOOL: &str = "long_job";
/// The tool that runs only as a task.
pub const REQUIRED_TASK_TOOL: &str = "task_only";
/// The tool whose task asks for input before it completes.
pub const INPUT_TASK_TOOL: &str = "approval_job";
/// The tool whose task reports a tool error.
pub const FAILING_TASK_TOOL: &str = "failing_job";
/// The key of its one input request.
const APPROVAL: &str = "approval";
/// The extension's identifier.
const EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// How long a task works before it completes.
const WORK: Duration = Duration::from_millis(300);
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// Every task of this process.
static TASKS: LazyLock<TaskManager> = LazyLock::new(TaskManager::new);
/// The tasks `tasks/get` was asked about (for `--tasks-get-late`).
static ASKED: LazyLock<Mutex<HashSet<String>>> = LazyLock::new(Mutex::default);

/// The two task tools.
pub(super) fn tools() -> Vec<Tool> {
    let schema = json!({ "type": "object", "properties": {} });
    vec![
        typed(json!({
            "name": TASK_TOOL,
            "description": "Runs as a task (the tasks extension, SEP-2663) when the request \
                declares the extension: the answer is the task, which completes after about \
                300 ms. Without the extension it runs synchronously.",
            "inputSchema": schema,
        })),
        typed(json!({
            "name": REQUIRED_TASK_TOOL,
            "description": "Runs only as a task: requires the tasks extension (task support: \
                required) and completes after about 300 ms.",
            "inputSchema": schema,
        })),
        typed(json!({
            "name": INPUT_TASK_TOOL,
            "description": "Runs only as a task (requires the tasks extension) that asks the \
                client for approval with an elicitation (inputRequests on tasks/get, answered \
                with tasks/update) before it completes.",
            "inputSchema": schema,
        })),
        typed(json!({
            "name": FAILING_TASK_TOOL,
            "description": "Runs only as a task (requires the tasks extension) whose work \
                fails: the task completes with a tool error (isError: true) after about 300 ms.",
            "inputSchema": schema,
        })),
    ]
}

fn done() -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text("done")])
}

/// What a task tool's task does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Work {
    /// Completes after [`WORK`].
    Done,
    /// Asks for approval, then completes.
    Approval,
    /// Completes with a tool error after [`WORK`].
    ToolError,
}

/// `tools/call` of one of the task tools; `required`: it runs only as a
/// task.
pub(super) fn call(
    breakages: &Breakages,
    required: bool,
    work: Work,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let declared = context
        .client_capabilities()
        .is_some_and(|c| c.supports_tasks());
    if !declared {
        if required && !breakages.has(Breakage::RequiredTaskRunsSync) {
            let required: ClientCapabilities = typed(json!({ "extensions": { EXTENSION: {} } }));
            return Err(ErrorData::missing_required_client_capability(required));
        }
        return Ok(done().into());
    }
    let options = TaskOptions::new()
        .with_ttl_ms(60_000)
        .with_poll_interval_ms(100);
    let task = TASKS.spawn(options, move |task| {
        Box::pin(async move {
            if work == Work::Approval {
                let request = typed(json!({
                    "method": "elicitation/create",
                    "params": {
                        "mode": "form",
                        "message": "Approve the job?",
                        "requestedSchema": {
                            "type": "object",
                            "properties": { "ok": { "type": "boolean" } },
                        },
                    },
                }));
                let answer = task.request_input(APPROVAL, request).await?;
                let approved = answer.get("action").and_then(Value::as_str) == Some("accept");
                let text = if approved { "approved" } else { "not approved" };
                return Ok(CallToolResult::success(vec![ContentBlock::text(text)]));
            }
            tokio::select! {
                () = tokio::time::sleep(WORK) => Ok(match work {
                    Work::ToolError => CallToolResult::error(vec![ContentBlock::text(
                        "the job failed on purpose",
                    )]),
                    _ => done(),
                }),
                () = task.cancelled() => Err(TaskExit::Cancelled),
            }
        })
    });
    Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
}

/// `tasks/get`.
pub(super) fn get(
    breakages: &Breakages,
    request: &GetTaskParams,
) -> Result<GetTaskResult, ErrorData> {
    let first = ASKED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(request.task_id.clone());
    if first && breakages.has(Breakage::TasksGetLate) {
        return Err(ErrorData::invalid_params(
            format!("unknown task: {}", request.task_id),
            None,
        ));
    }
    TASKS.get_task(&request.task_id).map(GetTaskResult::new)
}

/// `tasks/update`: the fixture's tasks ask for no input, so responses are
/// ignored (as the extension says for keys it did not ask about).
pub(super) fn update(request: &UpdateTaskParams) -> Result<(), ErrorData> {
    TASKS.update_task(&request.task_id, request.input_responses.clone())
}

/// `tasks/cancel`.
pub(super) fn cancel(request: &CancelTaskParams) -> Result<(), ErrorData> {
    TASKS.cancel_task(&request.task_id)
}

fn is_tasks_method(name: &str) -> bool {
    matches!(name, "tasks/get" | "tasks/update" | "tasks/cancel")
}

/// The `Mcp-Name` a task request routes by: its `taskId`.
pub(super) fn task_name(message: &Value) -> Option<&str> {
    let method = message.get("method").and_then(Value::as_str)?;
    if !is_tasks_method(method) {
        return None;
    }
    message.get("params")?.get("taskId")?.as_str()
}

/// A request from the client: under `--tasks-ignore-client-capabilities`
/// every `tools/call` and task request counts as declaring the extension,
/// under `--legacy-task-param-opts-in` every `tools/call` with a `task`
/// param;
/// under `--answer-removed-task-methods` `tasks/result` and `tasks/list`
/// are answered. `Some` is the answer to send instead.
pub(super) fn inbound(breakages: &Breakages, message: &mut Value) -> Option<Value> {
    let name = message.get("method").and_then(Value::as_str)?.to_owned();
    if breakages.has(Breakage::AnswerRemovedTaskMethods)
        && matches!(name.as_str(), "tasks/result" | "tasks/list")
    {
        return Some(json!({ "jsonrpc": "2.0", "id": message.get("id")?.clone(),
            "result": { "resultType": "complete", "tasks": [] } }));
    }
    let legacy_opt_in = breakages.has(Breakage::LegacyTaskParamOptsIn)
        && name == "tools/call"
        && message.get("params").and_then(|p| p.get("task")).is_some();
    if (legacy_opt_in
        || breakages.has(Breakage::TasksIgnoreClientCapabilities)
            && (name == "tools/call" || is_tasks_method(&name)))
        && let Some(capabilities) = message
            .get_mut("params")
            .and_then(|p| p.get_mut("_meta"))
            .and_then(|m| m.get_mut(META_CAPABILITIES))
            .and_then(Value::as_object_mut)
    {
        let extensions = capabilities
            .entry("extensions")
            .or_insert_with(|| json!({}));
        if let Some(extensions) = extensions.as_object_mut() {
            extensions.entry(EXTENSION).or_insert_with(|| json!({}));
        }
    }
    None
}

/// An answer of the server to a request named `name` (2026-07-28).
pub(super) fn outbound(breakages: &Breakages, name: &str, message: &mut Value) {
    if breakages.has(Breakage::UnknownTaskInternalError)
        && matches!(name, "tasks/get" | "tasks/cancel")
        && message["error"]["code"] == -32602
    {
        message["error"]["code"] = json!(-32603);
    }
    let Some(result) = message.get_mut("result").and_then(Value::as_object_mut) else {
        return;
    };
    let is_task = result.get("resultType") == Some(&json!("task"));
    match name {
        "server/discover" if breakages.has(Breakage::TasksV1Capability) => {
            if let Some(capabilities) = result
                .get_mut("capabilities")
                .and_then(Value::as_object_mut)
            {
                capabilities.insert("tasks".into(), json!({ "list": {}, "cancel": {} }));
            }
        }
        "tools/call" if is_task && breakages.has(Breakage::NestedTaskResult) => {
            let fields: serde_json::Map<String, Value> = std::mem::take(result)
                .into_iter()
                .filter(|(k, _)| k != "resultType")
                .collect();
            result.insert("resultType".into(), json!("task"));
            result.insert("task".into(), Value::Object(fields));
        }
        "tasks/get"
            if breakages.has(Breakage::TaskResultNotInlined)
                && result.get("status") == Some(&json!("completed")) =>
        {
            result.remove("result");
        }
        "tasks/get"
            if breakages.has(Breakage::ToolErrorFailsTask)
                && result.get("status") == Some(&json!("completed"))
                && result["result"]["isError"] == json!(true) =>
        {
            result.remove("result");
            result.insert("status".into(), json!("failed"));
            result.insert(
                "error".into(),
                json!({ "code": -32603, "message": "the tool failed" }),
            );
        }
        "tasks/get"
            if breakages.has(Breakage::TaskInputWithoutRequests)
                && result.get("status") == Some(&json!("input_required")) =>
        {
            result.remove("inputRequests");
        }
        "tasks/cancel" if breakages.has(Breakage::CancelAckCarriesTask) => {
            result.insert("status".into(), json!("cancelled"));
            result.insert("taskId".into(), json!("the task"));
        }
        _ => {}
    }
    let task_shaped = (name == "tools/call" && is_task) || name == "tasks/get";
    if task_shaped && breakages.has(Breakage::LegacyTaskFields) {
        for (new, old) in [("ttlMs", "ttl"), ("pollIntervalMs", "pollInterval")] {
            if let Some(value) = result.remove(new) {
                result.insert(old.into(), value);
            }
        }
    }
}
