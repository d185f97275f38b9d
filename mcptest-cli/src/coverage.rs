//! `mcptest coverage`: the tools, prompts and resources a server lists that
//! no suite file exercises, and whether the share exercised reaches `--min`.

use mcptest::{
    report::{Outcome, Status, TestResult},
    suite::coverage::Coverage,
};

use crate::{Exit, args::CoverageArgs, output, paths};

pub fn coverage(args: CoverageArgs) -> Exit {
    let suite = match paths::load_suite(&args.paths) {
        Ok(suite) => suite,
        Err(exit) => return exit,
    };
    let server = match args.target.server(&args.auth) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let server = match args.timeout {
        Some(timeout) => server.timeout(timeout),
        None => server,
    };
    let runtime = match crate::runtime(1) {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    let exercised = suite.exercised();
    let measured = runtime.block_on(async {
        let mcp = server.connect().await?;
        let coverage = Coverage::measure(&mcp, &exercised).await;
        mcp.close().await;
        coverage
    });
    let coverage = match measured {
        Ok(coverage) => coverage,
        Err(e) => {
            eprintln!("mcptest: cannot list what the server offers: {e}");
            return Exit::Usage;
        }
    };
    for result in &coverage.report.results {
        let group = result.group.as_deref().unwrap_or_default();
        match result.status() {
            Status::Pass => println!(
                "covered    {group}: {}  ({})",
                result.name,
                result.property_value("exercised_by").unwrap_or_default()
            ),
            _ => println!("UNCOVERED  {group}: {}", result.name),
        }
    }
    for (kind, name) in &coverage.not_listed {
        println!("not listed: the files exercise {kind} `{name}`, which the server does not list");
    }
    println!("{}", coverage.summary());
    // The threshold is a result of its own, so that every report (JUnit,
    // JSON, Markdown, the badge) fails when the command does.
    let percent = coverage.percent();
    let threshold = match (percent, args.min) {
        (None, _) => Some(Outcome::error(
            "tools, prompts or resources listed by the server, to measure coverage",
            "it lists none, so nothing was measured",
        )),
        (Some(percent), Some(min)) if percent < min => Some(Outcome::error(
            format!("at least {min}% of what the server lists exercised by the files (--min)"),
            format!("{percent:.1}% is"),
        )),
        (Some(_), Some(_)) => Some(Outcome::Pass),
        (Some(_), None) => None,
    };
    let mut report = coverage.report.clone();
    let failed = threshold.as_ref().is_some_and(|o| o.failure().is_some());
    if let Some(outcome) = threshold {
        let name = match args.min {
            Some(min) => format!("coverage of at least {min}%"),
            None => "something to cover".to_owned(),
        };
        report.push(TestResult::new(name, outcome).group("coverage"));
    }
    output::write_reports(&report, &args.reports);
    if percent.is_none() {
        // Nothing listed: nothing was measured, which never passes.
        return Exit::Failures;
    }
    if failed {
        if let (Some(percent), Some(min)) = (percent, args.min) {
            println!("coverage {percent:.1}% is under --min {min}%");
        }
        return Exit::Failures;
    }
    Exit::Pass
}
