//! `mcptest lint-security`: the security rules of the library's lint
//! (`MCPT-L001`..`MCPT-L009`, `E112`, `E113`) alone, findings on the
//! terminal, the usual report files and SARIF.

use mcptest::{
    report::Status,
    scan::{
        lint::{Family, Lint},
        sarif::SarifLog,
    },
};

use crate::{
    Exit,
    args::LintSecurityArgs,
    output::{self, Palette},
};

pub fn lint_security(args: LintSecurityArgs) -> Exit {
    let server = match args.target.server(&args.auth) {
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
    let anchor = match crate::sarif::anchor(&args.sarif, None) {
        Ok(anchor) => anchor,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    // One listing serves the report and the SARIF log, whose results name
    // the items the findings' pointers index. A server that cannot be
    // listed, or lists nothing, is a report that says why, and no log.
    let (report, sarif) = match runtime.block_on(Lint::new(server).only(Family::Security).lint()) {
        Ok(linted) => {
            let sarif = args
                .sarif
                .sarif
                .is_some()
                .then(|| SarifLog::lint_security(&linted.findings, &linted.definitions));
            (linted.report(), sarif)
        }
        Err(report) => (report, None),
    };
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
    match sarif {
        Some(log) => crate::sarif::write(&args.sarif, log, anchor),
        None if args.sarif.sarif.is_some() => {
            eprintln!("mcptest: no SARIF log written: nothing was linted");
        }
        None => {}
    }
    if report.passed() {
        Exit::Pass
    } else {
        Exit::Failures
    }
}
