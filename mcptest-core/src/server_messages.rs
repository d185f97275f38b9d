//! Every notification and request the server sent to the client, in arrival
//! order, with helpers to wait for the ones a test cares about.

use std::{
    collections::HashMap,
    fmt,
    sync::{
        Arc, Mutex, MutexGuard,
        atomic::{AtomicU64, AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use rmcp::model::{ProgressNotificationParam, RequestId};
use serde_json::Value;
use tokio::sync::Notify;

use crate::error::Error;

use crate::limits::{Bounded, SERVER_REQUESTS_KEPT};

/// One message the server sent on its own: a notification, or a request to
/// the client (sampling, roots, elicitation, ping).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ServerMessage {
    /// Position in arrival order, starting at 0 for the connection.
    pub seq: usize,
    /// The JSON-RPC method, e.g. `notifications/progress`.
    pub method: String,
    /// The `params` member (`Value::Null` when absent).
    pub params: Value,
    /// For a request: its id. `None` for notifications.
    pub id: Option<Value>,
    /// For a request: what the client answered (the `result`, or
    /// `{"error": {..}}`), once it has answered.
    pub reply: Option<Value>,
    /// Time since the connection was opened.
    pub elapsed: Duration,
    /// True when the test's client is a view of a [shared](crate::Server::shared)
    /// connection and this message is not tied to one of its own requests
    /// (a log message, a `list_changed`, a request to the client, progress
    /// for a token no test claims): any test on that server may have caused
    /// it. Always false on a connection of the test's own.
    pub shared: bool,
}

impl ServerMessage {
    /// True for a request to the client (it has an id), false for a notification.
    pub fn is_request(&self) -> bool {
        self.id.is_some()
    }

    /// Deserializes `params` into a typed struct, e.g.
    /// [`ProgressNotificationParam`].
    pub fn params_as<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        serde_json::from_value(self.params.clone()).ok()
    }
}

impl fmt::Display for ServerMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.params.is_null() {
            write!(f, "{}", self.method)
        } else {
            write!(f, "{} {}", self.method, self.params)
        }
    }
}

/// A log level of `logging/setLevel` and `notifications/message`
/// (RFC 5424 severities), least severe first so that `>=` compares severity.
///
/// mcptest has its own type because rmcp marks logging deprecated (SEP-2577),
/// while every protocol revision servers speak today has it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// `debug`
    Debug,
    /// `info`
    Info,
    /// `notice`
    Notice,
    /// `warning`
    Warning,
    /// `error`
    Error,
    /// `critical`
    Critical,
    /// `alert`
    Alert,
    /// `emergency`
    Emergency,
}

impl LogLevel {
    /// The level's name on the wire, from the one list of MCP's level names
    /// (the suite loader's and the conformance checks').
    ///
    /// ```
    /// use mcptest::LogLevel;
    /// assert_eq!(LogLevel::Warning.name(), "warning");
    /// ```
    pub fn name(self) -> &'static str {
        // The variants are declared in the list's order, least severe first.
        mcptest_suite_format::LOG_LEVELS[self as usize]
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One `notifications/message` from the server.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[non_exhaustive]
pub struct LogMessage {
    /// How severe.
    pub level: LogLevel,
    /// The logger's name, if given.
    #[serde(default)]
    pub logger: Option<String>,
    /// The payload: a string or any JSON value.
    #[serde(default)]
    pub data: Value,
}

/// Which list a `notifications/*/list_changed` is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    /// `notifications/tools/list_changed`
    Tools,
    /// `notifications/prompts/list_changed`
    Prompts,
    /// `notifications/resources/list_changed`
    Resources,
}

impl ListKind {
    /// The notification's method name.
    pub fn method(self) -> &'static str {
        match self {
            ListKind::Tools => "notifications/tools/list_changed",
            ListKind::Prompts => "notifications/prompts/list_changed",
            ListKind::Resources => "notifications/resources/list_changed",
        }
    }
}

