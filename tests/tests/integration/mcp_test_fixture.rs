//! `#[mcp_test(fixture = "...")]`: each test gets its own copy of the fixture
//! directory, `{{fixture}}` points the server at it, and the copy is removed
//! after a passing test and kept (its path printed) after a failing one.

use std::{
    cell::{Cell, RefCell},
    path::{Path, PathBuf},
    process::Command,
    sync::{Arc, Condvar, Mutex},
    time::Duration,
};

use mcptest::prelude::*;
use mcptest_tests::everything::{Everything, EverythingConfig};

const ORIGINAL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/workspace");

thread_local! {
    /// The fixture copy the last test on this thread used.
    static LAST_FIXTURE: RefCell<Option<PathBuf>> = const { RefCell::new(None) };
    /// Set by `concurrent_tests_cannot_see_each_others_fixture` to hold both
    /// tests at the same point; unset when the harness runs them on their own.
    static RENDEZVOUS: RefCell<Option<Arc<Rendezvous>>> = const { RefCell::new(None) };
    static ENTERED_BODY: Cell<bool> = const { Cell::new(false) };
}

fn remember(fixture: &Fixture) {
    LAST_FIXTURE.with(|last| *last.borrow_mut() = Some(fixture.path().to_path_buf()));
}

fn last_fixture() -> PathBuf {
    LAST_FIXTURE
        .with(|last| last.borrow_mut().take())
        .expect("the test recorded its fixture")
}

async fn read_via_server(mcp: &McpClient, path: &str) -> String {
    let call = mcp.call_tool("read_file", json!({"path": path})).await;
    assert!(call.is_success(), "{call:?}");
    call.text()
}

async fn write_via_server(mcp: &McpClient, path: &str, content: &str) {
    let call = mcp
        .call_tool("write_file", json!({"path": path, "content": content}))
        .await;
    assert!(call.is_success(), "{call:?}");
}

fn original_is_untouched() {
    let notes = std::fs::read_to_string(Path::new(ORIGINAL).join("notes.txt")).unwrap();
    assert_eq!(notes, "original\n");
    let copy = Fixture::copy_from(ORIGINAL).unwrap();
    assert_eq!(
        copy.files().unwrap(),
        [PathBuf::from("docs/readme.md"), PathBuf::from("notes.txt")],
        "no file was added to the original"
    );
}

#[mcp_test(
    bin = "fixture-everything",
    args = ["--root", "{{fixture}}"],
    fixture = "tests/fixtures/workspace"
)]
async fn the_server_works_in_a_copy_of_the_fixture(mcp: McpClient, fixture: Fixture) {
    assert_ne!(fixture.path(), Path::new(ORIGINAL));
    assert_eq!(
        fixture.source(),
        Some(Path::new(ORIGINAL).canonicalize().unwrap().as_path())
    );
    assert_eq!(mcp.fixture_dir(), Some(fixture.path()));

    assert_eq!(read_via_server(&mcp, "notes.txt").await, "original\n");
    assert!(
        read_via_server(&mcp, "docs/readme.md")
            .await
            .contains("nested file")
    );

    write_via_server(&mcp, "notes.txt", "changed").await;
    write_via_server(&mcp, "new/file.txt", "new").await;
    assert_eq!(fixture.read_to_string("notes.txt").unwrap(), "changed");
    assert!(fixture.exists("new/file.txt"));
    // Results know the directory too.
    let call = mcp.call_tool("echo", json!({"message": "x"})).await;
    assert_eq!(call.fixture_dir(), Some(fixture.path()));
    original_is_untouched();
}

#[mcp_test(
    bin = "fixture-everything",
    cwd = "{{fixture}}",
    env(MCPTEST_ROOT = "{{fixture}}/docs"),
    fixture = "tests/fixtures/workspace"
)]
async fn the_placeholder_works_in_cwd_and_env(mcp: McpClient, fixture: Fixture) {
    let cwd = mcp.call_tool("cwd", json!({})).await.text();
    assert_eq!(
        Path::new(&cwd),
        fixture.path().canonicalize().unwrap(),
        "the server runs in the copy"
    );
    // Relative paths now resolve in the copy, without --root.
    assert_eq!(read_via_server(&mcp, "notes.txt").await, "original\n");
    let env = mcp
        .call_tool("env", json!({"name": "MCPTEST_ROOT"}))
        .await
        .text();
    assert_eq!(env, fixture.join("docs").display().to_string());
}

