//! `mcptest lint`: the library's lint of a server's definitions (agent
//! usability and security rules) with mcp-assert's command line: findings
//! and token costs on the terminal, suggested fixes with `--fix`, the
//! usual report files and SARIF.

use std::io::Write;

use mcptest::{
    Server,
    report::Status,
    scan::{
        lint::{Lint, Linted, fixes},
        sarif::SarifLog,
    },
};

use crate::{
    Exit,
    args::LintArgs,
    output::{self, Palette},
};

pub fn lint(args: LintArgs) -> Exit {
    if !args.paths.is_empty() {
        eprintln!(
            "mcptest: `mcptest lint` lints a server's definitions (give it --server); \
             to check suite files such as {}, use `mcptest validate`",
            args.paths[0]
        );
        return Exit::Usage;
    }
    let lint = match configure(&args) {
        Ok(lint) => lint,
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
    let runtime = match crate::runtime(2) {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    let palette = Palette::new(crate::color() && !args.reports.json_on_stdout());
    // With the JSON report on stdout, everything else goes to stderr.
    let mut out: Box<dyn Write> = if args.reports.json_on_stdout() {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout())
    };
    let linted = match runtime.block_on(lint.lint()) {
        Ok(linted) => linted,
        Err(report) => {
            for result in &report.results {
                let _ = writeln!(out, "{}", palette.line(result));
            }
            let _ = write!(out, "{}", output::summary(&report, &palette));
            output::write_reports(&report, &args.reports);
            if args.sarif.sarif.is_some() {
                eprintln!("mcptest: no SARIF log written: nothing was linted");
            }
            return Exit::Failures;
        }
    };
    let report = linted.report();
    // Quiet rules are one line each; findings and skips follow in full.
    for status in [Status::Pass, Status::Skip, Status::Warn, Status::Fail] {
        for result in report.results.iter().filter(|r| r.status() == status) {
            let _ = writeln!(out, "{}", palette.line(result));
        }
    }
    let _ = write!(out, "{}", output::summary(&report, &palette));
    let _ = write!(out, "{}", tokens(&linted));
    let mut json = linted.to_json();
    if args.fix {
        let fixes = fixes(&linted.definitions, &linted.findings);
        let _ = write!(out, "{}", fix_lines(&linted, &fixes));
        json["fixes"] = serde_json::Value::Array(
            fixes
                .iter()
                .map(|f| serde_json::to_value(f).unwrap_or_default())
                .collect(),
        );
    }
    // Every finding of the run, as --skip-rules and --strict left it.
    let sarif = SarifLog::lint(&linted.findings, &linted.definitions);
    crate::sarif::write_to(&args.sarif, sarif, anchor, &mut out);
    let _ = out.flush();
    output::write_reports_with_json(&report, &json, &args.reports);
    if args.fix || report.passed() {
        Exit::Pass
    } else {
        Exit::Failures
    }
}

/// The lint the arguments ask for, or what is wrong with them.
fn configure(args: &LintArgs) -> Result<Lint, String> {
    let server = target(args)?;
    let mut lint = Lint::new(server)
        .strict(args.strict)
        .call_tools(args.call_tools)
        .max_response_kb(args.max_response_kb)
        .detect_nondeterminism(args.detect_nondeterminism);
    let specs: Vec<&str> = args
        .skip_rules
        .iter()
        .flat_map(|s| s.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    lint = lint
        .skip_rules(specs)
        .map_err(|e| format!("--skip-rules: {e}"))?;
    if args.threshold > 0 {
        lint = lint.threshold(args.threshold);
    }
    if let Some(timeout) = args.timeout {
        lint = lint.timeout(timeout);
    }
    Ok(lint)
}

/// The server of `--server` (a command, or a URL with `--transport http`,
/// `--transport sse` or an http(s):// address) or `--url`, with
/// `--headers` and the credentials flags.
fn target(args: &LintArgs) -> Result<Server, String> {
    let transport = args.transport.as_deref().map(str::to_ascii_lowercase);
    let transport = match transport.as_deref() {
        None => None,
        Some("stdio") => Some(Reach::Stdio),
        Some("http" | "streamable-http") => Some(Reach::Http),
        Some("sse") => Some(Reach::Sse),
        Some(other) => {
            return Err(format!(
                "--transport {other:?} is not a transport; write stdio, http or sse"
            ));
        }
    };
    let (address, reach) = match (&args.server, &args.url) {
        (_, Some(url)) => match transport {
            None | Some(Reach::Http) => (url.as_str(), Reach::Http),
            Some(Reach::Sse) => (url.as_str(), Reach::Sse),
            Some(Reach::Stdio) => {
                return Err(
                    "--url is a server reached over HTTP; --transport can be http or sse".into(),
                );
            }
        },
        (Some(server), None) => {
            let reach = transport.unwrap_or(
                if server.starts_with("http://") || server.starts_with("https://") {
                    Reach::Http
                } else {
                    Reach::Stdio
                },
            );
            (server.as_str(), reach)
        }
        (None, None) => {
            return Err(
                "give the server with --server CMD (or --server URL --transport \
                        http|sse, or --url URL)"
                    .into(),
            );
        }
    };
    let headers = parse_headers(args.headers.as_deref().unwrap_or_default())?;
    let (url, sse) = match reach {
        Reach::Stdio => {
            if !headers.is_empty() {
                return Err(
                    "--headers are sent to HTTP servers; this one is a command (stdio)".into(),
                );
            }
            return crate::connect::target(Some(address), None, None, &args.auth);
        }
        Reach::Http => (Some(address), None),
        Reach::Sse => (None, Some(address)),
    };
    let mut server = crate::connect::target(None, url, sse, &args.auth)?;
    for (name, value) in headers {
        server = server.header(name, value);
    }
    Ok(server)
}

/// How `lint` reaches its server.
#[derive(Clone, Copy)]
enum Reach {
    Stdio,
    Http,
    Sse,
}

/// `Key=Value,Key2=Value2` as pairs.
fn parse_headers(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|pair| !pair.is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                Ok((name.trim().to_owned(), value.trim().to_owned()))
            }
            _ => Err(format!(
                "--headers: {pair:?} is not a header; write Name=Value, separated by commas"
            )),
        })
        .collect()
}

