//! Server checks of the legacy HTTP+SSE transport (2024-11-05,
//! basic/transports#http-with-sse): the stream opens with an `endpoint`
//! event naming where to POST, the endpoint accepts the messages POSTed to
//! it, and the server's messages come back on the stream as `message`
//! events of JSON-RPC.
//!
//! Every other check reaches an SSE server through mcptest's line bridge,
//! which refuses a stream that breaks these rules before any message goes
//! through; these three open sessions of their own on the raw stream, so a
//! broken rule is reported here, with what the server sent, once.

#[cfg(not(feature = "http"))]
mod checks {
    //! Without the `http` feature no server is reached over HTTP+SSE, and
    //! these checks (for that transport only) never run.
    use crate::model::Checked;
    use crate::support::probe::Probe;

    fn never() -> Checked {
        unreachable!("HTTP+SSE checks run only over HTTP+SSE, which needs the http feature")
    }

    pub(crate) async fn endpoint_event(_: &mut Probe) -> Checked {
        never()
    }
    pub(crate) async fn post_accepted(_: &mut Probe) -> Checked {
        never()
    }
    pub(crate) async fn message_events(_: &mut Probe) -> Checked {
        never()
    }
}

#[cfg(feature = "http")]
mod checks {
    use std::time::Instant;

    use mcptest_core::__support::sse::{SseEvent, SseNext, SsePost, SseSession};
    use serde_json::{Value, json};

    use crate::model::{Checked, Exchange, Observed, Problems, RawRequest, RawResponse, Transport};
    use crate::support::evidence::millis;
    use crate::support::message::{initialize_params, request};
    use crate::support::probe::Probe;

    /// The revision whose transport this is: the version offered.
    const SSE_REVISION: &str = "2024-11-05";

    /// The GET that opened (or did not open) the stream, as evidence.
    fn get_evidence(
        status: Option<u16>,
        content_type: Option<String>,
        first: Option<&SseEvent>,
        failed: Option<&str>,
    ) -> Exchange {
        let response = match (status, failed) {
            (Some(status), _) => RawResponse::Http {
                status,
                content_type,
                messages: Vec::new(),
                body: first.map(event_text),
            },
            (None, why) => RawResponse::Failed {
                error: why.unwrap_or("no answer").to_owned(),
            },
        };
        Exchange {
            transport: Transport::Sse,
            request: RawRequest {
                method: Some("GET"),
                headers: vec![("Accept".into(), "text/event-stream".into())],
                body: String::new(),
            },
            response,
        }
    }

    /// An event as it went over the wire.
    fn event_text(event: &SseEvent) -> String {
        let mut text = String::new();
        if let Some(name) = &event.event {
            text.push_str(&format!("event: {name}\n"));
        }
        for line in event.data.split('\n') {
            text.push_str(&format!("data: {line}\n"));
        }
        text
    }

    /// Opens a session on the raw stream, recording the GET: the session,
    /// or why there is none.
    async fn connect(p: &mut Probe) -> Result<SseSession, String> {
        let Some(raw) = p.raw_sse() else {
            return Err("the server is not reached over HTTP+SSE, so there is no stream".into());
        };
        match raw.connect().await {
            Ok(session) => {
                let endpoint = SseEvent {
                    event: Some("endpoint".into()),
                    data: session.named.clone(),
                };
                p.record(get_evidence(
                    Some(session.status),
                    session.content_type.clone(),
                    Some(&endpoint),
                    None,
                ));
                Ok(session)
            }
            Err(refusal) => {
                p.record(get_evidence(
                    refusal.status,
                    refusal.content_type,
                    refusal.first_event.as_ref(),
                    Some(&refusal.why),
                ));
                Err(refusal.why)
            }
        }
    }

    /// [`connect`], for a check that needs a session to judge anything.
    async fn session(p: &mut Probe) -> Result<SseSession, Observed> {
        connect(p).await.map_err(|why| {
            Observed::Broken(format!(
                "no session could be opened to check this on: {why}"
            ))
        })
    }

    /// POSTs `message` to the session's endpoint, recording it.
    async fn post(
        p: &mut Probe,
        session: &SseSession,
        message: &Value,
    ) -> Result<SsePost, Observed> {
        let body = message.to_string();
        let posted = session.post(&body).await;
        let response = match &posted {
            Ok(answer) => RawResponse::Http {
                status: answer.status,
                content_type: None,
                messages: serde_json::from_str::<Value>(&answer.body)
                    .ok()
                    .filter(Value::is_object)
                    .into_iter()
                    .collect(),
                body: (!answer.body.trim().is_empty()).then(|| answer.body.clone()),
            },
            Err(why) => RawResponse::Failed { error: why.clone() },
        };
        p.record(Exchange {
            transport: Transport::Sse,
            request: RawRequest {
                method: None,
                headers: vec![("Content-Type".into(), "application/json".into())],
                body,
            },
            response,
        });
        posted.map_err(Observed::Broken)
    }

