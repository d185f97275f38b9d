//! Nothing: this package holds the compile-fail tests of mcptest without its
//! optional features (`tests/ui.rs`, cases in `ui/`).
