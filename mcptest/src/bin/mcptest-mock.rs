//! `mcptest-mock`: plays MCP Cases files as an MCP server over stdio, for
//! testing MCP clients against a contract.

use std::{
    io::{BufRead, Write},
    process::ExitCode,
};

use mcptest::suite::MockServer;

const USAGE: &str = "\
usage: mcptest-mock CASES.yaml|DIR...

Serves the MCP Cases files (or every .yaml/.yml file below each DIR) as an MCP
server on stdin/stdout: each request is answered with the `out`s of the case
whose `in` matches it; a request no case matches gets a JSON-RPC error naming
the closest case. Unmatched requests are also reported on stderr.";

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() || paths.iter().any(|p| p == "-h" || p == "--help") {
        eprintln!("{USAGE}");
        return if paths.is_empty() {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    let mut mock: Option<MockServer> = None;
    for path in &paths {
        match MockServer::load(path) {
            Ok(loaded) => {
                mock = Some(match mock {
                    Some(m) => m.merge(loaded),
                    None => loaded,
                })
            }
            Err(e) => {
                eprintln!("mcptest-mock: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let mock = mock.expect("at least one path");
    eprintln!("mcptest-mock: serving {} cases on stdio", mock.len());
    let mut session = mock.session();
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("mcptest-mock: reading stdin failed: {e}");
                return ExitCode::FAILURE;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let replies = match serde_json::from_str(&line) {
            Ok(message) => {
                let replies = session.respond(&message);
                for reply in &replies {
                    if let Some(message) = reply.pointer("/error/message").and_then(|m| m.as_str())
                    {
                        eprintln!("mcptest-mock: {message}");
                    }
                }
                replies
            }
            Err(e) => {
                eprintln!("mcptest-mock: not JSON ({e}): {line}");
                vec![
                    serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("Parse error: {e}")}}),
                ]
            }
        };
        for reply in replies {
            if writeln!(stdout, "{reply}")
                .and_then(|()| stdout.flush())
                .is_err()
            {
                // The client went away.
                return ExitCode::SUCCESS;
            }
        }
    }
    ExitCode::SUCCESS
}