/// A live view of what the server sent: cheap to clone, always current.
///
/// Get it from [`McpClient::server_messages`](crate::McpClient::server_messages).
///
/// ```no_run
/// # async fn demo(mcp: mcptest::McpClient) -> Result<(), mcptest::Error> {
/// use std::time::Duration;
/// use serde_json::json;
///
/// mcp.call_tool("progress", json!({"steps": 3})).await;
/// let log = mcp.server_messages();
/// let steps = log.wait_for_progress(3, Duration::from_secs(5)).await?;
/// assert_eq!(steps.len(), 3);
/// assert!(log.methods().contains(&"notifications/progress".to_owned()));
/// # Ok(()) }
/// ```
///
/// On a view of a [shared](crate::Server::shared) connection, the log shows
/// only what arrived after the view was opened, leaves out progress for the
/// other tests' requests, and marks every message not tied to the view's own
/// requests as [`shared`](ServerMessage::shared).
#[derive(Clone, Default)]
pub struct ServerMessages {
    inner: Arc<Log>,
    view: Option<Arc<View>>,
}

struct Log {
    state: Mutex<LogState>,
    arrived: Notify,
    opened: Instant,
    /// Progress tokens of requests sent by views, and the view that sent each.
    /// Kept after the view is gone, so its late progress stays out of other
    /// views (one small entry per request).
    claims: Mutex<HashMap<Value, u64>>,
    next_view: AtomicU64,
}

impl Default for Log {
    fn default() -> Self {
        Log {
            state: Mutex::default(),
            arrived: Notify::new(),
            opened: Instant::now(),
            claims: Mutex::default(),
            next_view: AtomicU64::new(1),
        }
    }
}

/// One test's part of a shared connection's log.
struct View {
    id: u64,
    /// Messages before this sequence number are not shown (the view's start,
    /// moved on by `clear`).
    since: AtomicUsize,
}

/// Whom a message concerns, seen from one view.
enum Tie {
    Mine,
    Shared,
    Theirs,
}

#[derive(Default)]
struct LogState {
    messages: Bounded<ServerMessage>,
    /// How many of the kept messages are server-to-client requests.
    requests: usize,
    dropped: usize,
    next_seq: usize,
    /// How many messages of each method arrived since the connection opened
    /// (not reset by `clear`).
    counts: std::collections::HashMap<String, usize>,
}

impl fmt::Debug for ServerMessages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.visible()).finish()
    }
}

impl ServerMessages {
    pub(crate) fn new() -> Self {
        ServerMessages::default()
    }

    /// A log built by hand from JSON-RPC messages (`{"method": .., "params":
    /// ..}`, with an `id` for a request), as if the server had sent them in
    /// this order; for testing checks without a server.
    pub fn from_messages(messages: impl IntoIterator<Item = Value>) -> Self {
        let log = ServerMessages::new();
        for message in messages {
            log.record(message);
        }
        log
    }

    fn state(&self) -> MutexGuard<'_, LogState> {
        self.inner.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A view of this log for one test on a shared connection: it starts
    /// now, and owns the progress of the requests it claims.
    pub(crate) fn view(&self) -> ServerMessages {
        let since = self.state().next_seq;
        ServerMessages {
            inner: self.inner.clone(),
            view: Some(Arc::new(View {
                id: self.inner.next_view.fetch_add(1, Ordering::Relaxed),
                since: AtomicUsize::new(since),
            })),
        }
    }

    /// Marks the progress of the request with this token as this view's
    /// own (a no-op on a log that is not a view).
    pub(crate) fn claim_progress(&self, token: &rmcp::model::ProgressToken) {
        let Some(view) = &self.view else { return };
        let token = serde_json::to_value(&token.0).unwrap_or(Value::Null);
        self.inner
            .claims
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(token, view.id);
    }

    fn tie(&self, view: &View, message: &ServerMessage, claims: &HashMap<Value, u64>) -> Tie {
        if message.method != "notifications/progress" {
            return Tie::Shared;
        }
        match message
            .params
            .get("progressToken")
            .and_then(|token| claims.get(token))
        {
            Some(&owner) if owner == view.id => Tie::Mine,
            Some(_) => Tie::Theirs,
            None => Tie::Shared,
        }
    }

