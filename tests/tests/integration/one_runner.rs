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
//! `suite!`'s tests run as `cargo test` runs them (this binary, its tests on
//! threads) and as `cargo nextest run` does (a process per test, several at
//! once, each `<binary> --exact <name> --nocapture`, nextest's protocol).
//! `mcptest run` is `mcptest-command`, the command built in this package.

use std::{
    collections::BTreeMap,
    process::{Command, Output},
    sync::Mutex,
};

use mcptest::{
    Fixture, Server,
    report::{Report, Status},
    suite::{RunOptions, Suite, failure_message, runner::INTERFERED},
};

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");
const MCPTEST: &str = env!("CARGO_BIN_EXE_mcptest-command");

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

/// How a test ended, as every front end can tell it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Verdict {
    status: Status,
    /// The failure as a suite prints it (`failure_message`), temp paths
    /// normalized; `None` unless it failed.
    message: Option<String>,
}

/// Verdicts by (file, test index within the file).
type Verdicts = BTreeMap<(String, usize), Verdict>;

/// The generated tests of one `suite!`: the module's path in this binary
/// and its table.
struct Generated {
    module: &'static str,
    files: &'static [mcptest::__private::suite::EmbeddedFile],
    tests: &'static [(&'static str, usize, usize)],
}

impl Generated {
    /// (file, index) of each generated test, by its full name.
    fn keys(&self) -> BTreeMap<String, (String, usize)> {
        self.tests
            .iter()
            .map(|&(name, file, index)| {
                (
                    format!("{}::{name}", self.module),
                    (self.files[file].path.to_owned(), index),
                )
            })
            .collect()
    }
}

/// A fixture copy's temporary path differs from run to run.
fn normalize(text: &str) -> String {
    let temp = regex::escape(&std::env::temp_dir().display().to_string());
    let copies = regex::Regex::new(&format!(r"{temp}/mcptest-[^/\s`'\x22)]+")).unwrap();
    copies.replace_all(text, "[copy]").into_owned()
}

fn verdicts_of(report: &Report) -> Verdicts {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    report
        .results
        .iter()
        .map(|result| {
            let file = result.location.as_ref().expect("located").file.clone();
            let index = seen.entry(file.clone()).or_default();
            let key = (file, *index);
            *index += 1;
            let message = failure_message(result, false).map(|m| normalize(&m));
            let verdict = Verdict {
                status: result.status(),
                message,
            };
            (key, verdict)
        })
        .collect()
}

/// A report's JSON without what differs run to run (durations, temp paths).
fn comparable(report: &serde_json::Value) -> String {
    let mut report = report.clone();
    report["duration_ms"] = serde_json::Value::Null;
    for result in report["results"].as_array_mut().expect("results") {
        result["duration_ms"] = serde_json::Value::Null;
    }
    normalize(&serde_json::to_string_pretty(&report).unwrap())
}

/// Environment every child gets: no colour, no CI annotations, kept fixture
/// copies where this process keeps them (so messages name the same path).
fn child(program: &str) -> Command {
    let mut command = Command::new(program);
    command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "0")
        .env("MCPTEST_KEPT_DIR", Fixture::kept_home())
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY");
    command
}

fn shown(output: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// `mcptest run ARGS --json FILE`: the JSON report, after checking the
/// exit status agrees with it.
fn command_report(args: &[&str]) -> serde_json::Value {
    let dir = scratch();
    let json = dir.path().join("report.json");
    let output = child(MCPTEST)
        .arg("run")
        .args(args)
        .arg("--json")
        .arg(&json)
        .output()
        .expect("mcptest-command runs");
    let text = std::fs::read_to_string(&json)
        .unwrap_or_else(|e| panic!("no JSON report ({e}): {}", shown(&output)));
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let expected = if report["passed"] == true { 0 } else { 1 };
    assert_eq!(output.status.code(), Some(expected), "{}", shown(&output));
    report
}

/// A directory of the comparison's own, under the target directory.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("one-runner-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
}

/// How `suite!`'s tests are run.
#[derive(Debug, Clone, Copy)]
enum Harness {
    /// `cargo test`: this binary, the suite's tests on its threads.
    Threads,
    /// `cargo nextest run`: a process per test, four at once.
    ProcessPerTest,
}

/// The verdicts of a generated suite run by `harness`; `ignored` runs the
/// suite's ignored tests (and only those).
fn generated(suite: &Generated, harness: Harness, ignored: bool, env: &[(&str, &str)]) -> Verdicts {
    let exe = std::env::current_exe().unwrap();
    let exe = exe.to_str().unwrap();
    let keys = suite.keys();
    let run = |args: &[&str]| {
        let mut command = child(exe);
        command.args(args);
        if ignored {
            command.arg("--ignored");
        }
        for (k, v) in env {
            command.env(k, v);
        }
        command.output().expect("the test binary runs")
    };
    let outcomes: BTreeMap<String, Verdict> = match harness {
        Harness::Threads => {
            let filter = format!("{}::", suite.module);
            let output = run(&[&filter, "--test-threads", "4", "--show-output"]);
            let stdout = String::from_utf8_lossy(&output.stdout);
            keys.keys()
                .map(|name| {
                    let printed = section(name, &stdout);
                    (name.clone(), libtest_verdict(name, &stdout, printed))
                })
                .collect()
        }
        Harness::ProcessPerTest => {
            let names: Mutex<Vec<&String>> = Mutex::new(keys.keys().collect());
            let done = Mutex::new(BTreeMap::new());
            std::thread::scope(|scope| {
                for _ in 0..4 {
                    scope.spawn(|| {
                        while let Some(name) = names.lock().unwrap().pop() {
                            let output = run(&["--exact", name, "--nocapture"]);
                            let stdout = String::from_utf8_lossy(&output.stdout);
                            let stderr = String::from_utf8_lossy(&output.stderr);
                            // Alone, the test's output is the process's.
                            let verdict = libtest_verdict(name, &stdout, &stderr);
                            done.lock().unwrap().insert(name.clone(), verdict);
                        }
                    });
                }
            });
            done.into_inner().unwrap()
        }
    };
    outcomes
        .into_iter()
        .map(|(name, verdict)| (keys[&name].clone(), verdict))
        .collect()
}

