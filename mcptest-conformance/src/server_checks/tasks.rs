//! Server checks of the tasks extension (SEP-2663,
//! `io.modelcontextprotocol/tasks`): the declaration; a `tools/call`
//! answered with a flat `CreateTaskResult` and its wire fields; `tasks/get`
//! right after creation and polled to a terminal status with the result
//! inlined; a tool error reported as a completed task; a task waiting for
//! input resumed with `tasks/update`; `tasks/cancel`; unknown task ids; the
//! methods the extension removed; the gate on the client's declaration of
//! the extension; and, over HTTP, routing by `Mcp-Name: <taskId>`.
//!
//! Every check runs only when `server/discover` declares the extension
//! under `capabilities.extensions`; otherwise it is skipped saying so.
//!
//! The tool that makes a task is found, never assumed: the one named with
//! [`Conformance::task_tool`](super::Conformance::task_tool), or a listed
//! tool that declares `execution.taskSupport` (`optional` or `required`)
//! or whose description speaks of tasks, that takes no required arguments
//! and is not destructive. Each candidate is called with the extension
//! declared; the first answered with `resultType: "task"` is the subject.
//! The input and tool-error checks look among those for one whose
//! description also speaks of input or of failing, and are skipped without
//! one. Every wait is bounded: polling stops at the terminal status, after
//! [`MAX_POLLS`] answers or after the check timeout, whichever comes first.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::facts::StatelessFacts;
use super::listing::{INPUT_WORDS, callable_unnamed, list_items, mentions};
use crate::model::{CannotApply, Checked, Observed, Problems, Transport};
use crate::support::input_answers::{INPUT_METHODS, responses_for};
use crate::support::message::{self, meta, meta_with, stateless};
use crate::support::probe::{Ch, Probe};
use crate::support::received::Received;
use crate::support::revision::STATELESS;

/// The extension's identifier, a key of `capabilities.extensions`.
pub(crate) const EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// Every task status.
const STATUSES: &[&str] = &[
    "working",
    "input_required",
    "completed",
    "failed",
    "cancelled",
];
/// The statuses a task never leaves.
const TERMINAL: &[&str] = &["completed", "failed", "cancelled"];
/// Words in a tool's name or description that say it runs as a task.
const TASK_WORDS: &[&str] = &[
    "task",
    "long-running",
    "long running",
    "asynchronous",
    "in the background",
];
/// Words that say a tool runs only as a task (task support "required").
const REQUIRED_WORDS: &[&str] = &[
    "requires the tasks extension",
    "only as a task",
    "task support: required",
    "tasksupport: required",
    "tasksupport=required",
];
/// The most discovered candidates called before giving up.
const MAX_CANDIDATES: usize = 4;
/// The most `tasks/get` answers one poll reads.
const MAX_POLLS: usize = 40;
/// A task id no server issued.
const UNKNOWN_TASK: &str = "mcptest-no-such-task";
/// Fields of a task that a `tasks/cancel` acknowledgement must not carry.
const TASK_FIELDS: &[&str] = &["taskId", "status", "result", "error", "inputRequests"];

fn declared(capabilities: &Value) -> Option<&Value> {
    capabilities.get("extensions")?.get(EXTENSION)
}

/// The facts of a server that declares the extension; otherwise the
/// finding of a check that cannot apply.
pub(crate) fn gate(facts: &StatelessFacts) -> Result<&StatelessFacts, Observed> {
    if facts.discover.is_none() {
        return Err(Observed::CannotApply(
            CannotApply::Extension,
            "server/discover gave no capabilities in which the tasks extension could be declared"
                .into(),
        ));
    }
    match declared(&facts.capabilities()) {
        Some(_) => Ok(facts),
        None => Err(Observed::CannotApply(
            CannotApply::Extension,
            format!(
                "server/discover does not declare the tasks extension \
                 (capabilities.extensions[\"{EXTENSION}\"])"
            ),
        )),
    }
}

/// A `_meta` declaring the extension (and every other client capability,
/// so a tool that also asks for input is not refused for that).
fn with_tasks() -> Value {
    meta_with(json!({
        "elicitation": {},
        "sampling": {},
        "roots": {},
        "extensions": { EXTENSION: {} },
    }))
}

fn result_type(result: &Value) -> Option<&str> {
    result.get("resultType").and_then(Value::as_str)
}

fn is_task(result: &Value) -> bool {
    result_type(result) == Some("task")
}

fn status(task: &Value) -> Option<&str> {
    task.get("status").and_then(Value::as_str)
}

/// A tool that may run as a task.
#[derive(Debug, Clone)]
struct Candidate {
    name: String,
    arguments: Value,
}

impl Candidate {
    fn params(&self) -> Value {
        json!({ "name": self.name, "arguments": self.arguments })
    }
}

/// `execution.taskSupport` of a listed tool.
fn task_support(tool: &Value) -> Option<&str> {
    tool.get("execution")?.get("taskSupport")?.as_str()
}