    /// The messages this log shows, oldest first: all of them, or for a view
    /// its own and the shared ones since it started (the shared ones marked).
    fn visible(&self) -> Vec<ServerMessage> {
        let state = self.state();
        let Some(view) = &self.view else {
            return state.messages.iter().cloned().collect();
        };
        let since = view.since.load(Ordering::Acquire);
        let claims = self.inner.claims.lock().unwrap_or_else(|p| p.into_inner());
        state
            .messages
            .iter()
            .filter(|m| m.seq >= since)
            .filter_map(|m| match self.tie(view, m, &claims) {
                Tie::Mine => Some(m.clone()),
                Tie::Shared => Some(ServerMessage {
                    shared: true,
                    ..m.clone()
                }),
                Tie::Theirs => None,
            })
            .collect()
    }

    /// Records a message as received (a JSON-RPC notification or request).
    pub(crate) fn record(&self, raw: Value) {
        let method = raw
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let id = raw.get("id").cloned();
        let params = raw.get("params").cloned().unwrap_or(Value::Null);
        let elapsed = self.inner.opened.elapsed();
        let size = json_size(&params) + method.len();
        {
            let mut state = self.state();
            let seq = state.next_seq;
            state.next_seq += 1;
            match state.counts.get_mut(method.as_str()) {
                Some(n) => *n += 1,
                None => {
                    state.counts.insert(method.clone(), 1);
                }
            }
            if id.is_some() && state.requests >= SERVER_REQUESTS_KEPT {
                // Answered all the same; only counted.
                state.dropped += 1;
                drop(state);
                self.inner.arrived.notify_waiters();
                return;
            }
            if id.is_some() {
                state.requests += 1;
            }
            let message = ServerMessage {
                seq,
                method,
                params,
                id,
                reply: None,
                elapsed,
                shared: false,
            };
            let (mut requests, mut dropped) = (0, 0);
            state.messages.push(message, size, |old| {
                requests += usize::from(old.id.is_some());
                dropped += 1;
            });
            state.requests -= requests;
            state.dropped += dropped;
        }
        self.inner.arrived.notify_waiters();
    }

    /// Attaches the client's answer to the server request with this id.
    pub(crate) fn record_reply(&self, id: &RequestId, reply: Value) {
        let id = serde_json::to_value(id).unwrap_or(Value::Null);
        let mut state = self.state();
        if let Some(message) = state
            .messages
            .iter_mut()
            .rev()
            .find(|m| m.id.as_ref() == Some(&id) && m.reply.is_none())
        {
            message.reply = Some(reply);
        }
    }

    /// How many of the messages received were dropped (oldest first) to keep
    /// the log within its [bounds](crate::limits::NOTIFICATIONS_KEPT), or
    /// never kept: server-to-client requests past
    /// [`SERVER_REQUESTS_KEPT`](crate::limits::SERVER_REQUESTS_KEPT).
    pub fn dropped(&self) -> usize {
        self.state().dropped
    }

    /// Everything received so far, oldest first.
    pub fn all(&self) -> Vec<ServerMessage> {
        self.visible()
    }

    /// How many messages were received (including any dropped past the cap).
    pub fn len(&self) -> usize {
        if self.view.is_some() {
            return self.visible().len();
        }
        self.state().next_seq
    }

    /// True if the server has sent nothing yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many messages with this method arrived since the connection opened
    /// (including any forgotten by [`clear`](Self::clear)).
    ///
    /// On a view of a shared connection: how many it shows now.
    pub fn count(&self, method: &str) -> usize {
        if self.view.is_some() {
            return self.filter(|m| m.method == method).len();
        }
        self.state().counts.get(method).copied().unwrap_or(0)
    }

    /// The method of every message, in arrival order.
    pub fn methods(&self) -> Vec<String> {
        if self.view.is_some() {
            return self.visible().into_iter().map(|m| m.method).collect();
        }
        self.state()
            .messages
            .iter()
            .map(|m| m.method.clone())
            .collect()
    }

    /// The messages with this method.
    pub fn with_method(&self, method: &str) -> Vec<ServerMessage> {
        self.filter(|m| m.method == method)
    }

