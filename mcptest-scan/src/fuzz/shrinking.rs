//! The shrinking of a fuzz run's failures: the first failing input of
//! each tool and kind, shrunk by a [`Shrinker`] through calls to the server.

use std::{
    collections::BTreeSet,
    time::{Duration, Instant},
};

use mcptest_core::{
    McpClient,
    expect::{Evidence, Failure, Miss},
    report::{Outcome, TestResult},
};
use rmcp::model::Tool;

use super::{
    Fuzz, FuzzCase,
    properties::{MINIMAL, REPRO, SEED},
    repro_line,
    shrink::{ShrinkBudget, Shrinker},
};
use crate::audit::Classification;

impl Fuzz {
    /// How much shrinking each failing input may cost: at most `calls`
    /// calls to the server and `time` [default: [`DEFAULT_SHRINK_CALLS`](super::DEFAULT_SHRINK_CALLS),
    /// [`DEFAULT_SHRINK_TIME`](super::DEFAULT_SHRINK_TIME)]; 0 calls turns shrinking off. The first
    /// failing case of each tool and kind (crash, timeout, protocol error)
    /// is shrunk; its report names the minimal input, and the tests
    /// [`regression_tests`](super::regression_tests) writes send it.
    ///
    /// ```
    /// # use mcptest::{Server, scan::fuzz::Fuzz};
    /// # use std::time::Duration;
    /// let fuzz = Fuzz::new(Server::command("my-server")).shrink(50, Duration::from_secs(30));
    /// ```
    pub fn shrink(mut self, calls: usize, time: Duration) -> Self {
        self.shrink = ShrinkBudget { calls, time };
        self
    }

    /// `result` (a case of `tool`) with the seed that reproduces it, and,
    /// for the first failure of its tool and kind, its input shrunk. The
    /// shrinking calls the server through `mcp` (restarted as needed).
    pub(super) async fn shrunk(
        &self,
        mcp: &mut Option<McpClient>,
        tool: &Tool,
        case: &FuzzCase,
        result: TestResult,
        shrunk: &mut BTreeSet<(String, &'static str)>,
    ) -> TestResult {
        let Some(class) = Classification::of(&result) else {
            return result;
        };
        if result.status() != mcptest_core::report::Status::Fail {
            return result;
        }
        let mut result = result.property(SEED, self.seed.to_string());
        if self.shrink.calls == 0 || !shrunk.insert((tool.name.to_string(), class.as_str())) {
            return result;
        }
        let started = Instant::now();
        let mut shrinker = Shrinker::new(&case.arguments);
        while let Some(candidate) = shrinker.candidate() {
            if shrinker.tries() >= self.shrink.calls || started.elapsed() >= self.shrink.time {
                break;
            }
            let Some(client) = self.client(mcp).await else {
                break;
            };
            let attempt = FuzzCase {
                label: case.label.clone(),
                arguments: candidate,
            };
            let (tried, broken) = self.one(client, tool, &attempt).await;
            if broken && let Some(old) = mcp.take() {
                old.close().await;
            }
            shrinker.record(Classification::of(&tried) == Some(class));
        }
        let minimal = shrinker.minimal();
        if *minimal == case.arguments {
            return result;
        }
        let repro = repro_line(&tool.name, minimal);
        let note = format!(
            "shrunk in {} calls to a minimal input that fails the same way ({class}): {minimal}\n\
             paste into a test: {repro}",
            shrinker.tries()
        );
        if let Outcome::Fail(failure) = &result.outcome {
            let mut misses = failure.misses().to_vec();
            misses.push(Miss::new(
                "nothing more (the smallest input that still fails)",
                Evidence::new().note(note),
            ));
            result.outcome = Outcome::fail(Failure::new(
                failure.call().map(str::to_owned),
                misses,
                failure.server_output().clone(),
            ));
        }
        result.properties.retain(|(name, _)| name != REPRO);
        result
            .property(REPRO, repro)
            .property(MINIMAL, minimal.to_string())
    }

    /// The live connection, started afresh if the last call broke it;
    /// `None` when the server does not start again.
    async fn client<'a>(&self, mcp: &'a mut Option<McpClient>) -> Option<&'a McpClient> {
        if mcp.is_none() {
            *mcp = Some(self.target.server.connect().await.ok()?);
        }
        mcp.as_ref()
    }
}
