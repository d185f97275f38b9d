//! `#[mcp_test]` against third-party servers installed by `.ci/install-e2e.sh`:
//! `server` with a real command line, `args` and `timeout`.

use std::time::Duration;

use mcptest::prelude::*;
use mcptest_tests::e2e;

/// Node and Python servers can take a while to start on a busy machine.
fn slow_start(server: Server) -> Server {
    server.connect_timeout(Duration::from_secs(60))
}

/// The launcher's path, quoted so that the command line splits into one word
/// for it however the checkout is named.
fn quoted(var: &str) -> String {
    format!("'{}'", e2e::path(var).display())
}

#[mcp_test(server = quoted("MCPTEST_E2E_EVERYTHING"), timeout = "60s", setup = slow_start)]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn server_runs_the_reference_everything_server(mcp: McpClient) {
    assert_eq!(mcp.server_info().name, "mcp-servers/everything");
    let call = mcp
        .call_tool("echo", json!({"message": "from the attribute"}))
        .await;
    assert!(call.is_success(), "{call:?}");
    assert!(
        call.text().contains("from the attribute"),
        "{}",
        call.text()
    );
}

#[mcp_test(server = quoted("MCPTEST_E2E_TIME"), args = ["--local-timezone", "UTC"], timeout = "60s", setup = slow_start)]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn args_reach_the_python_time_server(mcp: McpClient) {
    let call = mcp
        .call_tool("get_current_time", json!({"timezone": "UTC"}))
        .await;
    assert!(call.is_success(), "{call:?}");
    assert!(call.text().contains("UTC"), "{}", call.text());
}
