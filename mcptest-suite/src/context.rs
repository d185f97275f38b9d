//! What one test runs with ([`TestContext`]) and what it leaves to do once
//! its verdict is known ([`Teardown`]).

use std::{
    cell::RefCell,
    future::Future,
    path::{Path, PathBuf},
    pin::Pin,
    time::Duration,
};

use mcptest_core::Fixture;
use mcptest_core::Server;
use mcptest_core::WireSchema;

/// What is left of a test once its verdict is known (see
/// [`SuiteTest::run_until_verdict`](crate::SuiteTest::run_until_verdict)): its server to stop (the connection
/// closed, the grace period, the process group killed and reaped), then its
/// fixture copy to remove, in that order.
#[must_use = "await `finish`; dropped, it stops the server by blocking the thread"]
#[derive(Default)]
pub struct Teardown {
    stops: Vec<Pin<Box<dyn Future<Output = ()>>>>,
    fixture: Option<Fixture>,
}

impl Teardown {
    /// Stops the test's server and then removes its fixture copy (a failed
    /// test's copy is kept, and its path was in the failure message).
    pub async fn finish(mut self) {
        for stop in std::mem::take(&mut self.stops) {
            stop.await;
        }
        drop(self.fixture.take());
    }

    /// True when there is nothing left to do.
    pub fn is_empty(&self) -> bool {
        self.stops.is_empty() && self.fixture.is_none()
    }
}

impl std::fmt::Debug for Teardown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Teardown")
            .field("stops", &self.stops.len())
            .field(
                "fixture",
                &self.fixture.as_ref().map(|f| f.path().to_owned()),
            )
            .finish()
    }
}

/// What a test runs with: the run's options that concern it, and the
/// [`Teardown`] it fills as it goes.
pub(crate) struct TestContext<'a> {
    /// The test's name, for messages about it (a kept fixture copy).
    pub(crate) name: &'a str,
    pub(crate) file: &'a str,
    pub(crate) default_server: Option<Server>,
    /// Whether `default_server` replaces the server a file names.
    pub(crate) replace_server: bool,
    /// The image to run command servers in (see [`RunOptions::container`](crate::RunOptions::container)).
    pub(crate) container: Option<&'a str>,
    /// The run's credentials for servers reached at a URL (see [`RunOptions::auth`](crate::RunOptions::auth)).
    pub(crate) auth: Option<&'a crate::auth::AuthSpec>,
    pub(crate) fixture: Option<&'a Path>,
    pub(crate) timeout: Option<Duration>,
    /// The run's [`RunOptions::wire_schema`](crate::RunOptions::wire_schema), when it sets one.
    pub(crate) wire_schema: Option<WireSchema>,
    /// Whether mcp-assert files share their server (see [`RunOptions::shared`](crate::RunOptions::shared)).
    pub(crate) shared: bool,
    /// Where to record the test's session as a cassette, if anywhere.
    pub(crate) record: Option<PathBuf>,
    /// What the test leaves to do once its verdict is known.
    pub(crate) teardown: RefCell<Teardown>,
}

impl TestContext<'_> {
    /// Stops the server with `stop` after the verdict (see [`Teardown`]).
    pub(crate) fn stop_later(&self, stop: impl Future<Output = ()> + 'static) {
        self.teardown.borrow_mut().stops.push(Box::pin(stop));
    }

    /// Keeps the fixture copy until the server is stopped.
    pub(crate) fn remove_after_stop(&self, fixture: &Option<Fixture>) {
        self.teardown.borrow_mut().fixture = fixture.clone();
    }
}

impl TestContext<'_> {
    /// The server with the session recorder on, when the run records. A
    /// recorded session holds only the test's own requests: the harness
    /// does not fetch tool definitions beside them.
    pub(crate) fn recording(&self, server: Server) -> Server {
        match &self.record {
            Some(path) => server
                .fetch_tool_definitions(false)
                .cassette(path, mcptest_core::cassette::CassetteMode::Record),
            None => server,
        }
    }
}

impl TestContext<'_> {
    /// A fresh copy of the fixture directory, if there is one: named like the
    /// original (`<temp>/fixtures` for `tests/fixtures`), as mcp-assert names it.
    pub(crate) fn copy_fixture(&self) -> Result<Option<Fixture>, String> {
        let Some(source) = self.fixture else {
            return Ok(None);
        };
        // The name goes into a temporary directory's name: only characters
        // that keep it one path component, and out of `{{fixture}}`'s way.
        let name = mcptest_core::__support::file_name_part(self.name);
        Fixture::create(Some(source), Some(&name))
            .map(Some)
            .map_err(|e| format!("cannot copy the fixture {}: {e}", source.display()))
    }
}
