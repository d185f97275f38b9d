//! Data-driven suites: mcp-assert assertion files and MCP Cases files, run
//! through the harness — as Rust tests with `mcptest::suite!`, or from
//! any program with [`Suite`].
//!
//! Two formats, told apart by their content:
//!
//! - **mcp-assert files**: one assertion per file (`name`, `server`, `setup`,
//!   and one block such as `assert`, `assert_resources` or `trajectory`, with
//!   mcp-assert's `expect` fields). Unknown keys are errors that name the
//!   nearest valid key. One key is mcptest's own: `expect.plugin` runs a
//!   check written in any language as a child process (see
//!   [`expect::plugin`](mcptest_core::expect::plugin), which shows its YAML form).
//! - **MCP Cases files**: one case per YAML document, each a sequence of
//!   `in…` messages sent exactly as written and `out…` messages expected back
//!   (objects match as subsets, arrays exactly, `!!re` / `!!ere` strings by
//!   regex).
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcptest::suite::LoadError> {
//! use mcptest::{Server, suite::{RunOptions, Suite}};
//!
//! let suite = Suite::load("tests/evals")?;
//! let options = RunOptions::new().server(Server::command("my-mcp-server --stdio"));
//! for result in suite.run(&options).await {
//!     println!("{} {}", result.status(), result.name);
//! }
//! # Ok(()) }
//! ```
//!
//! The same cases files can also play a server for testing MCP clients:
//! see [`MockServer`].

#![warn(missing_docs)]
// Sampling, roots and logging are deprecated by SEP-2577 in rmcp, but suite
// files exercise every revision servers speak.
#![allow(deprecated)]

mod checks;
pub mod coverage;
mod judged;
mod lane;
mod load;
mod mock;
mod partition;
mod plugin;
mod run_assertion;
mod run_cases;
mod substitute;

use std::{
    cell::RefCell,
    future::Future,
    path::{Path, PathBuf},
    pin::Pin,
    time::{Duration, Instant},
};

pub use lane::LANES;
pub use mcptest_suite_format::{Format, LoadError};
pub use mock::MockServer;
pub use partition::Partition;

use mcptest_core::Fixture;

use mcptest_core::report::Location;

use mcptest_core::report::Outcome;

use mcptest_core::report::Report;

use mcptest_core::report::TestResult;

use mcptest_core::Server;
use mcptest_core::WireSchema;

/// The tests of one or more suite files.
#[derive(Debug, Clone, Default)]
pub struct Suite {
    tests: Vec<SuiteTest>,
}

/// One test: an mcp-assert file, or one document of an MCP Cases file.
#[derive(Debug, Clone)]
pub struct SuiteTest {
    /// The assertion's `name` (default: the file name), or the case's name
    /// (default: `case N`).
    pub name: String,
    /// The file it came from, as given.
    pub file: String,
    /// Which format the file is in.
    pub format: Format,
    /// Where it is written: the assertion's block, or the case's document.
    pub location: Location,
    kind: TestKind,
}

#[derive(Debug, Clone)]
enum TestKind {
    Assertion(Box<mcptest_suite_format::assertion::Assertion>),
    Case(Box<mcptest_suite_format::cases::Case>),
}

impl Suite {
    /// Loads a suite file, or every `.yaml` / `.yml` file below a directory
    /// (sorted by path). Any file that cannot be used is an error.
    pub fn load(path: impl AsRef<Path>) -> Result<Suite, LoadError> {
        let path = path.as_ref();
        let shown = path.display().to_string();
        let metadata = std::fs::metadata(path)
            .map_err(|e| LoadError::file(&shown, format!("cannot read: {e}")))?;
        let files = if metadata.is_dir() {
            let mut files = Vec::new();
            collect_yaml(path, &mut files)
                .map_err(|e| LoadError::file(&shown, format!("cannot list the directory: {e}")))?;
            files.sort();
            if files.is_empty() {
                return Err(LoadError::file(
                    &shown,
                    "no .yaml or .yml files in this directory",
                ));
            }
            files
        } else {
            vec![path.to_path_buf()]
        };
        let mut suite = Suite::default();
        for file in files {
            let shown = file.display().to_string();
            let text = std::fs::read_to_string(&file)
                .map_err(|e| LoadError::file(&shown, format!("cannot read: {e}")))?;
            suite.tests.extend(Suite::parse(&shown, &text)?.tests);
        }
        Ok(suite)
    }

    /// Parses one file's text; `file` names it in messages. The format is
    /// told from the content (see [`Format`]).
    pub fn parse(file: &str, text: &str) -> Result<Suite, LoadError> {
        Ok(Suite {
            tests: load::parse(file, text, None)?,
        })
    }

    /// Parses one file's text as `format`, without telling the formats
    /// apart again (what `suite!` does, having told them apart already).
    pub fn parse_as(file: &str, text: &str, format: Format) -> Result<Suite, LoadError> {
        Ok(Suite {
            tests: load::parse(file, text, Some(format))?,
        })
    }

    /// Adds `other`'s tests after these (to run several directories as one).
    pub fn extend(&mut self, other: Suite) {
        self.tests.extend(other.tests);
    }

    /// The tests, in file order.
    pub fn tests(&self) -> &[SuiteTest] {
        &self.tests
    }

    /// Runs every test, one after the other.
    pub async fn run(&self, options: &RunOptions) -> Vec<TestResult> {
        let mut results = Vec::with_capacity(self.tests.len());
        for test in &self.tests {
            results.push(test.run(options).await);
        }
        results
    }

    /// Runs every test, one after the other, into a [`Report`] titled
    /// `title` (`suite tests/evals`), for any of its renderings.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), mcptest::suite::LoadError> {
    /// use mcptest::{Server, suite::{RunOptions, Suite}};
    ///
    /// let options = RunOptions::new().server(Server::command("my-mcp-server --stdio"));
    /// let report = Suite::load("tests/evals")?.run_report("suite tests/evals", &options).await;
    /// println!("{report}");
    /// report.assert_passed();
    /// # Ok(()) }
    /// ```
    pub async fn run_report(&self, title: impl Into<String>, options: &RunOptions) -> Report {
        let started = Instant::now();
        let mut report = Report::new(title);
        for result in self.run(options).await {
            report.push(result);
        }
        report.with_duration(started.elapsed())
    }
}

fn collect_yaml(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_yaml(&path, out)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) {
            out.push(path);
        }
    }
    Ok(())
}

