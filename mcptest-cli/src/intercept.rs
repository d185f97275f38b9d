//! `mcptest intercept`: a stdio proxy between an agent (the MCP client that
//! starts this command as its server) and the real server. Every message
//! passes through as JSON; every `tools/call` the agent sends is recorded.
//! When the agent closes stdin, requests still in flight are answered, the
//! server is stopped, the calls are written as an audit log (one
//! `{"tool": .., "args": ..}` per line), and the trajectory files are run
//! against it: their `audit_log:` names the same file as `--log`.
//!
//! stdout belongs to the protocol: everything this command says goes to
//! stderr.

use std::{collections::HashSet, io::Write as _, path::Path, time::Duration};

use mcptest::{RawConnection, Server, suite::RunOptions};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::{
    Exit,
    args::InterceptArgs,
    output::{self, Palette},
    paths,
};

pub fn intercept(args: InterceptArgs) -> Exit {
    if let Err(e) = crate::connect::check_server(&args.server) {
        eprintln!("mcptest: {e}");
        return Exit::Usage;
    }
    // The trajectory files load before the agent is let in: a typo is
    // a usage error now, not after a whole agent session.
    let suite = match paths::load_suite(&args.trajectory) {
        Ok(suite) => suite,
        Err(exit) => return exit,
    };
    let runtime = match crate::runtime(2) {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    let server = Server::command(&args.server);
    let proxied = runtime.block_on(proxy(&server, args.timeout));
    let (calls, server_exit) = match proxied {
        Ok(done) => done,
        Err(e) => {
            eprintln!("mcptest: the server did not start: {e}");
            return Exit::Usage;
        }
    };
    if let Err(e) = write_log(&args.log, &calls) {
        eprintln!(
            "mcptest: cannot write the audit log {}: {e}",
            args.log.display()
        );
        return Exit::Usage;
    }
    eprintln!(
        "mcptest: recorded {} tool call{} to {}",
        calls.len(),
        if calls.len() == 1 { "" } else { "s" },
        args.log.display()
    );
    let report = runtime.block_on(suite.run_report("mcptest intercept", &RunOptions::new()));
    let palette = Palette::new(false);
    for result in &report.results {
        eprintln!("{}", palette.line(result));
    }
    eprint!("{}", output::summary(&report, &palette));
    output::write_reports(&report, &args.reports);
    if let Some(why) = server_exit {
        eprintln!("mcptest: the session ended early: {why}");
        return Exit::Failures;
    }
    if report.passed() {
        Exit::Pass
    } else {
        Exit::Failures
    }
}

/// Relays messages until the agent closes stdin and every request it sent
/// is answered (or `timeout` passes), then stops the server. Returns the
/// recorded calls and, if the server went away first, why.
async fn proxy(
    server: &Server,
    timeout: Duration,
) -> Result<(Vec<Value>, Option<String>), mcptest::Error> {
    let mut raw = RawConnection::open(server).await?;
    let mut agent = BufReader::new(tokio::io::stdin()).lines();
    let mut stdout = tokio::io::stdout();
    let mut calls = Vec::new();
    let mut in_flight: HashSet<String> = HashSet::new();
    // The agent's stdin is open; afterwards only answers are awaited.
    let mut agent_open = true;
    let mut deadline: Option<tokio::time::Instant> = None;
    let mut ended = None;
    loop {
        if !agent_open && in_flight.is_empty() {
            break;
        }
        let left = match deadline {
            Some(at) => at.saturating_duration_since(tokio::time::Instant::now()),
            // While the agent is connected, the server may stay quiet as
            // long as the agent likes.
            None => Duration::from_secs(24 * 60 * 60),
        };
        tokio::select! {
            line = agent.next_line(), if agent_open => match line {
                Ok(Some(line)) => {
                    let message: Option<Value> = serde_json::from_str(&line).ok();
                    if let Some(message) = &message {
                        record(message, &mut calls, &mut in_flight);
                    }
                    if let Err(e) = raw.send_line(&line).await {
                        ended = Some(format!("the server stopped reading: {e}"));
                        break;
                    }
                }
                // End of input (or an unreadable stdin): the agent is gone.
                _ => {
                    agent_open = false;
                    deadline = Some(tokio::time::Instant::now() + timeout);
                }
            },
            message = raw.recv(left) => match message {
                Ok(message) => {
                    answered(&message, &mut in_flight);
                    let mut line = message.to_string().into_bytes();
                    line.push(b'\n');
                    // An agent that closed its stdout does not fail the run;
                    // its calls are still checked.
                    let _ = stdout.write_all(&line).await;
                    let _ = stdout.flush().await;
                }
                Err(mcptest::Error::Timeout { .. }) if !agent_open => {
                    ended = Some(format!(
                        "{} request{} still unanswered {} after the agent closed stdin",
                        in_flight.len(),
                        if in_flight.len() == 1 { "" } else { "s" },
                        humantime::format_duration(timeout)
                    ));
                    break;
                }
                Err(mcptest::Error::Timeout { .. }) => {}
                Err(e) => {
                    ended = Some(format!("the server went away: {e}"));
                    break;
                }
            },
        }
    }
    // Closes the server's stdin, waits its grace period, then kills and
    // reaps it (the library's one way of stopping a server).
    raw.close().await;
    Ok((calls, ended))
}

/// Records a `tools/call` (or each in a batch) and remembers request ids.
fn record(message: &Value, calls: &mut Vec<Value>, in_flight: &mut HashSet<String>) {
    if let Value::Array(batch) = message {
        for message in batch {
            record(message, calls, in_flight);
        }
        return;
    }
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return;
    };
    if let Some(id) = message.get("id") {
        in_flight.insert(id.to_string());
    }
    if method == "tools/call"
        && let Some(tool) = message.pointer("/params/name").and_then(Value::as_str)
    {
        let args = message
            .pointer("/params/arguments")
            .cloned()
            .unwrap_or_else(|| json!({}));
        calls.push(json!({ "tool": tool, "args": args }));
    }
}

/// Forgets the ids a response (or a batch of them) answers.
fn answered(message: &Value, in_flight: &mut HashSet<String>) {
    if let Value::Array(batch) = message {
        for message in batch {
            answered(message, in_flight);
        }
        return;
    }
    if message.get("method").is_none()
        && let Some(id) = message.get("id")
    {
        in_flight.remove(&id.to_string());
    }
}

fn write_log(path: &Path, calls: &[Value]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = std::fs::File::create(path)?;
    for call in calls {
        writeln!(file, "{call}")?;
    }
    file.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_calls_are_recorded_and_ids_tracked_until_answered() {
        let mut calls = Vec::new();
        let mut in_flight = HashSet::new();
        record(
            &json!([
                {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1}}},
                {"jsonrpc": "2.0", "id": "x", "method": "tools/list"},
                {"jsonrpc": "2.0", "method": "notifications/initialized"}
            ]),
            &mut calls,
            &mut in_flight,
        );
        assert_eq!(calls, [json!({"tool": "add", "args": {"a": 1}})]);
        assert_eq!(in_flight.len(), 2);
        answered(
            &json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            &mut in_flight,
        );
        // A server-to-client request with the same id answers nothing.
        answered(
            &json!({"jsonrpc": "2.0", "id": "x", "method": "roots/list"}),
            &mut in_flight,
        );
        assert_eq!(in_flight.len(), 1);
    }
}
