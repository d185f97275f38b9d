//! `mcptest fuzz`: the library's fuzz run against a server, failures only
//! on the terminal (a run has hundreds of cases), and the usual reports.

use mcptest::{
    report::Status,
    scan::audit::{Classification, Score},
    scan::fuzz::Fuzz,
};

use crate::{
    Exit,
    args::FuzzArgs,
    output::{self, Palette},
};

pub fn fuzz(args: FuzzArgs) -> Exit {
    if args.write_tests.is_some() && args.server.is_none() {
        eprintln!(
            "mcptest: --write-tests needs --server CMD (the tests start the server themselves)"
        );
        return Exit::Usage;
    }
    let server = match crate::audit::target(args.server.as_deref(), args.url.as_deref()) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let mut fuzz = Fuzz::new(server)
        .tools(args.tool.iter().cloned())
        .include_destructive(args.include_destructive);
    if let Some(seed) = args.seed {
        fuzz = fuzz.seed(seed);
    }
    if let Some(count) = args.mutations {
        fuzz = fuzz.mutations(count);
    }
    if let Some(timeout) = args.timeout {
        fuzz = fuzz.timeout(timeout);
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
    output::write_reports(&report, &args.reports);
    if let Some(path) = &args.write_tests {
        // `--server` is there: checked above.
        let server = args.server.as_deref().unwrap_or_default();
        match mcptest::scan::fuzz::regression_tests(&report, server) {
            Some(text) => match std::fs::write(path, text) {
                Ok(()) => println!("wrote the failing cases as tests to {}", path.display()),
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