impl SuiteTest {
    /// The file name its session gets under [`RunOptions::record`]: the
    /// file and the test name, each character outside `[A-Za-z0-9_-]` a `_`.
    pub fn cassette_name(&self) -> String {
        let safe = |text: &str| -> String {
            text.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect()
        };
        format!("{}__{}.json", safe(&self.file), safe(&self.name))
    }

    /// True for an mcp-assert file whose `server:` names a command or a
    /// URL of its own (which [`RunOptions::replace_servers`] replaces).
    pub fn names_server(&self) -> bool {
        match &self.kind {
            TestKind::Assertion(a) => a
                .server
                .as_ref()
                .is_some_and(|s| s.http || s.command.is_some()),
            TestKind::Case(_) => false,
        }
    }

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

/// What is left of a test once its verdict is known (see
/// [`SuiteTest::run_until_verdict`]): its server to stop (the connection
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

/// A test (`what`: "assertion", "case") that did not end within `guard`.
pub(crate) fn timed_out(what: &str, guard: Duration) -> mcptest_core::expect::Failure {
    mcptest_core::expect::Failure::expecting(format!(
        "the {what} to finish within {}",
        mcptest_core::__support::fmt_duration(guard)
    ))
    .but("it did not")
}

/// A test's outcome; a failure keeps the fixture copy and says where.
pub(crate) fn outcome(
    result: Result<(), mcptest_core::expect::Failure>,
    fixture: Option<Fixture>,
) -> Outcome {
    match result {
        Ok(()) => Outcome::Pass,
        Err(mut failure) => {
            if let Some(dir) = fixture {
                failure = failure.fixture_kept(dir.keep_failed());
            }
            Outcome::fail(failure)
        }
    }
}

/// A failed result as a suite prints it: `file:line:column: `name` failed`,
/// then the failure in the layout every check shares. `None` unless it failed.
pub fn failure_message(result: &TestResult, color: bool) -> Option<String> {
    let failure = result.outcome.failure()?;
    let place = result
        .location
        .as_ref()
        .map(|l| format!("{l}: "))
        .unwrap_or_default();
    Some(format!(
        "{place}`{}` failed\n{}",
        mcptest_core::__support::safe_text(&result.name),
        failure.render(color)
    ))
}

/// How a suite runs: the server for files that name none, the fixture
/// directory, a default timeout.
///
/// ```
/// use std::time::Duration;
/// use mcptest::{Server, suite::RunOptions};
///
/// let options = RunOptions::new()
///     .server(Server::command("my-mcp-server --stdio"))
///     .fixture("tests/fixtures")
///     .timeout(Duration::from_secs(10));
/// ```
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    server: Option<Server>,
    fixture: Option<PathBuf>,
    timeout: Option<Duration>,
    record: Option<PathBuf>,
    shared: bool,
    replace_servers: bool,
    wire_schema: Option<WireSchema>,
}

