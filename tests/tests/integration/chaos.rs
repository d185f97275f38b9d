//! Every misbehaviour of `fixture-chaos` ends in the right error, within a
//! bounded time, with no process left behind — checked in the process table,
//! not just through the handle.

use std::time::Duration;

use mcptest::{Error, McpClient, Server, WireSchema};
use mcptest_tests::procs;
use serde_json::json;

const CHAOS: &str = env!("CARGO_BIN_EXE_fixture-chaos");
/// Generous bound for "promptly": far below any timeout in play, far above
/// scheduling noise on a loaded CI machine.
pub(super) const PROMPT: Duration = Duration::from_secs(5);

/// `fixture-chaos` with `flags`, short timeouts and grace (also for `hostile`).
pub(super) fn chaos(flags: &[&str]) -> Server {
    Server::program(CHAOS)
        .args(flags.iter().copied())
        .timeout(Duration::from_secs(20))
        .connect_timeout(Duration::from_secs(20))
        .shutdown_grace(Duration::from_millis(200))
}

/// A chaos server that writes its pid to a file of its own before it does
/// anything else, so a test whose connect fails (and so has no client to ask)
/// can still prove that the process it started is gone.
struct PidFile(tempfile::TempDir);

impl PidFile {
    fn new() -> Self {
        PidFile(tempfile::tempdir().expect("a temp dir for the pid file"))
    }

    fn path(&self) -> String {
        self.0.path().join("pid").display().to_string()
    }

    fn server(&self, flags: &[&str]) -> Server {
        chaos(flags).args(["--pid-file".to_owned(), self.path()])
    }

    fn pid(&self) -> u32 {
        let text = std::fs::read_to_string(self.path()).expect("the server wrote its pid file");
        text.trim().parse().expect("a pid")
    }
}

async fn connect(flags: &[&str]) -> McpClient {
    chaos(flags).connect().await.expect("connects")
}

/// Closes the client and proves the server and its group are gone.
pub(super) async fn close_and_check(mcp: McpClient) {
    let pid = mcp.pid().expect("a process");
    mcp.close().await;
    procs::assert_gone(pid, PROMPT);
    assert!(procs::zombie_children().iter().all(|z| z.pid != pid));
}

#[tokio::test]
async fn a_well_behaved_run_is_clean() {
    let mcp = connect(&[]).await;
    let call = mcp.call_tool("poke", json!({})).await;
    assert_eq!(call.text(), "poked");
    let pid = mcp.pid().unwrap();
    let status = mcp.close().await.expect("exit status");
    assert_eq!(status.code(), Some(0));
    procs::assert_gone(pid, PROMPT);
}

#[tokio::test]
async fn exit_before_initialize_is_a_server_exit_with_its_code_and_stderr() {
    let pid_file = PidFile::new();
    let err = pid_file
        .server(&["--exit-before-initialize"])
        .connect()
        .await
        .unwrap_err();
    // A server exit, not a timeout: the failure is the real cause.
    match &err {
        Error::ServerExited {
            method,
            status,
            output,
        } => {
            assert_eq!(method.as_deref(), Some("initialize"));
            assert_eq!(status.and_then(|s| s.code()), Some(3));
            assert!(output.stderr.contains("chaos: exiting before initialize"));
        }
        other => panic!("expected ServerExited, got {other:?}"),
    }
    let text = err.to_string();
    assert!(
        text.starts_with(
            "server exited with code 3 while mcptest waited for the answer to initialize"
        ),
        "{text}"
    );
    assert!(
        text.contains("server stderr:\n  | chaos: exiting before initialize"),
        "{text}"
    );
    procs::assert_gone(pid_file.pid(), PROMPT);
}

