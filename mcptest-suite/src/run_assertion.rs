//! Running one mcp-assert assertion through the harness.

use std::{collections::BTreeMap, path::Path, time::Duration};

use serde_json::{Map, Value, json};

use mcptest_suite_format::assertion::{
    Assertion, Block, CompletionBlock, Expect, LoggingBlock, NotificationsBlock, PromptAction,
    PromptsBlock, ResourceAction, ResourcesBlock, ServerSpec, SetupStep, ToolBlock, TraceEntry,
    TraceSource, TrajectoryBlock,
};

use crate::{
    checks::{self, as_compared},
    context::TestContext,
    judged::Judged,
    lane::skipped_in,
    outcome::{outcome, timed_out},
    substitute,
};
use mcptest_core::CompletionRef;
use mcptest_core::Elicitation;
use mcptest_core::McpClient;
use mcptest_core::Roots;
use mcptest_core::Sampling;
use mcptest_core::Server;
use mcptest_core::ServerMessages;
use mcptest_core::ToolCall;
use mcptest_core::ToolOutcome;
use mcptest_core::expect::Failure;
use mcptest_core::expect::Miss;
use mcptest_core::report::Outcome;
use rmcp::model::Root;

/// mcp-assert's default per-assertion timeout.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// How long notifications that trail an answer are waited for.
const SETTLE: Duration = Duration::from_millis(100);
/// The longest wait for a notification count to be reached.
const NOTIFICATION_WAIT: Duration = Duration::from_secs(2);

pub(crate) async fn run(a: &Assertion, cx: &TestContext<'_>) -> Outcome {
    if a.skip {
        return Outcome::skip(skipped_in(cx.file));
    }
    if let Some(var) = &a.skip_unless_env
        && std::env::var_os(var).is_none_or(|v| v.is_empty())
    {
        return Outcome::skip(format!(
            "environment variable {var} is not set (skip_unless_env)"
        ));
    }
    if let Some(block) = a.checks_nothing() {
        return Outcome::error(
            format!("at least one expectation in `{block}`"),
            "there is none (no `expect`, or an empty one), so the file would pass whatever the server does",
        );
    }
    let fixture = match cx.copy_fixture() {
        Ok(f) => f,
        Err(message) => return Outcome::error("a fresh copy of the fixture directory", message),
    };
    let fixture_path = fixture.as_ref().map(|f| f.path().to_path_buf());
    if let Block::Trajectory(block) = &a.block {
        return outcome(trajectory(block, fixture_path.as_deref()), fixture);
    }
    let timeout = a.timeout.unwrap_or(cx.timeout.unwrap_or(DEFAULT_TIMEOUT));
    let server = match server(a, cx, fixture_path.as_deref(), timeout) {
        Ok(s) => s,
        Err(message) => return Outcome::error("a server to run the file against", message),
    };
    // Every wait inside has its own timeout; this bounds the sum of them.
    let guard = timeout * 4 + Duration::from_secs(10);
    let result = tokio::time::timeout(guard, async {
        let mcp = server.connect().await.map_err(|e| {
            Failure::expecting("the server to start and answer the handshake").but(e.to_string())
        })?;
        let mut result = run_block(a, &mcp, fixture_path.as_deref(), timeout).await;
        // A server message that broke the schema outside an answer fails the
        // test here, in its report, rather than at close.
        if let Some(unchecked) = mcp.take_unchecked()
            && result.is_ok()
        {
            result = Err(Failure::expecting(
                "every message of the server to fit the MCP schema of its revision",
            )
            .but(unchecked.trim_start_matches("mcptest: ").to_owned()));
        }
        cx.stop_later(async move {
            mcp.close().await;
        });
        result
    })
    .await
    .unwrap_or_else(|_| Err(timed_out("assertion", guard)));
    cx.remove_after_stop(&fixture);
    outcome(result, fixture)
}

