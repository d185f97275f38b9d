//! Combining checks (all of a tuple, `not`, `any_of`, soft checks), the
//! panicking form (where it points, what it prints, color), against
//! `fixture-everything` in-process.

use std::{
    cell::RefCell,
    panic::{self, Location},
    process::Command,
    sync::Once,
    time::Duration,
};

use mcptest::{
    McpClient, Server,
    expect::{self, SoftChecks},
};
use mcptest_tests::everything::Everything;
use serde_json::json;

async fn everything() -> McpClient {
    Server::in_process(Everything::default())
        .connect()
        .await
        .expect("connect in-process")
}

#[tokio::test]
async fn a_tuple_reports_every_failure_not_just_the_first() {
    let mcp = everything().await;
    let add = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    add.assert((
        expect::success(),
        expect::text_eq("5"),
        expect::duration_under(Duration::from_secs(10)),
    ));
    let failure = add
        .check((
            expect::success(),
            expect::text_eq("6"),
            expect::text_contains("5"),
            expect::tool_error(),
        ))
        .unwrap_err();
    assert_eq!(failure.misses().len(), 2);
    insta::assert_snapshot!("tuple", failure.to_string());
}

#[tokio::test]
async fn a_list_of_boxed_checks_is_a_check() {
    // Suites build their checks at run time; a Vec<Box<dyn Check>> is one.
    let mcp = everything().await;
    let add = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    let checks: Vec<Box<dyn expect::Check<mcptest::ToolCall>>> = vec![
        Box::new(expect::success()),
        Box::new(expect::text_matches(r"^\d+$")),
    ];
    add.assert(checks);
    let checks: Vec<Box<dyn expect::Check<mcptest::ToolCall>>> = vec![
        Box::new(expect::text_eq("7")),
        Box::new(expect::text_eq("8")),
    ];
    assert_eq!(add.check(checks).unwrap_err().misses().len(), 2);
}

#[tokio::test]
async fn not_negates() {
    let mcp = everything().await;
    let echo = mcp.call_tool("echo", json!({"message": "all good"})).await;
    echo.assert(expect::not(expect::text_contains("error")))
        .assert(expect::not(expect::tool_error()));
    let failure = echo
        .check(expect::not(expect::text_contains("good")))
        .unwrap_err();
    insta::assert_snapshot!("not", failure.to_string());
}

#[tokio::test]
async fn any_of_passes_when_one_does() {
    let mcp = everything().await;
    let fail = mcp.call_tool("fail", json!({})).await;
    fail.assert(expect::any_of((expect::success(), expect::tool_error())));
    let failure = fail
        .check(expect::any_of((
            expect::success(),
            expect::text_contains("retry later"),
            expect::rpc_error(None),
        )))
        .unwrap_err();
    insta::assert_snapshot!("any_of", failure.to_string());
}

#[tokio::test]
async fn soft_checks_collect_failures_across_results() {
    let mcp = everything().await;
    let add = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    let tools = mcp.list_tools().await.unwrap();
    let mut soft = SoftChecks::new();
    assert!(soft.check(&add, expect::text_eq("5")));
    assert!(soft.check(&tools, expect::has("add")));
    soft.finish();

    let mut soft = SoftChecks::new();
    assert!(!soft.check(&add, expect::text_eq("6")));
    assert!(!soft.check(&tools, expect::has("subtract")));
    assert!(!soft.record(add.check(expect::tool_error())));
    let failures = soft.into_result().unwrap_err();
    let text: Vec<String> = failures.iter().map(ToString::to_string).collect();
    insta::assert_snapshot!("soft", text.join("\n\n--- next ---\n\n"));

    let mut soft = SoftChecks::new();
    soft.check(&add, expect::text_eq("6"));
    soft.check(&add, expect::text_eq("7"));
    let message = panic_message(panic::catch_unwind(panic::AssertUnwindSafe(|| {
        soft.finish()
    })));
    assert!(
        message.starts_with("2 soft checks failed:\n\n--- 1 of 2 ---\n"),
        "{message}"
    );
    assert!(message.contains("--- 2 of 2 ---"), "{message}");
}