fn declares_required(tool: &Value) -> bool {
    task_support(tool) == Some("required") || mentions(tool, REQUIRED_WORDS)
}

/// The tools that may run as a task: the named one, or the listed tools
/// that declare task support first, then those whose description speaks of
/// tasks; among each, first those that say nothing of asking for input or
/// of failing (their tasks are the plain lifecycle the checks need).
async fn candidates(p: &mut Probe, ch: Ch) -> Vec<Candidate> {
    if let Some((name, arguments)) = p.settings.task_tool.clone() {
        return vec![Candidate { name, arguments }];
    }
    let tools = list_items(p, ch, "tools/list", "tools").await;
    let mut found: Vec<((bool, bool), Candidate)> = tools
        .iter()
        .filter(|tool| callable_unnamed(tool) && task_support(tool) != Some("forbidden"))
        .filter_map(|tool| {
            let declares = matches!(task_support(tool), Some("optional" | "required"));
            if !declares && !mentions(tool, TASK_WORDS) {
                return None;
            }
            let candidate = Candidate {
                name: tool.get("name")?.as_str()?.to_owned(),
                arguments: json!({}),
            };
            let plain = !mentions(tool, INPUT_WORDS) && !mentions(tool, FAIL_WORDS);
            Some(((!declares, !plain), candidate))
        })
        .collect();
    found.sort_by_key(|(order, _)| *order);
    found
        .into_iter()
        .map(|(_, c)| c)
        .take(MAX_CANDIDATES)
        .collect()
}

/// A task the server created, and the tool that made it.
struct Created {
    tool: Candidate,
    /// The `CreateTaskResult`.
    result: Value,
}

impl Created {
    fn task_id(&self) -> Option<&str> {
        self.result.get("taskId").and_then(Value::as_str)
    }

    fn label(&self) -> String {
        format!("tool {:?}", self.tool.name)
    }

    /// The task id, or the finding of a check that needs one.
    fn require_id(&self) -> Result<String, Observed> {
        self.task_id().map(str::to_owned).ok_or_else(|| {
            Observed::Broken(format!(
                "the task {} created has no taskId (a string) at the top level of its result",
                self.label()
            ))
        })
    }

    /// The suggested polling interval, clamped to 50 ms .. 1 s.
    fn interval(&self) -> Duration {
        let ms = self
            .result
            .get("pollIntervalMs")
            .and_then(Value::as_u64)
            .unwrap_or(100);
        Duration::from_millis(ms.clamp(50, 1000))
    }
}

/// Calls the candidates with the extension declared until one answers with
/// a task.
///
/// `Err` is the finding of a check without a subject: broken when the tool
/// the user named makes no task, skipped when nothing suitable was found.
async fn create_task(p: &mut Probe, ch: Ch) -> Result<Created, Observed> {
    let named = p.settings.task_tool.is_some();
    let mut tried = Vec::new();
    for tool in candidates(p, ch).await {
        let reply = p
            .call_stateless(ch, "tools/call", tool.params(), with_tasks())
            .await;
        match reply.result() {
            Some(result) if is_task(result) => {
                return Ok(Created {
                    tool,
                    result: result.clone(),
                });
            }
            _ => tried.push(format!(
                "tool {:?} got {}",
                tool.name,
                reply.describe_with_type()
            )),
        }
    }
    Err(if named {
        Observed::Broken(format!(
            "the task tool (Conformance::task_tool), called with the tasks extension declared, \
             got no result with resultType \"task\": {}",
            tried.join("; ")
        ))
    } else if tried.is_empty() {
        Observed::NotApplicable(
            "no tool that may run as a task was found (none named with Conformance::task_tool, \
             none declares execution.taskSupport, and no description speaks of tasks on one \
             without required arguments)"
                .into(),
        )
    } else {
        Observed::NotApplicable(format!(
            "no tool answered with a task: {} (name one with Conformance::task_tool)",
            tried.join("; ")
        ))
    })
}

/// Cancels the task `task_id` a check is done with, so a long one does not
/// keep working on a server that outlives the check (over stdio the server
/// is stopped anyway). Not recorded: tidying up.
async fn release(p: &mut Probe, ch: Ch, task_id: Option<&str>) {
    if p.transport != Transport::Http {
        return;
    }
    if let Some(task_id) = task_id {
        let id = p.id();
        let message = stateless(
            id,
            "tasks/cancel",
            json!({ "taskId": task_id }),
            with_tasks(),
        );
        let _ = p.call_quietly(ch, message).await;
    }
}

/// `tasks/get` for `task_id`, with the extension declared (recorded).
async fn get(p: &mut Probe, ch: Ch, task_id: &str) -> Received {
    p.call_stateless(ch, "tasks/get", json!({ "taskId": task_id }), with_tasks())
        .await
}

