//! The contract mock server: an MCP Cases file played backwards, for testing
//! MCP clients. Each incoming message is answered with the `out`s of the case
//! whose `in` it matches.

use std::{path::Path, sync::Arc};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

use mcptest_suite_format::{
    Format, LoadError,
    cases::{Case, Step},
    pattern::Pattern,
};

use crate::{suite::Suite, suite_test::TestKind};
use mcptest_core::DEFAULT_PROTOCOL_VERSION;
use mcptest_core::Server;

/// Plays the cases of MCP Cases files as a server.
///
/// For each incoming message it looks for a case whose first `in` matches
/// (the `id` ignored, objects as subsets) — or whose next `in` matches, for a
/// case already under way — and answers with the `out`s that follow that
/// `in`, with the response `id` set to the request's. A request no case
/// matches gets a JSON-RPC error naming the closest case and where it
/// differs. `initialize` and `ping` are answered even when no case mentions
/// them, so any client can connect.
///
/// ```
/// use mcptest::{Server, suite::MockServer};
/// use serde_json::json;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let mock = MockServer::parse("contract.yaml", r#"
/// case: List tools
/// in: {"jsonrpc": "2.0", "method": "tools/list", "id": 1}
/// out: {"jsonrpc": "2.0", "id": 1, "result": {"tools": [
///   {"name": "echo", "inputSchema": {"type": "object"}}]}}
/// "#)?;
/// let mcp = mock.server().connect().await?;
/// let tools = mcp.list_tools().await?;
/// assert_eq!(tools[0].name, "echo");
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct MockServer {
    cases: Arc<Vec<MockCase>>,
}

#[derive(Debug)]
struct MockCase {
    /// "`List tools` (case 1) at contract.yaml:3"
    label: String,
    /// Each `in` with the `out`s that follow it.
    turns: Vec<(Pattern, Vec<Value>)>,
}

impl MockServer {
    /// Loads an MCP Cases file, or every one below a directory.
    pub fn load(path: impl AsRef<Path>) -> Result<MockServer, LoadError> {
        MockServer::from_suite(Suite::load(path)?)
    }

    /// Parses one MCP Cases file's text (`file` names it in messages).
    pub fn parse(file: &str, text: &str) -> Result<MockServer, LoadError> {
        MockServer::from_suite(Suite::parse(file, text)?)
    }

    fn from_suite(suite: Suite) -> Result<MockServer, LoadError> {
        let mut cases = Vec::new();
        for test in suite.tests {
            match test.kind {
                TestKind::Case(case) => cases.push(MockCase::new(&test.file, &case)),
                TestKind::Assertion(_) => {
                    return Err(LoadError {
                        file: test.file,
                        line: 0,
                        column: 0,
                        message: format!(
                            "is an mcp-assert file; a mock server plays MCP Cases files ({:?} expected)",
                            Format::McpCases
                        ),
                    });
                }
            }
        }
        Ok(MockServer {
            cases: Arc::new(cases),
        })
    }

    /// These cases and `other`'s, in that order.
    pub fn merge(self, other: MockServer) -> MockServer {
        let mut cases: Vec<MockCase> = Arc::try_unwrap(self.cases)
            .unwrap_or_else(|shared| shared.iter().map(MockCase::clone_case).collect());
        cases.extend(other.cases.iter().map(MockCase::clone_case));
        MockServer {
            cases: Arc::new(cases),
        }
    }

    /// How many cases it plays.
    pub fn len(&self) -> usize {
        self.cases.len()
    }

    /// True when it plays no case.
    pub fn is_empty(&self) -> bool {
        self.cases.is_empty()
    }

    /// A conversation's state: which cases are under way. One per connection.
    pub fn session(&self) -> MockSession {
        MockSession {
            cases: self.cases.clone(),
            next: vec![0; self.cases.len()],
        }
    }

    /// The mock as a [`Server`] hosted in this process; each connection gets
    /// a fresh session. Unmatched requests are also reported on its stderr
    /// (shown in failure messages).
    pub fn server(&self) -> Server {
        let mock = self.clone();
        Server::in_process_stream(move |io, log| {
            let mock = mock.clone();
            tokio::spawn(async move {
                let (read, write) = tokio::io::split(io);
                if let Err(e) = mock
                    .serve_with_log(read, write, |line| log.push(format!("{line}\n").as_bytes()))
                    .await
                {
                    log.push(format!("mock server stopped: {e}\n").as_bytes());
                }
            })
        })
    }

    /// Serves newline-delimited JSON-RPC on a pair of streams until the input
    /// ends (one session).
    pub async fn serve<R, W>(&self, read: R, write: W) -> std::io::Result<()>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin,
    {
        self.serve_with_log(read, write, |_| {}).await
    }

