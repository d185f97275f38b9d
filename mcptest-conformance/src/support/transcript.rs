//! The transcript of a client check session: every message the client under
//! test sent, each with the recording server's answer (over HTTP with the
//! request's headers and the response's status), and every connection to
//! the canary. Client checks judge nothing else.

use serde_json::Value;

use super::message::META_VERSION;
use super::recording_server::{DocumentFetch, Event};
use crate::model::{ClientRegistration, Exchange, RawRequest, RawResponse, Transport};

/// What the recording server saw, in order.
#[derive(Debug, Default)]
pub(crate) struct Transcript {
    /// The client's messages.
    pub(crate) sent: Vec<Sent>,
    /// The peers that connected to the canary (a network `$ref` fetched).
    pub(crate) canary_hits: Vec<String>,
    /// Every HTTP request, whatever its path (the MCP endpoint's POSTs
    /// are also in `sent`), in arrival order.
    #[cfg_attr(not(feature = "http-mock"), allow(dead_code))]
    pub(crate) http: Vec<HttpExchange>,
    /// Every Client ID Metadata Document the authorization server fetched,
    /// in order.
    #[cfg_attr(not(feature = "http-mock"), allow(dead_code))]
    pub(crate) documents: Vec<DocumentFetch>,
    /// How the authorization server let the client register (set by the
    /// run, not recorded).
    #[cfg_attr(not(feature = "http-mock"), allow(dead_code))]
    pub(crate) registration: ClientRegistration,
}

/// One HTTP request and its answer, as the authorization checks read it
/// (only HTTP, with the `http-mock` feature, records them).
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "http-mock"), allow(dead_code))]
pub(crate) struct HttpExchange {
    pub(crate) method: String,
    /// The path and query.
    pub(crate) target: String,
    pub(crate) at: std::time::Instant,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
    pub(crate) status: u16,
    pub(crate) answer_headers: Vec<(String, String)>,
    pub(crate) answer: String,
}

#[cfg_attr(not(feature = "http-mock"), allow(dead_code))]
impl HttpExchange {
    pub(crate) fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or_default()
    }

    pub(crate) fn query(&self) -> &str {
        self.target
            .split_once('?')
            .map(|(_, q)| q)
            .unwrap_or_default()
    }

    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }

    pub(crate) fn answer_header(&self, name: &str) -> Option<&str> {
        find_header(&self.answer_headers, name)
    }

    /// How it appears in a report: the target as a `:path` pseudo-header,
    /// with the request's `Authorization` header.
    pub(crate) fn exchange(&self) -> Exchange {
        let mut headers = vec![(":path".to_owned(), self.target.clone())];
        headers.extend(
            self.headers
                .iter()
                .filter(|(n, _)| n.eq_ignore_ascii_case("authorization"))
                .cloned(),
        );
        headers.extend(
            self.answer_headers
                .iter()
                .filter(|(n, _)| {
                    n.eq_ignore_ascii_case("www-authenticate") || n.eq_ignore_ascii_case("location")
                })
                .map(|(n, v)| (format!("answer {n}"), v.clone())),
        );
        Exchange {
            transport: Transport::Http,
            request: RawRequest {
                method: match self.method.as_str() {
                    "POST" => None,
                    "GET" => Some("GET"),
                    "DELETE" => Some("DELETE"),
                    _ => Some("OTHER"),
                },
                headers,
                body: self.body.clone(),
            },
            response: RawResponse::Http {
                status: self.status,
                content_type: self.answer_header("content-type").map(str::to_owned),
                messages: Vec::new(),
                body: (!self.answer.is_empty()).then(|| self.answer.clone()),
            },
        }
    }
}

/// Whether a POST to `path` carries the client's MCP messages: all do but
/// those to the authorization server's endpoints.
fn carries_messages(path: &str) -> bool {
    #[cfg(feature = "http-mock")]
    {
        use super::recording_server::authorization::{REGISTER_PATH, TOKEN_PATH};
        path != TOKEN_PATH && path != REGISTER_PATH
    }
    #[cfg(not(feature = "http-mock"))]
    {
        let _ = path;
        true
    }
}

