//! Procedural macros for [`mcptest`](https://docs.rs/mcptest).
//!
//! Use them through the `mcptest` crate, which re-exports them; this crate's
//! API is not meant to be depended on directly.
