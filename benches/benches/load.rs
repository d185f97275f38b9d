//! Load: fresh-server sessions (spawn → initialize → one `tools/call` →
//! teardown) against the `fixture-everything` handler (`bench-server`) at
//! concurrency 1, 2, 4, ... 64, and 1,000 sessions in a row in one process.
//!
//! For each concurrency level it prints sessions per second, p50 and p99 of
//! spawn-to-ready (the time `connect()` takes: spawn plus handshake), the
//! failures (must be 0), the server processes left behind (must be 0), and
//! the ratio of the measured rate to the CPU-bound limit, `cores / CPU per
//! session`, where CPU per session (this process plus its reaped children)
//! is measured at concurrency 1 in the same run. A ratio near 1.0 means the
//! harness adds no waiting of its own: the machine's cores are the limit.
//!
//! The soak run then opens and closes 1,000 sessions one after another and
//! prints open file descriptors and resident memory at the start, after the
//! first tenth (the runtime's lazily made resources exist by then) and at the
//! end: growth after the first tenth is a leak (descriptors fail the run).
//!
//! Every level is bounded in count and in time: at most `SESSIONS_PER_LEVEL`
//! sessions and no new session after `LEVEL_BUDGET`; each connect and call
//! has its own timeout.
//!
//! Run: `cargo bench -p mcptest-benches --bench load`
//! (`-- --quick` for fewer sessions per level and a 100-session soak).

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use mcptest::Server;
use mcptest_tests::procs;
use serde_json::json;

const SERVER: &str = env!("CARGO_BIN_EXE_bench-server");
const LEVELS: [usize; 7] = [1, 2, 4, 8, 16, 32, 64];
const LEVEL_BUDGET: Duration = Duration::from_secs(30);
const STEP_TIMEOUT: Duration = Duration::from_secs(20);

/// What one session saw.
struct Session {
    ready: Duration,
    pid: Option<u32>,
    failure: Option<String>,
}

async fn one_session() -> Session {
    let started = Instant::now();
    let connected = Server::command(SERVER)
        .connect_timeout(STEP_TIMEOUT)
        .connect()
        .await;
    let ready = started.elapsed();
    let mcp = match connected {
        Ok(mcp) => mcp,
        Err(error) => {
            return Session {
                ready,
                pid: None,
                failure: Some(format!("connect: {error}")),
            };
        }
    };
    let pid = mcp.pid();
    let call = tokio::time::timeout(
        STEP_TIMEOUT,
        mcp.call_tool("echo", json!({"message": "load"})),
    )
    .await;
    let failure = match call {
        Err(_) => Some(format!(
            "tools/call echo: no answer within {STEP_TIMEOUT:?}"
        )),
        Ok(result) if result.text() != "load" => {
            Some(format!("tools/call echo answered {:?}", result.text()))
        }
        Ok(_) => None,
    };
    mcp.close().await;
    Session {
        ready,
        pid,
        failure,
    }
}

/// CPU time (user + system) of this process and of its reaped children.
fn cpu_time() -> Duration {
    fn of(who: libc::c_int) -> Duration {
        // SAFETY: getrusage only writes the struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(who, &mut usage) } != 0 {
            return Duration::ZERO;
        }
        let tv = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
        };
        tv(usage.ru_utime) + tv(usage.ru_stime)
    }
    of(libc::RUSAGE_SELF) + of(libc::RUSAGE_CHILDREN)
}

struct Level {
    concurrency: usize,
    sessions: usize,
    elapsed: Duration,
    cpu: Duration,
    ready: Vec<Duration>,
    failures: Vec<String>,
    left: usize,
}

