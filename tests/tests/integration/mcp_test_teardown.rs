//! The server of an `#[mcp_test]` is shut down and reaped when the test ends:
//! when it passes, when it returns `Err`, and when it panics. Checked on the
//! process table right after the generated test function returns.

use std::{cell::Cell, panic::catch_unwind, process::Command, time::Duration};

use mcptest::prelude::*;
use mcptest_tests::procs;

thread_local! {
    /// The server process of the last test run on this thread.
    static PID: Cell<Option<u32>> = const { Cell::new(None) };
}

fn remember(mcp: &McpClient) {
    PID.with(|pid| pid.set(mcp.pid()));
}

/// The last test's server is gone now: not running, not a zombie of ours,
/// and nothing left in its process group.
fn assert_reaped() {
    let pid = PID.with(Cell::take).expect("the test recorded its server");
    procs::assert_gone(pid, Duration::ZERO);
    assert!(
        procs::zombie_children().iter().all(|row| row.pid != pid),
        "the server is an unreaped zombie"
    );
}

#[mcp_test(bin = "fixture-everything")]
async fn passes(mcp: McpClient) {
    remember(&mcp);
    mcp.ping().await.unwrap();
}

#[mcp_test(bin = "fixture-everything")]
#[should_panic(expected = "the body panics")]
async fn panics(mcp: McpClient) {
    remember(&mcp);
    mcp.ping().await.unwrap();
    panic!("the body panics");
}

#[mcp_test(bin = "fixture-everything", flavor = "multi_thread")]
#[should_panic(expected = "the body panics on a worker pool")]
async fn panics_on_a_worker_pool(mcp: McpClient) {
    remember(&mcp);
    // A clone held by a task that is still running when the test fails.
    let clone = mcp.clone();
    tokio::spawn(async move {
        let _held = clone;
        std::future::pending::<()>().await;
    });
    panic!("the body panics on a worker pool");
}

#[mcp_test(bin = "fixture-everything")]
#[should_panic(expected = "the test returned an error: gave up")]
async fn returns_err(mcp: McpClient) -> Result<(), String> {
    remember(&mcp);
    Err("gave up".into())
}

#[mcp_test(bin = "fixture-everything", args = ["--root", "{{fixture}}"], fixture = "tests/fixtures/workspace")]
#[should_panic(expected = "panics mid-call")]
async fn panics_while_a_call_is_in_flight(mcp: McpClient) {
    remember(&mcp);
    let _pending = mcp
        .start_tool_call("slow", json!({"ms": 60_000}))
        .await
        .unwrap();
    panic!("panics mid-call");
}

#[test]
fn a_passing_test_reaps_its_server() {
    passes();
    assert_reaped();
}

#[test]
fn a_panicking_test_reaps_its_server() {
    assert!(catch_unwind(panics).is_err());
    assert_reaped();
}

#[test]
fn a_panicking_multi_thread_test_reaps_its_server() {
    assert!(catch_unwind(panics_on_a_worker_pool).is_err());
    assert_reaped();
}

#[test]
fn a_test_returning_err_reaps_its_server() {
    assert!(catch_unwind(returns_err).is_err());
    assert_reaped();
}

#[test]
fn a_test_panicking_mid_call_reaps_its_server() {
    assert!(catch_unwind(panics_while_a_call_is_in_flight).is_err());
    assert_reaped();
}

/// The name the test harness knows this module's test `name` by: its path
/// below the crate root.
fn test_name(name: &str) -> String {
    match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::{name}"),
        None => name.to_owned(),
    }
}

/// The generated tests are ordinary `#[test]`s: listed under their own
/// names, filtered by name, `#[ignore]` kept.
#[test]
fn generated_tests_are_plain_tests() {
    let me = std::env::current_exe().unwrap();
    let list = Command::new(&me).args(["--list"]).output().unwrap();
    let list = String::from_utf8(list.stdout).unwrap();
    for name in ["passes", "panics", "panics_on_a_worker_pool", "returns_err"] {
        assert!(
            list.lines()
                .any(|line| line == format!("{}: test", test_name(name))),
            "{name} missing in:\n{list}"
        );
    }
    let ignored = Command::new(&me)
        .args(["--list", "--ignored"])
        .output()
        .unwrap();
    let ignored = String::from_utf8(ignored.stdout).unwrap();
    assert!(
        ignored
            .lines()
            .any(|line| line == format!("{}: test", test_name("ignored_but_listed"))),
        "{ignored}"
    );
    assert!(
        !ignored
            .lines()
            .any(|line| line == format!("{}: test", test_name("passes"))),
        "{ignored}"
    );

    // Filtering by name runs exactly that test.
    let run = Command::new(&me)
        .args(["--exact", &test_name("passes")])
        .output()
        .unwrap();
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert!(run.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("test {} ... ok", test_name("passes"))),
        "{stdout}"
    );
    assert!(stdout.contains("1 passed"), "{stdout}");
}

/// Doc comments and `#[ignore]` stay on the generated test.
#[mcp_test(bin = "fixture-everything")]
#[ignore = "shows that #[ignore] is kept; it passes when run with --ignored"]
async fn ignored_but_listed(mcp: McpClient) {
    mcp.ping().await.unwrap();
}
