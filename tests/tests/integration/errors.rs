//! Bad input gets a clear error that says what and where, never a panic or a hang.

use std::time::Duration;

use mcptest::{Error, Server};

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");

#[tokio::test]
async fn an_unbalanced_quote_is_an_invalid_command_quoting_the_input() {
    let err = Server::command("server --name 'oops")
        .connect()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::InvalidCommand { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "invalid server command \"server --name 'oops\": a quote is not closed"
    );
}

#[tokio::test]
async fn an_empty_command_is_an_invalid_command() {
    let err = Server::command("").connect().await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid server command \"\": it names no program"
    );
}

#[tokio::test]
async fn a_missing_program_lists_the_path_searched() {
    let err = Server::command("mcptest-no-such-server --stdio")
        .connect()
        .await
        .unwrap_err();
    match &err {
        Error::Spawn {
            program, searched, ..
        } => {
            assert_eq!(program, "mcptest-no-such-server");
            assert!(!searched.is_empty());
        }
        other => panic!("expected Spawn, got {other:?}"),
    }
    let text = err.to_string();
    assert!(
        text.starts_with(
            "could not start server: \"mcptest-no-such-server\" not found in PATH (searched: "
        ),
        "{text}"
    );
}

#[tokio::test]
async fn a_missing_program_path_says_not_found() {
    let err = Server::program("/nonexistent/dir/server")
        .connect()
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Spawn { searched, .. } if searched.is_empty()),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .contains("\"/nonexistent/dir/server\" not found"),
        "{err}"
    );
}

#[tokio::test]
async fn an_unset_env_variable_without_default_is_reported_before_spawning() {
    let err = Server::program(EVERYTHING)
        .env("TOKEN", "Bearer ${MCPTEST_DEFINITELY_UNSET_VAR}")
        .connect()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::InvalidConfig { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("environment variable MCPTEST_DEFINITELY_UNSET_VAR is not set"),
        "{err}"
    );
}

#[tokio::test]
async fn a_refused_http_connection_is_a_prompt_transport_error() {
    // A socket bound but never listening holds its port for this test alone
    // (no other test can be handed it) and refuses every connection.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let port = socket.local_addr().unwrap().port();
    // The refusal, not the connect timeout, must end the attempt: the error
    // is a transport error of `initialize`, not a timeout.
    let err = Server::url(format!("http://127.0.0.1:{port}/mcp"))
        .connect_timeout(Duration::from_secs(30))
        .connect()
        .await
        .unwrap_err();
    drop(socket);
    assert!(
        matches!(&err, Error::Transport { method: Some(m), .. } if m == "initialize"),
        "{err:?}"
    );
    // What was called, where, and the root cause; no Rust type names.
    assert_eq!(
        err.to_string(),
        format!("initialize: cannot connect to http://127.0.0.1:{port}/mcp: connection refused")
    );
}

/// A port on 127.0.0.1 that refuses connections for as long as the returned
/// socket lives: bound, never listening, so no other test is handed it.
fn refusing_port() -> (tokio::net::TcpSocket, u16) {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let port = socket.local_addr().unwrap().port();
    (socket, port)
}

#[tokio::test]
async fn a_refused_raw_http_request_says_cannot_connect_and_why() {
    let (_socket, port) = refusing_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let http = mcptest::RawHttp::open(&Server::url(&url)).unwrap();
    let err = http.post("{}", &[]).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("POST: cannot connect to {url}: connection refused")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_server_gone_after_connecting_fails_the_next_request_saying_why() {
    let fixture = mcptest_tests::http::HttpFixture::start(EVERYTHING, &["--http"]);
    let url = fixture.url.clone();
    let mcp = Server::url(&url)
        .connect()
        .await
        .expect("connect over HTTP");
    drop(fixture);
    let err = mcp.list_tools().await.unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("tools/list: "), "{text}");
    assert!(
        text.contains(&format!("cannot connect to {url}: connection refused")),
        "{text}"
    );
    assert!(
        !text.contains("rmcp::") && !text.contains("Transport ["),
        "{text}"
    );
}

#[tokio::test]
async fn conformance_against_a_url_nothing_listens_on_is_an_error_not_a_report() {
    let (_socket, port) = refusing_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let err = mcptest::conformance::Conformance::new(Server::url(&url))
        .run()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Transport { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!("cannot connect to {url}: connection refused")
    );
}

#[tokio::test]
async fn a_missing_bearer_token_variable_is_named() {
    let err = Server::url("http://127.0.0.1:9/mcp")
        .bearer_token_env("MCPTEST_NO_SUCH_TOKEN")
        .connect()
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid server configuration: environment variable MCPTEST_NO_SUCH_TOKEN (the bearer token) is not set"
    );
}

#[tokio::test]
async fn a_server_that_is_not_an_mcp_server_fails_the_handshake_promptly() {
    // `true` exits at once without a word: a server exit, not a timeout.
    let err = Server::command("true").connect().await.unwrap_err();
    assert!(
        matches!(&err, Error::ServerExited { status: Some(s), .. } if s.success()),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_server_that_prints_prose_then_hangs_times_out_showing_the_prose() {
    let err = Server::command("sh -c 'echo Listening on port 8080; sleep 30'")
        .connect_timeout(Duration::from_millis(500))
        .connect()
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Timeout { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("non-JSON-RPC lines on stdout (1 in all):\n  | Listening on port 8080"),
        "{err}"
    );
}

#[tokio::test]
async fn an_option_that_does_not_apply_to_the_target_is_named_not_dropped() {
    let err = Server::url("http://127.0.0.1:9/mcp")
        .env("TOKEN", "x")
        .arg("--verbose")
        .env("OTHER", "y")
        .connect()
        .await
        .unwrap_err();
    let Error::InvalidConfig { message } = &err else {
        panic!("expected InvalidConfig, got {err:?}");
    };
    assert!(
        message.starts_with("`env`, `arg` given for a URL (Server::url(\"http://127.0.0.1:9/mcp\")), where they have no effect;"),
        "{message}"
    );

    let err = Server::command("mcptest-no-such-program")
        .header("X-Test", "1")
        .connect()
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("`header` given for a command")
            && err.to_string().contains("it has no effect"),
        "{err}"
    );
}
