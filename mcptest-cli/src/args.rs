//! The command line: every command and flag, with an example per command and
//! the exit statuses in `--help`.

use std::{path::PathBuf, time::Duration};

use crate::connect::{AuthArgs, TargetArgs};
use clap::{Args, Parser, Subcommand};

const EXIT_CODES: &str = "\
Exit status:
  0  everything ran and passed
  1  a test or check failed, or nothing was checked
  2  usage error, or a file that cannot be loaded
  3  regressions: a test that passed in the --baseline no longer passes
  130, 143  interrupted (SIGINT, SIGTERM): every server started is killed first";

const EXAMPLES: &str = "\
Examples:
  mcptest run tests/evals --server 'my-server --stdio' --junit junit.xml
  mcptest validate 'tests/evals/**/*.yaml'
  mcptest conformance --server 'my-server --stdio' --expected-failures known.yaml
  mcptest mock contract.yaml --http 3001
  mcptest audit --server 'my-server --stdio' --skip delete_all
  mcptest fuzz --server 'my-server --stdio' --tool search --seed 7
  mcptest generate --server 'my-server --stdio' --out tests/evals
  mcptest coverage tests/evals --server 'my-server --stdio' --min 80
  mcptest init tests/evals
  mcptest lint --server 'my-server --stdio' --strict
  mcptest lint-security --server 'my-server --stdio'
  mcptest drift tests/snapshots/surface.snap 'my-server --stdio' --sarif drift.sarif";

const LINT_HELP: &str = "\
Examples:
  mcptest lint --server 'my-server --stdio'
  mcptest lint --server http://127.0.0.1:3001/mcp --headers 'Authorization=Bearer abc'
  mcptest lint --server 'my-server' --strict --skip-rules E107,W112 --json lint.json
  mcptest lint --server 'my-server' --call-tools --max-response-kb 50 --detect-nondeterminism
  mcptest lint --server 'my-server' --fix
  mcptest lint --server 'my-server' --sarif lint.sarif --sarif-anchor tests/snapshots/surface.snap