    /// The messages matching `predicate`.
    pub fn filter(&self, predicate: impl Fn(&ServerMessage) -> bool) -> Vec<ServerMessage> {
        if self.view.is_some() {
            return self
                .visible()
                .into_iter()
                .filter(|m| predicate(m))
                .collect();
        }
        self.state()
            .messages
            .iter()
            .filter(|m| predicate(m))
            .cloned()
            .collect()
    }

    /// Requests the server made of the client (sampling, roots, elicitation,
    /// ping), each with the answer the client gave.
    pub fn requests(&self) -> Vec<ServerMessage> {
        self.filter(ServerMessage::is_request)
    }

    /// Every `notifications/progress`, parsed.
    pub fn progress(&self) -> Vec<ProgressNotificationParam> {
        self.with_method("notifications/progress")
            .iter()
            .filter_map(ServerMessage::params_as)
            .collect()
    }

    /// Every `notifications/message` (log message), parsed.
    pub fn log_messages(&self) -> Vec<LogMessage> {
        self.with_method("notifications/message")
            .iter()
            .filter_map(ServerMessage::params_as)
            .collect()
    }

    /// Forgets everything received so far (sequence numbers keep counting).
    ///
    /// On a view of a shared connection this forgets only for the view.
    pub fn clear(&self) {
        if let Some(view) = &self.view {
            let next = self.state().next_seq;
            view.since.store(next, Ordering::Release);
            return;
        }
        let mut state = self.state();
        state.messages.clear();
        state.requests = 0;
        state.dropped = 0;
    }

    /// Waits until a message matching `predicate` has arrived (or already
    /// had), and returns the first such message; [`Error::NotificationTimeout`] when none
    /// does within `timeout`.
    ///
    /// ```no_run
    /// # async fn demo(mcp: mcptest::McpClient) -> Result<(), mcptest::Error> {
    /// use std::time::Duration;
    /// let updated = mcp
    ///     .server_messages()
    ///     .wait_for(|m| m.method == "notifications/resources/updated", Duration::from_secs(5))
    ///     .await?;
    /// assert_eq!(updated.params["uri"], "file:///notes.txt");
    /// # Ok(()) }
    /// ```
    pub async fn wait_for(
        &self,
        predicate: impl Fn(&ServerMessage) -> bool,
        timeout: Duration,
    ) -> Result<ServerMessage, Error> {
        let mut found = self
            .wait_for_count("matching the predicate", predicate, 1, timeout)
            .await?;
        Ok(found.remove(0))
    }

