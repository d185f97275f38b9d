//! Newline-delimited JSON-RPC over a byte stream: a child's stdio, or an
//! in-memory pipe to an in-process server.
//!
//! Written here rather than taken from rmcp because a test harness must see
//! what a well-behaved client would throw away: lines that are not JSON-RPC,
//! an unterminated line, answers with ids nobody sent, and the exact JSON of
//! every answer.

use std::{collections::VecDeque, future::Future, sync::Arc};

use rmcp::{
    RoleClient,
    model::{
        CustomResult, JsonRpcResponse, JsonRpcVersion2_0, RequestId, ServerJsonRpcMessage,
        ServerResult,
    },
    service::{RxJsonRpcMessage, TxJsonRpcMessage},
    transport::Transport,
};
use serde::Deserialize;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::inbound::Inbound;
pub(crate) use super::refused::Refused;

type Writer = Box<dyn AsyncWrite + Send + Unpin>;

/// How long rmcp's own close of the transport waits for a write in progress;
/// the endpoint's close (with the server's grace period) does the rest.
const CLOSE_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// The write side, shared so that teardown can close it (EOF on the server's
/// stdin) even while the transport itself is owned by rmcp's service task.
/// Every write in progress is marked on the wire, so that a request that
/// times out can say the server stopped reading its stdin.
#[derive(Clone)]
pub(crate) struct WriteHandle {
    writer: Arc<tokio::sync::Mutex<Option<Writer>>>,
    inbound: Arc<Inbound>,
}

/// Marks a write in progress on the wire until dropped (also when the write
/// is cancelled).
struct Writing<'a>(&'a Inbound);

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        self.0.write_ended();
    }
}

impl WriteHandle {
    pub(crate) fn new(writer: Writer, inbound: Arc<Inbound>) -> Self {
        WriteHandle {
            writer: Arc::new(tokio::sync::Mutex::new(Some(writer))),
            inbound,
        }
    }

    /// Writes one line. Fails once the stream is closed.
    pub(crate) async fn write_line(&self, mut line: Vec<u8>) -> std::io::Result<()> {
        line.push(b'\n');
        self.write_raw(&line).await
    }

    /// Writes exactly these bytes.
    pub(crate) async fn write_raw(&self, bytes: &[u8]) -> std::io::Result<()> {
        let mut guard = self.writer.lock().await;
        let writer = guard.as_mut().ok_or_else(closed)?;
        self.inbound.write_begun();
        let _writing = Writing(&self.inbound);
        writer.write_all(bytes).await?;
        writer.flush().await
    }

    /// Writes exactly these bytes within `limit` (waiting for other writes
    /// included). A write cut off half-way would leave a broken line, so on
    /// time-out the stream is closed and later writes fail.
    pub(crate) async fn write_raw_within(
        &self,
        bytes: &[u8],
        limit: std::time::Duration,
    ) -> std::io::Result<()> {
        let started = tokio::time::Instant::now();
        let Ok(mut guard) = tokio::time::timeout(limit, self.writer.lock()).await else {
            return Err(stalled(limit));
        };
        let writer = guard.as_mut().ok_or_else(closed)?;
        self.inbound.write_begun();
        let _writing = Writing(&self.inbound);
        let left = limit.saturating_sub(started.elapsed());
        let write = async {
            writer.write_all(bytes).await?;
            writer.flush().await
        };
        match tokio::time::timeout(left, write).await {
            Ok(done) => done,
            Err(_) => {
                guard.take();
                Err(stalled(limit))
            }
        }
    }

    /// Closes the stream so the server reads EOF, waiting at most `limit`
    /// for a write in progress (one blocked on a server that stopped reading
    /// never finishes); false when the time ran out, and the caller goes on
    /// to the kill, which ends the blocked write.
    pub(crate) async fn close(&self, limit: std::time::Duration) -> bool {
        let Ok(mut guard) = tokio::time::timeout(limit, self.writer.lock()).await else {
            return false;
        };
        if let Some(mut writer) = guard.take() {
            let _ = tokio::time::timeout(limit, writer.shutdown()).await;
        }
        true
    }