#[tokio::test]
async fn exit_mid_call_fails_that_call_at_once() {
    let mcp = connect(&["--exit-mid-call"]).await;
    let pid = mcp.pid().unwrap();
    let call = mcp.call_tool("poke", json!({})).await;
    // The exit fails the call, not the request timeout.
    match call.failure() {
        Some(Error::ServerExited {
            method,
            status,
            output,
        }) => {
            assert_eq!(method.as_deref(), Some("tools/call"));
            assert_eq!(status.and_then(|s| s.code()), Some(7));
            assert!(output.stderr.contains("chaos: exiting mid-call"));
        }
        other => panic!("expected ServerExited, got {other:?}"),
    }
    drop(mcp);
    procs::assert_gone(pid, PROMPT);
}

#[tokio::test]
async fn never_answering_is_a_timeout_naming_the_method() {
    let mcp = connect(&["--never-answer"]).await;
    let call = mcp
        .call_tool_with_timeout("poke", json!({}), Duration::from_millis(300))
        .await;
    match call.failure() {
        Some(Error::Timeout { method, after, .. }) => {
            assert_eq!(method, "tools/call");
            assert_eq!(*after, Duration::from_millis(300));
        }
        other => panic!("expected Timeout, got {other:?}"),
    }
    assert_eq!(
        call.failure().unwrap().to_string().lines().next().unwrap(),
        "tools/call timed out after 300ms"
    );
    // Other requests still work: only the call was ignored.
    mcp.ping().await.expect("ping");
    close_and_check(mcp).await;
}

#[tokio::test]
async fn a_partial_line_is_reported_with_the_timeout() {
    let mcp = connect(&["--partial-line"]).await;
    let call = mcp
        .call_tool_with_timeout("poke", json!({}), Duration::from_millis(300))
        .await;
    let err = call.failure().expect("a failure");
    assert!(matches!(err, Error::Timeout { .. }), "{err:?}");
    let output = err.server_output().unwrap();
    let partial = output
        .partial_line
        .as_deref()
        .expect("the partial line is shown");
    assert!(
        partial.starts_with("{\"jsonrpc\":\"2.0\",\"id\":"),
        "{partial}"
    );
    assert!(
        err.to_string().contains("unterminated line on stdout"),
        "{err}"
    );
    close_and_check(mcp).await;
}

#[tokio::test]
async fn garbage_on_stdout_is_recorded_and_does_not_hang() {
    let mcp = connect(&["--garbage"]).await;
    let call = mcp.call_tool("poke", json!({})).await;
    assert_eq!(call.text(), "poked", "{call:?}");
    let noise = mcp.stdout_noise();
    assert!(
        noise.contains(&"chaos: this is not json".to_owned()),
        "{noise:?}"
    );
    assert!(
        noise.contains(&"{\"hello\":\"world\"}".to_owned()),
        "{noise:?}"
    );
    assert!(call.server_output().stdout_noise_total >= 3);
    close_and_check(mcp).await;
}

#[tokio::test]
async fn a_50_mb_response_is_refused_by_default_and_accepted_when_allowed() {
    let mcp = connect(&["--huge-response"]).await;
    let call = mcp.call_tool("poke", json!({})).await;
    match call.failure() {
        Some(Error::Transport { reason, .. }) => {
            assert!(reason.contains("more than 16 MiB"), "{reason}");
            assert!(reason.contains("Server::max_message_size"), "{reason}");
        }
        other => panic!("expected a transport error, got {other:?}"),
    }
    close_and_check(mcp).await;

    let mcp = chaos(&["--huge-response"])
        .max_message_size(64 * 1024 * 1024)
        .connect()
        .await
        .unwrap();
    let call = mcp.call_tool("poke", json!({})).await;
    assert_eq!(call.text().len(), 50 * 1024 * 1024);
    close_and_check(mcp).await;
}

#[tokio::test]
async fn a_stderr_flood_is_bounded_and_service_goes_on() {
    let mcp = connect(&["--stderr-flood"]).await;
    for _ in 0..20 {
        let call = mcp.call_tool("poke", json!({})).await;
        assert_eq!(call.text(), "poked");
    }
    assert!(mcp.stderr().len() <= 64 * 1024, "{}", mcp.stderr().len());
    close_and_check(mcp).await;
}

