//! The harness's own costs, each against a baseline measured in the same run:
//!
//! - `spawn-call-teardown`: spawn → initialize → one `tools/call` → teardown,
//!   through mcptest versus a minimal hand-written JSON-RPC exchange over the
//!   same pipes (target: at most 10 % slower);
//! - `in-process-throughput`: sequential `tools/call`s to an in-process
//!   server, mcptest versus rmcp's own client over the same kind of pipe
//!   (target: at least 20,000 calls/s);
//! - `stdio-round-trip`: one `tools/call` on a warm stdio connection, mcptest
//!   versus a hand-written exchange;
//! - the check of every message against the MCP schema (on by default)
//!   against the same harness with it off (`wire_schema(Off)`), in the
//!   spawn and in-process runs (target: at most 5 % slower);
//! - `in-process-throughput` against rmcp's own client (target: at most
//!   5 % slower);
//! - `spawn`: starting a child alone (three pipes, a process group of its
//!   own) and reaping it, std's `posix_spawn` path (no parent-death signal)
//!   versus std forking for a `pre_exec` hook that sets it versus mcptest's
//!   spawn, which sets it without a fork.
//!
//! Run: `cargo bench -p mcptest-benches --bench harness`. The ratios are
//! printed after criterion's own output, followed by the spawn-call-teardown,
//! in-process and spawn variants run interleaved (medians, so load drift
//! hits each alike). The default harness
//! fetches tool definitions lazily (only for answers with
//! `structuredContent`), so an `echo` call sends exactly the requests the
//! hand-written exchange sends.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
    time::{Duration, Instant},
};

use criterion::Criterion;
use mcptest::{McpClient, Server, WireSchema};
use mcptest_benches::{median, report_rate, report_ratio};
use mcptest_tests::everything::Everything;
use rmcp::{RoleClient, ServiceExt, model::CallToolRequestParams, service::RunningService};
use serde_json::{Value, json};

const SERVER: &str = env!("CARGO_BIN_EXE_bench-server");

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

/// The least a client can do: the same messages, written and read by hand.
struct HandWritten {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl HandWritten {
    fn start() -> Self {
        let mut child = Command::new(SERVER)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("bench-server starts");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut session = HandWritten {
            child,
            stdin,
            stdout,
            next_id: 0,
        };
        session.request(
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"}
            }),
        );
        session.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        session
    }

    fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().expect("open");
        writeln!(stdin, "{message}").expect("write");
        stdin.flush().expect("flush");
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut line = String::new();
        loop {
            line.clear();
            assert!(self.stdout.read_line(&mut line).expect("read") > 0, "EOF");
            let message: Value = serde_json::from_str(&line).expect("JSON");
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    fn close(mut self) {
        self.stdin.take();
        self.child.wait().expect("reaped");
    }
}

fn echo_args() -> Value {
    json!({"name": "echo", "arguments": {"message": "hi"}})
}

fn spawn_call_teardown(c: &mut Criterion) {
    let rt = runtime();
    let mut group = c.benchmark_group("spawn-call-teardown");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("hand-written", |b| b.iter(hand_written_once));
    group.bench_function("mcptest", |b| b.iter(|| rt.block_on(mcptest_once())));
    group.finish();
}

/// One spawn → initialize → `tools/call` → teardown, written by hand.
fn hand_written_once() {
    let mut session = HandWritten::start();
    let answer = session.request("tools/call", echo_args());
    assert_eq!(answer["result"]["content"][0]["text"], json!("hi"));
    session.close();
}

/// The same through mcptest, with its default options.
async fn mcptest_once() {
    mcptest_once_with(WireSchema::Fail).await;
}

/// The same, with the schema check as given.
async fn mcptest_once_with(schema: WireSchema) {
    let mcp = Server::program(SERVER)
        .wire_schema(schema)
        .connect()
        .await
        .expect("connects");
    let call = mcp.call_tool("echo", json!({"message": "hi"})).await;
    assert_eq!(call.text(), "hi");
    mcp.close().await;
}

/// Interleaved rounds for the spawn ratios.
const ROUNDS: usize = 60;

/// The spawn variants run in turn, round after round, so that drift in the
/// machine's load hits both alike; the ratios of their medians are
/// steadier than criterion's means taken minutes apart.
fn spawn_ratios_interleaved() {
    let rt = runtime();
    let mut samples: [Vec<Duration>; 3] = Default::default();
    for _ in 0..ROUNDS {
        let started = Instant::now();
        hand_written_once();
        samples[0].push(started.elapsed());
        let started = Instant::now();
        rt.block_on(mcptest_once());
        samples[1].push(started.elapsed());
        let started = Instant::now();
        rt.block_on(mcptest_once_with(WireSchema::Off));
        samples[2].push(started.elapsed());
    }
    let [hand, full, unchecked] = samples.map(median);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("spawn-call-teardown, median of {ROUNDS} interleaved rounds:");
    println!("  hand-written          {:>7.3} ms", ms(hand));
    println!(
        "  mcptest               {:>7.3} ms = {:.3}x (target <= 1.10x: {})",
        ms(full),
        ms(full) / ms(hand),
        if ms(full) / ms(hand) <= 1.10 {
            "met"
        } else {
            "MISSED"
        }
    );
    println!(
        "  schema check: {:.3} ms checked / {:.3} ms off = {:.3}x (target <= 1.05x: {})",
        ms(full),
        ms(unchecked),
        ms(full) / ms(unchecked),
        if ms(full) / ms(unchecked) <= 1.05 {
            "met"
        } else {
            "MISSED"
        }
    );
}

