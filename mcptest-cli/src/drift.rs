//! `mcptest drift OLD NEW`: the library's drift between two surfaces, each
//! a stored snapshot or listing, a URL or a server command line; the
//! changes on the terminal, the usual reports, SARIF, and an exit status by
//! the worst change.

use std::{path::Path, time::Instant};

use mcptest::{
    Server,
    scan::{
        drift::{self, Impact},
        sarif::SarifLog,
        surface::Surface,
    },
};

use crate::{
    Exit,
    args::DriftArgs,
    connect::AuthArgs,
    output::{self, Palette},
};

/// Where one side of the drift comes from.
enum Side {
    File(String),
    /// Boxed: a server's settings are many times a path's size.
    Server(Box<Server>),
}

impl Side {
    /// A file that exists, else a URL (`sse:URL` for the legacy HTTP+SSE
    /// transport), authorized as `auth` says, else a command line (checked
    /// to name a program that exists, so that a mistyped path is not run).
    fn parse(text: &str, auth: &AuthArgs) -> Result<Side, String> {
        if Path::new(text).is_file() {
            return Ok(Side::File(text.to_owned()));
        }
        let (url, sse) = match text.strip_prefix("sse:") {
            Some(url) => (None, Some(url)),
            None if text.starts_with("http://") || text.starts_with("https://") => {
                (Some(text), None)
            }
            None => (None, None),
        };
        if url.is_some() || sse.is_some() {
            return crate::connect::target(None, url, sse, auth)
                .map(|server| Side::Server(Box::new(server)));
        }
        crate::connect::check_server(text).map_err(|e| {
            format!("{text:?} is neither a file nor a URL, and as a command line: {e}")
        })?;
        Ok(Side::Server(Box::new(Server::command(text))))
    }

    /// Whether this side is a server reached at a URL (what the
    /// credentials flags are for).
    fn at_url(&self) -> bool {
        matches!(self, Side::Server(server) if !server.is_process())
    }

    fn file(&self) -> Option<&str> {
        match self {
            Side::File(path) => Some(path),
            Side::Server(_) => None,
        }
    }

    async fn surface(self, args: &DriftArgs) -> Result<Surface, String> {
        match self {
            Side::File(path) => Surface::load(&path).map_err(|e| e.to_string()),
            Side::Server(server) => {
                let mut server = *server;
                if let Some(timeout) = args.timeout {
                    server = server.timeout(timeout);
                }
                Surface::list(&server)
                    .await
                    .map_err(|(method, e)| format!("{server}: {method} failed: {e}"))
            }
        }
    }
}

pub fn drift(args: DriftArgs) -> Exit {
    let sides = Side::parse(&args.old, &args.auth)
        .and_then(|old| Ok((old, Side::parse(&args.new, &args.auth)?)));
    let (old, new) = match sides {
        Ok(sides) => sides,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    if args.auth.given() && !old.at_url() && !new.at_url() {
        eprintln!(
            "mcptest: the credentials flags are for a side reached at a URL; neither {:?} nor {:?} is one",
            args.old, args.new
        );
        return Exit::Usage;
    }
    let anchor = match crate::sarif::anchor(&args.sarif, new.file().or(old.file())) {
        Ok(anchor) => anchor,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let runtime = match crate::runtime(2) {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    let started = Instant::now();
    let surfaces = runtime.block_on(async {
        let old = old.surface(&args).await?;
        Ok::<_, String>((old, new.surface(&args).await?))
    });
    let (old, new) = match surfaces {
        Ok(surfaces) => surfaces,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let fail_on = args.fail_on.unwrap_or(Impact::Degrading);
    let changes = drift::diff(&old, &new);
    let title = format!("drift from {} to {}", args.old, args.new);
    let report = drift::report(title, &changes, fail_on).with_duration(started.elapsed());
    let palette = Palette::new(crate::color());
    for result in &report.results {
        println!("{}", palette.line(result));
    }
    print!("{}", output::summary(&report, &palette));
    let count = |impact: Impact| changes.iter().filter(|c| c.impact() == impact).count();
    println!(
        "{} change{}: {} breaking, {} degrading, {} compatible",
        changes.len(),
        if changes.len() == 1 { "" } else { "s" },
        count(Impact::Breaking),
        count(Impact::Degrading),
        count(Impact::Compatible)
    );
    output::write_reports(&report, &args.reports);
    crate::sarif::write(&args.sarif, SarifLog::drift(&changes), anchor);
    match drift::worst(&changes) {
        Some(worst) if worst < fail_on => Exit::Pass,
        Some(Impact::Breaking) => Exit::Failures,
        Some(Impact::Degrading) => Exit::Degraded,
        _ => Exit::Pass,
    }
}
