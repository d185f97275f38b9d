//! A suite in both formats against `@modelcontextprotocol/server-everything`,
//! installed by `.ci/install-e2e.sh`. Run with:
//!
//! ```sh
//! bash .ci/install-e2e.sh && source target/e2e/env.sh
//! cargo test -p mcptest-tests --test e2e suites:: -- --ignored
//! ```

use std::time::Duration;

use mcptest::Server;
use mcptest_tests::e2e;

mcptest::suite!(
    "suites/e2e_everything",
    server = Server::program(e2e::path("MCPTEST_E2E_EVERYTHING")).arg("stdio"),
    timeout = Duration::from_secs(30),
    ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it",
);
