//! A fuzz run's failures written out as tests to keep: a Rust file with one
//! `#[mcp_test]` per failing case ([`regression_tests`]), and an MCP Cases
//! suite file with one case per failing call ([`regression_suite`]). Both
//! send the shrunk input where there is one, and pass once the server
//! answers the call at all, the fuzz's own verdict.

use std::collections::BTreeSet;

use mcptest_core::report::{Report, Status, TestResult};
use serde_json::Value;

use super::properties::{INPUT, MINIMAL, REPRO, SEED};
use crate::audit::Classification;

/// How the written tests start the server: a command line, or a binary of
/// the package the tests live in (`#[mcp_test(bin = ..)]`, found through
/// `CARGO_BIN_EXE_<name>` and so independent of where it was built).
///
/// ```
/// use mcptest::scan::fuzz::Launch;
///
/// assert_eq!(Launch::from("my-server --stdio").attribute(), r#"server = "my-server --stdio""#);
/// assert_eq!(
///     Launch::bin("my-server").args(["--stdio"]).attribute(),
///     r#"bin = "my-server", args = ["--stdio"]"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launch {
    /// A command line (`#[mcp_test(server = "..")]`).
    Command(String),
    /// A binary of the same package, with its arguments.
    Bin {
        /// The `[[bin]]` name.
        name: String,
        /// Its arguments.
        args: Vec<String>,
    },
}

impl Launch {
    /// A binary of the package the tests are written for.
    pub fn bin(name: impl Into<String>) -> Launch {
        Launch::Bin {
            name: name.into(),
            args: Vec::new(),
        }
    }

    /// Arguments of a [`bin`](Launch::bin) (a command line has them already).
    pub fn args<I, S>(mut self, more: I) -> Launch
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        if let Launch::Bin { args, .. } = &mut self {
            args.extend(more.into_iter().map(Into::into));
        }
        self
    }

    /// The arguments of `#[mcp_test(..)]` that start it.
    pub fn attribute(&self) -> String {
        let quoted = |s: &str| Value::String(s.to_owned()).to_string();
        match self {
            Launch::Command(command) => format!("server = {}", quoted(command)),
            Launch::Bin { name, args } if args.is_empty() => format!("bin = {}", quoted(name)),
            Launch::Bin { name, args } => format!(
                "bin = {}, args = [{}]",
                quoted(name),
                args.iter()
                    .map(|a| quoted(a))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// The server in words: the command line, or `the <name> binary`.
    fn describe(&self) -> String {
        match self {
            Launch::Command(command) => command.clone(),
            Launch::Bin { name, args } => {
                let mut words = vec![format!("the {name} binary")];
                words.extend(args.iter().cloned());
                words.join(" ")
            }
        }
    }
}

impl From<&str> for Launch {
    fn from(command: &str) -> Launch {
        Launch::Command(command.to_owned())
    }
}

impl From<String> for Launch {
    fn from(command: String) -> Launch {
        Launch::Command(command)
    }
}

/// A failing case of a report: its result, what it was (crash, ...), and
/// the arguments to send again (shrunk where they were).
struct Failing<'a> {
    result: &'a TestResult,
    class: &'static str,
    tool: String,
    arguments: Value,
    repro: &'a str,
}

fn failing(report: &Report) -> Vec<Failing<'_>> {
    report
        .results
        .iter()
        .filter(|r| r.status() == Status::Fail)
        .filter_map(|result| {
            let repro = result.property_value(REPRO)?;
            let arguments = result
                .property_value(MINIMAL)
                .or(result.property_value(INPUT))
                .and_then(|text| serde_json::from_str(text).ok())
                .unwrap_or(Value::Null);
            Some(Failing {
                result,
                class: Classification::of(result).map_or("failure", Classification::as_str),
                tool: result.group.clone().unwrap_or_default(),
                arguments,
                repro,
            })
        })
        .collect()
}

