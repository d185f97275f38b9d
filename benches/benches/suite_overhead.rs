//! A 50-file mcp-assert suite run as `suite!` generates it, against the same
//! 50 calls and checks written by hand with the harness. Both sides start a
//! fresh in-process `fixture-everything` and a fresh runtime per test, as a
//! `#[test]` does. Target: generated ≤ 5 % slower. The ratio is printed at
//! the end, measured in this run.

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use mcptest::{Server, report::Outcome};
use mcptest_tests::everything::Everything;
use serde_json::json;

// Each test's server is its own, in process: the tests need no turns.
mcptest::suite!(
    "suites/overhead",
    server = Server::in_process(Everything::default()),
    name = overhead,
    independent,
);

/// What each generated test does, without the `#[test]` wrapper.
fn generated() {
    for (position, &(name, _, _)) in overhead::TESTS.iter().enumerate() {
        let result = mcptest::__private::suite::run_embedded(
            &overhead::SUITE,
            position,
            overhead::options(),
        );
        assert_eq!(result.outcome, Outcome::Pass, "{name}");
    }
}

/// The generated tests with the YAML already loaded: what the runner costs
/// without the loading.
fn preloaded() {
    use std::sync::OnceLock;
    static SUITE: OnceLock<mcptest::suite::Suite> = OnceLock::new();
    let suite = SUITE.get_or_init(|| {
        let mut all = Vec::new();
        for file in overhead::FILES {
            all.push(mcptest::suite::Suite::parse(file.path, file.text).unwrap());
        }
        all.into_iter()
            .fold(mcptest::suite::Suite::default(), |mut a, b| {
                a.extend(b);
                a
            })
    });
    for test in suite.tests() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let result = runtime.block_on(test.run(&overhead::options()));
        assert_eq!(result.outcome, Outcome::Pass, "{}", result.name);
    }
}

/// The same tests written by hand.
fn hand_written() {
    for i in 0..50u32 {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mcp = Server::in_process(Everything::default())
                .connect()
                .await
                .unwrap();
            if i % 2 == 0 {
                let call = mcp
                    .call_tool("echo", json!({"message": format!("message {i}")}))
                    .await;
                assert!(call.is_success(), "{call:?}");
                assert_eq!(call.text().trim(), format!("message {i}"));
            } else {
                let call = mcp.call_tool("add", json!({"a": i, "b": 1})).await;
                assert!(call.is_success(), "{call:?}");
                assert!(call.text().contains(&(i + 1).to_string()));
            }
            mcp.close().await;
        });
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("suite_overhead_50_files");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("generated", |b| b.iter(generated));
    group.bench_function("hand_written", |b| b.iter(hand_written));
    group.finish();
}

/// Interleaved rounds, so both sides see the same machine load; the median
/// of the per-round ratios.
fn report_ratio() {
    const ROUNDS: usize = 15;
    let mut ratios = Vec::with_capacity(ROUNDS);
    let mut preloaded_ratios = Vec::with_capacity(ROUNDS);
    let (mut total_generated, mut total_hand) = (Duration::ZERO, Duration::ZERO);
    for round in 0..ROUNDS {
        let time = |f: fn()| {
            let started = Instant::now();
            f();
            started.elapsed()
        };
        // Alternate which goes first.
        let (g, h) = if round % 2 == 0 {
            let g = time(generated);
            (g, time(hand_written))
        } else {
            let h = time(hand_written);
            (time(generated), h)
        };
        total_generated += g;
        total_hand += h;
        ratios.push(g.as_secs_f64() / h.as_secs_f64());
        let p = time(preloaded);
        let h2 = time(hand_written);
        preloaded_ratios.push(p.as_secs_f64() / h2.as_secs_f64());
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ROUNDS / 2];
    preloaded_ratios.sort_by(f64::total_cmp);
    println!(
        "runner alone (files loaded beforehand): median ratio to hand-written = {:.3}",
        preloaded_ratios[ROUNDS / 2]
    );
    println!(
        "suite overhead (50 files, {ROUNDS} interleaved rounds): generated {:.1} ms, hand-written {:.1} ms per suite; \
         median ratio generated/hand-written = {median:.3} ({:+.1} %; target <= +5 %)",
        total_generated.as_secs_f64() * 1000.0 / ROUNDS as f64,
        total_hand.as_secs_f64() * 1000.0 / ROUNDS as f64,
        (median - 1.0) * 100.0,
    );
}

/// What loading the files costs on its own: from the text (parsing and
/// checking the YAML), and from the tree `suite!` embedded.
fn report_parse_cost() {
    const N: u32 = 200;
    let started = Instant::now();
    for _ in 0..N {
        for file in overhead::FILES {
            let suite = mcptest::suite::Suite::parse(file.path, file.text).unwrap();
            assert_eq!(suite.tests().len(), 1);
        }
    }
    let per_file = started.elapsed() / (N * overhead::FILES.len() as u32);
    println!("loading one suite file from its text: {per_file:?}");
    let started = Instant::now();
    for _ in 0..N {
        for file in overhead::FILES {
            assert_eq!(file.load().unwrap().tests().len(), 1);
        }
    }
    let per_file = started.elapsed() / (N * overhead::FILES.len() as u32);
    println!(
        "loading one suite file from its embedded tree (what a generated test does): {per_file:?}"
    );
}

criterion_group!(benches, bench);

fn main() {
    benches();
    report_parse_cost();
    report_ratio();
    Criterion::default().configure_from_args().final_summary();
}