Rules (see mcptest-cli/README.md for each rule's test and why):
  errors    E101 missing-description, E102 untyped-parameter,
            E103 undescribed-required-parameter, E105 free-text-flow,
            E112 secret-parameter, E113 duplicate-tool-name,
            E301 oversized-response (--call-tools), MCPT-L001 hidden-instructions,
            MCPT-L002 invisible-unicode, MCPT-L003 confusable-tool-name,
            MCPT-L005 secret-in-definition
  warnings  E107 tool-cycle, W101 vague-description,
            W102 undescribed-optional-parameter, W103 unconstrained-string,
            W104 generic-parameter-name, W105 similar-tools, W106 tool-list-tokens,
            W107 nondeterministic-output (--detect-nondeterminism),
            W108 hidden-side-effects, W109 missing-examples, W110 description-drift,
            W111 description-length, W112 too-many-tools, W113 overloaded-tool,
            W114 deep-schema, W115 tool-tokens, W116 output-undescribed,
            MCPT-L004 well-known-tool-name, MCPT-L006 unconstrained-parameter,
            MCPT-L007 permissive-schema, MCPT-L008 destructive-without-hint,
            MCPT-L009 long-description

Each finding names its rule, the tool, the parameter and the field as a JSON
pointer into {instructions, tools, prompts, resources, resourceTemplates}.
Token counts are o200k_base tokens (a real tokenizer), per tool and in all.
--fix prints suggested changes as JSON Patch operations on that document.
--sarif writes every finding as a SARIF 2.1.0 result under its rule, at its
severity after --strict and --skip-rules, pointing into --sarif-anchor.

Exit status:
  0  no error finding and at most --threshold findings (warnings are shown);
     always 0 with --fix once the server is linted
  1  an error finding (any finding with --strict), more findings than
     --threshold, or a server that cannot be linted or lists nothing
  2  usage error, or a server that cannot be found";

/// Test MCP servers from the command line: suites, reports, conformance, mocks.
#[derive(Debug, Parser)]
#[command(name = "mcptest", version, after_help = format!("{EXAMPLES}\n\n{EXIT_CODES}"))]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run mcp-assert and MCP Cases files against MCP servers.
    #[command(after_help = format!("\
Examples:
  mcptest run tests/evals --server 'my-server --stdio'
  mcptest run 'tests/**/*.yaml' --jobs 4 --filter echo --junit junit.xml --markdown summary.md
  mcptest run tests/evals --trials 5 --json report.json
  mcptest run tests/evals --server 'python -m my_server' --shared
  mcptest run tests/evals --save-baseline baseline.json
  mcptest run tests/evals --baseline baseline.json
  mcptest run --suite evals --server 'my-server --stdio' --json > report.json
  mcptest run tests/evals --partition hash:2/4 --json shard-2.json

{EXIT_CODES}"))]
    Run(RunArgs),
    /// Load suite files without running them; report every problem with
    /// file:line:column.
    #[command(after_help = "\
Example:
  mcptest validate tests/evals 'more/**/*.yaml'

Exit status:
  0  every file loads
  1  a file has a problem
  2  usage error (a path that does not exist, a glob that matches nothing)")]
    Validate(ValidateArgs),
    /// Check a server against the MCP specification, rule by rule.
    #[command(after_help = format!("\
Examples:
  mcptest conformance --server 'my-server --stdio'
  mcptest conformance --url http://127.0.0.1:3001/mcp --protocol 2025-11-25 --junit conformance.xml
  mcptest conformance --server 'my-server' --expected-failures known-failures.yaml

An expected-failures file is a YAML list of check ids: a listed check that fails
shows as XFAIL and does not fail the run; one that now passes fails it, so the
list cannot go stale. Each row names the official conformance suite's check ids
for the same rule, where there are some (also in --json and --junit).

{EXIT_CODES}"))]
    Conformance(ConformanceArgs),
    /// Play MCP Cases files as an MCP server (stdio, or Streamable HTTP on
    /// 127.0.0.1), for testing MCP clients against a contract.
    #[command(after_help = "\
Examples:
  mcptest mock contract.yaml
  mcptest mock tests/contracts --http 3001

Each request is answered with the `out`s of the case whose `in` matches it; a
request no case matches gets a JSON-RPC error naming the closest case, also
reported on stderr. With --http 0 a free port is chosen; the address is
printed on stderr.

Exit status:
  0  the client went away
  2  usage error, or a file that cannot be loaded")]
    Mock(MockArgs),
    /// Call every tool once with an input built from its schema and report
    /// which ones the server survives (healthy, crash, timeout, protocol
    /// error). Destructive tools are skipped unless asked for.
    #[command(after_help = "\
Examples:
  mcptest audit --server 'my-server --stdio'
  mcptest audit --url http://127.0.0.1:3001/mcp --timeout 5s --junit audit.xml
  mcptest audit --server 'my-server' --skip send_email --include-destructive
  mcptest audit --server 'my-server' --sarif audit.sarif --sarif-anchor tests/snapshots/surface.snap

A tool that answers, with isError or not, is healthy. The server is started
once and restarted after a crash or a timeout.

Exit status:
  0  every tool called was healthy
  1  a tool crashed the server, timed out or broke the protocol, or no tool
     was called
  2  usage error, or a server that cannot be found")]
    Audit(AuditArgs),
    /// Send almost-valid inputs built from each tool's schema (structural
    /// cases, adversarial values per type, seeded random mutations) and
    /// report the ones the server does not survive.
    #[command(after_help = "\
Examples:
  mcptest fuzz --server 'my-server --stdio'
  mcptest fuzz --server 'my-server' --tool search --mutations 200 --seed 7 --timeout 5s
  mcptest fuzz --server 'my-server' --write-tests tests/fuzz_found.rs --write-suite tests/evals/fuzz_found.yaml

A case passes when the server answers at all (a result, isError, or a JSON-RPC
error). A crash, a hang or an answer that is not valid MCP fails it, with the
call_tool line that reproduces it; the server is restarted after each crash.
The first failing input of each tool and kind is shrunk to a minimal one that
fails the same way (--shrink-calls); --write-tests and --write-suite keep the
failures as tests that send it. The same --seed reproduces a run.

Exit status:
  0  the server survived every case
  1  a case crashed, hung or broke the protocol, or nothing was fuzzed
  2  usage error, or a server that cannot be found")]
    Fuzz(FuzzArgs),
    /// Write one starter mcp-assert file per tool, with an input built from
    /// its schema and what the tool answered to it.
    #[command(after_help = "\
Example:
  mcptest generate --server 'my-server --stdio' --out tests/evals
  mcptest run tests/evals --server 'my-server --stdio'

Existing files are not overwritten unless --force is given. Destructive tools
are not called; their files are written with `skip: true`.

Exit status:
  0  the files were written
  1  a tool could not be called (its file is still written)
  2  usage error, a server that cannot be found or listed, an unwritable DIR")]
    Generate(GenerateArgs),
    /// List what a server offers (tools, prompts, resources, resource
    /// templates) and mark what no suite file exercises.
    #[command(after_help = "\
Examples:
  mcptest coverage tests/evals --server 'my-server --stdio'
  mcptest coverage tests/evals --server 'my-server' --min 80 --json coverage.json

A file exercises a tool when it calls it (its block, a setup step, or a
tools/call message of an MCP Cases file), a prompt when it gets it, and a
resource when it reads or subscribes to its URI (a resource template when a
read URI fits it). Uncovered items are SKIP in the report files.

Exit status:
  0  the share exercised is at least --min (or no --min was given)
  1  under --min, or the server lists nothing to cover
  2  usage error, a file that cannot be loaded, a server that cannot be
     started or listed")]
    Coverage(CoverageArgs),
    /// Write a starter suite: a commented mcp-assert file to edit, and the
    /// command that runs it.
    #[command(after_help = "\
Examples:
  mcptest init
  mcptest init tests/evals --server 'my-server --stdio'
  mcptest run tests/evals

With --server, the file calls the server's first tool with an input built
from its schema (use `mcptest generate` for one file per tool). Existing
files are never overwritten.

Exit status:
  0  the file was written
  2  usage error, a file that exists, an unwritable DIR, a server that
     cannot be started or listed")]
    Init(InitArgs),
    /// Sit between an agent and a server over stdio, record every tool call
    /// the agent makes, then check trajectory files against the calls.
    #[command(after_help = "\
Example: configure the agent to start this as its MCP server:
  mcptest intercept --server 'my-server --stdio' --trajectory checks.yaml --log calls.jsonl

where checks.yaml is an mcp-assert trajectory file reading the same log:
  name: the agent looks before it writes
  audit_log: calls.jsonl
  trajectory:
    - type: order
      tools: [read_file, write_file]
    - type: absence
      tools: [delete_file]

Messages pass through as JSON. When the agent closes stdin, requests still
in flight are answered (up to --timeout), the server is stopped, the calls
are written to --log (one {\"tool\": .., \"args\": ..} per line) and the
files run. stdout is the protocol's: results go to stderr.

Exit status:
  0  every trajectory check passed
  1  a check failed, or the server went away during the session
  2  usage error, a file that cannot be loaded, a server that cannot start")]
    Intercept(InterceptArgs),
    /// Run suite files, then again on every change below their paths,
    /// saying which tests flipped since the run before.
    #[command(after_help = "\
Examples:
  mcptest watch tests/evals --server 'my-server --stdio'
  mcptest watch 'tests/**/*.yaml' --filter echo

Directories are watched recursively; for a file or a glob, its directory.
A burst of writes (an editor saving) is one rerun. A file that no longer
loads is reported and the watch goes on. Ctrl-C stops it.

Exit status (with --max-runs, or when the watcher stops): that of the last
run, as for `mcptest run`.")]
    Watch(WatchArgs),
    /// Serve the coprocess protocol (v3, and v2) on stdin/stdout: test
    /// frameworks in any language drive the server under test, and run
    /// suite files, through this engine.
    #[command(after_help = "\
Examples:
  mcptest exec --connection-server -- python3 server.py --stdio
  mcptest exec --connection-server --server-env TOKEN=t --server-cwd srv -- ./my-server
  mcptest exec --connection-server --server-url http://127.0.0.1:3001/mcp --call-timeout 10s
  mcptest exec --connection-server --check-frames      (suite files only)

One JSON-RPC request per line in, one response per line out, in order. A
session without a handshake, or with protocol_version 2, gets the v2 methods
and shapes; a handshake of v3 gets every method (the handshake lists them):
coprocess/handshake, mcp.initialize, mcp.call, mcp.listTools,
mcp.listResources, mcp.listPrompts, mcp.listResourceTemplates,
mcp.readResource, mcp.callPrompt, mcp.messages, suite.list, suite.run,
mcp.reporter.setUpload, mcp.reporter.record, mcp.reporter.flush,
mcp.cache.set_mode, mcp.cassette.set_mode, mcp.shutdown.

Errors: -32700 parse, -32600 invalid request (an extra top-level field, a
line over --max-line-bytes; with --check-frames, a frame that breaks the
schema), -32601 unknown method (a suite lane that runs only from the command
line names its command), -32602 invalid params (a handshake of another
version, an MCP request without a server, a suite file that does not load),
-32603 a call over --call-timeout, -32000 an upstream MCP error (its code,
message and data in data.upstream), -32001 the upstream connection dropped
(exit status and stderr tail in data). The JSON Schema of every frame is
mcptest-coprocess/coprocess.schema.json.

Exit status:
  0  the peer sent mcp.shutdown or closed stdin
  1  stdin or stdout failed
  2  usage error, a server that cannot be found")]
    Exec(ExecArgs),
    /// Lint the server's definitions for agent usability and security
    /// (mcp-assert's rules under their codes, and the MCPT-L security rules),
    /// with their token cost; calls tools only when asked.
    #[command(after_help = LINT_HELP)]
    Lint(LintArgs),
    /// Check the server's tool, prompt and resource definitions for
    /// security smells (hidden instructions, invisible unicode, lookalike
    /// names, secrets, free-form commands, schemas that accept anything, ...),
    /// without calling anything.
    #[command(
        name = "lint-security",
        after_help = "\
Examples:
  mcptest lint-security --server 'my-server --stdio'
  mcptest lint-security --url http://127.0.0.1:3001/mcp --json lint.json
  mcptest lint-security --server 'my-server' --sarif lint.sarif --sarif-anchor tests/snapshots/surface.snap

Each finding names its rule (MCPT-L001 ...), its severity, the offending field
as a JSON pointer into {instructions, tools, prompts, resources,
resourceTemplates}, and why it matters.

Exit status:
  0  no error finding (warnings are shown)
  1  an error finding, or a server that lists nothing to lint
  2  usage error, or a server that cannot be found"
    )]
    LintSecurity(LintSecurityArgs),
    /// Compare two surfaces of a server (a stored snapshot, a live server,
    /// or one of each) and classify every change: breaking, degrading or
    /// compatible.
    #[command(after_help = "\
Examples:
  mcptest drift tests/snapshots/surface.snap 'my-server --stdio'
  mcptest drift old.snap new.snap --fail-on breaking --sarif drift.sarif
  mcptest drift 'my-server-v1 --stdio' http://127.0.0.1:3001/mcp --json drift.json

OLD and NEW are each a file (the .snap that assert_tool_surface_snapshot!
writes, or a JSON/YAML listing such as a saved tools/list result), a
Streamable HTTP URL, or a server command line. Items are matched by name
(tools, prompts) or URI (resources, templates). Each change is named by its
rule (MCPT-D001 item-removed, ...); the rules are in the README.

SARIF results point into NEW when it is a file, else OLD when it is one,
else --sarif-anchor.

Exit status:
  0  no change, or none at or above --fail-on
  1  a breaking change
  4  a degrading change and no breaking one (with --fail-on degrading, the
     default)
  2  usage error, a file that cannot be read as a surface, a server that
     cannot be started or listed")]
    Drift(DriftArgs),
    /// Run suite files with each session recorded and compare what the
    /// server answered with the snapshot stored beside each file.
    #[command(after_help = "\
Examples:
  mcptest snapshot tests/evals --server 'my-server --stdio' --update
  mcptest snapshot tests/evals --server 'my-server --stdio'

A snapshot is every request a test sent (initialize left out) with the answer
it got, stored as JSON in __snapshots__/<file>.json beside each suite file,
one entry per test. A test without a stored snapshot fails until --update
stores it; a changed answer fails with the diff. The files' own expectations
are `mcptest run`'s business. Servers over stdio only.

Exit status:
  0  every test's answers match (or were stored with --update)
  1  a difference, a missing snapshot, or a session that was not recorded
  2  usage error, a file that cannot be loaded")]
    Snapshot(SnapshotArgs),
    /// Work with report files: join the JSON reports of a sharded run.
    #[command(subcommand)]
    Report(ReportCommand),
}

