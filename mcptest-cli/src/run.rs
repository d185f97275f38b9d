//! `mcptest run`: the suite runner of the library wired to the terminal
//! and to the report files. The arguments become run options; the runner
//! runs the tests (in parallel, the replay, the partition, the trials) and
//! tells the terminal reporter as they end; then come the summary, the
//! report files, the baseline and the exit status.

use mcptest::{
    report::Report,
    suite::{
        RunOptions,
        runner::{self, Baseline, Event, Reporter},
    },
};

use crate::{
    Exit,
    args::RunArgs,
    output::{self, Palette},
    suite_args::plural,
    terminal::{Out, Terminal},
};

pub fn run(args: RunArgs) -> Exit {
    let tests = match args.suite.load() {
        Ok(tests) => tests,
        Err(exit) => return exit,
    };
    let baseline = match args.baseline.as_deref().map(Baseline::load).transpose() {
        Ok(baseline) => baseline,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let options = match args.suite.options() {
        Ok(options) => run_options(options, &args),
        Err(exit) => return exit,
    };
    let runtime = match args.suite.runtime() {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    // A bare --json puts the JSON report on stdout: everything else goes
    // to stderr, so the JSON can be piped.
    let out = if args.reports.json_on_stdout() {
        Out::Stderr
    } else {
        Out::Stdout
    };
    let palette = Palette::new(crate::color() && out == Out::Stdout);
    let mut terminal = Terminal::new(out, &palette, args.suite.server.as_deref());
    let title = format!("mcptest run {}", args.suite.all_paths().join(" "));
    let report = runtime.block_on(runner::run(
        title,
        &tests,
        &options,
        &mut |event: &Event<'_>| terminal.report(event),
    ));
    if report.results.is_empty() {
        // A shard may be empty (more shards than tests): that is no failure.
        out.say(&format!(
            "{}: this shard holds none of the {} tests; nothing to run",
            report.title,
            tests.len()
        ));
        output::write_reports(&report, &args.reports);
        return Exit::Pass;
    }
    terminal.summary(&report);
    output::write_reports(&report, &args.reports);
    if let Some(path) = &args.save_baseline
        && let Err(e) = Baseline::of(&report).save(path)
    {
        eprintln!("mcptest: {e}");
    }
    let verdict = verdict(&report, args.threshold, out);
    match baseline {
        Some(baseline) => compare(&baseline, &report, verdict, out),
        None => verdict,
    }
}

/// The suite arguments' options with the run's own: `--shared`,
/// `--independent`, `--trials`, `--partition`.
fn run_options(options: RunOptions, args: &RunArgs) -> RunOptions {
    let options = options
        .shared(args.shared)
        .independent(args.independent)
        .trials(args.trials);
    match args.partition {
        Some(partition) => options.partition(partition),
        None => options,
    }
}

/// The run's exit status without a baseline: every test passed, or with
/// `--threshold`, at least that share of the tests that ran (skips left
/// out), as mcp-assert's `ci` counts it.
fn verdict(report: &Report, threshold: Option<u8>, out: Out) -> Exit {
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

/// The run against `--baseline`: each regression, fix and missing test,
/// the counts, and the exit status (3 on a regression; known failures do
/// not fail the run).
fn compare(baseline: &Baseline, report: &Report, verdict: Exit, out: Out) -> Exit {
    let comparison = baseline.compare(report);
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
