//! Every tool-call check against `fixture-everything` (in-process, and over
//! stdio where the server's stderr matters): one passing case through the
//! fluent form, one failing case through the `Result` form with the exact
//! failure text pinned in `snapshots/`.

use std::time::Duration;

use mcptest::{
    McpClient, Server, ToolCall,
    expect::{self, Check, ContentKind, FileSnapshot},
    rmcp::model::Tool,
};
use mcptest_tests::everything::{Everything, EverythingConfig};
use serde_json::json;

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");

async fn everything() -> McpClient {
    Server::in_process(Everything::default())
        .connect()
        .await
        .expect("connect in-process")
}

/// A server rooted in a fresh fixture directory, and the directory.
async fn rooted() -> (McpClient, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let config = EverythingConfig {
        root: Some(dir.path().to_path_buf()),
        ..EverythingConfig::default()
    };
    let mcp = Server::in_process(Everything::new(config))
        .fixture_dir(dir.path())
        .connect()
        .await
        .expect("connect in-process");
    (mcp, dir)
}

/// The failure text of `check` on `call`, which must fail.
#[track_caller]
fn failure<C: Check<ToolCall>>(call: &ToolCall, check: C) -> String {
    match call.check(check) {
        Ok(_) => panic!("the check passed, but this case must fail"),
        Err(failure) => failure.to_string(),
    }
}

/// Pins a failure text whose fixture path and timings change run to run.
macro_rules! pin {
    ($name:literal, $text:expr) => {
        insta::with_settings!({filters => vec![
            (r"/[^\s\x22]*/\.tmp[A-Za-z0-9]+", "[fixture]"),
            (r"\d+(\.\d+)?(ns|µs|ms|s)\b", "[duration]"),
        ]}, {
            insta::assert_snapshot!($name, $text);
        });
    };
}

// ---- outcome ----

#[tokio::test]
async fn success() {
    let mcp = everything().await;
    mcp.call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .assert_success()
        .text_eq("5");

    let fail = mcp.call_tool("fail", json!({})).await;
    pin!("success", failure(&fail, expect::success()));
    let rpc = mcp.call_tool("rpc_error", json!({})).await;
    pin!("success_rpc_error", failure(&rpc, expect::success()));
}

#[tokio::test]
async fn tool_error() {
    let mcp = everything().await;
    mcp.call_tool("fail", json!({}))
        .await
        .assert_tool_error()
        .text_eq("the tool failed on purpose");

    let add = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    pin!("tool_error", failure(&add, expect::tool_error()));
}

#[tokio::test]
async fn rpc_error() {
    let mcp = everything().await;
    let rpc = mcp.call_tool("rpc_error", json!({})).await;
    rpc.assert_rpc_error(None).assert_rpc_error(-32603);
    mcp.call_tool("no_such_tool", json!({}))
        .await
        .assert_rpc_error(-32602);

    pin!("rpc_error_code", failure(&rpc, expect::rpc_error(-32602)));
    let add = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    pin!("rpc_error", failure(&add, expect::rpc_error(None)));
}

#[tokio::test]
async fn a_call_without_an_answer_says_why() {
    let mcp = everything().await;
    let slow = mcp
        .call_tool_with_timeout("slow", json!({"ms": 5000}), Duration::from_millis(50))
        .await;
    pin!("no_answer", failure(&slow, expect::success()));
}

// ---- text ----

#[tokio::test]
async fn text_eq() {
    let mcp = everything().await;
    let echo = mcp.call_tool("echo", json!({"message": "  hello  "})).await;
    echo.text_eq("hello");
    pin!("text_eq", failure(&echo, expect::text_eq("hullo")));

    let multi = mcp
        .call_tool("echo", json!({"message": "one\ntwo\nthree\nfour"}))
        .await;
    pin!(
        "text_eq_multiline",
        failure(&multi, expect::text_eq("one\n2\nthree\nfour"))
    );
}

#[tokio::test]
async fn text_eq_on_a_tool_error_and_an_rpc_error() {
    let mcp = everything().await;
    let fail = mcp.call_tool("fail", json!({})).await;
    pin!("text_eq_tool_error", failure(&fail, expect::text_eq("ok")));
    let rpc = mcp.call_tool("rpc_error", json!({})).await;
    pin!("text_eq_rpc_error", failure(&rpc, expect::text_eq("ok")));
}