fn server(
    a: &Assertion,
    cx: &TestContext<'_>,
    fixture: Option<&Path>,
    timeout: Duration,
) -> Result<Server, String> {
    let names_server = a
        .server
        .as_ref()
        .is_some_and(|s| s.http || s.command.is_some());
    let mut server = match &a.server {
        Some(spec) if names_server && !cx.replace_server => from_spec(spec, fixture, None)?,
        Some(spec) => from_spec(spec, fixture, Some(default(cx)?))?,
        None => default(cx)?,
    };
    // mcp-assert's precedence: the file's `docker:`, else the run's
    // (`--docker`); a server reached at a URL runs no command to contain.
    let image = a
        .server
        .as_ref()
        .and_then(|s| s.docker.as_deref())
        .or(cx.container);
    if let Some(image) = image
        && server.is_process()
    {
        server = server.container(image);
    }
    // The file's own `auth:` wins over the run's credentials.
    let auth = a.server.as_ref().and_then(|s| s.auth.as_ref()).or(cx.auth);
    if let Some(auth) = auth
        && (server.is_http() || server.is_sse())
    {
        server = crate::auth::authorize(server, auth)?;
    }
    if let Block::Sampling(s) = &a.block {
        server = server.sampling(
            Sampling::text(&s.mock_text)
                .model(s.mock_model.as_deref().unwrap_or("mock"))
                .stop_reason("end_turn"),
        );
    }
    server = server.timeout(timeout).connect_timeout(timeout);
    if let Some(mode) = cx.wire_schema {
        server = server.wire_schema(mode);
    }
    if let Some(dir) = fixture {
        server = server.fixture_dir(dir);
    }
    if cx.shared {
        server = server.shared();
    }
    Ok(cx.recording(server))
}

fn default(cx: &TestContext<'_>) -> Result<Server, String> {
    cx.default_server.clone().ok_or_else(|| {
        "the file names none (no `command` or `url` in `server:`) and the suite gives \
         no default (add it to the file, `--server` to `mcptest run`, or `server = ..` to `mcptest::suite!`)"
            .to_owned()
    })
}

/// The server a `server:` block describes; `base` is the suite's default
/// server when the block names none (then only `env` and
/// `client_capabilities` apply).
fn from_spec(
    spec: &ServerSpec,
    fixture: Option<&Path>,
    base: Option<Server>,
) -> Result<Server, String> {
    let mut server = if let Some(base) = base {
        base
    } else if spec.http {
        #[cfg(feature = "http")]
        {
            let url = spec.url.clone().unwrap_or_default();
            let mut s = match spec.sse {
                true => Server::sse(url),
                false => Server::url(url),
            };
            for (k, v) in &spec.headers {
                s = s.header(k, v);
            }
            s
        }
        #[cfg(not(feature = "http"))]
        return Err(format!(
            "`transport: {}` needs mcptest's `http` feature",
            if spec.sse { "sse" } else { "http" }
        ));
    } else {
        let command = spec.command.clone().unwrap_or_default();
        match &spec.args {
            Some(args) => Server::program(command).args(args),
            None => Server::command(&command),
        }
    };
    // mcp-assert's meaning: `{{fixture}}`, then `$VAR` / `${VAR}` /
    // `${VAR:-default}`, an unset variable becoming "".
    for (k, v) in &spec.env {
        server = server.env_lenient(k, &substitute::fixture(v, fixture));
    }
    if !spec.roots.is_empty() {
        let roots = spec.roots.iter().map(|path| {
            let path = substitute::fixture(path, fixture);
            let uri = if path.contains("://") {
                path.clone()
            } else {
                format!("file://{path}")
            };
            let mut root = Root::new(uri);
            root.name = Path::new(&path)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned());
            root
        });
        server = server.roots(Roots::list(roots));
    }
    if let Some(s) = &spec.sampling {
        server = server.sampling(
            Sampling::text(&s.text)
                .model(&s.model)
                .stop_reason(&s.stop_reason),
        );
    }
    if let Some(e) = &spec.elicitation {
        let content = match e.get("content") {
            Some(c) => c.clone(),
            None => Value::Object(
                e.as_object()
                    .into_iter()
                    .flatten()
                    .filter(|(k, _)| *k != "action")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            ),
        };
        server = server.elicitation(match e.get("action").and_then(Value::as_str) {
            Some("decline") => Elicitation::decline(),
            Some("cancel") => Elicitation::cancel(),
            _ => Elicitation::accept(content),
        });
    }
    Ok(server)
}

