//! Serves the notes MCP server over stdio: `notes-server [--dir DIR]`.
//!
//! With `--dir`, the notes are the `*.txt` files of `DIR`, and added or
//! deleted notes are written there; without it they live in memory.

use rmcp::{ServiceExt, transport::stdio};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let notes = match (args.next().as_deref(), args.next(), args.next()) {
        (None, _, _) => mcptest_examples::Notes::new(),
        (Some("--dir"), Some(dir), None) => mcptest_examples::Notes::in_dir(&dir)
            .map_err(|e| format!("notes-server: cannot read the notes in {dir}: {e}"))?,
        _ => return Err("usage: notes-server [--dir DIR]".into()),
    };
    let service = notes.serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
