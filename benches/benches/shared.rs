//! What a shared server (`Server::shared`, `#[mcp_test(shared)]`) costs and
//! saves, each against a baseline measured in the same run.
//!
//! 1. Marginal cost per test against a warm shared server: a test's work is
//!    `connect` (a view of the running connection), one `tools/call echo`,
//!    `close` (the view). The baseline is the call's own round trip on a
//!    client that is already connected. Both run interleaved, and the
//!    difference of the medians is the cost of a test's own client on a
//!    shared server. Target: <= 0.1 ms.
//! 2. 100 tests against a server that takes 0.5 s to start
//!    (`bench-server --start-delay 500`), each one `#[tokio::test]`-like run
//!    (its own runtime, connect, one call, close) on as many threads as
//!    `cargo test` uses (the number of cores): wall time with a fresh server
//!    per test against one shared server.
//!
//! Every run is bounded: a fixed number of rounds and a timeout on every call.
//!
//!     cargo bench -p mcptest-benches --bench shared            (`-- --quick`: 20 tests in part 2)

use std::{
    sync::atomic::{AtomicUsize, Ordering},
    time::{Duration, Instant},
};

use mcptest::prelude::*;
use mcptest_benches::median;

const SERVER: &str = env!("CARGO_BIN_EXE_bench-server");
const CALL_TIMEOUT: Duration = Duration::from_secs(20);
/// Interleaved rounds for the marginal cost.
const ROUNDS: usize = 2000;
/// How long the slow server sleeps before it reads stdin.
const START_DELAY_MS: u64 = 500;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

async fn one_call(mcp: &McpClient) {
    let call = mcp.call_tool("echo", json!({"message": "hi"})).await;
    assert_eq!(call.text(), "hi", "{call:?}");
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn marginal_cost() {
    let server = || Server::program(SERVER).timeout(CALL_TIMEOUT).shared();
    runtime().block_on(async {
        let warm = server().connect().await.expect("bench-server starts");
        for _ in 0..100 {
            one_call(&warm).await;
        }
        let (mut call, mut test) = (Vec::new(), Vec::new());
        for round in 0..ROUNDS {
            let call_once = async {
                let started = Instant::now();
                one_call(&warm).await;
                started.elapsed()
            };
            let test_once = async {
                let started = Instant::now();
                let mcp = server()
                    .connect()
                    .await
                    .expect("a view of the shared server");
                one_call(&mcp).await;
                mcp.close().await;
                started.elapsed()
            };
            // Alternate the order so neither always runs first.
            if round % 2 == 0 {
                call.push(call_once.await);
                test.push(test_once.await);
            } else {
                test.push(test_once.await);
                call.push(call_once.await);
            }
        }
        let (call, test) = (median(call), median(test));
        println!("\nshared server, median of {ROUNDS} interleaved runs each:");
        println!(
            "  one call on a connected client        {:>8.3} ms",
            millis(call)
        );
        println!(
            "  a test: connect view + call + close   {:>8.3} ms",
            millis(test)
        );
        println!(
            "  marginal cost of a test's own client  {:>8.3} ms   (target <= 0.100)",
            millis(test.saturating_sub(call))
        );
    });
}

/// Runs `tests` test-like runs on `threads` threads; returns the wall time.
fn run_tests(tests: usize, threads: usize, shared: bool) -> Duration {
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while next.fetch_add(1, Ordering::Relaxed) < tests {
                    runtime().block_on(async {
                        let mut server = Server::program(SERVER)
                            .args(["--start-delay", &START_DELAY_MS.to_string()])
                            .timeout(CALL_TIMEOUT)
                            .connect_timeout(CALL_TIMEOUT);
                        if shared {
                            server = server.shared();
                        }
                        let mcp = server.connect().await.expect("bench-server starts");
                        one_call(&mcp).await;
                        mcp.close().await;
                    });
                }
            });
        }
    });
    started.elapsed()
}

fn slow_server(tests: usize) {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let shared = run_tests(tests, threads, true);
    let fresh = run_tests(tests, threads, false);
    println!(
        "\n{tests} tests against a server that takes {START_DELAY_MS} ms to start, {threads} threads:"
    );
    println!("  a fresh server per test   {:>9.3} s", fresh.as_secs_f64());
    println!(
        "  one shared server         {:>9.3} s",
        shared.as_secs_f64()
    );
    println!(
        "  per-test / shared         {:>9.1} x",
        fresh.as_secs_f64() / shared.as_secs_f64()
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    marginal_cost();
    slow_server(if quick { 20 } else { 100 });
}