fn panic_message(result: std::thread::Result<()>) -> String {
    let payload = result.expect_err("it must panic");
    match payload.downcast::<String>() {
        Ok(text) => *text,
        Err(payload) => payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .unwrap_or_default(),
    }
}

fn strip_ansi(text: &str) -> String {
    regex::Regex::new("\x1b\\[[0-9;]*m")
        .unwrap()
        .replace_all(text, "")
        .into_owned()
}

thread_local! {
    /// Where the last panic on this thread happened, while this thread
    /// records (`Some`); per thread, so tests panicking at the same time on
    /// other threads neither overwrite it nor lose their own messages.
    static LAST_LOCATION: RefCell<Option<Option<(String, u32)>>> = const { RefCell::new(None) };
}

/// Runs `f`, recording where it panics instead of printing the panic;
/// panics on other threads go to the default hook as usual.
fn panic_location_of(f: impl FnOnce()) -> (std::thread::Result<()>, Option<(String, u32)>) {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let at: &Location = info.location().unwrap();
            let recorded = LAST_LOCATION.with(|last| match &mut *last.borrow_mut() {
                Some(slot) => {
                    *slot = Some((at.file().to_owned(), at.line()));
                    true
                }
                None => false,
            });
            if !recorded {
                default(info);
            }
        }));
    });
    LAST_LOCATION.with(|last| *last.borrow_mut() = Some(None));
    let result = panic::catch_unwind(panic::AssertUnwindSafe(f));
    let location = LAST_LOCATION.with(|last| last.borrow_mut().take().flatten());
    (result, location)
}

#[tokio::test]
async fn the_panicking_form_points_at_the_test_and_prints_the_same_message() {
    let mcp = everything().await;
    let add = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    let expected = add.check(expect::text_eq("6")).unwrap_err().to_string();

    let mut line = 0;
    let (result, location) = panic_location_of(|| {
        line = line!() + 1;
        let _ = add.assert_success().text_eq("6");
    });
    let message = panic_message(result);
    assert_eq!(strip_ansi(&message), expected);
    assert_eq!(
        location,
        Some((file!().to_owned(), line)),
        "#[track_caller] makes the failure point at the test's line"
    );
}

/// Run as a child process by `color_follows_the_terminal_and_no_color`.
#[tokio::test]
#[ignore = "a child process of color_follows_the_terminal_and_no_color; fails on purpose"]
async fn child_fails_a_check() {
    let mcp = everything().await;
    mcp.call_tool("weather_bad", json!({"city": "Paris"}))
        .await
        .assert_success()
        .matches_output_schema();
}

#[test]
fn color_follows_the_terminal_and_no_color() {
    let run = |env: &[(&str, &str)]| {
        let mut command = Command::new(std::env::current_exe().unwrap());
        command
            .args([
                "--exact",
                "expect_combine::child_fails_a_check",
                "--ignored",
                "--nocapture",
            ])
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("CLICOLOR");
        for (key, value) in env {
            command.env(key, value);
        }
        let output = command.output().unwrap();
        assert!(!output.status.success(), "the child's check must fail");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(stderr.contains("expected: "), "{stderr}");
        stderr
    };
    // stderr is a pipe here: no color.
    assert!(!run(&[]).contains('\u{1b}'));
    // Forced color has color ...
    assert!(run(&[("CLICOLOR_FORCE", "1")]).contains("\u{1b}["));
    // ... unless NO_COLOR says otherwise.
    assert!(!run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\u{1b}'));
}

#[tokio::test]
async fn long_values_are_cut_with_a_note() {
    let mcp = everything().await;
    let long: String = (1..=200).map(|i| format!("line {i}\n")).collect();
    let echo = mcp.call_tool("echo", json!({"message": long})).await;
    let failure = echo.check(expect::text_contains("line 201")).unwrap_err();
    insta::assert_snapshot!("cut", failure.to_string());
}
