//! `mcptest run`: loads suite files, runs their tests in parallel (each
//! against a fresh server), prints a line per test as it ends, then the
//! failures in full, the reports, and the baseline comparison.

use std::{
    any::Any,
    panic::AssertUnwindSafe,
    time::{Duration, Instant},
};

use futures::{FutureExt, StreamExt, stream::FuturesUnordered};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mcptest::{
    Server,
    report::{Location, Outcome, Report, Status, TestResult},
    suite::{RunOptions, SuiteTest, Teardown},
};

use crate::{
    Exit,
    args::{RunArgs, SuiteArgs},
    baseline::Baseline,
    interference,
    output::{self, Palette},
    paths, trials,
};

pub fn run(args: RunArgs) -> Exit {
    let mut tests = match args.suite.load() {
        Ok(tests) => tests,
        Err(exit) => return exit,
    };
    let loaded = tests.len();
    if let Some(partition) = &args.partition {
        tests = partition.select(&tests);
    }
    let baseline = match args.baseline.as_deref().map(Baseline::load).transpose() {
        Ok(baseline) => baseline,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let options = match args.suite.options() {
        Ok(options) => options.shared(args.shared),
        Err(exit) => return exit,
    };
    let jobs = args.suite.jobs();
    let runtime = match args.suite.runtime() {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    // A bare --json puts the JSON report on stdout: everything else goes
    // to stderr, so the JSON can be piped.
    let out = Out {
        stderr: args.reports.json_on_stdout(),
    };
    let palette = Palette::new(crate::color() && !out.stderr);
    let mut title = format!("mcptest run {}", args.suite.all_paths().join(" "));
    if let Some(partition) = &args.partition {
        title.push_str(&format!(
            " (partition {partition}: {} of {loaded} tests)",
            tests.len()
        ));
    }
    if let Some(server) = &args.suite.server {
        let replaced = tests.iter().filter(|t| t.names_server()).count();
        if replaced > 0 {
            out.say(&format!(
                "--server replaces the server named in {replaced} of {} test files: {server}",
                tests.len()
            ));
        }
    }
    let started = Instant::now();
    let results = if tests.is_empty() {
        Vec::new()
    } else {
        runtime.block_on(run_tests(
            tests,
            options,
            Schedule {
                jobs,
                trials: args.trials,
                lines: out.lines(),
                rerun_alone: !args.independent,
                adapt: args.suite.jobs.is_none(),
            },
            &palette,
        ))
    };
    let mut report = Report::new(title).with_duration(started.elapsed());
    for result in results {
        report.push(result);
    }
    report
        .title
        .push_str(&trials::title_suffix(&report, args.trials));
    if report.results.is_empty() {
        // A shard may be empty (more shards than tests): that is no failure.
        out.say(&format!(
            "{}: this shard holds none of the {loaded} tests; nothing to run",
            report.title
        ));
        output::write_reports(&report, &args.reports, "");
        return Exit::Pass;
    }
    out.say_raw(&output::summary(&report, &palette));
    out.say_raw(&interference::summary(&report));
    out.say_raw(&kept_copies(&report));
    output::write_reports(
        &report,
        &args.reports,
        &format!(
            "{}{}",
            trials::markdown(&report, args.trials),
            interference::markdown(&report)
        ),
    );
    if let Some(path) = &args.save_baseline
        && let Err(e) = Baseline::of(&report).save(path)
    {
        eprintln!("mcptest: {e}");
    }
    let verdict = verdict(&report, args.threshold, &out);
    let Some(baseline) = baseline else {
        return verdict;
    };
    let comparison = baseline.compare(&report);
    for key in &comparison.regressions {
        out.say(&format!(
            "regression: {key} passed in the baseline and does not now"
        ));
    }
    for key in &comparison.fixed {
        out.say(&format!(
            "fixed: {key} did not pass in the baseline and passes now"
        ));
    }
    for key in &comparison.missing {
        out.say(&format!(
            "missing: {key} is in the baseline and did not run"
        ));
    }
    out.say(&format!(
        "baseline: {} regression{}, {} known failure{}, {} new failure{}, {} missing",
        comparison.regressions.len(),
        plural(comparison.regressions.len()),
        comparison.known.len(),
        plural(comparison.known.len()),
        comparison.new_failures.len(),
        plural(comparison.new_failures.len()),
        comparison.missing.len(),
    ));
    if !comparison.regressions.is_empty() {
        Exit::Regressions
    } else if !comparison.new_failures.is_empty() && verdict != Exit::Pass {
        Exit::Failures
    } else {
        Exit::Pass
    }
}

/// The run's exit status without a baseline: every test passed, or with
/// `--threshold`, at least that share of the tests that ran (skips left
/// out), as mcp-assert's `ci` counts it.
fn verdict(report: &Report, threshold: Option<u8>, out: &Out) -> Exit {
    let Some(threshold) = threshold else {
        return if report.passed() {
            Exit::Pass
        } else {
            Exit::Failures
        };
    };
    let c = report.counts();
    let ran = c.total() - c.skipped;
    let percent = (c.passed * 100).checked_div(ran).unwrap_or(0);
    let holds = percent >= usize::from(threshold);
    out.say(&format!(
        "threshold: {percent}% of {ran} test{} passed; --threshold {threshold}% {}",
        plural(ran),
        if holds { "is met" } else { "is NOT met" }
    ));
    if holds { Exit::Pass } else { Exit::Failures }
}

/// The fixture copies kept for failed tests, one line each; empty when none.
fn kept_copies(report: &Report) -> String {
    let kept: Vec<(&str, &std::path::Path)> = report
        .results
        .iter()
        .filter_map(|r| Some((r.name.as_str(), r.outcome.failure()?.kept_fixture()?)))
        .collect();
    if kept.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "kept fixture copies (one per test, replaced when it fails again; in {}, or $MCPTEST_KEPT_DIR):\n",
        mcptest::Fixture::kept_home().display()
    );
    for (name, path) in kept {
        out.push_str(&format!("  {name}: {}\n", path.display()));
    }
    out
}

/// Where the run's words go: stdout, or stderr when stdout carries the
/// JSON report.
struct Out {
    stderr: bool,
}

impl Out {
    fn say(&self, line: &str) {
        self.say_raw(&format!("{line}\n"));
    }

    fn say_raw(&self, text: &str) {
        if self.stderr {
            eprint!("{text}");
        } else {
            print!("{text}");
        }
    }

    fn lines(&self) -> Lines {
        if self.stderr {
            Lines::Stderr
        } else {
            Lines::Stdout
        }
    }
}

impl SuiteArgs {
    /// The run options of `--server`, `--fixture`, `--timeout` and
    /// `--wire-schema`, each checked.
    pub fn options(&self) -> Result<RunOptions, Exit> {
        let mut options = RunOptions::new();
        if let Some(command) = &self.server {
            if let Err(e) = check_server(command) {
                eprintln!("mcptest: {e}");
                return Err(Exit::Usage);
            }
            options = options
                .server(Server::command(command))
                .replace_servers(true);
        }
        if let Some(fixture) = &self.fixture {
            if !fixture.is_dir() {
                eprintln!("mcptest: --fixture {}: not a directory", fixture.display());
                return Err(Exit::Usage);
            }
            options = options.fixture(fixture);
        }
        if let Some(timeout) = self.timeout {
            options = options.timeout(timeout);
        }
        if let Some(mode) = self.wire_schema {
            options = options.wire_schema(mode);
        }
        Ok(options)
    }

    /// `--jobs`, or twice the number of cores: a server starting up waits
    /// (imports, disk) more than it computes, and one test per core leaves
    /// cores idle (benches/peer: wall time 1.27x the CPU time per core at
    /// one per core, 1.02x at two).
    pub fn jobs(&self) -> usize {
        self.jobs.map(usize::from).unwrap_or_else(|| 2 * cores())
    }

    /// The runtime the tests run on: a thread per job, at most one per core.
    pub fn runtime(&self) -> Result<tokio::runtime::Runtime, Exit> {
        crate::runtime(self.jobs().min(cores()))
    }

    /// Every test of every file the paths name, filtered by `--filter`;
    /// each file that cannot be loaded is reported (exit 2).
    pub fn load(&self) -> Result<Vec<SuiteTest>, Exit> {
        load(&self.all_paths(), self.filter.as_deref())
    }

    /// The paths and the `--suite` directories, in that order.
    pub fn all_paths(&self) -> Vec<String> {
        self.paths.iter().chain(&self.suite).cloned().collect()
    }
}

pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Every test of every file the arguments name, filtered; each file that
/// cannot be loaded is reported (exit 2).
fn load(paths: &[String], filter: Option<&str>) -> Result<Vec<SuiteTest>, Exit> {
    let suite = paths::load_suite(paths)?;
    let tests: Vec<SuiteTest> = suite
        .tests()
        .iter()
        .filter(|t| filter.is_none_or(|f| t.name.contains(f) || t.file.contains(f)))
        .cloned()
        .collect();
    if tests.is_empty() {
        match filter {
            Some(filter) => eprintln!(
                "mcptest: no test matches --filter {filter:?} ({} test{} loaded)",
                suite.tests().len(),
                plural(suite.tests().len())
            ),
            None => eprintln!("mcptest: the files hold no test"),
        }
        return Err(Exit::Usage);
    }
    Ok(tests)
}

/// The server's program must exist before any test starts: a missing one
/// is a usage error, not a run of failures.
pub fn check_server(command: &str) -> Result<(), String> {
    let words = shell_words::split(command)
        .map_err(|e| format!("--server {command:?}: not a command line: {e}"))?;
    let Some(program) = words.first() else {
        return Err("--server is empty".into());
    };
    let path = std::path::Path::new(program);
    if path.components().count() > 1 && path.exists() {
        if path.is_dir() {
            return Err(format!("--server {command:?}: {program} is a directory"));
        }
        return which::which(program).map(|_| ()).map_err(|_| {
            format!("--server {command:?}: {program} exists but is not executable (chmod +x?)")
        });
    }
    which::which(program)
        .map(|_| ())
        .map_err(|e| format!("--server {command:?}: server not found: {program}: {e}"))
}

/// Where the line of each test goes as it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    Hidden,
    Stdout,
    Stderr,
}

