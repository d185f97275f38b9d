//! Nothing: this package holds the compile-fail tests of `#[mcp_test]` and
//! `suite!` (`tests/ui.rs`, cases in `ui/`).
