//! Every front end of the one suite runner on one suite, compared: the
//! report of `mcptest run` (`mcptest-command`, the command built in this
//! package) with the report of `Suite::run`, and the verdicts and failure
//! messages of the tests `suite!` generates with both, the generated tests
//! run as `cargo test` runs them (this binary, its tests on threads) and as
//! `cargo nextest run` does (a process per test, four at once, each
//! `<binary> --exact <name> --nocapture`, nextest's protocol). Shared by
//! the integration and the e2e binaries (`one_runner` in each).

use std::{
    collections::BTreeMap,
    process::{Command, Output},
    sync::Mutex,
};

use mcptest::{
    Fixture,
    report::{Report, Status},
    suite::{RunOptions, Suite, failure_message},
};

const MCPTEST: &str = env!("CARGO_BIN_EXE_mcptest-command");

/// How a test ended, as every front end can tell it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Verdict {
    pub(crate) status: Status,
    /// The failure as a suite prints it (`failure_message`), temp paths
    /// normalized; `None` unless it failed.
    pub(crate) message: Option<String>,
}

/// Verdicts by (file, test index within the file).
pub(crate) type Verdicts = BTreeMap<(String, usize), Verdict>;

/// The generated tests of one `suite!`: the module's path in this binary
/// and its table.
pub(crate) struct Generated {
    /// The module's path in the test binary (`one_runner::stateful`).
    pub(crate) module: &'static str,
    pub(crate) files: &'static [mcptest::__private::suite::EmbeddedFile],
    pub(crate) tests: &'static [(&'static str, usize, usize)],
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

/// What differs from run to run in a message: a fixture copy's temporary
/// path, and the time a server tells (the time server's answers).
pub(crate) fn normalize(text: &str) -> String {
    let temp = regex::escape(&std::env::temp_dir().display().to_string());
    let copies = regex::Regex::new(&format!(r"{temp}/mcptest-[^/\s`'\x22)]+")).unwrap();
    let times =
        regex::Regex::new(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)?")
            .unwrap();
    let text = copies.replace_all(text, "[copy]");
    times.replace_all(&text, "[time]").into_owned()
}

