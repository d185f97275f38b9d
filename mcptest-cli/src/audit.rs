//! `mcptest audit`: the library's audit of every tool of a server, as lines
//! on the terminal, a score, the usual report files and SARIF.

use mcptest::{
    report::Status,
    scan::audit::{Audit, Classification, Score},
    scan::sarif::SarifLog,
};

use crate::{
    Exit,
    args::AuditArgs,
    output::{self, Palette},
};

pub fn audit(args: AuditArgs) -> Exit {
    let server = match args.target.server(&args.auth) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let anchor = match crate::sarif::anchor(&args.sarif, None) {
        Ok(anchor) => anchor,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let mut audit = Audit::new(server)
        .include_destructive(args.include_destructive)
        .skip(args.skip.iter().cloned());
    if let Some(timeout) = args.timeout {
        audit = audit.timeout(timeout);
    }
    let runtime = match crate::runtime(2) {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    let report = runtime.block_on(audit.run());
    let palette = Palette::new(crate::color());
    for result in &report.results {
        match Classification::of(result) {
            Some(class) if result.status() == Status::Fail => {
                println!("{}  [{class}]", palette.line(result));
            }
            _ => println!("{}", palette.line(result)),
        }
    }
    print!("{}", output::summary(&report, &palette));
    println!("score: {}", Score::of(&report));
    output::write_reports(&report, &args.reports);
    crate::sarif::write(&args.sarif, SarifLog::audit(&report), anchor);
    if report.passed() {
        Exit::Pass
    } else {
        Exit::Failures
    }
}
