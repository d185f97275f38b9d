//! The `mcptest` command, run as a built binary: every command and flag,
//! each report format, and bad input with its documented exit status; a
//! module per command (`run.rs`, `conformance.rs`, ...), helpers in `shared.rs`.
//!
//! The server under test is the command's own `mock` (an MCP Cases contract
//! played as a server), so these tests need nothing outside this package.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

const MCPTEST: &str = env!("CARGO_BIN_EXE_mcptest");

/// A calculator contract: `add` answers 2 + 3 = 5.
const CONTRACT: &str = r#"
case: List tools
in: {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
out: {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}}
---
case: Add
in: {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}
out: {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "5"}]}}
"#;

const PASSING: &str = "\
name: adds
assert:
  tool: add
  args: {a: 2, b: 3}
  expect:
    contains: [\"5\"]
";

const FAILING: &str = "\
name: adds wrong
assert:
  tool: add
  args: {a: 2, b: 3}
  expect:
    contains: [\"6\"]
";

const SKIPPED: &str = "\
name: off
skip: true
assert:
  tool: add
  expect:
    contains: [\"5\"]
";

/// A working directory with the contract and suite files, so that reports
/// show short relative paths.
struct Workspace {
    dir: tempfile::TempDir,
}

impl Workspace {
    fn new(files: &[(&str, &str)]) -> Workspace {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("contract.yaml"), CONTRACT).unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Workspace { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap()
    }

    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.path(name), text).unwrap();
    }

    /// `mcptest ARGS` in the workspace, with no CI variables inherited.
    fn mcptest(&self, args: &[&str]) -> Command {
        let mut command = Command::new(MCPTEST);
        command
            .current_dir(self.dir.path())
            .args(args)
            .env_remove("GITHUB_ACTIONS")
            .env_remove("GITHUB_STEP_SUMMARY")
            .env("NO_COLOR", "1")
            // Kept fixture copies stay in the workspace, removed with it.
            .env("MCPTEST_KEPT_DIR", self.dir.path().join("kept"))
            .timeout(std::time::Duration::from_secs(120));
        command
    }

    /// `mcptest run ARGS --server '<mcptest mock contract.yaml>'`.
    fn run(&self, args: &[&str]) -> Command {
        let server = server();
        let mut all = vec!["run"];
        all.extend_from_slice(args);
        all.extend(["--server", server.as_str()]);
        self.mcptest(&all)
    }
}

/// The names of the tests a JSON report of `mcptest run` marks
/// `interfered`, in report order.
fn interfered(report: &serde_json::Value) -> Vec<&str> {
    report["results"]
        .as_array()
        .unwrap_or_else(|| panic!("no results: {report}"))
        .iter()
        .filter(|r| r["properties"]["interfered"].is_string())
        .map(|r| r["name"].as_str().unwrap())
        .collect()
}

fn server() -> String {
    format!("'{MCPTEST}' mock contract.yaml")
}

struct Output {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn output(mut command: impl std::borrow::BorrowMut<Command>) -> Output {
    let out = command.borrow_mut().output().unwrap();
    Output {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

mod audit;
#[path = "../../../tests/tests/support/bounded_child.rs"]
mod bounded_child;
mod conformance;
mod conformance_verbose;
mod coverage;
mod drift;
mod e2e;
mod e2e_dropin;
mod exec;
mod exec_cassette;
mod exec_frames;
mod exec_listing;
mod exec_suite;
mod exec_v3;
mod fuzz;
mod fuzz_regressions;
mod help;
mod hostile;
mod init;
mod intercept;
mod lint;
mod lint_security;
mod mock;
mod reports;
mod run;
mod run_interference;
mod run_partition;
mod run_peer_flags;
mod sarif;
mod shared;
mod snapshot;
mod trials_and_baselines;
mod validate;
mod watch;