#[derive(Debug, Subcommand)]
pub enum ReportCommand {
    /// Join the JSON reports of a run's shards (`mcptest run --partition
    /// hash:K/N --json shard-K.json`) into one report, in every format.
    #[command(after_help = "\
Example:
  mcptest report merge shard-*.json --junit junit.xml --markdown summary.md --json report.json

The results come in the order an unsharded run gives them; the run's time is
the longest shard's. Reports of different runs, or a test in two of them,
are refused.

Exit status:
  0  every test of every shard passed
  1  a test failed, or nothing was checked
  2  usage error, a report that cannot be read, shards that do not fit")]
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' JSON reports.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub reports: ReportArgs,
}

/// What `run`, `snapshot` and `watch` share: the files, the server, and how
/// the tests run.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// Suite files, directories (every .yaml/.yml below) or globs.
    #[arg(value_name = "PATH", required_unless_present = "suite")]
    pub paths: Vec<String>,
    /// A suite directory (mcp-assert's spelling of PATH); repeatable.
    #[arg(long, value_name = "DIR")]
    pub suite: Vec<String>,
    /// How many tests run at once [default: twice the number of cores, and
    /// more (up to 4 times the cores) while cores sit idle as servers
    /// start]. A
    /// finished test's server is stopped beside the next test (up to N at
    /// once; with 1, before the next starts); all before the run ends.
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// A directory copied afresh for each test ({{fixture}} in the files).
    #[arg(long, value_name = "DIR")]
    pub fixture: Option<PathBuf>,
    /// The server of every mcp-assert file, replacing the command a file
    /// names (its env, roots and mocks stay), and of every MCP Cases file;
    /// split like a shell, never run through one. The run's first line
    /// says how many files it replaced.
    #[arg(long, value_name = "CMD")]
    pub server: Option<String>,
    /// Run each test's server command in a fresh container of IMAGE, as
    /// mcp-assert does: `docker run --rm -i -v FIXTURE:FIXTURE -e KEY=VALUE…
    /// IMAGE CMD…` (podman when docker is not on PATH). A file's own
    /// `docker:` wins; a server reached at a URL is left as it is.
    #[arg(long, value_name = "IMAGE")]
    pub docker: Option<String>,
    /// The timeout of tests that set none (e.g. 10s, 1m) [default: 30s].
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub timeout: Option<Duration>,
    /// What a server message that breaks the official MCP schema of its
    /// revision does: fail the test, warn on stderr and go on, or nothing
    /// [default: fail].
    #[arg(long, value_name = "fail|warn|off", value_parser = wire_schema)]
    pub wire_schema: Option<mcptest::WireSchema>,
    /// Run only the tests whose name or file contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    /// How to authorize with the servers files reach at a URL (a file's
    /// own `auth:` wins).
    #[command(flatten)]
    pub auth: AuthArgs,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Start one server per configuration for the whole run instead of one
    /// per test: mcp-assert files that name the same server (or none, with
    /// --server) share its process; each test keeps its own answers and
    /// progress, but sees the server's state as earlier tests left it. MCP
    /// Cases files keep a server of their own (they script the handshake).
    #[arg(long, alias = "reuse-server", conflicts_with = "fixture")]
    pub shared: bool,
    /// Trust verdicts reached beside other tests. Without it, when tests
    /// fail while others run, the tests up to the last of them are
    /// replayed one at a time, in file order, once the rest are done; a
    /// failure that then passes passes as "interfered" (its server shares
    /// state between processes, such as one file for all); the summary
    /// names each such test.
    #[arg(long)]
    pub independent: bool,
    /// Run one shard of the tests: `count:K/N` (the K-th of every N, in
    /// the order of file and name) or `hash:K/N` (by a stable hash of file
    /// and name: adding a file moves no other test). Join the shards'
    /// --json reports with `mcptest report merge`.
    #[arg(long, value_name = "count:K/N|hash:K/N", value_parser = mcptest::suite::Partition::parse)]
    pub partition: Option<mcptest::suite::Partition>,
    /// The run passes when at least this percentage of the tests that ran
    /// (skips left out) passed, failures or not [default: 100, every test].
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(u8).range(0..=100))]
    pub threshold: Option<u8>,
    /// Exit 3 when a test that passed in the --baseline no longer passes
    /// (what --baseline always does; accepted for mcp-assert's command
    /// line).
    #[arg(long, requires = "baseline")]
    pub fail_on_regression: bool,
    /// Run each test N times; reports show pass@N and pass^N. A test passes
    /// only when every trial passes.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub trials: u32,
    /// Save each test's status to FILE, for a later --baseline.
    #[arg(long, value_name = "FILE")]
    pub save_baseline: Option<PathBuf>,
    /// Compare with a saved baseline: a test that passed there and does not
    /// now is a regression (exit 3); tests that failed there too are known
    /// failures and do not fail the run.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    #[command(flatten)]
    pub reports: ReportArgs,
}

