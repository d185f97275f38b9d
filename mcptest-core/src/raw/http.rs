//! Raw HTTP to a Streamable HTTP server: exactly the headers and body a test
//! chooses, and everything that came back — status, headers, and the body as
//! sent, decoded into JSON-RPC messages whether it was JSON or an SSE stream.
//!
//! The HTTP counterpart of [`RawConnection`](crate::RawConnection): for what a
//! well-behaved client never sends (a missing or contradicting
//! `MCP-Protocol-Version` header, a body that is not JSON) and for checking
//! HTTP status codes.

use std::time::Duration;

use futures::StreamExt;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;

use super::response::is_response;
use crate::{command::expand_env, error::Error, server::Server, server::Target};

/// The `Accept` header sent unless the caller gives one: Streamable HTTP
/// requires clients to accept both kinds of answer.
const DEFAULT_ACCEPT: &str = "application/json, text/event-stream";

/// Sends HTTP requests with exactly the headers and body given.
///
/// Every `post` adds `Content-Type: application/json` and
/// `Accept: application/json, text/event-stream` unless the caller passes its
/// own value for them, plus the headers configured on the [`Server`]
/// ([`header`](Server::header), [`bearer_token_env`](Server::bearer_token_env)).
///
/// ```no_run
/// # async fn demo() -> Result<(), mcptest::Error> {
/// use mcptest::{RawHttp, Server};
/// use serde_json::json;
///
/// let http = RawHttp::open(&Server::url("http://127.0.0.1:3001/mcp"))?;
/// let reply = http.post("{not json", &[]).await?;
/// assert_eq!(reply.status, 400);
///
/// let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover"});
/// let reply = http
///     .post_json(&discover, &[("MCP-Protocol-Version", "2026-07-28")])
///     .await?;
/// println!("{} {:?}", reply.status, reply.response());
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct RawHttp {
    client: reqwest::Client,
    url: String,
    headers: Vec<(String, String)>,
    timeout: Duration,
}

impl std::fmt::Debug for RawHttp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawHttp")
            .field("url", &self.url)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// What came back for one HTTP request.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct HttpReply {
    /// The HTTP status code.
    pub status: u16,
    /// Response headers in arrival order, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body as received (for an SSE stream: the event text up to the
    /// JSON-RPC response, or to the end of the stream).
    pub body: String,
    /// The JSON-RPC messages in the body: the JSON value of a JSON body (each
    /// element of a batch), or the `data` of every SSE event that is JSON.
    pub messages: Vec<Value>,
}

impl HttpReply {
    /// The value of header `name` (case-insensitive), if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The `Content-Type` without parameters (`application/json`,
    /// `text/event-stream`), if present.
    pub fn content_type(&self) -> Option<&str> {
        self.header("content-type")
            .map(|v| v.split(';').next().unwrap_or_default().trim())
    }

    /// The first JSON-RPC response (a message with `result` or `error`).
    pub fn response(&self) -> Option<&Value> {
        self.messages.iter().find(|m| is_response(m))
    }
}