    async fn serve_with_log<R, W>(
        &self,
        read: R,
        mut write: W,
        log: impl Fn(&str),
    ) -> std::io::Result<()>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin,
    {
        let mut session = self.session();
        let mut lines = BufReader::new(read).lines();
        while let Some(line) = lines.next_line().await? {
            for reply in session.respond_line(&line, &log) {
                let mut bytes = reply.to_string().into_bytes();
                bytes.push(b'\n');
                write.write_all(&bytes).await?;
            }
            write.flush().await?;
        }
        Ok(())
    }
}

impl MockCase {
    fn new(file: &str, case: &Case) -> MockCase {
        let mut turns: Vec<(Pattern, Vec<Value>)> = Vec::new();
        for step in &case.steps {
            match step {
                Step::In { message, .. } => turns.push((Pattern::literal(message), Vec::new())),
                Step::Out { pattern, .. } => {
                    if let Some((_, outs)) = turns.last_mut() {
                        outs.push(pattern.to_output());
                    }
                }
            }
        }
        MockCase {
            label: format!("{} at {file}:{}", case.title(), case.pos.line),
            turns,
        }
    }

    fn clone_case(&self) -> MockCase {
        MockCase {
            label: self.label.clone(),
            turns: self.turns.clone(),
        }
    }
}

/// One connection's state; see [`MockServer::session`].
#[derive(Debug)]
pub struct MockSession {
    cases: Arc<Vec<MockCase>>,
    /// Per case, the next turn expected (0: not started).
    next: Vec<usize>,
}

impl MockSession {
    /// The messages to send back for one incoming message.
    pub fn respond(&mut self, message: &Value) -> Vec<Value> {
        self.respond_logged(message, &|_| {})
    }

    fn respond_line(&mut self, line: &str, log: &dyn Fn(&str)) -> Vec<Value> {
        if line.trim().is_empty() {
            return Vec::new();
        }
        match serde_json::from_str::<Value>(line) {
            Ok(message) => self.respond_logged(&message, log),
            Err(e) => {
                log(&format!("mock: not JSON ({e}): {line}"));
                vec![
                    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("Parse error: {e}")}}),
                ]
            }
        }
    }

    fn respond_logged(&mut self, message: &Value, log: &dyn Fn(&str)) -> Vec<Value> {
        if let Some(turn) = self.find(message) {
            let (case, index) = turn;
            let outs = &self.cases[case].turns[index].1;
            self.next[case] = if index + 1 < self.cases[case].turns.len() {
                index + 1
            } else {
                0
            };
            let id = message.get("id");
            return outs.iter().map(|out| with_id(out, id)).collect();
        }
        if let Value::Array(batch) = message {
            let replies: Vec<Value> = batch
                .iter()
                .flat_map(|m| self.respond_logged(m, log))
                .collect();
            return if replies.is_empty() {
                Vec::new()
            } else {
                vec![Value::Array(replies)]
            };
        }
        let method = message.get("method").and_then(Value::as_str);
        let Some(id) = message.get("id").filter(|_| method.is_some()) else {
            // Notifications and the client's answers need no reply.
            return Vec::new();
        };
        match method.unwrap_or_default() {
            "initialize" => vec![self.initialize(id, message)],
            "ping" => vec![json!({"jsonrpc": "2.0", "id": id, "result": {}})],
            method => {
                let error = self.unmatched(method, message);
                log(&format!(
                    "mock: {}",
                    error["message"].as_str().unwrap_or_default()
                ));
                vec![json!({"jsonrpc": "2.0", "id": id, "error": error})]
            }
        }
    }

    /// The case and turn `message` answers: a case under way first, then the
    /// first turn of any case, in file order.
    fn find(&self, message: &Value) -> Option<(usize, usize)> {
        let message = &with_params(message);
        let under_way = self
            .next
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(c, n)| (c, *n));
        let fresh = (0..self.cases.len()).map(|c| (c, 0));
        under_way.chain(fresh).find(|&(c, t)| {
            self.cases[c].turns[t]
                .0
                .mismatch_ignoring_id(message)
                .is_none()
        })
    }

    fn initialize(&self, id: &Value, message: &Value) -> Value {
        let version = message
            .pointer("/params/protocolVersion")
            .and_then(Value::as_str)
            .unwrap_or(DEFAULT_PROTOCOL_VERSION);
        let mut capabilities = serde_json::Map::new();
        for case in self.cases.iter() {
            for (pattern, _) in &case.turns {
                let method = pattern
                    .get("method")
                    .and_then(Pattern::as_literal)
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let capability = match method.split('/').next().unwrap_or_default() {
                    "tools" => "tools",
                    "prompts" => "prompts",
                    "resources" => "resources",
                    "completion" => "completions",
                    "logging" => "logging",
                    _ => continue,
                };
                capabilities.insert(capability.into(), json!({}));
            }
        }
        json!({"jsonrpc": "2.0", "id": id, "result": {
            "protocolVersion": version,
            "capabilities": capabilities,
            "serverInfo": {"name": "mcptest-mock", "version": env!("CARGO_PKG_VERSION")},
        }})
    }

    fn unmatched(&self, method: &str, message: &Value) -> Value {
        let message = with_params(message);
        // The first of the best-scoring turns; ids say nothing about closeness.
        let mut closest: Option<(&MockCase, &Pattern, usize)> = None;
        for case in self.cases.iter() {
            for (pattern, _) in &case.turns {
                let score = pattern.without_id().score(&message);
                if closest.is_none_or(|(_, _, best)| score > best) {
                    closest = Some((case, pattern, score));
                }
            }
        }
        let closest = closest.map(|(case, pattern, _)| (case, pattern));
        let knows_method = self.cases.iter().any(|c| {
            c.turns.iter().any(|(p, _)| {
                p.get("method")
                    .and_then(Pattern::as_literal)
                    .and_then(Value::as_str)
                    == Some(method)
            })
        });
        match closest {
            Some((case, pattern)) if knows_method => {
                let why = pattern.mismatch_ignoring_id(&message).unwrap_or_default();
                json!({
                    "code": -32602,
                    "message": format!("no case matches this {method} request; the closest is {}, which differs {why}", case.label),
                    "data": {"closestCase": case.label, "mismatch": why},
                })
            }
            Some((case, _)) => json!({
                "code": -32601,
                "message": format!("no case handles {method}; the closest is {}", case.label),
                "data": {"closestCase": case.label},
            }),
            None => {
                json!({"code": -32601, "message": format!("no case handles {method}: the mock has no cases")})
            }
        }
    }
}

