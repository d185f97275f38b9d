use mcptest_coprocess::Client;
use serde_json::json;

use super::*;

#[tokio::test]
async fn a_recorded_session_replays_without_the_server() {
    let ws = Workspace::new(&[]);
    let tape = ws.path("session.json");
    let server = format!("'{MCPTEST}' mock '{}'", ws.path("contract.yaml").display());
    let mut engine = Client::spawn(
        MCPTEST,
        ["exec", "--connection-server", "--server-command", &server],
    )
    .await
    .unwrap();
    let set = engine
        .request(
            "mcp.cassette.set_mode",
            Some(json!({"mode": "record", "path": tape})),
        )
        .await
        .unwrap();
    assert_eq!(set["mode"], "record", "{set}");
    let reply = engine
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(reply.text, "5");
    // Shutting down closes the connection, which writes the cassette.
    engine.shutdown().await.unwrap();
    let recorded = std::fs::read_to_string(&tape).unwrap();
    assert!(recorded.contains("tools/call"), "{recorded}");

    // A server that would die at once: replay never starts it.
    let dead = "python3 -c 'import sys; sys.exit(7)'";
    let mut engine = Client::spawn(
        MCPTEST,
        ["exec", "--connection-server", "--server-command", dead],
    )
    .await
    .unwrap();
    engine
        .request(
            "mcp.cache.set_mode",
            Some(json!({"mode": "read", "path": tape})),
        )
        .await
        .unwrap();
    let reply = engine
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(reply.text, "5");
    let miss = engine.call_tool("add", json!({"a": 4, "b": 4})).await;
    let Err(mcptest_coprocess::CoprocessError::Rpc { code, data, .. }) = &miss else {
        panic!("expected a cassette miss, got {miss:?}");
    };
    assert_eq!(*code, mcptest_coprocess::codes::UPSTREAM_ERROR);
    assert_eq!(
        data.as_ref().unwrap()["upstream"]["code"],
        mcptest_core::__support::CASSETTE_MISS,
        "{data:?}"
    );
    let bad = engine
        .request("mcp.cache.set_mode", Some(json!({"mode": "sometimes"})))
        .await;
    assert!(
        matches!(&bad, Err(mcptest_coprocess::CoprocessError::Rpc { code: -32602, message, .. }) if message.contains("read, write, readwrite, off")),
        "{bad:?}"
    );
    engine.shutdown().await.unwrap();
}
