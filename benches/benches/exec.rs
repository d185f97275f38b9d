//! `mcp.call` through the coprocess engine (`mcptest exec -- SERVER`, driven
//! by `mcptest_coprocess::Client` over real pipes, protocol v3: the verdict
//! carries the content and what the server sent during the call) against a
//! direct harness call, both on a warm connection to the same stdio server.
//!
//! Run: `cargo build --release -p mcptest-cli && cargo bench -p
//! mcptest-benches --bench exec`. The engine is the `mcptest` binary next to
//! this bench's profile directory (`target/release/mcptest`), or the one
//! `MCPTEST_BIN` names; without one the bench says so and exits 1.

use std::{path::PathBuf, time::Duration};

use criterion::Criterion;
use mcptest::Server;
use mcptest_benches::report_ratio;
use mcptest_coprocess::Client;
use serde_json::json;

const SERVER: &str = env!("CARGO_BIN_EXE_bench-server");

fn engine() -> PathBuf {
    if let Some(path) = std::env::var_os("MCPTEST_BIN") {
        return PathBuf::from(path);
    }
    // target/<profile>/deps/exec-<hash> -> target/<profile>/mcptest
    let exe = std::env::current_exe().expect("the bench's own path");
    exe.parent()
        .and_then(|deps| deps.parent())
        .map(|profile| profile.join("mcptest"))
        .expect("a target directory")
}

fn main() {
    let engine = engine();
    if !engine.is_file() {
        eprintln!(
            "no mcptest binary at {}: run `cargo build --release -p mcptest-cli` first (or set MCPTEST_BIN)",
            engine.display()
        );
        std::process::exit(1);
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut criterion = Criterion::default()
        .output_directory(&mcptest_benches::criterion_dir())
        .configure_from_args();
    let mut group = criterion.benchmark_group("exec-round-trip");
    group.measurement_time(Duration::from_secs(5));

    let mcp = rt.block_on(async { Server::program(SERVER).connect().await.expect("connects") });
    group.bench_function("direct", |b| {
        b.iter(|| rt.block_on(mcp.call_tool("echo", json!({"message": "hi"}))))
    });
    rt.block_on(mcp.close());

    let mut coprocess = rt.block_on(async {
        Client::spawn(&engine, ["exec", "--connection-server", "--", SERVER])
            .await
            .expect("the engine starts and shakes hands")
    });
    group.bench_function("exec", |b| {
        b.iter(|| {
            rt.block_on(coprocess.call_tool("echo", json!({"message": "hi"})))
                .expect("a reply")
        })
    });
    group.finish();
    rt.block_on(coprocess.shutdown()).expect("the engine stops");
    criterion.final_summary();

    println!("\nagainst the baseline measured in this run:");
    report_ratio("exec-round-trip", "exec", "direct", None);
}
