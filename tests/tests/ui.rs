//! Compile-time errors of `#[mcp_test]` and `suite!` (`suite_*.rs`): one file
//! per family of mistakes in `tests/ui/`, each with the exact compiler output expected in its `.stderr`.
//! Regenerate with `TRYBUILD=overwrite cargo test -p mcptest-tests --test ui`
//! and read the diff.

#[test]
fn mcp_test_compile_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}
