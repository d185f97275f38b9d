//! The plugin host: the example plugins in Python and Node, a plugin as a
//! check on real results, and one misbehaving plugin per error variant.

use std::{path::PathBuf, time::Duration};

use mcptest::{
    Server, expect,
    plugin::{DEFAULT_TIMEOUT, Plugin, PluginCommand, PluginError},
};
use mcptest_tests::procs::assert_gone;
use serde_json::json;

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The timeout of the plugins of tests that are not about timeouts: the
/// first answer includes the interpreter's start, which takes seconds on a
/// machine loaded with tests (the stress tier runs 16 at once on 2 cores).
const LOADED: Duration = Duration::from_secs(20);

fn echo_command() -> PluginCommand {
    Plugin::program("python3").arg(
        workspace()
            .join("examples/plugins/echo.py")
            .to_string_lossy(),
    )
}

fn echo() -> PluginCommand {
    echo_command().timeout(LOADED)
}

fn word_count() -> PluginCommand {
    Plugin::program("node")
        .arg(
            workspace()
                .join("examples/plugins/word_count.js")
                .to_string_lossy(),
        )
        .timeout(LOADED)
}

fn misbehave(mode: &str) -> PluginCommand {
    Plugin::program("python3")
        .arg(
            workspace()
                .join("tests/plugins/misbehave.py")
                .to_string_lossy(),
        )
        .arg(mode)
        .timeout(LOADED)
}

#[tokio::test]
async fn the_echo_plugin_answers_ping_and_echo_from_one_process() {
    assert_eq!(echo_command().start().unwrap().timeout(), DEFAULT_TIMEOUT);
    let plugin = echo().start().unwrap();
    assert_eq!(plugin.timeout(), LOADED);
    let pid = plugin.pid().expect("a pid");
    assert_eq!(
        plugin.call("ping", None).await.unwrap(),
        json!({"pong": true})
    );
    for n in 0..20 {
        let params = json!({"n": n, "text": "ünïcode ✓"});
        assert_eq!(
            plugin.call("echo", params.clone()).await.unwrap(),
            json!({"echoed": params})
        );
    }
    assert_eq!(plugin.pid(), Some(pid), "one process serves every request");
    let err = plugin.call("nope", None).await.unwrap_err();
    match &err {
        PluginError::Rpc { code, message, .. } => {
            assert_eq!(*code, -32601);
            assert_eq!(message, "method not found: nope");
        }
        other => panic!("expected Rpc, got {other:?}"),
    }
    assert!(err.is_plugin_answer());
    // An error answer leaves the plugin usable.
    assert_eq!(
        plugin.call("ping", None).await.unwrap(),
        json!({"pong": true})
    );
    let status = plugin.close().await.expect("exited");
    assert!(status.success(), "the echo plugin exits at EOF: {status}");
    assert_gone(pid, Duration::from_secs(5));
}

#[test]
fn a_plugin_works_without_an_async_runtime_and_is_reaped_on_drop() {
    let plugin = echo().start().unwrap();
    let pid = plugin.pid().unwrap();
    assert_eq!(
        plugin.call_blocking("echo", json!("x")).unwrap(),
        json!({"echoed": "x"})
    );
    drop(plugin);
    assert_gone(pid, Duration::from_secs(5));
}

#[tokio::test]
async fn env_and_current_dir_reach_the_plugin() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = misbehave("env-cwd")
        .env("PLUGIN_VAR", "set by the test")
        .current_dir(dir.path())
        .start()
        .unwrap();
    let answer = plugin.call("where", None).await.unwrap();
    assert_eq!(answer["var"], "set by the test");
    assert_eq!(
        PathBuf::from(answer["cwd"].as_str().unwrap())
            .canonicalize()
            .unwrap(),
        dir.path().canonicalize().unwrap()
    );
}