fn find_header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

impl Transcript {
    /// The client's requests (messages with an id and a method).
    pub(crate) fn requests(&self) -> Vec<&Sent> {
        self.sent.iter().filter(|s| s.is_request()).collect()
    }

    /// Reads the recording: the client's messages in order, each with the
    /// recording server's answer.
    pub(crate) async fn of(events: &[Event]) -> Transcript {
        let mut sent: Vec<Sent> = Vec::new();
        let mut canary_hits = Vec::new();
        let mut documents = Vec::new();
        let mut http = Vec::new();
        for event in events {
            match event {
                Event::FromClient { message, raw } => sent.push(Sent {
                    transport: Transport::Stdio,
                    message: message.clone().unwrap_or(Value::Null),
                    raw: raw.clone(),
                    headers: Vec::new(),
                    answer: None,
                    http: None,
                }),
                Event::FromServer { message } => {
                    let id = message.get("id");
                    if !mcptest_core::__support::is_response(message)
                        || id.is_none_or(Value::is_null)
                    {
                        continue;
                    }
                    if let Some(request) = sent
                        .iter_mut()
                        .rev()
                        .find(|s| s.answer.is_none() && s.is_request() && s.message.get("id") == id)
                    {
                        request.answer = Some(message.clone());
                    }
                }
                Event::CanaryHit { peer } => canary_hits.push(peer.clone()),
                Event::DocumentFetch(fetch) => documents.push(fetch.clone()),
                Event::Http {
                    method,
                    target,
                    at,
                    headers,
                    body,
                    status,
                    content_type,
                    answer_headers,
                    answer,
                } => {
                    let bytes = answer.lock().unwrap_or_else(|p| p.into_inner()).clone();
                    let exchange = HttpExchange {
                        method: method.clone(),
                        target: target.clone(),
                        at: *at,
                        headers: headers.clone(),
                        body: body.clone(),
                        status: *status,
                        answer_headers: answer_headers.clone(),
                        answer: String::from_utf8_lossy(&bytes).into_owned(),
                    };
                    // A POST refused for its token (401, 403) never reached
                    // the MCP server: only the authorization checks judge it.
                    let is_message = exchange.method == "POST"
                        && carries_messages(exchange.path())
                        && !matches!(exchange.status, 401 | 403);
                    http.push(exchange);
                    if !is_message {
                        continue;
                    }
                    let messages = decode_answer(&bytes, content_type.as_deref()).await;
                    let response = messages
                        .iter()
                        .find(|m| {
                            m.get("method").is_none()
                                && (m.get("result").is_some() || m.get("error").is_some())
                        })
                        .cloned();
                    let parsed: Vec<Value> = match serde_json::from_str::<Value>(body) {
                        Ok(Value::Array(batch)) => batch,
                        Ok(one) => vec![one],
                        Err(_) => vec![Value::Null],
                    };
                    for message in parsed {
                        sent.push(Sent {
                            transport: Transport::Http,
                            message,
                            raw: body.clone(),
                            headers: headers.clone(),
                            answer: response.clone(),
                            http: Some((*status, content_type.clone(), messages.clone())),
                        });
                    }
                }
            }
        }
        Transcript {
            sent,
            canary_hits,
            http,
            documents,
            registration: ClientRegistration::default(),
        }
    }
}

/// One message from the client, with the recording server's answer to it.
#[derive(Debug, Clone)]
pub(crate) struct Sent {
    pub(crate) transport: Transport,
    /// The message; `Value::Null` for a line that was not JSON.
    pub(crate) message: Value,
    pub(crate) raw: String,
    pub(crate) headers: Vec<(String, String)>,
    /// The JSON-RPC response the recording server sent for it.
    pub(crate) answer: Option<Value>,
    /// Over HTTP: status, content type and every message of the answer.
    pub(crate) http: Option<(u16, Option<String>, Vec<Value>)>,
}

