//! The suite runner through its runtime API: every failing file of
//! `suites/fail` fails with the message pinned in `suites/fail/snapshots`,
//! every broken file of `suites/invalid` is refused with file:line:column,
//! and a directory runs as a whole.

use std::path::Path;

use mcptest::{
    Server,
    report::{Outcome, Status},
    suite::{Format, RunOptions, Suite, failure_message},
};

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");

fn options() -> RunOptions {
    RunOptions::new()
        .server(Server::program(EVERYTHING).args(["--root", "{{fixture}}"]))
        .fixture("suites/fixtures")
}

/// The fixture copy's path (`<temp>/mcptest-XXXX/fixtures`, or once kept
/// `<target>/tmp/mcptest-kept/<test>/fixtures`) differs from run to run:
/// `[fixture]` stands for it.
fn normalize(text: &str) -> String {
    let mut out = text.to_owned();
    while let Some(at) = out.find("/mcptest-kept/") {
        let start = out[..at].rfind([' ', '"', '(', '\n']).map_or(0, |s| s + 1);
        let name_start = at + "/mcptest-kept/".len();
        let rest = &out[name_start..];
        let root_end = name_start + rest.find(['/', ' ', '"', ')', '\n']).unwrap_or(rest.len());
        let copy_end = if out[root_end..].starts_with("/fixtures") {
            root_end + "/fixtures".len()
        } else {
            root_end
        };
        // A failing test keeps its fixture copy for inspection; these fail on purpose.
        let _ = std::fs::remove_dir_all(&out[start..root_end]);
        out.replace_range(start..copy_end, "[fixture]");
    }
    while let Some(at) = out.find("/mcptest-") {
        let start = out[..at].rfind([' ', '"', '(', '\n']).map_or(0, |s| s + 1);
        let rest = &out[at + 1..];
        let root_end = at + 1 + rest.find(['/', ' ', '"', ')', '\n']).unwrap_or(rest.len());
        let copy_end = if out[root_end..].starts_with("/fixtures") {
            root_end + "/fixtures".len()
        } else {
            root_end
        };
        // A failing test keeps its fixture copy for inspection; these fail on purpose.
        let _ = std::fs::remove_dir_all(&out[start..root_end]);
        out.replace_range(start..copy_end, "[fixture]");
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_failing_file_fails_with_its_pinned_message() {
    let suite = Suite::load("suites/fail").expect("the failing corpus loads");
    assert_eq!(suite.tests().len(), 52);
    let results = suite.run(&options()).await;
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../suites/fail/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for result in &results {
            let Some(message) = failure_message(result, false) else {
                panic!(
                    "{} ({}) should fail, but: {:?}",
                    result.name,
                    result.location.as_ref().unwrap(),
                    result.outcome
                );
            };
            let file = &result.location.as_ref().unwrap().file;
            let name = Path::new(file)
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            insta::assert_snapshot!(name, normalize(&message));
        }
    });
}