/// A result as JSON text with its keys in the protocol's order (the order
/// the SDKs send and mcp-assert compares), not sorted: `contains` and
/// `in_order` on `{"type":"resource",...}` see what the server sent.
fn as_sent<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn describe_call(tool: &str, args: &Value) -> String {
    format!("tools/call {tool} {args}")
}

async fn run_block(
    a: &Assertion,
    mcp: &McpClient,
    fixture: Option<&Path>,
    timeout: Duration,
) -> Result<(), Failure> {
    // Resource subscriptions come first, so setup steps can cause updates.
    if let Block::Resources(ResourcesBlock {
        subscribe: Some(uri),
        ..
    }) = &a.block
    {
        let uri = substitute::fixture(uri, fixture);
        let called = format!("resources/subscribe {uri}");
        answer(
            &called,
            "resources/subscribe to succeed",
            mcp.subscribe(&uri),
        )
        .await?;
    }
    let vars = setup(&a.setup, mcp, fixture).await?;
    match &a.block {
        Block::Tool(block) => tool(block, mcp, fixture, &vars).await,
        Block::Sampling(s) => {
            let block = ToolBlock {
                tool: s.tool.clone(),
                args: s.args.clone(),
                capture_progress: false,
                expect: s.expect.clone(),
            };
            tool(&block, mcp, fixture, &vars).await
        }
        Block::Resources(block) => resources(block, mcp, fixture, timeout).await,
        Block::Prompts(block) => prompts(block, mcp, fixture, &vars).await,
        Block::Completion(block) => completion(block, mcp).await,
        Block::Logging(block) => logging(block, mcp, fixture, &vars).await,
        Block::Notifications(block) => notifications(block, mcp, fixture, &vars).await,
        Block::Trajectory(_) => unreachable!("trajectories run without a server"),
    }
}

async fn setup(
    steps: &[SetupStep],
    mcp: &McpClient,
    fixture: Option<&Path>,
) -> Result<BTreeMap<String, String>, Failure> {
    let mut vars = BTreeMap::new();
    for (i, step) in steps.iter().enumerate() {
        let args = substitute::value(&step.args, fixture, &vars);
        let Answered { called, text, .. } =
            call_tool(mcp, &step.tool, args).await.map_err(|f| {
                f.map_expected(|_| format!("setup step {} (`{}`) to be answered", i + 1, step.tool))
            })?;
        for (name, path) in &step.capture {
            let value = capture(&text, path).map_err(|why| {
                Failure::expecting(format!(
                    "setup step {} to capture `{name}` from {path}",
                    i + 1
                ))
                .called(&called)
                .but(why)
                .got_text(&text)
            })?;
            vars.insert(name.clone(), value);
        }
    }
    Ok(vars)
}

fn capture(text: &str, path: &str) -> Result<String, String> {
    let doc: Value =
        serde_json::from_str(text).map_err(|e| format!("the text is not JSON ({e})"))?;
    checks::lookup(&doc, path).map(as_compared)
}

/// A request's answer; its error is the failure "expected `expected`,
/// called `called`, but <the error>".
async fn answer<T, E: std::fmt::Display>(
    called: &str,
    expected: &str,
    request: impl std::future::Future<Output = Result<T, E>>,
) -> Result<T, Failure> {
    request.await.map_err(|e| {
        Failure::expecting(expected)
            .called(called)
            .but(e.to_string())
    })
}

/// A tool call the server answered: the call, how it is described in
/// messages, its text and isError.
struct Answered {
    call: ToolCall,
    called: String,
    text: String,
    is_error: bool,
}