/// The seed named by the failing cases, as `(seed N)`, or nothing.
fn seed_note(cases: &[Failing<'_>]) -> String {
    cases
        .iter()
        .find_map(|c| c.result.property_value(SEED))
        .map(|seed| format!(" (seed {seed})"))
        .unwrap_or_default()
}

/// A Rust test file with one `#[mcp_test]` per failing case of a fuzz
/// `report`, each calling the tool with the case's arguments (the shrunk
/// ones, where the case was shrunk) on a fresh server started as `server`
/// says, and failing unless the server answers (a result, `isError` or a
/// JSON-RPC error). `None` when no case failed.
///
/// ```
/// use mcptest::{scan::fuzz::{REPRO, regression_tests}, report::{Outcome, Report, TestResult}};
///
/// let mut report = Report::new("fuzz");
/// report.push(
///     TestResult::new("parse: text: empty", Outcome::error("an answer", "the server exited"))
///         .group("parse")
///         .property(REPRO, r#"mcp.call_tool("parse", json!({"text":""})).await"#),
/// );
/// let file = regression_tests(&report, "my-server --stdio").unwrap();
/// assert!(file.contains("async fn parse_text_empty(mcp: McpClient)"));
/// ```
pub fn regression_tests(report: &Report, server: impl Into<Launch>) -> Option<String> {
    let server = server.into();
    let cases = failing(report);
    if cases.is_empty() {
        return None;
    }
    let mut names = BTreeSet::new();
    let mut out = format!(
        "//! Written by `mcptest fuzz` against {}{}: one test per case\n\
         //! that crashed, hung or broke the protocol, sending the smallest input that\n\
         //! failed the same way. Each passes once the server answers the call (a result,\n\
         //! isError or a JSON-RPC error).\n\n\
         use mcptest::prelude::*;\n",
        server.describe(),
        seed_note(&cases)
    );
    for case in &cases {
        let name = unique(test_name(&case.result.name), &mut names);
        out.push_str(&format!(
            "\n/// {} ({})\n#[mcp_test({})]\nasync fn {name}(mcp: McpClient) {{\n    \
             let call = {};\n    \
             assert!(\n        !matches!(call.outcome(), ToolOutcome::Failed(_)),\n        \
             \"the server did not answer: {{call:?}}\"\n    );\n}}\n",
            case.result.name.replace('\n', " "),
            case.class,
            server.attribute(),
            case.repro,
        ));
    }
    Some(out)
}

/// An MCP Cases suite file with one case per failing case of a fuzz
/// `report`: the `tools/call` with the case's arguments (the shrunk ones,
/// where the case was shrunk), and an `out` that any answer to it matches —
/// a result, `isError` or a JSON-RPC error — so that a crash or a hang
/// fails it. Run it with `mcptest run FILE --server CMD` (`server` names
/// the command in the file's header). `None` when no case failed.
///
/// ```
/// use mcptest::{scan::fuzz::{MINIMAL, REPRO, regression_suite}, report::{Outcome, Report, TestResult}};
///
/// let mut report = Report::new("fuzz");
/// report.push(
///     TestResult::new("parse: text: 10 KB string", Outcome::error("an answer", "the server exited"))
///         .group("parse")
///         .property(REPRO, r#"mcp.call_tool("parse", json!({"text":"a"})).await"#)
///         .property(MINIMAL, r#"{"text":"a"}"#),
/// );
/// let file = regression_suite(&report, "my-server --stdio").unwrap();
/// assert!(file.contains(r#"in: {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"parse","arguments":{"text":"a"}}}"#));
/// assert!(file.contains(r#"out: {"jsonrpc":"2.0","id":1}"#));
/// ```
pub fn regression_suite(report: &Report, server: impl Into<Launch>) -> Option<String> {
    let server = server.into();
    let cases = failing(report);
    if cases.is_empty() {
        return None;
    }
    let run = match &server {
        Launch::Command(command) => {
            format!("mcptest run THIS_FILE --server {}", shell_quoted(command))
        }
        Launch::Bin { .. } => format!("mcptest run THIS_FILE --server '<{}>'", server.describe()),
    };
    let mut out = format!(
        "# Written by `mcptest fuzz` against {}{}: one case per call that\n\
         # crashed, hung or broke the protocol, sending the smallest input that failed\n\
         # the same way. A case passes once the server answers the call (a result,\n\
         # isError or a JSON-RPC error). Run it: {run}\n",
        server.describe(),
        seed_note(&cases)
    );
    for (n, case) in cases.iter().enumerate() {
        let tool = Value::String(case.tool.clone());
        let params = if case.arguments.is_null() {
            format!(r#"{{"name":{tool}}}"#)
        } else {
            format!(r#"{{"name":{tool},"arguments":{}}}"#, case.arguments)
        };
        // Written out so that the keys keep the order of the protocol's examples.
        let call = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{params}}}"#);
        if n > 0 {
            out.push_str("---\n");
        }
        // JSON strings and objects are YAML scalars and flow mappings as
        // they are, so nothing needs YAML's quoting rules.
        out.push_str(&format!(
            "case: {}\nin: {call}\nout: {{\"jsonrpc\":\"2.0\",\"id\":1}}\n",
            Value::String(format!("{} ({})", case.result.name, case.class)),
        ));
    }
    Some(out)
}

/// A command line as a shell reads it back: in single quotes unless plain.
fn shell_quoted(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c))
    {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A test's name from a case's: lower case, `_` for anything else, never
/// starting with a digit.
fn test_name(case: &str) -> String {
    let mut name: String = case
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    while name.contains("__") {
        name = name.replace("__", "_");
    }
    let name = name.trim_matches('_').to_owned();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("case_{name}")
    } else {
        name
    }
}

