//! Protocol conformance: one call that says, rule by rule, where a server
//! (or a client) departs from the MCP spec — the classic revision
//! (2025-11-25, with its `initialize` handshake) and the stateless one
//! (2026-07-28, SEP-2575).
//!
//! Every check has a stable id, the spec revision and section it comes from,
//! and a level: a broken MUST rule is a failure, a broken SHOULD rule a
//! warning. A check that does not apply is skipped with the reason (a server
//! that does not speak 2026-07-28 gets every SEP-2575 check skipped, saying
//! what `server/discover` was answered with). Each status carries its
//! evidence: the exact requests sent and what came back, HTTP status
//! included.
//!
//! Checks speak raw JSON-RPC — over stdio each check starts a fresh server,
//! over HTTP each request is sent with exactly the headers the rule needs —
//! because what they probe (missing `_meta`, malformed JSON, contradicting
//! headers) is what a well-behaved client never sends.
//!
//! ```no_run
//! use mcptest::{Server, conformance::Conformance};
//!
//! #[tokio::test]
//! async fn my_server_conforms() -> Result<(), mcptest::Error> {
//!     let report = Conformance::new(Server::program(env!("CARGO_BIN_EXE_my-server")))
//!         .except(["classic-invalid-json"])
//!         .run()
//!         .await?;
//!     println!("{report}"); // the table
//!     report.assert_conforms(); // fails listing each broken MUST rule and its evidence
//!     Ok(())
//! }
//! ```
//!
//! Clients are checked against a recording mock server with
//! [`ClientConformance`]; over Streamable HTTP,
//! [`ClientConformance::authorization`] makes the mock a protected resource
//! with its own authorization server on the same 127.0.0.1 port, and the
//! `mcp-client-auth-*` checks judge how the client discovers, registers,
//! authorizes (PKCE S256, `state`, `resource`), and carries, refreshes and
//! steps up its token.

#![warn(missing_docs)]
// Sampling, roots and logging are deprecated by SEP-2577 in rmcp, but the
// classic revisions have them, so their checks do too.
#![allow(deprecated)]

// The floors, bottom up; a module imports only from floors below its own.
// 0: the check model.
mod model;
// 1: how checks reach their subject and keep evidence (imports no check).
mod support;
// 2: the checks, by topic, server and client mirrored.
mod client_checks;
mod server_checks;
// 3: every check by id; the official suite's ids; the report; selection.
mod catalogue;
mod official;
mod report;
mod selection;
// 4: the runners.
mod client_run;
mod server_run;

pub use catalogue::catalogue;
#[doc(hidden)]
pub use client_run::NeedsHttpMock;
pub use client_run::{ClientConformance, MockLink, URL_PLACEHOLDER};
pub use model::{
    Applies, CannotApply, CheckResult, ClientRegistration, EVIDENCE_KEPT, Exchange, Level,
    RawRequest, RawResponse, Role, Rule, Transport,
};
pub use official::{official_ids, ours_for_official};
pub use report::ConformanceReport;
pub use server_run::Conformance;