#[test]
fn broken_files_are_refused_with_file_line_column_and_what_was_expected() {
    let expected = [
        (
            "bad_contains_level",
            "suites/invalid/bad_contains_level.yaml:4:33: `contains_level`: \"warn\" is not a log level; expected one of debug, info, notice, warning, error, critical, alert, emergency",
        ),
        (
            "bad_log_level",
            "suites/invalid/bad_log_level.yaml:2:14: `set_level`: \"loud\" is not a log level; expected one of debug, info, notice, warning, error, critical, alert, emergency",
        ),
        (
            "bad_regex",
            "suites/invalid/bad_regex.yaml:4:27: `matches_regex`: invalid pattern \"(unclosed\": unclosed group",
        ),
        (
            "bad_timeout",
            "suites/invalid/bad_timeout.yaml:1:10: `timeout`: \"soon\" is not a duration; write it like \"500ms\", \"30s\", \"2m\" or \"1m30s\"",
        ),
        (
            "bad_trajectory_type",
            "suites/invalid/bad_trajectory_type.yaml:4:11: unknown trajectory check type `ordre`; did you mean `order`? (expected one of: order, presence, absence, args_contain)",
        ),
        (
            "cases_no_in",
            "suites/invalid/cases_no_in.yaml:1:1: `only an answer` (case 1) sends nothing: it needs at least one `in` message",
        ),
        (
            "cases_tag_in_in",
            "suites/invalid/cases_tag_in_in.yaml:2:48: tag `!!re` is not allowed in an `in` message; matchers such as `!!re` only work in `out` messages of MCP Cases files",
        ),
        (
            "cases_unknown_key",
            "suites/invalid/cases_unknown_key.yaml:7:1: unknown key `otu` in an MCP Cases document; keys are `case`, `in…` (client to server), `out…` (server to client) and `_`-prefixed extensions",
        ),
        (
            "cases_unknown_tag",
            "suites/invalid/cases_unknown_tag.yaml:3:36: unknown tag `!int`; MCP Cases messages know `!!re` (a regex for the whole string) and `!!ere` (`/regex/` inside literal text)",
        ),
        (
            "docker_with_url",
            "suites/invalid/docker_with_url.yaml:4:11: `docker` runs a stdio server's `command` in a container; a server reached at a `url` is already running",
        ),
        (
            "empty",
            "suites/invalid/empty.yaml: the file is empty: expected an mcp-assert assertion or MCP Cases documents",
        ),
        (
            "min_progress_without_capture",
            "suites/invalid/min_progress_without_capture.yaml:4:5: `min_progress` needs `capture_progress: true` in `assert`, or it would never be checked",
        ),
        (
            "missing_tool",
            "suites/invalid/missing_tool.yaml:3:3: `assert` needs `tool`: the name of the tool to call",
        ),
        (
            "no_block",
            "suites/invalid/no_block.yaml:1:1: an mcp-assert file needs one block saying what to check; expected one of: assert, assert_resources, assert_prompts, assert_completion, assert_sampling, assert_logging, assert_notifications, trajectory",
        ),
        (
            "skip_not_bool",
            "suites/invalid/skip_not_bool.yaml:2:7: expected `skip` to be true or false, found a string",
        ),
        (
            "syntax",
            "suites/invalid/syntax.yaml:4:19: invalid YAML: unclosed quote",
        ),
        (
            "two_blocks",
            "suites/invalid/two_blocks.yaml:3:1: `assert_prompts` and `assert` are both given; an mcp-assert file holds exactly one block",
        ),
        (
            "unknown_block",
            "suites/invalid/unknown_block.yaml:2:1: unknown key `asert` in an mcp-assert file; did you mean `assert`? (expected one of: name, server, setup, timeout, skip, skip_unless_env, assert, assert_resources, assert_prompts, assert_completion, assert_sampling, assert_logging, assert_notifications, trajectory, trace, audit_log)",
        ),
        (
            "unknown_key",
            "suites/invalid/unknown_key.yaml:6:5: unknown key `contians` in `expect`; did you mean `contains`? (expected one of: not_error, is_error, not_empty, equals, contains, contains_any, not_contains, matches_regex, json_path, min_results, max_results, net_delta, file_contains, file_not_contains, file_not_exists, in_order, file_unchanged, min_progress, plugin)",
        ),
        (
            "url_with_stdio",
            "suites/invalid/url_with_stdio.yaml:3:8: `url` is for `transport: http` or `sse`; a stdio server is started from `command`",
        ),
        (
            "wrong_list",
            "suites/invalid/wrong_list.yaml:4:15: expected `contains` to be a list of strings, found a string",
        ),
        (
            "wrong_type",
            "suites/invalid/wrong_type.yaml:5:18: expected `min_results` to be a whole number of 0 or more, found a string",
        ),
    ];
    let mut listed: Vec<String> = std::fs::read_dir("suites/invalid")
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    listed.sort();
    let names: Vec<&str> = expected.iter().map(|(n, _)| *n).collect();
    assert_eq!(listed, names, "every broken file has its message pinned");
    let mut mismatches = Vec::new();
    for (name, message) in expected {
        let path = format!("suites/invalid/{name}.yaml");
        match Suite::load(&path) {
            Ok(_) => mismatches.push(format!("{path} loaded")),
            Err(e) if e.to_string() != message => {
                mismatches.push(format!("{path}:\n  got:  {e}\n  want: {message}"))
            }
            Err(_) => {}
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn no_input_panics_the_loader() {
    let inputs = [
        "",
        "---",
        "[",
        "]",
        "{",
        "- - -",
        "a: *nope",
        "&a [*a]",
        "!!re 5",
        "case: [",
        "in: {a: !!ere '/'}",
        "assert: 5",
        "assert: {tool: [1]}",
        "assert: {tool: x, expect: {json_path: {a: 1}}}",
        "\t\t",
        "a:\n\t- b",
        "case: x\nin: []",
        "in: [1, 2]",
        "out: {a: !!re '['}\nin: {}",
        "server: {env: {A: [1]}}\nassert: {tool: x}",
        "assert: {tool: x, args: [1]}",
        "trace: 5\ntrajectory: []",
        "assert_completion: {ref: {type: x}}",
        "name: 99999999999999999999999999\nassert: {tool: x}",
        "? [a]\n: b",
    ];
    for input in inputs {
        // Ok or a located error; never a panic.
        if let Err(e) = Suite::parse("fuzz.yaml", input) {
            assert!(e.to_string().starts_with("fuzz.yaml"), "{e}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_directory_runs_through_the_runtime_api() {
    let suite = Suite::load("suites/pass").expect("the passing corpus loads");
    let assert_files = suite
        .tests()
        .iter()
        .filter(|t| t.format == Format::McpAssert)
        .count();
    let cases = suite
        .tests()
        .iter()
        .filter(|t| t.format == Format::McpCases)
        .count();
    assert_eq!((assert_files, cases), (35, 8));
    let results = suite.run(&options()).await;
    let failed: Vec<String> = results
        .iter()
        .filter_map(|r| failure_message(r, false))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
    let skipped: Vec<&str> = results
        .iter()
        .filter(|r| r.status() == Status::Skip)
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(skipped, ["skipped on purpose", "needs a token"]);
}

#[tokio::test]
async fn a_file_without_a_server_and_no_default_says_how_to_give_one() {
    let suite = Suite::parse(
        "x.yaml",
        "assert: {tool: echo, expect: {not_error: true}}\n",
    )
    .unwrap();
    let result = suite.run(&RunOptions::new()).await.remove(0);
    assert_eq!(
        failure_message(&result, false).unwrap(),
        "x.yaml:1:1: `x` failed\n\
         expected: a server to run the file against\n\
         why:      the file names none (no `command` or `url` in `server:`) and the suite gives no default (add it to the file, `--server` to `mcptest run`, or `server = ..` to `mcptest::suite!`)"
    );
    assert!(matches!(result.outcome, Outcome::Fail(_)));
}

/// A suite runs into the shared report model, ready for any rendering.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_suite_runs_into_a_report() {
    let suite = Suite::load("suites/pass/echo_text_checks.yaml").unwrap();
    let report = suite.run_report("suite echo", &options()).await;
    report.assert_passed();
    assert_eq!(report.counts().passed, 1);
    let result = &report.results[0];
    assert_eq!(
        result.group.as_deref(),
        Some("suites/pass/echo_text_checks.yaml")
    );
    assert!(result.location.as_ref().unwrap().line > 0);
}

/// The verdict comes before the server is stopped: a runner can start the
/// next test while this server takes its grace period. The fixture copy
/// stays until the server is gone, then `finish` removes it and leaves no
/// process behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verdict_comes_before_the_teardown_which_stops_the_server_then_removes_the_fixture() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let options = RunOptions::new()
        .server(
            // It keeps running after its stdin closes, so stopping it takes
            // the grace period and a kill.
            Server::program(env!("CARGO_BIN_EXE_fixture-chaos"))
                .args(["--ignore-eof", "--pid-file"])
                .arg(pid_file.to_str().unwrap())
                .current_dir("{{fixture}}"),
        )
        .fixture("suites/fixtures");
    let suite = Suite::parse(
        "poke.yaml",
        "assert: {tool: poke, expect: {not_error: true}}\n",
    )
    .unwrap();
    let (result, teardown) = suite.tests()[0].run_until_verdict(&options).await;
    assert_eq!(result.status(), Status::Pass, "{:?}", result.outcome);
    assert!(!teardown.is_empty());

    let pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let proc_dir = Path::new("/proc").join(pid.to_string());
    let fixture_copy = std::fs::read_link(proc_dir.join("cwd")).expect("the server still runs");
    assert!(
        fixture_copy.ends_with("fixtures"),
        "{}",
        fixture_copy.display()
    );
    assert!(
        fixture_copy.is_dir(),
        "the copy is there while the server runs"
    );

    teardown.finish().await;
    assert!(
        !proc_dir.exists(),
        "the server (pid {pid}) is killed and reaped by `finish`"
    );
    assert!(
        !fixture_copy.exists(),
        "the fixture copy {} is removed after the server stopped",
        fixture_copy.display()
    );
}

/// A `url` without `transport` is Streamable HTTP: the run dials it (here
/// nothing listens) rather than saying the file names no server.
#[tokio::test]
async fn a_url_alone_names_an_http_server() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let suite = Suite::parse(
        "x.yaml",
        &format!("timeout: 5s\nserver: {{url: \"{url}\"}}\nassert: {{tool: echo, expect: {{not_error: true}}}}\n"),
    )
    .unwrap();
    let result = suite.run(&RunOptions::new()).await.remove(0);
    let message = failure_message(&result, false).unwrap();
    assert!(
        message.contains("the server to start and answer the handshake"),
        "{message}"
    );
    assert!(!message.contains("names none"), "{message}");
}

/// A server message that breaks the schema outside an answer fails the
/// suite test in its report (not at close); `wire_schema` lets it pass.
#[tokio::test]
async fn a_notification_off_the_schema_fails_the_test_unless_warned() {
    let suite = Suite::load("suites/wire").unwrap();
    let server = Server::program(env!("CARGO_BIN_EXE_fixture-chaos")).arg("--string-progress");
    let options = RunOptions::new().server(server);
    let result = suite.run(&options).await.remove(0);
    let message = failure_message(&result, false).expect("the test fails");
    assert!(
        message.contains(
            "expected: every message of the server to fit the MCP schema of its revision"
        ) && message.contains("notification notifications/progress breaks the MCP 2025-11-25 schema (ProgressNotification) at params.progress"),
        "{message}"
    );
    let warned = suite
        .run(&options.clone().wire_schema(mcptest::WireSchema::Warn))
        .await
        .remove(0);
    assert!(matches!(warned.outcome, Outcome::Pass), "{warned:?}");
}

// The same through the macro: `wire_schema = "warn"` lets the test pass.
mcptest::suite!(
    "suites/wire",
    server = Server::program(env!("CARGO_BIN_EXE_fixture-chaos")).arg("--string-progress"),
    wire_schema = "warn",
    name = wire_warned,
);
