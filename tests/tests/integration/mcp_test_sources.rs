//! `#[mcp_test]` with each way to reach the server (`bin`, `server`, `url`,
//! `sse`, `handler`) and each option (`args`, `env`, `cwd`, `timeout`, `protocol`,
//! `setup`, `flavor`, `crate`), against `fixture-everything`.

use std::{sync::Mutex, time::Duration};

use mcptest::prelude::*;
use mcptest_tests::{
    everything::{Everything, EverythingConfig},
    http::HttpFixture,
};

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");

#[mcp_test(bin = "fixture-everything")]
async fn bin_starts_a_binary_of_this_package(mcp: McpClient) {
    assert_eq!(mcp.server_info().name, "fixture-everything");
    assert!(mcp.pid().is_some(), "a process was spawned");
    let call = mcp.call_tool("echo", json!({"message": "hello"})).await;
    assert_eq!(call.text(), "hello", "{call:?}");
}

#[mcp_test(bin = "fixture-everything", args = ["--page-size", "2"])]
async fn args_are_passed_to_the_binary(mcp: McpClient) {
    let page = mcp.list_tools_page(None).await.unwrap();
    assert_eq!(
        page.value().tools.len(),
        2,
        "--page-size 2 reached the server"
    );
}

// `server` is split like a shell would; the quotes keep a path with spaces whole.
#[mcp_test(server = concat!("'", env!("CARGO_BIN_EXE_fixture-everything"), "' --page-size 3"))]
async fn server_runs_a_command_line(mcp: McpClient) {
    let page = mcp.list_tools_page(None).await.unwrap();
    assert_eq!(page.value().tools.len(), 3);
}

#[mcp_test(server = concat!("'", env!("CARGO_BIN_EXE_fixture-everything"), "'"), args = ["--page-size", "4"])]
async fn args_extend_a_command_line(mcp: McpClient) {
    let page = mcp.list_tools_page(None).await.unwrap();
    assert_eq!(page.value().tools.len(), 4);
}

#[mcp_test(handler = Everything::new(EverythingConfig::default()))]
async fn handler_is_hosted_in_process(mcp: McpClient) {
    assert_eq!(mcp.pid(), None, "no process");
    assert_eq!(mcp.server_info().name, "fixture-everything");
    let call = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
    assert_eq!(call.text(), "5");
}

/// The HTTP server this file's `url` test talks to; the test stops it.
static HTTP: Mutex<Option<HttpFixture>> = Mutex::new(None);

fn start_http_fixture() -> String {
    let fixture = HttpFixture::start(EVERYTHING, &["--http"]);
    let url = fixture.url.clone();
    *HTTP.lock().unwrap() = Some(fixture);
    url
}

// `url` takes a literal, or an expression evaluated when the test starts.
#[mcp_test(url = start_http_fixture(), timeout = "20s")]
async fn url_dials_streamable_http(mcp: McpClient) {
    assert_eq!(mcp.pid(), None, "dialled, not spawned");
    assert_eq!(mcp.server_info().name, "fixture-everything");
    let call = mcp.call_tool("echo", json!({"message": "over http"})).await;
    assert_eq!(call.text(), "over http", "{call:?}");
    drop(HTTP.lock().unwrap().take());
}

/// The HTTP+SSE server this file's `sse` test talks to; the test stops it.
static SSE: Mutex<Option<HttpFixture>> = Mutex::new(None);

fn start_sse_fixture() -> String {
    let fixture = HttpFixture::start(EVERYTHING, &["--sse"]);
    let url = fixture.url.clone();
    *SSE.lock().unwrap() = Some(fixture);
    url
}

// `sse` reads like `url`, for the legacy HTTP+SSE transport.
#[mcp_test(sse = start_sse_fixture(), timeout = "20s")]
async fn sse_dials_the_legacy_transport(mcp: McpClient) {
    assert_eq!(mcp.pid(), None, "dialled, not spawned");
    let call = mcp.call_tool("echo", json!({"message": "over sse"})).await;
    assert_eq!(call.text(), "over sse", "{call:?}");
    drop(SSE.lock().unwrap().take());
}

#[mcp_test(bin = "fixture-everything", env(MCPTEST_GREETING = "hello", "MCPTEST_FROM_TEST" = "${CARGO_PKG_NAME}"))]
async fn env_sets_the_servers_environment(mcp: McpClient) {
    let call = mcp
        .call_tool("env", json!({"name": "MCPTEST_GREETING"}))
        .await;
    assert_eq!(call.text(), "hello");
    // Values expand ${VAR} from the test's environment.
    let call = mcp
        .call_tool("env", json!({"name": "MCPTEST_FROM_TEST"}))
        .await;
    assert_eq!(call.text(), "mcptest-tests");
}

#[mcp_test(bin = "fixture-everything", cwd = "tests/fixtures")]
async fn cwd_sets_the_servers_working_directory(mcp: McpClient) {
    let call = mcp.call_tool("cwd", json!({})).await;
    let expected = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .canonicalize()
        .unwrap();
    assert_eq!(call.text(), expected.display().to_string());
}

#[mcp_test(handler = Everything::new(EverythingConfig::default()), timeout = "300ms")]
async fn timeout_bounds_each_request(mcp: McpClient) {
    let quick = mcp.call_tool("slow", json!({"ms": 10})).await;
    assert!(quick.is_success(), "{quick:?}");
    let slow = mcp.call_tool("slow", json!({"ms": 5000})).await;
    match slow.failure() {
        Some(Error::Timeout { after, .. }) => assert_eq!(*after, Duration::from_millis(300)),
        other => panic!("expected a timeout after 300ms, got {other:?}"),
    }
}

