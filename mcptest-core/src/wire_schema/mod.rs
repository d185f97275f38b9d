//! Every message a server sends, held against the official MCP schema of the
//! revision the session negotiated.
//!
//! The schema is the specification's, as the `rust-mcp-schema` crate
//! publishes it: one generated type per definition, one crate version per
//! revision (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28),
//! independent of rmcp — a server built on rmcp would pass rmcp's own types.
//! Which definition each method is read as, per revision, is one table
//! (`table.rs`); each revision is a feature, so a build compiles only the
//! revisions it checks, and a session on a known revision left out says so.
//! A message is read into the definition its method names (for an answer:
//! the method of the request it answers), so a tool whose `inputSchema` is
//! not an object schema, a progress that is a string or a result without a
//! required member is found with the path inside the message where it
//! breaks the schema and what the schema requires there.
//!
//! What is not checked, because the generated types cannot say it: number
//! ranges and string formats; `null` for an optional member; the JSON-RPC
//! error codes of 2026-07-28. Where the types are stricter than the schema
//! (an integer written `1.0`, a 2025-11-25 task `ttl` of `null`), a server
//! would be refused wrongly; `WireSchema::Warn` is the way out for such a
//! server, and each known case is listed in the tests below.

// With no revision compiled in, the readers of the table have nothing to read.
#![cfg_attr(
    not(any(
        feature = "wire-schema-2024-11-05",
        feature = "wire-schema-2025-03-26",
        feature = "wire-schema-2025-06-18",
        feature = "wire-schema-2025-11-25",
        feature = "wire-schema-2026-07-28"
    )),
    allow(dead_code, unused_imports)
)]

use std::{
    collections::{HashMap, VecDeque},
    fmt,
    sync::{Mutex, MutexGuard},
};

use rmcp::model::RequestId;
use serde::Deserialize;
use serde_json::Value;

mod fits;
mod table;
mod words;

use fits::Broken;
pub(crate) use table::Revision;
use table::{Kind, lookup};

/// What happens when a message the server sends breaks the official schema
/// of the negotiated revision. See [`Server::wire_schema`](crate::Server::wire_schema).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WireSchema {
    /// The test fails: the request the message answers fails with
    /// [`Error::SchemaViolation`](crate::Error::SchemaViolation), and any
    /// other message that broke the schema fails the test when the client is
    /// closed. The default.
    #[default]
    Fail,
    /// Each violation is printed to stderr once, and the test goes on.
    Warn,
    /// Nothing is checked.
    Off,
}

impl WireSchema {
    /// `fail`, `warn` or `off`, as the attribute and the command line write it.
    ///
    /// ```
    /// use mcptest::WireSchema;
    /// assert_eq!(WireSchema::parse("warn"), Some(WireSchema::Warn));
    /// assert_eq!(WireSchema::parse("loud"), None);
    /// ```
    pub fn parse(word: &str) -> Option<WireSchema> {
        match word {
            "fail" => Some(WireSchema::Fail),
            "warn" => Some(WireSchema::Warn),
            "off" => Some(WireSchema::Off),
            _ => None,
        }
    }

