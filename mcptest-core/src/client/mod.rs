//! The harness: one typed async method per MCP request.

pub(crate) mod answers;
pub(crate) mod connect;
mod handler;
pub(crate) mod options;
mod requests;
mod results;

use std::{
    process::ExitStatus,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use rmcp::{
    ErrorData, RoleClient, ServiceError,
    model::{
        ClientNotification, ClientRequest, CompleteResult, CustomNotification, CustomRequest,
        GetPromptResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
        ListToolsResult, ProgressToken, Prompt, ReadResourceResult, RequestId, Resource,
        ResourceTemplate, Tool,
    },
    service::{Peer, PeerRequestOptions, RunningService},
};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use handler::Harness;
use results::{FailureWatch, Unexamined};
pub use results::{Origin, Reply, Request, RpcError, ServerInfo, ToolCall, ToolOutcome};

use crate::{
    error::{Error, describe_failure},
    server_messages::ListKind,
    server_messages::ServerMessage,
    server_messages::ServerMessages,
    transport::{endpoint::Endpoint, inbound::Inbound},
};

/// How many pages a `list_*` call follows before giving up on a server whose
/// cursors never end.
const MAX_PAGES: usize = 1000;
/// How many `input_required` rounds (stateless MCP) a request may take.
const MAX_INPUT_ROUNDS: usize = 8;
/// How long past a request's time-out rmcp may try to send its cancellation.
const CANCEL_WAIT: Duration = Duration::from_secs(1);

/// A connection to the server under test.
///
/// Get one from [`Server::connect`](crate::Server::connect). Every method sends
/// one MCP request (a `list_*` method follows every page) and returns an owned
/// result that remembers the request. Cloning is cheap and shares the
/// connection.
///
/// When the last clone is dropped — also when a test panics — the server's
/// stdin is closed, it gets a grace period to exit, then its whole process
/// group is killed and reaped. [`McpClient::close`] does the same and returns
/// the exit status.
///
/// ```no_run
/// use mcptest::prelude::*;
///
/// # async fn demo() -> Result<(), mcptest::Error> {
/// let mcp = Server::command("my-mcp-server --stdio").connect().await?;
/// let tools = mcp.list_tools().await?;
/// let call = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
/// assert_eq!(call.text(), "5");
/// mcp.close().await;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct McpClient {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient")
            .field("server", &self.inner.info.name)
            .field(
                "protocol_version",
                &self.inner.info.protocol_version.as_str(),
            )
            .field("pid", &self.pid())
            .finish_non_exhaustive()
    }
}

/// One client's state. The connection itself ([`Link`]) may be shared by
/// several clients: views of a shared server (see [`Server::shared`](crate::Server::shared)).
struct Inner {
    link: Arc<Link>,
    /// True for a view of a shared connection: closing it leaves the server running.
    view: bool,
    peer: Peer<RoleClient>,
    inbound: Arc<Inbound>,
    /// What [`McpClient::server_messages`] shows: the whole log, or a view's part of it.
    notifications: ServerMessages,
    info: ServerInfo,
    request_timeout: Duration,
    fetch_tool_definitions: bool,
    tools: tokio::sync::Mutex<Option<KnownTools>>,
    /// The mocks, for answering `input_required` rounds of stateless servers.
    harness: Arc<Harness>,
    fixture_dir: Option<Arc<std::path::Path>>,
    /// Failed calls the test dropped without looking at them.
    unexamined: Unexamined,
}

impl Drop for Inner {
    /// The last clone of a client that was never closed still fails the
    /// test for what went unchecked (unless it is failing already).
    fn drop(&mut self) {
        if let Some(message) = unchecked_message(&self.unexamined, &self.inbound)
            && !std::thread::panicking()
        {
            panic!("{message}");
        }
    }
}

