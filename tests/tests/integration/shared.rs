//! Shared servers (`Server::shared`): one process per configuration for the
//! test binary, a view per test, restart after a crash, nothing left behind
//! at exit. Each test names a configuration of its own (an environment
//! variable nobody reads), so what it asserts about its server's process is
//! about a server only it uses; the `parallel_*` tests share one on purpose.

use std::{process::Command, time::Duration};

use mcptest::prelude::*;
use mcptest_tests::{
    everything::{Everything, EverythingConfig},
    http::HttpFixture,
    procs,
};

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");
const CHAOS: &str = env!("CARGO_BIN_EXE_fixture-chaos");
const SHARED_EXIT: &str = env!("CARGO_BIN_EXE_shared-exit");

/// The fixture server, shared under a configuration named `case`.
fn everything(case: &str) -> Server {
    Server::program(EVERYTHING)
        .env("MCPTEST_SHARED_CASE", case)
        .shared()
}

#[tokio::test]
async fn tests_with_one_configuration_share_one_process() {
    let a = everything("one-process").connect().await.unwrap();
    let b = everything("one-process")
        .timeout(Duration::from_secs(5))
        .connect()
        .await
        .unwrap();
    let pid = a.pid().expect("a server process");
    assert_eq!(
        b.pid(),
        Some(pid),
        "a client-only option made a second server"
    );
    let other = everything("one-process-other").connect().await.unwrap();
    assert_ne!(other.pid(), Some(pid), "another configuration shares");
    assert_eq!(
        a.call_tool("echo", json!({"message": "a"})).await.text(),
        "a"
    );
    assert_eq!(
        b.call_tool("echo", json!({"message": "b"})).await.text(),
        "b"
    );
}

/// The connection outlives the runtime of the test that started it: each
/// `#[tokio::test]` drops its runtime when it ends.
#[test]
fn the_server_outlives_the_runtime_that_started_it() {
    let runtime = || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    };
    let first = runtime().block_on(async {
        let mcp = everything("outlives").connect().await.unwrap();
        mcp.ping().await.unwrap();
        mcp.pid().unwrap()
    });
    let second = runtime().block_on(async {
        let mcp = everything("outlives").connect().await.unwrap();
        let call = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
        assert_eq!(call.text(), "5", "{call:?}");
        mcp.pid().unwrap()
    });
    assert_eq!(first, second);
}

/// Two tests on one connection: each sees the answers and the progress of its
/// own requests; what the server sends on its own reaches both, marked shared.
#[tokio::test]
async fn views_isolate_answers_and_progress() {
    let a = everything("isolation").connect().await.unwrap();
    let b = everything("isolation").connect().await.unwrap();
    let (call_a, call_b) = tokio::join!(
        a.call_tool("progress", json!({"steps": 3, "delay_ms": 5})),
        b.call_tool("progress", json!({"steps": 5, "delay_ms": 3})),
    );
    assert_eq!(call_a.text(), "done after 3 steps");
    assert_eq!(call_b.text(), "done after 5 steps");
    assert_eq!(call_a.progress().len(), 3);
    assert_eq!(call_b.progress().len(), 5);
    let (log_a, log_b) = (a.server_messages(), b.server_messages());
    assert_eq!(log_a.progress().len(), 3, "{log_a:?}");
    assert_eq!(log_b.progress().len(), 5, "{log_b:?}");
    assert!(log_a.all().iter().all(|m| !m.shared), "{log_a:?}");

    let echoes = futures_join(&a, &b).await;
    assert_eq!(echoes, ("from a".to_owned(), "from b".to_owned()));

    assert_eq!(
        a.call_tool("log", json!({"level": "error", "message": "hello"}))
            .await
            .text(),
        "logged"
    );
    let seen = log_b
        .wait_for_method("notifications/message", Duration::from_secs(10))
        .await
        .unwrap();
    assert!(
        seen.shared,
        "a log message caused by another test: {seen:?}"
    );
    let own = log_a
        .wait_for_method("notifications/message", Duration::from_secs(10))
        .await
        .unwrap();
    assert!(
        own.shared,
        "log messages are not tied to a request: {own:?}"
    );

    // Clearing one view leaves the other's messages alone.
    log_a.clear();
    assert!(log_a.is_empty());
    assert_eq!(log_b.progress().len(), 5);

    // A test that connects later sees nothing from before it connected.
    let c = everything("isolation").connect().await.unwrap();
    assert!(c.server_messages().is_empty(), "{:?}", c.server_messages());
}

