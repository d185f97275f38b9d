//! What a user who reaches for a feature-gated part of mcptest without the
//! feature gets from the compiler: an error that names the feature and the
//! Cargo.toml line to add. One file per feature in `ui/`, each with the
//! exact compiler output expected in its `.stderr`. Regenerate with
//! `TRYBUILD=overwrite cargo test -p mcptest-without-features` and read the
//! diff.

#[test]
fn missing_features_are_named() {
    trybuild::TestCases::new().compile_fail("ui/*.rs");
}