    /// Closes without waiting: for `Drop`. If a write is in progress the stream
    /// stays open and the caller's kill deadline takes over.
    pub(crate) fn close_now(&self) {
        if let Ok(mut guard) = self.writer.try_lock() {
            guard.take();
        }
    }
}

fn closed() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the connection is closed")
}

fn stalled(limit: std::time::Duration) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        format!(
            "{}: the write did not finish within {limit:?} (its input pipe is full)",
            crate::error::STOPPED_READING
        ),
    )
}

pub(crate) struct LineTransport {
    writer: WriteHandle,
    reader: LineReader,
    parsed: VecDeque<ServerJsonRpcMessage>,
    inbound: Arc<Inbound>,
}

impl LineTransport {
    /// Lines longer than `max_message` bytes end the connection with a
    /// transport error.
    pub(crate) fn new(
        read: impl AsyncRead + Send + Unpin + 'static,
        write: impl AsyncWrite + Send + Unpin + 'static,
        inbound: Arc<Inbound>,
        max_message: usize,
    ) -> Self {
        LineTransport {
            writer: WriteHandle::new(Box::new(write), inbound.clone()),
            reader: LineReader::new(Box::new(read), inbound.clone(), max_message),
            parsed: VecDeque::new(),
            inbound,
        }
    }

    pub(crate) fn write_handle(&self) -> WriteHandle {
        self.writer.clone()
    }
}

impl Transport<RoleClient> for LineTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inbound.outgoing(&item);
        let answer = match &item {
            TxJsonRpcMessage::<RoleClient>::Response(response) => Some(response.id.clone()),
            TxJsonRpcMessage::<RoleClient>::Error(error) => error.id.clone(),
            _ => None,
        };
        let inbound = self.inbound.clone();
        let writer = self.writer.clone();
        let line = serde_json::to_vec(&item);
        async move {
            let written = match line {
                Ok(line) => writer.write_line(line).await,
                Err(e) => Err(std::io::Error::other(e)),
            };
            if let Some(id) = answer {
                inbound.request_answered(&id);
            }
            written
        }
    }

    // Cancel-safe, as rmcp's service loop needs: a message is only taken off
    // `parsed` by the poll that returns it.
    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            if let Some(message) = self.parsed.pop_front() {
                return Some(message);
            }
            match self.reader.next().await? {
                Incoming::Json(value) => {
                    self.parsed.extend(typed_messages(value, &self.inbound));
                }
                Incoming::Refused(refused) => {
                    // The caller waiting for this answer is woken at once,
                    // and finds the refusal in place of a result.
                    if let Some(id) = self.inbound.refuse(refused) {
                        self.parsed.push_back(placeholder(id));
                    }
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.writer.close(CLOSE_WAIT).await;
        Ok(())
    }
}

/// What a line of the server's stdout turned out to be.
pub(crate) enum Incoming {
    /// A JSON value.
    Json(Value),
    /// Valid JSON that mcptest does not read, and why.
    Refused(Refused),
}

/// How long the reader keeps reading after the server process exited, for
/// what it wrote before: a quiet pipe for this long ends the stream...
const DRAIN_QUIET: std::time::Duration = std::time::Duration::from_millis(100);
/// ...and so does this long in all (a grandchild that keeps writing).
const DRAIN_MAX: std::time::Duration = std::time::Duration::from_secs(1);

/// Newline-delimited JSON read from a byte stream: anything that is not JSON
/// is recorded as noise, an unterminated line is visible on the wire, and a
/// line over the size limit ends the stream with a reason. For a child's
/// stdout, the child's exit ends the stream too (after what it wrote is
/// read), even when a process it started keeps the pipe open.
pub(crate) struct LineReader {
    read: Box<dyn AsyncRead + Send + Unpin>,
    inbound: Arc<Inbound>,
    max_message: usize,
    pending: Vec<u8>,
    chunk: Vec<u8>,
    ready: VecDeque<Incoming>,
    done: bool,
    exit: ExitState,
}

/// The reader's view of the server process.
enum ExitState {
    /// Not looked at yet (the watch is taken inside the runtime, on the
    /// first read).
    Unwatched,
    /// No process, or no way to watch it: the end of file alone ends the stream.
    Unwatchable,
    #[cfg(target_os = "linux")]
    Watching(super::process::ExitWatch),
    /// The process exited at this instant: what is left in the pipe is read.
    Exited(std::time::Instant),
}