/// An in-process server behind mcptest, with the wire-schema check as given.
fn mcptest_in_process(rt: &tokio::runtime::Runtime, schema: WireSchema) -> McpClient {
    rt.block_on(async {
        Server::in_process(Everything::default())
            .wire_schema(schema)
            .connect()
            .await
            .expect("connects")
    })
}

/// The same server behind rmcp's own client, over the same kind of pipe.
fn rmcp_in_process(rt: &tokio::runtime::Runtime) -> RunningService<RoleClient, ()> {
    rt.block_on(async {
        let (client_io, server_io) = tokio::io::duplex(256 * 1024);
        tokio::spawn(async move {
            if let Ok(server) = Everything::default().serve(server_io).await {
                let _ = server.waiting().await;
            }
        });
        ().serve(client_io).await.expect("rmcp client connects")
    })
}

/// `calls` sequential `echo` calls through mcptest, timed.
async fn mcptest_calls(mcp: &McpClient, calls: u64) -> Duration {
    let start = Instant::now();
    for _ in 0..calls {
        let call = mcp.call_tool("echo", json!({"message": "hi"})).await;
        debug_assert!(call.is_success());
    }
    start.elapsed()
}

/// `calls` sequential `echo` calls through rmcp's client, timed.
async fn rmcp_calls(client: &RunningService<RoleClient, ()>, calls: u64) -> Duration {
    let start = Instant::now();
    for _ in 0..calls {
        let mut params = CallToolRequestParams::new("echo");
        params.arguments = json!({"message": "hi"}).as_object().cloned();
        let result = client.call_tool(params).await.expect("call");
        debug_assert!(result.is_error != Some(true));
    }
    start.elapsed()
}

fn in_process_throughput(c: &mut Criterion) {
    let rt = runtime();
    let mut group = c.benchmark_group("in-process-throughput");
    group.measurement_time(Duration::from_secs(5));
    let mcp = mcptest_in_process(&rt, WireSchema::Fail);
    group.bench_function("mcptest", |b| {
        b.iter_custom(|iters| rt.block_on(mcptest_calls(&mcp, iters)))
    });
    let unchecked = mcptest_in_process(&rt, WireSchema::Off);
    group.bench_function("mcptest-schema-off", |b| {
        b.iter_custom(|iters| rt.block_on(mcptest_calls(&unchecked, iters)))
    });
    let rmcp_client = rmcp_in_process(&rt);
    group.bench_function("rmcp-client", |b| {
        b.iter_custom(|iters| rt.block_on(rmcp_calls(&rmcp_client, iters)))
    });
    group.finish();
    rt.block_on(async {
        mcp.close().await;
        unchecked.close().await;
        let _ = rmcp_client.cancel().await;
    });
}

/// Rounds of the interleaved in-process comparison, and calls per round.
const IN_PROCESS_ROUNDS: usize = 240;
const IN_PROCESS_CALLS: u64 = 250;

/// The in-process throughput again, the three clients taking turns round
/// after round (each round a block of calls on each), and the median of
/// each one's time per call: a drift in the machine's load (the benchmark
/// is run on shared 2-core machines) hits the three alike, where criterion
/// measures one after the other.
fn in_process_interleaved() {
    let rt = runtime();
    let mcp = mcptest_in_process(&rt, WireSchema::Fail);
    let unchecked = mcptest_in_process(&rt, WireSchema::Off);
    let rmcp_client = rmcp_in_process(&rt);
    let mut samples: [Vec<Duration>; 3] = Default::default();
    for round in 0..IN_PROCESS_ROUNDS {
        // Each client goes first, second and third in turn: none always
        // follows the same one.
        for turn in 0..3 {
            let which = (round + turn) % 3;
            let time = rt.block_on(async {
                match which {
                    0 => rmcp_calls(&rmcp_client, IN_PROCESS_CALLS).await,
                    1 => mcptest_calls(&mcp, IN_PROCESS_CALLS).await,
                    _ => mcptest_calls(&unchecked, IN_PROCESS_CALLS).await,
                }
            });
            samples[which].push(time);
        }
    }
    rt.block_on(async {
        mcp.close().await;
        unchecked.close().await;
        let _ = rmcp_client.cancel().await;
    });
    let [rmcp, full, off] =
        samples.map(|times| median(times).as_secs_f64() * 1e6 / IN_PROCESS_CALLS as f64);
    let verdict = |ratio: f64| if ratio <= 1.05 { "met" } else { "MISSED" };
    println!(
        "in-process-throughput, median of {IN_PROCESS_ROUNDS} interleaved rounds of \
         {IN_PROCESS_CALLS} calls:"
    );
    println!("  rmcp's client         {rmcp:>7.2} µs per call");
    println!(
        "  mcptest               {full:>7.2} µs = {:.3}x (target <= 1.05x: {})",
        full / rmcp,
        verdict(full / rmcp)
    );
    println!(
        "  schema check: {full:.2} µs checked / {off:.2} µs off = {:.3}x (target <= 1.05x: {})",
        full / off,
        verdict(full / off)
    );
}

