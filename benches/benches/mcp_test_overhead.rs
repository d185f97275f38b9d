//! What `#[mcp_test]` costs per test, against the same test written by hand
//! with the harness, measured in the same run.
//!
//! Each run is one whole test: a tokio runtime, spawning `bench-server`, the
//! handshake, one `tools/call`, closing the client (the server reaped). The
//! attribute's run also copies a small fixture directory (5 files, 3 KiB) and
//! removes the copy. Four variants:
//!
//! - `raw_harness`: what a `#[tokio::test]` written by hand does;
//! - `raw_harness_with_copy`: the same plus `Fixture::copy_from`, the work the
//!   attribute's `fixture` option stands for;
//! - `mcp_test`: the runner `#[mcp_test]` expands to, with a fixture copy;
//! - `mcp_test_without_fixture`: the same without `fixture`.
//!
//! Criterion reports each; then the variants run interleaved (so drift in
//! machine load hits all alike) and the ratios of their medians are printed.
//! The target is `mcp_test / raw_harness <= 1.10`.
//!
//!     cargo bench -p mcptest-benches --bench mcp_test_overhead

use std::time::{Duration, Instant};

use criterion::Criterion;
use mcptest::prelude::*;
use mcptest_benches::median;

const SERVER: &str = env!("CARGO_BIN_EXE_bench-server");
const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small");

/// Interleaved rounds for the ratio.
const ROUNDS: usize = 40;

/// The run `#[mcp_test(bin = "bench-server", args = ["--root", "{{fixture}}"],
/// fixture = "fixtures/small")]` generates, written out: the attribute's
/// function is a `#[test]`, which a `harness = false` bench (built with
/// `cfg(test)` but without the test harness) compiles away. The macro's unit
/// tests pin the expansion to these calls.
fn with_the_attribute() {
    async fn read_one_file(mcp: McpClient) {
        one_call(&mcp).await;
    }
    mcptest::__private::run(
        mcptest::__private::TestSpec::new(concat!(module_path!(), "::read_one_file"))
            .fixture(FIXTURE),
        || Server::program(SERVER).args(["--root", "{{fixture}}"]),
        read_one_file,
        |output: ()| mcptest::__private::TestOutput::into_result(output),
    )
}

async fn one_call(mcp: &McpClient) {
    let call = mcp
        .call_tool("read_file", json!({"path": "notes.txt"}))
        .await;
    assert_eq!(call.text(), "original\n", "{call:?}");
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

fn raw_harness() {
    runtime().block_on(async {
        let mcp = Server::program(SERVER)
            .args(["--root", FIXTURE])
            .connect()
            .await
            .expect("bench-server starts");
        one_call(&mcp).await;
        mcp.close().await;
    });
}

fn raw_harness_with_copy() {
    let fixture = Fixture::copy_from(FIXTURE).expect("copy the fixture");
    runtime().block_on(async {
        let mcp = Server::program(SERVER)
            .args(["--root", "{{fixture}}"])
            .fixture_dir(fixture.path())
            .connect()
            .await
            .expect("bench-server starts");
        one_call(&mcp).await;
        mcp.close().await;
    });
}

/// The same without `fixture` (the server reads the original directory), to
/// tell the attribute's machinery apart from the cost of the copy.
fn with_the_attribute_without_fixture() {
    async fn read_one_file(mcp: McpClient) {
        one_call(&mcp).await;
    }
    mcptest::__private::run(
        mcptest::__private::TestSpec::new(concat!(module_path!(), "::read_one_file")),
        || Server::program(SERVER).args(["--root", FIXTURE]),
        read_one_file,
        |output: ()| mcptest::__private::TestOutput::into_result(output),
    )
}

type Variant = (&'static str, fn());

const VARIANTS: [Variant; 4] = [
    ("raw_harness", raw_harness),
    ("raw_harness_with_copy", raw_harness_with_copy),
    ("mcp_test", with_the_attribute),
    (
        "mcp_test_without_fixture",
        with_the_attribute_without_fixture,
    ),
];

fn per_test(c: &mut Criterion) {
    let mut group = c.benchmark_group("per_test");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(8));
    for (name, run) in VARIANTS {
        group.bench_function(name, |b| b.iter(run));
    }
    group.finish();
}

fn ratios() {
    let mut samples: [Vec<Duration>; 4] = Default::default();
    // Warm up the page cache and the allocator first.
    for (_, run) in VARIANTS {
        run();
    }
    for round in 0..ROUNDS {
        // Rotate the order so no variant always runs first.
        for offset in 0..VARIANTS.len() {
            let index = (round + offset) % VARIANTS.len();
            let started = Instant::now();
            (VARIANTS[index].1)();
            samples[index].push(started.elapsed());
        }
    }
    let [raw, raw_copy, attribute, attribute_alone] = samples.map(median);
    println!("\nper-test cost, median of {ROUNDS} interleaved runs each:");
    for (name, time) in [
        ("raw harness", raw),
        ("raw harness + fixture copy", raw_copy),
        ("#[mcp_test] (with fixture copy)", attribute),
        ("#[mcp_test] without a fixture", attribute_alone),
    ] {
        println!("  {name:<34} {:>9.3} ms", time.as_secs_f64() * 1e3);
    }
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    println!(
        "  #[mcp_test] / raw harness          {:>9.3}   (target <= 1.10)",
        ratio(attribute, raw)
    );
    println!(
        "  #[mcp_test] / raw harness + copy   {:>9.3}   (the same work written by hand)",
        ratio(attribute, raw_copy)
    );
    println!(
        "  #[mcp_test] without fixture / raw  {:>9.3}   (the attribute's own machinery)",
        ratio(attribute_alone, raw)
    );
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    per_test(&mut criterion);
    criterion.final_summary();
    ratios();
}
