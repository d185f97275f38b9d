//! How a suite runs: [`RunOptions`], the one set of options that
//! `Suite::run`, `mcptest run` and the tests of `suite!` hand the runner.

use std::{path::PathBuf, time::Duration};

use mcptest_core::Server;
use mcptest_core::WireSchema;

use crate::partition::Partition;

/// How a suite runs: the server for files that name none, the fixture
/// directory, a default timeout; and how the [`runner`](crate::runner) schedules the
/// tests: how many at once, how many times each, which shard, and whether
/// they are independent of each other.
///
/// ```
/// use std::time::Duration;
/// use mcptest::{Server, suite::RunOptions};
///
/// let options = RunOptions::new()
///     .server(Server::command("my-mcp-server --stdio"))
///     .fixture("tests/fixtures")
///     .timeout(Duration::from_secs(10))
///     .jobs(4);
/// ```
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub(crate) server: Option<Server>,
    pub(crate) fixture: Option<PathBuf>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) record: Option<PathBuf>,
    pub(crate) shared: bool,
    pub(crate) replace_servers: bool,
    pub(crate) container: Option<String>,
    pub(crate) auth: Option<crate::auth::AuthSpec>,
    pub(crate) wire_schema: Option<WireSchema>,
    /// `None`: twice the cores, more while cores sit idle.
    pub(crate) jobs: Option<usize>,
    /// 0 stands for the default, 1.
    pub(crate) trials: u32,
    pub(crate) independent: bool,
    pub(crate) partition: Option<Partition>,
}

impl RunOptions {
    /// No default server, no fixture, mcp-assert's 30 s timeout; the tests
    /// run beside each other, each once, replayed one at a time when they
    /// fail beside others.
    pub fn new() -> Self {
        RunOptions::default()
    }

    /// How many tests run at once (default: twice the number of cores, and
    /// up to twice that while cores sit idle as servers start up). A
    /// finished test's server is stopped beside the next test; with 1, the
    /// next test starts only once it is stopped (for servers that must not
    /// overlap: a fixed port, a file outside the fixture).
    ///
    /// ```
    /// let one_at_a_time = mcptest::suite::RunOptions::new().jobs(1);
    /// ```
    pub fn jobs(mut self, jobs: usize) -> Self {
        self.jobs = Some(jobs.max(1));
        self
    }

    /// Runs each test `trials` times (default 1): a test passes only when
    /// every trial does, and its result carries pass@N and pass^N; the
    /// report's title gives the run's rates.
    ///
    /// ```
    /// let flaky_hunt = mcptest::suite::RunOptions::new().trials(5);
    /// ```
    pub fn trials(mut self, trials: u32) -> Self {
        self.trials = trials.max(1);
        self
    }

    /// Whether the tests are independent of each other (default false):
    /// their servers share no state, so a verdict reached beside other
    /// tests is trusted as it is. Without it, tests that failed beside
    /// others are replayed one at a time, in file order, and the tests
    /// `suite!` generates for one suite take turns (see
    /// [`runner::INTERFERED`](crate::runner::INTERFERED) and [`runner::Turns`](crate::runner::Turns)).
    ///
    /// ```
    /// let trusted = mcptest::suite::RunOptions::new().independent(true);
    /// ```
    pub fn independent(mut self, independent: bool) -> Self {
        self.independent = independent;
        self
    }

    /// Runs one shard of the tests (see [`Partition`]); the report's title
    /// says which, and how many of the tests it holds.
    ///
    /// ```
    /// use mcptest::suite::RunOptions;
    ///
    /// let shard = RunOptions::new().partition("hash:1/4".parse().unwrap());
    /// ```
    pub fn partition(mut self, partition: Partition) -> Self {
        self.partition = Some(partition);
        self
    }

    /// How many times each test runs.
    pub(crate) fn trial_count(&self) -> u32 {
        self.trials.max(1)
    }

    /// The server for files without a `server:` block (and for every MCP
    /// Cases file). Each test connects to a fresh one.
    pub fn server(mut self, server: Server) -> Self {
        self.server = Some(server);
        self
    }

