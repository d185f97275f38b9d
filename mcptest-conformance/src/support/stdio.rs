//! The stdio side of a [`Probe`](super::probe::Probe): one line out, the
//! messages that come back until its answer, each exchange as evidence.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::evidence::{Kept, error_text, millis};
use super::received::{Missing, Received, broke};
use crate::model::RawResponse;
use mcptest_core::__support::is_response;
use mcptest_core::{Error, RawConnection};

/// A failed write usually means the server exited; its exit status says
/// more than the broken pipe.
async fn gone(connection: &mut RawConnection, error: Error) -> Error {
    match connection.recv(Duration::from_secs(2)).await {
        Err(exited @ Error::ServerExited { .. }) => exited,
        _ => error,
    }
}

/// Sends a request and reads until its answer (the messages before it
/// kept as its evidence) or the timeout.
pub(crate) async fn call(
    connection: &mut RawConnection,
    message: &Value,
    timeout: Duration,
) -> (Received, RawResponse) {
    let started = Instant::now();
    if let Err(error) = connection.send(message).await {
        return broke(error_text(&gone(connection, error).await));
    }
    let mut others = Kept::default();
    loop {
        let left = timeout.saturating_sub(started.elapsed());
        match connection.recv(left).await {
            Ok(incoming) if is_response(&incoming) => {
                let mut messages = others.messages.clone();
                messages.push(incoming.clone());
                return (
                    Received {
                        response: Some(incoming),
                        others: others.messages,
                        ..Received::default()
                    },
                    RawResponse::Messages {
                        messages,
                        dropped: others.dropped,
                    },
                );
            }
            Ok(incoming) => others.push(incoming),
            Err(Error::Timeout { .. }) => {
                let response = if others.is_empty() {
                    RawResponse::Nothing {
                        waited_ms: millis(timeout),
                    }
                } else {
                    others.response()
                };
                return (
                    Received {
                        others: others.messages,
                        missing: Some(Missing::Silent(timeout)),
                        ..Received::default()
                    },
                    response,
                );
            }
            Err(error) => {
                let why = error_text(&error);
                return (
                    Received {
                        others: others.messages,
                        missing: Some(Missing::Broke(why.clone())),
                        ..Received::default()
                    },
                    RawResponse::Failed { error: why },
                );
            }
        }
    }
}

/// Sends `body` as a raw line and `sentinel` (a request) after it, and
/// reads until the sentinel's answer: everything for `body` came before
/// it, so a server that drops `body` costs no timeout.
pub(crate) async fn send_raw(
    connection: &mut RawConnection,
    body: &str,
    sentinel: &Value,
    timeout: Duration,
    started: Instant,
) -> (Received, RawResponse) {
    let sent = match connection.send_line(body).await {
        Ok(()) => connection.send(sentinel).await,
        Err(error) => Err(error),
    };
    if let Err(error) = sent {
        return broke(error_text(&gone(connection, error).await));
    }
    let sentinel_id = sentinel.get("id").cloned().unwrap_or(Value::Null);
    let mut messages = Kept::default();
    let mut answer = None;
    loop {
        let left = timeout.saturating_sub(started.elapsed());
        match connection.recv(left).await {
            Ok(incoming) => {
                if is_response(&incoming) && incoming.get("id") == Some(&sentinel_id) {
                    // The sentinel's answer: everything for `body` came before it.
                    let missing = answer.is_none().then_some(Missing::Dropped);
                    let response = messages.response();
                    let others = messages
                        .messages
                        .into_iter()
                        .filter(|m| !is_response(m))
                        .collect();
                    return (
                        Received {
                            response: answer,
                            others,
                            missing,
                            ..Received::default()
                        },
                        response,
                    );
                }
                if answer.is_none() && is_response(&incoming) {
                    answer = Some(incoming.clone());
                }
                messages.push(incoming);
            }
            Err(Error::Timeout { .. }) => {
                let response = if messages.is_empty() {
                    RawResponse::Nothing {
                        waited_ms: millis(timeout),
                    }
                } else {
                    messages.response()
                };
                let missing = answer.is_none().then_some(Missing::Silent(timeout));
                return (
                    Received {
                        response: answer,
                        missing,
                        ..Received::default()
                    },
                    response,
                );
            }
            Err(error) => {
                let why = error_text(&error);
                return (
                    Received {
                        response: answer,
                        missing: Some(Missing::Broke(why.clone())),
                        ..Received::default()
                    },
                    RawResponse::Failed { error: why },
                );
            }
        }
    }
}

/// [`Probe::stream`](super::probe::Probe::stream) over stdio.
pub(crate) async fn stream(
    connection: &mut RawConnection,
    message: &Value,
    trigger: Option<&Value>,
    timeout: Duration,
    quiet: Duration,
) -> (Vec<Value>, RawResponse, Option<(Received, RawResponse)>) {
    if let Err(error) = connection.send(message).await {
        let why = error_text(&gone(connection, error).await);
        return (Vec::new(), RawResponse::Failed { error: why }, None);
    }
    let mut stream = Kept::default();
    let mut broke = None;
    match connection.recv(timeout).await {
        Ok(first) => stream.push(first),
        Err(Error::Timeout { .. }) => {}
        Err(error) => broke = Some(error_text(&error)),
    }
    let mut trigger_reply = None;
    if let (Some(trigger), None) = (trigger, &broke) {
        let (reply, response) = call(connection, trigger, timeout).await;
        for other in &reply.others {
            stream.push(other.clone());
        }
        trigger_reply = Some((reply, response));
    }
    if broke.is_none() {
        let deadline = Instant::now() + quiet;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match connection.recv(left).await {
                Ok(message) => stream.push(message),
                Err(Error::Timeout { .. }) => break,
                Err(error) => {
                    broke = Some(error_text(&error));
                    break;
                }
            }
        }
    }
    let response = match broke {
        Some(error) => RawResponse::Failed { error },
        None if stream.is_empty() => RawResponse::Nothing {
            waited_ms: millis(timeout),
        },
        None => stream.response(),
    };
    (stream.messages, response, trigger_reply)
}
