//! One runner behind every front end: `mcptest run`, `Suite::run` and the
//! tests `suite!` generates reach the same verdicts and the same reports.
//!
//! The suites: the passing and the failing corpus (`suites/pass`,
//! `suites/fail`: each test against its own server in its own fixture copy,
//! so they run `independent`), and `suites/stateful`, whose servers share
//! one directory, the way server-memory's processes share one file: beside
//! each other one test sees another's scratch note. `mcptest run` and
//! `Suite::run` replay what failed beside others and mark it `interfered`;
//! `suite!`'s tests take turns instead.
//!
//! How each front end runs is in `front_ends`.

use mcptest::{
    Server,
    report::Status,
    suite::{RunOptions, Suite, runner::INTERFERED},
};

use crate::front_ends::{Comparison, Env, Generated, no_env, scratch};

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");

/// The variable that points the stateful suite's servers at a directory of
/// a comparison's own (its default: one under the target directory).
const STATEFUL_DIR: &str = "MCPTEST_STATEFUL_DIR";

fn stateful_dir() -> String {
    std::env::var(STATEFUL_DIR)
        .unwrap_or_else(|_| concat!(env!("CARGO_TARGET_TMPDIR"), "/stateful-suite").to_owned())
}

// The failing corpus fails by design: its generated tests are ignored in a
// normal run, and run by the comparison below.
mcptest::suite!(
    "suites/fail",
    server = Server::program(EVERYTHING).args(["--root", "{{fixture}}"]),
    fixture = "suites/fixtures",
    independent,
    ignore = "fails by design; one_runner::the_failing_corpus runs it",
    name = fail,
);

// Written for one test at a time: the tests take turns, in file order.
mcptest::suite!(
    "suites/stateful",
    server = Server::program(EVERYTHING)
        .arg("--root")
        .arg(stateful_dir()),
    name = stateful,
);

/// The corpora's server: `fixture-everything` in the test's fixture copy.
const EVERYTHING_IN_FIXTURE: &str = concat!(
    env!("CARGO_BIN_EXE_fixture-everything"),
    " --root {{fixture}}"
);

/// What `mcptest run` gets for the corpora.
const CORPUS_ARGS: &[&str] = &[
    "--independent",
    "--server",
    EVERYTHING_IN_FIXTURE,
    "--fixture",
    "suites/fixtures",
];

/// The same as run options.
fn corpus_options() -> RunOptions {
    RunOptions::new()
        .server(Server::program(EVERYTHING).args(["--root", "{{fixture}}"]))
        .replace_servers(true)
        .fixture("suites/fixtures")
        .independent(true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_passing_corpus() {
    let verdicts = Comparison {
        paths: &["suites/pass"],
        command_args: CORPUS_ARGS,
        options: corpus_options(),
        suite: Some(Generated {
            module: "suites::pass",
            files: super::suites::PASS_FILES,
            tests: super::suites::PASS_TESTS,
        }),
        ignored: false,
        runs: 1,
        env: &no_env,
        before_generated: None,
    }
    .run()
    .await;
    assert!(verdicts.values().all(|v| v.status != Status::Fail));
    assert!(verdicts.values().any(|v| v.status == Status::Skip));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_failing_corpus() {
    let verdicts = Comparison {
        paths: &["suites/fail"],
        command_args: CORPUS_ARGS,
        options: corpus_options(),
        suite: Some(Generated {
            module: "one_runner::fail",
            files: fail::FILES,
            tests: fail::TESTS,
        }),
        ignored: true,
        runs: 1,
        env: &no_env,
        before_generated: None,
    }
    .run()
    .await;
    assert!(verdicts.values().all(|v| v.status == Status::Fail));
}

/// The interference case, five runs of each harness: beside each other the
/// second test sees the first one's scratch note; `mcptest run` and
/// `Suite::run` replay the tests up to it one at a time and pass it marked
/// `interfered`; `suite!`'s tests take turns and pass.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stateful_suite_five_runs() {
    // The command and the library run one after the other in one
    // directory: each run clears its scratch note by its end.
    let state = scratch();
    let root = state.path().display().to_string();
    let server = format!("{EVERYTHING} --root {root}");
    let options = RunOptions::new()
        .server(Server::program(EVERYTHING).arg("--root").arg(&root))
        .replace_servers(true);
    // Each run of the generated tests gets a fresh directory.
    let fresh = || -> Env {
        let state = scratch();
        let dir = state.path().display().to_string();
        (vec![(STATEFUL_DIR, dir)], Some(state))
    };
    let verdicts = Comparison {
        paths: &["suites/stateful"],
        command_args: &["--server", &server],
        options: options.clone(),
        suite: Some(Generated {
            module: "one_runner::stateful",
            files: stateful::FILES,
            tests: stateful::TESTS,
        }),
        ignored: false,
        runs: 5,
        env: &fresh,
        before_generated: None,
    }
    .run()
    .await;
    assert!(verdicts.values().all(|v| v.status == Status::Pass));
    // Beside each other the second test failed, and the report says so.
    let report = Suite::load("suites/stateful")
        .unwrap()
        .run_report("stateful", &options)
        .await;
    let interfered: Vec<&str> = report
        .results
        .iter()
        .filter(|r| r.property_value(INTERFERED).is_some())
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(
        interfered,
        ["no scratch note is seen by others"],
        "{report}"
    );
    // Trusted as independent, the failure beside the other test stands.
    let independent = Suite::load("suites/stateful")
        .unwrap()
        .run_report("stateful", &options.independent(true))
        .await;
    let checker = independent.result("no scratch note is seen by others");
    assert_eq!(
        checker.map(|r| r.status()),
        Some(Status::Fail),
        "{independent}"
    );
}