/// Calls `tool`; a JSON-RPC error or a broken connection is a failure that
/// names the call.
async fn call_tool(mcp: &McpClient, tool: &str, args: Value) -> Result<Answered, Failure> {
    let called = describe_call(tool, &args);
    let call = mcp.call_tool(tool, args).await;
    let answered = match call.outcome() {
        ToolOutcome::Success(_) | ToolOutcome::ToolError(_) => {
            Ok((call.text(), call.is_tool_error()))
        }
        ToolOutcome::RpcError(e) => Err(Failure::expecting("a tool result")
            .but(format!("the server answered with {e}"))
            .output(call.server_output())),
        ToolOutcome::Failed(e) => Err(Failure::expecting("a tool result").but(e.to_string())),
    };
    let (text, is_error) = answered.map_err(|f| f.called(&called))?;
    Ok(Answered {
        call,
        called,
        text,
        is_error,
    })
}

async fn tool(
    block: &ToolBlock,
    mcp: &McpClient,
    fixture: Option<&Path>,
    vars: &BTreeMap<String, String>,
) -> Result<(), Failure> {
    let args = substitute::value(&block.args, fixture, vars);
    let mut snapshots = BTreeMap::new();
    for path in &block.expect.file_unchanged {
        snapshots.insert(
            path.clone(),
            std::fs::read(checks::file_path(path, fixture)).ok(),
        );
    }
    let Answered {
        call,
        called,
        text,
        is_error,
    } = call_tool(mcp, &block.tool, args).await?;
    let answer = Judged {
        text: &text,
        is_error,
        fixture,
        snapshots: &snapshots,
        progress: block.capture_progress.then(|| call.progress().len()),
    };
    checks::check(&block.expect, &answer)
        .map_err(|miss| Failure::new(Some(called), vec![miss], call.server_output()))
}

fn no_files() -> &'static BTreeMap<String, Option<Vec<u8>>> {
    static EMPTY: BTreeMap<String, Option<Vec<u8>>> = BTreeMap::new();
    &EMPTY
}

fn check_text(
    expect: &Expect,
    text: &str,
    called: &str,
    mcp: &McpClient,
    fixture: Option<&Path>,
) -> Result<(), Failure> {
    let answer = Judged {
        text,
        is_error: false,
        fixture,
        snapshots: no_files(),
        progress: None,
    };
    checks::check(expect, &answer).map_err(|miss| failed(miss, called, mcp))
}

async fn resources(
    block: &ResourcesBlock,
    mcp: &McpClient,
    fixture: Option<&Path>,
    timeout: Duration,
) -> Result<(), Failure> {
    match &block.action {
        ResourceAction::List { cursor } => {
            let called = format!(
                "resources/list{}",
                cursor
                    .as_deref()
                    .map(|c| format!(" cursor={c}"))
                    .unwrap_or_default()
            );
            let page = mcp.list_resources_page(cursor.as_deref());
            let reply = answer(&called, "an answer to resources/list", page).await?;
            check_text(
                &block.expect,
                &as_sent(reply.value()),
                &called,
                mcp,
                fixture,
            )?;
        }
        ResourceAction::Read(uri) => {
            let uri = substitute::fixture(uri, fixture);
            let called = format!("resources/read {uri}");
            let read = mcp.read_resource(&uri);
            let reply = answer(&called, "an answer to resources/read", read).await?;
            let raw = reply.raw().first().cloned().unwrap_or(Value::Null);
            let parts: Vec<String> = raw
                .get("contents")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|c| {
                    match (
                        c.get("text").and_then(Value::as_str),
                        c.get("blob").and_then(Value::as_str),
                    ) {
                        (Some(text), _) => text.to_owned(),
                        (None, Some(blob)) => format!(
                            "<blob mimeType={:?} len={}>",
                            c.get("mimeType")
                                .and_then(Value::as_str)
                                .unwrap_or_default(),
                            blob.len()
                        ),
                        _ => c.to_string(),
                    }
                })
                .collect();
            check_text(&block.expect, &parts.join("\n"), &called, mcp, fixture)?;
        }
        ResourceAction::None => {}
    }
    if let (Some(want), Some(uri)) = (block.expect_notification, &block.subscribe) {
        let uri = substitute::fixture(uri, fixture);
        let log = mcp.server_messages();
        let wait = timeout.min(NOTIFICATION_WAIT);
        if want {
            log.wait_for_resource_updated(&uri, wait)
                .await
                .map_err(|e| {
                    Failure::expecting(format!(
                        "notifications/resources/updated for {uri} (expect_notification: true)"
                    ))
                    .but(e.to_string())
                    .output(mcp.origin().server_output())
                })?;
        } else {
            tokio::time::sleep(SETTLE).await;
            let updates = log.filter(|m| m.method == "notifications/resources/updated");
            if let Some(update) = updates.first() {
                return Err(Failure::expecting(format!(
                    "no notifications/resources/updated for {uri} (expect_notification: false)"
                ))
                .but(format!("one arrived: {update}")));
            }
        }
    }
    if let Some(uri) = &block.unsubscribe {
        let uri = substitute::fixture(uri, fixture);
        let called = format!("resources/unsubscribe {uri}");
        answer(
            &called,
            "resources/unsubscribe to succeed",
            mcp.unsubscribe(&uri),
        )
        .await?;
    }
    Ok(())
}

