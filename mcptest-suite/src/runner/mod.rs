//! The one runner of suite tests: `mcptest run`, [`Suite::run`](crate::Suite::run)
//! and the tests `suite!` generates all run through it, so they reach the
//! same verdicts and the same report for the same [`RunOptions`].
//!
//! A run ([`run`]) picks its shard of the tests ([`RunOptions::partition`]),
//! runs them beside each other (up to [`RunOptions::jobs`], more while
//! cores sit idle; each test against a fresh server and fixture copy; a
//! finished test's server stops beside the next test), each as many times
//! as [`RunOptions::trials`] says; then, unless the run is
//! [`independent`](RunOptions::independent), it replays the tests up to the
//! last one that failed beside others one at a time, in file order (see
//! [`INTERFERED`]). It tells what happens as [`Event`]s to a [`Reporter`]
//! and returns the [`Report`]; the runner itself prints nothing. The report
//! files CI reads ([`ReportFiles`]) and the baseline ([`Baseline`]) are
//! here too; the terminal lines are the command's.
//!
//! `suite!`'s tests, run by `cargo test` on threads or by `cargo nextest`
//! a process each, run one at a time per suite through [`Turns`], unless
//! the suite says they are `independent`.
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcptest::suite::LoadError> {
//! use mcptest::{Server, suite::{RunOptions, Suite, runner::{self, Event}}};
//!
//! let suite = Suite::load("tests/evals")?;
//! let options = RunOptions::new().server(Server::command("my-mcp-server --stdio"));
//! let mut lines = |event: &Event<'_>| {
//!     if let Event::TestFinished { result, .. } = event {
//!         println!("{}", result.line());
//!     }
//! };
//! let report = runner::run("suite tests/evals", suite.tests(), &options, &mut lines).await;
//! report.assert_passed();
//! # Ok(()) }
//! ```

mod baseline;
mod events;
mod idle_cpu;
mod interference;
mod reports;
mod schedule;
mod trials;
mod turns;

use std::time::Instant;

use mcptest_core::report::Report;

pub use baseline::{Baseline, Comparison};
pub use events::{Event, Reporter};
pub use interference::{INTERFERED, summary as interference_summary};
pub use reports::{ReportFiles, annotations, markdown};
pub use turns::{HOLD_LIMIT, Turn, Turns};

use crate::{options::RunOptions, suite_test::SuiteTest};

/// Runs `tests` as `options` say, telling `reporter` what happens; the
/// report is titled `title`, with the partition and the trials' rates
/// added (`mcptest run tests/evals (partition hash:1/4: 3 of 12 tests)`).
/// Every server is stopped and every fixture copy removed (or kept, for a
/// failed test) before it returns.
pub async fn run(
    title: impl Into<String>,
    tests: &[SuiteTest],
    options: &RunOptions,
    reporter: &mut dyn Reporter,
) -> Report {
    let started = Instant::now();
    let mut title = title.into();
    let selected = match &options.partition {
        Some(partition) => {
            let selected = partition.select(tests);
            title.push_str(&format!(
                " (partition {partition}: {} of {} tests)",
                selected.len(),
                tests.len()
            ));
            selected
        }
        None => tests.to_vec(),
    };
    reporter.report(&Event::RunStarted {
        title: &title,
        tests: &selected,
        loaded: tests.len(),
    });
    let results = if selected.is_empty() {
        Vec::new()
    } else {
        schedule::run_all(&selected, options, reporter).await
    };
    let mut report = Report::new(title).with_duration(started.elapsed());
    for result in results {
        report.push(result);
    }
    report
        .title
        .push_str(&trials::title_suffix(&report, options.trial_count()));
    reporter.report(&Event::RunFinished { report: &report });
    report
}