fn stdio_round_trip(c: &mut Criterion) {
    let rt = runtime();
    let mut group = c.benchmark_group("stdio-round-trip");
    group.measurement_time(Duration::from_secs(5));

    let mut session = HandWritten::start();
    group.bench_function("hand-written", |b| {
        b.iter(|| session.request("tools/call", echo_args()))
    });
    session.close();

    let mcp = rt.block_on(async { Server::program(SERVER).connect().await.expect("connects") });
    group.bench_function("mcptest", |b| {
        b.iter(|| rt.block_on(mcp.call_tool("echo", json!({"message": "hi"}))))
    });
    group.finish();
    rt.block_on(mcp.close());
}

fn main() {
    let mut criterion = Criterion::default()
        .output_directory(&mcptest_benches::criterion_dir())
        .configure_from_args();
    spawn_call_teardown(&mut criterion);
    in_process_throughput(&mut criterion);
    stdio_round_trip(&mut criterion);
    criterion.final_summary();

    println!("\nagainst the baselines measured in this run:");
    report_ratio("spawn-call-teardown", "mcptest", "hand-written", Some(1.10));
    report_ratio(
        "in-process-throughput",
        "mcptest",
        "rmcp-client",
        Some(1.05),
    );
    report_ratio(
        "in-process-throughput",
        "mcptest",
        "mcptest-schema-off",
        Some(1.05),
    );
    report_rate("in-process-throughput", "mcptest", Some(20_000.0));
    report_rate("in-process-throughput", "rmcp-client", None);
    report_ratio("stdio-round-trip", "mcptest", "hand-written", None);
    spawn_ratios_interleaved();
    in_process_interleaved();
    spawn_alone_interleaved();
    println!(
        "\nload average at the end: {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
}

/// Rounds of the spawn-alone comparison.
const SPAWN_ROUNDS: usize = 200;

/// Starting a child alone, three ways in turn, round after round: what the
/// parent-death signal costs through std's fork path, and what mcptest's
/// spawn costs instead. The child is `true`, so the spawn dominates.
fn spawn_alone_interleaved() {
    use std::os::unix::process::CommandExt;

    use mcptest_core::__support::process::{ChildProcess, Launch};

    let rt = runtime();
    let launch = Launch::command("true").expect("a command line");
    let std_command = || {
        let mut command = Command::new("true");
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        command
    };
    let mut samples: [Vec<Duration>; 3] = Default::default();
    for _ in 0..SPAWN_ROUNDS {
        let started = Instant::now();
        let mut child = std_command().spawn().expect("spawns");
        child.wait().expect("reaped");
        samples[0].push(started.elapsed());

        let started = Instant::now();
        let mut command = std_command();
        // SAFETY: one async-signal-safe system call in the forked child.
        unsafe {
            command.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        let mut child = command.spawn().expect("spawns");
        child.wait().expect("reaped");
        samples[1].push(started.elapsed());

        let started = Instant::now();
        rt.block_on(async {
            let spawned = ChildProcess::spawn(&launch).expect("spawns");
            let status = spawned.process.wait_for_exit(Duration::from_secs(10)).await;
            assert!(status.is_some_and(|s| s.success()));
        });
        samples[2].push(started.elapsed());
    }
    let [posix_spawn, fork, mcptest] = samples.map(median);
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "spawn alone (`true`, three pipes, own group, reaped), median of {SPAWN_ROUNDS} interleaved rounds:"
    );
    println!(
        "  std posix_spawn, no parent-death signal {:>8.1} µs",
        us(posix_spawn)
    );
    println!(
        "  std fork + pre_exec(PR_SET_PDEATHSIG)    {:>8.1} µs = {:.2}x",
        us(fork),
        us(fork) / us(posix_spawn)
    );
    println!(
        "  mcptest (clone, parent-death signal)     {:>8.1} µs = {:.2}x",
        us(mcptest),
        us(mcptest) / us(posix_spawn)
    );
}
