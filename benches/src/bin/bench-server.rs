//! The server the benchmarks spawn: fixture-everything's handler over stdio,
//! built with the benchmark profile like the code measuring it.

use rmcp::{ServiceExt, transport::stdio};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = mcptest_tests::everything::Everything::default()
        .serve(stdio())
        .await?;
    service.waiting().await?;
    Ok(())
}
