//! `mcptest fuzz`: the library's fuzz run against a server, failures only
//! on the terminal (a run has hundreds of cases), and the usual reports.

use mcptest::{
    audit::{Classification, Score},
    fuzz::Fuzz,
    report::Status,
};

use crate::{
    Exit,
    args::FuzzArgs,
    output::{self, Palette},
};

pub fn fuzz(args: FuzzArgs) -> Exit {
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
    output::write_reports(&report, &args.reports, "");
    if report.passed() {
        Exit::Pass
    } else {
        Exit::Failures
    }
}
