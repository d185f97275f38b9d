//! Tour, part 6: protocol conformance of the example server.
//!
//! `Conformance` runs the checks of the MCP spec rule by rule and backs each
//! verdict with the exchange that decided it. Each check starts a fresh
//! server and speaks raw JSON-RPC, because what it probes (malformed JSON,
//! requests before `initialize`, unknown cursors) is what a polite client
//! never sends. A broken MUST rule fails; a broken SHOULD rule is a warning.

use mcptest::{Server, conformance::Conformance};

#[tokio::test]
async fn the_notes_server_conforms_to_2025_11_25() -> Result<(), mcptest::Error> {
    let report = Conformance::new(Server::program(env!("CARGO_BIN_EXE_notes-server")))
        // The notes server is written for the classic revision (with its
        // `initialize` handshake); `sep-2575-*` would check stateless MCP.
        .only(["classic-*"])
        .run()
        .await?;
    // The table: one line per check, PASS / FAIL / WARN / SKIP and the rule.
    // (`cargo test -- --nocapture` shows it; `report.to_json()` has it all.)
    println!("{report}");
    // Fails listing each broken MUST rule with the exchange that broke it.
    report.assert_conforms();
    Ok(())
}