impl LineReader {
    pub(crate) fn new(
        read: Box<dyn AsyncRead + Send + Unpin>,
        inbound: Arc<Inbound>,
        max_message: usize,
    ) -> Self {
        LineReader {
            read,
            inbound,
            max_message,
            pending: Vec::new(),
            chunk: vec![0u8; 64 * 1024],
            ready: VecDeque::new(),
            done: false,
            exit: ExitState::Unwatched,
        }
    }

    /// The next JSON value (or a line refused with a reason), or `None` once
    /// the stream has ended (the reason is on the wire). Cancel-safe: every
    /// byte read is split into lines before the next await.
    pub(crate) async fn next(&mut self) -> Option<Incoming> {
        loop {
            if let Some(value) = self.ready.pop_front() {
                return Some(value);
            }
            if self.done {
                return None;
            }
            let read = match self.read_some().await {
                Some(read) => read,
                None => continue,
            };
            let n = match read {
                Ok(0) => {
                    self.inbound.closed("the server closed its stdout");
                    self.done = true;
                    continue;
                }
                Ok(n) => n,
                Err(e) => {
                    self.inbound
                        .closed(format!("reading the server's stdout failed: {e}"));
                    self.done = true;
                    continue;
                }
            };
            self.split(n);
        }
    }

    /// One read of the stream, raced against the server's exit; `None`
    /// when the exit came first or the stream was ended meanwhile.
    async fn read_some(&mut self) -> Option<std::io::Result<usize>> {
        if let ExitState::Unwatched = self.exit {
            self.exit = ExitState::Unwatchable;
            #[cfg(target_os = "linux")]
            if let Some(watch) = self.inbound.process.as_ref().and_then(|p| p.exit_watch()) {
                self.exit = ExitState::Watching(watch);
            }
        }
        let read = self.read.read(&mut self.chunk);
        match &self.exit {
            ExitState::Unwatched | ExitState::Unwatchable => Some(read.await),
            #[cfg(target_os = "linux")]
            ExitState::Watching(watch) => {
                tokio::select! {
                    biased;
                    read = read => Some(read),
                    () = watch.exited() => {
                        self.exit = ExitState::Exited(std::time::Instant::now());
                        // Reaping the leader kills its process group: the
                        // grandchildren that stayed in it close the pipe.
                        if let Some(process) = &self.inbound.process {
                            process.try_status();
                        }
                        None
                    }
                }
            }
            ExitState::Exited(at) => {
                let left = DRAIN_MAX.saturating_sub(at.elapsed()).min(DRAIN_QUIET);
                match tokio::time::timeout(left, read).await {
                    Ok(read) => Some(read),
                    Err(_) => {
                        self.inbound.closed(
                            "the server exited, and a process it started still holds its \
                             stdout open",
                        );
                        self.done = true;
                        None
                    }
                }
            }
        }
    }

    fn split(&mut self, n: usize) {
        let mut rest = &self.chunk[..n];
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            let line = if self.pending.is_empty() {
                &rest[..end]
            } else {
                self.pending.extend_from_slice(&rest[..end]);
                self.pending.as_slice()
            };
            if line.len() > self.max_message {
                self.inbound.fatal(too_large(line.len(), self.max_message));
                self.done = true;
                return;
            }
            if let Some(incoming) = parse_json(line, &self.inbound) {
                self.ready.push_back(incoming);
            }
            self.pending.clear();
            rest = &rest[end + 1..];
        }
        self.pending.extend_from_slice(rest);
        if self.pending.len() > self.max_message {
            self.inbound
                .fatal(too_large(self.pending.len(), self.max_message));
            self.done = true;
            return;
        }
        let shown = self.pending.len().min(300);
        self.inbound
            .set_partial((!self.pending.is_empty()).then(|| &self.pending[..shown]));
    }
}

fn too_large(seen: usize, max: usize) -> String {
    format!(
        "the server sent a message of more than {} (at least {seen} bytes without a newline); \
         raise the limit with Server::max_message_size if that is expected",
        human_bytes(max)
    )
}

