//! A replayed `tools/call`: one call answered from a cassette (no server
//! process), against the same call on a warm stdio connection to
//! bench-server. Target: a replayed call at most 50 µs.
//!
//! Run: `cargo bench -p mcptest-benches --bench replay`.

use std::time::{Duration, Instant};

use criterion::Criterion;
use mcptest::{CassetteMode, Server};
use mcptest_benches::{mean_ns, report_ratio};
use serde_json::json;

const SERVER: &str = env!("CARGO_BIN_EXE_bench-server");
/// Calls on the tape; a replayed request is answered once, so a batch
/// longer than this opens another replay session.
const TAPE_CALLS: u64 = 5_000;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

fn main() {
    let mut criterion = Criterion::default()
        .output_directory(&mcptest_benches::criterion_dir())
        .configure_from_args();
    let rt = runtime();
    let dir = tempfile::tempdir().expect("a temp dir");
    let tape = dir.path().join("calls.json");
    let args = json!({"message": "hi"});

    // Record once against the real server; the warm-connection baseline
    // uses a connection of its own.
    rt.block_on(async {
        let mcp = Server::program(SERVER)
            .fetch_tool_definitions(false)
            .cassette(&tape, CassetteMode::Record)
            .connect()
            .await
            .expect("bench-server starts");
        for _ in 0..TAPE_CALLS {
            mcp.call_tool("echo", args.clone()).await.assert_success();
        }
        mcp.close().await;
    });

    let mut group = criterion.benchmark_group("replayed-call");
    group.bench_function("replay", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let mut spent = Duration::ZERO;
                let mut left = iters;
                while left > 0 {
                    let mcp = Server::program("/nonexistent/bench-server")
                        .fetch_tool_definitions(false)
                        .cassette(&tape, CassetteMode::Replay)
                        .connect()
                        .await
                        .expect("the tape replays");
                    let batch = left.min(TAPE_CALLS);
                    let start = Instant::now();
                    for _ in 0..batch {
                        let call = mcp.call_tool("echo", args.clone()).await;
                        assert!(call.is_success(), "{call:?}");
                    }
                    spent += start.elapsed();
                    left -= batch;
                    mcp.close().await;
                }
                spent
            })
        })
    });
    let mcp = rt
        .block_on(
            Server::program(SERVER)
                .fetch_tool_definitions(false)
                .connect(),
        )
        .expect("bench-server starts");
    group.bench_function("warm-stdio", |b| {
        b.iter(|| rt.block_on(mcp.call_tool("echo", args.clone())))
    });
    group.finish();
    rt.block_on(mcp.close());
    criterion.final_summary();

    println!("\nagainst the baseline measured in this run:");
    report_ratio("replayed-call", "replay", "warm-stdio", None);
    if let Some(ns) = mean_ns("replayed-call", "replay") {
        let verdict = if ns <= 50_000.0 { "met" } else { "MISSED" };
        println!(
            "replayed-call: {:.1} µs per call (target <= 50 µs: {verdict})",
            ns / 1000.0
        );
    }
}
