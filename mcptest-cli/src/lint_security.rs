//! `mcptest lint-security`: the library's security lint of a server's
//! definitions, findings on the terminal, the usual report files and SARIF.

use std::time::Instant;

use mcptest::{
    Server,
    report::{Report, Status},
    scan::{
        lint::{self, Lint, check},
        sarif::SarifLog,
        surface::definitions,
    },
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
    let anchor = match crate::sarif::anchor(&args.sarif, None) {
        Ok(anchor) => anchor,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let (report, sarif) = runtime.block_on(lint(server, args.sarif.sarif.is_some()));
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
    output::write_reports(&report, &args.reports, "");
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

/// The lint's report, and with `sarif` its SARIF log: the definitions are
/// listed once and linted, so that each finding's pointer can be named.
/// A server that cannot be listed, or lists nothing, is the library's
/// [`Lint`] report (which says why) and no log.
async fn lint(server: Server, sarif: bool) -> (Report, Option<SarifLog>) {
    if sarif {
        let started = Instant::now();
        if let Ok(defs) = definitions(&server).await
            && !defs.is_empty()
        {
            let findings = check(&defs);
            let title = format!("security lint of {server}");
            let report = lint::report(title, &findings).with_duration(started.elapsed());
            return (report, Some(SarifLog::lint_security(&findings, &defs)));
        }
    }
    (Lint::new(server).run().await, None)
}