#[tokio::test]
async fn text_contains() {
    let mcp = everything().await;
    let echo = mcp
        .call_tool("echo", json!({"message": "sunny in Paris"}))
        .await;
    echo.text_contains("Paris");
    pin!(
        "text_contains",
        failure(&echo, expect::text_contains("Rome"))
    );
}

#[tokio::test]
async fn text_contains_any() {
    let mcp = everything().await;
    let echo = mcp
        .call_tool("echo", json!({"message": "sunny in Paris"}))
        .await;
    echo.text_contains_any(["Rome", "Paris"]);
    pin!(
        "text_contains_any",
        failure(&echo, expect::text_contains_any(["Rome", "Berlin"]))
    );
}

#[tokio::test]
async fn text_not_contains() {
    let mcp = everything().await;
    let echo = mcp
        .call_tool("echo", json!({"message": "sunny in Paris"}))
        .await;
    echo.text_not_contains("rain");
    pin!(
        "text_not_contains",
        failure(&echo, expect::not(expect::text_contains("sunny")))
    );
}

#[tokio::test]
async fn text_matches() {
    let mcp = everything().await;
    let echo = mcp
        .call_tool("echo", json!({"message": "order #1234 confirmed"}))
        .await;
    echo.text_matches(r"^order #\d+ confirmed$");
    pin!(
        "text_matches",
        failure(&echo, expect::text_matches(r"#\d{5}"))
    );
    pin!(
        "text_matches_invalid_pattern",
        failure(&echo, expect::text_matches(r"(unclosed"))
    );
}

#[tokio::test]
async fn text_in_order() {
    let mcp = everything().await;
    let echo = mcp
        .call_tool(
            "echo",
            json!({"message": "first, then second, finally third"}),
        )
        .await;
    echo.text_in_order(["first", "second", "third"]);
    pin!(
        "text_in_order",
        failure(&echo, expect::text_in_order(["first", "third", "second"]))
    );
    pin!(
        "text_in_order_missing",
        failure(&echo, expect::text_in_order(["first", "fourth"]))
    );
}

#[tokio::test]
async fn not_empty() {
    let mcp = everything().await;
    mcp.call_tool("echo", json!({"message": "x"}))
        .await
        .not_empty();
    // Content other than text counts.
    mcp.call_tool("image", json!({})).await.not_empty();
    mcp.call_tool("weather", json!({"city": "Paris"}))
        .await
        .not_empty();
    for empty in ["", "  ", "null", "[]", "{ }"] {
        let call = mcp.call_tool("echo", json!({"message": empty})).await;
        assert!(call.check(expect::not_empty()).is_err(), "{empty:?}");
    }
    let call = mcp.call_tool("echo", json!({"message": "[]"})).await;
    pin!("not_empty", failure(&call, expect::not_empty()));
}

// ---- content blocks ----

#[tokio::test]
async fn has_content() {
    let mcp = everything().await;
    mcp.call_tool("echo", json!({"message": "hi"}))
        .await
        .has_content(ContentKind::text());
    mcp.call_tool("image", json!({}))
        .await
        .has_content(ContentKind::image("image/png"))
        .has_content(ContentKind::Image(None));
    mcp.call_tool("audio", json!({}))
        .await
        .has_content(ContentKind::audio("audio/wav"));
    mcp.call_tool("embedded_resource", json!({}))
        .await
        .has_content(ContentKind::resource("fixture://static/text"));
    mcp.call_tool("resource_link", json!({}))
        .await
        .has_content(ContentKind::resource_link("fixture://static/text"));

    let image = mcp.call_tool("image", json!({})).await;
    pin!(
        "has_content",
        failure(
            &image,
            expect::has_content(ContentKind::image("image/jpeg"))
        )
    );
    let link = mcp.call_tool("resource_link", json!({})).await;
    pin!(
        "has_content_resource",
        failure(
            &link,
            expect::has_content(ContentKind::resource("fixture://static/text"))
        )
    );
}

// ---- structured content and JSON ----

#[tokio::test]
async fn structured_eq() {
    let mcp = everything().await;
    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    weather.structured_eq(json!({"city": "Paris", "temperature": 21.5, "conditions": "sunny"}));
    pin!(
        "structured_eq",
        failure(
            &weather,
            expect::structured_eq(
                json!({"city": "Paris", "temperature": 19, "conditions": "sunny"})
            )
        )
    );
    let echo = mcp.call_tool("echo", json!({"message": "{}"})).await;
    pin!(
        "structured_eq_none",
        failure(&echo, expect::structured_eq(json!({})))
    );
}