/// Report files; any combination in one run.
#[derive(Debug, Args, Default)]
pub struct ReportArgs {
    /// Write a JUnit XML report.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write a JSON report; a bare `--json` (or `--json -`) prints it on
    /// stdout instead of the terminal summary, which then goes to stderr.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-")]
    pub json: Option<PathBuf>,
    /// Write a Markdown report (also appended to $GITHUB_STEP_SUMMARY when
    /// that is set).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Write a shields.io endpoint badge (JSON).
    #[arg(long, value_name = "FILE")]
    pub badge: Option<PathBuf>,
}

impl ReportArgs {
    /// True for a bare `--json` (or `--json -`): the JSON report goes to
    /// stdout.
    pub fn json_on_stdout(&self) -> bool {
        self.json.as_deref() == Some(std::path::Path::new("-"))
    }
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Suite files, directories (every .yaml/.yml below) or globs.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ConformanceArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Check an MCP client instead of a server: its command line (split
    /// like a shell), run against a recording mock server over its stdin
    /// and stdout.
    #[arg(long, value_name = "CMD", group = "target")]
    pub client: Option<String>,
    /// Check an MCP client over Streamable HTTP: the mock listens on
    /// 127.0.0.1 and `{{url}}` in the command line is its URL.
    #[arg(long, value_name = "CMD", group = "target")]
    pub client_http: Option<String>,
    /// With --client-http: the mock is a protected resource with its own
    /// authorization server, and the mcp-client-auth-* checks judge how the
    /// client finds, gets, refreshes and uses its token.
    #[arg(long)]
    pub protected: bool,
    /// With --protected: the authorization server offers no registration
    /// endpoint and knows the client by this id, which the client must use
    /// (instead of registering dynamically, the default).
    #[arg(
        long,
        value_name = "ID",
        requires = "protected",
        conflicts_with = "client_metadata_document"
    )]
    pub pre_registered_client_id: Option<String>,
    /// With --pre-registered-client-id: the client's secret, which it must
    /// present at the token endpoint (HTTP Basic or in the form).
    #[arg(long, value_name = "SECRET", requires = "pre_registered_client_id")]
    pub pre_registered_client_secret: Option<String>,
    /// With --protected: the authorization server offers Client ID Metadata
    /// Documents and no registration endpoint; the client's client_id must
    /// be the URL of its document (https, or http on 127.0.0.1 or
    /// localhost, the only hosts the mock fetches from).
    #[arg(long, requires = "protected")]
    pub client_metadata_document: bool,
    #[command(flatten)]
    pub auth: AuthArgs,
    /// Only the checks of one protocol revision: 2026-07-28 (stateless,
    /// through server/discover) or a classic one (2024-11-05 to
    /// 2025-11-25, through initialize) [default: both].
    #[arg(long, value_name = "VERSION")]
    pub protocol: Option<String>,
    /// Run only these checks (an id, or a prefix ending in `*`); repeatable.
    #[arg(long, value_name = "ID")]
    pub only: Vec<String>,
    /// Per-request timeout (e.g. 10s); for a client, how long its whole
    /// session may last [default: 30s].
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub timeout: Option<Duration>,
    /// A YAML list of check ids known to fail.
    #[arg(long, value_name = "FILE")]
    pub expected_failures: Option<PathBuf>,
    /// A row for every check in the table, also for those that cannot apply
    /// to the server (a revision it does not speak, an extension it does
    /// not declare, a rule for the other transport), which are otherwise
    /// folded into one line per reason. Report files always have every row.
    #[arg(long, short)]
    pub verbose: bool,
    #[command(flatten)]
    pub reports: ReportArgs,
}