/// What fails the test when a client is closed, if anything (each reported
/// once): the failed calls nobody looked at, and the server's messages that
/// broke the schema and failed no request.
fn unchecked_message(unexamined: &Unexamined, inbound: &Inbound) -> Option<String> {
    let mut parts = Vec::new();
    parts.extend(unexamined_message(unexamined));
    let (violations, more) = inbound.schema.take_unreported();
    if !violations.is_empty() {
        let mut message = format!(
            "mcptest: the server sent {} message{} that break{} the MCP schema:",
            violations.len() + more,
            if violations.len() + more == 1 {
                ""
            } else {
                "s"
            },
            if violations.len() + more == 1 {
                "s"
            } else {
                ""
            },
        );
        for violation in &violations {
            message.push_str("\n  ");
            message.push_str(&violation.replace('\n', "\n    "));
        }
        if more > 0 {
            message.push_str(&format!("\n  … and {more} more"));
        }
        message.push_str(
            "\nfix the server, or let the test go on with `Server::wire_schema(WireSchema::Warn)`",
        );
        parts.push(message);
    }
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

/// The failure message for the failed calls nobody looked at, if any (and
/// forgets them: each is reported once).
fn unexamined_message(unexamined: &Unexamined) -> Option<String> {
    let failures = std::mem::take(&mut *unexamined.lock().unwrap_or_else(|p| p.into_inner()));
    if failures.is_empty() {
        return None;
    }
    let mut message = if failures.len() == 1 {
        "mcptest: a request got no answer and the test never looked at it:".to_owned()
    } else {
        format!(
            "mcptest: {} requests got no answer and the test never looked at them:",
            failures.len()
        )
    };
    for failure in &failures {
        message.push_str("\n  ");
        message.push_str(&failure.replace('\n', "\n    "));
    }
    message.push_str(
        "\nlook at each result (e.g. `.assert_success()`); to expect the failure, \
         say so with `.assert_failed()`",
    );
    Some(message)
}

/// The connection: rmcp's service and the server end. Field order matters:
/// on drop, rmcp's service is cancelled before the endpoint stops the server.
pub(crate) struct Link {
    service: Mutex<Option<RunningService<RoleClient, Arc<Harness>>>>,
    endpoint: Endpoint,
}

struct KnownTools {
    tools: Vec<Tool>,
    /// `tools/list_changed` notifications seen when the list was fetched.
    changes_seen: usize,
}

/// A request on its way: its id and rmcp's handle for the answer.
type Sent = (RequestId, rmcp::service::RequestHandle<RoleClient>);

/// What came back for one request.
struct Answer {
    result: Value,
    elapsed: Duration,
}

impl McpClient {
    /// Who the server is and what it declared, from the handshake.
    pub fn server_info(&self) -> &ServerInfo {
        &self.inner.info
    }

    /// Everything the server sent on its own (notifications, and requests to
    /// the client), in arrival order; a live view. On a
    /// [shared](crate::Server::shared) server: what arrived since this test
    /// connected, without the other tests' progress, and with every message
    /// not tied to this test's requests marked [`shared`](crate::ServerMessage::shared).
    pub fn server_messages(&self) -> ServerMessages {
        self.inner.notifications.clone()
    }

    /// The tail of the server's stderr (the last 64 KiB), for a server started
    /// as a process; empty otherwise.
    pub fn stderr(&self) -> String {
        self.inner
            .inbound
            .stderr
            .as_ref()
            .map(|s| s.text())
            .unwrap_or_default()
    }

    /// Lines the server wrote to stdout that were not JSON-RPC messages (the
    /// most recent 50).
    pub fn stdout_noise(&self) -> Vec<String> {
        self.inner.inbound.noise_lines().0
    }

    /// The server process's id, for a server started as a process.
    pub fn pid(&self) -> Option<u32> {
        self.inner.inbound.process.as_ref().and_then(|p| p.pid())
    }

    /// A handle that reports what the server printed, for results built outside
    /// the harness.
    pub fn origin(&self) -> Origin {
        Origin::new(
            self.inner.inbound.clone(),
            self.inner.fixture_dir.clone(),
            self.inner.unexamined.clone(),
        )
    }

    /// The test's fixture directory, given with
    /// [`Server::fixture_dir`](crate::Server::fixture_dir).
    pub fn fixture_dir(&self) -> Option<&std::path::Path> {
        self.inner.fixture_dir.as_deref()
    }

    /// `ping`.
    pub fn ping<'a>(&'a self) -> impl Future<Output = Result<(), Error>> + Send + 'a {
        crate::future::boxed(async move { self.request("ping", Value::Null, None).await.map(drop) })
    }

    /// `tools/list`, following every page.
    pub fn list_tools<'a>(
        &'a self,
    ) -> impl Future<Output = Result<Reply<Vec<Tool>>, Error>> + Send + 'a {
        crate::future::boxed(async move {
            let reply = self
                .list_all::<ListToolsResult, Tool>("tools/list", |page| {
                    (page.tools, page.next_cursor)
                })
                .await?;
            self.remember_tools(reply.value().clone()).await;
            Ok(reply)
        })
    }

    /// One page of `tools/list`, starting at `cursor`.
    pub fn list_tools_page<'a>(
        &'a self,
        cursor: Option<&'a str>,
    ) -> impl Future<Output = Result<Reply<ListToolsResult>, Error>> + Send + 'a {
        crate::future::boxed(async move { self.list_page("tools/list", cursor).await })
    }

    /// `prompts/list`, following every page.
    pub fn list_prompts<'a>(
        &'a self,
    ) -> impl Future<Output = Result<Reply<Vec<Prompt>>, Error>> + Send + 'a {
        crate::future::boxed(async move {
            self.list_all::<ListPromptsResult, Prompt>("prompts/list", |page| {
                (page.prompts, page.next_cursor)
            })
            .await
        })
    }

    /// One page of `prompts/list`, starting at `cursor`.
    pub fn list_prompts_page<'a>(
        &'a self,
        cursor: Option<&'a str>,
    ) -> impl Future<Output = Result<Reply<ListPromptsResult>, Error>> + Send + 'a {
        crate::future::boxed(async move { self.list_page("prompts/list", cursor).await })
    }

    /// `resources/list`, following every page.
    pub fn list_resources<'a>(
        &'a self,
    ) -> impl Future<Output = Result<Reply<Vec<Resource>>, Error>> + Send + 'a {
        crate::future::boxed(async move {
            self.list_all::<ListResourcesResult, Resource>("resources/list", |page| {
                (page.resources, page.next_cursor)
            })
            .await
        })
    }

    /// One page of `resources/list`, starting at `cursor`.
    pub fn list_resources_page<'a>(
        &'a self,
        cursor: Option<&'a str>,
    ) -> impl Future<Output = Result<Reply<ListResourcesResult>, Error>> + Send + 'a {
        crate::future::boxed(async move { self.list_page("resources/list", cursor).await })
    }

    /// `resources/templates/list`, following every page.
    pub fn list_resource_templates<'a>(
        &'a self,
    ) -> impl Future<Output = Result<Reply<Vec<ResourceTemplate>>, Error>> + Send + 'a {
        crate::future::boxed(async move {
            self.list_all::<ListResourceTemplatesResult, ResourceTemplate>(
                "resources/templates/list",
                |page| (page.resource_templates, page.next_cursor),
            )
            .await
        })
    }

    /// One page of `resources/templates/list`, starting at `cursor`: for a
    /// test of the server's paging itself; `list_resource_templates`
    /// follows every page.
    ///
    /// ```no_run
    /// # async fn demo(mcp: mcptest::McpClient) -> Result<(), mcptest::Error> {
    /// let first = mcp.list_resource_templates_page(None).await?;
    /// if let Some(cursor) = &first.next_cursor {
    ///     let second = mcp.list_resource_templates_page(Some(cursor)).await?;
    ///     assert!(!second.resource_templates.is_empty());
    /// }
    /// # Ok(()) }
    /// ```
    pub fn list_resource_templates_page<'a>(
        &'a self,
        cursor: Option<&'a str>,
    ) -> impl Future<Output = Result<Reply<ListResourceTemplatesResult>, Error>> + Send + 'a {
        crate::future::boxed(
            async move { self.list_page("resources/templates/list", cursor).await },
        )
    }

    /// `tools/call`. Never fails: a JSON-RPC error, `isError: true` and a broken
    /// connection are each a [`ToolOutcome`].
    ///
    /// `arguments` must be a JSON object (or `null` for none); to send
    /// malformed arguments on purpose, use [`request_raw`](Self::request_raw).
    pub fn call_tool<'a>(
        &'a self,
        name: &'a str,
        arguments: Value,
    ) -> impl Future<Output = ToolCall> + Send + 'a {
        crate::future::boxed(async move {
            match self.begin_tool_call(name, arguments).await {
                Ok(pending) => pending.finish().await,
                Err((call, error)) => call.failed(error),
            }
        })
    }

    /// `tools/call` with its own timeout instead of the connection's.
    pub fn call_tool_with_timeout<'a>(
        &'a self,
        name: &'a str,
        arguments: Value,
        timeout: Duration,
    ) -> impl Future<Output = ToolCall> + Send + 'a {
        crate::future::boxed(async move {
            match self.begin_tool_call(name, arguments).await {
                Ok(mut pending) => {
                    pending.timeout = timeout;
                    pending.finish().await
                }
                Err((call, error)) => call.failed(error),
            }
        })
    }

    /// Sends `tools/call` and returns without waiting for the answer, so the
    /// test can watch progress or cancel it.
    ///
    /// ```no_run
    /// # async fn demo(mcp: mcptest::McpClient) -> Result<(), mcptest::Error> {
    /// use serde_json::json;
    /// let pending = mcp.start_tool_call("slow", json!({"ms": 60_000})).await?;
    /// pending.cancel("the test changed its mind").await?;
    /// # Ok(()) }
    /// ```
    ///
    /// It fails only when the request cannot be sent (arguments that are not
    /// an object, a closed connection); how the call itself ends is in the
    /// [`ToolCall`] that [`PendingToolCall::finish`] returns.
    pub fn start_tool_call<'a>(
        &'a self,
        name: &'a str,
        arguments: Value,
    ) -> impl Future<Output = Result<PendingToolCall, Error>> + Send + 'a {
        crate::future::boxed(async move {
            self.begin_tool_call(name, arguments)
                .await
                .map_err(|(_, error)| error)
        })
    }

    /// [`start_tool_call`](Self::start_tool_call), keeping what is known of
    /// the call when it cannot be sent, so that it can still end as a
    /// failed [`ToolCall`].
    async fn begin_tool_call(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<PendingToolCall, (ToolCallStart, Error)> {
        let params = match &arguments {
            Value::Null => json!({ "name": name }),
            Value::Object(_) => json!({ "name": name, "arguments": arguments }),
            other => {
                let start = ToolCallStart::new(self, name, arguments.clone(), None);
                return Err((
                    start,
                    Error::InvalidConfig {
                        message: format!(
                            "tool arguments must be a JSON object or null, not {other}; \
                             use McpClient::request_raw to send malformed arguments on purpose"
                        ),
                    },
                ));
            }
        };
        let lookup = self.start_tool_lookup(name).await;
        let start = ToolCallStart::new(self, name, arguments, None);
        let started = Instant::now();
        match self.send("tools/call", &params).await {
            Ok((id, handle)) => Ok(PendingToolCall {
                client: self.clone(),
                start,
                lookup,
                params,
                id,
                handle,
                started,
                timeout: self.inner.request_timeout,
            }),
            Err(error) => Err((start, error)),
        }
    }

    /// `prompts/get` with `arguments` (a JSON object of strings, or `null`).
    pub fn get_prompt<'a>(
        &'a self,
        name: &'a str,
        arguments: Value,
    ) -> impl Future<Output = Result<Reply<GetPromptResult>, Error>> + Send + 'a {
        crate::future::boxed(async move {
            let params = if arguments.is_null() {
                json!({ "name": name })
            } else {
                json!({ "name": name, "arguments": arguments })
            };
            self.typed("prompts/get", params).await
        })
    }

    /// `resources/read`.
    pub fn read_resource<'a>(
        &'a self,
        uri: &'a str,
    ) -> impl Future<Output = Result<Reply<ReadResourceResult>, Error>> + Send + 'a {
        crate::future::boxed(
            async move { self.typed("resources/read", json!({ "uri": uri })).await },
        )
    }

    /// `resources/subscribe`.
    pub fn subscribe<'a>(
        &'a self,
        uri: &'a str,
    ) -> impl Future<Output = Result<(), Error>> + Send + 'a {
        crate::future::boxed(async move {
            self.request("resources/subscribe", json!({ "uri": uri }), None)
                .await
                .map(drop)
        })
    }

    /// `resources/unsubscribe`.
    pub fn unsubscribe<'a>(
        &'a self,
        uri: &'a str,
    ) -> impl Future<Output = Result<(), Error>> + Send + 'a {
        crate::future::boxed(async move {
            self.request("resources/unsubscribe", json!({ "uri": uri }), None)
                .await
                .map(drop)
        })
    }

    /// `completion/complete` for `argument` of a prompt or resource template,
    /// with the partial `value` typed so far.
    ///
    /// ```no_run
    /// # async fn demo(mcp: mcptest::McpClient) -> Result<(), mcptest::Error> {
    /// use mcptest::CompletionRef;
    /// let done = mcp.complete(CompletionRef::prompt("greeting"), "style", "fo").await?;
    /// assert_eq!(done.completion.values, ["formal"]);
    /// # Ok(()) }
    /// ```
    pub fn complete<'a>(
        &'a self,
        reference: CompletionRef,
        argument: &'a str,
        value: &'a str,
    ) -> impl Future<Output = Result<Reply<CompleteResult>, Error>> + Send + 'a {
        crate::future::boxed(async move {
            let params = json!({
                "ref": reference.to_json(),
                "argument": { "name": argument, "value": value },
            });
            self.typed("completion/complete", params).await
        })
    }

    /// `logging/setLevel`.
    pub fn set_log_level<'a>(
        &'a self,
        level: crate::server_messages::LogLevel,
    ) -> impl Future<Output = Result<(), Error>> + Send + 'a {
        crate::future::boxed(async move {
            self.request("logging/setLevel", json!({ "level": level }), None)
                .await
                .map(drop)
        })
    }

    /// Sends any request with exactly these params and returns the `result`
    /// member as JSON. The escape hatch for methods mcptest has no typed call
    /// for, and for sending what a typed call would refuse.
    pub fn request_raw<'a>(
        &'a self,
        method: &'a str,
        params: Value,
    ) -> impl Future<Output = Result<Value, Error>> + Send + 'a {
        crate::future::boxed(async move {
            let request = ClientRequest::CustomRequest(CustomRequest::new(
                method,
                (!params.is_null()).then_some(params),
            ));
            let (id, handle) = self.send_request(method, request).await?;
            self.await_answer(method, id, handle, self.inner.request_timeout)
                .await
                .map(|a| a.result)
        })
    }

    /// Sends a notification with exactly these params.
    pub fn notify_raw<'a>(
        &'a self,
        method: &'a str,
        params: Value,
    ) -> impl Future<Output = Result<(), Error>> + Send + 'a {
        crate::future::boxed(async move {
            let notification = ClientNotification::CustomNotification(CustomNotification::new(
                method,
                (!params.is_null()).then_some(params),
            ));
            self.inner
                .peer
                .send_notification(notification)
                .await
                .map_err(|e| self.error_sync(method, e))
        })
    }

    /// Closes the connection: stdin is closed, the server gets its grace
    /// period, then its process group is killed and reaped. Returns the
    /// server's exit status when it ran as a process.
    ///
    /// On a client of a [shared](crate::Server::shared) server this closes
    /// only this client's view: the server keeps running for the other tests,
    /// and `None` is returned.
    ///
    /// It fails the test (panics) when a call that got no answer was dropped
    /// without anyone looking at it (see [`ToolCall`]): the server is
    /// stopped first.
    pub fn close(self) -> impl Future<Output = Option<ExitStatus>> + Send {
        crate::future::boxed(async move {
            let status = if self.inner.view {
                None
            } else {
                let link = &self.inner.link;
                let service = link
                    .service
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .take();
                if let Some(mut service) = service {
                    let _ = service.close_with_timeout(link.endpoint.grace()).await;
                }
                link.endpoint.close().await
            };
            if let Some(message) = unchecked_message(&self.inner.unexamined, &self.inner.inbound)
                && !std::thread::panicking()
            {
                panic!("{message}");
            }
            status
        })
    }

    /// What [`close`](Self::close) would fail the test for, in words, taken
    /// now so that it is reported once, by the caller: the failed calls the
    /// test dropped without looking at them, and the server's messages that
    /// broke the MCP schema outside an answer (see
    /// [`Server::wire_schema`](crate::Server::wire_schema)). For runners
    /// that turn it into a test's failure instead of a panic (the suite
    /// runner does).
    ///
    /// ```no_run
    /// # async fn demo(mcp: mcptest::McpClient) {
    /// mcp.call_tool("add", serde_json::json!({"a": 1})).await.assert_success();
    /// if let Some(unchecked) = mcp.take_unchecked() {
    ///     eprintln!("{unchecked}");
    /// }
    /// mcp.close().await; // no panic: it was taken
    /// # }
    /// ```
    pub fn take_unchecked(&self) -> Option<String> {
        unchecked_message(&self.inner.unexamined, &self.inner.inbound)
    }

    /// A new client on the same connection, for one test of a shared
    /// server: its own request timeout, tool definitions and notifications
    /// view; closing it leaves the connection open.
    pub(crate) fn view(
        &self,
        request_timeout: Duration,
        fetch_tool_definitions: bool,
        fixture_dir: Option<Arc<std::path::Path>>,
    ) -> McpClient {
        let inner = &self.inner;
        McpClient {
            inner: Arc::new(Inner {
                link: inner.link.clone(),
                view: true,
                peer: inner.peer.clone(),
                inbound: inner.inbound.clone(),
                notifications: inner.inbound.notifications.view(),
                info: inner.info.clone(),
                request_timeout,
                fetch_tool_definitions,
                tools: tokio::sync::Mutex::new(None),
                harness: inner.harness.clone(),
                fixture_dir,
                unexamined: Unexamined::default(),
            }),
        }
    }

    /// False once the connection is known to be gone: the transport closed,
    /// the inbound stream ended, or the server process exited.
    pub(crate) fn is_alive(&self) -> bool {
        let inner = &self.inner;
        !inner.peer.is_transport_closed()
            && inner.inbound.closed_reason().is_none()
            && inner
                .inbound
                .process
                .as_ref()
                .is_none_or(|p| p.try_status().is_none())
    }

    /// True when both clients use one connection.
    pub(crate) fn same_connection(&self, other: &McpClient) -> bool {
        Arc::ptr_eq(&self.inner.link, &other.inner.link)
    }

    /// Stops the server from outside any runtime (at process exit): closes
    /// its input, gives it the grace period, kills its process group, reaps it.
    pub(crate) fn stop_blocking(&self) {
        self.inner.link.endpoint.stop_blocking();
    }

    // ---- plumbing ----

    async fn list_all<P: DeserializeOwned, T>(
        &self,
        method: &str,
        split: impl Fn(P) -> (Vec<T>, Option<String>),
    ) -> Result<Reply<Vec<T>>, Error> {
        let first = self.send(method, &Value::Null).await?;
        self.list_all_from(method, first, split).await
    }

    /// Follows the pages of a list whose first page was already requested.
    async fn list_all_from<P: DeserializeOwned, T>(
        &self,
        method: &str,
        first: Sent,
        split: impl Fn(P) -> (Vec<T>, Option<String>),
    ) -> Result<Reply<Vec<T>>, Error> {
        let started = Instant::now();
        let mut items = Vec::new();
        let mut raw = Vec::new();
        let mut cursor: Option<String> = None;
        let first_request = Request::new(method, Value::Null);
        let mut first = Some(first);
        for _ in 0..MAX_PAGES {
            let answer = match first.take() {
                Some((id, handle)) => {
                    let timeout = self.inner.request_timeout;
                    let answer = self.await_answer(method, id, handle, timeout).await?;
                    self.finish_input_rounds(method, Value::Null, answer, timeout)
                        .await?
                }
                None => {
                    let params = json!({ "cursor": cursor });
                    self.request(method, params, None).await?
                }
            };
            let page: P = decode(method, &answer.result, &self.inner.inbound)?;
            raw.push(answer.result);
            let (mut page_items, next) = split(page);
            items.append(&mut page_items);
            match next {
                Some(next) if !next.is_empty() => {
                    if cursor.as_deref() == Some(next.as_str()) {
                        return Err(Error::Protocol {
                            method: method.to_owned(),
                            reason: format!(
                                "the server returned the same nextCursor {next:?} twice"
                            ),
                            output: self.inner.inbound.output(),
                        });
                    }
                    cursor = Some(next);
                }
                _ => {
                    return Ok(Reply::new(
                        first_request,
                        items,
                        raw,
                        started.elapsed(),
                        self.origin(),
                    ));
                }
            }
        }
        Err(Error::Protocol {
            method: method.to_owned(),
            reason: format!("still more pages after {MAX_PAGES}; the cursors never end"),
            output: self.inner.inbound.output(),
        })
    }

    async fn list_page<P: DeserializeOwned>(
        &self,
        method: &str,
        cursor: Option<&str>,
    ) -> Result<Reply<P>, Error> {
        let params = match cursor {
            Some(cursor) => json!({ "cursor": cursor }),
            None => Value::Null,
        };
        self.typed(method, params).await
    }

    async fn typed<T: DeserializeOwned>(
        &self,
        method: &str,
        params: Value,
    ) -> Result<Reply<T>, Error> {
        let answer = self.request(method, params.clone(), None).await?;
        let value = decode(method, &answer.result, &self.inner.inbound)?;
        Ok(Reply::new(
            Request::new(method, params),
            value,
            vec![answer.result],
            answer.elapsed,
            self.origin(),
        ))
    }

    /// Sends a request and waits for its answer, answering any
    /// `input_required` rounds (stateless servers) from the mocks.
    async fn request(
        &self,
        method: &str,
        params: Value,
        timeout: Option<Duration>,
    ) -> Result<Answer, Error> {
        let timeout = timeout.unwrap_or(self.inner.request_timeout);
        let (id, handle) = self.send(method, &params).await?;
        let answer = self.await_answer(method, id, handle, timeout).await?;
        self.finish_input_rounds(method, params, answer, timeout)
            .await
    }

    async fn finish_input_rounds(
        &self,
        method: &str,
        mut params: Value,
        mut answer: Answer,
        timeout: Duration,
    ) -> Result<Answer, Error> {
        for _ in 0..MAX_INPUT_ROUNDS {
            if answer.result.get("resultType").and_then(Value::as_str) != Some("input_required") {
                return Ok(answer);
            }
            let responses = self.answer_input_requests(&answer.result).await;
            if let Value::Object(map) = &mut params {
                map.insert("inputResponses".into(), responses);
                match answer.result.get("requestState") {
                    Some(state) => map.insert("requestState".into(), state.clone()),
                    None => map.remove("requestState"),
                };
            }
            let (id, handle) = self.send(method, &params).await?;
            answer = self.await_answer(method, id, handle, timeout).await?;
        }
        Err(Error::Protocol {
            method: method.to_owned(),
            reason: format!("still input_required after {MAX_INPUT_ROUNDS} rounds"),
            output: self.inner.inbound.output(),
        })
    }

    async fn answer_input_requests(&self, result: &Value) -> Value {
        let mut responses = serde_json::Map::new();
        let Some(requests) = result.get("inputRequests").and_then(Value::as_object) else {
            return Value::Object(responses);
        };
        let log = &self.inner.inbound.notifications;
        for (key, request) in requests {
            let method = request
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let params = request.get("params").cloned().unwrap_or(Value::Null);
            log.record(json!({ "id": format!("input:{key}"), "method": method, "params": params }));
            let answer = self.inner.harness.answer_input(method, params).await;
            let reply = match answer {
                Ok(value) => value,
                Err(error) => json!({ "error": error }),
            };
            log.record_reply(
                &RequestId::String(format!("input:{key}").into()),
                reply.clone(),
            );
            responses.insert(key.clone(), reply);
        }
        Value::Object(responses)
    }

    /// Sends `method` with `params` as a typed rmcp request. The params are
    /// borrowed: the typed request is built from them (a copy only of what
    /// it holds), and the caller keeps them for the record or a next round.
    async fn send(&self, method: &str, params: &Value) -> Result<Sent, Error> {
        // Typed where rmcp knows the method, so it applies its per-method rules;
        // verbatim otherwise.
        let request = requests::typed(method, params).unwrap_or_else(|| {
            ClientRequest::CustomRequest(CustomRequest::new(
                method,
                (!params.is_null()).then(|| params.clone()),
            ))
        });
        self.send_request(method, request).await
    }

    async fn send_request(&self, method: &str, request: ClientRequest) -> Result<Sent, Error> {
        match self
            .inner
            .peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
        {
            Ok(handle) => {
                // A view of a shared connection owns the progress of its requests.
                self.inner
                    .notifications
                    .claim_progress(&handle.progress_token);
                Ok((handle.id.clone(), handle))
            }
            Err(error) => Err(self.error(method, error).await),
        }
    }

    async fn await_answer(
        &self,
        method: &str,
        id: RequestId,
        mut handle: rmcp::service::RequestHandle<RoleClient>,
        timeout: Duration,
    ) -> Result<Answer, Error> {
        let started = Instant::now();
        handle.options.timeout = Some(timeout);
        // rmcp follows a time-out with a cancellation, a write that blocks
        // as long as the server does not read: bound the whole wait.
        let outcome =
            match tokio::time::timeout(timeout + CANCEL_WAIT, handle.await_response()).await {
                Ok(outcome) => outcome,
                Err(_) => Err(ServiceError::Timeout { timeout }),
            };
        let elapsed = started.elapsed();
        let raw = self.inner.inbound.take_raw(&id);
        if let Some(reason) = self.inner.inbound.take_refused(&id) {
            return Err(Error::Protocol {
                method: method.to_owned(),
                reason,
                output: self.inner.inbound.output(),
            });
        }
        if let Some(violation) = self.inner.inbound.schema.take_violation(&id) {
            return Err(Error::SchemaViolation {
                method: method.to_owned(),
                violation: Box::new(violation),
                output: self.inner.inbound.output(),
            });
        }
        match outcome {
            Ok(typed) => {
                // The raw answer is ours: its result is moved out, not copied.
                let result = match raw.and_then(|mut m| m.get_mut("result").map(Value::take)) {
                    Some(result) => result,
                    None => serde_json::to_value(&typed).unwrap_or(Value::Null),
                };
                Ok(Answer { result, elapsed })
            }
            Err(ServiceError::Timeout { timeout }) => {
                self.inner.inbound.forget(&id);
                self.inner.inbound.schema.forget(&id);
                if let Some(blocked) = self.inner.inbound.stalled_write() {
                    return Err(Error::Transport {
                        method: Some(method.to_owned()),
                        reason: format!(
                            "{}: a write to it has been blocked for {:.1}s (its input pipe is \
                             full), so the request could not be sent and answered within \
                             {timeout:?}",
                            crate::error::STOPPED_READING,
                            blocked.as_secs_f64()
                        ),
                        output: self.inner.inbound.output(),
                    });
                }
                Err(Error::Timeout {
                    method: method.to_owned(),
                    after: timeout,
                    output: self.inner.inbound.output(),
                })
            }
            Err(error) => Err(self.error(method, error).await),
        }
    }

    /// Turns an rmcp failure into the error a test can act on, looking at the
    /// process and the wire to say *why* the connection broke.
    async fn error(&self, method: &str, error: ServiceError) -> Error {
        match error {
            ServiceError::McpError(data) => rpc_error(method, data, &self.inner.inbound),
            ServiceError::Timeout { timeout } => Error::Timeout {
                method: method.to_owned(),
                after: timeout,
                output: self.inner.inbound.output(),
            },
            ServiceError::TransportClosed => {
                connection_lost(Some(method), &self.inner.inbound).await
            }
            ServiceError::TransportSend(error) => {
                transport_failed(Some(method), &error, &self.inner.inbound).await
            }
            other => Error::Transport {
                method: Some(method.to_owned()),
                reason: other.to_string(),
                output: self.inner.inbound.output(),
            },
        }
    }

    fn error_sync(&self, method: &str, error: ServiceError) -> Error {
        match error {
            ServiceError::McpError(data) => rpc_error(method, data, &self.inner.inbound),
            other => Error::Transport {
                method: Some(method.to_owned()),
                reason: {
                    let what = match &other {
                        ServiceError::TransportSend(error) => describe_failure(error),
                        other => other.to_string(),
                    };
                    match self.inner.inbound.closed_reason() {
                        Some(reason) => format!("{what}: {reason}"),
                        None => what,
                    }
                },
                output: self.inner.inbound.output(),
            },
        }
    }

    /// What is known of tool `name`'s declared definition before the call:
    /// the list fetched earlier on this connection (by [`list_tools`](Self::list_tools)
    /// or a previous call) while the server has not said it changed, or
    /// nothing yet. Nothing is sent here: definitions are fetched only when
    /// an answer needs one (see [`finish_tool_lookup`](Self::finish_tool_lookup)).
    async fn start_tool_lookup(&self, name: &str) -> ToolLookup {
        if !self.inner.fetch_tool_definitions || self.inner.info.capabilities.tools.is_none() {
            return ToolLookup::Known(None);
        }
        let changes = self.list_changes(ListKind::Tools);
        let known = self.inner.tools.lock().await;
        match known.as_ref() {
            Some(known) if known.changes_seen == changes => {
                ToolLookup::Known(known.tools.iter().find(|t| t.name == name).cloned())
            }
            _ => ToolLookup::Unknown,
        }
    }

    /// The definition of tool `name` for a call answered with `result`. The
    /// only check that reads a definition is the output schema one, and it
    /// has something to check only when the result carries
    /// `structuredContent`: then, if the list is not known yet, `tools/list`
    /// is fetched (once per connection, and again after `tools/list_changed`).
    /// Any other answer costs no extra request.
    async fn finish_tool_lookup(
        &self,
        lookup: ToolLookup,
        name: &str,
        result: Option<&Value>,
        timeout: Duration,
    ) -> Option<Tool> {
        match lookup {
            ToolLookup::Known(tool) => tool,
            ToolLookup::Unknown => {
                let structured = result
                    .and_then(|r| r.get("structuredContent"))
                    .is_some_and(|c| !c.is_null());
                if !structured {
                    return None;
                }
                let sent = self.send("tools/list", &Value::Null).await.ok()?;
                let listing =
                    self.list_all_from::<ListToolsResult, Tool>("tools/list", sent, |page| {
                        (page.tools, page.next_cursor)
                    });
                let tools = tokio::time::timeout(timeout, listing).await.ok()?.ok()?;
                self.remember_tools(tools.value().clone()).await;
                tools.iter().find(|t| t.name == name).cloned()
            }
        }
    }

    async fn remember_tools(&self, tools: Vec<Tool>) {
        let changes_seen = self.list_changes(ListKind::Tools);
        *self.inner.tools.lock().await = Some(KnownTools {
            tools,
            changes_seen,
        });
    }

    fn list_changes(&self, kind: ListKind) -> usize {
        self.inner.inbound.notifications.count(kind.method())
    }
}

