//! A flooding server: 1,000,000 notifications before the answer to one
//! `tools/call`. Prints the call's wall time and the client's peak resident
//! memory (targets: at most 3 s and 64 MB), and how many notifications the
//! bounded log kept and dropped.
//!
//! Run: `cargo bench -p mcptest-benches --bench hostile`. The server is this
//! same binary, started with `MCPTEST_BENCH_FLOOD` set, so that its own cost
//! is one pre-built line written a million times.

use std::{
    io::{BufRead, BufWriter, Write},
    time::{Duration, Instant},
};

use mcptest::{Server, WireSchema};
use serde_json::{Value, json};

const FLOOD: usize = 1_000_000;
const ROLE: &str = "MCPTEST_BENCH_FLOOD";

fn main() {
    if std::env::var_os(ROLE).is_some() {
        serve();
        return;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let exe = std::env::current_exe().expect("this binary's path");
    let flood = |schema: WireSchema| {
        let exe = exe.clone();
        runtime.block_on(async move {
            let mcp = Server::program(exe.display().to_string())
                .env(ROLE, "1")
                .timeout(Duration::from_secs(120))
                .wire_schema(schema)
                .connect()
                .await
                .expect("connects");
            let started = Instant::now();
            let call = mcp.call_tool("poke", json!({})).await;
            let elapsed = started.elapsed();
            assert_eq!(call.text(), "poked", "{call:?}");
            let log = mcp.server_messages();
            let counts = (
                log.all().len(),
                log.dropped(),
                log.count("notifications/message"),
            );
            mcp.close().await;
            (elapsed, counts.0, counts.1, counts.2)
        })
    };
    // The schema check's share: the same flood with it off, first.
    let (unchecked, ..) = flood(WireSchema::Off);
    let (elapsed, kept, dropped, count) = flood(WireSchema::Fail);
    let peak = peak_rss_kib();
    println!(
        "hostile/notification-flood: {FLOOD} notifications before the answer: \
         {:.2}s (target <= 3s), peak RSS {:.1} MB (target <= 64 MB); \
         kept {kept}, dropped {dropped}, counted {count}; with the schema check off \
         {:.2}s ({:.2}x)",
        elapsed.as_secs_f64(),
        peak as f64 / 1024.0,
        unchecked.as_secs_f64(),
        elapsed.as_secs_f64() / unchecked.as_secs_f64(),
    );
}

/// The process's peak resident set (`VmHWM`), in KiB; 0 where unknown.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// The flooding server: answers the handshake and `tools/list`, and sends
/// the flood before answering `tools/call`.
fn serve() {
    let stdin = std::io::stdin();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let note = json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": "flood"}})
    .to_string();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let (Some(id), Some(method)) = (message.get("id"), message["method"].as_str()) else {
            continue;
        };
        let result = match method {
            "initialize" => json!({
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}, "logging": {}},
                "serverInfo": {"name": "flood", "version": "1"}
            }),
            "tools/list" => json!({"tools": [{"name": "poke", "inputSchema": {"type": "object"}}]}),
            "tools/call" => {
                for _ in 0..FLOOD {
                    let _ = writeln!(out, "{note}");
                }
                json!({"content": [{"type": "text", "text": "poked"}]})
            }
            _ => json!({}),
        };
        let _ = writeln!(
            out,
            "{}",
            json!({"jsonrpc": "2.0", "id": id, "result": result})
        );
        let _ = out.flush();
    }
}
