//! Running one MCP Cases case over a raw connection: its messages are sent
//! exactly as written, and what comes back is matched against its `out`s.

use std::{collections::VecDeque, time::Duration};

use serde_json::Value;

use mcptest_suite_format::{
    cases::{Case, Step},
    pattern::{Pattern, pretty},
};

use crate::{
    checks,
    context::TestContext,
    outcome::{outcome, timed_out},
};
use mcptest_core::DEFAULT_PROTOCOL_VERSION;
use mcptest_core::Error;
use mcptest_core::RawConnection;
use mcptest_core::expect::Check;
use mcptest_core::expect::Evidence;
use mcptest_core::expect::Failure;
use mcptest_core::expect::Polarity;
use mcptest_core::expect::Shown;
use mcptest_core::expect::Verdict;
use mcptest_core::report::Outcome;

/// How long each `out` is waited for unless `_timeout` says otherwise.
const DEFAULT_WAIT: Duration = Duration::from_secs(10);

pub(crate) async fn run(case: &Case, cx: &TestContext<'_>) -> Outcome {
    let wait = case.timeout.or(cx.timeout).unwrap_or(DEFAULT_WAIT);
    let fixture = match cx.copy_fixture() {
        Ok(f) => f,
        Err(message) => return Outcome::error("a fresh copy of the fixture directory", message),
    };
    let Some(mut server) = cx.default_server.clone() else {
        return Outcome::error(
            "a server to run the case against",
            "an MCP Cases file names none, so the suite must give one \
             (`server = ..` in `mcptest::suite!`, or `RunOptions::server`)",
        );
    };
    server = server.connect_timeout(wait);
    if let Some(image) = cx.container
        && server.is_process()
    {
        server = server.container(image);
    }
    if let Some(auth) = cx.auth
        && (server.is_http() || server.is_sse())
    {
        server = match crate::auth::authorize(server, auth) {
            Ok(server) => server,
            Err(message) => return Outcome::error("the run's credentials", message),
        };
    }
    if let Some(dir) = &fixture {
        server = server.fixture_dir(dir.path());
    }
    let server = cx.recording(server);
    let steps = case.steps.len() as u32 + 2;
    let guard = wait * steps + Duration::from_secs(5);
    let result = tokio::time::timeout(guard, async {
        let mut raw = RawConnection::open(&server)
            .await
            .map_err(|e| Failure::expecting("the server to start").but(e.to_string()))?;
        let result = exchange(case, &mut raw, wait).await;
        let stderr = raw.stderr();
        cx.stop_later(async move {
            raw.close().await;
        });
        result.map_err(|f| {
            if f.server_output().stderr.is_empty() {
                let mut output = f.server_output().clone();
                output.stderr = stderr;
                f.output(output)
            } else {
                f
            }
        })
    })
    .await
    .unwrap_or_else(|_| Err(timed_out("case", guard)));
    cx.remove_after_stop(&fixture);
    outcome(result, fixture)
}

/// What arrived and was not yet matched by an `out`.
struct Inbox {
    pending: VecDeque<Value>,
    /// Every message received, for failure messages.
    seen: Vec<Value>,
}

async fn exchange(case: &Case, raw: &mut RawConnection, wait: Duration) -> Result<(), Failure> {
    if case.handshake {
        let answer = raw
            .initialize(DEFAULT_PROTOCOL_VERSION, wait)
            .await
            .map_err(|e| {
                Failure::expecting("an answer to the handshake (initialize) done for the case")
                    .but(e.to_string())
            })?;
        if answer.get("result").is_none() {
            return Err(Failure::expecting("a result for initialize (the handshake done for the case; `_handshake: false` turns it off)").got_json(answer));
        }
    }
    let mut inbox = Inbox {
        pending: VecDeque::new(),
        seen: Vec::new(),
    };
    let mut last_sent: Option<Value> = None;
    for step in &case.steps {
        match step {
            Step::In { key, message, .. } => {
                raw.send(message).await.map_err(|e| {
                    Failure::expecting(format!("to send `{key}`")).but(e.to_string())
                })?;
                last_sent = Some(message.clone());
            }
            Step::Out { key, pattern, pos } => {
                let called = last_sent
                    .as_ref()
                    .map(|m| m.to_string())
                    .unwrap_or_else(|| "(nothing sent yet)".into());
                expect_out(raw, &mut inbox, pattern, wait)
                    .await
                    .map_err(|f| {
                        f.called(&called)
                            .map_expected(|e| format!("`{key}` (line {}): {e}", pos.line))
                    })?;
            }
        }
    }
    Ok(())
}