/// What polling `tasks/get` saw.
struct Polled {
    /// Every status answered, in order.
    statuses: Vec<String>,
    /// The answer polling stopped at (a terminal status, or one `stop`
    /// chose), if one came.
    terminal: Option<Value>,
}

/// Polls `tasks/get` until the task is terminal or `stop` holds for an
/// answer, within the check timeout and [`MAX_POLLS`] answers. `Err` when
/// an answer is not a task.
async fn poll(
    p: &mut Probe,
    ch: Ch,
    created: &Created,
    stop: &dyn Fn(&Value) -> bool,
) -> Result<Polled, Observed> {
    let task_id = created.require_id()?;
    let interval = created.interval();
    let deadline = Instant::now() + p.settings.timeout;
    let mut statuses = Vec::new();
    for _ in 0..MAX_POLLS {
        let reply = get(p, ch, &task_id).await;
        let Some(task) = reply.result() else {
            return Err(Observed::Broken(format!(
                "tasks/get for the task {} created got {}",
                created.label(),
                reply.describe()
            )));
        };
        let Some(now) = status(task) else {
            return Err(Observed::Broken(format!(
                "tasks/get answered without a status (a string): {task}"
            )));
        };
        statuses.push(now.to_owned());
        if TERMINAL.contains(&now) || stop(task) {
            return Ok(Polled {
                statuses,
                terminal: Some(task.clone()),
            });
        }
        if Instant::now() + interval > deadline {
            break;
        }
        tokio::time::sleep(interval).await;
    }
    Ok(Polled {
        statuses,
        terminal: None,
    })
}

/// Whether `s` begins like an ISO 8601 date and time (`2026-07-28T10:30:00`).
fn is_iso8601(s: &str) -> bool {
    let bytes = s.as_bytes();
    bytes.len() >= 19
        && bytes[..19].iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            10 => *b == b'T' || *b == b't',
            13 | 16 => *b == b':',
            _ => b.is_ascii_digit(),
        })
}

/// The wire-field problems of a task as a `CreateTaskResult` or a
/// `tasks/get` answer (`what` names it in reasons).
fn field_problems(what: &str, task: &Value, problems: &mut Problems) {
    for key in ["createdAt", "lastUpdatedAt"] {
        match task.get(key) {
            Some(Value::String(s)) if is_iso8601(s) => {}
            Some(other) => problems.push(format!(
                "{what} has {key} {other}, not an ISO 8601 date-time string"
            )),
            None => problems.push(format!("{what} has no {key}")),
        }
    }
    match task.get("ttlMs") {
        None => problems.push(format!("{what} has no ttlMs (null for no limit)")),
        Some(Value::Null) => {}
        Some(ttl) if ttl.as_u64().is_some_and(|t| t > 0) => {}
        Some(ttl) => problems.push(format!(
            "{what} has ttlMs {ttl}, not null or a positive integer"
        )),
    }
    if let Some(poll) = task.get("pollIntervalMs")
        && poll.as_u64().is_none_or(|p| p == 0)
    {
        problems.push(format!(
            "{what} has pollIntervalMs {poll}, not a positive integer"
        ));
    }
    for legacy in ["ttl", "pollInterval"] {
        if task.get(legacy).is_some() {
            problems.push(format!(
                "{what} carries the key {legacy:?} of the first tasks revision \
                 (the extension names it {legacy}Ms)"
            ));
        }
    }
    if task.get("requestState").is_some() {
        problems.push(format!(
            "{what} carries requestState, which tasks do not have"
        ));
    }
}

// ---- the checks ----

pub(crate) async fn extension_declared(p: &mut Probe) -> Checked {
    let ch = p.open().await?;
    let reply = p
        .call_stateless(ch, "server/discover", Value::Null, meta(STATELESS))
        .await;
    let Some(result) = reply.result() else {
        return Ok(Observed::NotApplicable(format!(
            "server/discover got {}, so no declaration could be read",
            reply.describe()
        )));
    };
    let capabilities = result.get("capabilities").cloned().unwrap_or(Value::Null);
    let v1 = capabilities.get("tasks").is_some_and(|t| !t.is_null());
    Ok(match declared(&capabilities) {
        None if v1 => Observed::Broken(format!(
            "server/discover declares tasks in capabilities.tasks, the slot of the first tasks \
             revision; 2026-07-28 declares them as capabilities.extensions[\"{EXTENSION}\"]"
        )),
        None => Observed::NotApplicable(format!(
            "server/discover does not declare the tasks extension \
             (capabilities.extensions[\"{EXTENSION}\"])"
        )),
        Some(settings) if !settings.is_object() => Observed::Broken(format!(
            "capabilities.extensions[\"{EXTENSION}\"] is {settings}, not an object of settings"
        )),
        Some(_) if v1 => Observed::Broken(
            "server/discover declares the tasks extension and also capabilities.tasks, the slot \
             of the first tasks revision, which the extension replaces"
                .into(),
        ),
        Some(_) => Observed::holds(),
    })
}

