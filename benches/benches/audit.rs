//! Audit of a 25-tool server (`bench-server --tools 25`: every tool has a
//! string, a bounded integer, an enum, a boolean, a nested object and an
//! array parameter): wall time of one whole audit (spawn, handshake,
//! `tools/list`, 25 calls, teardown) and tool calls per second, on a shared
//! server and with a fresh server per tool.
//!
//! The baseline, measured in the same run, is the same work written by hand
//! with the client: connect, list, call every tool once with the same
//! inputs, close. `audit / by hand` near 1.0 means building inputs,
//! classifying and reporting cost next to nothing beside the calls.
//!
//! Every run is bounded: a fixed number of rounds, a timeout on every call,
//! and an audit that is not fully healthy fails the benchmark.
//!
//! Run: `cargo bench -p mcptest-benches --bench audit` (`-- --quick` for
//! fewer rounds).

use std::time::{Duration, Instant};

use mcptest::{
    Server,
    scan::audit::{Audit, Score, valid_input},
};
use mcptest_benches::median;
use serde_json::Value;

const SERVER: &str = env!("CARGO_BIN_EXE_bench-server");
const TOOLS: usize = 25;
const CALL_TIMEOUT: Duration = Duration::from_secs(20);

fn server() -> Server {
    Server::program(SERVER)
        .args(["--tools", &TOOLS.to_string()])
        .timeout(CALL_TIMEOUT)
}

/// One audit; panics unless every tool was healthy.
async fn audit(fresh: bool) -> Duration {
    let started = Instant::now();
    let report = Audit::new(server())
        .fresh_server_per_tool(fresh)
        .timeout(CALL_TIMEOUT)
        .run()
        .await;
    let elapsed = started.elapsed();
    let score = Score::of(&report);
    assert_eq!(
        (score.healthy, score.unhealthy),
        (TOOLS, 0),
        "the audit of the wide fixture is fully healthy:\n{report}"
    );
    elapsed
}

/// The same calls written by hand with the client.
async fn by_hand() -> Duration {
    let started = Instant::now();
    let mcp = server().connect().await.expect("the bench server starts");
    let tools = mcp.list_tools().await.expect("tools/list").into_inner();
    assert_eq!(tools.len(), TOOLS);
    for tool in &tools {
        let input = valid_input(&Value::Object((*tool.input_schema).clone()));
        let call = mcp.call_tool(&tool.name, input).await;
        assert!(call.is_success(), "{call:?}");
    }
    mcp.close().await;
    started.elapsed()
}

struct Stats {
    median: Duration,
    min: Duration,
    max: Duration,
}

/// `samples` is never empty: each variant runs at least one round.
fn stats(samples: Vec<Duration>) -> Stats {
    Stats {
        min: samples.iter().min().copied().unwrap_or_default(),
        max: samples.iter().max().copied().unwrap_or_default(),
        median: median(samples),
    }
}

fn print(name: &str, stats: &Stats) {
    let calls_per_second = TOOLS as f64 / stats.median.as_secs_f64();
    println!(
        "{name:<28} median {:>8.1} ms  (min {:.1}, max {:.1})  {calls_per_second:>7.0} calls/s",
        stats.median.as_secs_f64() * 1e3,
        stats.min.as_secs_f64() * 1e3,
        stats.max.as_secs_f64() * 1e3,
    );
}

fn main() {
    // `cargo bench` passes `--bench`; only `--quick` is ours.
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 5 } else { 20 };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        // Warm-up: the first spawn pays for loading the binary.
        audit(false).await;
        by_hand().await;

        let mut shared = Vec::new();
        let mut hand = Vec::new();
        let mut fresh = Vec::new();
        for _ in 0..rounds {
            // Interleaved, so that drift in the machine's load hits all three alike.
            shared.push(audit(false).await);
            hand.push(by_hand().await);
            fresh.push(audit(true).await);
        }
        println!("audit of a {TOOLS}-tool server, {rounds} rounds (wall time of a whole run)");
        let shared = stats(shared);
        let hand = stats(hand);
        print("audit, shared server", &shared);
        print("by hand, shared server", &hand);
        print("audit, fresh server per tool", &stats(fresh));
        println!(
            "audit / by hand = {:.3}x",
            shared.median.as_secs_f64() / hand.median.as_secs_f64()
        );
    });
}