async fn prompts(
    block: &PromptsBlock,
    mcp: &McpClient,
    fixture: Option<&Path>,
    vars: &BTreeMap<String, String>,
) -> Result<(), Failure> {
    match &block.action {
        PromptAction::List { cursor } => {
            let called = "prompts/list".to_owned();
            let page = mcp.list_prompts_page(cursor.as_deref());
            let reply = answer(&called, "an answer to prompts/list", page).await?;
            check_text(
                &block.expect,
                &as_sent(reply.value()),
                &called,
                mcp,
                fixture,
            )
        }
        PromptAction::Get { name, arguments } => {
            let name = substitute::value(&json!(name), fixture, vars)
                .as_str()
                .unwrap_or_default()
                .to_owned();
            let args: Map<String, Value> = arguments
                .iter()
                .map(|(k, v)| (k.clone(), substitute::value(&json!(v), fixture, vars)))
                .collect();
            let args = Value::Object(args);
            let called = format!("prompts/get {name} {args}");
            let get = mcp.get_prompt(&name, args);
            let reply = answer(&called, "an answer to prompts/get", get).await?;
            let raw = reply.raw().first().cloned().unwrap_or(Value::Null);
            let mut parts = Vec::new();
            if let Some(d) = raw
                .get("description")
                .and_then(Value::as_str)
                .filter(|d| !d.is_empty())
            {
                parts.push(d.to_owned());
            }
            for message in &reply.value().messages {
                match message.content.as_text() {
                    Some(text) => parts.push(text.text.clone()),
                    None => parts.push(as_sent(&message.content)),
                }
            }
            check_text(&block.expect, &parts.join("\n"), &called, mcp, fixture)
        }
    }
}

async fn completion(block: &CompletionBlock, mcp: &McpClient) -> Result<(), Failure> {
    let reference = if block.prompt {
        CompletionRef::prompt(&block.name)
    } else {
        CompletionRef::resource(&block.name)
    };
    let called = format!(
        "completion/complete {} {}={:?}",
        block.name, block.argument, block.value
    );
    let complete = mcp.complete(reference, &block.argument, &block.value);
    let reply = answer(&called, "an answer to completion/complete", complete).await?;
    check_text(&block.expect, &as_sent(reply.value()), &called, mcp, None)
}

/// Waits until `count` messages match (at most [`NOTIFICATION_WAIT`]), or
/// for the trailing ones to settle when no count is wanted.
async fn settle(
    mcp: &McpClient,
    count: Option<usize>,
    matching: impl Fn(&mcptest_core::ServerMessage) -> bool,
) {
    match count {
        Some(n) if n > 0 => {
            let _ = mcp
                .server_messages()
                .wait_for_count("", matching, n, NOTIFICATION_WAIT)
                .await;
        }
        _ => tokio::time::sleep(SETTLE).await,
    }
}