    /// A directory copied afresh for each test; `{{fixture}}` stands for the
    /// copy (`<temp>/<the directory's name>`). Relative `file_*` and
    /// `audit_log` paths resolve against the working directory, as in
    /// mcp-assert: write `{{fixture}}/notes.txt` for a file of the copy. A copy is removed
    /// after a passing test and kept (and named in the message) after a
    /// failing one.
    pub fn fixture(mut self, dir: impl Into<PathBuf>) -> Self {
        self.fixture = Some(dir.into());
        self
    }

    /// The timeout of tests that set none (mcp-assert files: per request and
    /// for the handshake; MCP Cases: per expected message).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Whether mcp-assert files share servers (default false): files whose
    /// server is the same configuration (the same command, environment and
    /// mocks, or the same default server) use one process for the whole run
    /// instead of one per test; see [`Server::shared`](mcptest_core::Server::shared) for what is isolated.
    /// A file that uses a fixture or a recording cannot share: it fails with
    /// the configuration error. MCP Cases files script their own handshake,
    /// so each keeps a connection of its own.
    pub fn shared(mut self, shared: bool) -> Self {
        self.shared = shared;
        self
    }

    /// Whether the [`server`](RunOptions::server) replaces the server that
    /// an mcp-assert file names (default false: it serves only the files
    /// that name none). Replaced is the command (or URL); the file's `env`,
    /// `roots` and client mocks stay, as with mcp-assert's `--server`.
    ///
    /// ```
    /// use mcptest::{Server, suite::RunOptions};
    ///
    /// let options = RunOptions::new()
    ///     .server(Server::command("/opt/bin/mcp-server-time"))
    ///     .replace_servers(true);
    /// ```
    pub fn replace_servers(mut self, replace: bool) -> Self {
        self.replace_servers = replace;
        self
    }

    /// Runs every test's server command in a fresh container of `image`
    /// (mcp-assert's `--docker`), the fixture copy mounted at its own path:
    /// see [`Server::container`](mcptest_core::Server::container) for the
    /// command line and the runtime. An mcp-assert file's own `docker:`
    /// image wins; a server reached at a URL is left as it is.
    ///
    /// ```
    /// use mcptest::{Server, suite::RunOptions};
    ///
    /// let options = RunOptions::new()
    ///     .server(Server::command("my-server --root {{fixture}}"))
    ///     .container("ghcr.io/me/my-server:1.2");
    /// ```
    pub fn container(mut self, image: impl Into<String>) -> Self {
        self.container = Some(image.into());
        self
    }

    /// How every test authorizes with a server reached at a URL whose file
    /// has no `auth:` block of its own (see [`authorize`](crate::authorize));
    /// the headers go to every such server. The command's `--header`,
    /// `--bearer-env` and `--client-id` say this.
    ///
    /// ```
    /// use mcptest::suite::{AuthSpec, RunOptions};
    ///
    /// let options = RunOptions::new().auth(AuthSpec {
    ///     bearer_env: Some("MCP_TOKEN".into()),
    ///     ..AuthSpec::default()
    /// });
    /// ```
    pub fn auth(mut self, auth: crate::auth::AuthSpec) -> Self {
        self.auth = Some(auth);
        self
    }

    /// What a server message that breaks the official MCP schema does in
    /// every test of the run (default [`WireSchema::Fail`]: it fails the
    /// test; see [`Server::wire_schema`](mcptest_core::Server::wire_schema)).
    /// MCP Cases files are exempt: each compares the server's messages with
    /// the ones it spells out.
    ///
    /// ```
    /// use mcptest::{WireSchema, suite::RunOptions};
    ///
    /// let options = RunOptions::new().wire_schema(WireSchema::Warn);
    /// ```
    pub fn wire_schema(mut self, mode: WireSchema) -> Self {
        self.wire_schema = Some(mode);
        self
    }

    /// Records each test's session (every message, in order) as a
    /// [`cassette`](mcptest_core::cassette) file in `dir`, named by
    /// [`SuiteTest::cassette_name`](crate::SuiteTest::cassette_name); the files are written as each test
    /// closes its connection, holding the test's own requests only (no tool
    /// list is fetched for definitions). Servers over stdio only: a test
    /// against a URL fails with the cassette's configuration error.
    pub fn record(mut self, dir: impl Into<PathBuf>) -> Self {
        self.record = Some(dir.into());
        self
    }
}
