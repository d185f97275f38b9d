//! `mcptest fuzz`: the library's fuzz run against a server, failures only
//! on the terminal (a run has hundreds of cases), the usual reports, and
//! the failing cases written out as tests (`--write-tests`, `--write-suite`).

use mcptest::{
    report::Status,
    scan::audit::{Classification, Score},
    scan::fuzz::{DEFAULT_SEED, Fuzz, regression_suite, regression_tests},
};

use crate::{
    Exit,
    args::FuzzArgs,
    output::{self, Palette},
};

pub fn fuzz(args: FuzzArgs) -> Exit {
    if args.write_tests.is_some() && args.target.server.is_none() {
        eprintln!(
            "mcptest: --write-tests needs --server CMD (the tests start the server themselves)"
        );
        return Exit::Usage;
    }
    let server = match args.target.server(&args.auth) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let mut fuzz = Fuzz::new(server)
        .tools(args.tool.iter().cloned())
        .include_destructive(args.include_destructive);
    let seed = args.seed.unwrap_or(DEFAULT_SEED);
    fuzz = fuzz.seed(seed);
    if let Some(count) = args.mutations {
        fuzz = fuzz.mutations(count);
    }
    if let Some(timeout) = args.timeout {
        fuzz = fuzz.timeout(timeout);
    }
    if let Some(calls) = args.shrink_calls {
        fuzz = fuzz.shrink(calls, mcptest::scan::fuzz::DEFAULT_SHRINK_TIME);
    }
    let runtime = match crate::runtime(2) {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    let report = runtime.block_on(fuzz.run());
    let palette = Palette::new(crate::color());
    for result in &report.results {
        match (result.status(), Classification::of(result)) {
            (Status::Pass, _) => {}
            (Status::Fail, Some(class)) => println!("{}  [{class}]", palette.line(result)),
            _ => println!("{}", palette.line(result)),
        }
    }
    print!("{}", output::summary(&report, &palette));
    let score = Score::of(&report);
    println!(
        "{} of {} cases survived",
        score.healthy,
        score.healthy + score.unhealthy
    );
    if !report.passed() {
        println!("seed {seed}: `--seed {seed}` with the same --mutations reproduces this run");
    }
    output::write_reports(&report, &args.reports);
    // `--write-tests` has `--server` (checked above); a suite file names
    // the server in its header only.
    let server = (args.target.server.clone())
        .or(args.target.url.clone())
        .or(args.target.sse.clone())
        .unwrap_or_default();
    let written = [
        (
            &args.write_tests,
            "tests",
            regression_tests(&report, server.as_str()),
        ),
        (
            &args.write_suite,
            "cases of a suite file",
            regression_suite(&report, server.as_str()),
        ),
    ];
    for (path, what, text) in written {
        let Some(path) = path else { continue };
        match text {
            Some(text) => match std::fs::write(path, text) {
                Ok(()) => println!("wrote the failing cases as {what} to {}", path.display()),
                Err(e) => {
                    eprintln!("mcptest: cannot write {}: {e}", path.display());
                    return Exit::Usage;
                }
            },
            None => println!("no failing call to replay: {} not written", path.display()),
        }
    }
    if report.passed() {
        Exit::Pass
    } else {
        Exit::Failures
    }
}