#[derive(Debug, Args)]
pub struct MockArgs {
    /// MCP Cases files or directories.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Serve Streamable HTTP on 127.0.0.1:PORT (path /mcp) instead of stdio.
    #[arg(long, value_name = "PORT")]
    pub http: Option<u16>,
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub auth: AuthArgs,
    /// How long each tool call may take (e.g. 5s) [default: 30s].
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub timeout: Option<Duration>,
    /// Also call tools annotated destructiveHint: true.
    #[arg(long)]
    pub include_destructive: bool,
    /// Do not call this tool; repeatable.
    #[arg(long, value_name = "TOOL")]
    pub skip: Vec<String>,
    #[command(flatten)]
    pub sarif: SarifArgs,
    #[command(flatten)]
    pub reports: ReportArgs,
}

#[derive(Debug, Args)]
pub struct FuzzArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub auth: AuthArgs,
    /// Fuzz only this tool; repeatable [default: every tool].
    #[arg(long, value_name = "TOOL")]
    pub tool: Vec<String>,
    /// The seed of the random mutations [default: a fixed seed].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Random mutations per tool, after the fixed cases [default: 16].
    #[arg(long, value_name = "N")]
    pub mutations: Option<usize>,
    /// How long each call may take before it counts as a hang (e.g. 5s)
    /// [default: 30s].
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub timeout: Option<Duration>,
    /// Also fuzz tools annotated destructiveHint: true.
    #[arg(long)]
    pub include_destructive: bool,
    /// Write each failing case as an #[mcp_test] to this Rust file (for
    /// tests/), to keep it as a regression test; needs --server.
    #[arg(long, value_name = "FILE")]
    pub write_tests: Option<PathBuf>,
    /// Write each failing case as a case of this MCP Cases file, to run
    /// with `mcptest run FILE --server CMD`.
    #[arg(long, value_name = "FILE")]
    pub write_suite: Option<PathBuf>,
    /// How many calls the shrinking of a failing input may make (the
    /// first failure of each tool and kind is shrunk to a minimal input
    /// that fails the same way); 0 turns shrinking off [default: 100].
    #[arg(long, value_name = "N")]
    pub shrink_calls: Option<usize>,
    #[command(flatten)]
    pub reports: ReportArgs,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The server's command line (over stdio).
    #[arg(long, value_name = "CMD")]
    pub server: String,
    /// The directory to write the files to (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// How long each tool call may take (e.g. 5s) [default: 30s].
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub timeout: Option<Duration>,
    /// Also call tools annotated destructiveHint: true.
    #[arg(long)]
    pub include_destructive: bool,
    /// Overwrite files that exist.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct CoverageArgs {
    /// Suite files, directories (every .yaml/.yml below) or globs.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub auth: AuthArgs,
    /// Fail under this share of listed items exercised, in percent (0-100).
    #[arg(long, value_name = "PERCENT", value_parser = percent)]
    pub min: Option<f64>,
    /// How long the server may take to start and answer (e.g. 10s).
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub timeout: Option<Duration>,
    #[command(flatten)]
    pub reports: ReportArgs,
}