    /// The protocol revisions whose official schema this build holds, and
    /// so the revisions whose messages are checked. Each revision is a
    /// feature of `mcptest` (`wire-schema-2025-11-25`); the newest two are
    /// on by default. A session on a known revision whose feature is off is
    /// not checked, and says so once on stderr (see [`missing_feature`](Self::missing_feature)).
    ///
    /// ```
    /// assert!(mcptest::WireSchema::REVISIONS.contains(&"2025-11-25"));
    /// ```
    pub const REVISIONS: &'static [&'static str] = Revision::COMPILED_VERSIONS;

    /// The feature that would compile in the schema of `revision`, when the
    /// revision is known but this build does not hold its schema; `None`
    /// when it is checked (or unknown to mcptest).
    ///
    /// ```
    /// use mcptest::WireSchema;
    /// assert_eq!(WireSchema::missing_feature("2025-11-25"), None);
    /// assert_eq!(WireSchema::missing_feature("1999-01-01"), None);
    /// ```
    pub fn missing_feature(revision: &str) -> Option<&'static str> {
        Revision::of(revision)
            .filter(|r| !r.compiled())
            .map(Revision::feature)
    }

    /// Checks one message a server sent against the official schema of
    /// `revision` (a protocol version). A revision not in
    /// [`REVISIONS`](Self::REVISIONS) checks nothing: a caller that must not
    /// pass such a message unseen asks [`missing_feature`](Self::missing_feature)
    /// or filters by `REVISIONS` first. `answers` is the method of the
    /// request the message answers, when it is an answer. What the harness
    /// does with every message; for tools that read messages themselves
    /// (conformance).
    ///
    /// ```
    /// use mcptest::WireSchema;
    /// use serde_json::json;
    ///
    /// let answer = json!({"jsonrpc": "2.0", "id": 1,
    ///     "result": {"tools": [{"name": "a", "inputSchema": {"type": "array"}}]}});
    /// let violation = WireSchema::check("2025-11-25", &answer, Some("tools/list")).unwrap_err();
    /// assert_eq!(violation.path, "result.tools[0].inputSchema.type");
    /// assert_eq!(violation.requirement, "`type` must be \"object\", not \"array\"");
    /// ```
    pub fn check(
        revision: &str,
        message: &Value,
        answers: Option<&str>,
    ) -> Result<(), Box<SchemaViolation>> {
        match Revision::of(revision).filter(|r| r.compiled()) {
            Some(revision) => check(revision, message, answers),
            None => Ok(()),
        }
    }
}

/// A message that breaks the official schema of its revision: which message,
/// where inside it, and what the schema requires there.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SchemaViolation {
    /// The negotiated revision, `2025-11-25`.
    pub revision: String,
    /// What the message is: `the answer to tools/list`, `notification
    /// notifications/progress`, `request sampling/createMessage`.
    pub what: String,
    /// The definition it was read as: `ListToolsResult`.
    pub definition: &'static str,
    /// The path inside the message, as `tools[0].inputSchema.type` (`.` for
    /// the message itself).
    pub path: String,
    /// What the schema requires there, and what was found.
    pub requirement: String,
    /// The message, cut to a few hundred characters.
    pub message: String,
}

impl fmt::Display for SchemaViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} breaks the MCP {} schema ({}) at {}: {}\n  message: {}",
            self.what, self.revision, self.definition, self.path, self.requirement, self.message
        )
    }
}

impl std::error::Error for SchemaViolation {}

/// How much of the message a violation shows.
const MESSAGE_SHOWN: usize = 400;
/// How many requests in flight are remembered by method, and how many
/// violations outside answers are kept for the end of the session.
const ASKED_KEPT: usize = 4096;
const OTHERS_KEPT: usize = 50;

/// One connection's check of what its server sends: the session's revision,
/// the method of each request in flight, and what broke the schema.
#[derive(Default)]
pub(crate) struct SchemaWatch {
    state: Mutex<WatchState>,
}

#[derive(Default)]
struct WatchState {
    mode: WireSchema,
    revision: Option<Revision>,
    asked: HashMap<RequestId, String>,
    asked_order: VecDeque<RequestId>,
    /// Violations in answers, until the request's caller takes them.
    answers: HashMap<RequestId, SchemaViolation>,
    /// Violations in notifications and requests of the server.
    others: Vec<SchemaViolation>,
    others_dropped: usize,
    /// A known revision the server spoke whose schema this build lacks.
    unchecked: Option<Revision>,
}