/// The verdict of test `name` from libtest's output: its result line on
/// stdout, and what it `printed` (`skipped: ..`, or the panic's message).
fn libtest_verdict(name: &str, stdout: &str, printed: &str) -> Verdict {
    let line = format!("test {name} ... ");
    let result = stdout
        .lines()
        .find_map(|l| l.strip_prefix(&line))
        .unwrap_or_else(|| panic!("no result for {name}:\n{stdout}\n{printed}"));
    let status = match result {
        "ok" if printed.contains("skipped: ") => Status::Skip,
        "ok" => Status::Pass,
        "FAILED" => Status::Fail,
        ignored if ignored.starts_with("ignored") => Status::Skip,
        other => panic!("{name}: unknown result {other:?}"),
    };
    let message = (status == Status::Fail).then(|| {
        let after = printed
            .split_once("panicked at ")
            .and_then(|(_, rest)| rest.split_once('\n'))
            .map(|(_, message)| message)
            .unwrap_or_else(|| panic!("{name}: no panic message in\n{printed}"));
        let message = after.split("\nnote: run with").next().unwrap_or(after);
        normalize(message.trim_end())
    });
    Verdict { status, message }
}

/// What test `name` printed, from the output of a run of many tests with
/// `--show-output`: its `---- name stdout ----` section (none when it
/// printed nothing).
fn section<'a>(name: &str, output: &'a str) -> &'a str {
    let header = format!("---- {name} stdout ----\n");
    let Some((_, rest)) = output.split_once(&header) else {
        return "";
    };
    let ends = ["\n---- ", "\nsuccesses:\n", "\nfailures:\n"];
    let end = ends.iter().filter_map(|e| rest.find(e)).min();
    &rest[..end.unwrap_or(rest.len())]
}

/// The environment of one run of generated tests, and the directory it
/// points at (removed when dropped).
type Env = (Vec<(&'static str, String)>, Option<tempfile::TempDir>);

/// One suite, every front end: the command's report and the library's are
/// the same (durations aside), and so are the verdicts and failure
/// messages of the generated tests under both harnesses, `runs` times
/// each, each run in the environment `env` makes.
struct Comparison<'a> {
    /// The suite's directory.
    dir: &'a str,
    /// What `mcptest run` gets besides the directory.
    command_args: &'a [&'a str],
    /// The same for `Suite::run`.
    options: RunOptions,
    suite: Generated,
    /// Whether the generated tests are the ignored ones.
    ignored: bool,
    runs: usize,
    env: &'a dyn Fn() -> Env,
}

impl Comparison<'_> {
    async fn run(self) -> Verdicts {
        let dir = self.dir;
        let mut args = vec![dir];
        args.extend_from_slice(self.command_args);
        let command = command_report(&args);
        let library = Suite::load(dir)
            .unwrap()
            .run_report(format!("mcptest run {dir}"), &self.options)
            .await;
        assert_eq!(
            comparable(&command),
            comparable(&library.to_json()),
            "`mcptest run` and `Suite::run` on {dir}"
        );
        let expected = verdicts_of(&library);
        assert_eq!(expected.len(), self.suite.tests.len(), "{dir}");
        for harness in [Harness::Threads, Harness::ProcessPerTest] {
            for run in 1..=self.runs {
                let (vars, _dir) = (self.env)();
                let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let seen = generated(&self.suite, harness, self.ignored, &vars);
                for (key, verdict) in &expected {
                    assert_eq!(
                        seen.get(key),
                        Some(verdict),
                        "{dir}: {key:?} by suite! under {harness:?}, run {run} of {}",
                        self.runs
                    );
                }
            }
        }
        expected
    }
}

fn no_env() -> Env {
    (Vec::new(), None)
}

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
        dir: "suites/pass",
        command_args: CORPUS_ARGS,
        options: corpus_options(),
        suite: Generated {
            module: "suites::pass",
            files: super::suites::PASS_FILES,
            tests: super::suites::PASS_TESTS,
        },
        ignored: false,
        runs: 1,
        env: &no_env,
    }
    .run()
    .await;
    assert!(verdicts.values().all(|v| v.status != Status::Fail));
    assert!(verdicts.values().any(|v| v.status == Status::Skip));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_failing_corpus() {
    let verdicts = Comparison {
        dir: "suites/fail",
        command_args: CORPUS_ARGS,
        options: corpus_options(),
        suite: Generated {
            module: "one_runner::fail",
            files: fail::FILES,
            tests: fail::TESTS,
        },
        ignored: true,
        runs: 1,
        env: &no_env,
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
        dir: "suites/stateful",
        command_args: &["--server", &server],
        options: options.clone(),
        suite: Generated {
            module: "one_runner::stateful",
            files: stateful::FILES,
            tests: stateful::TESTS,
        },
        ignored: false,
        runs: 5,
        env: &fresh,
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