/// A duration such as `500ms`, `30s` or `1m30s`; zero is refused, since
/// every wait it sets would end before anything could answer.
fn duration(text: &str) -> Result<Duration, String> {
    let value = humantime::parse_duration(text).map_err(|e| {
        format!("{text:?} is not a duration ({e}); write it like \"500ms\", \"30s\", \"2m\" or \"1m30s\"")
    })?;
    if value.is_zero() {
        return Err(format!("{text:?} is zero; nothing could answer in time"));
    }
    Ok(value)
}

fn wire_schema(text: &str) -> Result<mcptest::WireSchema, String> {
    mcptest::WireSchema::parse(text)
        .ok_or_else(|| format!("{text:?} is not a mode; write fail (the default), warn or off"))
}

fn percent(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim_end_matches('%')
        .parse()
        .map_err(|_| format!("{text:?} is not a number"))?;
    if (0.0..=100.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} is not between 0 and 100"))
    }
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The directory to write the starter suite to (created if missing).
    #[arg(value_name = "DIR", default_value = "tests/evals")]
    pub dir: PathBuf,
    /// The server's command line: the file then calls its first tool.
    #[arg(long, value_name = "CMD")]
    pub server: Option<String>,
}

#[derive(Debug, Args)]
pub struct InterceptArgs {
    /// The real server's command line (over stdio).
    #[arg(long, value_name = "CMD")]
    pub server: String,
    /// Trajectory files (mcp-assert format) checked against the calls.
    #[arg(long, value_name = "PATH", required = true)]
    pub trajectory: Vec<String>,
    /// Where to write the recorded calls (JSON lines).
    #[arg(long, value_name = "FILE", default_value = "mcptest-intercept.jsonl")]
    pub log: PathBuf,
    /// How long requests in flight may take once the agent has left.
    #[arg(long, value_name = "DURATION", value_parser = duration, default_value = "10s")]
    pub timeout: Duration,
    #[command(flatten)]
    pub reports: ReportArgs,
}

