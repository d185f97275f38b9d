//! Scans of an MCP server that need no written test: [`audit`] (does every
//! tool survive being called?), [`fuzz`] (almost-valid inputs a server must
//! survive, failures shrunk and written out as tests), [`lint`] (agent
//! usability and security of what a server lists, with its token cost) and
//! [`drift`] (every change between two [`surface`]s, classified breaking,
//! degrading or compatible); with the `sarif` feature, `sarif` writes their
//! findings as SARIF 2.1.0 for GitHub code scanning.
//!
//! Use them through the `mcptest` crate with its `scan` feature
//! (`mcptest::scan::audit`, `mcptest::scan::fuzz`, ...), or from the
//! command line: `mcptest audit`, `mcptest fuzz`, `mcptest lint`,
//! `mcptest lint-security`, `mcptest drift`.
#![warn(missing_docs)]
#![allow(deprecated)]

pub mod audit;
pub mod drift;
mod failure;
pub mod fuzz;
pub mod lint;
#[cfg(feature = "sarif")]
pub mod sarif;
pub mod surface;
mod target;