async fn futures_join(a: &McpClient, b: &McpClient) -> (String, String) {
    let (x, y) = tokio::join!(
        a.call_tool("echo", json!({"message": "from a"})),
        b.call_tool("echo", json!({"message": "from b"})),
    );
    (x.text(), y.text())
}

#[tokio::test]
async fn closing_a_view_leaves_the_server_running() {
    let a = everything("close-view").connect().await.unwrap();
    let b = everything("close-view").connect().await.unwrap();
    let pid = a.pid().unwrap();
    assert_eq!(a.close().await, None);
    b.ping().await.unwrap();
    assert!(procs::process(pid).is_some_and(|row| row.state != 'Z'));
    drop(b);
    let c = everything("close-view").connect().await.unwrap();
    assert_eq!(c.pid(), Some(pid), "dropping every view stopped the server");
}

/// The test that sees the server die fails with its exit status and stderr;
/// the next one gets a fresh server, and the dead one is reaped.
#[tokio::test]
async fn a_server_that_died_is_restarted_for_the_next_test() {
    let server = || {
        Server::program(CHAOS)
            .arg("--defects")
            .env("MCPTEST_SHARED_CASE", "restart")
            .shared()
    };
    let first = server().connect().await.unwrap();
    let dead = first.pid().unwrap();
    let call = first.call_tool("parse", json!({"text": ""})).await;
    let failure = call
        .failure()
        .expect("the server died mid-call")
        .to_string();
    assert!(
        matches!(call.failure(), Some(mcptest::Error::ServerExited { .. })),
        "{failure}"
    );
    assert!(failure.contains("exit"), "{failure}");

    let second = server().connect().await.unwrap();
    let fresh = second.pid().unwrap();
    assert_ne!(fresh, dead);
    let call = second.call_tool("parse", json!({"text": "x"})).await;
    assert!(call.is_success(), "{call:?}");
    procs::assert_gone(dead, Duration::from_secs(10));
}

#[tokio::test]
async fn a_fixture_or_a_cassette_cannot_be_shared() {
    let dir = tempfile::tempdir().unwrap();
    let error = everything("fixture")
        .fixture_dir(dir.path())
        .connect()
        .await
        .unwrap_err();
    assert!(
        matches!(&error, mcptest::Error::InvalidConfig { message } if message.contains("fixture copy")),
        "{error}"
    );
    let error = everything("cassette")
        .cassette(dir.path().join("tape.json"), mcptest::CassetteMode::Record)
        .connect()
        .await
        .unwrap_err();
    assert!(
        matches!(&error, mcptest::Error::InvalidConfig { message } if message.contains("cassette")),
        "{error}"
    );
}

/// In process, the handler's type is the configuration: state one test
/// leaves behind is what the next one finds.
#[tokio::test]
async fn an_in_process_server_is_shared_by_handler_type() {
    let server = || Server::in_process(Everything::new(EverythingConfig::default())).shared();
    let a = server().connect().await.unwrap();
    let b = server().connect().await.unwrap();
    a.call_tool("toggle_tool", json!({})).await.assert_success();
    let names: Vec<String> = b
        .list_tools()
        .await
        .unwrap()
        .value()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(names.contains(&"bonus".to_owned()), "{names:?}");
    a.call_tool("toggle_tool", json!({})).await.assert_success();
    let seen = b
        .server_messages()
        .wait_for_list_changed(ListKind::Tools, Duration::from_secs(10))
        .await
        .unwrap();
    assert!(seen.shared);
}

/// Over Streamable HTTP each test opens a session of its own.
#[tokio::test]
async fn over_http_each_test_has_its_own_session() {
    let fixture = HttpFixture::start(EVERYTHING, &["--http"]);
    let server = || Server::url(&fixture.url).shared();
    let a = server().connect().await.unwrap();
    let b = server().connect().await.unwrap();
    a.call_tool("toggle_tool", json!({})).await.assert_success();
    let names: Vec<String> = b
        .list_tools()
        .await
        .unwrap()
        .value()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(!names.contains(&"bonus".to_owned()), "{names:?}");
    let progress = a
        .call_tool("progress", json!({"steps": 2, "delay_ms": 1}))
        .await;
    assert_eq!(progress.progress().len(), 2);
    assert!(b.server_messages().progress().is_empty());
}