#[derive(Debug, Args)]
pub struct SnapshotArgs {
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Store this run's answers instead of comparing them.
    #[arg(long)]
    pub update: bool,
    #[command(flatten)]
    pub reports: ReportArgs,
}

#[derive(Debug, Args)]
pub struct WatchArgs {
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Stop after this many runs (the first run counts).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_runs: Option<u32>,
}

#[derive(Debug, Args)]
pub struct ExecArgs {
    /// Serve one connection to the server under test (the only mode).
    #[arg(long, required = true)]
    pub connection_server: bool,
    /// The server's command line (over stdio), split like a shell (no
    /// shell is run). SDKs give the argv after `--` instead.
    #[arg(long, value_name = "CMD", conflicts_with_all = ["server_url", "server_argv"])]
    pub server_command: Option<String>,
    /// The server's Streamable HTTP URL.
    #[arg(long, value_name = "URL", conflicts_with_all = ["server_argv", "server_env", "server_cwd"])]
    pub server_url: Option<String>,
    /// The event-stream URL of a server of the legacy HTTP+SSE transport
    /// (2024-11-05).
    #[arg(long, value_name = "URL", conflicts_with_all = ["server_url", "server_command", "server_argv", "server_env", "server_cwd"])]
    pub server_sse: Option<String>,
    /// How to authorize with a server reached at a URL (--server-url or
    /// --server-sse).
    #[command(flatten)]
    pub auth: crate::connect::AuthArgs,
    /// An environment variable for the server (repeatable).
    #[arg(long, value_name = "KEY=VALUE", value_parser = key_value)]
    pub server_env: Vec<(String, String)>,
    /// The server's working directory.
    #[arg(long, value_name = "DIR")]
    pub server_cwd: Option<std::path::PathBuf>,
    /// How long one upstream call may take.
    #[arg(long, value_name = "DURATION", value_parser = duration, default_value = "30s")]
    pub call_timeout: Duration,
    /// The longest request line accepted [default: 4 MiB].
    #[arg(long, value_name = "BYTES")]
    pub max_line_bytes: Option<usize>,
    /// Check every frame received and sent against the coprocess schema.
    #[arg(long)]
    pub check_frames: bool,
    /// The server's program and arguments, exactly as given (no shell).
    #[arg(last = true, value_name = "PROGRAM ARG")]
    pub server_argv: Vec<String>,
}

