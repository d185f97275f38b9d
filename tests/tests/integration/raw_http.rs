//! `RawHttp`: exactly the headers and body a test chooses, and the status,
//! headers and messages (JSON or SSE) that came back.

use std::time::Duration;

use mcptest::{Error, RawHttp, Server};
use mcptest_tests::http::HttpFixture;
use serde_json::json;

const STATELESS: &str = env!("CARGO_BIN_EXE_fixture-stateless");

fn meta() -> serde_json::Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

#[tokio::test]
async fn status_headers_and_a_json_answer() {
    let fixture = HttpFixture::start(STATELESS, &["--http"]);
    let http = RawHttp::open(&Server::url(&fixture.url)).unwrap();
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
        "params": {"_meta": meta()}});
    let reply = http
        .post_json(
            &discover,
            &[
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "server/discover"),
            ],
        )
        .await
        .unwrap();
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.content_type(), Some("application/json"));
    let answer = reply.response().unwrap();
    assert_eq!(answer["id"], 1);
    assert!(answer["result"]["supportedVersions"].is_array(), "{answer}");

    // The same request with a contradicting header.
    let reply = http
        .post_json(
            &discover,
            &[
                ("MCP-Protocol-Version", "2025-11-25"),
                ("Mcp-Method", "server/discover"),
            ],
        )
        .await
        .unwrap();
    assert_eq!(reply.status, 400, "{reply:?}");
    assert_eq!(reply.response().unwrap()["error"]["code"], -32020);
}

#[tokio::test]
async fn bodies_that_are_not_json_go_out_as_given() {
    let fixture = HttpFixture::start(STATELESS, &["--http"]);
    let http = RawHttp::open(&Server::url(&fixture.url)).unwrap();
    let reply = http.post("{not json", &[]).await.unwrap();
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.messages,
        [json!({"jsonrpc": "2.0", "id": null,
        "error": {"code": -32700, "message": "Parse error"}})]
    );
    assert!(reply.body.contains("-32700"), "{}", reply.body);
}

#[tokio::test]
async fn an_sse_answer_is_decoded_and_session_headers_are_kept() {
    let fixture = HttpFixture::start(STATELESS, &["--http"]);
    let http = RawHttp::open(&Server::url(&fixture.url)).unwrap();
    let init = json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}});
    let reply = http.post_json(&init, &[]).await.unwrap();
    assert_eq!(reply.status, 200);
    assert_eq!(reply.content_type(), Some("text/event-stream"));
    assert!(reply.body.contains("data: "), "{}", reply.body);
    assert_eq!(
        reply.response().unwrap()["result"]["serverInfo"]["name"],
        "fixture-stateless"
    );
    let session = reply.header("Mcp-Session-Id").expect("a legacy session id");
    assert!(!session.is_empty());
}

#[tokio::test]
async fn a_refused_connection_is_a_transport_error_and_slow_answers_time_out() {
    let http = RawHttp::open(&Server::url("http://127.0.0.1:9/mcp")).unwrap();
    let err = http.post("{}", &[]).await.unwrap_err();
    assert!(matches!(err, Error::Transport { .. }), "{err:?}");

    // A listener that accepts and never answers.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let _hold = tokio::spawn(async move {
        let (_socket, _) = listener.accept().await.unwrap();
        tokio::time::sleep(Duration::from_secs(30)).await;
    });
    let http = RawHttp::open(&Server::url(url))
        .unwrap()
        .timeout(Duration::from_millis(200));
    let err = http.post("{}", &[]).await.unwrap_err();
    assert!(matches!(err, Error::Timeout { .. }), "{err:?}");
}
