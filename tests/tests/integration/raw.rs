//! `RawConnection`: exactly the bytes a test chooses, in both directions.

use std::time::Duration;

use mcptest::{Error, RawConnection, Server};
use mcptest_tests::{everything::Everything, procs};
use serde_json::json;

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");
const CHAOS: &str = env!("CARGO_BIN_EXE_fixture-chaos");
const WAIT: Duration = Duration::from_secs(10);

#[tokio::test]
async fn a_handshake_and_a_call_by_hand() {
    let mut raw = RawConnection::open(&Server::program(EVERYTHING))
        .await
        .unwrap();
    let init = raw.initialize("2025-11-25", WAIT).await.unwrap();
    assert_eq!(
        init["result"]["serverInfo"]["name"],
        json!("fixture-everything")
    );
    let answer = raw
        .request(
            "tools/call",
            json!({"name": "echo", "arguments": {"message": "x"}}),
            WAIT,
        )
        .await
        .unwrap();
    assert_eq!(answer["id"], json!("raw-2"));
    assert_eq!(answer["result"]["content"][0]["text"], json!("x"));
    let pid = raw.pid().unwrap();
    raw.close().await;
    procs::assert_gone(pid, Duration::from_secs(5));
}

#[tokio::test]
async fn a_message_written_in_pieces_is_read_as_one_line() {
    let mut raw = RawConnection::open(&Server::program(EVERYTHING))
        .await
        .unwrap();
    raw.initialize("2025-11-25", WAIT).await.unwrap();
    // No newline until the last piece: the server must wait for the line.
    raw.send_bytes(br#"{"jsonrpc": "2.0", "id": 7, "#)
        .await
        .unwrap();
    raw.send_bytes(b"\"method\": \"ping\"}\n").await.unwrap();
    let answer = raw.recv(WAIT).await.unwrap();
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 7, "result": {}}));
    raw.close().await;
}

#[tokio::test]
async fn malformed_json_gets_a_parse_error_from_the_chaos_server() {
    let mut raw = RawConnection::open(&Server::program(CHAOS)).await.unwrap();
    raw.send_line("{this is not json").await.unwrap();
    let answer = raw.recv(WAIT).await.unwrap();
    assert_eq!(answer["error"]["code"], json!(-32700), "{answer}");
}

#[tokio::test]
async fn messages_passed_over_stay_queued_in_order() {
    let mut raw = RawConnection::open(&Server::in_process(Everything::default()))
        .await
        .unwrap();
    raw.initialize("2025-11-25", WAIT).await.unwrap();
    raw.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
        .await
        .unwrap();
    raw.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
        .await
        .unwrap();
    let second = raw
        .recv_matching(|m| m["id"] == json!(2), WAIT)
        .await
        .unwrap();
    assert_eq!(second["result"], json!({}));
    let first = raw.recv(WAIT).await.unwrap();
    assert_eq!(first["id"], json!(1));
    assert!(raw.is_silent_for(Duration::from_millis(50)).await.unwrap());
}

#[tokio::test]
async fn a_server_that_exits_ends_the_wait_at_once() {
    let mut raw = RawConnection::open(&Server::program(CHAOS).arg("--exit-before-initialize"))
        .await
        .unwrap();
    let err = raw.recv(WAIT).await.unwrap_err();
    assert!(
        matches!(&err, Error::ServerExited { status: Some(s), .. } if s.code() == Some(3)),
        "{err:?}"
    );
}

#[tokio::test]
async fn http_servers_are_refused_with_a_reason() {
    let err = RawConnection::open(&Server::url("http://127.0.0.1:9/mcp"))
        .await
        .err()
        .expect("refused");
    assert!(
        err.to_string().contains("a raw connection speaks stdio"),
        "{err}"
    );
}