pub(crate) fn verdicts_of(report: &Report) -> Verdicts {
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

/// A report's JSON without what differs run to run (durations, temp paths,
/// and whether two tests on one shared server happened to race: the
/// `interfered` note says a test failed beside others and passed when
/// replayed alone, which is timing, not the front end; the verdict it
/// ends with is compared).
pub(crate) fn comparable(report: &serde_json::Value) -> String {
    let mut report = report.clone();
    report["duration_ms"] = serde_json::Value::Null;
    for result in report["results"].as_array_mut().expect("results") {
        result["duration_ms"] = serde_json::Value::Null;
        forget_interference(result);
    }
    normalize(&serde_json::to_string_pretty(&report).unwrap())
}

/// `result` without its `interfered` note (and without `properties` and
/// `property_order` when that was their only entry).
fn forget_interference(result: &mut serde_json::Value) {
    let Some(properties) = result
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    else {
        return;
    };
    if properties.remove("interfered").is_none() {
        return;
    }
    let empty = properties.is_empty();
    let object = result.as_object_mut().expect("a result is an object");
    if empty {
        object.remove("properties");
        object.remove("property_order");
    } else if let Some(order) = object
        .get_mut("property_order")
        .and_then(serde_json::Value::as_array_mut)
    {
        order.retain(|name| name != "interfered");
    }
}

/// Environment every child gets: no colour, no CI annotations, kept fixture
/// copies where this process keeps them (so messages name the same path).
pub(crate) fn child(program: &str) -> Command {
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

pub(crate) fn shown(output: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// `mcptest run ARGS --json FILE`: the JSON report, after checking the
/// exit status agrees with it.
pub(crate) fn command_report(args: &[&str]) -> serde_json::Value {
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
pub(crate) fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("one-runner-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
}

/// How `suite!`'s tests are run.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Harness {
    /// `cargo test`: this binary, the suite's tests on its threads.
    Threads,
    /// `cargo nextest run`: a process per test, four at once.
    ProcessPerTest,
}

/// The verdicts of a generated suite run by `harness`; `ignored` runs the
/// suite's ignored tests (and only those).
pub(crate) fn generated(
    suite: &Generated,
    harness: Harness,
    ignored: bool,
    env: &[(&str, &str)],
) -> Verdicts {
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
pub(crate) fn libtest_verdict(name: &str, stdout: &str, printed: &str) -> Verdict {
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
pub(crate) fn section<'a>(name: &str, output: &'a str) -> &'a str {
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
pub(crate) type Env = (Vec<(&'static str, String)>, Option<tempfile::TempDir>);

/// One suite, every front end: the command's report and the library's are
/// the same (durations aside), and so are the verdicts and failure
/// messages of the generated tests under both harnesses, `runs` times
/// each, each run in the environment `env` makes.
pub(crate) struct Comparison<'a> {
    /// The suite's files or directories, as `mcptest run` takes them
    /// (relative to this package; a glob only with `files`).
    pub(crate) paths: &'a [&'a str],
    /// What `mcptest run` gets besides the paths.
    pub(crate) command_args: &'a [&'a str],
    /// The same for `Suite::run`.
    pub(crate) options: RunOptions,
    /// The suite's generated tests; `None` compares the command and the
    /// library alone.
    pub(crate) suite: Option<Generated>,
    /// Whether the generated tests are the ignored ones.
    pub(crate) ignored: bool,
    pub(crate) runs: usize,
    pub(crate) env: &'a dyn Fn() -> Env,
    /// Called once the command and the library are done, before the
    /// generated tests run (to end a turn taken for the two).
    pub(crate) before_generated: Option<Box<dyn FnOnce()>>,
}

impl Comparison<'_> {
    /// Runs every front end; the verdicts they agree on.
    pub(crate) async fn run(self) -> Verdicts {
        let shown = self.paths.join(" ");
        let mut args = self.paths.to_vec();
        args.extend_from_slice(self.command_args);
        let command = command_report(&args);
        let mut suite = Suite::default();
        for path in expand(self.paths) {
            suite.extend(Suite::load(&path).unwrap());
        }
        let library = suite
            .run_report(format!("mcptest run {shown}"), &self.options)
            .await;
        assert_eq!(
            comparable(&command),
            comparable(&library.to_json()),
            "`mcptest run` and `Suite::run` on {shown}"
        );
        let expected = verdicts_of(&library);
        if let Some(before) = self.before_generated {
            before();
        }
        let Some(generated_suite) = &self.suite else {
            return expected;
        };
        assert_eq!(expected.len(), generated_suite.tests.len(), "{shown}");
        for harness in [Harness::Threads, Harness::ProcessPerTest] {
            for run in 1..=self.runs {
                let (vars, _dir) = (self.env)();
                let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let seen = generated(generated_suite, harness, self.ignored, &vars);
                for (key, verdict) in &expected {
                    assert_eq!(
                        seen.get(key),
                        Some(verdict),
                        "{shown}: {key:?} by suite! under {harness:?}, run {run} of {}",
                        self.runs
                    );
                }
            }
        }
        expected
    }
}

/// The files of `paths`, a glob's expanded (sorted), as `mcptest run` and
/// `suite!` expand them.
pub(crate) fn expand(paths: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    for path in paths {
        let Some((dir, pattern)) = path.rsplit_once('/').filter(|(_, p)| p.contains('*')) else {
            files.push((*path).to_owned());
            continue;
        };
        let (prefix, suffix) = pattern.split_once('*').expect("a glob");
        let mut matched: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|name| name.starts_with(prefix) && name.ends_with(suffix))
            .map(|name| format!("{dir}/{name}"))
            .collect();
        matched.sort();
        files.extend(matched);
    }
    files
}

pub(crate) fn no_env() -> Env {
    (Vec::new(), None)
}