/// A request without `params` is matched as if it had `params: {}`.
fn with_params(message: &Value) -> Value {
    let mut message = message.clone();
    if let Value::Object(map) = &mut message
        && map.contains_key("method")
        && !map.contains_key("params")
    {
        map.insert("params".into(), json!({}));
    }
    message
}

/// A response's id becomes the request's; server requests keep theirs.
fn with_id(out: &Value, id: Option<&Value>) -> Value {
    let mut out = out.clone();
    if let (Value::Object(map), Some(id)) = (&mut out, id)
        && !map.contains_key("method")
    {
        map.insert("id".into(), id.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONTRACT: &str = r#"
case: Echo
in: {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hi"}}}
out: {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "hi"}]}}
---
case: Two turns
in_first: {"jsonrpc": "2.0", "id": 1, "method": "prompts/list"}
out_first: {"jsonrpc": "2.0", "id": 1, "result": {"prompts": []}}
in_second: {"jsonrpc": "2.0", "id": 2, "method": "prompts/list"}
out_second: {"jsonrpc": "2.0", "id": 2, "result": {"prompts": [{"name": "later"}]}}
"#;

    #[test]
    fn answers_with_the_matching_case_and_the_request_id() {
        let mock = MockServer::parse("c.yaml", CONTRACT).unwrap();
        let mut s = mock.session();
        let reply = s.respond(&json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hi"}, "_meta": {"progressToken": 1}}}));
        assert_eq!(
            reply,
            [
                json!({"jsonrpc": "2.0", "id": 77, "result": {"content": [{"type": "text", "text": "hi"}]}})
            ]
        );
        let first = s.respond(&json!({"jsonrpc": "2.0", "id": 5, "method": "prompts/list"}));
        assert_eq!(first[0]["result"]["prompts"], json!([]));
        let second = s.respond(&json!({"jsonrpc": "2.0", "id": 6, "method": "prompts/list"}));
        assert_eq!(second[0]["result"]["prompts"][0]["name"], json!("later"));
    }

    #[test]
    fn an_unmatched_request_names_the_closest_case() {
        let mock = MockServer::parse("c.yaml", CONTRACT).unwrap();
        let mut s = mock.session();
        let reply = s.respond(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "ho"}}}));
        assert_eq!(reply[0]["error"]["code"], json!(-32602));
        assert_eq!(
            reply[0]["error"]["message"],
            json!(
                "no case matches this tools/call request; the closest is `Echo` (case 1) at c.yaml:2, which differs at `params.arguments.message`: expected \"hi\", got \"ho\""
            )
        );
        let reply = s.respond(&json!({"jsonrpc": "2.0", "id": 4, "method": "resources/list"}));
        assert_eq!(reply[0]["error"]["code"], json!(-32601));
        assert!(
            s.respond(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                .is_empty()
        );
    }
}