#[tokio::test]
async fn a_plugin_judges_tool_results_as_a_check() {
    let mcp = Server::program(EVERYTHING).connect().await.unwrap();
    let words = word_count().start().unwrap();
    let short = mcp
        .call_tool("echo", json!({"message": "one two three"}))
        .await;
    short.assert(expect::plugin(&words, "words_at_most", json!({"max": 5})));
    short.assert(expect::plugin(&words, "words_at_least", json!({"min": 3})));

    let failure = short
        .check(expect::plugin(&words, "words_at_most", json!({"max": 2})))
        .unwrap_err()
        .to_string();
    assert!(failure.contains("tools/call echo"), "{failure}");
    assert!(
        failure.contains(r#"plugin node word_count.js "words_at_most" passes with {"max":2}"#),
        "{failure}"
    );
    assert!(failure.contains("3 words, at most 2 allowed"), "{failure}");
    assert!(failure.contains("plugin saw 3"), "{failure}");

    // The check is a check like any other: in a tuple, under `not`.
    short.assert((
        expect::text_eq("one two three"),
        expect::not(expect::plugin(&words, "words_at_least", json!({"min": 4}))),
    ));
    mcp.close().await;
}

#[tokio::test]
async fn a_plugin_error_fails_the_check_with_the_plugins_message() {
    let mcp = Server::program(EVERYTHING).connect().await.unwrap();
    let words = word_count().start().unwrap();
    let call = mcp.call_tool("echo", json!({"message": "hi"})).await;

    let unknown = call
        .check(expect::plugin(&words, "words_between", json!({})))
        .unwrap_err()
        .to_string();
    assert!(
        unknown.contains("-32601: method not found: words_between"),
        "{unknown}"
    );
    assert!(
        unknown.contains("the plugin answered with an error"),
        "{unknown}"
    );

    let bad_params = call
        .check(expect::plugin(&words, "words_at_most", json!(null)))
        .unwrap_err()
        .to_string();
    assert!(
        bad_params.contains("-32602: params.args is required"),
        "{bad_params}"
    );

    // The echo plugin answers, but not with a verdict: never a pass.
    let echo = echo().start().unwrap();
    let not_a_verdict = call
        .check(expect::plugin(&echo, "ping", json!(null)))
        .unwrap_err()
        .to_string();
    assert!(not_a_verdict.contains("not a verdict"), "{not_a_verdict}");

    // A crashed plugin fails every check it is asked for.
    let crashed = misbehave("crash").start().unwrap();
    for _ in 0..2 {
        let text = call
            .check(expect::plugin(&crashed, "judge", json!(null)))
            .unwrap_err()
            .to_string();
        assert!(text.contains("plugin exited with code 3"), "{text}");
        assert!(text.contains("out of cheese"), "{text}");
    }
    mcp.close().await;
}

#[tokio::test]
async fn the_echo_check_sees_the_result_request_and_args() {
    // The echo plugin answers `echo` with what it was sent: the params a
    // check plugin receives, wrapped in something that is not a verdict.
    let mcp = Server::program(EVERYTHING).connect().await.unwrap();
    let plugin = echo().start().unwrap();
    let call = mcp.call_tool("echo", json!({"message": "hi"})).await;
    let failure = call
        .check(expect::plugin(&plugin, "echo", json!({"k": 1})))
        .unwrap_err()
        .to_string();
    assert!(failure.contains(r#""args": {"#), "{failure}");
    assert!(failure.contains(r#""method": "tools/call""#), "{failure}");
    assert!(failure.contains(r#""text": "hi""#), "{failure}");
    mcp.close().await;
}

#[tokio::test]
async fn an_answer_with_another_id_is_never_accepted() {
    let plugin = misbehave("wrong-id").start().unwrap();
    let err = plugin.call("ping", None).await.unwrap_err();
    match &err {
        PluginError::InvalidResponse { reason, line, .. } => {
            assert_eq!(reason, "its id is 101, but the request's id is 1");
            assert!(line.contains("\"pong\": true"), "{line}");
        }
        other => panic!("expected InvalidResponse, got {other:?}"),
    }
}

#[tokio::test]
async fn a_line_that_is_not_json_is_invalid_json_with_the_line() {
    let plugin = misbehave("bad-json").start().unwrap();
    let err = plugin.call("ping", None).await.unwrap_err();
    assert!(
        matches!(&err, PluginError::InvalidJson { line, .. } if line == "pong, not json"),
        "{err:?}"
    );
    assert!(err.to_string().contains("| pong, not json"), "{err}");
    // The plugin is left running: the next request gets its own answer.
    assert!(matches!(
        plugin.call("ping", None).await,
        Err(PluginError::InvalidJson { .. })
    ));
}

#[tokio::test]
async fn both_or_neither_result_and_error_is_an_invalid_response() {
    let both = misbehave("both").start().unwrap();
    let err = both.call("ping", None).await.unwrap_err();
    assert!(
        matches!(&err, PluginError::InvalidResponse { reason, .. } if reason.contains("both `result` and `error`")),
        "{err:?}"
    );
    let neither = misbehave("neither").start().unwrap();
    let err = neither.call("ping", None).await.unwrap_err();
    assert!(
        matches!(&err, PluginError::InvalidResponse { reason, .. } if reason.contains("neither `result` nor `error`")),
        "{err:?}"
    );
}

#[tokio::test]
async fn an_application_error_keeps_code_message_and_data() {
    let plugin = misbehave("app-error").start().unwrap();
    match plugin.call("turn", None).await.unwrap_err() {
        PluginError::Rpc {
            method,
            code,
            message,
            data,
        } => {
            assert_eq!(method, "turn");
            assert_eq!(code, 7);
            assert_eq!(message, "the thing is off");
            assert_eq!(data, Some(json!({"hint": "turn it on"})));
        }
        other => panic!("expected Rpc, got {other:?}"),
    }
}

#[tokio::test]
async fn a_crash_reports_exit_status_and_stderr_and_stays_crashed() {
    let plugin = misbehave("crash").start().unwrap();
    let pid = plugin.pid().unwrap();
    let err = plugin.call("judge", json!({})).await.unwrap_err();
    match &err {
        PluginError::Crashed {
            method,
            status,
            stderr,
        } => {
            assert_eq!(method.as_deref(), Some("judge"));
            assert_eq!(status.and_then(|s| s.code()), Some(3));
            assert!(stderr.contains("fatal: out of cheese"), "{stderr}");
        }
        other => panic!("expected Crashed, got {other:?}"),
    }
    assert!(
        err.to_string()
            .starts_with("plugin exited with code 3 before it answered \"judge\""),
        "{err}"
    );
    // No restart: the next request fails the same way.
    assert!(matches!(
        plugin.call("ping", None).await,
        Err(PluginError::Crashed {
            status: Some(_),
            ..
        })
    ));
    assert_gone(pid, Duration::from_secs(5));
}

#[tokio::test]
async fn a_plugin_that_exits_at_start_is_a_crash_on_the_first_request() {
    let plugin = misbehave("exit-at-once").start().unwrap();
    let err = plugin.call("ping", None).await.unwrap_err();
    assert!(
        matches!(&err, PluginError::Crashed { status: Some(s), stderr, .. }
            if s.code() == Some(4) && stderr.contains("config missing")),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_plugin_that_closes_stdout_is_a_crash_and_is_stopped_at_close() {
    let plugin = misbehave("no-stdout").start().unwrap();
    let pid = plugin.pid().unwrap();
    let err = plugin.call("ping", None).await.unwrap_err();
    assert!(
        matches!(&err, PluginError::Crashed { .. }),
        "expected Crashed, got {err:?}"
    );
    assert!(
        err.to_string().contains("closed stdout on purpose"),
        "{err}"
    );
    plugin.close().await;
    assert_gone(pid, Duration::from_secs(5));
}

#[tokio::test]
async fn a_hanging_plugin_times_out_and_is_killed_at_close() {
    let plugin = misbehave("hang")
        .timeout(Duration::from_millis(300))
        .start()
        .unwrap();
    let pid = plugin.pid().unwrap();
    let err = plugin.call("judge", None).await.unwrap_err();
    assert!(
        matches!(&err, PluginError::Timeout { method, after, .. }
            if method == "judge" && *after == Duration::from_millis(300)),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "plugin did not answer \"judge\" within 300ms"
    );
    plugin.close().await;
    assert_gone(pid, Duration::from_secs(5));
}

#[tokio::test]
async fn a_late_answer_is_dropped_not_taken_for_the_next_request() {
    // Request 1 is answered 1.5 s after the plugin reads it, past the 1 s
    // timeout; request 2 goes 3 s after that, so that the late answer has
    // come (or comes first) even when Python starts slowly on a loaded
    // machine.
    let plugin = misbehave("slow-first")
        .arg("1.5")
        .timeout(Duration::from_secs(1))
        .start()
        .unwrap();
    assert!(matches!(
        plugin.call("first", None).await,
        Err(PluginError::Timeout { .. })
    ));
    // The plugin answers request 1 late, then request 2 promptly: the host
    // must hand request 2 its own answer.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(
        plugin.call("second", None).await.unwrap(),
        json!({"answered": 2})
    );
}

#[tokio::test]
async fn a_plugin_that_ignores_eof_is_killed_after_the_timeout() {
    // No request first: its answer would have to come within the same
    // timeout, Python's start included, which a loaded machine may not
    // give. The plugin never exits, whether it reads the EOF or not.
    let plugin = misbehave("ignore-eof")
        .timeout(Duration::from_secs(1))
        .start()
        .unwrap();
    let pid = plugin.pid().unwrap();
    let status = plugin.close().await.expect("reaped");
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9),
        "killed, not exited: {status}"
    );
    assert_gone(pid, Duration::from_secs(5));
}

#[test]
fn a_missing_program_is_a_spawn_error_naming_it() {
    let err = Plugin::command("mcptest-no-such-plugin --flag")
        .start()
        .unwrap_err();
    match &err {
        PluginError::Spawn {
            program, searched, ..
        } => {
            assert_eq!(program, "mcptest-no-such-plugin");
            assert!(!searched.is_empty());
        }
        other => panic!("expected Spawn, got {other:?}"),
    }
    assert!(
        err.to_string()
            .starts_with("could not start plugin \"mcptest-no-such-plugin\": not found in PATH"),
        "{err}"
    );
    let err = Plugin::program("/nonexistent/plugin").start().unwrap_err();
    assert!(matches!(err, PluginError::Spawn { .. }), "{err:?}");
}

#[test]
fn a_bad_command_line_is_an_invalid_command() {
    let err = Plugin::command("python3 'oops").start().unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid plugin command \"python3 'oops\": a quote is not closed"
    );
    let err = Plugin::command("  ").start().unwrap_err();
    assert!(matches!(err, PluginError::InvalidCommand { .. }), "{err:?}");
}

#[tokio::test]
async fn a_write_to_a_dead_plugin_is_a_crash_not_a_hang() {
    let plugin = misbehave("exit-at-once").start().unwrap();
    // Give it time to exit, so the request hits a closed pipe.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for _ in 0..3 {
        assert!(matches!(
            plugin
                .call("ping", json!({"big": "x".repeat(200_000)}))
                .await,
            Err(PluginError::Crashed { .. })
        ));
    }
}

mod suite_key {
    //! `expect.plugin` in an mcp-assert file: loaded strictly, run like
    //! every other expectation, failing with the plugin's words.

    use mcptest::{
        Server,
        report::Status,
        suite::{RunOptions, Suite, failure_message},
    };

    use super::EVERYTHING;

    fn file(plugin: &str) -> String {
        format!(
            "name: words\nassert:\n  tool: echo\n  args: {{message: one two three}}\n  expect:\n    contains: [two]\n    plugin:\n{plugin}"
        )
    }

    const WORDS: &str = "node ../examples/plugins/word_count.js";

    async fn run(text: &str) -> mcptest::report::TestResult {
        let suite = Suite::parse("words.yaml", text).expect("loads");
        let options = RunOptions::new().server(Server::program(EVERYTHING));
        suite.run(&options).await.remove(0)
    }

    #[tokio::test]
    async fn a_plugin_expectation_passes_and_fails_with_the_plugins_message() {
        let pass = run(&file(&format!(
            "      - command: {WORDS}\n        method: words_at_most\n        args: {{max: 5}}\n        timeout: 20s\n      - command: {WORDS}\n        method: words_at_least\n        args: {{min: 3}}\n        timeout: 20s\n"
        )))
        .await;
        assert_eq!(pass.status(), Status::Pass, "{pass:?}");

        // One entry may be a mapping.
        let fail = run(&file(&format!(
            "      command: {WORDS}\n      method: words_at_most\n      args: {{max: 2}}\n      timeout: 20s\n"
        )))
        .await;
        let message = failure_message(&fail, false).expect("fails");
        assert!(message.contains("3 words, at most 2 allowed"), "{message}");
        assert!(message.contains("(plugin)"), "{message}");
    }

    #[tokio::test]
    async fn a_plugin_that_cannot_start_fails_the_file() {
        let fail = run(&file(
            "      command: mcptest-no-such-plugin\n      method: judge\n",
        ))
        .await;
        let message = failure_message(&fail, false).expect("fails");
        assert!(message.contains("could not start plugin"), "{message}");
    }

    #[test]
    fn plugin_entries_are_loaded_strictly() {
        let err = |plugin: &str| {
            Suite::parse("words.yaml", &file(plugin))
                .unwrap_err()
                .to_string()
        };
        let unknown = err("      command: x\n      method: m\n      arg: {}\n");
        assert!(unknown.contains("words.yaml:10"), "{unknown}");
        assert!(unknown.contains("`args`"), "{unknown}");
        let no_method = err("      command: x\n");
        assert!(no_method.contains("needs `method`"), "{no_method}");
        let bad_quote = err("      command: \"x 'oops\"\n      method: m\n");
        assert!(bad_quote.contains("a quote is not closed"), "{bad_quote}");
        let empty = err("      []\n");
        assert!(empty.contains("would check nothing"), "{empty}");
        let scalar = err("      yes\n");
        assert!(
            scalar.contains("a mapping with `command` and `method`"),
            "{scalar}"
        );
        let bad_timeout = err("      command: x\n      method: m\n      timeout: soon\n");
        assert!(bad_timeout.contains("not a duration"), "{bad_timeout}");
    }
}