fn run_level(runtime: &tokio::runtime::Runtime, concurrency: usize, total: usize) -> Level {
    let cpu_before = cpu_time();
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let sessions: Vec<Session> = runtime.block_on(async {
        let workers: Vec<_> = (0..concurrency)
            .map(|_| {
                let next = next.clone();
                tokio::spawn(async move {
                    let mut mine = Vec::new();
                    while next.fetch_add(1, Ordering::Relaxed) < total
                        && started.elapsed() < LEVEL_BUDGET
                    {
                        mine.push(one_session().await);
                    }
                    mine
                })
            })
            .collect();
        let mut all = Vec::new();
        for worker in workers {
            match worker.await {
                Ok(mine) => all.extend(mine),
                Err(error) => all.push(Session {
                    ready: Duration::ZERO,
                    pid: None,
                    failure: Some(format!("worker panicked: {error}")),
                }),
            }
        }
        all
    });
    let elapsed = started.elapsed();
    let cpu = cpu_time().saturating_sub(cpu_before);
    let left = sessions
        .iter()
        .filter_map(|s| s.pid)
        .filter(|&pid| procs::process(pid).is_some() || !procs::group(pid).is_empty())
        .count();
    let mut ready: Vec<Duration> = sessions.iter().map(|s| s.ready).collect();
    ready.sort();
    Level {
        concurrency,
        sessions: sessions.len(),
        elapsed,
        cpu,
        ready,
        failures: sessions.into_iter().filter_map(|s| s.failure).collect(),
        left,
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Open file descriptors and resident set size (KiB) of this process.
fn fds_and_rss() -> (usize, u64) {
    let fds = std::fs::read_dir("/proc/self/fd")
        .map(|dir| dir.count())
        .unwrap_or(0);
    let rss = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0);
    (fds, rss)
}

fn main() {
    // `cargo bench` passes `--bench`; only `--quick` is ours.
    let quick = std::env::args().any(|a| a == "--quick");
    let per_level = if quick { 32 } else { 128 };
    let soak = if quick { 100 } else { 1_000 };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores)
        .enable_all()
        .build()
        .expect("a runtime");

    println!("load: fresh-server sessions against bench-server, {cores} cores");
    // Warm the page cache and the allocator before measuring.
    let _ = run_level(&runtime, 1, 4);

    let mut cpu_per_session = None;
    let mut failed = false;
    println!(
        "{:>11} {:>8} {:>10} {:>9} {:>9} {:>8} {:>6} {:>14}",
        "concurrency",
        "sessions",
        "sessions/s",
        "p50 ms",
        "p99 ms",
        "failures",
        "left",
        "of CPU limit"
    );
    for concurrency in LEVELS {
        let level = run_level(&runtime, concurrency, per_level.max(concurrency * 2));
        let rate = level.sessions as f64 / level.elapsed.as_secs_f64();
        let per =
            *cpu_per_session.get_or_insert(level.cpu.as_secs_f64() / level.sessions.max(1) as f64);
        let limit = cores as f64 / per;
        println!(
            "{:>11} {:>8} {:>10.1} {:>9.1} {:>9.1} {:>8} {:>6} {:>13.2}x",
            level.concurrency,
            level.sessions,
            rate,
            ms(percentile(&level.ready, 0.50)),
            ms(percentile(&level.ready, 0.99)),
            level.failures.len(),
            level.left,
            rate / limit,
        );
        for failure in level.failures.iter().take(3) {
            println!("    failure: {failure}");
        }
        failed |= !level.failures.is_empty() || level.left != 0;
    }
    if let Some(per) = cpu_per_session {
        println!(
            "CPU per session (measured at concurrency 1): {:.1} ms; CPU-bound limit {:.1} sessions/s",
            per * 1e3,
            cores as f64 / per
        );
    }
    println!("shared servers: not measured (no shared-server mode in this build)");

    // The soak: descriptors and memory at the start, after a tenth of the
    // sessions (lazily created runtime resources exist by then), and at the
    // end. A leak grows between the second and the third reading.
    let (fds_start, rss_start) = fds_and_rss();
    let warm_at = soak / 10;
    let (done, failures, elapsed, (fds_warm, rss_warm)) = runtime.block_on(async {
        let mut failures = 0usize;
        let started = Instant::now();
        let mut done = 0usize;
        let mut warm = (fds_start, rss_start);
        while done < soak && started.elapsed() < Duration::from_secs(300) {
            if one_session().await.failure.is_some() {
                failures += 1;
            }
            done += 1;
            if done == warm_at {
                warm = fds_and_rss();
            }
        }
        (done, failures, started.elapsed(), warm)
    });
    let (fds_end, rss_end) = fds_and_rss();
    println!(
        "soak: {done} sessions in a row in {:.1} s, {failures} failures; \
         open fds {fds_start} (start) -> {fds_warm} (after {warm_at}) -> {fds_end} (end); \
         RSS {rss_start} -> {rss_warm} -> {rss_end} KiB ({:+.1} % after warm-up)",
        elapsed.as_secs_f64(),
        (rss_end as f64 - rss_warm as f64) * 100.0 / rss_warm.max(1) as f64
    );
    failed |= failures != 0 || fds_end > fds_warm;
    if failed {
        eprintln!("load: FAILED (failures, processes left or descriptors leaked; see above)");
        std::process::exit(1);
    }
}
