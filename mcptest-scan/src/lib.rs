//! The server tools of [mcptest](https://docs.rs/mcptest) that need no
//! written test: [`audit`] (does every tool survive being called?),
//! [`fuzz`] (almost-valid inputs a server must survive), [`lint`] (security
//! smells in what a server lists) and [`coprocess`] (the engine that test
//! frameworks in other languages drive: `mcptest exec`).
//!
//! Use them through the `mcptest` crate with its `tools` feature
//! (`mcptest::audit`, `mcptest::fuzz`, `mcptest::lint`,
//! `mcptest::coprocess`), or from the command line: `mcptest audit`,
//! `mcptest fuzz`, `mcptest lint-security`, `mcptest exec`.
#![warn(missing_docs)]
#![allow(deprecated)]

pub mod audit;
pub mod coprocess;
pub mod fuzz;
pub mod lint;
