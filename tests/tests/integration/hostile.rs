//! `fixture-chaos` as a hostile server: each mode ends in the right kind of
//! failure with what it sent kept within its bound, and no process left
//! behind. Every test runs under an overall limit so that a regression fails
//! instead of hanging; none asserts a duration.

use std::time::Duration;

use mcptest::{Error, limits};
use mcptest_tests::procs;
use serde_json::json;

use super::chaos::{chaos, close_and_check};

/// The overall limit of each test: far above what any of them needs.
const LIMIT: Duration = Duration::from_secs(120);

async fn bounded<T>(test: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(LIMIT, test)
        .await
        .expect("the test finished within its overall limit (it hung)")
}

#[tokio::test]
async fn a_ping_flood_then_a_server_that_stops_reading_still_closes() {
    bounded(async {
        let mcp = chaos(&["--ping-flood", "20000"]).connect().await.unwrap();
        let call = mcp.call_tool("poke", json!({})).await;
        assert_eq!(call.text(), "poked", "{call:?}");
        // The server reads none of the answers while it floods: once its
        // stdin pipe is full and SERVER_REQUESTS_IN_FLIGHT answers wait,
        // the rest go unanswered, counted, so nothing grows with the flood.
        let output = call.server_output();
        let answered = mcp.server_messages().count("ping");
        assert!(output.unanswered_requests > 0, "{output:?}");
        assert_eq!(answered + output.unanswered_requests, 20_000);
        assert!(
            output
                .to_string()
                .contains("requests from the server were not answered"),
            "{output}"
        );
        // The log keeps a bounded number of them and counts the rest.
        let log = mcp.server_messages();
        assert!(log.requests().len() <= limits::SERVER_REQUESTS_KEPT);
        assert_eq!(log.requests().len() + log.dropped(), answered);
        // The replies to the pings block on the server's full stdin; closing
        // must still reach the kill.
        close_and_check(mcp).await;
    })
    .await;
}

#[tokio::test]
async fn a_request_that_cannot_be_written_fails_saying_the_server_stopped_reading() {
    bounded(async {
        let mcp = chaos(&["--stop-reading"]).connect().await.unwrap();
        let first = mcp
            .call_tool_with_timeout("poke", json!({}), Duration::from_millis(500))
            .await;
        assert!(
            matches!(first.failure(), Some(Error::Timeout { .. })),
            "{first:?}"
        );
        let big = "x".repeat(4 * 1024 * 1024);
        let call = mcp
            .call_tool_with_timeout("poke", json!({ "big": big }), Duration::from_secs(1))
            .await;
        match call.failure() {
            Some(error @ Error::Transport { reason, .. }) => {
                assert!(reason.contains("stopped reading its stdin"), "{reason}");
                let shown = error.to_string();
                assert!(shown.contains("chaos: no longer reading stdin"), "{shown}");
            }
            other => panic!("expected a transport error, got {other:?}"),
        }
        close_and_check(mcp).await;
    })
    .await;
}

#[tokio::test]
async fn a_notification_flood_is_kept_within_the_bound_and_counted() {
    bounded(async {
        let flood = limits::NOTIFICATIONS_KEPT + 50_000;
        let mcp = chaos(&["--notification-flood", &flood.to_string()])
            .connect()
            .await
            .unwrap();
        let call = mcp.call_tool("poke", json!({})).await;
        assert_eq!(call.text(), "poked", "{call:?}");
        let log = mcp.server_messages();
        assert_eq!(log.count("notifications/message"), flood);
        assert!(log.all().len() <= limits::NOTIFICATIONS_KEPT);
        assert_eq!(log.all().len() + log.dropped(), flood);
        close_and_check(mcp).await;
    })
    .await;
}

