//! `mcptest coverage`: the tools, prompts and resources a server lists that
//! no suite file exercises, and whether the share exercised reaches `--min`.

use mcptest::{report::Status, suite::coverage::Coverage};

use crate::{Exit, args::CoverageArgs, output, paths};

pub fn coverage(args: CoverageArgs) -> Exit {
    let suite = match paths::load_suite(&args.paths) {
        Ok(suite) => suite,
        Err(exit) => return exit,
    };
    let server = match crate::audit::target(args.server.as_deref(), args.url.as_deref()) {
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
    output::write_reports(&coverage.report, &args.reports, "");
    let Some(percent) = coverage.percent() else {
        // Nothing listed: nothing was measured, which never passes.
        return Exit::Failures;
    };
    match args.min {
        Some(min) if percent < min => {
            println!("coverage {percent:.1}% is under --min {min}%");
            Exit::Failures
        }
        _ => Exit::Pass,
    }
}