impl SchemaWatch {
    fn state(&self) -> MutexGuard<'_, WatchState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn set_mode(&self, mode: WireSchema) {
        self.state().mode = mode;
    }

    /// The session's revision, once the handshake (or `server/discover`) named it.
    pub(crate) fn set_revision(&self, version: &str) {
        self.state().revision = Revision::of(version);
    }

    /// A request the client sends, so that its answer is read as the
    /// result of `method`.
    pub(crate) fn asked(&self, id: &RequestId, method: &str) {
        let mut state = self.state();
        if state.mode == WireSchema::Off {
            return;
        }
        if state.asked_order.len() == ASKED_KEPT
            && let Some(oldest) = state.asked_order.pop_front()
        {
            state.asked.remove(&oldest);
        }
        state.asked_order.push_back(id.clone());
        state.asked.insert(id.clone(), method.to_owned());
    }

    /// A message the server sent, checked against the session's revision
    /// (the handshake's answer against the revision it names).
    pub(crate) fn received(&self, message: &Value) {
        let mut state = self.state();
        if state.mode == WireSchema::Off {
            return;
        }
        let id = match message.get("method") {
            None => message
                .get("id")
                .and_then(|id| RequestId::deserialize(id).ok()),
            Some(_) => None,
        };
        let answers = id.as_ref().and_then(|id| state.asked.remove(id));
        let revision = match answers.as_deref() {
            Some("initialize") => message
                .pointer("/result/protocolVersion")
                .and_then(Value::as_str)
                .and_then(Revision::of),
            Some("server/discover") => Some(Revision::V2026_07_28),
            _ => state.revision,
        };
        let Some(revision) = revision else {
            return;
        };
        if !revision.compiled() {
            state.unchecked = Some(revision);
            unchecked_once(revision);
            return;
        }
        let Err(violation) = check(revision, message, answers.as_deref()) else {
            return;
        };
        let violation = *violation;
        match (state.mode, id) {
            (WireSchema::Warn, _) => eprintln!("mcptest: warning: {violation}"),
            (_, Some(id)) if answers.is_some() => {
                state.answers.insert(id, violation);
            }
            _ if state.others.len() < OTHERS_KEPT => state.others.push(violation),
            _ => state.others_dropped += 1,
        }
    }

    /// The revision of messages left unchecked because this build does not
    /// hold its schema, if the server spoke one.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn unchecked(&self) -> Option<&'static str> {
        self.state().unchecked.map(Revision::as_str)
    }

    /// The violation in the answer to request `id`, if its answer broke the
    /// schema (and the session fails on that).
    pub(crate) fn take_violation(&self, id: &RequestId) -> Option<SchemaViolation> {
        self.state().answers.remove(id)
    }

    /// A request that will never be answered (timed out, cancelled).
    pub(crate) fn forget(&self, id: &RequestId) {
        let mut state = self.state();
        state.asked.remove(id);
        state.answers.remove(id);
    }

    /// The violations outside answers that no request reported, each once,
    /// in words, and how many more were not kept.
    pub(crate) fn take_unreported(&self) -> (Vec<String>, usize) {
        let mut state = self.state();
        let others = std::mem::take(&mut state.others);
        let dropped = std::mem::take(&mut state.others_dropped);
        (others.iter().map(ToString::to_string).collect(), dropped)
    }
}

/// Says once per process and revision that messages under a revision whose
/// schema this build lacks go unchecked, and which feature checks them: a
/// message is never passed as checked when it was not.
fn unchecked_once(revision: Revision) {
    static SAID: Mutex<Vec<Revision>> = Mutex::new(Vec::new());
    let mut said = SAID.lock().unwrap_or_else(|p| p.into_inner());
    if said.contains(&revision) {
        return;
    }
    said.push(revision);
    eprintln!(
        "mcptest: note: the server speaks MCP {}, whose schema this build does not hold: \
         its messages are not checked against the schema (turn on mcptest's `{}` feature)",
        revision.as_str(),
        revision.feature()
    );
}

