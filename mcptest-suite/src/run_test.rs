//! Running one [`SuiteTest`]: its context from the [`RunOptions`], its
//! assertion or case, and the [`Teardown`] it leaves.

use std::{cell::RefCell, time::Instant};

use mcptest_core::report::TestResult;

use crate::{
    context::{Teardown, TestContext},
    options::RunOptions,
    run_assertion, run_cases,
    suite_test::{SuiteTest, TestKind},
};

impl SuiteTest {
    /// Runs the test: starts the server (a fresh one), does what the file
    /// says, stops the server. The result is named after the test, grouped
    /// by its file, and located at its block (or case).
    pub async fn run(&self, options: &RunOptions) -> TestResult {
        let (result, teardown) = self.run_until_verdict(options).await;
        teardown.finish().await;
        result
    }

    /// Runs the test up to its verdict and hands back what is left to do:
    /// stopping its server and removing its fixture copy. A runner that
    /// keeps a number of tests going at once can start the next one while
    /// this one's server takes its grace period to exit.
    ///
    /// Await [`Teardown::finish`] before the run ends. A `Teardown` dropped
    /// unawaited still stops the server and removes the fixture copy, but
    /// blocks its thread for the server's grace period to do so.
    ///
    /// ```no_run
    /// # async fn demo(suite: mcptest::suite::Suite, options: mcptest::suite::RunOptions) {
    /// let mut stopping = Vec::new();
    /// for test in suite.tests() {
    ///     let (result, teardown) = test.run_until_verdict(&options).await;
    ///     println!("{} {}", result.status(), result.name);
    ///     stopping.push(teardown);
    /// }
    /// for teardown in stopping {
    ///     teardown.finish().await;
    /// }
    /// # }
    /// ```
    pub async fn run_until_verdict(&self, options: &RunOptions) -> (TestResult, Teardown) {
        let started = Instant::now();
        let cx = TestContext {
            name: &self.name,
            file: &self.file,
            default_server: options.server.clone(),
            replace_server: options.replace_servers && options.server.is_some(),
            container: options.container.as_deref(),
            auth: options.auth.as_ref(),
            fixture: options.fixture.as_deref(),
            timeout: options.timeout,
            wire_schema: options.wire_schema,
            shared: options.shared,
            record: options
                .record
                .as_ref()
                .map(|dir| dir.join(self.cassette_name())),
            teardown: RefCell::new(Teardown::default()),
        };
        let outcome = match &self.kind {
            TestKind::Assertion(a) => run_assertion::run(a, &cx).await,
            TestKind::Case(c) => run_cases::run(c, &cx).await,
        };
        let result = TestResult::new(self.name.clone(), outcome)
            .group(self.file.clone())
            .location(self.location.clone())
            .duration(started.elapsed());
        (result, cx.teardown.into_inner())
    }
}
