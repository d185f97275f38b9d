//! The Streamable HTTP side of a [`Probe`](super::probe::Probe): a POST (or
//! a session's `DELETE`) and its answer, a stream read while another
//! request is sent, each exchange as evidence.

use std::time::Duration;

use serde_json::Value;

use super::evidence::{error_text, millis};
use super::received::{Missing, Received, broke};
use crate::model::RawResponse;
use mcptest_core::__support::is_response;
use mcptest_core::{Error, RawHttp};

/// [`Probe::stream`](super::probe::Probe::stream) over HTTP.
pub(crate) async fn stream(
    http: &RawHttp,
    message: &Value,
    headers: &[(String, String)],
    trigger: Option<&Value>,
    trigger_headers: &[(String, String)],
    timeout: Duration,
    quiet: Duration,
) -> (Vec<Value>, RawResponse, Option<(Received, RawResponse)>) {
    let (first_tx, first_rx) = tokio::sync::oneshot::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel();
    let pairs: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let reader = http.post_stream(message.to_string(), &pairs, first_tx, stop_rx);
    let driver = async {
        let _ = tokio::time::timeout(timeout, first_rx).await;
        let reply = match trigger {
            Some(trigger) => Some(send(http, Some(trigger.to_string()), trigger_headers).await),
            None => None,
        };
        tokio::time::sleep(quiet).await;
        let _ = stop_tx.send(());
        reply
    };
    let (read, trigger_reply) = tokio::join!(reader, driver);
    match read {
        Ok(reply) => {
            let response = RawResponse::Http {
                status: reply.status,
                content_type: reply.content_type().map(str::to_owned),
                body: reply.messages.is_empty().then(|| reply.body.clone()),
                messages: reply.messages.clone(),
            };
            (reply.messages, response, trigger_reply)
        }
        Err(Error::Timeout { after, .. }) => (
            Vec::new(),
            RawResponse::Nothing {
                waited_ms: millis(after),
            },
            trigger_reply,
        ),
        Err(error) => (
            Vec::new(),
            RawResponse::Failed {
                error: error_text(&error),
            },
            trigger_reply,
        ),
    }
}

/// A POST of `body`, or a `DELETE` when there is none, as a [`Received`] and
/// its evidence.
pub(crate) async fn send(
    http: &RawHttp,
    body: Option<String>,
    headers: &[(String, String)],
) -> (Received, RawResponse) {
    let pairs: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let sent = match body {
        Some(body) => http.post(body, &pairs).await,
        None => http.delete(&pairs).await,
    };
    match sent {
        Ok(reply) => {
            let response = reply.response().cloned();
            let others = reply
                .messages
                .iter()
                .filter(|m| !is_response(m))
                .cloned()
                .collect();
            let missing = response.is_none().then_some(Missing::NoMessage);
            let raw = RawResponse::Http {
                status: reply.status,
                content_type: reply.content_type().map(str::to_owned),
                body: reply.messages.is_empty().then(|| reply.body.clone()),
                messages: reply.messages,
            };
            (
                Received {
                    response,
                    others,
                    status: Some(reply.status),
                    headers: reply.headers,
                    missing,
                },
                raw,
            )
        }
        Err(Error::Timeout { after, .. }) => (
            Received {
                missing: Some(Missing::Silent(after)),
                ..Received::default()
            },
            RawResponse::Nothing {
                waited_ms: millis(after),
            },
        ),
        Err(error) => broke(error_text(&error)),
    }
}