/// Checks one message from the server against `revision`'s schema.
/// `answers` is the method of the request the message answers, when it is
/// an answer to one of ours. A method the revision does not define (an
/// extension, a custom notification) and an answer to an unknown request
/// are not checked: the schema says nothing about them.
pub(crate) fn check(
    revision: Revision,
    message: &Value,
    answers: Option<&str>,
) -> Result<(), Box<SchemaViolation>> {
    let method = message.get("method").and_then(Value::as_str);
    // A notification or a request is read in its JSON-RPC frame first, and
    // only when the revision defines its method.
    let framed = |kind, frame, method| {
        lookup(revision, kind, method, message).map(|definition| {
            lookup(revision, Kind::Envelope, frame, message)
                .unwrap_or(Ok(()))
                .and(definition)
        })
    };
    let outcome = match (method, message.get("id"), answers) {
        (Some(method), Some(_), _) => framed(Kind::Request, "request", method)
            .map(|r| r.map_err(|b| ("request", method.to_owned(), b))),
        (Some(method), None, _) => framed(Kind::Notification, "notification", method)
            .map(|r| r.map_err(|b| ("notification", method.to_owned(), b))),
        (None, _, Some(asked)) => {
            if message.get("error").is_some() {
                lookup(revision, Kind::Envelope, "error", message)
                    .map(|r| r.map_err(|b| ("the error answer to", asked.to_owned(), b)))
            } else {
                let result = message.get("result").unwrap_or(&Value::Null);
                result_fits(revision, asked, result)
                    .map(|r| r.map_err(|b| ("the answer to", asked.to_owned(), b)))
            }
        }
        (None, _, None) => None,
    };
    match outcome {
        None | Some(Ok(())) => Ok(()),
        Some(Err((what, method, broken))) => {
            // A result is read on its own: its paths start inside `result`.
            let path = match (what, broken.path.as_str()) {
                ("the answer to", ".") => "result".to_owned(),
                ("the answer to", path) => format!("result.{path}"),
                (_, path) => path.to_owned(),
            };
            Err(Box::new(SchemaViolation {
                revision: revision.as_str().to_owned(),
                what: format!("{what} {method}"),
                definition: broken.definition,
                path,
                requirement: broken.requirement,
                message: trimmed(message),
            }))
        }
    }
}

/// A result, read as the definition its request names; the results a
/// request may answer besides (an input-required round, a task) are told
/// apart by their members.
fn result_fits(revision: Revision, method: &str, result: &Value) -> Option<Result<(), Broken>> {
    let result_type = result.get("resultType").and_then(Value::as_str);
    let other = match result_type {
        Some("input_required")
            if matches!(method, "tools/call" | "prompts/get" | "resources/read") =>
        {
            Some("input_required")
        }
        _ if method == "tools/call"
            && result.get("task").is_some()
            && result.get("content").is_none() =>
        {
            Some("task")
        }
        _ => None,
    };
    if let Some(read) = other.and_then(|other| lookup(revision, Kind::Other, other, result)) {
        return Some(read);
    }
    // A result type of an extension (the tasks extension's `task`): the
    // core schema does not define it, so it says nothing about it.
    if revision == Revision::V2026_07_28
        && result_type.is_some_and(|t| t != "complete" && t != "input_required")
    {
        return None;
    }
    lookup(revision, Kind::Result, method, result)
}

