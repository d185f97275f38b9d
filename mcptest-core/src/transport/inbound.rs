//! What one connection has seen on the wire besides well-formed answers:
//! raw responses (so results keep every field the server sent), stray lines,
//! responses nobody asked for, why the inbound stream ended.

use std::{
    collections::{HashMap, HashSet, VecDeque},
    sync::{Arc, Mutex, MutexGuard},
};

use rmcp::model::{ClientJsonRpcMessage, RequestId, ServerJsonRpcMessage};
use serde_json::Value;

use super::{process::ChildProcess, refused::Refused, stderr::StderrTail};
use crate::{error::ServerOutput, server_messages::ServerMessages, wire_schema::SchemaWatch};

use crate::limits::{NOISE_KEPT, NOISE_LINE_CHARS, SERVER_REQUESTS_IN_FLIGHT, STRAY_KEPT};
/// Responses are parked here until the caller that sent the request takes them;
/// the cap only matters if a server answers requests nobody waits for any more.
const RAW_KEPT: usize = 4096;

/// Shared by the transport (which writes) and the client (which reads).
pub(crate) struct Inbound {
    pub(crate) notifications: ServerMessages,
    pub(crate) process: Option<Arc<ChildProcess>>,
    pub(crate) stderr: Option<Arc<StderrTail>>,
    /// Every message the server sends, against the official schema.
    pub(crate) schema: SchemaWatch,
    /// Set once the handshake is over: from then on every answer is read from
    /// its raw JSON, so the transport need not build rmcp's typed result.
    raw_answers: std::sync::atomic::AtomicBool,
    state: Mutex<WireState>,
}

#[derive(Default)]
struct WireState {
    noise: VecDeque<String>,
    noise_total: usize,
    partial: Option<String>,
    raw: HashMap<RequestId, Value>,
    raw_order: VecDeque<RequestId>,
    sent: HashSet<RequestId>,
    stray: Vec<String>,
    stray_total: usize,
    /// Server-to-client requests handed on to be answered whose answer is
    /// not written yet.
    answering: HashSet<RequestId>,
    /// Requests not answered because too many answers were waiting.
    unanswered: usize,
    /// Answers refused unread (too deep to parse), by the request they
    /// answer, until its caller takes the reason.
    refused: HashMap<RequestId, String>,
    closed: Option<String>,
    fatal: Option<String>,
    /// When the write in progress began (writes take turns).
    writing_since: Option<std::time::Instant>,
}

impl Inbound {
    pub(crate) fn new(
        notifications: ServerMessages,
        process: Option<Arc<ChildProcess>>,
        stderr: Option<Arc<StderrTail>>,
    ) -> Self {
        Inbound {
            notifications,
            process,
            stderr,
            schema: SchemaWatch::default(),
            raw_answers: std::sync::atomic::AtomicBool::new(false),
            state: Mutex::new(WireState::default()),
        }
    }

    /// From now on, answers are taken raw (see [`Wire::take_raw`]).
    pub(crate) fn use_raw_answers(&self) {
        self.raw_answers
            .store(true, std::sync::atomic::Ordering::Release);
    }

    pub(crate) fn raw_answers(&self) -> bool {
        self.raw_answers.load(std::sync::atomic::Ordering::Acquire)
    }

    fn state(&self) -> MutexGuard<'_, WireState> {
        // A panic while holding this lock leaves plain data behind; keep going.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Called for every message the client sends.
    pub(crate) fn outgoing(&self, message: &ClientJsonRpcMessage) {
        match message {
            ClientJsonRpcMessage::Request(request) => {
                self.schema.asked(&request.id, request.request.method());
                self.state().sent.insert(request.id.clone());
            }
            ClientJsonRpcMessage::Response(response) => {
                if let Ok(result) = serde_json::to_value(&response.result) {
                    self.notifications.record_reply(&response.id, result);
                }
            }
            ClientJsonRpcMessage::Error(error) => {
                if let (Some(id), Ok(value)) = (&error.id, serde_json::to_value(&error.error)) {
                    self.notifications
                        .record_reply(id, serde_json::json!({ "error": value }));
                }
            }
            ClientJsonRpcMessage::Notification(_) => {}
        }
    }

    /// Called for every message the server sends, with its JSON as received
    /// (or re-serialized, for transports that only hand out typed messages).
    pub(crate) fn incoming(&self, message: &ServerJsonRpcMessage, raw: Value) {
        match message {
            ServerJsonRpcMessage::Response(response) => self.park(&response.id, raw),
            ServerJsonRpcMessage::Error(error) => match &error.id {
                Some(id) => self.park(id, raw),
                None => self.state().stray(&raw),
            },
            ServerJsonRpcMessage::Notification(_) | ServerJsonRpcMessage::Request(_) => {
                self.notifications.record(raw);
            }
        }
    }

    /// A server-to-client request arrived: true when it is to be answered;
    /// false (and counted) while [`SERVER_REQUESTS_IN_FLIGHT`] answers are
    /// still waiting to be written, because the server is not reading them.
    pub(crate) fn answer_request(&self, id: &RequestId) -> bool {
        let mut state = self.state();
        if state.answering.len() >= SERVER_REQUESTS_IN_FLIGHT && !state.answering.contains(id) {
            state.unanswered += 1;
            return false;
        }
        state.answering.insert(id.clone());
        true
    }

