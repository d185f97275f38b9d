//! Placeholder: rewritten by `MCPTEST_OVERWRITE=1 cargo test -p mcptest-tests --test integration fuzz_found::`.