/// The message as compact JSON, cut to [`MESSAGE_SHOWN`] characters.
fn trimmed(message: &Value) -> String {
    let text = message.to_string();
    match text.char_indices().nth(MESSAGE_SHOWN) {
        None => text,
        Some((cut, _)) => format!("{}… ({} bytes in all)", &text[..cut], text.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The revisions this build checks (all five in the workspace's test
    /// run, the newest two when the crate is tested alone).
    fn compiled() -> impl Iterator<Item = Revision> {
        Revision::ALL.iter().copied().filter(|r| r.compiled())
    }

    fn answer(result: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": 2, "result": result})
    }

    /// A 2026-07-28 result carries `resultType` (and a list its cache hints).
    fn of_revision(revision: Revision, mut result: Value) -> Value {
        if revision == Revision::V2026_07_28 {
            result["resultType"] = json!("complete");
            if result.get("tools").is_some() {
                result["ttlMs"] = json!(0);
                result["cacheScope"] = json!("private");
            }
        }
        result
    }

    #[test]
    fn a_null_where_the_schema_allows_only_absence_is_a_violation() {
        let error = json!({"jsonrpc": "2.0", "id": null,
            "error": {"code": -32000, "message": "Bad Request"}});
        for revision in compiled() {
            let v = check(revision, &error, Some("tools/list")).unwrap_err();
            // Required (a RequestId) before 2025-11-25, optional since.
            assert_eq!(v.path, "id", "{v}");
        }
        let v = check(Revision::V2026_07_28, &error, Some("tools/list")).unwrap_err();
        assert!(v.requirement.contains("null is not allowed"), "{v}");
        let listed = answer(json!({"tools": [{"name": "a", "title": null,
            "inputSchema": {"type": "object"}}]}));
        let v = check(Revision::V2025_11_25, &listed, Some("tools/list")).unwrap_err();
        assert_eq!(v.path, "result.tools[0].title", "{v}");
        // An error's `data` may be any value, null too.
        let with_data = json!({"jsonrpc": "2.0", "id": 3,
            "error": {"code": -32602, "message": "bad", "data": null}});
        for revision in compiled() {
            check(revision, &with_data, Some("tools/call")).unwrap();
        }
    }

    #[test]
    fn an_extension_result_type_is_not_judged_by_the_core_schema() {
        let task = answer(json!({"resultType": "task", "taskId": "t1", "status": "working"}));
        check(Revision::V2026_07_28, &task, Some("tools/call")).unwrap();
        let bare = answer(json!({"content": []}));
        let v = check(Revision::V2026_07_28, &bare, Some("tools/call")).unwrap_err();
        assert!(v.requirement.contains("resultType"), "{v}");
    }

    #[test]
    fn the_listed_revisions_are_the_compiled_ones() {
        for version in WireSchema::REVISIONS {
            let revision = Revision::of(version).unwrap();
            assert!(revision.compiled(), "{version}");
            assert_eq!(WireSchema::missing_feature(version), None);
        }
        assert_eq!(Revision::of("2099-01-01"), None);
        // The newest two are what a default `mcptest` user has.
        assert!(WireSchema::REVISIONS.ends_with(&["2025-11-25", "2026-07-28"]));
    }

    #[test]
    fn a_revision_left_out_of_the_build_is_said_and_never_passed_as_checked() {
        let Some(left_out) = Revision::ALL.iter().find(|r| !r.compiled()) else {
            // Every revision is compiled in (the workspace's test run): the
            // crate tested alone covers this.
            return;
        };
        let version = left_out.as_str();
        assert_eq!(
            WireSchema::missing_feature(version),
            Some(left_out.feature())
        );
        assert!(!WireSchema::REVISIONS.contains(&version));
        let watch = SchemaWatch::default();
        watch.set_revision(version);
        watch.received(
            &json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": 1, "progress": "50"}}),
        );
        assert_eq!(watch.unchecked(), Some(version));
        assert_eq!(watch.take_unreported(), (Vec::new(), 0));
        let checked = SchemaWatch::default();
        checked.set_revision("2025-11-25");
        checked.received(&json!({"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "info", "data": "x"}}));
        assert_eq!(checked.unchecked(), None);
    }

    #[test]
    fn an_input_schema_that_is_not_an_object_schema_is_found_with_its_path() {
        for revision in compiled() {
            let result = of_revision(
                revision,
                json!({"tools": [{"name": "a", "inputSchema": {"type": "array"}}]}),
            );
            let v = check(revision, &answer(result), Some("tools/list")).unwrap_err();
            assert_eq!(
                v.path, "result.tools[0].inputSchema.type",
                "{revision:?}: {v}"
            );
            assert_eq!(v.definition, "ListToolsResult");
            assert_eq!(v.requirement, "`type` must be \"object\", not \"array\"");
            assert!(
                v.to_string()
                    .starts_with("the answer to tools/list breaks the MCP "),
                "{v}"
            );
        }
    }

    #[test]
    fn a_progress_that_is_a_string_is_found() {
        for revision in compiled() {
            let note = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": 1, "progress": "50"}});
            let v = check(revision, &note, None).unwrap_err();
            assert_eq!(v.path, "params.progress", "{revision:?}: {v}");
            assert_eq!(v.what, "notification notifications/progress");
            assert_eq!(
                v.requirement,
                "`progress` must be a number, not the string \"50\""
            );
        }
    }

    #[test]
    fn a_missing_required_member_is_found() {
        for revision in compiled().filter(|r| *r != Revision::V2026_07_28) {
            let v = check(
                revision,
                &answer(json!({"protocolVersion": "2025-11-25", "capabilities": {}})),
                Some("initialize"),
            )
            .unwrap_err();
            assert_eq!(v.path, "result", "{v}");
            assert_eq!(
                v.requirement, "the required member `serverInfo` is missing",
                "{v}"
            );
        }
    }

    #[test]
    fn real_servers_messages_pass() {
        for revision in compiled() {
            let tools = of_revision(
                revision,
                json!({"tools": [{
                    "name": "add", "title": "Add", "description": "Adds.",
                    "inputSchema": {"type": "object", "$schema": "https://json-schema.org/draft/2020-12/schema",
                        "properties": {"a": {"type": "number"}}, "required": ["a"], "additionalProperties": false},
                    "outputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true},
                    "_meta": {"x": 1}
                }], "nextCursor": "2", "_meta": {"y": 2}, "somethingNew": true}),
            );
            check(revision, &answer(tools), Some("tools/list")).unwrap();
            let call = of_revision(
                revision,
                json!({"content": [{"type": "text", "text": "5"}], "isError": false,
                    "structuredContent": {"sum": 5}}),
            );
            check(revision, &answer(call), Some("tools/call")).unwrap();
            let log = json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "logger": "x", "data": {"a": 1}}});
            check(revision, &log, None).unwrap();
            let error = json!({"jsonrpc": "2.0", "id": 3,
                "error": {"code": -32602, "message": "unknown tool", "data": {"name": "x"}}});
            check(revision, &error, Some("tools/call")).unwrap();
        }
    }

    #[test]
    fn what_the_schema_does_not_define_is_not_checked() {
        let custom = json!({"jsonrpc": "2.0", "method": "notifications/custom", "params": 5});
        check(Revision::V2025_11_25, &custom, None).unwrap();
        let stray = json!({"jsonrpc": "2.0", "id": 99, "result": {"anything": true}});
        check(Revision::V2025_11_25, &stray, None).unwrap();
        assert_eq!(Revision::of("1999-01-01"), None);
    }

    #[test]
    fn a_watch_holds_an_answer_s_violation_for_its_request_and_the_rest_for_the_end() {
        let watch = SchemaWatch::default();
        let id = RequestId::Number(2);
        watch.asked(&id, "initialize");
        watch.received(&json!({"jsonrpc": "2.0", "id": 2, "result": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "serverInfo": {"name": "s", "version": "1"}}}));
        assert_eq!(watch.take_violation(&id), None, "a valid handshake");
        watch.set_revision("2025-11-25");
        watch.asked(&RequestId::Number(2), "tools/list");
        watch.received(&answer(
            json!({"tools": [{"name": "a", "inputSchema": {"type": "array"}}]}),
        ));
        let got = watch.take_violation(&RequestId::Number(2));
        assert!(got.is_some_and(|v| v.what == "the answer to tools/list"));
        watch.received(
            &json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": 1, "progress": "50"}}),
        );
        let (others, dropped) = watch.take_unreported();
        assert_eq!((others.len(), dropped), (1, 0));
        assert!(
            others[0].starts_with("notification notifications/progress breaks"),
            "{others:?}"
        );
        assert_eq!(
            watch.take_unreported(),
            (Vec::new(), 0),
            "each is reported once"
        );
        let off = SchemaWatch::default();
        off.set_mode(WireSchema::Off);
        off.set_revision("2025-06-18");
        off.received(
            &json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": 1, "progress": "50"}}),
        );
        assert_eq!(off.take_unreported(), (Vec::new(), 0));
    }

    #[test]
    fn long_messages_are_cut() {
        let big = json!({"text": "x".repeat(10_000)});
        let shown = trimmed(&big);
        assert!(
            shown.len() < 500 && shown.ends_with("bytes in all)"),
            "{shown}"
        );
    }
}