    /// The answer to the server's request `id` was written (or could not
    /// be, or will never be: the request was cancelled).
    pub(crate) fn request_answered(&self, id: &RequestId) {
        self.state().answering.remove(id);
    }

    fn park(&self, id: &RequestId, raw: Value) {
        let mut state = self.state();
        if !state.sent.remove(id) {
            state.stray(&raw);
            return;
        }
        if state.raw.len() >= RAW_KEPT
            && let Some(oldest) = state.raw_order.pop_front()
        {
            state.raw.remove(&oldest);
        }
        state.raw_order.push_back(id.clone());
        state.raw.insert(id.clone(), raw);
    }

    /// A line refused unread: when it answers a request in flight, its
    /// reason is kept for that request's caller and its id returned (so
    /// the caller is woken); anything else is noise, with the reason.
    pub(crate) fn refuse(&self, refused: Refused) -> Option<RequestId> {
        let mut state = self.state();
        match refused.id {
            Some(id) if state.sent.contains(&id) => {
                state.refused.insert(id.clone(), refused.reason);
                drop(state);
                self.schema.forget(&id);
                Some(id)
            }
            _ => {
                drop(state);
                self.noise(refused.reason.as_bytes());
                None
            }
        }
    }

    /// Why the answer to request `id` was refused unread, if it was.
    pub(crate) fn take_refused(&self, id: &RequestId) -> Option<String> {
        self.state().refused.remove(id)
    }

    /// Takes the raw JSON of the answer to request `id` (its `result`, or the
    /// whole error object for an error answer).
    pub(crate) fn take_raw(&self, id: &RequestId) -> Option<Value> {
        let mut state = self.state();
        state.sent.remove(id);
        let raw = state.raw.remove(id)?;
        state.raw_order.retain(|x| x != id);
        Some(raw)
    }

    /// Forget a request that will never be answered (timed out, cancelled).
    pub(crate) fn forget(&self, id: &RequestId) {
        let mut state = self.state();
        state.refused.remove(id);
        state.raw.remove(id);
        state.raw_order.retain(|x| x != id);
    }

    /// A write to the server's stdin starts; it ends when the guard drops.
    pub(crate) fn write_begun(&self) {
        self.state().writing_since = Some(std::time::Instant::now());
    }

    pub(crate) fn write_ended(&self) {
        self.state().writing_since = None;
    }

    /// How long the write in progress has been blocked, if one is.
    pub(crate) fn stalled_write(&self) -> Option<std::time::Duration> {
        self.state().writing_since.map(|t| t.elapsed())
    }

    pub(crate) fn noise(&self, line: &[u8]) {
        let text = truncate(&String::from_utf8_lossy(line));
        let mut state = self.state();
        state.noise_total += 1;
        if state.noise.len() == NOISE_KEPT {
            state.noise.pop_front();
        }
        state.noise.push_back(text);
    }

    pub(crate) fn set_partial(&self, partial: Option<&[u8]>) {
        self.state().partial = partial.map(|p| truncate(&String::from_utf8_lossy(p)));
    }

    /// The inbound stream ended; `why` says how, in words.
    pub(crate) fn closed(&self, why: impl Into<String>) {
        let mut state = self.state();
        if state.closed.is_none() {
            state.closed = Some(why.into());
        }
    }

    /// The inbound stream ended because of something the server did wrong
    /// (as opposed to simply exiting).
    pub(crate) fn fatal(&self, why: impl Into<String>) {
        let why = why.into();
        let mut state = self.state();
        state.fatal.get_or_insert_with(|| why.clone());
        state.closed.get_or_insert(why);
    }

    pub(crate) fn fatal_reason(&self) -> Option<String> {
        self.state().fatal.clone()
    }

    pub(crate) fn closed_reason(&self) -> Option<String> {
        self.state().closed.clone()
    }

    /// Non-JSON lines seen on stdout so far (the most recent 50), and how many in all.
    pub(crate) fn noise_lines(&self) -> (Vec<String>, usize) {
        let state = self.state();
        (state.noise.iter().cloned().collect(), state.noise_total)
    }

    /// Everything worth showing next to an error.
    pub(crate) fn output(&self) -> Box<ServerOutput> {
        let state = self.state();
        Box::new(ServerOutput {
            stderr: self.stderr.as_ref().map(|s| s.text()).unwrap_or_default(),
            stdout_noise: state.noise.iter().cloned().collect(),
            stdout_noise_total: state.noise_total,
            partial_line: state.partial.clone(),
            stray_responses: state.stray.clone(),
            stray_responses_total: state.stray_total,
            unanswered_requests: state.unanswered,
        })
    }
}

impl WireState {
    /// An answer nobody asked for: the first few are kept, all are counted.
    fn stray(&mut self, raw: &Value) {
        self.stray_total += 1;
        if self.stray.len() < STRAY_KEPT {
            self.stray.push(truncate(&raw.to_string()));
        }
    }
}

fn truncate(text: &str) -> String {
    let text = text.trim_end_matches(['\r', '\n']);
    if text.chars().count() <= NOISE_LINE_CHARS {
        return text.to_owned();
    }
    let cut: String = text.chars().take(NOISE_LINE_CHARS).collect();
    format!("{cut}… ({} bytes in all)", text.len())
}