impl RawHttp {
    /// An HTTP channel to the server `server` names, which must be a
    /// [`Server::url`]; its headers and bearer token are sent with every
    /// request, and its request timeout bounds each one.
    pub fn open(server: &Server) -> Result<RawHttp, Error> {
        let Target::Url(spec) = &server.target else {
            return Err(Error::InvalidConfig {
                message: format!(
                    "raw HTTP needs a Server::url; {server} is reached over stdio \
                     (use RawConnection for it)"
                ),
            });
        };
        let invalid = |message: String| Error::InvalidConfig { message };
        if spec.legacy_sse {
            return Err(invalid(format!(
                "raw HTTP speaks Streamable HTTP; {server} is an HTTP+SSE server, whose raw \
                 messages go through RawConnection"
            )));
        }
        if spec.credentials.is_some() {
            return Err(invalid(
                "raw HTTP cannot run the client-credentials grant itself: \
                 open it on `server.authorize().await?`"
                    .into(),
            ));
        }
        let mut headers = Vec::new();
        for (name, value) in &spec.headers {
            let value = expand_env(value, |var| std::env::var(var).ok()).map_err(invalid)?;
            headers.push((name.clone(), value));
        }
        if let Some(var) = &spec.bearer_env {
            let token = std::env::var(var).map_err(|_| {
                invalid(format!(
                    "environment variable {var} (the bearer token) is not set"
                ))
            })?;
            headers.push(("Authorization".into(), format!("Bearer {token}")));
        }
        let url = crate::server::launch::substitute_fixture(&spec.url, &server.options);
        let client = reqwest::Client::builder()
            .connect_timeout(server.client.connect_timeout)
            .build()
            .map_err(|e| invalid(format!("HTTP client: {e}")))?;
        Ok(RawHttp {
            client,
            url,
            headers,
            timeout: server.client.request_timeout,
        })
    }

    /// How long one request may take, from sending to the end of the answer
    /// (default: the server's request timeout, 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The URL every request goes to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// POSTs `message` as JSON with these extra `headers`.
    pub async fn post_json(
        &self,
        message: &Value,
        headers: &[(&str, &str)],
    ) -> Result<HttpReply, Error> {
        self.post(message.to_string(), headers).await
    }

    /// POSTs `body` exactly as given with these extra `headers`. A header
    /// named here replaces the default of the same name.
    ///
    /// An SSE answer is read until it carries a JSON-RPC response or ends; a
    /// stream that does neither within the timeout is an [`Error::Timeout`].
    pub async fn post(
        &self,
        body: impl Into<Vec<u8>>,
        headers: &[(&str, &str)],
    ) -> Result<HttpReply, Error> {
        self.send(reqwest::Method::POST, body.into(), headers).await
    }