    /// Waits until at least `count` messages match `predicate`; returns all
    /// matching messages. `expected` describes them in words for the error.
    pub async fn wait_for_count(
        &self,
        expected: &str,
        predicate: impl Fn(&ServerMessage) -> bool,
        count: usize,
        timeout: Duration,
    ) -> Result<Vec<ServerMessage>, Error> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            // Register interest before looking, so an arrival between the look
            // and the wait is not missed.
            let arrived = self.inner.arrived.notified();
            tokio::pin!(arrived);
            arrived.as_mut().enable();
            let found = self.filter(&predicate);
            if found.len() >= count {
                return Ok(found);
            }
            if tokio::time::timeout_at(deadline, arrived).await.is_err() {
                let expected = if count > 1 {
                    format!("{expected} ({count} wanted, {} arrived)", found.len())
                } else {
                    expected.to_owned()
                };
                return Err(Error::NotificationTimeout {
                    expected,
                    after: timeout,
                    seen: self.methods(),
                });
            }
        }
    }

    /// Waits for a message with this method.
    pub fn wait_for_method<'a>(
        &'a self,
        method: &'a str,
        timeout: Duration,
    ) -> impl Future<Output = Result<ServerMessage, Error>> + Send + 'a {
        crate::future::boxed(async move {
            let mut found = self
                .wait_for_count(method, |m| m.method == method, 1, timeout)
                .await?;
            Ok(found.remove(0))
        })
    }

    /// Waits until `count` progress notifications have arrived.
    pub fn wait_for_progress<'a>(
        &'a self,
        count: usize,
        timeout: Duration,
    ) -> impl Future<Output = Result<Vec<ProgressNotificationParam>, Error>> + Send + 'a {
        crate::future::boxed(async move {
            let found = self
                .wait_for_count(
                    "notifications/progress",
                    |m| m.method == "notifications/progress",
                    count,
                    timeout,
                )
                .await?;
            Ok(found.iter().filter_map(ServerMessage::params_as).collect())
        })
    }

    /// Waits for a log message (`notifications/message`) at `level` or more
    /// severe; `None` accepts any level.
    pub async fn wait_for_log(
        &self,
        level: Option<LogLevel>,
        timeout: Duration,
    ) -> Result<LogMessage, Error> {
        let expected = match level {
            Some(level) => format!("notifications/message at level {level} or above"),
            None => "notifications/message".to_owned(),
        };
        let found = self
            .wait_for_count(
                &expected,
                |m| {
                    m.method == "notifications/message"
                        && m.params_as::<LogMessage>()
                            .is_some_and(|p| level.is_none_or(|l| p.level >= l))
                },
                1,
                timeout,
            )
            .await?;
        Ok(found
            .first()
            .and_then(ServerMessage::params_as)
            .expect("matched messages parse"))
    }

    /// Waits for `notifications/{tools,prompts,resources}/list_changed`.
    pub async fn wait_for_list_changed(
        &self,
        kind: ListKind,
        timeout: Duration,
    ) -> Result<ServerMessage, Error> {
        self.wait_for_method(kind.method(), timeout).await
    }

    /// Waits for `notifications/resources/updated` about `uri`.
    pub async fn wait_for_resource_updated(
        &self,
        uri: &str,
        timeout: Duration,
    ) -> Result<ServerMessage, Error> {
        let expected = format!("notifications/resources/updated for {uri}");
        let mut found = self
            .wait_for_count(
                &expected,
                |m| {
                    m.method == "notifications/resources/updated"
                        && m.params.get("uri").and_then(Value::as_str) == Some(uri)
                },
                1,
                timeout,
            )
            .await?;
        Ok(found.remove(0))
    }
}

/// The length of `value` as compact JSON, without building the text.
pub(crate) fn json_size(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn wait_sees_past_and_future_messages() {
        let log = ServerMessages::new();
        log.record(json!({"jsonrpc":"2.0","method":"notifications/tools/list_changed"}));
        let first = log
            .wait_for_list_changed(ListKind::Tools, Duration::from_millis(10))
            .await
            .unwrap();
        assert_eq!(first.seq, 0);

        let writer = log.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            writer.record(json!({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"a://b"}}));
        });
        let updated = log
            .wait_for_resource_updated("a://b", Duration::from_secs(5))
            .await
            .unwrap();
        assert_eq!(updated.seq, 1);
    }

    #[tokio::test]
    async fn a_timeout_lists_what_did_arrive() {
        let log = ServerMessages::new();
        log.record(json!({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}));
        let err = log
            .wait_for_progress(2, Duration::from_millis(20))
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "no notification notifications/progress (2 wanted, 0 arrived) arrived within 20ms; \
             the server sent: notifications/message"
        );
    }

    #[test]
    fn replies_attach_to_their_request() {
        let log = ServerMessages::new();
        log.record(json!({"jsonrpc":"2.0","id":5,"method":"roots/list"}));
        log.record_reply(&RequestId::Number(5), json!({"roots": []}));
        let requests = log.requests();
        assert_eq!(requests.len(), 1);
        assert_eq!(requests[0].reply, Some(json!({"roots": []})));
    }

    #[test]
    fn log_levels_order_by_severity_and_print_as_on_the_wire() {
        assert!(LogLevel::Error > LogLevel::Warning);
        assert!(LogLevel::Debug < LogLevel::Info);
        assert_eq!(LogLevel::Warning.to_string(), "warning");
        assert_eq!(
            serde_json::to_value(LogLevel::Critical).unwrap(),
            json!("critical")
        );
        // The wire names serde reads are the one list's, in its order.
        for (i, name) in mcptest_suite_format::LOG_LEVELS.iter().enumerate() {
            let level: LogLevel = serde_json::from_value(json!(name)).unwrap();
            assert_eq!((level as usize, level.name()), (i, *name));
            assert_eq!(serde_json::to_value(level).unwrap(), json!(name));
        }
    }
}
