//! Serves the notes MCP server over stdio.

use rmcp::{ServiceExt, transport::stdio};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = mcptest_examples::Notes::new().serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