/// The shared server of a program is gone once the program ends: when main
/// returns, panics or calls `exit` (the exit hook kills its process group,
/// grandchild included), and on Linux also when it aborts without running any
/// exit hook (the parent-death signal reaches the server itself). The server
/// ignores EOF on stdin, so closed pipes alone would not stop it.
#[test]
fn no_server_outlives_the_binary_that_shared_it() {
    for (mode, args) in [
        ("return", &["--ignore-eof", "--spawn-grandchild"][..]),
        ("panic", &["--ignore-eof", "--spawn-grandchild"][..]),
        ("exit", &["--ignore-eof", "--spawn-grandchild"][..]),
        ("abort", &["--ignore-eof"][..]),
    ] {
        let output = Command::new(SHARED_EXIT)
            .arg(mode)
            .arg(CHAOS)
            .args(args)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let pid: u32 = stdout.trim().parse().unwrap_or_else(|_| {
            panic!(
                "{mode}: no pid on stdout ({:?}); stderr:\n{}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )
        });
        procs::assert_gone(pid, Duration::from_secs(10));
    }
}

/// The server process the first `#[mcp_test(shared)]` test below saw.
static ATTRIBUTE_PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();

#[mcp_test(
    bin = "fixture-everything",
    env(MCPTEST_SHARED_CASE = "attribute"),
    shared
)]
async fn the_attribute_shares_one_server(mcp: McpClient) {
    let pid = mcp.pid().unwrap();
    assert_eq!(*ATTRIBUTE_PID.get_or_init(|| pid), pid);
    assert_eq!(
        mcp.call_tool("echo", json!({"message": "a"})).await.text(),
        "a"
    );
}

#[mcp_test(
    bin = "fixture-everything",
    env(MCPTEST_SHARED_CASE = "attribute"),
    shared,
    timeout = "20s"
)]
async fn the_attribute_shares_one_server_with_its_own_timeout(mcp: McpClient) {
    let pid = mcp.pid().unwrap();
    assert_eq!(*ATTRIBUTE_PID.get_or_init(|| pid), pid);
    mcp.ping().await.unwrap();
}

// The same files as generated tests, run in parallel on one shared server:
// each file's progress count sees only its own call's progress.
mcptest::suite!(
    "suites/shared",
    server = Server::program(EVERYTHING).env("MCPTEST_SHARED_CASE", "suite-macro"),
    shared,
);

/// The `Suite` runner with `shared`: the files run on one server, which is
/// still the same process after the run.
#[tokio::test]
async fn a_suite_run_shares_one_server() {
    let server = || Server::program(EVERYTHING).env("MCPTEST_SHARED_CASE", "suite-runner");
    let before = server().shared().connect().await.unwrap();
    let suite =
        mcptest::suite::Suite::load(concat!(env!("CARGO_MANIFEST_DIR"), "/suites/shared")).unwrap();
    let options = mcptest::suite::RunOptions::new()
        .server(server())
        .shared(true);
    let report = suite.run_report("suites/shared", &options).await;
    report.assert_passed();
    let after = server().shared().connect().await.unwrap();
    assert_eq!(before.pid(), after.pid());

    // A fixture cannot be shared: the file fails and says why.
    let dir = tempfile::tempdir().unwrap();
    let options = options.fixture(dir.path());
    let results = suite.run(&options).await;
    assert!(!results.is_empty());
    for result in &results {
        let message = mcptest::suite::failure_message(result, false).unwrap_or_default();
        assert!(message.contains("fixture copy"), "{message}");
    }
}

/// Many tests on one shared server at once, each checking that it got its own
/// answers and progress (run with `--test-threads 16`).
macro_rules! parallel {
    ($($name:ident),*) => {$(
        #[tokio::test]
        async fn $name() {
            let mcp = everything("parallel").connect().await.unwrap();
            let me = stringify!($name);
            for round in 0..5 {
                let message = format!("{me} {round}");
                let echo = mcp.call_tool("echo", json!({"message": message})).await;
                assert_eq!(echo.text(), message);
                let call = mcp.call_tool("progress", json!({"steps": 2, "delay_ms": 1})).await;
                assert_eq!(call.progress().len(), 2, "{call:?}");
            }
            assert_eq!(mcp.server_messages().progress().len(), 10, "{:?}", mcp.server_messages());
        }
    )*};
}

parallel!(
    parallel_01,
    parallel_02,
    parallel_03,
    parallel_04,
    parallel_05,
    parallel_06,
    parallel_07,
    parallel_08,
    parallel_09,
    parallel_10,
    parallel_11,
    parallel_12,
    parallel_13,
    parallel_14,
    parallel_15,
    parallel_16
);