pub(crate) fn human_bytes(n: usize) -> String {
    if n >= 1024 * 1024 && n.is_multiple_of(1024 * 1024) {
        format!("{} MiB", n / (1024 * 1024))
    } else if n >= 1024 && n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

/// One line → its JSON value; a line that is not JSON is recorded as noise,
/// a blank line ignored. JSON nested deeper than the parser reads is
/// refused with what arrived.
fn parse_json(line: &[u8], inbound: &Inbound) -> Option<Incoming> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    match serde_json::from_slice::<Value>(line) {
        Ok(value) => Some(Incoming::Json(value)),
        Err(error) if error.to_string().starts_with("recursion limit exceeded") => {
            Some(Incoming::Refused(too_deep(line)))
        }
        Err(_) => {
            inbound.noise(line);
            None
        }
    }
}

/// How deep the JSON parser reads (serde_json's fixed limit).
const DEPTH_READ: usize = 128;
/// How much of a refused line is shown.
const REFUSED_SHOWN: usize = 200;

/// A line of valid-looking JSON nested deeper than [`DEPTH_READ`] levels:
/// its top-level id, read without descending into the deep part (skipping
/// a value is not bounded by the depth), and what arrived.
fn too_deep(line: &[u8]) -> Refused {
    #[derive(Deserialize)]
    struct Frame {
        #[serde(default)]
        id: Option<RequestId>,
        #[serde(default)]
        method: Option<String>,
    }
    let frame = serde_json::from_slice::<Frame>(line).ok();
    let id = frame.and_then(|f| f.id.filter(|_| f.method.is_none()));
    let text = String::from_utf8_lossy(line);
    let shown: String = text.chars().take(REFUSED_SHOWN).collect();
    let cut = if shown.len() < text.len() { "…" } else { "" };
    Refused {
        id,
        reason: format!(
            "the server sent JSON nested deeper than {DEPTH_READ} levels, which mcptest \
             does not read (a line of {} bytes: {shown}{cut})",
            line.len()
        ),
    }
}

/// A JSON line → the JSON-RPC messages on it (a batch holds several);
/// JSON that is not a JSON-RPC message is recorded as noise.
fn typed_messages(value: Value, inbound: &Inbound) -> Vec<ServerJsonRpcMessage> {
    let values = match value {
        Value::Array(batch) if !batch.is_empty() => batch,
        other => vec![other],
    };
    let mut messages = Vec::with_capacity(values.len());
    for value in values {
        // Before rmcp reads it, so that what rmcp would drop is checked too.
        inbound.schema.received(&value);
        if is_plain_notification(&value) {
            // Recorded as it came; rmcp would only hand it to the harness's
            // no-op handlers, after building its typed form and a task.
            inbound.notifications.record(value);
            continue;
        }
        if let Some(answer) = answer_placeholder(&value, inbound) {
            inbound.incoming(&answer, value);
            messages.push(answer);
            continue;
        }
        match ServerJsonRpcMessage::deserialize(&value) {
            Ok(ServerJsonRpcMessage::Request(request)) if !inbound.answer_request(&request.id) => {}
            Ok(message) => {
                if let ServerJsonRpcMessage::Notification(notification) = &message
                    && let rmcp::model::ServerNotification::CancelledNotification(cancelled) =
                        &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    // rmcp drops the answer to a cancelled request.
                    inbound.request_answered(id);
                }
                inbound.incoming(&message, value);
                messages.push(message);
            }
            Err(_) => inbound.noise(value.to_string().as_bytes()),
        }
    }
    messages
}

/// A notification the client only records: a JSON-RPC 2.0 message with a
/// method and no id, whose params (if any) are an object. A cancellation
/// goes to rmcp, which stops the handler of the request it names.
fn is_plain_notification(value: &Value) -> bool {
    let Some(object) = value.as_object() else {
        return false;
    };
    object.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
        && !object.contains_key("id")
        && object
            .get("method")
            .and_then(Value::as_str)
            .is_some_and(|m| m != "notifications/cancelled")
        && object.get("params").is_none_or(Value::is_object)
}

