//! Nothing goes unchecked: a call that got no answer and that nothing looked
//! at fails its test, naming the call and the failure; looking at it in any
//! way, or saying the failure is expected (`assert_failed`), passes.

use std::time::Duration;

use mcptest::prelude::*;

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");

#[mcp_test(bin = "fixture-everything", timeout = "300ms")]
#[should_panic(
    expected = "a request got no answer and the test never looked at it:\n  tools/call slow: "
)]
#[allow(unused_must_use)]
async fn a_call_that_timed_out_unexamined_fails_the_test(mcp: McpClient) {
    // The call outlives the timeout; nothing looks at it.
    mcp.call_tool("slow", json!({"ms": 5_000})).await;
}

#[mcp_test(bin = "fixture-everything", timeout = "300ms")]
async fn a_failure_the_test_expects_is_said_with_assert_failed(mcp: McpClient) {
    mcp.call_tool("slow", json!({"ms": 5_000}))
        .await
        .assert_failed();
}

#[mcp_test(bin = "fixture-everything", timeout = "300ms")]
async fn looking_at_the_failure_in_any_way_counts(mcp: McpClient) {
    let call = mcp.call_tool("slow", json!({"ms": 5_000})).await;
    assert!(
        matches!(call.failure(), Some(Error::Timeout { .. })),
        "{call:?}"
    );
    let again = mcp.call_tool("slow", json!({"ms": 5_000})).await;
    assert!(!again.is_success());
}

#[mcp_test(bin = "fixture-everything")]
async fn an_answered_call_needs_no_look(mcp: McpClient) {
    // Not a failure: dropping it is the compiler's business (must_use), not
    // the client's.
    let _ = mcp.call_tool("echo", json!({"message": "x"})).await;
}

#[tokio::test]
async fn close_fails_for_each_dropped_failure_and_says_what_to_do() {
    let mcp = Server::program(EVERYTHING)
        .timeout(Duration::from_millis(300))
        .connect()
        .await
        .unwrap();
    drop(mcp.call_tool("slow", json!({"ms": 5_000})).await);
    drop(mcp.call_tool("slow", json!({"ms": 6_000})).await);
    let pid = mcp.pid();
    let closed = tokio::spawn(mcp.close()).await;
    let panic = closed.expect_err("close fails the test").into_panic();
    let message = panic
        .downcast_ref::<String>()
        .expect("a formatted message")
        .clone();
    assert!(
        message.starts_with(
            "mcptest: 2 requests got no answer and the test never looked at them:\n  tools/call slow: "
        ),
        "{message}"
    );
    assert!(message.contains("`.assert_failed()`"), "{message}");
    // The server was stopped before the test was failed.
    if let Some(pid) = pid {
        mcptest_tests::procs::assert_gone(pid, Duration::from_secs(5));
    }
}