impl RunOptions {
    /// No default server, no fixture, mcp-assert's 30 s timeout.
    pub fn new() -> Self {
        RunOptions::default()
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
    /// [`SuiteTest::cassette_name`]; the files are written as each test
    /// closes its connection, holding the test's own requests only (no tool
    /// list is fetched for definitions). Servers over stdio only: a test
    /// against a URL fails with the cassette's configuration error.
    pub fn record(mut self, dir: impl Into<PathBuf>) -> Self {
        self.record = Some(dir.into());
        self
    }
}

pub(crate) struct TestContext<'a> {
    /// The test's name, for messages about it (a kept fixture copy).
    pub(crate) name: &'a str,
    pub(crate) file: &'a str,
    pub(crate) default_server: Option<Server>,
    /// Whether `default_server` replaces the server a file names.
    pub(crate) replace_server: bool,
    pub(crate) fixture: Option<&'a Path>,
    pub(crate) timeout: Option<Duration>,
    /// The run's [`RunOptions::wire_schema`], when it sets one.
    pub(crate) wire_schema: Option<WireSchema>,
    /// Whether mcp-assert files share their server (see [`RunOptions::shared`]).
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
        let name: String = self
            .name
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        Fixture::create(Some(source), Some(&name))
            .map(Some)
            .map_err(|e| format!("cannot copy the fixture {}: {e}", source.display()))
    }
}

/// What code generated by `mcptest::suite!` calls. Not a public API: names
/// and signatures here change whenever the macro needs them to.
#[doc(hidden)]
pub mod __private {
    pub use crate::{
        Format, RunOptions, failure_message,
        generated::{EmbeddedFile, EmbeddedKind, EmbeddedNode, IntoServer, run_embedded, run_test},
    };
    pub use std::time::Duration;
}

/// What the macro-generated tests call. Not a public API.
#[doc(hidden)]
pub mod generated {
    use super::*;

    /// A suite file embedded in the test binary.
    #[derive(Debug)]
    pub struct EmbeddedFile {
        /// The path relative to the crate, for messages.
        pub path: &'static str,
        /// The absolute path, for resolving relative paths in the file.
        pub absolute: &'static str,
        /// The file's text (its inclusion also makes an edit rebuild).
        pub text: &'static str,
        /// The format the macro told apart at compile time.
        pub format: Format,
        /// The file's documents, parsed by the macro: a test loads them
        /// without parsing YAML.
        pub docs: &'static [EmbeddedNode],
    }

    /// A YAML node parsed at compile time: its value, its tag as written
    /// (`!!re`), and where it is (1-based).
    #[derive(Debug)]
    pub struct EmbeddedNode {
        /// The value.
        pub kind: EmbeddedKind,
        /// The tag, shortened (`!!re`); `None` when untagged.
        pub tag: Option<&'static str>,
        /// 1-based line.
        pub line: u64,
        /// 1-based column.
        pub column: u64,
    }

