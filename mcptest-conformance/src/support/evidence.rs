//! The evidence of one exchange, bounded: the first
//! [`EVIDENCE_KEPT`](crate::model::EVIDENCE_KEPT) messages kept and the rest
//! counted, and how a failure reads in it.

use std::time::Duration;

use serde_json::Value;

use crate::model::{EVIDENCE_KEPT, Exchange, RawResponse};
use mcptest_core::Error;

/// The messages of one exchange: the first [`EVIDENCE_KEPT`] kept, the
/// rest counted.
#[derive(Default)]
pub(crate) struct Kept {
    pub(crate) messages: Vec<Value>,
    pub(crate) dropped: usize,
}

impl Kept {
    pub(crate) fn push(&mut self, message: Value) {
        if self.messages.len() < EVIDENCE_KEPT {
            self.messages.push(message);
        } else {
            self.dropped += 1;
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.messages.is_empty() && self.dropped == 0
    }

    pub(crate) fn response(&self) -> RawResponse {
        RawResponse::Messages {
            messages: self.messages.clone(),
            dropped: self.dropped,
        }
    }
}

/// A wait in the milliseconds evidence counts in.
pub(crate) fn millis(d: Duration) -> u64 {
    d.as_millis().try_into().unwrap_or(u64::MAX)
}

/// The first line of an error, without the server output block.
pub(crate) fn error_text(error: &Error) -> String {
    error
        .to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// Adds messages that arrived after an exchange to its evidence, within
/// the same bound.
pub(crate) fn append_late(exchange: &mut Exchange, late: &[Value]) {
    match &mut exchange.response {
        RawResponse::Messages { messages, dropped } => {
            let room = EVIDENCE_KEPT.saturating_sub(messages.len());
            messages.extend(late.iter().take(room).cloned());
            *dropped += late.len().saturating_sub(room);
        }
        RawResponse::Http { messages, .. } => {
            let room = EVIDENCE_KEPT.saturating_sub(messages.len());
            messages.extend(late.iter().take(room).cloned());
        }
        other => {
            *other = RawResponse::Messages {
                messages: late.iter().take(EVIDENCE_KEPT).cloned().collect(),
                dropped: late.len().saturating_sub(EVIDENCE_KEPT),
            };
        }
    }
}