fn is_response(m: &Value) -> bool {
    m.is_array()
        || (m.get("method").is_none()
            && (m.get("result").is_some() || m.get("error").is_some() || m.get("id").is_some()))
}

async fn expect_out(
    raw: &mut RawConnection,
    inbox: &mut Inbox,
    pattern: &Pattern,
    wait: Duration,
) -> Result<(), Failure> {
    let wants_response = matches!(pattern, Pattern::Array(_)) || pattern.get("method").is_none();
    let id = pattern.get("id").and_then(Pattern::as_literal).cloned();
    // Which arrival this `out` is about: the response with its id, the next
    // response, or any message it matches (server notifications and requests
    // can come in any order, and those a case does not mention are skipped).
    let candidate = |m: &Value| -> bool {
        if wants_response {
            is_response(m) && id.as_ref().is_none_or(|id| m.get("id") == Some(id))
        } else {
            pattern.matches(m)
        }
    };
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        if let Some(at) = inbox.pending.iter().position(&candidate) {
            let message = inbox.pending.remove(at).expect("position is in range");
            return judged(pattern, &message);
        }
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        match raw.recv(left).await {
            Ok(message) => {
                inbox.seen.push(message.clone());
                inbox.pending.push_back(message);
            }
            Err(Error::Timeout { .. }) => return Err(nothing_matched(pattern, inbox, wait)),
            Err(other) => {
                return Err(Failure::expecting(pattern.describe_json()).but(other.to_string()));
            }
        }
    }
}

/// `message` judged by `pattern`, as every check is judged.
fn judged(pattern: &Pattern, message: &Value) -> Result<(), Failure> {
    checks::first_miss(&[OutMatches(pattern)], message).map_err(Failure::from_miss)
}

/// An `out` message as a check of what arrived: the first place it differs,
/// the message, and a diff of the parts the pattern speaks about.
struct OutMatches<'a>(&'a Pattern);

impl Check<Value> for OutMatches<'_> {
    fn describe(&self, polarity: Polarity) -> String {
        match polarity {
            Polarity::Positive => self.0.describe_json(),
            Polarity::Negative => format!("not {}", self.0.describe_json()),
        }
    }
    fn evaluate(&self, actual: &Value) -> Verdict {
        let mut evidence = Evidence::new().actual(Shown::json("answer", actual.clone()));
        match self.0.mismatch(actual) {
            None => Verdict::pass(evidence),
            Some(why) => {
                evidence = evidence
                    .note(why)
                    .diff(pretty(&self.0.display()), pretty(&self.0.project(actual)));
                Verdict::fail(evidence)
            }
        }
    }
}

fn nothing_matched(pattern: &Pattern, inbox: &Inbox, wait: Duration) -> Failure {
    let closest = inbox
        .pending
        .iter()
        .max_by_key(|m| pattern.score(m))
        .filter(|m| pattern.score(m) > 0);
    let arrived = if inbox.seen.is_empty() {
        "nothing arrived".to_owned()
    } else {
        let methods: Vec<String> = inbox
            .seen
            .iter()
            .map(|m| match m.get("method").and_then(Value::as_str) {
                Some(method) => method.to_owned(),
                None => format!(
                    "response {}",
                    m.get("id")
                        .map(Value::to_string)
                        .unwrap_or_else(|| "(batch)".into())
                ),
            })
            .collect();
        format!("what arrived: {}", methods.join(", "))
    };
    let but = format!(
        "no matching message arrived within {}; {arrived}",
        mcptest_core::__support::fmt_duration(wait)
    );
    match closest.map(|closest| judged(pattern, closest)) {
        Some(Err(differs)) => {
            differs.map_note(|why| format!("{but}\nthe closest message differs {why}"))
        }
        _ => Failure::expecting(pattern.describe_json()).but(but),
    }
}