    /// Sends `DELETE` with these extra `headers` (how a client ends a
    /// session: `Mcp-Session-Id`), with the same defaults as
    /// [`post`](Self::post).
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), mcptest::Error> {
    /// use mcptest::{RawHttp, Server};
    ///
    /// let http = RawHttp::open(&Server::url("http://127.0.0.1:3001/mcp"))?;
    /// let reply = http.delete(&[("Mcp-Session-Id", "abc")]).await?;
    /// println!("{}", reply.status);
    /// # Ok(()) }
    /// ```
    pub async fn delete(&self, headers: &[(&str, &str)]) -> Result<HttpReply, Error> {
        self.send(reqwest::Method::DELETE, Vec::new(), headers)
            .await
    }

    /// The headers of one request: the defaults and the ones configured on
    /// the [`Server`], each unless `headers` gives its own value, then `headers`.
    fn header_map(&self, headers: &[(&str, &str)]) -> Result<HeaderMap, Error> {
        let mut map = HeaderMap::new();
        let defaults = [
            ("Content-Type", "application/json"),
            ("Accept", DEFAULT_ACCEPT),
        ];
        let configured = self.headers.iter().map(|(n, v)| (n.as_str(), v.as_str()));
        for (name, value) in defaults.into_iter().chain(configured) {
            if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
                insert(&mut map, name, value)?;
            }
        }
        for (name, value) in headers {
            insert(&mut map, name, value)?;
        }
        Ok(map)
    }

    async fn send(
        &self,
        method: reqwest::Method,
        body: Vec<u8>,
        headers: &[(&str, &str)],
    ) -> Result<HttpReply, Error> {
        let what = format!("{method} {}", self.url);
        let map = self.header_map(headers)?;
        let exchange = async {
            let response = self
                .client
                .request(method, &self.url)
                .headers(map)
                .body(body)
                .send()
                .await
                .map_err(|e| self.failed(&what, &e))?;
            read_reply(response)
                .await
                .map_err(|e| self.failed(&what, &e))
        };
        match tokio::time::timeout(self.timeout, exchange).await {
            Ok(reply) => reply,
            Err(_) => Err(Error::Timeout {
                method: what.clone(),
                after: self.timeout,
                output: Box::default(),
            }),
        }
    }

    /// Whether a connection to the URL can be made at all: an error only when
    /// it cannot (refused, unknown host, connect timeout). Any answer, even
    /// an HTTP error status, and any later failure count as reachable: what
    /// the server does with requests is for the caller to judge. Sends a
    /// `HEAD` request, which no MCP rule gives a meaning to.
    pub async fn reachable(&self) -> Result<(), Error> {
        let map = self.header_map(&[])?;
        let sent = self.client.head(&self.url).headers(map).send();
        match tokio::time::timeout(self.timeout, sent).await {
            Ok(Err(error)) if crate::error::is_connect_failure(&error) => Err(Error::Transport {
                method: None,
                reason: crate::error::describe_failure(&error),
                output: Box::default(),
            }),
            _ => Ok(()),
        }
    }

    /// POSTs `body` to open a stream (`subscriptions/listen`) and reads what
    /// arrives on it until `stop` fires, the stream ends or the timeout
    /// passes; `first` fires when the first message arrives (or the reading
    /// ends without one). An answer that is not SSE is read whole.
    pub async fn post_stream(
        &self,
        body: String,
        headers: &[(&str, &str)],
        first: tokio::sync::oneshot::Sender<()>,
        mut stop: tokio::sync::oneshot::Receiver<()>,
    ) -> Result<HttpReply, Error> {
        let map = self.header_map(headers)?;
        let deadline = tokio::time::Instant::now() + self.timeout;
        let sent = self.client.post(&self.url).headers(map).body(body).send();
        let response = match tokio::time::timeout_at(deadline, sent).await {
            Ok(response) => response.map_err(|e| self.failed(&format!("POST {}", self.url), &e))?,
            Err(_) => {
                return Err(Error::Timeout {
                    method: format!("POST {}", self.url),
                    after: self.timeout,
                    output: Box::default(),
                });
            }
        };
        let is_sse = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim_start().starts_with("text/event-stream"));
        if !is_sse {
            return match tokio::time::timeout_at(deadline, read_reply(response)).await {
                Ok(reply) => reply.map_err(|e| self.failed(&format!("POST {}", self.url), &e)),
                Err(_) => Err(Error::Timeout {
                    method: format!("POST {}", self.url),
                    after: self.timeout,
                    output: Box::default(),
                }),
            };
        }
        let status = response.status().as_u16();
        let headers = header_pairs(&response);
        let mut events = sse_stream::SseStream::from_bytes_stream(response.bytes_stream());
        let mut messages = Vec::new();
        let mut body = String::new();
        let mut first = Some(first);
        loop {
            let event = tokio::select! {
                event = events.next() => event,
                _ = &mut stop => break,
                _ = tokio::time::sleep_until(deadline) => break,
            };
            let Some(Ok(event)) = event else { break };
            let Some(data) = event.data else { continue };
            for line in data.lines() {
                body.push_str(&format!("data: {line}\n"));
            }
            body.push('\n');
            if let Ok(message) = serde_json::from_str::<Value>(&data) {
                let done = is_response(&message);
                messages.push(message);
                if let Some(first) = first.take() {
                    let _ = first.send(());
                }
                if done {
                    break;
                }
            }
        }
        Ok(HttpReply {
            status,
            headers,
            body,
            messages,
        })
    }

    /// A request that failed: "POST http://…: <causes>", or, when no
    /// connection could be made, "POST: cannot connect to http://…: connection refused".
    fn failed(&self, what: &str, error: &(dyn std::error::Error + 'static)) -> Error {
        let connect = crate::error::is_connect_failure(error);
        let method = match connect {
            true => what.split(' ').next().unwrap_or(what),
            false => what,
        };
        Error::Transport {
            method: Some(method.to_owned()),
            reason: crate::error::describe_failure(error),
            output: Box::default(),
        }
    }
}