// A test without a `fixture` parameter still gets the copy for its server.
#[mcp_test(
    bin = "fixture-everything",
    args = ["--root", "{{fixture}}"],
    fixture = "tests/fixtures/workspace"
)]
async fn the_fixture_parameter_is_optional(mcp: McpClient) {
    let dir = mcp.fixture_dir().expect("the copy is known").to_path_buf();
    assert_ne!(dir, Path::new(ORIGINAL));
    assert_eq!(read_via_server(&mcp, "notes.txt").await, "original\n");
    assert!(dir.join("notes.txt").is_file());
}

// Asking for a `Fixture` without naming one gives an empty scratch directory.
#[mcp_test(handler = Everything::new(EverythingConfig::default()))]
async fn a_fixture_without_a_source_is_an_empty_directory(mcp: McpClient, fixture: Fixture) {
    assert_eq!(fixture.source(), None);
    assert!(fixture.files().unwrap().is_empty());
    assert_eq!(mcp.fixture_dir(), Some(fixture.path()));
    remember(&fixture);
}

#[test]
fn the_empty_directory_is_removed_too() {
    a_fixture_without_a_source_is_an_empty_directory();
    let path = last_fixture();
    assert!(!path.exists(), "{} was left behind", path.display());
}

// ---- isolation -------------------------------------------------------------

/// Holds `parties` threads until all have arrived; panics after 30 s.
struct Rendezvous {
    arrived: Mutex<usize>,
    all_here: Condvar,
    parties: usize,
}

fn meet_the_other_test() {
    let Some(rendezvous) = RENDEZVOUS.with(|r| r.borrow().clone()) else {
        return;
    };
    let mut arrived = rendezvous.arrived.lock().unwrap();
    *arrived += 1;
    rendezvous.all_here.notify_all();
    let (arrived, timeout) = rendezvous
        .all_here
        .wait_timeout_while(arrived, Duration::from_secs(30), |n| {
            *n < rendezvous.parties
        })
        .unwrap();
    assert!(
        !timeout.timed_out(),
        "only {} of {} tests arrived",
        *arrived,
        rendezvous.parties
    );
}

async fn write_mine_and_read_it_back(mcp: &McpClient, fixture: &Fixture, me: &str) {
    remember(fixture);
    assert_eq!(read_via_server(mcp, "notes.txt").await, "original\n");
    let mine = format!("written by {me}");
    write_via_server(mcp, "notes.txt", &mine).await;
    // Both tests have now written the same relative file.
    meet_the_other_test();
    assert_eq!(read_via_server(mcp, "notes.txt").await, mine);
    assert_eq!(fixture.read_to_string("notes.txt").unwrap(), mine);
}

#[mcp_test(
    bin = "fixture-everything",
    args = ["--root", "{{fixture}}"],
    fixture = "tests/fixtures/workspace"
)]
async fn isolated_writer_a(mcp: McpClient, fixture: Fixture) {
    write_mine_and_read_it_back(&mcp, &fixture, "a").await;
}

#[mcp_test(
    bin = "fixture-everything",
    args = ["--root", "{{fixture}}"],
    fixture = "tests/fixtures/workspace"
)]
async fn isolated_writer_b(mcp: McpClient, fixture: Fixture) {
    write_mine_and_read_it_back(&mcp, &fixture, "b").await;
}

#[test]
fn concurrent_tests_cannot_see_each_others_fixture() {
    let rendezvous = Arc::new(Rendezvous {
        arrived: Mutex::new(0),
        all_here: Condvar::new(),
        parties: 2,
    });
    let tests: [fn(); 2] = [isolated_writer_a, isolated_writer_b];
    let threads = tests.map(|test| {
        let rendezvous = rendezvous.clone();
        std::thread::spawn(move || {
            RENDEZVOUS.with(|r| *r.borrow_mut() = Some(rendezvous));
            test();
            last_fixture()
        })
    });
    let paths = threads.map(|thread| thread.join().expect("the test passed"));
    assert_eq!(*rendezvous.arrived.lock().unwrap(), 2, "both ran at once");
    assert_ne!(paths[0], paths[1], "each test had its own copy");
    for path in &paths {
        assert!(!path.exists(), "{} was not removed", path.display());
    }
    original_is_untouched();
}

// ---- failing tests keep their copy ----------------------------------------

/// Set in a child run of this test binary to make the next two tests fail.
const FAIL_ON_PURPOSE: &str = "MCPTEST_FAIL_ON_PURPOSE";

