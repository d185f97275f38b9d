// The schema checks without the `json-schema` feature: fluent, as values,
// and the validator itself.
use mcptest::prelude::*;

#[mcp_test(server = "my-server")]
async fn schemas(mcp: McpClient) {
    let call = mcp.call_tool("weather", json!({"city": "Paris"})).await;
    call.matches_output_schema();
    call.matches_schema(json!({"type": "object"}));
    mcp.list_tools().await.unwrap().input_schemas_valid();
    call.assert(expect::matches_output_schema());
    let _ = expect::validate_schema(&json!({}), &json!(1));
}

fn main() {}
