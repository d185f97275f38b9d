//! What the macro-generated tests call. Not a public API: `mcptest::suite!`
//! embeds its files as these types and runs each test through
//! [`run_test`].

use mcptest_core::Server;
use mcptest_core::report::Location;
use mcptest_core::report::Outcome;
use mcptest_core::report::TestResult;
use mcptest_suite_format::{Format, LoadError};

use crate::{load, options::RunOptions, outcome::failure_message, suite::Suite};

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
        let docs: Vec<mcptest_suite_format::Node> = self.docs.iter().map(from_embedded).collect();
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

/// One `suite!`: its files, its tests (name, file, index within the
/// file, in file order) and the turns its tests take.
#[derive(Debug)]
pub struct EmbeddedSuite {
    /// The files, sorted by path.
    pub files: &'static [EmbeddedFile],
    /// Every generated test: (name, file, test index within the file).
    pub tests: &'static [(&'static str, usize, usize)],
    /// The turns of the tests (unless the suite is independent).
    pub turns: crate::runner::Turns,
}

impl EmbeddedSuite {
    /// The suite `key` (`package::module`); `target_tmp` is
    /// `CARGO_TARGET_TMPDIR` where the suite was compiled, if set.
    pub const fn new(
        files: &'static [EmbeddedFile],
        tests: &'static [(&'static str, usize, usize)],
        key: &'static str,
        target_tmp: Option<&'static str>,
    ) -> Self {
        EmbeddedSuite {
            files,
            tests,
            turns: crate::runner::Turns::new(key, target_tmp),
        }
    }
}

/// Runs the suite's test at `position` (in `tests`) on a fresh runtime,
/// through the runner, after the tests before it that run now (unless
/// `options` says the tests are independent); panics with the failure
/// message (the shared layout, under the file:line of the expectation),
/// and prints `skipped: <reason>` for a test skipped at run time.
pub fn run_test(suite: &EmbeddedSuite, position: usize, options: RunOptions) {
    let result = run_embedded(suite, position, options);
    if let Some(why) = result.outcome.skip_reason() {
        eprintln!("skipped: {why}");
    }
    if let Some(message) = failure_message(&result, mcptest_core::__support::color_enabled()) {
        panic!("{message}");
    }
}

/// Like [`run_test`], returning the result.
pub fn run_embedded(suite: &EmbeddedSuite, position: usize, options: RunOptions) -> TestResult {
    let Some(&(name, file, index)) = suite.tests.get(position) else {
        return TestResult::new(
            format!("test {position}"),
            Outcome::error(
                format!("test {position} of the suite"),
                "the suite has fewer tests; rebuild",
            ),
        );
    };
    let file = &suite.files[file];
    let failed =
        |outcome: Outcome| TestResult::new(file.path, outcome).location(Location::file(file.path));
    let loaded = match file.load() {
        Ok(suite) => suite,
        Err(e) => return failed(Outcome::error("a suite file that loads", e.to_string())),
    };
    let Some(test) = loaded.tests.get(index) else {
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
    // Tests whose servers may share state wait for each other, in file
    // order where they can, as the runner's replay runs them.
    let _turn = if options.independent {
        None
    } else {
        match suite.turns.wait(position, name) {
            Ok(turn) => Some(turn),
            Err(why) => {
                return failed(Outcome::error(
                    "its turn among the tests of its suite (their servers may share state; \
                     `independent` lets them run at once)",
                    why,
                ));
            }
        }
    };
    // One test: one job, no reading of idle cores.
    let options = options.jobs(1);
    let tests = std::slice::from_ref(test);
    let ignore = &mut |_: &crate::runner::Event<'_>| {};
    let mut report = runtime.block_on(crate::runner::run(name, tests, &options, ignore));
    report.results.pop().unwrap_or_else(|| {
        failed(Outcome::error(
            "a result",
            "the runner gave none (the options' partition left the test out)",
        ))
    })
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
