//! The drop-in suites (`suites/dropin`, written for mcp-assert) against the
//! real servers, through every front end of the one runner (see
//! `front_ends`): `mcptest run`, `Suite::run` and `suite!` under both
//! harnesses, five runs each, reach the verdicts mcp-assert reaches
//! (`mcptest-cli/tests/cli/e2e_dropin.rs` compares those with mcp-assert's
//! own). `memory/` is server-memory, every process on one file: `mcptest
//! run` and `Suite::run` replay what failed beside others, `suite!`'s
//! tests take turns. `override/` names a server that is not installed:
//! the suite's server replaces it.

use mcptest::{Server, report::Status, suite::RunOptions};
use mcptest_tests::e2e;

use crate::front_ends::{Comparison, Env, Generated, no_env, scratch};

/// The memory file of a run: `DROPIN_MEMORY_FILE`, which the files hand to
/// server-memory; unset (as when the e2e tier runs the generated tests
/// themselves) it is server-memory's own default file.
const MEMORY_FILE: &str = "DROPIN_MEMORY_FILE";

fn memory() -> Server {
    Server::program(e2e::path("MCPTEST_E2E_MEMORY"))
}

fn time() -> Server {
    Server::program(e2e::path("MCPTEST_E2E_TIME")).args(["--local-timezone", "UTC"])
}

mcptest::suite!(
    "suites/dropin/memory",
    server = memory(),
    replace_servers,
    ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it",
    name = dropin_memory,
);

// The override suite's passing files (`a_wrong_expectation_fails.yaml`
// fails by design: the tier runs every ignored test of this binary). The
// time server keeps no state: its tests are independent.
mcptest::suite!(
    "suites/dropin/override/c*.yaml",
    server = time(),
    replace_servers,
    independent,
    ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it",
    name = dropin_override,
);

/// A fresh memory file for each run.
fn fresh_memory() -> Env {
    let dir = scratch();
    let file = dir.path().join("memory.jsonl").display().to_string();
    (vec![(MEMORY_FILE, file)], Some(dir))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn the_memory_suite_five_runs() {
    let server = e2e::path("MCPTEST_E2E_MEMORY").display().to_string();
    // `Suite::run` runs here, where `DROPIN_MEMORY_FILE` is unset: on
    // server-memory's own file, which the generated tests use when the
    // tier runs them; it takes their turn meanwhile.
    let turn = dropin_memory::SUITE
        .turns
        .wait(0, "one_runner::the_memory_suite_five_runs")
        .unwrap();
    let verdicts = Comparison {
        paths: &["suites/dropin/memory"],
        command_args: &["--server", &server],
        options: RunOptions::new().server(memory()).replace_servers(true),
        suite: Some(Generated {
            module: "one_runner::dropin_memory",
            files: dropin_memory::FILES,
            tests: dropin_memory::TESTS,
        }),
        ignored: true,
        runs: 5,
        env: &fresh_memory,
        before_generated: Some(Box::new(move || drop(turn))),
    }
    .run()
    .await;
    assert_eq!(verdicts.len(), 6);
    assert!(
        verdicts.values().all(|v| v.status == Status::Pass),
        "{verdicts:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn the_override_suite_five_runs() {
    let server = format!(
        "{} --local-timezone UTC",
        e2e::path("MCPTEST_E2E_TIME").display()
    );
    let options = RunOptions::new().server(time()).replace_servers(true);
    let verdicts = Comparison {
        paths: &["suites/dropin/override/c*.yaml"],
        command_args: &["--server", &server, "--independent"],
        options: options.clone().independent(true),
        suite: Some(Generated {
            module: "one_runner::dropin_override",
            files: dropin_override::FILES,
            tests: dropin_override::TESTS,
        }),
        ignored: true,
        runs: 5,
        env: &no_env,
        before_generated: None,
    }
    .run()
    .await;
    assert_eq!(verdicts.len(), 3);
    assert!(
        verdicts.values().all(|v| v.status == Status::Pass),
        "{verdicts:?}"
    );
    // The whole directory, its failing file too, by the command and the
    // library.
    let verdicts = Comparison {
        paths: &["suites/dropin/override"],
        command_args: &["--server", &server],
        options,
        suite: None,
        ignored: true,
        runs: 1,
        env: &no_env,
        before_generated: None,
    }
    .run()
    .await;
    let failed: Vec<_> = verdicts
        .iter()
        .filter(|(_, v)| v.status == Status::Fail)
        .map(|((file, _), _)| file.as_str())
        .collect();
    assert_eq!(
        failed,
        ["suites/dropin/override/a_wrong_expectation_fails.yaml"]
    );
}
