//! What a run tells its reporters, in the order it happens: the run starts,
//! each test starts and finishes, the tests that failed beside others are
//! replayed one at a time, the run finishes with its report. A reporter
//! (the command's terminal lines, the report files, a closure in a test)
//! reads the events; the runner never prints.

use mcptest_core::report::{Report, TestResult};

use crate::suite_test::SuiteTest;

/// One thing that happened in a run (see [`run`](super::run)).
///
/// ```
/// use mcptest::suite::runner::Event;
///
/// fn line(event: &Event<'_>) -> Option<String> {
///     match event {
///         Event::TestFinished { result, .. } => Some(result.line()),
///         Event::RunFinished { report } => Some(report.title.clone()),
///         _ => None,
///     }
/// }
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<'a> {
    /// Before any test: the run's title (with its partition, if any), the
    /// tests it runs, and how many were given before the partition chose.
    RunStarted {
        /// The report's title so far (the trials' rates are added at the end).
        title: &'a str,
        /// The tests that run, in file order.
        tests: &'a [SuiteTest],
        /// How many tests were given (more than `tests` under a partition).
        loaded: usize,
    },
    /// A test started (beside others, up to the run's number of jobs).
    TestStarted {
        /// Its place in `tests` of [`Event::RunStarted`].
        index: usize,
        /// The test.
        test: &'a SuiteTest,
    },
    /// A test reached its verdict (all its trials); its server may still be
    /// stopping beside the next test.
    TestFinished {
        /// Its place in `tests` of [`Event::RunStarted`].
        index: usize,
        /// The test.
        test: &'a SuiteTest,
        /// Its result.
        result: &'a TestResult,
    },
    /// Tests failed while others ran: the tests up to the last of them are
    /// replayed one at a time, in file order, to tell interference (a server
    /// whose processes share state) from a real failure.
    ReplayStarted {
        /// How many tests failed beside others.
        failed: usize,
        /// The replay runs tests 1 to `up_to`, in file order.
        up_to: usize,
    },
    /// A test ran again alone; `result` is its verdict now (see
    /// [`INTERFERED`](super::INTERFERED) for how the two runs combine).
    ReplayFinished {
        /// Its place in `tests` of [`Event::RunStarted`].
        index: usize,
        /// The test.
        test: &'a SuiteTest,
        /// The verdict of both runs.
        result: &'a TestResult,
        /// Whether it failed beside other tests.
        failed_beside: bool,
    },
    /// The run is over: every server stopped, every fixture copy removed
    /// or kept.
    RunFinished {
        /// The run's report (title with trials' rates, results in file order).
        report: &'a Report,
    },
}

/// What reads a run's events: the command's terminal, the report files,
/// any closure.
///
/// ```
/// use mcptest::suite::runner::{Event, Reporter};
///
/// let mut finished = 0;
/// let mut count = |event: &Event<'_>| {
///     if let Event::TestFinished { .. } = event {
///         finished += 1;
///     }
/// };
/// let reporter: &mut dyn Reporter = &mut count;
/// # let _ = reporter;
/// ```
pub trait Reporter {
    /// Called for each event, in order, on the run's task.
    fn report(&mut self, event: &Event<'_>);
}

impl<F: FnMut(&Event<'_>)> Reporter for F {
    fn report(&mut self, event: &Event<'_>) {
        self(event);
    }
}