/// The token costs: the whole list and surface, then each tool, dearest
/// first.
fn tokens(linted: &Linted) -> String {
    let cost = &linted.tokens;
    let mut out = format!(
        "\ntokens ({}): tools/list {}, whole surface {}\n",
        cost.encoding, cost.tools_list, cost.surface
    );
    let mut tools: Vec<_> = cost.tools.iter().collect();
    tools.sort_by(|a, b| b.tokens.cmp(&a.tokens).then(a.pointer.cmp(&b.pointer)));
    for tool in tools {
        out.push_str(&format!(
            "  {:>6}  {}\n",
            tool.tokens,
            mcptest_core::__support::safe_text(&tool.tool)
        ));
    }
    out
}

fn fix_lines(linted: &Linted, fixes: &[mcptest::scan::lint::Fix]) -> String {
    let mut out = format!(
        "\nsuggested fixes: {} for {} findings (JSON Patch operations on the definitions document; read each before applying it)\n",
        fixes.len(),
        linted.findings.len()
    );
    for fix in fixes {
        out.push_str(&format!(
            "  {:<5} {} {} {}\n        {}\n",
            fix.rule.id,
            fix.op,
            fix.path,
            fix.value,
            mcptest_core::__support::safe_text(&fix.message)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::parse_headers;

    #[test]
    fn headers_are_pairs_and_a_bad_one_says_how_to_write_it() {
        assert_eq!(
            parse_headers("Authorization=Bearer a=b, X-Team=core").unwrap(),
            [
                ("Authorization".to_owned(), "Bearer a=b".to_owned()),
                ("X-Team".to_owned(), "core".to_owned())
            ]
        );
        assert_eq!(parse_headers("").unwrap(), []);
        assert!(parse_headers("oops").unwrap_err().contains("Name=Value"));
    }
}