    /// The value of an [`EmbeddedNode`]; mappings keep their order.
    #[derive(Debug)]
    #[allow(missing_docs)]
    pub enum EmbeddedKind {
        Null,
        Bool(bool),
        Int(i64),
        UInt(u64),
        Float(f64),
        Str(&'static str),
        Seq(&'static [EmbeddedNode]),
        Map(&'static [(EmbeddedNode, EmbeddedNode)]),
    }

    impl EmbeddedFile {
        /// The file's tests, loaded from the embedded documents in the
        /// format told apart at compile time.
        pub fn load(&self) -> Result<Suite, LoadError> {
            let docs: Vec<mcptest_suite_format::Node> =
                self.docs.iter().map(from_embedded).collect();
            Ok(Suite {
                tests: load::load(self.path, &docs, Some(self.format))?,
            })
        }
    }

    /// The node `suite!` parsed at compile time and embedded as a constant.
    fn from_embedded(node: &EmbeddedNode) -> mcptest_suite_format::Node {
        use mcptest_suite_format::{Kind, Node, Pos};
        let kind = match node.kind {
            EmbeddedKind::Null => Kind::Null,
            EmbeddedKind::Bool(b) => Kind::Bool(b),
            EmbeddedKind::Int(i) => Kind::Int(i),
            EmbeddedKind::UInt(u) => Kind::UInt(u),
            EmbeddedKind::Float(f) => Kind::Float(f),
            EmbeddedKind::Str(s) => Kind::Str(s.to_owned()),
            EmbeddedKind::Seq(items) => Kind::Seq(items.iter().map(from_embedded).collect()),
            EmbeddedKind::Map(entries) => Kind::Map(
                entries
                    .iter()
                    .map(|(k, v)| (from_embedded(k), from_embedded(v)))
                    .collect(),
            ),
        };
        Node {
            kind,
            tag: node.tag.map(str::to_owned),
            pos: Pos {
                line: node.line,
                column: node.column,
            },
        }
    }

    /// Runs test `index` of `file` (0 for an mcp-assert file, the document
    /// for MCP Cases) on a fresh runtime; panics with the failure message
    /// (the shared layout, under the file:line of the expectation), and
    /// prints `skipped: <reason>` for a test skipped at run time.
    pub fn run_test(file: &EmbeddedFile, index: usize, options: RunOptions) {
        let result = run_embedded(file, index, options);
        if let Some(why) = result.outcome.skip_reason() {
            eprintln!("skipped: {why}");
        }
        if let Some(message) = failure_message(&result, mcptest_core::__support::color_enabled()) {
            panic!("{message}");
        }
    }

    /// Like [`run_test`], returning the result.
    pub fn run_embedded(file: &EmbeddedFile, index: usize, options: RunOptions) -> TestResult {
        let failed = |outcome: Outcome| {
            TestResult::new(file.path, outcome).location(Location::file(file.path))
        };
        let suite = match file.load() {
            Ok(suite) => suite,
            Err(e) => return failed(Outcome::error("a suite file that loads", e.to_string())),
        };
        let Some(test) = suite.tests.get(index) else {
            return failed(Outcome::error(
                format!("test {index} in {}", file.path),
                "the file changed since it was compiled, so rebuild",
            ));
        };
        let runtime = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(rt) => rt,
            Err(e) => return failed(Outcome::error("a tokio runtime", e.to_string())),
        };
        runtime.block_on(test.run(&options))
    }

    /// What a `server = ..` option of `suite!` may be: a command line or a
    /// [`Server`].
    pub trait IntoServer {
        /// The server.
        fn into_server(self) -> Server;
    }

    impl IntoServer for Server {
        fn into_server(self) -> Server {
            self
        }
    }

    impl IntoServer for &str {
        fn into_server(self) -> Server {
            Server::command(self)
        }
    }

    impl IntoServer for String {
        fn into_server(self) -> Server {
            Server::command(&self)
        }
    }
}