pub(crate) async fn create_result(p: &mut Probe, _facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let created = create_task(p, ch).await?;
    let result = &created.result;
    let label = created.label();
    let mut problems = Problems::default();
    if result.get("task").is_some() {
        problems.push(format!(
            "the task {label} created is wrapped in a \"task\" object; a CreateTaskResult is \
             flat (its taskId and status at the top level)"
        ));
    }
    match result.get("taskId") {
        Some(Value::String(id)) if !id.is_empty() => {}
        Some(other) => problems.push(format!("taskId is {other}, not a non-empty string")),
        None => problems.push(format!("the task {label} created has no top-level taskId")),
    }
    match status(result) {
        Some(s) if STATUSES.contains(&s) => {}
        Some(s) => problems.push(format!("status {s:?} is none of {}", STATUSES.join(", "))),
        None => problems.push(format!("the task {label} created has no top-level status")),
    }
    for inline in ["result", "error", "inputRequests"] {
        if result.get(inline).is_some() {
            problems.push(format!(
                "the CreateTaskResult carries {inline}, which only tasks/get answers carry"
            ));
        }
    }
    release(p, ch, created.task_id()).await;
    Ok(problems.into_finding())
}

pub(crate) async fn wire_fields(p: &mut Probe, _facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let created = create_task(p, ch).await?;
    let mut problems = Problems::default();
    field_problems("the CreateTaskResult", &created.result, &mut problems);
    if let Some(task_id) = created.task_id() {
        let reply = get(p, ch, task_id).await;
        match reply.result() {
            Some(task) => field_problems("the tasks/get answer", task, &mut problems),
            None => problems.push(format!("tasks/get got {}", reply.describe())),
        }
    }
    release(p, ch, created.task_id()).await;
    Ok(problems.into_finding())
}

pub(crate) async fn get_after_create(p: &mut Probe, _facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let created = create_task(p, ch).await?;
    let task_id = created.require_id()?;
    // No pause: the task must exist once its CreateTaskResult is sent.
    let reply = get(p, ch, &task_id).await;
    let Some(task) = reply.result() else {
        return Ok(Observed::Broken(format!(
            "tasks/get sent right after the task was created got {}",
            reply.describe()
        )));
    };
    let mut problems = Problems::default();
    if result_type(task) != Some("complete") {
        problems.push(format!(
            "the tasks/get answer has resultType {}, not \"complete\"",
            task.get("resultType").cloned().unwrap_or(Value::Null)
        ));
    }
    if task.get("taskId") != Some(&json!(task_id)) {
        problems.push(format!(
            "the tasks/get answer has taskId {}, not {task_id:?}",
            task.get("taskId").cloned().unwrap_or(Value::Null)
        ));
    }
    match status(task) {
        Some(s) if STATUSES.contains(&s) => {}
        other => problems.push(format!(
            "the tasks/get answer has status {other:?}, none of {}",
            STATUSES.join(", ")
        )),
    }
    release(p, ch, Some(&task_id)).await;
    Ok(problems.into_finding())
}

pub(crate) async fn completes(p: &mut Probe, _facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let created = create_task(p, ch).await?;
    let polled = poll(p, ch, &created, &|_| false).await?;
    let seen = polled.statuses.join(" → ");
    let Some(terminal) = polled.terminal else {
        return Ok(Observed::Broken(format!(
            "the task {} created did not reach a terminal status within {} \
             ({} polls of tasks/get saw: {seen}); name a faster tool with \
             Conformance::task_tool",
            created.label(),
            mcptest_core::__support::fmt_duration(p.settings.timeout),
            polled.statuses.len()
        )));
    };
    let mut problems = Problems::default();
    if let Some(unknown) = polled
        .statuses
        .iter()
        .find(|s| !STATUSES.contains(&s.as_str()))
    {
        problems.push(format!("tasks/get answered the unknown status {unknown:?}"));
    }
    let note = match status(&terminal) {
        Some("completed") => {
            match terminal.get("result") {
                Some(result) if result.get("content").is_some_and(Value::is_array) => {}
                Some(result) => problems.push(format!(
                    "the completed task's result has no content array: {result}"
                )),
                None => problems.push(
                    "the completed task's tasks/get answer does not inline its result".to_owned(),
                ),
            }
            if terminal.get("error").is_some() {
                problems.push("the completed task carries an error as well".to_owned());
            }
            None
        }
        Some("failed") => {
            let error = terminal.get("error");
            let well_formed = error.is_some_and(|e| {
                e.get("code").is_some_and(Value::is_i64)
                    && e.get("message").is_some_and(Value::is_string)
            });
            if !well_formed {
                problems.push(format!(
                    "the failed task's error is {}, not an object with a numeric code and a \
                     string message",
                    error.cloned().unwrap_or(Value::Null)
                ));
            }
            if terminal.get("result").is_some() {
                problems.push("the failed task carries a result as well".to_owned());
            }
            Some(format!(
                "the task {} created failed (its error is well formed): {seen}",
                created.label()
            ))
        }
        _ => {
            problems.push(format!(
                "the task {} created was cancelled though nobody cancelled it: {seen}",
                created.label()
            ));
            None
        }
    };
    // A terminal status is final, and the task stays readable.
    let task_id = created.require_id()?;
    let again = get(p, ch, &task_id).await;
    match again.result() {
        Some(task) if status(task) == status(&terminal) => {}
        Some(task) => problems.push(format!(
            "the task went from {:?} to {:?}; a terminal status is final",
            status(&terminal).unwrap_or_default(),
            status(task).unwrap_or_default()
        )),
        None => problems.push(format!(
            "tasks/get of the finished task (before its ttlMs ran out) got {}",
            again.describe()
        )),
    }
    Ok(match (problems.is_empty(), note) {
        (true, Some(note)) => Observed::Holds(Some(note)),
        (true, None) => Observed::Holds(Some(format!(
            "the task {} created went {seen}",
            created.label()
        ))),
        (false, _) => problems.into_finding(),
    })
}