#[tokio::test]
async fn structured_contains() {
    let mcp = everything().await;
    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    weather.structured_contains(json!({"city": "Paris"}));
    pin!(
        "structured_contains",
        failure(
            &weather,
            expect::structured_contains(json!({"city": "Paris", "conditions": "rain"}))
        )
    );
}

#[tokio::test]
async fn json_path_exists() {
    let mcp = everything().await;
    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    weather.json_path_exists("$.temperature");
    pin!(
        "json_path_exists",
        failure(&weather, expect::json_path_exists("$.humidity"))
    );
    pin!(
        "json_path_invalid",
        failure(&weather, expect::json_path_exists("$.[oops"))
    );
    let plain = mcp.call_tool("echo", json!({"message": "not json"})).await;
    pin!(
        "json_path_not_json",
        failure(&plain, expect::json_path_exists("$.a"))
    );
}

#[tokio::test]
async fn json_path_eq() {
    let mcp = everything().await;
    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    weather
        .json_path_eq("$.city", json!("Paris"))
        .json_path_eq("$.temperature", json!(21.5));
    // Applied to the text when it is JSON.
    let echo = mcp
        .call_tool(
            "echo",
            json!({"message": r#"{"items": [{"id": 1}, {"id": 2}]}"#}),
        )
        .await;
    echo.json_path_eq("$.items[*].id", json!([1, 2]));
    pin!(
        "json_path_eq",
        failure(&weather, expect::json_path_eq("$.city", json!("Rome")))
    );
}

#[tokio::test]
async fn json_path_count() {
    let mcp = everything().await;
    let echo = mcp
        .call_tool("echo", json!({"message": r#"{"items": [1, 2, 3, 4]}"#}))
        .await;
    echo.json_path_count("$.items[*]", 4)
        .json_path_count("$.items[?@ > 2]", 1..=2);
    pin!(
        "json_path_count",
        failure(&echo, expect::json_path_count("$.items[*]", ..=3))
    );
}

#[tokio::test]
async fn array_len() {
    let mcp = everything().await;
    let echo = mcp.call_tool("echo", json!({"message": "[1, 2, 3]"})).await;
    echo.array_len(3).array_len(1..).array_len(..=3);
    pin!("array_len", failure(&echo, expect::array_len(5..)));
    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    pin!(
        "array_len_not_array",
        failure(&weather, expect::array_len(1..))
    );
}

#[tokio::test]
async fn matches_output_schema() {
    let mcp = everything().await;
    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    assert!(
        weather.tool().is_some(),
        "the harness attached the definition"
    );
    weather.matches_output_schema();

    let bad = mcp.call_tool("weather_bad", json!({"city": "Paris"})).await;
    pin!(
        "matches_output_schema",
        failure(&bad, expect::matches_output_schema())
    );

    let add = mcp.call_tool("add", json!({"a": 1, "b": 2})).await;
    pin!(
        "matches_output_schema_none_declared",
        failure(&add, expect::matches_output_schema())
    );
}

#[tokio::test]
async fn matches_output_schema_without_a_definition_says_how_to_fix_it() {
    let mcp = everything().await;
    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    let by_hand = ToolCall::from_parts("weather", json!({"city": "Paris"}), weather.into_outcome());
    pin!(
        "matches_output_schema_unknown_tool",
        failure(&by_hand, expect::matches_output_schema())
    );
    // Attaching the definition by hand fixes it.
    let tools = mcp.list_tools().await.unwrap();
    let definition: Tool = tools.iter().find(|t| t.name == "weather").unwrap().clone();
    let again = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    ToolCall::from_parts("weather", json!({"city": "Paris"}), again.into_outcome())
        .with_tool(definition)
        .matches_output_schema();
}

#[tokio::test]
async fn matches_schema() {
    let mcp = everything().await;
    let weather = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    weather.matches_schema(json!({
        "type": "object",
        "required": ["city"],
        "properties": {"city": {"type": "string"}}
    }));
    pin!(
        "matches_schema",
        failure(
            &weather,
            expect::matches_schema(json!({
                "type": "object",
                "required": ["humidity"],
                "properties": {"temperature": {"type": "integer"}}
            }))
        )
    );
    pin!(
        "matches_schema_invalid_schema",
        failure(&weather, expect::matches_schema(json!({"type": 12})))
    );
}

// ---- duration and progress ----

#[tokio::test]
async fn duration_under() {
    let mcp = everything().await;
    let add = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    add.duration_under(Duration::from_secs(10));
    let slow = mcp.call_tool("slow", json!({"ms": 30})).await;
    pin!(
        "duration_under",
        failure(&slow, expect::duration_under(Duration::from_millis(10)))
    );
}

#[tokio::test]
async fn progress_count_of_a_call() {
    let mcp = everything().await;
    let call = mcp
        .call_tool("progress", json!({"steps": 3, "delay_ms": 1}))
        .await;
    call.progress_count(3).progress_count(1..);
    pin!(
        "progress_count_call",
        failure(&call, expect::progress_count(4..))
    );
}

// ---- files ----

#[tokio::test]
async fn file_contains() {
    let (mcp, _dir) = rooted().await;
    let wrote = mcp
        .call_tool(
            "write_file",
            json!({"path": "notes/today.txt", "content": "buy milk"}),
        )
        .await;
    wrote
        .assert_success()
        .file_contains("notes/today.txt", "milk");
    pin!(
        "file_contains",
        failure(&wrote, expect::file_contains("notes/today.txt", "eggs"))
    );
    pin!(
        "file_contains_missing",
        failure(&wrote, expect::file_contains("notes/tomorrow.txt", "eggs"))
    );
    pin!(
        "file_contains_outside",
        failure(&wrote, expect::file_contains("../etc/passwd", "root"))
    );
}

#[tokio::test]
async fn file_not_contains() {
    let (mcp, _dir) = rooted().await;
    let wrote = mcp
        .call_tool(
            "write_file",
            json!({"path": "config.toml", "content": "token = \"s3cret\""}),
        )
        .await;
    wrote.file_not_contains("config.toml", "password");
    pin!(
        "file_not_contains",
        failure(
            &wrote,
            expect::not(expect::file_contains("config.toml", "s3cret"))
        )
    );
}

#[tokio::test]
async fn file_not_exists() {
    let (mcp, _dir) = rooted().await;
    let wrote = mcp
        .call_tool("write_file", json!({"path": "a.txt", "content": "a"}))
        .await;
    wrote.file_not_exists("b.txt");
    pin!(
        "file_not_exists",
        failure(&wrote, expect::not(expect::file_exists("a.txt")))
    );
}

#[tokio::test]
async fn files_unchanged() {
    let (mcp, dir) = rooted().await;
    std::fs::write(dir.path().join("keep.txt"), "keep me\nas I am\n").unwrap();
    std::fs::write(dir.path().join("edit.txt"), "debug = false").unwrap();

    let before = FileSnapshot::of(&mcp, ["keep.txt", "edit.txt", "new.txt"]);
    let read = mcp
        .call_tool("read_file", json!({"path": "keep.txt"}))
        .await;
    read.assert_success().files_unchanged(&before);

    let wrote = mcp
        .call_tool(
            "write_file",
            json!({"path": "edit.txt", "content": "debug = true"}),
        )
        .await;
    let created = mcp
        .call_tool("write_file", json!({"path": "new.txt", "content": "hello"}))
        .await;
    let rewrote = mcp
        .call_tool(
            "write_file",
            json!({"path": "keep.txt", "content": "keep me\nas I was\n"}),
        )
        .await;
    wrote.assert_success();
    created.assert_success();
    pin!(
        "files_unchanged",
        failure(&rewrote, expect::files_unchanged(&before))
    );
}

#[tokio::test]
async fn file_checks_need_a_fixture_dir() {
    let mcp = everything().await;
    let add = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    pin!(
        "file_contains_no_fixture_dir",
        failure(&add, expect::file_contains("a.txt", "x"))
    );
    let before = FileSnapshot::of(&mcp, ["a.txt"]);
    pin!(
        "files_unchanged_no_fixture_dir",
        failure(&add, expect::files_unchanged(&before))
    );
}

// ---- the server's stderr ----

#[tokio::test]
async fn a_failure_ends_with_the_servers_stderr() {
    let mcp = Server::program(EVERYTHING).connect().await.unwrap();
    mcp.call_tool("stderr", json!({"message": "warning: cache is cold"}))
        .await
        .assert_success();
    mcp.call_tool(
        "stderr",
        json!({"message": "error: lookup failed for Rome"}),
    )
    .await
    .assert_success();
    let echo = mcp.call_tool("echo", json!({"message": "Paris"})).await;
    // The stderr reader runs alongside; give it a moment to catch up.
    for _ in 0..100 {
        if mcp.stderr().contains("Rome") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    pin!("stderr_tail", failure(&echo, expect::text_eq("Rome")));
}