fn insert(map: &mut HeaderMap, name: &str, value: &str) -> Result<(), Error> {
    let invalid = |message: String| Error::InvalidConfig { message };
    let header = HeaderName::from_bytes(name.as_bytes())
        .map_err(|e| invalid(format!("header name {name:?}: {e}")))?;
    let value = HeaderValue::from_str(value).map_err(|e| invalid(format!("header {name}: {e}")))?;
    map.insert(header, value);
    Ok(())
}

/// A response's headers as (lowercase name, value) pairs.
fn header_pairs(response: &reqwest::Response) -> Vec<(String, String)> {
    response
        .headers()
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect()
}

async fn read_reply(response: reqwest::Response) -> Result<HttpReply, reqwest::Error> {
    let status = response.status().as_u16();
    let headers = header_pairs(&response);
    let is_sse = headers
        .iter()
        .any(|(n, v)| n == "content-type" && v.trim_start().starts_with("text/event-stream"));
    if is_sse {
        return read_sse(status, headers, response).await;
    }
    let bytes = response.bytes().await?;
    let body = String::from_utf8_lossy(&bytes).into_owned();
    let messages = match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Array(batch)) => batch,
        Ok(value) => vec![value],
        Err(_) => Vec::new(),
    };
    Ok(HttpReply {
        status,
        headers,
        body,
        messages,
    })
}

/// Reads events until one carries a JSON-RPC response or the stream ends: a
/// POST's stream may stay open after its answer, and waiting for its end
/// would turn every such answer into a timeout.
async fn read_sse(
    status: u16,
    headers: Vec<(String, String)>,
    response: reqwest::Response,
) -> Result<HttpReply, reqwest::Error> {
    let mut body = String::new();
    let mut messages = Vec::new();
    let mut events = sse_stream::SseStream::from_bytes_stream(response.bytes_stream());
    while let Some(event) = events.next().await {
        let Ok(event) = event else {
            // A malformed event ends what can be read; the text so far stays
            // in `body` for whoever looks at it.
            break;
        };
        if let Some(kind) = &event.event {
            body.push_str(&format!("event: {kind}\n"));
        }
        if let Some(id) = &event.id {
            body.push_str(&format!("id: {id}\n"));
        }
        if let Some(data) = &event.data {
            for line in data.lines() {
                body.push_str(&format!("data: {line}\n"));
            }
            if let Ok(message) = serde_json::from_str::<Value>(data) {
                let done = is_response(&message);
                messages.push(message);
                body.push('\n');
                if done {
                    break;
                }
                continue;
            }
        }
        body.push('\n');
    }
    Ok(HttpReply {
        status,
        headers,
        body,
        messages,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_response_is_a_message_with_a_result_or_an_error() {
        assert!(is_response(
            &json!({"jsonrpc": "2.0", "id": 1, "result": {}})
        ));
        assert!(is_response(
            &json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700}})
        ));
        assert!(!is_response(
            &json!({"jsonrpc": "2.0", "method": "notifications/message"})
        ));
        assert!(!is_response(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "roots/list"})
        ));
    }

    #[test]
    fn only_url_servers_get_a_raw_http_channel() {
        let err = RawHttp::open(&Server::command("some-server --stdio")).unwrap_err();
        assert!(err.to_string().contains("needs a Server::url"), "{err}");
        let http = RawHttp::open(
            &Server::url("http://127.0.0.1:9/mcp").header("X-Tenant", "${MCPTEST_UNSET:-t1}"),
        )
        .unwrap();
        assert_eq!(http.url(), "http://127.0.0.1:9/mcp");
        assert_eq!(http.headers, [("X-Tenant".to_owned(), "t1".to_owned())]);
    }
}