/// The problems of a `tasks/cancel` answer.
fn ack_problems(what: &str, reply: &Received, problems: &mut Problems) {
    let Some(ack) = reply.result() else {
        problems.push(format!("{what} got {}", reply.describe()));
        return;
    };
    if result_type(ack) != Some("complete") {
        problems.push(format!(
            "{what} was acknowledged with resultType {}, not \"complete\"",
            ack.get("resultType").cloned().unwrap_or(Value::Null)
        ));
    }
    let carried: Vec<&str> = TASK_FIELDS
        .iter()
        .copied()
        .filter(|f| ack.get(*f).is_some())
        .collect();
    if !carried.is_empty() {
        problems.push(format!(
            "{what}'s acknowledgement carries {} (it is empty; tasks/get reports the task)",
            carried.join(", ")
        ));
    }
}

pub(crate) async fn cancel(p: &mut Probe, _facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let created = create_task(p, ch).await?;
    let task_id = created.require_id()?;
    let mut problems = Problems::default();
    let params = json!({ "taskId": task_id });
    let reply = p
        .call_stateless(ch, "tasks/cancel", params.clone(), with_tasks())
        .await;
    ack_problems("tasks/cancel", &reply, &mut problems);
    if reply.result().is_none() {
        return Ok(problems.into_finding());
    }
    // Cancellation is cooperative: any terminal status will do, but one must come.
    let polled = poll(p, ch, &created, &|_| false).await?;
    let Some(terminal) = polled.terminal else {
        problems.push(format!(
            "the cancelled task did not reach a terminal status within {} ({})",
            mcptest_core::__support::fmt_duration(p.settings.timeout),
            polled.statuses.join(" → ")
        ));
        return Ok(problems.into_finding());
    };
    // Cancelling a finished task is acknowledged the same way.
    let again = p
        .call_stateless(ch, "tasks/cancel", params, with_tasks())
        .await;
    ack_problems("tasks/cancel of the finished task", &again, &mut problems);
    Ok(if problems.is_empty() {
        Observed::Holds(Some(format!(
            "the cancelled task ended {:?}",
            status(&terminal).unwrap_or_default()
        )))
    } else {
        problems.into_finding()
    })
}

pub(crate) async fn unknown_task(p: &mut Probe) -> Checked {
    let ch = p.open().await?;
    let mut problems = Problems::default();
    for method in ["tasks/get", "tasks/cancel"] {
        let reply = p
            .call_stateless(ch, method, json!({ "taskId": UNKNOWN_TASK }), with_tasks())
            .await;
        if reply.code() != Some(-32602) {
            problems.push(format!(
                "{method} of the unknown task {UNKNOWN_TASK:?} got {}, not error -32602",
                reply.describe_with_type()
            ));
        }
    }
    Ok(problems.into_finding())
}

pub(crate) async fn removed_methods(p: &mut Probe) -> Checked {
    let ch = p.open().await?;
    let mut problems = Problems::default();
    for (method, params) in [
        ("tasks/result", json!({ "taskId": UNKNOWN_TASK })),
        ("tasks/list", json!({})),
    ] {
        let reply = p.call_stateless(ch, method, params, with_tasks()).await;
        if reply.code() != Some(-32601) {
            problems.push(format!(
                "{method} (removed: tasks/get inlines the result, and tasks are not listed) \
                 got {}, not error -32601",
                reply.describe_with_type()
            ));
        }
    }
    Ok(problems.into_finding())
}