fn unique(base: String, names: &mut BTreeSet<String>) -> String {
    let mut name = base.clone();
    let mut n = 2;
    while !names.insert(name.clone()) {
        name = format!("{base}_{n}");
        n += 1;
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcptest_core::report::Outcome;

    #[test]
    fn names_are_identifiers_and_unique() {
        let mut names = BTreeSet::new();
        assert_eq!(
            unique(test_name("parse: text: NUL"), &mut names),
            "parse_text_nul"
        );
        assert_eq!(
            unique(test_name("parse: text: NUL"), &mut names),
            "parse_text_nul_2"
        );
        assert_eq!(test_name("1 of 2"), "case_1_of_2");
        assert_eq!(test_name("::"), "case_");
    }

    #[test]
    fn the_suite_sends_the_input_of_each_case_and_leaves_out_none() {
        let mut report = Report::new("fuzz");
        report.push(
            TestResult::new("t: no arguments", Outcome::error("an answer", "it died"))
                .group("t")
                .property(REPRO, "mcp.call_tool(\"t\", json!(null)).await")
                .property(INPUT, "null"),
        );
        report.push(
            TestResult::new("t: s: NUL", Outcome::error("an answer", "it died"))
                .group("t")
                .property(REPRO, "x")
                .property(INPUT, r#"{"s":"a\u0000b"}"#)
                .property(SEED, "7"),
        );
        report.push(TestResult::new("t: fine", Outcome::Pass).property(REPRO, "x"));
        let file = regression_suite(&report, "srv --flag 'a b'").unwrap();
        assert!(file.contains("(seed 7)"), "{file}");
        assert!(
            file.contains(r#"--server 'srv --flag '\''a b'\''"#),
            "{file}"
        );
        assert_eq!(file.matches("\ncase: ").count(), 2, "{file}");
        assert!(
            file.contains(r#""params":{"name":"t"}}"#),
            "no arguments: {file}"
        );
        assert!(file.contains(r#""arguments":{"s":"a\u0000b"}"#), "{file}");
        let docs = mcptest_suite_format::parse_documents("found.yaml", &file).unwrap();
        assert_eq!(docs.len(), 2);
        assert!(docs.iter().all(|d| d.is_cases_document()));
    }
}