/// What the completion is for: a prompt or a resource template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompletionRef {
    /// `ref/prompt` by prompt name.
    Prompt(String),
    /// `ref/resource` by URI template.
    Resource(String),
}

impl CompletionRef {
    /// A prompt, by name.
    pub fn prompt(name: impl Into<String>) -> Self {
        CompletionRef::Prompt(name.into())
    }

    /// A resource template, by URI template (`file:///{path}`).
    pub fn resource(uri_template: impl Into<String>) -> Self {
        CompletionRef::Resource(uri_template.into())
    }

    fn to_json(&self) -> Value {
        match self {
            CompletionRef::Prompt(name) => json!({ "type": "ref/prompt", "name": name }),
            CompletionRef::Resource(uri) => json!({ "type": "ref/resource", "uri": uri }),
        }
    }
}

/// What is known of the called tool's definition when the call is sent.
enum ToolLookup {
    Known(Option<Tool>),
    /// The connection has no current tool list.
    Unknown,
}

/// A `tools/call` that has been sent and not yet answered.
#[must_use = "a started call is only tested once it ends: `.finish().await`, or `.cancel(..)`"]
pub struct PendingToolCall {
    client: McpClient,
    start: ToolCallStart,
    lookup: ToolLookup,
    params: Value,
    id: RequestId,
    handle: rmcp::service::RequestHandle<RoleClient>,
    started: Instant,
    timeout: Duration,
}

