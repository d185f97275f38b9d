//! `mcptest conformance`: the library's conformance checks against a
//! server, as a table and as reports, with a list of known failures that
//! cannot go stale.

use std::{collections::BTreeSet, path::Path};

use mcptest::{
    Server,
    conformance::{Conformance, ConformanceReport, catalogue},
    report::Status,
};

use crate::{Exit, args::ConformanceArgs, output};

pub fn conformance(args: ConformanceArgs) -> Exit {
    let expected = match args
        .expected_failures
        .as_deref()
        .map(load_expected)
        .transpose()
    {
        Ok(expected) => expected.unwrap_or_default(),
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let mut server = match (&args.server, &args.url) {
        (Some(command), _) => {
            if let Err(e) = crate::run::check_server(command) {
                eprintln!("mcptest: {e}");
                return Exit::Usage;
            }
            Server::command(command)
        }
        (None, Some(url)) => Server::url(url.as_str()),
        (None, None) => unreachable!("clap requires --server or --url"),
    };
    if let Some(version) = &args.protocol {
        server = server.protocol_version(version.as_str());
    }
    let mut checks = Conformance::new(server);
    if let Some(timeout) = args.timeout {
        checks = checks.timeout(timeout);
    }
    if !args.only.is_empty() {
        checks = checks.only(args.only.iter().cloned());
    }
    let runtime = match crate::runtime(2) {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    let report = match runtime.block_on(checks.run()) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("mcptest: the conformance run could not start: {e}");
            return Exit::Usage;
        }
    };
    println!("{report}");
    output::write_reports(&report.to_report(), &args.reports, "");
    verdict(&report, &expected)
}

/// Fails on a failure that is not listed, and on a listed check that now
/// passes (the list must shrink with the fixes).
fn verdict(report: &ConformanceReport, expected: &BTreeSet<String>) -> Exit {
    let mut exit = Exit::Pass;
    for result in report.failures() {
        if expected.contains(result.rule.id) {
            println!("known failure: {}", result.rule.id);
        } else {
            exit = Exit::Failures;
        }
    }
    for id in expected {
        match report.verdict(id) {
            Some(Status::Pass | Status::Warn) => {
                println!(
                    "{id} is listed as an expected failure and now passes: remove it from the list"
                );
                exit = Exit::Failures;
            }
            Some(Status::Skip) | None | Some(Status::Fail) => {}
        }
    }
    let counts = report.counts();
    if counts.passed + counts.warned + counts.failed == 0 {
        println!("nothing was checked: every check was skipped");
        exit = Exit::Failures;
    }
    exit
}

/// A YAML list of check ids; an id that is no check is an error (a typo
/// would otherwise never fail).
fn load_expected(path: &Path) -> Result<BTreeSet<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let ids: Vec<String> = serde_saphyr::from_str(&text)
        .map_err(|e| format!("{}: expected a YAML list of check ids: {e}", path.display()))?;
    let mut set = BTreeSet::new();
    for id in ids {
        if !catalogue().iter().any(|rule| rule.id == id) {
            return Err(format!(
                "{}: {id:?} is not a conformance check id",
                path.display()
            ));
        }
        set.insert(id);
    }
    Ok(set)
}
