//! The parallel part of a run: up to `jobs` tests at once, each against a
//! fresh server; a finished test's server stops beside the next test; more
//! tests start while cores sit idle (when the jobs were not fixed). Then
//! the replay of the tests that failed beside others, one at a time.

use std::{any::Any, panic::AssertUnwindSafe, time::Duration};

use futures::{FutureExt, StreamExt, stream::FuturesUnordered};
use mcptest_core::report::{Location, Outcome, Status, TestResult};

use super::{
    events::{Event, Reporter},
    idle_cpu::IdleCpu,
    interference, trials,
};
use crate::{context::Teardown, options::RunOptions, suite_test::SuiteTest};

/// The machine's cores (1 when unknown).
pub(super) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Every test's result, in the order of `tests`: run beside each other,
/// then the replay unless the run is independent.
pub(super) async fn run_all(
    tests: &[SuiteTest],
    options: &RunOptions,
    reporter: &mut dyn Reporter,
) -> Vec<TestResult> {
    let (results, accompanied) = Parallel::new(tests, options).run(reporter).await;
    if options.independent {
        return results;
    }
    replay(tests, options, results, &accompanied, reporter).await
}

/// The state of the parallel part.
struct Parallel<'a> {
    tests: &'a [SuiteTest],
    options: &'a RunOptions,
    /// The tests' results, by index, as they come.
    results: Vec<Option<TestResult>>,
    /// Which tests ran, at some moment, beside another test.
    accompanied: Vec<bool>,
    /// The tests running now.
    active: Vec<usize>,
    /// How many tests may run at once now.
    limit: usize,
    /// The limit given (`RunOptions::jobs`, or twice the cores).
    jobs: usize,
    /// Readings of idle cores, when the limit adapts to them.
    idle_cpu: Option<IdleCpu>,
}

impl<'a> Parallel<'a> {
    fn new(tests: &'a [SuiteTest], options: &'a RunOptions) -> Self {
        // Servers starting up wait (imports, disk) more than they compute:
        // twice the cores keeps the cores busy, and while they still sit
        // idle one more test at a time may start, up to twice that.
        let (jobs, adapt) = match options.jobs {
            Some(jobs) => (jobs.max(1), false),
            None => (2 * cores(), true),
        };
        Parallel {
            tests,
            options,
            results: vec![None; tests.len()],
            accompanied: vec![false; tests.len()],
            active: Vec::new(),
            limit: jobs,
            jobs,
            idle_cpu: if adapt { IdleCpu::new(cores()) } else { None },
        }
    }

    /// Whether another test may start: below the limit, and with `jobs`
    /// 1, only once the last server has stopped (servers that must not
    /// overlap: a fixed port, a file outside the fixture).
    fn may_start(&self, running: usize, stopping: usize) -> bool {
        running < self.limit && (stopping == 0 || (self.limit > 1 && stopping < self.limit))
    }

    /// Notes that test `index` starts beside the ones running.
    fn start(&mut self, index: usize) {
        if !self.active.is_empty() {
            self.accompanied[index] = true;
            for &other in &self.active {
                self.accompanied[other] = true;
            }
        }
        self.active.push(index);
    }

    /// One more test while cores sit idle, one fewer again when they are busy.
    fn adapt(&mut self, running: usize) {
        let Some(idle) = self.idle_cpu.as_mut().and_then(IdleCpu::idle_cores) else {
            return;
        };
        if idle >= 0.5 && running >= self.limit && self.limit < self.jobs * 2 {
            self.limit += 1;
        } else if idle < 0.2 && self.limit > self.jobs {
            self.limit -= 1;
        }
    }

    async fn run(mut self, reporter: &mut dyn Reporter) -> (Vec<TestResult>, Vec<bool>) {
        let (tests, options) = (self.tests, self.options);
        let mut pending = tests.iter().enumerate();
        let mut running = FuturesUnordered::new();
        // Servers of finished tests still stopping (their grace period, the
        // kill, the reap, then the fixture copy's removal). They hold no
        // job: the next test starts meanwhile; all are done before the run
        // returns.
        let mut stopping = FuturesUnordered::new();
        let mut tick = tokio::time::interval(Duration::from_millis(100));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            while self.may_start(running.len(), stopping.len()) {
                let Some((index, test)) = pending.next() else {
                    break;
                };
                self.start(index);
                reporter.report(&Event::TestStarted { index, test });
                running.push(run_one(index, test, options));
            }
            tokio::select! {
                Some((index, result, last)) = running.next() => {
                    self.active.retain(|&i| i != index);
                    if let Some(teardown) = last {
                        stopping.push(teardown.finish());
                    }
                    let test = &tests[index];
                    reporter.report(&Event::TestFinished { index, test, result: &result });
                    self.results[index] = Some(result);
                }
                Some(()) = stopping.next() => {}
                _ = tick.tick(), if self.idle_cpu.is_some() && pending.len() > 0 => {
                    self.adapt(running.len());
                }
                else => break,
            }
        }
        let results = self.results.into_iter().flatten().collect();
        (results, self.accompanied)
    }
}

/// Replays the tests one at a time, in file order, up to the last test that
/// failed beside others: the earlier tests rebuild the state it was written
/// for (see [`interference`]).
async fn replay(
    tests: &[SuiteTest],
    options: &RunOptions,
    mut results: Vec<TestResult>,
    accompanied: &[bool],
    reporter: &mut dyn Reporter,
) -> Vec<TestResult> {
    let failed: Vec<bool> = results
        .iter()
        .zip(accompanied)
        .map(|(result, &beside)| beside && result.status() == Status::Fail)
        .collect();
    let Some(last) = failed.iter().rposition(|&f| f) else {
        return results;
    };
    reporter.report(&Event::ReplayStarted {
        failed: failed.iter().filter(|&&f| f).count(),
        up_to: last + 1,
    });
    for (index, test) in tests.iter().enumerate().take(last + 1) {
        let (_, alone, teardown) = run_one(index, test, options).await;
        if let Some(teardown) = teardown {
            teardown.finish().await;
        }
        let result = interference::judge(results[index].clone(), alone);
        reporter.report(&Event::ReplayFinished {
            index,
            test,
            result: &result,
            failed_beside: failed[index],
        });
        results[index] = result;
    }
    results
}

/// Runs one test as many times as the run's trials; its result, and the
/// last trial's server still to stop.
pub(super) async fn run_one(
    index: usize,
    test: &SuiteTest,
    options: &RunOptions,
) -> (usize, TestResult, Option<Teardown>) {
    // Suite test futures are not `Send`, so they share the runner's task;
    // the work is waiting on servers, and the runtime's threads serve the
    // I/O.
    let mut runs = Vec::with_capacity(options.trial_count() as usize);
    // Only the last trial's server is left to stop beside other tests: an
    // earlier one is stopped before the next trial starts, so a test holds
    // one server at a time however many trials it has.
    let mut last: Option<Teardown> = None;
    for _ in 0..options.trial_count() {
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
