//! Replaying: a task on the server end of an in-memory pipe answers each
//! request from the tape, as the recorded server did.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};

use super::{
    file::{Side, Tape, redact},
    reading::CASSETTE_MISS,
};
use crate::transport::stderr::StderrTail;

/// Compared strings are cut to this many characters when looking for the
/// closest recorded request.
const CLOSEST_CHARS: usize = 2000;

/// What identifies a request on tape: its method and params, without
/// `_meta` (progress tokens and the like differ from run to run) and
/// without `initialize`'s `clientInfo` (it carries mcptest's version, so a
/// cassette outlives an upgrade).
fn key(message: &Value) -> Value {
    let mut params = message.get("params").cloned().unwrap_or(Value::Null);
    if let Some(map) = params.as_object_mut() {
        map.remove("_meta");
        if message.get("method").and_then(Value::as_str) == Some("initialize") {
            map.remove("clientInfo");
        }
    }
    json!({"method": message.get("method"), "params": params})
}

fn progress_token(message: &Value) -> Option<&Value> {
    message.pointer("/params/_meta/progressToken")
}

fn is_request(message: &Value) -> bool {
    message.get("method").is_some() && message.get("id").is_some()
}

/// Serves `tape` on `io` until the client closes its end.
pub(crate) async fn serve(io: DuplexStream, tape: Tape, log: Arc<StderrTail>) {
    let (read, mut write) = tokio::io::split(io);
    let mut lines = BufReader::new(read).lines();
    // The recorded requests: position on tape and key.
    let recorded: Vec<(usize, Value)> = tape
        .messages
        .iter()
        .enumerate()
        .filter(|(_, e)| e.from == Side::Client && is_request(&e.message))
        .map(|(i, e)| (i, key(&e.message)))
        .collect();
    let mut used = vec![false; recorded.len()];
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(mut message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        // Notifications and the client's answers to recorded server requests
        // need no answer.
        if !is_request(&message) {
            continue;
        }
        redact(&mut message, &tape.redact);
        let live_key = key(&message);
        let id = message["id"].clone();
        let found = recorded
            .iter()
            .enumerate()
            .position(|(n, (_, k))| !used[n] && *k == live_key);
        let answers = match found {
            Some(n) => {
                used[n] = true;
                play(&tape, recorded[n].0, &id, progress_token(&message))
            }
            None => {
                let answer = miss(&tape, &recorded, &live_key, &id);
                log.push(
                    format!(
                        "{}\n",
                        answer["error"]["message"].as_str().unwrap_or_default()
                    )
                    .as_bytes(),
                );
                vec![answer]
            }
        };
        for answer in answers {
            let mut line = serde_json::to_vec(&answer).expect("JSON values serialize");
            line.push(b'\n');
            if write.write_all(&line).await.is_err() || write.flush().await.is_err() {
                return;
            }
        }
    }
}

/// The recorded server messages for the request at `at`: what the server
/// sent before the next request, and the answer (under the live `id`).
fn play(tape: &Tape, at: usize, id: &Value, live_token: Option<&Value>) -> Vec<Value> {
    let request = &tape.messages[at].message;
    let recorded_id = &request["id"];
    let recorded_token = progress_token(request);
    let mut out = Vec::new();
    let mut before_next_request = true;
    for entry in &tape.messages[at + 1..] {
        let message = &entry.message;
        if entry.from == Side::Client {
            if is_request(message) {
                before_next_request = false;
            }
            continue;
        }
        if message.get("method").is_none() {
            if message.get("id") == Some(recorded_id) {
                let mut answer = message.clone();
                answer["id"] = id.clone();
                out.push(answer);
                return out;
            }
            continue;
        }
        if before_next_request {
            let mut message = message.clone();
            if let (Some(recorded), Some(live)) = (recorded_token, live_token)
                && message.pointer("/params/progressToken") == Some(recorded)
            {
                message["params"]["progressToken"] = live.clone();
            }
            out.push(message);
        }
    }
    out.push(json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {
            "code": CASSETTE_MISS,
            "message": format!(
                "cassette {} holds this request but no answer to it (the recording ended first)",
                tape.path.display()
            ),
        },
    }));
    out
}

/// The answer to a request the tape does not hold: an error naming the
/// closest recorded request.
fn miss(tape: &Tape, recorded: &[(usize, Value)], live: &Value, id: &Value) -> Value {
    let text = |v: &Value| {
        v.to_string()
            .chars()
            .take(CLOSEST_CHARS)
            .collect::<String>()
    };
    let live_text = text(live);
    let closest = recorded.iter().map(|(_, k)| k).min_by_key(|k| {
        let other_method = k["method"] != live["method"];
        (other_method, strsim::levenshtein(&text(k), &live_text))
    });
    let mut message = format!(
        "cassette {} has no recorded request {}",
        tape.path.display(),
        live
    );
    match closest {
        Some(closest) => message.push_str(&format!("; the closest recorded request is {closest}")),
        None => message.push_str("; it records no requests at all"),
    }
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": CASSETTE_MISS, "message": message, "data": {"closest": closest}},
    })
}
