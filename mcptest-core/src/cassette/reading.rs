//! Reading a cassette back as the requests it holds, each with its answer
//! (what `mcptest snapshot` and the coprocess show), and the code of a
//! replayed request the cassette does not hold.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::file::{Side, Tape, redact};
use crate::error::Error;

/// The JSON-RPC error code of an answer to a request that is not in the
/// cassette being replayed.
pub const CASSETTE_MISS: i32 = -32099;

/// One request a client sent in a recorded session, with the answer it got.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Interaction {
    /// The request's method.
    pub method: String,
    /// Its params, without `_meta` (`null` when it had none).
    pub params: Value,
    /// `{"result": ...}` or `{"error": ...}` as the server answered, or
    /// `null` when no answer was recorded.
    pub answer: Value,
}

/// The client's requests of a cassette file, in order, each with its answer,
/// leaving out `initialize` (whose answer names the server's version) and
/// notifications. `redact` names payload fields replaced by `"[redacted]"`
/// wherever they appear, as [`Server::cassette_redact`](crate::Server::cassette_redact)
/// does.
///
/// # Errors
///
/// The file cannot be read, or is not a cassette this version reads.
pub fn interactions(path: &Path, redact_fields: &[String]) -> Result<Vec<Interaction>, Error> {
    let tape = Tape::load(path, redact_fields)?;
    // The two directions are recorded by different threads, so an answer
    // can be written down before its request: pair them by id, not order.
    let mut requests: Vec<(Value, Interaction)> = Vec::new();
    let mut answers: Vec<(Value, Value)> = Vec::new();
    for entry in &tape.messages {
        let message = &entry.message;
        let Some(id) = message.get("id") else {
            continue;
        };
        match (entry.from, message.get("method").and_then(Value::as_str)) {
            (Side::Client, Some("initialize")) | (Side::Server, Some(_)) => {}
            (Side::Client, Some(method)) => {
                let mut params = message.get("params").cloned().unwrap_or(Value::Null);
                if let Value::Object(map) = &mut params {
                    map.remove("_meta");
                }
                redact(&mut params, &tape.redact);
                requests.push((
                    id.clone(),
                    Interaction {
                        method: method.to_owned(),
                        params,
                        answer: Value::Null,
                    },
                ));
            }
            (Side::Client, None) => {}
            (Side::Server, None) => {
                let mut answer = match (message.get("result"), message.get("error")) {
                    (Some(result), _) => serde_json::json!({ "result": result }),
                    (None, Some(error)) => serde_json::json!({ "error": error }),
                    _ => continue,
                };
                redact(&mut answer, &tape.redact);
                answers.push((id.clone(), answer));
            }
        }
    }
    for (id, exchange) in &mut requests {
        if let Some(at) = answers.iter().position(|(answered, _)| answered == id) {
            exchange.answer = answers.remove(at).1;
        }
    }
    Ok(requests.into_iter().map(|(_, e)| e).collect())
}