/// What is known about a tool call before it is answered.
#[derive(Debug)]
struct ToolCallStart {
    name: String,
    arguments: Value,
    tool: Option<Tool>,
    origin: Origin,
}

impl ToolCallStart {
    fn new(client: &McpClient, name: &str, arguments: Value, tool: Option<Tool>) -> Self {
        ToolCallStart {
            name: name.to_owned(),
            arguments,
            tool,
            origin: client.origin(),
        }
    }

    fn into_call(self, outcome: ToolOutcome, raw: Option<Value>, elapsed: Duration) -> ToolCall {
        let request = Request::new(
            "tools/call",
            json!({ "name": self.name, "arguments": self.arguments }),
        );
        let watch = FailureWatch::new(&request, &outcome, &self.origin);
        ToolCall {
            request,
            name: self.name,
            arguments: self.arguments,
            outcome,
            raw,
            elapsed,
            tool: self.tool,
            progress: Vec::new(),
            origin: self.origin,
            watch,
        }
    }

    /// The call as a failed [`ToolCall`], for an error before anything was sent.
    fn failed(self, error: Error) -> ToolCall {
        self.into_call(ToolOutcome::Failed(error), None, Duration::ZERO)
    }
}

impl PendingToolCall {
    /// The JSON-RPC id of the request.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    /// The progress token sent with the request; progress notifications for
    /// this call carry it.
    pub fn progress_token(&self) -> &ProgressToken {
        &self.handle.progress_token
    }