/// A successful answer stands in rmcp's typed form with an empty result once
/// the client reads answers raw: rmcp only routes it by id, and building its
/// typed result means trying every result type in turn.
fn answer_placeholder(value: &Value, inbound: &Inbound) -> Option<ServerJsonRpcMessage> {
    if !inbound.raw_answers() || value.get("method").is_some() || value.get("result").is_none() {
        return None;
    }
    let id = RequestId::deserialize(value.get("id")?).ok()?;
    Some(placeholder(id))
}

/// An answer to `id` in rmcp's typed form with an empty result, for rmcp
/// to route by its id; the client reads what the answer really was from
/// the wire.
fn placeholder(id: RequestId) -> ServerJsonRpcMessage {
    ServerJsonRpcMessage::Response(JsonRpcResponse {
        jsonrpc: JsonRpcVersion2_0,
        id,
        result: ServerResult::CustomResult(CustomResult(Value::Null)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server_messages::ServerMessages;
    use rmcp::model::{ClientJsonRpcMessage, ClientRequest, NumberOrString};
    use tokio::io::AsyncWriteExt;

    fn inbound() -> Arc<Inbound> {
        Arc::new(Inbound::new(ServerMessages::new(), None, None))
    }

    #[tokio::test]
    async fn noise_is_recorded_and_reading_goes_on() {
        let (mut server, client) = tokio::io::duplex(1024);
        let (read, write) = tokio::io::split(client);
        let inbound = inbound();
        let mut transport = LineTransport::new(read, write, inbound.clone(), 1 << 20);
        server
            .write_all(b"hello there\n{\"not\":\"rpc\"}\n\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n")
            .await
            .unwrap();
        // The notification is recorded, not handed on: rmcp only sees the
        // request.
        let message = transport.receive().await.expect("a message");
        assert!(matches!(message, ServerJsonRpcMessage::Request(_)));
        assert_eq!(
            inbound.notifications.methods(),
            ["notifications/tools/list_changed", "ping"]
        );
        let (noise, total) = inbound.noise_lines();
        assert_eq!(total, 2);
        assert_eq!(noise, vec!["hello there", "{\"not\":\"rpc\"}"]);
    }

    #[tokio::test]
    async fn an_oversized_line_ends_the_stream_with_a_reason() {
        let (mut server, client) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(client);
        let inbound = inbound();
        let mut transport = LineTransport::new(read, write, inbound.clone(), 1000);
        tokio::spawn(async move {
            let _ = server.write_all(&[b'x'; 5000]).await;
            let _ = server.write_all(b"\n").await;
        });
        assert!(transport.receive().await.is_none());
        let reason = inbound.fatal_reason().expect("a reason");
        assert!(reason.contains("more than 1000 bytes"), "{reason}");
    }

    #[tokio::test]
    async fn a_partial_line_is_visible() {
        let (mut server, client) = tokio::io::duplex(1024);
        let (read, write) = tokio::io::split(client);
        let inbound = inbound();
        let mut transport = LineTransport::new(read, write, inbound.clone(), 1 << 20);
        server
            .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"res")
            .await
            .unwrap();
        let waited =
            tokio::time::timeout(std::time::Duration::from_millis(50), transport.receive()).await;
        assert!(waited.is_err(), "no complete message yet");
        assert_eq!(
            inbound.output().partial_line.as_deref(),
            Some("{\"jsonrpc\":\"2.0\",\"id\":1,\"res")
        );
    }

    #[tokio::test]
    async fn sent_lines_are_json_with_a_newline() {
        let (server, client) = tokio::io::duplex(1024);
        let (read, write) = tokio::io::split(client);
        let mut transport = LineTransport::new(read, write, inbound(), 1 << 20);
        let ping = ClientJsonRpcMessage::request(
            ClientRequest::PingRequest(Default::default()),
            NumberOrString::Number(7),
        );
        transport.send(ping).await.unwrap();
        let mut reader = tokio::io::BufReader::new(server);
        let mut line = String::new();
        tokio::io::AsyncBufReadExt::read_line(&mut reader, &mut line)
            .await
            .unwrap();
        assert!(line.ends_with('\n'));
        let parsed: ClientJsonRpcMessage = serde_json::from_str(line.trim_end()).expect("JSON-RPC");
        assert!(
            matches!(parsed, ClientJsonRpcMessage::Request(r) if r.id == NumberOrString::Number(7))
        );
    }
}
