use rmcp::{ServiceExt, transport::stdio};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = todo_server::TodoServer::new().serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