#[mcp_test(bin = "fixture-everything", protocol = "2025-03-26")]
async fn protocol_picks_the_version_offered(mcp: McpClient) {
    assert_eq!(
        mcp.server_info().protocol_version.as_str(),
        "2025-03-26",
        "the server accepted the version the attribute offered"
    );
}

fn with_sampling(server: Server) -> Server {
    server.sampling(Sampling::text("a mocked reply").model("mock"))
}

#[mcp_test(bin = "fixture-everything", setup = with_sampling)]
async fn setup_adjusts_the_builder(mcp: McpClient) {
    let call = mcp.call_tool("sample", json!({"prompt": "hi"})).await;
    assert_eq!(call.text(), "a mocked reply", "{call:?}");
}

#[mcp_test(handler = Everything::new(EverythingConfig::default()), setup = |s: Server| s.client_info("from-a-closure", "1.0"))]
async fn setup_can_be_a_closure(mcp: McpClient) {
    mcp.ping().await.unwrap();
}

#[mcp_test(handler = Everything::new(EverythingConfig::default()))]
async fn the_default_flavor_is_current_thread(mcp: McpClient) {
    assert_eq!(
        tokio::runtime::Handle::current().runtime_flavor(),
        tokio::runtime::RuntimeFlavor::CurrentThread
    );
    mcp.ping().await.unwrap();
}

#[mcp_test(handler = Everything::new(EverythingConfig::default()), flavor = "multi_thread")]
async fn flavor_multi_thread_runs_on_a_worker_pool(mcp: McpClient) {
    assert_eq!(
        tokio::runtime::Handle::current().runtime_flavor(),
        tokio::runtime::RuntimeFlavor::MultiThread
    );
    // Work spawned onto the pool can use the client concurrently.
    let clone = mcp.clone();
    let spawned =
        tokio::spawn(async move { clone.call_tool("add", json!({"a": 1, "b": 1})).await });
    assert_eq!(spawned.await.unwrap().text(), "2");
}

mod renamed_dependency {
    // As if Cargo.toml said `mcp = { package = "mcptest", .. }`.
    use mcptest as mcp;
    use mcptest_tests::everything::{Everything, EverythingConfig};

    #[mcp::mcp_test(crate = mcp, handler = Everything::new(EverythingConfig::default()))]
    async fn crate_names_the_dependency(client: mcp::McpClient) {
        client.ping().await.unwrap();
    }
}

#[mcp_test(bin = "fixture-everything")]
async fn a_test_may_return_ok(mcp: McpClient) -> Result<(), mcptest::Error> {
    mcp.ping().await?;
    Ok(())
}

#[mcp_test(bin = "fixture-everything")]
#[should_panic(expected = "the test returned an error: server exited")]
async fn a_test_that_returns_err_fails_with_the_error(
    mcp: McpClient,
) -> Result<(), mcptest::Error> {
    let status = mcp.clone().close().await;
    assert!(status.is_some());
    // The server is gone: this fails, and the test fails with that error.
    let _ = mcp.list_tools().await?;
    Ok(())
}

#[mcp_test(bin = "fixture-everything")]
async fn closing_the_client_in_the_test_is_fine(mcp: McpClient) {
    let status = mcp.close().await.expect("a process");
    assert!(status.success(), "{status}");
}

#[mcp_test(server = "mcptest-no-such-program --stdio")]
#[should_panic(expected = "cannot start the server under test (mcptest-no-such-program --stdio)")]
async fn a_server_that_cannot_start_fails_the_test(_mcp: McpClient) {
    unreachable!("the body never runs");
}

// The attribute's timeout bounds the handshake too: a server that takes a
// minute to start fails the test after one second, naming `initialize`.
#[mcp_test(bin = "fixture-chaos", args = ["--slow-start", "60000"], timeout = "1s")]
#[should_panic(expected = "initialize timed out after 1s")]
async fn the_timeout_bounds_the_handshake(_mcp: McpClient) {
    unreachable!("the body never runs");
}

#[mcp_test(handler = Everything::new(EverythingConfig::default()))]
async fn snapshots_are_named_after_the_test(mcp: McpClient) {
    let call = mcp
        .call_tool("echo", json!({"message": "named after the test"}))
        .await;
    insta::assert_snapshot!(call.text());
    // The file insta read is the one named after this function.
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/integration/snapshots")
        .join("integration__mcp_test_sources__snapshots_are_named_after_the_test.snap");
    assert!(file.is_file(), "{} is missing", file.display());
}

#[mcp_test(handler = Everything::new(EverythingConfig::default()))]
async fn insta_sees_the_test_name(_mcp: McpClient) {
    // What insta's name detection does: the type name of a function item
    // declared in the test, minus the item and any closures around it.
    fn here() {}
    let mut name = std::any::type_name_of_val(&here)
        .strip_suffix("::here")
        .unwrap();
    while let Some(outer) = name.strip_suffix("::{{closure}}") {
        name = outer;
    }
    assert_eq!(
        name.rsplit("::").next(),
        Some("insta_sees_the_test_name"),
        "{name}"
    );
}