impl Sent {
    pub(crate) fn is_request(&self) -> bool {
        self.message.get("id").is_some() && self.message.get("method").is_some()
    }

    pub(crate) fn method(&self) -> &str {
        self.message
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    pub(crate) fn meta(&self) -> Option<&Value> {
        self.message.get("params")?.get("_meta")
    }

    pub(crate) fn version(&self) -> Option<&str> {
        self.meta()?.get(META_VERSION)?.as_str()
    }

    pub(crate) fn answer_code(&self) -> Option<i64> {
        self.answer.as_ref()?.get("error")?.get("code")?.as_i64()
    }

    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }

    pub(crate) fn tool(&self) -> Option<&str> {
        (self.method() == "tools/call")
            .then(|| self.message.get("params")?.get("name")?.as_str())
            .flatten()
    }

    /// How this message and its answer appear in a report.
    pub(crate) fn exchange(&self) -> Exchange {
        let response = match &self.http {
            Some((status, content_type, messages)) => RawResponse::Http {
                status: *status,
                content_type: content_type.clone(),
                messages: messages.clone(),
                body: None,
            },
            None => RawResponse::Messages {
                messages: self.answer.iter().cloned().collect(),
                dropped: 0,
            },
        };
        Exchange {
            transport: self.transport,
            request: RawRequest {
                method: None,
                headers: self
                    .headers
                    .iter()
                    .filter(|(n, _)| {
                        let n = n.to_ascii_lowercase();
                        n.starts_with("mcp-")
                    })
                    .cloned()
                    .collect(),
                body: self.raw.clone(),
            },
            response,
        }
    }
}

/// The JSON-RPC messages in an HTTP answer body (JSON or SSE).
#[cfg(feature = "http-mock")]
async fn decode_answer(bytes: &[u8], content_type: Option<&str>) -> Vec<Value> {
    use futures::StreamExt;

    if content_type == Some("text/event-stream") {
        let chunk: Result<bytes::Bytes, std::convert::Infallible> =
            Ok(bytes::Bytes::copy_from_slice(bytes));
        let events = sse_stream::SseStream::from_bytes_stream(futures::stream::iter([chunk]));
        return events
            .filter_map(
                |event| async move { serde_json::from_str(event.ok()?.data.as_deref()?).ok() },
            )
            .collect()
            .await;
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Array(batch)) => batch,
        Ok(value) => vec![value],
        Err(_) => Vec::new(),
    }
}

#[cfg(not(feature = "http-mock"))]
async fn decode_answer(_bytes: &[u8], _content_type: Option<&str>) -> Vec<Value> {
    unreachable!("HTTP exchanges are only recorded with the http-mock feature")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn line(message: Value) -> Event {
        Event::FromClient {
            raw: message.to_string(),
            message: Some(message),
        }
    }

    #[tokio::test]
    async fn answers_are_matched_to_requests_by_id() {
        let events = [
            line(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})),
            Event::FromServer {
                message: json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32022}}),
            },
            line(json!({"jsonrpc": "2.0", "method": "notifications/cancelled"})),
            line(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})),
            Event::CanaryHit {
                peer: "127.0.0.1:1".into(),
            },
        ];
        let transcript = Transcript::of(&events).await;
        assert_eq!(transcript.sent.len(), 3);
        assert_eq!(transcript.sent[0].answer_code(), Some(-32022));
        assert!(transcript.sent[2].answer.is_none());
        assert_eq!(transcript.requests().len(), 2);
        assert_eq!(transcript.canary_hits, ["127.0.0.1:1"]);
    }

    #[cfg(feature = "http-mock")]
    #[tokio::test]
    async fn sse_answers_are_decoded() {
        let body = b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";
        assert_eq!(
            decode_answer(body, Some("text/event-stream")).await,
            [json!({"jsonrpc": "2.0", "id": 1, "result": {}})]
        );
        assert_eq!(
            decode_answer(b"{\"a\":1}", Some("application/json")).await,
            [json!({"a": 1})]
        );
    }
}