#[tokio::test]
async fn a_stray_answer_flood_keeps_a_few_and_counts_the_rest() {
    bounded(async {
        let mcp = chaos(&["--stray-flood", "5000"]).connect().await.unwrap();
        let call = mcp.call_tool("poke", json!({})).await;
        assert_eq!(call.text(), "poked", "{call:?}");
        let output = call.server_output();
        assert_eq!(output.stray_responses.len(), limits::STRAY_KEPT);
        assert_eq!(output.stray_responses_total, 5000);
        let shown = output.to_string();
        assert!(
            shown.contains(&format!(
                "and {} more stray answers",
                5000 - limits::STRAY_KEPT
            )),
            "{shown}"
        );
        close_and_check(mcp).await;
    })
    .await;
}

#[cfg(target_os = "linux")]
#[test]
fn every_server_dies_with_the_thread_that_spawned_it() {
    // A thread that starts a server and ends without closing it, as a
    // SIGKILLed mcptest would: the kernel kills the server.
    let pid = std::thread::spawn(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mcp = chaos(&[]).connect().await.unwrap();
            let pid = mcp.pid().unwrap();
            std::mem::forget(mcp);
            pid
        })
    })
    .join()
    .unwrap();
    // Killed, not reaped (its handle was forgotten): a zombie, or gone.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        match procs::process(pid) {
            None => break,
            Some(row) if row.state == 'Z' => break,
            Some(row) => assert!(
                std::time::Instant::now() < deadline,
                "the server outlived the thread that spawned it: {row:?}"
            ),
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[tokio::test]
async fn an_answer_nested_past_the_parser_s_limit_is_refused_saying_what_arrived() {
    bounded(async {
        let mcp = chaos(&["--deep-answer", "100000"]).connect().await.unwrap();
        // Set aside as noise, the answer would leave the call to its
        // 20-second timeout; refused, it fails the call at once.
        let call = mcp.call_tool("poke", json!({})).await;
        match call.failure() {
            Some(Error::Protocol { method, reason, .. }) => {
                assert_eq!(method, "tools/call");
                assert!(
                    reason.contains("JSON nested deeper than 128 levels"),
                    "{reason}"
                );
                assert!(reason.contains("a line of 200"), "{reason}");
                assert!(
                    reason.contains(r#"{"jsonrpc":"2.0","id":"#),
                    "what arrived is shown: {reason}"
                );
            }
            other => panic!("expected the answer refused, got {other:?}"),
        }
        // The server is still there, and so is the connection.
        mcp.ping().await.expect("ping after the refused answer");
        close_and_check(mcp).await;
    })
    .await;
}

/// Kills a process this test caused, when dropped.
#[cfg(target_os = "linux")]
struct KillOnDrop(u32);

#[cfg(target_os = "linux")]
impl Drop for KillOnDrop {
    fn drop(&mut self) {
        // SAFETY: sending a signal has no memory-safety preconditions; the
        // pid is the stdout holder's, which the test saw alive.
        unsafe {
            libc::kill(self.0 as libc::pid_t, libc::SIGKILL);
        }
    }
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_server_that_exits_while_a_grandchild_holds_its_stdout_is_seen_at_once() {
    bounded(async {
        let mcp = chaos(&["--exit-leaving-grandchild"])
            .connect()
            .await
            .unwrap();
        let holder = loop {
            let pid = mcp
                .stderr()
                .lines()
                .find_map(|l| l.strip_prefix("chaos: stdout holder pid ")?.parse().ok());
            if let Some(pid) = pid {
                break KillOnDrop(pid);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let server = mcp.pid().unwrap();
        // The holder keeps the pipe open: the end of file never comes, so
        // only the server's exit can end the call before its timeout.
        let call = mcp.call_tool("poke", json!({})).await;
        match call.failure() {
            Some(Error::ServerExited { method, status, .. }) => {
                assert_eq!(method.as_deref(), Some("tools/call"));
                assert_eq!(status.and_then(|s| s.code()), Some(7));
            }
            other => panic!("expected the server's exit, got {other:?}"),
        }
        assert!(
            procs::process(holder.0).is_some_and(|row| row.state != 'Z'),
            "the holder was still running, so the exit was seen without an end of file"
        );
        drop(mcp);
        procs::assert_gone(server, super::chaos::PROMPT);
        drop(holder);
    })
    .await;
}
