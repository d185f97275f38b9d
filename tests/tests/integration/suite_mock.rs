//! The contract mock server: an MCP Cases file played as a server, driven by
//! rmcp's own client and by the harness.

use std::time::Duration;

use mcptest::{
    RawConnection, Server, ToolOutcome,
    rmcp::{ServiceExt, model::CallToolRequestParams},
    suite::MockServer,
};
use serde_json::{Value, json};

const CONTRACT: &str = "suites/mock/contract.yaml";
const WAIT: Duration = Duration::from_secs(10);

fn mock() -> MockServer {
    MockServer::load(CONTRACT).expect("the contract loads")
}

fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    serde_json::from_value(json!({"name": name, "arguments": arguments})).unwrap()
}

#[tokio::test]
async fn an_rmcp_client_talks_to_the_mock() {
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    let mock = mock();
    let serving = tokio::spawn(async move {
        let (read, write) = tokio::io::split(server_io);
        mock.serve(read, write).await
    });
    let client = ().serve(client_io).await.expect("the mock answers initialize");
    let info = client.peer_info().expect("server info");
    assert_eq!(info.server_info.as_ref().unwrap().name, "mcptest-mock");
    assert!(info.capabilities.tools.is_some(), "derived from the cases");

    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].name, "add");

    let sum = client
        .call_tool(call("add", json!({"a": 2, "b": 3})))
        .await
        .unwrap();
    assert_eq!(sum.content[0].as_text().unwrap().text, "5");

    let err = client
        .call_tool(call("add", json!({"a": 2, "b": 4})))
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("no case matches this tools/call request; the closest is `Add two numbers` (case 2) at suites/mock/contract.yaml:18, which differs at `params.arguments.b`: expected 3, got 4"),
        "{text}"
    );
    client.cancel().await.unwrap();
    serving.await.unwrap().unwrap();
}

#[tokio::test]
async fn the_harness_talks_to_the_mock_in_process() {
    let mcp = mock()
        .server()
        .connect()
        .await
        .expect("connect to the mock");
    assert_eq!(mcp.server_info().name, "mcptest-mock");
    let sum = mcp.call_tool("add", json!({"a": 1, "b": 1})).await;
    assert_eq!(sum.text(), "2");
    // The notification the case sends before its answer arrives too.
    let log = mcp
        .server_messages()
        .wait_for_log(None, WAIT)
        .await
        .unwrap();
    assert_eq!(log.data, json!("adding"));

    let unmatched = mcp.call_tool("multiply", json!({"a": 1, "b": 1})).await;
    match unmatched.outcome() {
        ToolOutcome::RpcError(e) => {
            assert_eq!(e.code, -32602);
            assert!(
                e.message
                    .contains("which differs at `params.name`: expected \"add\", got \"multiply\""),
                "{}",
                e.message
            );
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
    let err = mcp.list_prompts().await.unwrap_err();
    assert_eq!(err.json_rpc_code(), Some(-32601), "{err}");
    assert!(
        mcp.stderr().contains("mock: no case handles prompts/list"),
        "{}",
        mcp.stderr()
    );
    mcp.close().await;
}

#[tokio::test]
async fn the_mock_passes_its_own_contract() {
    // The same file checks a server: here the mock itself.
    let suite = mcptest::suite::Suite::load(CONTRACT).unwrap();
    let options = mcptest::suite::RunOptions::new().server(mock().server());
    for result in suite.run(&options).await {
        assert!(
            result.outcome.is_ok(),
            "{}: {:?}",
            result.name,
            result.outcome
        );
    }
}

#[tokio::test]
async fn raw_batches_and_bad_json_get_answers() {
    let mut raw = RawConnection::open(&mock().server()).await.unwrap();
    raw.initialize("2025-11-25", WAIT).await.unwrap();
    raw.send(&json!([
        {"jsonrpc": "2.0", "id": "x", "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}},
        {"jsonrpc": "2.0", "id": "y", "method": "ping"},
    ]))
    .await
    .unwrap();
    let batch = raw.recv(WAIT).await.unwrap();
    assert_eq!(batch[0]["id"], json!("x"));
    assert_eq!(batch[0]["result"]["content"][0]["text"], json!("5"));
    assert_eq!(batch[1], json!({"jsonrpc": "2.0", "id": "y", "result": {}}));
    raw.send_line("{nope").await.unwrap();
    let error = raw.recv(WAIT).await.unwrap();
    assert_eq!(error["error"]["code"], json!(-32700));
    raw.close().await;
}

#[test]
fn an_mcp_assert_file_is_no_mock() {
    let err = MockServer::parse("a.yaml", "assert: {tool: echo}\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "a.yaml: is an mcp-assert file; a mock server plays MCP Cases files (McpCases expected)"
    );
    let _ = Server::command("unused");
}
