// A test returns `()` or `Result<(), E>` with `E: Display`; anything else is
// reported on the return type.
use mcptest::prelude::*;

#[mcp_test(server = "my-server")]
async fn returns_a_number(mcp: McpClient) -> u32 {
    mcp.ping().await.unwrap();
    42
}

struct Opaque;

#[mcp_test(server = "my-server")]
async fn error_without_display(mcp: McpClient) -> Result<(), Opaque> {
    mcp.ping().await.map_err(|_| Opaque)
}

fn main() {}