    /// Sends `notifications/cancelled` for this call and stops waiting for it.
    pub fn cancel<'a>(
        self,
        reason: &'a str,
    ) -> impl Future<Output = Result<(), Error>> + Send + 'a {
        crate::future::boxed(async move {
            let inbound = self.client.inner.inbound.clone();
            let id = self.id.clone();
            let result = self.handle.cancel(Some(reason.to_owned())).await;
            inbound.forget(&id);
            inbound.schema.forget(&id);
            result.map_err(|e| self.client.error_sync("notifications/cancelled", e))
        })
    }

    /// Waits for the answer (up to the request timeout).
    pub fn finish(self) -> impl Future<Output = ToolCall> + Send {
        crate::future::boxed(async move {
            let PendingToolCall {
                client,
                mut start,
                lookup,
                params,
                id,
                handle,
                started,
                timeout,
            } = self;
            let token = handle.progress_token.clone();
            let call = async {
                let answer = match client.await_answer("tools/call", id, handle, timeout).await {
                    Ok(answer) => {
                        client
                            .finish_input_rounds("tools/call", params, answer, timeout)
                            .await
                    }
                    Err(error) => Err(error),
                };
                (answer, started.elapsed())
            };
            let (answer, elapsed) = call.await;
            start.tool = client
                .finish_tool_lookup(
                    lookup,
                    &start.name,
                    answer.as_ref().ok().map(|a| &a.result),
                    timeout,
                )
                .await;
            let progress = client.progress_for(&token);
            let mut call = match answer {
                Ok(answer) => {
                    let outcome = match decode::<rmcp::model::CallToolResult>(
                        "tools/call",
                        &answer.result,
                        &client.inner.inbound,
                    ) {
                        Ok(result) if result.is_error == Some(true) => {
                            ToolOutcome::ToolError(result)
                        }
                        Ok(result) => ToolOutcome::Success(result),
                        Err(error) => ToolOutcome::Failed(error),
                    };
                    start.into_call(outcome, Some(answer.result), elapsed)
                }
                Err(Error::JsonRpc {
                    code,
                    message,
                    data,
                    ..
                }) => start.into_call(
                    ToolOutcome::RpcError(RpcError {
                        code,
                        message,
                        data,
                    }),
                    None,
                    elapsed,
                ),
                Err(error) => start.into_call(ToolOutcome::Failed(error), None, elapsed),
            };
            call.progress = progress;
            call
        })
    }
}

