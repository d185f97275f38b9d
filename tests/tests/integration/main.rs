//! mcptest's integration tests, as one test binary with one module per area
//! (every binary links the whole stack, so one link instead of seventeen).
//! They use only the public API, against the fixture servers of this
//! package. Run one area with `cargo test -p mcptest-tests --test
//! integration chaos::`.
//!
//! Tests here run in parallel threads of one process: a test asserts about
//! what it started itself (its server's pid and process group, its own temp
//! directory), never about process-wide state that other tests share.

/// One module of tests per breakage flag of `fixture-broken`: the checks it
/// breaks fail over stdio and over HTTP (`http_only`: over HTTP alone).
/// The module that uses it has `expect_broken` and `Transport` in scope.
macro_rules! broken {
    ($($name:ident: $flag:literal $(, $only:ident)?;)*) => {$(
        mod $name {
            use super::*;

            broken!(@stdio $flag $(, $only)?);

            #[tokio::test]
            async fn over_http() {
                expect_broken($flag, Transport::Http).await;
            }
        }
    )*};
    (@stdio $flag:literal, http_only) => {};
    (@stdio $flag:literal) => {
        #[tokio::test]
        async fn over_stdio() {
            expect_broken($flag, Transport::Stdio).await;
        }
    };
}

mod audit;
mod cassette;
mod chaos;
mod conformance_auth;
mod conformance_client;
mod conformance_client_auth;
mod conformance_features;
mod conformance_http;
mod conformance_server;
mod conformance_tasks;
mod drift;
mod errors;
mod expect_combine;
mod expect_replies;
mod expect_tools;
#[path = "../front_ends/mod.rs"]
mod front_ends;
mod fuzz;
mod fuzz_found;
// Kept byte for byte as `mcptest fuzz --write-tests` writes it (fuzz_found
// compares the two), so rustfmt leaves it alone.
#[rustfmt::skip]
mod fuzz_found_written;
mod harness;
mod hostile;
mod lint;
mod mcp_test_fixture;
mod mcp_test_sources;
mod mcp_test_teardown;
mod one_runner;
mod plugin;
mod raw;
mod raw_http;
mod sarif;
mod shared;
mod snapshot;
mod sse;
mod suite_mock;
mod suite_runner;
mod suites;
mod unchecked;

/// Runs the `mcptest` command (built here as `mcptest-command`) with `args`
/// and `env` set on it only (this process's environment is shared by its
/// tests); returns its exit code and everything it printed, colorless.
fn mcptest(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcptest-command"))
        .args(args)
        .envs(env.iter().copied())
        .env("NO_COLOR", "1")
        .output()
        .expect("mcptest runs");
    let mut all = String::from_utf8_lossy(&out.stdout).into_owned();
    all.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), all)
}