    fn initialize(p: &mut Probe) -> Value {
        let id = p.id();
        request(id, "initialize", initialize_params(SSE_REVISION))
    }

    /// `sse-endpoint-event`: the stream's first event is `endpoint`, naming
    /// a URI on the server's own origin.
    pub(crate) async fn endpoint_event(p: &mut Probe) -> Checked {
        let session = connect(p).await.map_err(Observed::Broken)?;
        Ok(Observed::Holds(Some(format!(
            "the stream names {} first",
            session.endpoint()
        ))))
    }

    /// `sse-post-accepted`: a message POSTed to the endpoint is accepted
    /// (HTTP 2xx): `initialize`, `notifications/initialized`, then `ping`.
    pub(crate) async fn post_accepted(p: &mut Probe) -> Checked {
        let session = session(p).await?;
        let mut problems = Problems::default();
        let init = initialize(p);
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let ping = request(p.id(), "ping", Value::Null);
        let messages = [
            ("initialize", init),
            ("notifications/initialized", initialized),
            ("ping", ping),
        ];
        for (what, message) in messages {
            let answer = post(p, &session, &message).await?;
            if !(200..300).contains(&answer.status) {
                problems.push(format!(
                    "the POST of {what} to {} was answered with HTTP {}",
                    session.endpoint(),
                    answer.status
                ));
            }
        }
        Ok(problems.into_finding())
    }

    /// `sse-message-events`: the answer to a POSTed request comes on the
    /// stream as a `message` event whose data is that JSON-RPC response;
    /// no server message comes under another event name.
    pub(crate) async fn message_events(p: &mut Probe) -> Checked {
        let mut session = session(p).await?;
        let init = initialize(p);
        let id = init["id"].clone();
        let posted = post(p, &session, &init).await?;
        if !(200..300).contains(&posted.status) {
            return Err(Observed::Broken(format!(
                "the POST of initialize was answered with HTTP {}, so no answer can come on \
                 the stream",
                posted.status
            )));
        }
        let in_body = serde_json::from_str::<Value>(&posted.body)
            .ok()
            .is_some_and(|v| v.get("id") == Some(&id));
        let timeout = p.settings.timeout;
        let started = Instant::now();
        let mut problems = Problems::default();
        let mut seen: Vec<String> = Vec::new();
        let answer = loop {
            let left = timeout.saturating_sub(started.elapsed());
            match session.next_event(left).await {
                SseNext::Event(event) => {
                    let message = serde_json::from_str::<Value>(&event.data).ok();
                    let is_rpc = message.as_ref().is_some_and(|m| m.get("jsonrpc").is_some());
                    let named = event.event.as_deref().unwrap_or("message");
                    if named == "message" && !is_rpc {
                        problems.push(format!(
                            "a `message` event whose data is not a JSON-RPC message: {:?}",
                            cut(&event.data)
                        ));
                    } else if named != "message" && is_rpc {
                        problems.push(format!(
                            "a JSON-RPC message sent as an event named `{named}`, not `message`"
                        ));
                    }
                    seen.push(event_text(&event));
                    if let Some(message) = message
                        && message.get("id") == Some(&id)
                        && (message.get("result").is_some() || message.get("error").is_some())
                    {
                        break Some(message);
                    }
                    if seen.len() >= 64 {
                        break None;
                    }
                }
                SseNext::Quiet => break None,
                SseNext::Ended => {
                    problems.push("the server ended the stream before answering");
                    break None;
                }
                SseNext::Broken(why) => {
                    problems.push(why);
                    break None;
                }
            }
        };
        p.record(Exchange {
            transport: Transport::Sse,
            request: RawRequest {
                method: Some("GET"),
                headers: Vec::new(),
                body: "(the session's stream, read after the POST)".into(),
            },
            response: match &answer {
                Some(message) => RawResponse::Http {
                    status: session.status,
                    content_type: session.content_type.clone(),
                    messages: vec![message.clone()],
                    body: None,
                },
                None if seen.is_empty() => RawResponse::Nothing {
                    waited_ms: millis(started.elapsed()),
                },
                None => RawResponse::Http {
                    status: session.status,
                    content_type: session.content_type.clone(),
                    messages: Vec::new(),
                    body: Some(seen.join("\n")),
                },
            },
        });
        if answer.is_none() {
            problems.push(format!(
                "no answer to initialize (id {id}) came on the stream within {}{}",
                mcptest_core::__support::fmt_duration(timeout),
                if in_body {
                    "; it came in the POST's body instead"
                } else {
                    ""
                }
            ));
        }
        Ok(problems.into_finding())
    }

    fn cut(text: &str) -> String {
        const SHOWN: usize = 200;
        if text.chars().count() <= SHOWN {
            return text.to_owned();
        }
        format!("{}…", text.chars().take(SHOWN).collect::<String>())
    }
}

pub(crate) use checks::{endpoint_event, message_events, post_accepted};