#[tokio::test]
async fn ignoring_eof_gets_the_group_killed_after_the_grace_period() {
    let mcp = connect(&["--ignore-eof", "--spawn-grandchild"]).await;
    let pid = mcp.pid().unwrap();
    let grandchild = grandchild_pid(&mcp).await;
    assert!(procs::process(grandchild).is_some());
    let status = mcp.close().await.expect("reaped");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(9), "killed: {status}");
    }
    procs::assert_gone(pid, PROMPT);
    procs::assert_gone(grandchild, PROMPT);
}

#[tokio::test]
async fn a_response_with_the_wrong_id_times_out_and_is_shown() {
    let mcp = connect(&["--wrong-id"]).await;
    let call = mcp
        .call_tool_with_timeout("poke", json!({}), Duration::from_millis(300))
        .await;
    let err = call.failure().expect("a failure");
    assert!(matches!(err, Error::Timeout { .. }), "{err:?}");
    let stray = &err.server_output().unwrap().stray_responses;
    assert_eq!(stray.len(), 1, "{stray:?}");
    assert!(
        err.to_string()
            .contains("responses with an id mcptest never sent"),
        "{err}"
    );
    close_and_check(mcp).await;
}

#[tokio::test]
async fn a_slow_start_is_waited_for_or_times_out() {
    let mcp = chaos(&["--slow-start", "500"])
        .connect()
        .await
        .expect("waited");
    close_and_check(mcp).await;

    let pid_file = PidFile::new();
    let err = pid_file
        .server(&["--slow-start", "5000"])
        .connect_timeout(Duration::from_millis(300))
        .connect()
        .await
        .unwrap_err();
    // The connect timeout fired (300 ms), not the server's answer after 5 s.
    match &err {
        Error::Timeout { method, after, .. } => {
            assert_eq!(method, "initialize");
            assert_eq!(*after, Duration::from_millis(300));
        }
        other => panic!("expected Timeout, got {other:?}"),
    }
    procs::assert_gone(pid_file.pid(), PROMPT);
}

#[test]
fn a_panicking_test_still_tears_the_server_down() {
    let (tx, rx) = std::sync::mpsc::channel();
    let result = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let mcp = connect(&["--ignore-eof", "--spawn-grandchild"]).await;
            let grandchild = grandchild_pid(&mcp).await;
            tx.send((mcp.pid().unwrap(), grandchild)).unwrap();
            panic!("the test body fails while the server runs");
        })
    })
    .join();
    assert!(result.is_err(), "the thread panicked");
    let (pid, grandchild) = rx.recv().unwrap();
    procs::assert_gone(pid, PROMPT);
    procs::assert_gone(grandchild, PROMPT);
    assert!(procs::zombie_children().iter().all(|z| z.pid != pid));
}

#[test]
fn dropping_a_client_outside_the_runtime_still_tears_the_server_down() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let mcp = runtime.block_on(connect(&["--print-pid"]));
    let pid = mcp.pid().unwrap();
    drop(mcp);
    procs::assert_gone(pid, PROMPT);
    drop(runtime);
}

