use mcptest_coprocess::Client;
use serde_json::json;

use super::*;

const CATALOGUE: &str = r#"
case: List tools
in: {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
out: {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}}
---
case: List resources
in: {"jsonrpc": "2.0", "id": 1, "method": "resources/list"}
out: {"jsonrpc": "2.0", "id": 1, "result": {"resources": [{"uri": "notes://a", "name": "a"}]}}
---
case: Read
in: {"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "notes://a"}}
out: {"jsonrpc": "2.0", "id": 1, "result": {"contents": [{"uri": "notes://a", "text": "hello"}]}}
---
case: Prompt
in: {"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": {"name": "greet", "arguments": {"who": "ada"}}}
out: {"jsonrpc": "2.0", "id": 1, "result": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi ada"}}]}}
"#;

#[tokio::test]
async fn listings_reads_and_prompts_pass_through() {
    let ws = Workspace::new(&[("catalogue.yaml", CATALOGUE)]);
    let server = format!("'{MCPTEST}' mock '{}'", ws.path("catalogue.yaml").display());
    let mut engine = Client::spawn(
        MCPTEST,
        ["exec", "--connection-server", "--server-command", &server],
    )
    .await
    .unwrap();
    let tools = engine.request("mcp.listTools", None).await.unwrap();
    assert_eq!(tools["tools"][0]["name"], "add", "{tools}");
    let resources = engine.request("mcp.listResources", None).await.unwrap();
    assert_eq!(resources["resources"][0]["uri"], "notes://a", "{resources}");
    let read = engine
        .request("mcp.readResource", Some(json!({"uri": "notes://a"})))
        .await
        .unwrap();
    assert_eq!(read["contents"][0]["text"], "hello", "{read}");
    let prompt = engine
        .request(
            "mcp.callPrompt",
            Some(json!({"name": "greet", "arguments": {"who": "ada"}})),
        )
        .await
        .unwrap();
    assert_eq!(
        prompt["messages"][0]["content"]["text"], "hi ada",
        "{prompt}"
    );
    let missing = engine.request("mcp.readResource", Some(json!({}))).await;
    assert!(
        matches!(
            &missing,
            Err(mcptest_coprocess::CoprocessError::Rpc { code: -32602, .. })
        ),
        "{missing:?}"
    );
    assert_eq!(
        engine.shutdown().await.unwrap().and_then(|s| s.code()),
        Some(0)
    );
}
