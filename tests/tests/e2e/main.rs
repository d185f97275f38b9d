//! The e2e tier: mcptest's public API against real third-party servers
//! (and mcp-assert, the peer the lint is compared with), installed at
//! pinned versions by `.ci/install-e2e.sh`. Every test is
//! `#[ignore]`d so `cargo test --workspace` does not need them; run with:
//!
//! ```sh
//! bash .ci/install-e2e.sh && source target/e2e/env.sh
//! cargo test -p mcptest-tests --test e2e -- --ignored
//! ```

mod audit_lint;
#[path = "../support/bounded_child.rs"]
mod bounded_child;
mod conformance;
mod expect;
#[path = "../front_ends/mod.rs"]
mod front_ends;
mod harness;
mod lint_peer;
mod mcp_test;
mod one_runner;
mod suites;