async fn grandchild_pid(mcp: &McpClient) -> u32 {
    for _ in 0..500 {
        if let Some(pid) = mcp
            .stderr()
            .lines()
            .find_map(|l| l.strip_prefix("chaos: grandchild pid "))
            .and_then(|p| p.trim().parse().ok())
        {
            return pid;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no grandchild pid on stderr: {:?}", mcp.stderr());
}

#[tokio::test]
async fn a_rejected_initialize_is_a_handshake_error_with_the_code() {
    let pid_file = PidFile::new();
    let err = pid_file
        .server(&["--reject-initialize"])
        .connect()
        .await
        .unwrap_err();
    match &err {
        Error::Handshake { method, reason, .. } => {
            assert_eq!(method, "initialize");
            assert_eq!(
                reason,
                "the server answered with JSON-RPC error -32600: chaos: initialize rejected"
            );
        }
        other => panic!("expected Handshake, got {other:?}"),
    }
    procs::assert_gone(pid_file.pid(), PROMPT);
}

#[tokio::test]
async fn a_result_that_breaks_the_schema_is_a_schema_violation_with_its_path() {
    let mcp = connect(&["--malformed-result"]).await;
    let err = mcp.list_tools().await.unwrap_err();
    match &err {
        Error::SchemaViolation {
            method, violation, ..
        } => {
            assert_eq!(method, "tools/list");
            assert_eq!(violation.path, "result.tools", "{err}");
            assert_eq!(violation.revision, "2025-11-25");
            assert!(violation.message.contains("\"not a list\""), "{err}");
            assert_eq!(
                violation.requirement, "`tools` must be an array, not the string \"not a list\"",
                "{err}"
            );
        }
        other => panic!("expected SchemaViolation, got {other:?}"),
    }
    close_and_check(mcp).await;
}

#[tokio::test]
async fn an_input_schema_rmcp_accepts_but_the_schema_does_not_fails_list_tools() {
    let mcp = connect(&["--array-input-schema"]).await;
    let err = mcp.list_tools().await.unwrap_err();
    let Error::SchemaViolation { violation, .. } = &err else {
        panic!("expected SchemaViolation, got {err:?}");
    };
    assert_eq!(violation.path, "result.tools[0].inputSchema.type", "{err}");
    // In the schema's words: the JSON member and what the schema requires,
    // not the generated types' Rust (`type_`, `ToolInputSchema`).
    assert_eq!(
        violation.requirement, "`type` must be \"object\", not \"array\"",
        "{err}"
    );
    assert!(err.to_string().starts_with("tools/list: the answer to tools/list breaks the MCP 2025-11-25 schema (ListToolsResult) at result.tools[0].inputSchema.type: "), "{err}");
    // Warned, the list goes through as rmcp read it.
    let warned = chaos(&["--array-input-schema"])
        .wire_schema(WireSchema::Warn)
        .connect()
        .await
        .unwrap();
    warned.list_tools().await.unwrap().has("poke");
    close_and_check(warned).await;
    close_and_check(mcp).await;
}

#[tokio::test]
async fn a_notification_rmcp_drops_is_caught_when_the_client_closes() {
    let mcp = connect(&["--string-progress"]).await;
    mcp.call_tool("poke", json!({})).await.assert_success();
    let pid = mcp.pid().expect("a process");
    let closed = tokio::spawn(mcp.close()).await;
    let panic = closed.expect_err("the test fails at close").into_panic();
    let message = panic.downcast_ref::<String>().expect("a message").clone();
    assert!(
        message.starts_with("mcptest: the server sent 1 message that breaks the MCP schema:\n  notification notifications/progress breaks the MCP 2025-11-25 schema (ProgressNotification) at params.progress: "),
        "{message}"
    );
    procs::assert_gone(pid, PROMPT);
}

#[tokio::test]
async fn a_result_that_cannot_be_read_is_a_protocol_error() {
    // With the schema check off, what rmcp's types cannot read still fails.
    let mcp = chaos(&["--malformed-result"])
        .wire_schema(WireSchema::Off)
        .connect()
        .await
        .unwrap();
    let err = mcp.list_tools().await.unwrap_err();
    match &err {
        Error::Protocol { method, reason, .. } => {
            assert_eq!(method, "tools/list");
            assert!(reason.contains("does not match the MCP schema"), "{reason}");
            assert!(reason.contains("\"not a list\""), "{reason}");
        }
        other => panic!("expected Protocol, got {other:?}"),
    }
    close_and_check(mcp).await;
}