/// How the tests of a run are scheduled.
pub struct Schedule {
    /// How many run at once.
    pub jobs: usize,
    /// How many times each runs (`--trials`).
    pub trials: u32,
    pub lines: Lines,
    /// When tests failed while others ran, replay the tests one at a time
    /// up to the last of them (see [`interference`](crate::interference)).
    pub rerun_alone: bool,
    /// Start more than `jobs` tests (up to twice as many) while cores
    /// sit idle, fewer again when they are busy (`--jobs` not given).
    pub adapt: bool,
}

pub async fn run_tests(
    tests: Vec<SuiteTest>,
    options: RunOptions,
    schedule: Schedule,
    palette: &Palette,
) -> Vec<TestResult> {
    let Schedule {
        jobs,
        trials: trial_count,
        lines,
        rerun_alone,
        adapt,
    } = schedule;
    let show_lines = lines != Lines::Hidden;
    let print_line = |line: String| match lines {
        Lines::Stdout => println!("{line}"),
        Lines::Stderr => eprintln!("{line}"),
        Lines::Hidden => {}
    };
    let progress = if show_lines && console::Term::stderr().is_term() {
        let bar =
            ProgressBar::with_draw_target(Some(tests.len() as u64), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
                .expect("a valid template"),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    } else {
        ProgressBar::hidden()
    };
    let jobs = jobs.max(1);
    let all = tests.clone();
    let mut pending = tests.into_iter().enumerate();
    let mut running = FuturesUnordered::new();
    // Servers of finished tests still stopping (their grace period, the
    // kill, the reap, then the fixture copy's removal). They do not hold a
    // job: the next test starts meanwhile. At most `jobs` at once, and all
    // of them are done before the run returns. `--jobs 1` keeps one server
    // at a time, for servers that must not overlap (a fixed port, a file
    // outside the fixture).
    let mut stopping = FuturesUnordered::new();
    let may_start = |running: usize, stopping: usize, limit: usize| {
        running < limit && (stopping == 0 || (limit > 1 && stopping < limit))
    };
    // Servers starting up wait more than they compute: while cores sit
    // idle, one more test at a time may start, and the limit comes back
    // down when they are busy.
    let mut limit = jobs;
    let mut idle_cpu = if adapt {
        crate::idle_cpu::IdleCpu::new(cores())
    } else {
        None
    };
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut results: Vec<Option<TestResult>> = Vec::new();
    // Which tests ran, at some moment, beside another test.
    let mut accompanied = vec![false; all.len()];
    let mut active: Vec<usize> = Vec::new();
    let options = &options;
    loop {
        while may_start(running.len(), stopping.len(), limit) {
            let Some((index, test)) = pending.next() else {
                break;
            };
            if !active.is_empty() {
                accompanied[index] = true;
                for &other in &active {
                    accompanied[other] = true;
                }
            }
            active.push(index);
            running.push(run_one(index, test, options, trial_count));
        }
        tokio::select! {
            Some((index, result, last)) = running.next() => {
                active.retain(|&i| i != index);
                if let Some(teardown) = last {
                    stopping.push(teardown.finish());
                }
                if show_lines {
                    progress.suspend(|| print_line(palette.line(&result)));
                }
                progress.inc(1);
                if results.len() <= index {
                    results.resize(index + 1, None);
                }
                results[index] = Some(result);
            }
            Some(()) = stopping.next() => {}
            _ = tick.tick(), if idle_cpu.is_some() && pending.len() > 0 => {
                if let Some(idle) = idle_cpu.as_mut().and_then(|c| c.idle_cores()) {
                    if idle >= 0.5 && running.len() >= limit && limit < jobs * 2 {
                        limit += 1;
                    } else if idle < 0.2 && limit > jobs {
                        limit -= 1;
                    }
                }
            }
            else => break,
        }
    }
    progress.finish_and_clear();
    let mut results: Vec<TestResult> = results.into_iter().flatten().collect();
    if rerun_alone {
        // Replay one at a time, in file order, up to the last test that
        // failed beside others: the earlier tests rebuild the state it was
        // written for (see `interference`).
        let failed: Vec<bool> = (0..results.len())
            .map(|i| accompanied[i] && results[i].status() == Status::Fail)
            .collect();
        if let Some(last) = failed.iter().rposition(|&f| f) {
            if show_lines {
                let count = failed.iter().filter(|&&f| f).count();
                print_line(format!(
                    "{count} failed beside other tests: rerunning tests 1 to {} one at a time, in file order (--independent skips this)",
                    last + 1
                ));
            }
            for (index, test) in all.into_iter().enumerate().take(last + 1) {
                let (_, alone, teardown) = run_one(index, test, options, trial_count).await;
                if let Some(teardown) = teardown {
                    teardown.finish().await;
                }
                let result = interference::judge(results[index].clone(), alone);
                if show_lines
                    && (failed[index] || result.property_value(interference::INTERFERED).is_some())
                {
                    print_line(format!("one at a time: {}", palette.line(&result)));
                }
                results[index] = result;
            }
        }
    }
    results
}

/// Runs one test `trial_count` times; the result, and the last trial's
/// server still to stop.
async fn run_one(
    index: usize,
    test: SuiteTest,
    options: &RunOptions,
    trial_count: u32,
) -> (usize, TestResult, Option<Teardown>) {
    // Suite test futures are not `Send`, so they share the runner's task;
    // the work is waiting on servers, and the runtime's threads serve the
    // I/O.
    let mut runs = Vec::with_capacity(trial_count as usize);
    // Only the last trial's server is left to stop beside other tests: an
    // earlier one is stopped before the next trial starts, so a test holds
    // one server at a time however many trials it has.
    let mut last: Option<Teardown> = None;
    for _ in 0..trial_count {
        if let Some(teardown) = last.take() {
            teardown.finish().await;
        }
        // A panic in one test is that test's failure, not a hole in the
        // report.
        let result = match AssertUnwindSafe(test.run_until_verdict(options))
            .catch_unwind()
            .await
        {
            Ok((result, teardown)) => {
                last = Some(teardown);
                result
            }
            Err(panic) => TestResult::new(
                test.name.clone(),
                Outcome::error(
                    "the test runs to its end",
                    format!("it panicked: {}", panic_message(&*panic)),
                ),
            )
            .location(Location::file(test.file.clone())),
        };
        runs.push(result);
    }
    (index, trials::combine(runs), last)
}

fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}
