//! `mcptest lint-security`: the security rules of the library's lint
//! (`MCPT-L001`..`MCPT-L009`, `E112`, `E113`) alone, findings on the
//! terminal and the usual report files.

use mcptest::{
    report::Status,
    scan::lint::{Family, Lint},
};

use crate::{
    Exit,
    args::LintSecurityArgs,
    output::{self, Palette},
};

pub fn lint_security(args: LintSecurityArgs) -> Exit {
    let server = match crate::audit::target(args.server.as_deref(), args.url.as_deref()) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let runtime = match crate::runtime(2) {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    let report = runtime.block_on(Lint::new(server).only(Family::Security).run());
    let palette = Palette::new(crate::color());
    // Rules that found nothing are one PASS line each; findings follow in full.
    for result in &report.results {
        if result.status() == Status::Pass {
            println!("{}", palette.line(result));
        }
    }
    for result in &report.results {
        if result.status() != Status::Pass {
            println!("{}", palette.line(result));
        }
    }
    print!("{}", output::summary(&report, &palette));
    output::write_reports(&report, &args.reports);
    if report.passed() {
        Exit::Pass
    } else {
        Exit::Failures
    }
}
