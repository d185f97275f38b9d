//! Scans of an MCP server that need no written test: [`audit`] (does every
//! tool survive being called?), [`fuzz`] (almost-valid inputs a server must
//! survive) and [`lint`] (agent usability and security of what a server
//! lists, with its token cost).
//!
//! Use them through the `mcptest` crate with its `scan` feature
//! (`mcptest::scan::audit`, `mcptest::scan::fuzz`, `mcptest::scan::lint`), or
//! from the command line: `mcptest audit`, `mcptest fuzz`, `mcptest lint`,
//! `mcptest lint-security`.
#![warn(missing_docs)]
#![allow(deprecated)]

pub mod audit;
mod failure;
pub mod fuzz;
pub mod lint;
mod target;
