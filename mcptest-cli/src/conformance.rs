//! `mcptest conformance`: the library's conformance checks against a
//! server, or against a client (`--client`, `--client-http`), as a table
//! and as reports, with a list of known failures that cannot go stale.

use std::path::Path;

use mcptest::conformance::{ClientConformance, ClientRegistration, Conformance, ConformanceReport};

use crate::{Exit, args::ConformanceArgs, output};

/// The revisions before 2026-07-28, whose checks start with `initialize`.
const CLASSIC_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

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
    if args.protected && args.client_http.is_none() {
        eprintln!(
            "mcptest: --protected is for a client checked with --client-http (over stdio no \
             header carries a token)"
        );
        return Exit::Usage;
    }
    if args.client.is_some() || args.client_http.is_some() {
        return client(&args, expected);
    }
    let mut server = match args.target.server(&args.auth) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    // The revision chooses the checks: the classic ones handshake with
    // `initialize`, the 2026-07-28 ones go through `server/discover`.
    let revision_except: &[&str] = match args.protocol.as_deref() {
        None => &[],
        Some(v) if v == mcptest::STATELESS_PROTOCOL_VERSION => &["classic-*"],
        Some(v) if CLASSIC_VERSIONS.contains(&v) => &["sep-*", "mcp-*"],
        Some(other) => {
            eprintln!(
                "mcptest: --protocol {other:?} is no revision mcptest checks; use one of {}, {}",
                CLASSIC_VERSIONS.join(", "),
                mcptest::STATELESS_PROTOCOL_VERSION
            );
            return Exit::Usage;
        }
    };
    if let Some(version) = &args.protocol {
        server = server.protocol_version(version.as_str());
    }
    let mut checks = Conformance::new(server)
        .expected_failures(expected)
        .except(revision_except.iter().copied());
    if let Some(timeout) = args.timeout {
        checks = checks.timeout(timeout);
    }
    if !args.only.is_empty() {
        checks = checks.only(args.only.iter().cloned());
    }
    finish(&args, checks.run())
}

/// `--client CMD` / `--client-http CMD`: the client under test against the
/// recording mock server, judged by the client checks.
fn client(args: &ConformanceArgs, expected: Vec<String>) -> Exit {
    if args.auth.given() || args.protocol.is_some() {
        eprintln!(
            "mcptest: --header, --bearer-env, --client-id and --protocol are for a server; \
             a client is judged against the mock server"
        );
        return Exit::Usage;
    }
    let (mut checks, flag, command) = match (&args.client, &args.client_http) {
        (Some(command), _) => (ClientConformance::stdio(), "--client", command),
        (None, Some(command)) => (
            ClientConformance::http()
                .authorization(args.protected)
                .registration(registration(args)),
            "--client-http",
            command,
        ),
        (None, None) => unreachable!("called for a client only"),
    };
    if let Err(e) = crate::connect::check_command(flag, "client", command) {
        eprintln!("mcptest: {e}");
        return Exit::Usage;
    }
    checks = checks.expected_failures(expected);
    if let Some(limit) = args.timeout {
        checks = checks.session_limit(limit);
    }
    if !args.only.is_empty() {
        checks = checks.only(args.only.iter().cloned());
    }
    finish(args, checks.run_command(command))
}

/// How the protected mock lets the client register: pre-registered, by a
/// Client ID Metadata Document, or (by default) dynamically.
fn registration(args: &ConformanceArgs) -> ClientRegistration {
    match (
        &args.pre_registered_client_id,
        args.client_metadata_document,
    ) {
        (Some(id), _) => {
            let registration = ClientRegistration::pre_registered(id.as_str());
            match &args.pre_registered_client_secret {
                Some(secret) => registration.with_secret(secret.as_str()),
                None => registration,
            }
        }
        (None, true) => ClientRegistration::MetadataDocument,
        (None, false) => ClientRegistration::Dynamic,
    }
}

/// Runs the checks, prints the table, writes the reports, says the verdict.
fn finish(
    args: &ConformanceArgs,
    run: impl Future<Output = Result<ConformanceReport, mcptest::Error>>,
) -> Exit {
    let runtime = match crate::runtime(2) {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    let report = match runtime.block_on(run) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("mcptest: the conformance run could not start: {e}");
            return Exit::Usage;
        }
    };
    match args.verbose {
        true => println!("{}", report.full_table()),
        false => println!("{report}"),
    }
    output::write_reports(&report.to_report(), &args.reports);
    verdict(&report)
}

/// The library has applied the expected failures: a listed failure is a
/// warning, a listed check that passes is a failure. Nothing checked at all
/// is a failure too.
fn verdict(report: &ConformanceReport) -> Exit {
    for result in report.results.iter().filter(|r| r.expected_failure) {
        println!("known failure: {}", result.rule.id);
    }
    let mut exit = match report.conforms() {
        true => Exit::Pass,
        false => Exit::Failures,
    };
    let counts = report.counts();
    if counts.passed + counts.warned + counts.failed == 0 {
        println!("nothing was checked: every check was skipped");
        exit = Exit::Failures;
    }
    exit
}

/// A YAML list of check ids (the library rejects ids that are no check).
fn load_expected(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    serde_saphyr::from_str(&text)
        .map_err(|e| format!("{}: expected a YAML list of check ids: {e}", path.display()))
}
