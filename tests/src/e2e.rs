//! Where the third-party servers installed by `.ci/install-e2e.sh` live.

use std::path::PathBuf;

/// The path in environment variable `var` (set by `target/e2e/env.sh`).
/// Panics with the way to get it when it is missing: an e2e test that runs
/// without its server must fail, not pass.
pub fn path(var: &str) -> PathBuf {
    match std::env::var_os(var) {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => panic!(
            "{var} is not set: run `bash .ci/install-e2e.sh && source target/e2e/env.sh` \
             before the e2e tests"
        ),
    }
}