impl McpClient {
    fn progress_for(&self, token: &ProgressToken) -> Vec<rmcp::model::ProgressNotificationParam> {
        let log = &self.inner.inbound.notifications;
        if log.count("notifications/progress") == 0 {
            return Vec::new();
        }
        let token = serde_json::to_value(token).unwrap_or(Value::Null);
        log.filter(|m| {
            m.method == "notifications/progress" && m.params.get("progressToken") == Some(&token)
        })
        .iter()
        .filter_map(ServerMessage::params_as)
        .collect()
    }
}

fn decode<T: DeserializeOwned>(
    method: &str,
    result: &Value,
    inbound: &Inbound,
) -> Result<T, Error> {
    T::deserialize(result).map_err(|e| Error::Protocol {
        method: method.to_owned(),
        reason: format!("the result does not match the MCP schema: {e}; it was {result}"),
        output: inbound.output(),
    })
}

fn rpc_error(method: &str, data: ErrorData, inbound: &Inbound) -> Error {
    Error::JsonRpc {
        method: method.to_owned(),
        code: data.code.0,
        message: data.message.into_owned(),
        data: data.data,
        output: inbound.output(),
    }
}

/// A transport that failed with `error`: the process's exit when that is
/// why, and otherwise the error's causes in words
/// ([`describe_failure`]), with what the server printed.
pub(crate) async fn transport_failed(
    method: Option<&str>,
    error: &(dyn std::error::Error + Send + Sync + 'static),
    inbound: &Inbound,
) -> Error {
    let reason = describe_failure(error);
    match connection_lost(method, inbound).await {
        // A reason the connection recorded (a server that broke a bound, a
        // bridge that was refused) says more than the failed write.
        Error::Transport { method, output, .. } if inbound.fatal_reason().is_none() => {
            Error::Transport {
                method,
                reason,
                output,
            }
        }
        other => other,
    }
}

/// Why the connection broke: the process exited, the server sent something
/// fatal, or the stream simply closed.
pub(crate) async fn connection_lost(method: Option<&str>, inbound: &Inbound) -> Error {
    if let Some(reason) = inbound.fatal_reason() {
        return Error::Transport {
            method: method.map(str::to_owned),
            reason,
            output: inbound.output(),
        };
    }
    if let Some(process) = &inbound.process {
        // The stream ended first; the exit status follows within moments.
        let status = process.wait_for_exit(Duration::from_secs(2)).await;
        if status.is_some() {
            if let Some(stderr) = &inbound.stderr {
                stderr.wait_closed(Duration::from_millis(500)).await;
            }
            return Error::ServerExited {
                method: method.map(str::to_owned),
                status,
                output: inbound.output(),
            };
        }
    }
    Error::Transport {
        method: method.map(str::to_owned),
        reason: inbound
            .closed_reason()
            .unwrap_or_else(|| "the connection closed".to_owned()),
        output: inbound.output(),
    }
}