/// `KEY=VALUE`, with a key.
fn key_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_owned(), value.to_owned())),
        _ => Err(format!("{text:?} is not KEY=VALUE")),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        super::Cli::command().debug_assert();
    }

    #[test]
    fn durations_are_positive_and_a_bad_one_shows_the_form() {
        use std::time::Duration;
        assert_eq!(super::duration("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(super::duration("500ms"), Ok(Duration::from_millis(500)));
        assert!(super::duration("0").unwrap_err().contains("is zero"));
        assert!(super::duration("0s").unwrap_err().contains("is zero"));
        let err = super::duration("soon").unwrap_err();
        assert!(err.contains(r#"write it like "500ms""#), "{err}");
    }
}

#[derive(Debug, Args)]
pub struct LintSecurityArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub auth: AuthArgs,
    #[command(flatten)]
    pub sarif: SarifArgs,
    #[command(flatten)]
    pub reports: ReportArgs,
}

#[derive(Debug, Args)]
pub struct LintArgs {
    /// The server: a command line (over stdio) or, with --transport http or
    /// an http(s):// address, a Streamable HTTP URL (with --transport sse,
    /// the URL of a legacy HTTP+SSE server).
    #[arg(long, value_name = "CMD|URL")]
    pub server: Option<String>,
    /// The server's Streamable HTTP URL (the same as --server URL
    /// --transport http).
    #[arg(long, value_name = "URL", conflicts_with = "server")]
    pub url: Option<String>,
    /// How to reach --server (or --url): stdio, http (Streamable HTTP) or
    /// sse (the legacy HTTP+SSE transport) [default: stdio, or http for an
    /// http(s):// address].
    #[arg(long, value_name = "stdio|http|sse")]
    pub transport: Option<String>,
    #[command(flatten)]
    pub auth: AuthArgs,
    /// HTTP headers for every request, as Key=Value pairs separated by
    /// commas.
    #[arg(long, value_name = "K=V,...")]
    pub headers: Option<String>,
    /// How long each request (a listing, a call) may take (e.g. 10s)
    /// [default: 15s].
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub timeout: Option<Duration>,
    /// Call each tool once (those annotated as changing state excepted)
    /// and flag responses over --max-response-kb (E301).
    #[arg(long)]
    pub call_tools: bool,
    /// E301's limit in KB.
    #[arg(long, value_name = "KB", default_value_t = 100)]
    pub max_response_kb: usize,
    /// Call each tool three times with the same input and flag different
    /// answers (W107).
    #[arg(long)]
    pub detect_nondeterminism: bool,
    /// Treat warnings as errors.
    #[arg(long)]
    pub strict: bool,
    /// Print a suggested fix for each finding a definition change can clear
    /// (JSON Patch operations); exits 0 once the server is linted.
    #[arg(long)]
    pub fix: bool,
    /// Leave out these rules: ids (E107), names (tool-cycle) or codes,
    /// separated by commas; repeatable.
    #[arg(long, value_name = "CODES")]
    pub skip_rules: Vec<String>,
    /// Fail when there are more findings than this, whatever their
    /// severity (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threshold: usize,
    /// Suite files are `mcptest validate`'s; given here, they are refused
    /// with that hint.
    #[arg(hide = true, value_name = "PATH")]
    pub paths: Vec<String>,
    #[command(flatten)]
    pub sarif: SarifArgs,
    #[command(flatten)]
    pub reports: ReportArgs,
}

#[derive(Debug, Args)]
pub struct DriftArgs {
    /// The old surface: a snapshot or listing file, a Streamable HTTP URL,
    /// `sse:URL` (a server of the legacy HTTP+SSE transport), or a server
    /// command line.
    #[arg(value_name = "OLD")]
    pub old: String,
    /// The new surface, in any of the same forms.
    #[arg(value_name = "NEW")]
    pub new: String,
    /// How to authorize with a side reached at a URL.
    #[command(flatten)]
    pub auth: crate::connect::AuthArgs,
    /// The least impact that fails the run: `breaking` lets degrading
    /// changes pass (they are shown) [default: degrading].
    #[arg(long, value_name = "breaking|degrading", value_parser = impact)]
    pub fail_on: Option<mcptest::scan::drift::Impact>,
    /// How long a server may take to start and list (e.g. 10s).
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub timeout: Option<Duration>,
    #[command(flatten)]
    pub sarif: SarifArgs,
    #[command(flatten)]
    pub reports: ReportArgs,
}

/// SARIF output, for GitHub code scanning.
#[derive(Debug, Args, Default)]
pub struct SarifArgs {
    /// Write the findings as SARIF 2.1.0 to FILE (for GitHub code scanning:
    /// github/codeql-action/upload-sarif).
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// The repository file SARIF results point into: the server's stored
    /// tool-surface snapshot (each result at the line of the tool or
    /// parameter it is about), or any other file (its first line). Code
    /// scanning refuses results without a file, so --sarif against a live
    /// server needs it. Give it relative to the repository's root.
    #[arg(long, value_name = "FILE", requires = "sarif")]
    pub sarif_anchor: Option<PathBuf>,
}

fn impact(text: &str) -> Result<mcptest::scan::drift::Impact, String> {
    use mcptest::scan::drift::Impact;
    match Impact::parse(text) {
        Some(impact @ (Impact::Breaking | Impact::Degrading)) => Ok(impact),
        _ => Err(format!(
            "{text:?} is not an impact; write breaking or degrading"
        )),
    }
}