pub(crate) async fn methods_need_extension(p: &mut Probe, _facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    // A real task when one can be made, so an id check cannot answer first.
    let (task_id, real) = match create_task(p, ch).await {
        Ok(created) => (created.require_id()?, true),
        Err(Observed::NotApplicable(_)) => (UNKNOWN_TASK.to_owned(), false),
        Err(other) => return Err(other),
    };
    let mut problems = Problems::default();
    for method in ["tasks/get", "tasks/cancel"] {
        let reply = p
            .call_stateless(ch, method, json!({ "taskId": task_id }), meta(STATELESS))
            .await;
        if reply.code() != Some(-32021) {
            problems.push(format!(
                "{method} from a request that does not declare the tasks extension got {}, \
                 not error -32021",
                reply.describe_with_type()
            ));
        }
    }
    if real {
        release(p, ch, Some(&task_id)).await;
    }
    Ok(problems.into_finding())
}

pub(crate) async fn no_task_without_extension(p: &mut Probe, _facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let created = create_task(p, ch).await?;
    release(p, ch, created.task_id()).await;
    let label = created.label();
    let mut problems = Problems::default();
    let mut notes = Vec::new();
    // Plain, then with the `task` param of the first tasks revision, which
    // is no declaration of the extension.
    let legacy = json!({ "ttl": 60000, "pollInterval": 100 });
    for (how, params) in [
        ("", created.tool.params()),
        (" with the legacy task param", {
            let mut params = created.tool.params();
            params["task"] = legacy;
            params
        }),
    ] {
        let reply = p
            .call_stateless(ch, "tools/call", params, meta(STATELESS))
            .await;
        let stray = reply
            .result()
            .and_then(|r| r.get("taskId"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        release(p, ch, stray.as_deref()).await;
        match (reply.result(), reply.error()) {
            (Some(result), _) if is_task(result) => problems.push(format!(
                "{label} called{how} without the tasks extension declared answered with a task \
                 (resultType \"task\"); it must run without one or be refused with -32021"
            )),
            (Some(_), _) => notes.push(format!("called{how}, it ran without a task")),
            (None, Some(_)) => notes.push(format!(
                "called{how}, it was refused with {}",
                reply.describe()
            )),
            (None, None) => problems.push(format!(
                "{label} called{how} without the tasks extension declared got {}",
                reply.describe()
            )),
        }
    }
    Ok(if problems.is_empty() {
        Observed::Holds(Some(format!("{label}: {}", notes.join("; "))))
    } else {
        problems.into_finding()
    })
}

pub(crate) async fn required_task_error(p: &mut Probe, _facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    // Whether or not a task tool is named, every listed tool that runs only
    // as a task (with the named arguments when it is the named one).
    let named = p.settings.task_tool.clone();
    let required: Vec<Candidate> = list_items(p, ch, "tools/list", "tools")
        .await
        .iter()
        .filter(|tool| declares_required(tool))
        .filter_map(|tool| {
            let name = tool.get("name")?.as_str()?.to_owned();
            let arguments = match &named {
                Some((named, arguments)) if *named == name => arguments.clone(),
                _ if callable_unnamed(tool) => json!({}),
                _ => return None,
            };
            Some(Candidate { name, arguments })
        })
        .take(MAX_CANDIDATES)
        .collect();
    if required.is_empty() {
        return Ok(Observed::NotApplicable(
            "no tool declares task support \"required\" (execution.taskSupport) or says in its \
             description that it runs only as a task"
                .into(),
        ));
    }
    let mut problems = Problems::default();
    for tool in required {
        let reply = p
            .call_stateless(ch, "tools/call", tool.params(), meta(STATELESS))
            .await;
        if reply.code() != Some(-32021) {
            problems.push(format!(
                "tool {:?}, which runs only as a task, called without the tasks extension \
                 declared got {}, not error -32021",
                tool.name,
                reply.describe_with_type()
            ));
            continue;
        }
        let named = reply
            .error()
            .and_then(|e| e.get("data"))
            .and_then(|d| d.get("requiredCapabilities"))
            .and_then(|c| c.get("extensions"))
            .and_then(|e| e.get(EXTENSION))
            .is_some();
        if !named {
            problems.push(format!(
                "the -32021 error for tool {:?} does not name the extension in \
                 data.requiredCapabilities.extensions[\"{EXTENSION}\"]",
                tool.name
            ));
        }
    }
    Ok(problems.into_finding())
}

/// Words that say a tool's work fails.
const FAIL_WORDS: &[&str] = &["fail", "tool error", "iserror"];

pub(crate) async fn tool_error_completed(p: &mut Probe, _facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let tools = task_tools_mentioning(p, ch, FAIL_WORDS).await;
    let mut tried = Vec::new();
    for tool in tools {
        let reply = p
            .call_stateless(ch, "tools/call", tool.params(), with_tasks())
            .await;
        let Some(result) = reply.result().filter(|r| is_task(r)).cloned() else {
            tried.push(format!(
                "tool {:?} got {}",
                tool.name,
                reply.describe_with_type()
            ));
            continue;
        };
        let created = Created { tool, result };
        let polled = poll(p, ch, &created, &|_| false).await?;
        let seen = polled.statuses.join(" → ");
        let Some(terminal) = polled.terminal else {
            tried.push(format!(
                "the task {} created did not finish within {} ({seen})",
                created.label(),
                mcptest_core::__support::fmt_duration(p.settings.timeout)
            ));
            continue;
        };
        let is_error = terminal
            .get("result")
            .and_then(|r| r.get("isError"))
            .is_some_and(|e| e == &json!(true));
        match status(&terminal) {
            Some("completed") if is_error => {
                return Ok(Observed::Holds(Some(format!(
                    "the task {} created completed with a tool error",
                    created.label()
                ))));
            }
            Some("failed") => {
                return Ok(Observed::Broken(format!(
                    "the task {} created, whose tool reports failure, ended \"failed\" ({seen}): \
                     a tool error is a completed task whose result has isError: true; \"failed\" \
                     is for protocol errors",
                    created.label()
                )));
            }
            other => tried.push(format!(
                "the task {} created ended {other:?} without a tool error",
                created.label()
            )),
        }
    }
    Ok(Observed::NotApplicable(if tried.is_empty() {
        "no task tool whose description says it fails was found".into()
    } else {
        format!("no task reported a tool error: {}", tried.join("; "))
    }))
}

/// A task id that is not the one a request names.
const OTHER_TASK: &str = "mcptest-other-task";

pub(crate) async fn routing_headers(p: &mut Probe, _facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let created = create_task(p, ch).await?;
    let task_id = created.require_id()?;
    let mut problems = Problems::default();
    let cases: [(&str, Option<&str>); 3] = [
        ("the task's id", Some(&task_id)),
        ("another task's id", Some(OTHER_TASK)),
        ("no Mcp-Name", None),
    ];
    for (what, name) in cases {
        let id = p.id();
        let message = stateless(id, "tasks/get", json!({ "taskId": task_id }), with_tasks());
        let mut headers: Vec<(String, String)> =
            message::routing_headers(Some(STATELESS), &message)
                .into_iter()
                .filter(|(header, _)| !header.eq_ignore_ascii_case("mcp-name"))
                .collect();
        if let Some(name) = name {
            headers.push(("Mcp-Name".to_owned(), name.to_owned()));
        }
        let reply = p.call_with_headers(ch, message, headers).await;
        let matching = name == Some(task_id.as_str());
        if matching && reply.result().is_none() {
            problems.push(format!(
                "tasks/get with Mcp-Name {what} got {}, not the task",
                reply.describe()
            ));
        }
        if !matching && (reply.status != Some(400) || reply.code() != Some(-32020)) {
            problems.push(format!(
                "tasks/get with {} got {}, not HTTP 400 with error -32020",
                match name {
                    Some(_) => format!("Mcp-Name {what}"),
                    None => what.to_owned(),
                },
                reply.describe_with_type()
            ));
        }
    }
    release(p, ch, Some(&task_id)).await;
    Ok(problems.into_finding())
}

/// The most rounds of input one task is given before it counts as not
/// resuming.
const MAX_ROUNDS: usize = 3;

/// The task tools whose name or description mentions one of `words`,
/// after the named task tool (when there is one).
async fn task_tools_mentioning(p: &mut Probe, ch: Ch, words: &[&str]) -> Vec<Candidate> {
    let mut tools: Vec<Candidate> = match p.settings.task_tool.clone() {
        Some((name, arguments)) => vec![Candidate { name, arguments }],
        None => Vec::new(),
    };
    for tool in list_items(p, ch, "tools/list", "tools").await {
        let speaks_of_tasks = matches!(task_support(&tool), Some("optional" | "required"))
            || mentions(&tool, TASK_WORDS);
        if callable_unnamed(&tool)
            && speaks_of_tasks
            && mentions(&tool, words)
            && let Some(name) = tool.get("name").and_then(Value::as_str)
            && !tools.iter().any(|t| t.name == name)
        {
            tools.push(Candidate {
                name: name.to_owned(),
                arguments: json!({}),
            });
        }
    }
    tools.truncate(MAX_CANDIDATES);
    tools
}

/// A task that asks for input, found among the task tools whose description
/// speaks of input (or the named task tool): its tool, the task, and the
/// `tasks/get` answer with status `input_required`.
async fn input_task(p: &mut Probe, ch: Ch) -> Result<(Created, Value), Observed> {
    let tools = task_tools_mentioning(p, ch, INPUT_WORDS).await;
    let mut tried = Vec::new();
    for tool in tools {
        let reply = p
            .call_stateless(ch, "tools/call", tool.params(), with_tasks())
            .await;
        let Some(result) = reply.result().filter(|r| is_task(r)).cloned() else {
            tried.push(format!(
                "tool {:?} got {}",
                tool.name,
                reply.describe_with_type()
            ));
            continue;
        };
        let created = Created { tool, result };
        let polled = poll(p, ch, &created, &|task| {
            status(task) == Some("input_required")
        })
        .await?;
        match polled.terminal {
            Some(task) if status(&task) == Some("input_required") => return Ok((created, task)),
            _ => tried.push(format!(
                "the task {} created went {} without asking for input",
                created.label(),
                polled.statuses.join(" → ")
            )),
        }
    }
    Err(Observed::NotApplicable(if tried.is_empty() {
        "no task tool whose description speaks of input (elicitation, sampling, roots, \
         confirmation) was found, and none was named with Conformance::task_tool"
            .into()
    } else {
        format!("no task asked for input: {}", tried.join("; "))
    }))
}

pub(crate) async fn input_required(p: &mut Probe, _facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let (created, mut parked) = input_task(p, ch).await?;
    let task_id = created.require_id()?;
    let mut problems = Problems::default();
    let mut answered: Vec<String> = Vec::new();
    for round in 1..=MAX_ROUNDS {
        let requests = match parked.get("inputRequests") {
            Some(Value::Object(requests)) if !requests.is_empty() => requests.clone(),
            other => {
                problems.push(format!(
                    "tasks/get reports status \"input_required\" with inputRequests {}, not a \
                     non-empty object of requests",
                    other.cloned().unwrap_or(Value::Null)
                ));
                return Ok(problems.into_finding());
            }
        };
        for (key, request) in &requests {
            match request.get("method").and_then(Value::as_str) {
                Some(method) if INPUT_METHODS.contains(&method) => {}
                other => problems.push(format!(
                    "inputRequests[{key:?}] asks with method {other:?}, none of {}",
                    INPUT_METHODS.join(", ")
                )),
            }
        }
        let params = json!({
            "taskId": task_id,
            "inputResponses": responses_for(&requests),
        });
        let reply = p
            .call_stateless(ch, "tasks/update", params, with_tasks())
            .await;
        ack_problems("tasks/update", &reply, &mut problems);
        if !problems.is_empty() {
            return Ok(problems.into_finding());
        }
        answered.extend(requests.keys().cloned());
        // Resumed: terminal, or asking for something not answered yet.
        let known = answered.clone();
        let polled = poll(p, ch, &created, &move |task| {
            status(task) == Some("input_required")
                && task
                    .get("inputRequests")
                    .and_then(Value::as_object)
                    .is_some_and(|r| r.keys().any(|k| !known.contains(k)))
        })
        .await?;
        let seen = polled.statuses.join(" → ");
        match polled.terminal {
            Some(task) if status(&task) == Some("input_required") => parked = task,
            Some(task) if status(&task) == Some("completed") => {
                return Ok(Observed::Holds(Some(format!(
                    "the task {} created asked for input {round} time{}, resumed after \
                     tasks/update and completed",
                    created.label(),
                    if round == 1 { "" } else { "s" }
                ))));
            }
            Some(task) => {
                return Ok(Observed::Broken(format!(
                    "after tasks/update answered every input request the task ended {:?}, not \
                     \"completed\" ({seen})",
                    status(&task).unwrap_or_default()
                )));
            }
            None => {
                return Ok(Observed::Broken(format!(
                    "the task did not resume after tasks/update answered every input request \
                     (within {}: {seen})",
                    mcptest_core::__support::fmt_duration(p.settings.timeout)
                )));
            }
        }
    }
    Ok(Observed::Broken(format!(
        "the task still asked for input after {MAX_ROUNDS} rounds of tasks/update"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_recognised_by_their_iso_8601_prefix() {
        assert!(is_iso8601("2026-07-28T10:30:00Z"));
        assert!(is_iso8601("2026-07-28T10:30:00.123+00:00"));
        assert!(!is_iso8601("2026-07-28 10:30"));
        assert!(!is_iso8601("May 4 2026"));
    }

    #[test]
    fn legacy_and_badly_typed_fields_are_problems() {
        let mut problems = Problems::default();
        field_problems(
            "it",
            &json!({
                "createdAt": "2026-07-28T10:30:00Z",
                "lastUpdatedAt": "2026-07-28T10:30:00Z",
                "ttlMs": 60000,
                "pollIntervalMs": 500,
            }),
            &mut problems,
        );
        assert!(problems.is_empty());
        field_problems(
            "it",
            &json!({ "createdAt": 5, "ttl": 1, "ttlMs": 1.5, "requestState": "x" }),
            &mut problems,
        );
        let Observed::Broken(reason) = problems.into_finding() else {
            panic!("problems were found")
        };
        for part in [
            "createdAt 5",
            "no lastUpdatedAt",
            "ttlMs 1.5",
            "\"ttl\"",
            "requestState",
        ] {
            assert!(reason.contains(part), "{reason}");
        }
    }

    #[test]
    fn required_task_support_is_read_from_the_listing_or_the_description() {
        assert!(declares_required(
            &json!({ "name": "a", "execution": { "taskSupport": "required" } })
        ));
        assert!(declares_required(
            &json!({ "name": "b", "description": "Runs only as a task." })
        ));
        assert!(!declares_required(
            &json!({ "name": "c", "execution": { "taskSupport": "optional" } })
        ));
    }
}
