//! The schema ledger: every message the server sent during a run, held
//! against the official schema of the revision it was sent under, as the
//! [`Probe`](super::probe::Probe) sees it (set-up exchanges too).
//!
//! The revision of a message is the one its request names in `_meta`
//! (2026-07-28 requests), else the one `initialize` agreed on for that
//! channel; an answer to `initialize` is read under the revision it names.
//! A message under a revision the schema does not cover (a deliberately
//! unknown version) is not judged; neither is a method the revision does
//! not define (an extension) nor an answer to a request the run did not
//! send. An error without an id that comes back for a request is read as
//! its answer.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use super::message::META_VERSION;
use crate::model::{Exchange, RawResponse};
use mcptest_core::{SchemaViolation, WireSchema};

/// Violations kept in full; the rest are counted.
const KEPT: usize = 10;

/// What the run's messages showed against the schema.
#[derive(Debug, Default)]
pub(crate) struct SchemaLedger {
    /// Messages judged.
    pub(crate) checked: usize,
    /// The revisions they were judged under.
    pub(crate) revisions: BTreeSet<&'static str>,
    /// The first violations, each with the exchange it came in.
    pub(crate) found: Vec<(SchemaViolation, Exchange)>,
    /// Violations beyond [`KEPT`].
    pub(crate) more: usize,
    /// The revision `initialize` agreed on, per open channel.
    versions: HashMap<usize, String>,
}

impl SchemaLedger {
    /// Judges every message the server sent in `exchange`, on channel `ch`
    /// (an index of the probe's open channels).
    pub(crate) fn hold(&mut self, ch: usize, exchange: &Exchange) {
        let messages = match &exchange.response {
            RawResponse::Messages { messages, .. } | RawResponse::Http { messages, .. } => messages,
            RawResponse::Nothing { .. } | RawResponse::Failed { .. } => return,
        };
        let sent: Option<Value> = serde_json::from_str(&exchange.request.body).ok();
        let asked = sent.as_ref().and_then(|s| s.get("method")?.as_str());
        let asked_id = sent.as_ref().and_then(|s| s.get("id"));
        let named = sent
            .as_ref()
            .and_then(|s| s.get("params")?.get("_meta")?.get(META_VERSION)?.as_str());
        for message in messages {
            // An error without an id (or with `"id": null`) that comes
            // back for a request is read as its answer, as the official
            // suite reads it: the schema then says whether it may lack one.
            let idless_error =
                message.get("error").is_some() && message.get("id").is_none_or(Value::is_null);
            let answers = match (asked, asked_id) {
                (Some(method), Some(id))
                    if message.get("method").is_none()
                        && (message.get("id") == Some(id) || idless_error) =>
                {
                    Some(method)
                }
                _ => None,
            };
            let agreed = (answers == Some("initialize"))
                .then(|| message.get("result")?.get("protocolVersion")?.as_str())
                .flatten();
            if let Some(agreed) = agreed {
                self.versions.insert(ch, agreed.to_owned());
            }
            let revision = agreed
                .or(named)
                .or_else(|| self.versions.get(&ch).map(String::as_str));
            let Some(revision) = revision.and_then(known) else {
                continue;
            };
            self.checked += 1;
            self.revisions.insert(revision);
            if let Err(violation) = WireSchema::check(revision, message, answers) {
                if self.found.len() < KEPT {
                    self.found.push((*violation, exchange.clone()));
                } else {
                    self.more += 1;
                }
            }
        }
    }

    /// The probe closed its channels: their indices start over.
    pub(crate) fn channels_closed(&mut self) {
        self.versions.clear();
    }
}

/// The listed revision `version` names, as a `'static` name.
fn known(version: &str) -> Option<&'static str> {
    WireSchema::REVISIONS
        .iter()
        .copied()
        .find(|r| *r == version)
}