async fn logging(
    block: &LoggingBlock,
    mcp: &McpClient,
    fixture: Option<&Path>,
    vars: &BTreeMap<String, String>,
) -> Result<(), Failure> {
    let level = checks::log_level(&block.set_level);
    let mut called = format!("logging/setLevel {level}");
    answer(
        &called,
        "logging/setLevel to succeed",
        mcp.set_log_level(level),
    )
    .await?;
    if let Some((tool, args)) = &block.tool {
        let args = substitute::value(args, fixture, vars);
        called = call_tool(mcp, tool, args).await?.called;
    }
    settle(mcp, block.min_messages, |m| {
        m.method == "notifications/message"
    })
    .await;
    checks::first_miss(&checks::logging(block), &mcp.server_messages())
        .map_err(|miss| failed(miss, &called, mcp))
}

async fn notifications(
    block: &NotificationsBlock,
    mcp: &McpClient,
    fixture: Option<&Path>,
    vars: &BTreeMap<String, String>,
) -> Result<(), Failure> {
    let args = substitute::value(&block.args, fixture, vars);
    let called = call_tool(mcp, &block.tool, args).await?.called;
    settle(mcp, block.min_count, |m| !m.is_request()).await;
    // mcp-assert sees notifications only, not the server's requests.
    let heard = ServerMessages::from_messages(
        mcp.server_messages()
            .filter(|m| !m.is_request())
            .into_iter()
            .map(|m| json!({"method": m.method, "params": m.params})),
    );
    checks::first_miss(&checks::notifications(block), &heard)
        .map_err(|miss| failed(miss, &called, mcp))
}

/// The failure of a check on what `called` brought back, with what the
/// server printed: the layout every check shares.
fn failed(miss: Miss, called: &str, mcp: &McpClient) -> Failure {
    Failure::new(
        Some(called.to_owned()),
        vec![miss],
        mcp.origin().server_output(),
    )
}

fn trajectory(block: &TrajectoryBlock, fixture: Option<&Path>) -> Result<(), Failure> {
    let trace = match &block.trace {
        TraceSource::Inline(entries) => entries.clone(),
        // A relative path resolves against the working directory of the run,
        // as mcp-assert resolves it.
        TraceSource::AuditLog(path) => {
            let path = substitute::fixture(path, fixture);
            let trace = audit_log(Path::new(&path))?;
            if trace.is_empty() {
                return Err(Failure::expecting(format!(
                    "tool calls in the audit log {path} (a trajectory checks them)"
                ))
                .but("it has none: every line is blank or names no `tool`, so nothing would be checked"));
            }
            trace
        }
    };
    if trace.is_empty() {
        return Err(
            Failure::expecting("tool calls in `trace` (a trajectory checks them)")
                .but("the trace is empty, so nothing would be checked"),
        );
    }
    let checks: Vec<checks::Traced> = block.checks.iter().map(checks::Traced).collect();
    checks::first_miss(&checks, trace.as_slice()).map_err(Failure::from_miss)
}

fn audit_log(path: &Path) -> Result<Vec<TraceEntry>, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Failure::expecting(format!("the audit log {}", path.display()))
            .but(format!("it cannot be read: {e}"))
    })?;
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|e| {
            Failure::expecting(format!("JSON lines in the audit log {}", path.display()))
                .but(format!("line {} is not JSON: {e}", i + 1))
        })?;
        if let Some(tool) = value
            .get("tool")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
        {
            entries.push(TraceEntry {
                tool: tool.to_owned(),
                args: value
                    .get("args")
                    .filter(|a| a.is_object())
                    .cloned()
                    .unwrap_or(Value::Object(Map::new())),
            });
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::CompleteResult;
    use rmcp::model::CompletionInfo;
    use rmcp::model::ListResourcesResult;
    use rmcp::model::Resource;

    #[test]
    fn results_compared_as_json_keep_the_protocol_key_order() {
        let list =
            ListResourcesResult::with_all_items(vec![Resource::new("fixture://a", "a-name")]);
        let text = as_sent(&list);
        assert!(
            text.find("\"uri\"").unwrap() < text.find("\"name\"").unwrap(),
            "{text}"
        );
        let completion = CompleteResult::new(CompletionInfo::new(vec!["x".into()]).unwrap());
        let text = as_sent(&completion);
        assert!(text.contains("\"completion\":{\"values\""), "{text}");
    }
}