#[mcp_test(
    bin = "fixture-everything",
    args = ["--root", "{{fixture}}"],
    fixture = "tests/fixtures/workspace"
)]
async fn panics_after_writing_when_asked(mcp: McpClient, fixture: Fixture) {
    remember(&fixture);
    write_via_server(&mcp, "evidence.txt", "what the server wrote").await;
    if std::env::var_os(FAIL_ON_PURPOSE).is_some() {
        panic!("failing on purpose");
    }
}

#[mcp_test(
    bin = "fixture-everything",
    args = ["--root", "{{fixture}}"],
    fixture = "tests/fixtures/workspace"
)]
async fn returns_err_after_writing_when_asked(mcp: McpClient) -> Result<(), String> {
    write_via_server(&mcp, "evidence.txt", "what the server wrote").await;
    match std::env::var_os(FAIL_ON_PURPOSE) {
        Some(_) => Err("failing on purpose".to_owned()),
        None => Ok(()),
    }
}

#[test]
fn a_passing_test_removes_its_copy() {
    panics_after_writing_when_asked();
    let path = last_fixture();
    assert!(!path.exists(), "{} was not removed", path.display());
}

/// The name the test harness knows this module's test `name` by: its path
/// below the crate root.
fn test_name(name: &str) -> String {
    match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::{name}"),
        None => name.to_owned(),
    }
}

/// Runs one test of this binary in a child process, where it fails.
fn run_failing(test: &str) -> (String, String) {
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &test_name(test),
            "--nocapture",
            "--test-threads=1",
        ])
        .env(FAIL_ON_PURPOSE, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        !output.status.success(),
        "{test} should fail\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("1 failed"), "{stdout}");
    (stdout, stderr)
}

/// The kept directory named in `mcptest: the test `name` failed; its fixture
/// directory is kept at <path> (a copy of <original>)`.
fn kept_path(stderr: &str, test: &str) -> PathBuf {
    let prefix = format!(
        "mcptest: the test `{}::{test}` failed; its fixture directory is kept at ",
        module_path!()
    );
    let line = stderr
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no `kept at` line in:\n{stderr}"));
    let suffix = format!(
        " (a copy of {})",
        Path::new(ORIGINAL).canonicalize().unwrap().display()
    );
    PathBuf::from(
        line.strip_suffix(&suffix)
            .unwrap_or_else(|| panic!("{line}")),
    )
}

#[test]
fn a_panicking_test_keeps_its_copy_and_prints_where() {
    let test = "panics_after_writing_when_asked";
    let (_, stderr) = run_failing(test);
    assert!(stderr.contains("failing on purpose"), "{stderr}");
    let kept = kept_path(&stderr, test);
    // Kept under the target dir, one per test, never in the temp dir.
    assert!(
        kept.starts_with(Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcptest-kept")),
        "{}",
        kept.display()
    );
    assert_eq!(
        std::fs::read_to_string(kept.join("evidence.txt")).unwrap(),
        "what the server wrote"
    );
    assert_eq!(
        std::fs::read_to_string(kept.join("notes.txt")).unwrap(),
        "original\n"
    );
    std::fs::remove_dir_all(&kept).unwrap();
}

#[test]
fn a_test_returning_err_keeps_its_copy_and_prints_where() {
    let test = "returns_err_after_writing_when_asked";
    let (_, stderr) = run_failing(test);
    assert!(
        stderr.contains("the test returned an error: failing on purpose"),
        "{stderr}"
    );
    let kept = kept_path(&stderr, test);
    assert!(kept.join("evidence.txt").is_file());
    std::fs::remove_dir_all(&kept).unwrap();
}

#[mcp_test(bin = "fixture-everything", fixture = "tests/fixtures/workspace")]
#[should_panic(expected = "an expected panic")]
async fn a_should_panic_test_removes_its_copy_when_it_panics(_mcp: McpClient, fixture: Fixture) {
    remember(&fixture);
    ENTERED_BODY.with(|entered| entered.set(true));
    panic!("an expected panic");
}

#[test]
fn the_expected_panic_does_not_keep_the_copy() {
    let result = std::panic::catch_unwind(a_should_panic_test_removes_its_copy_when_it_panics);
    assert!(result.is_err());
    assert!(ENTERED_BODY.with(Cell::get));
    let path = last_fixture();
    assert!(!path.exists(), "{} was kept", path.display());
}
