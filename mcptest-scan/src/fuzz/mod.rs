//! Schema-aware fuzzing: almost-valid inputs that a server must survive.
//!
//! [`Fuzz`] starts from the input the audit builds for each tool
//! ([`valid_input`]) and breaks it one way at a time ([`cases`]): the
//! structure (empty arguments, no arguments, each required field left out),
//! then each property's value by type (strings: empty, whitespace, 10 KB,
//! NUL, right-to-left marks, newlines, path traversal, shell and SQL
//! metacharacters; numbers: 0, -1, the i64 limits, float precision, -0;
//! booleans as 0, 1 and "true"; arrays: empty, 1000 items, mixed; objects:
//! deep nesting, 100 keys), then [`mutations`](Fuzz::mutations) seeded
//! random mutations ([`mutated_cases`]). Everything is derived from the
//! schema and the [`seed`](Fuzz::seed), so the same seed reproduces a run.
//!
//! A case passes when the server answers at all: a result, `isError`, or a
//! JSON-RPC error (rejecting bad input is the right answer). It fails when
//! the server crashes, hangs, or answers something that is not a valid MCP
//! result; the failure names the tool and the input and gives the exact
//! `call_tool` line to paste into a test. After a crash or a hang the
//! server is closed (killed and reaped) and started afresh, so each input
//! is counted once and the next case meets a live server.
//!
//! ```no_run
//! use mcptest::{Server, scan::fuzz::Fuzz};
//!
//! #[tokio::test]
//! async fn every_tool_survives_bad_input() {
//!     Fuzz::new(Server::command("my-server --stdio")).run().await.assert_passed();
//! }
//! ```
//!
//! # A fuzz test in CI
//!
//! [`Fuzz::assert_passed`] is the one line to keep in a test suite: the
//! fixed cases, `N` seeded mutations per tool, and on failure every failing
//! case with its `call_tool` line and the seed that reproduces the run. The
//! seed is fixed ([`DEFAULT_SEED`]) unless set, so the test is the same on
//! every CI run; raise `N` (or vary the seed) in a nightly job to search
//! further. A fuzz run needs a [`Server`] rather than an `McpClient`,
//! because it starts the server again after each crash; for a binary of the
//! same package that is `Server::program(env!("CARGO_BIN_EXE_<name>"))`:
//!
//! ```no_run
//! use mcptest::{Server, scan::fuzz::Fuzz};
//!
//! #[tokio::test]
//! async fn survives_fuzzing() {
//!     let server = Server::program(env!("CARGO_BIN_EXE_my-server")).arg("--stdio");
//!     Fuzz::new(server).mutations(64).assert_passed().await;
//! }
//! ```

mod properties;
mod shrink;
mod shrinking;
mod written;

use std::{collections::BTreeSet, time::Instant};

pub use properties::{INPUT, MINIMAL, REPRO, SEED};
pub use shrink::{DEFAULT_SHRINK_CALLS, DEFAULT_SHRINK_TIME, Shrinker};
pub use written::{Launch, regression_suite, regression_tests};

use rmcp::model::Tool;
use serde_json::{Map, Value, json};

use crate::audit::CLASSIFICATION;

use crate::audit::Classification;

use crate::audit::classify;

use crate::failure::failure_of_error;
use crate::target::{Target, listing_failed, target_methods};

use crate::audit::valid_input;

use mcptest_core::McpClient;

use mcptest_core::ToolOutcome;

use mcptest_core::expect::Evidence;

use mcptest_core::expect::Failure;

use mcptest_core::expect::Miss;

use mcptest_core::report::Outcome;

use mcptest_core::report::Report;

use mcptest_core::report::TestResult;

use mcptest_core::Server;

/// One fuzz input for a tool: what it breaks, and the arguments.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FuzzCase {
    /// What this case breaks: `empty object`, `omit city`, `city: 10 KB string`.
    pub label: String,
    /// The arguments to send (`null` sends none).
    pub arguments: Value,
}

/// Every fuzz case for a tool with input schema `schema`, structural cases
/// first, in a fixed order.
///
/// ```
/// use mcptest::scan::fuzz::cases;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
/// let cases = cases(&schema);
/// assert_eq!(cases[0].label, "empty object");
/// assert!(cases.iter().any(|c| c.label == "omit city" && c.arguments == json!({})));
/// assert!(cases.iter().any(|c| c.arguments == json!({"city": "../../../../etc/passwd"})));
/// ```
pub fn cases(schema: &Value) -> Vec<FuzzCase> {
    let valid = valid_input(schema);
    let mut out = vec![
        FuzzCase {
            label: "empty object".into(),
            arguments: json!({}),
        },
        FuzzCase {
            label: "no arguments".into(),
            arguments: Value::Null,
        },
    ];
    let Value::Object(valid) = valid else {
        return out;
    };
    let required = crate::audit::input::required(schema.get("required"));
    for name in &required {
        let mut args = valid.clone();
        if args.remove(*name).is_some() {
            out.push(FuzzCase {
                label: format!("omit {name}"),
                arguments: Value::Object(args),
            });
        }
    }
    for (name, value) in &valid {
        for (what, bad) in bad_values(value) {
            let mut args = valid.clone();
            args.insert(name.clone(), bad);
            out.push(FuzzCase {
                label: format!("{name}: {what}"),
                arguments: Value::Object(args),
            });
        }
    }
    out
}

/// `count` random mutations of the valid input for `schema`, reproducible
/// from `seed`: a property set to an adversarial value of any type, a
/// required property dropped, an unknown property added, or two of these
/// at once.
///
/// ```
/// use mcptest::scan::fuzz::mutated_cases;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
/// let first = mutated_cases(&schema, 7, 10);
/// assert_eq!(first.len(), 10);
/// assert_eq!(first, mutated_cases(&schema, 7, 10), "the same seed, the same cases");
/// assert!(first[0].label.starts_with("mutation 1 of seed 7"));
/// ```
pub fn mutated_cases(schema: &Value, seed: u64, count: usize) -> Vec<FuzzCase> {
    let Value::Object(valid) = valid_input(schema) else {
        return Vec::new();
    };
    let declared: Vec<String> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    // Every adversarial value of every type: a mutation may send a value of
    // the wrong type on purpose.
    let pool: Vec<(&str, Value)> = [json!("s"), json!(1), json!(true), json!([1]), json!({})]
        .iter()
        .flat_map(bad_values)
        .chain([("null", Value::Null)])
        .collect();
    let mut rng = fastrand::Rng::with_seed(seed);
    (1..=count)
        .map(|n| {
            let mut args = valid.clone();
            let mut what = Vec::new();
            for _ in 0..rng.usize(1..=2) {
                match rng.u8(0..3) {
                    0 if !declared.is_empty() => {
                        let key = &declared[rng.usize(..declared.len())];
                        let (label, value) = &pool[rng.usize(..pool.len())];
                        args.insert(key.clone(), value.clone());
                        what.push(format!("{key}: {label}"));
                    }
                    1 if !args.is_empty() => {
                        let keys: Vec<String> = args.keys().cloned().collect();
                        let key = &keys[rng.usize(..keys.len())];
                        args.remove(key);
                        what.push(format!("omit {key}"));
                    }
                    _ => {
                        let (label, value) = &pool[rng.usize(..pool.len())];
                        args.insert("unexpected".into(), value.clone());
                        what.push(format!("unexpected: {label}"));
                    }
                }
            }
            FuzzCase {
                label: format!("mutation {n} of seed {seed} ({})", what.join(", ")),
                arguments: Value::Object(args),
            }
        })
        .collect()
}

/// Adversarial values for a property whose valid value is `value`, by its type.
fn bad_values(value: &Value) -> Vec<(&'static str, Value)> {
    match value {
        Value::String(_) => vec![
            ("empty string", json!("")),
            ("whitespace", json!(" \t ")),
            ("10 KB string", json!("a".repeat(10 * 1024))),
            ("NUL", json!("a\u{0}b")),
            ("right-to-left marks", json!("\u{202e}abc\u{200f}")),
            ("unicode", json!("日本語 🎉 e\u{301}")),
            ("newlines", json!("line one\nline two\r\n")),
            ("path traversal", json!("../../../../etc/passwd")),
            (
                "shell metacharacters",
                json!("$(id); `id` | cat && rm -rf ~ #"),
            ),
            (
                "SQL metacharacters",
                json!("' OR '1'='1'; DROP TABLE users; --"),
            ),
            ("a number", json!(1)),
        ],
        Value::Number(_) => vec![
            ("zero", json!(0)),
            ("negative", json!(-1)),
            ("i64 max", json!(i64::MAX)),
            ("i64 min", json!(i64::MIN)),
            ("float precision", json!(0.1 + 0.2)),
            ("negative zero", json!(-0.0)),
            ("a string", json!("1")),
        ],
        Value::Bool(_) => vec![
            ("0", json!(0)),
            ("1", json!(1)),
            ("\"true\"", json!("true")),
        ],
        Value::Array(items) => {
            let item = items.first().cloned().unwrap_or(json!(1));
            vec![
                ("empty array", json!([])),
                ("1000 items", Value::Array(vec![item; 1000])),
                ("mixed items", json!([1, "a", null, {}, []])),
            ]
        }
        Value::Object(_) => {
            let mut deep = json!({});
            for _ in 0..64 {
                deep = json!({ "a": deep });
            }
            let wide: Map<String, Value> = (0..100).map(|i| (format!("k{i}"), json!(i))).collect();
            vec![("deep nesting", deep), ("100 keys", Value::Object(wide))]
        }
        Value::Null => vec![("a string", json!("null"))],
    }
}

/// The line to paste into a test to send `arguments` to `tool` again.
///
/// ```
/// use mcptest::scan::fuzz::repro_line;
/// use serde_json::json;
///
/// assert_eq!(
///     repro_line("add", &json!({"a": 1})),
///     r#"mcp.call_tool("add", json!({"a":1})).await"#
/// );
/// ```
pub fn repro_line(tool: &str, arguments: &Value) -> String {
    repro_line_inner(tool, arguments)
}

fn repro_line_inner(tool: &str, arguments: &Value) -> String {
    let name = Value::String(tool.to_owned());
    let text = arguments.to_string();
    if text.len() <= 200 && depth(arguments) <= 8 {
        return format!("mcp.call_tool({name}, json!({text})).await");
    }
    // Long or deep: a raw string, with enough `#`s that it cannot end early.
    let mut hashes = String::from("#");
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!(
        "mcp.call_tool({name}, serde_json::from_str(r{hashes}\"{text}\"{hashes}).unwrap()).await"
    )
}

fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Sends every [`cases`] input to every tool and reports the ones the server
/// does not survive. See the [module](self) docs.
///
/// ```no_run
/// # async fn demo() {
/// use std::time::Duration;
/// use mcptest::{Server, scan::fuzz::Fuzz};
///
/// let report = Fuzz::new(Server::command("my-server --stdio"))
///     .tools(["search"])
///     .timeout(Duration::from_secs(5))
///     .run()
///     .await;
/// report.assert_passed();
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Fuzz {
    target: Target,
    only: BTreeSet<String>,
    seed: u64,
    mutations: usize,
    shrink: shrink::ShrinkBudget,
}

/// The seed of a run that sets none; fixed, so that a fuzz test in CI is
/// the same test on every run.
pub const DEFAULT_SEED: u64 = 0x6d63_7074;

/// Random mutations per tool of a run that sets no number.
pub const DEFAULT_MUTATIONS: usize = 16;

impl Fuzz {
    /// A fuzz run against `server`.
    ///
    /// ```
    /// use mcptest::{Server, scan::fuzz::Fuzz};
    /// let fuzz = Fuzz::new(Server::command("my-server --stdio"));
    /// ```
    pub fn new(server: Server) -> Self {
        Fuzz {
            target: Target::new(server),
            only: BTreeSet::new(),
            seed: DEFAULT_SEED,
            mutations: DEFAULT_MUTATIONS,
            shrink: shrink::ShrinkBudget::default(),
        }
    }

    /// The seed of the random mutations [default: [`DEFAULT_SEED`]]; a
    /// failing case's name says the seed that reproduces it.
    ///
    /// ```
    /// # use mcptest::{Server, scan::fuzz::Fuzz};
    /// let fuzz = Fuzz::new(Server::command("my-server")).seed(42);
    /// ```
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// How many random mutations each tool gets after the fixed cases
    /// [default: [`DEFAULT_MUTATIONS`]]; 0 for the fixed cases only.
    ///
    /// ```
    /// # use mcptest::{Server, scan::fuzz::Fuzz};
    /// let fuzz = Fuzz::new(Server::command("my-server")).mutations(100);
    /// ```
    pub fn mutations(mut self, count: usize) -> Self {
        self.mutations = count;
        self
    }

    target_methods! {
        timeout:
        /// How long each call may take before it counts as a hang [default: the
        /// server's timeout].
        ///
        /// ```
        /// # use mcptest::{Server, scan::fuzz::Fuzz};
        /// # use std::time::Duration;
        /// let fuzz = Fuzz::new(Server::command("my-server")).timeout(Duration::from_secs(2));
        /// ```
        include_destructive:
        /// Also fuzz tools annotated `destructiveHint: true` (skipped by default).
        ///
        /// ```
        /// # use mcptest::{Server, scan::fuzz::Fuzz};
        /// let fuzz = Fuzz::new(Server::command("my-server")).include_destructive(true);
        /// ```
    }

    /// Fuzz only these tools (a name the server does not list fails the run).
    ///
    /// ```
    /// # use mcptest::{Server, scan::fuzz::Fuzz};
    /// let fuzz = Fuzz::new(Server::command("my-server")).tools(["search"]);
    /// ```
    pub fn tools<I, S>(mut self, tools: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.only.extend(tools.into_iter().map(Into::into));
        self
    }

    /// Runs every case and panics with every failing case in full (each
    /// with its `call_tool` line) and the seed that reproduces the run,
    /// unless the server survived them all; returns the report otherwise.
    /// The one line that keeps a fuzz test in CI (see the [module](self)
    /// docs).
    ///
    /// ```no_run
    /// # async fn demo() {
    /// use mcptest::{Server, scan::fuzz::Fuzz};
    /// Fuzz::new(Server::command("my-server --stdio")).mutations(64).assert_passed().await;
    /// # }
    /// ```
    #[track_caller]
    pub fn assert_passed(&self) -> impl Future<Output = Report> + '_ {
        let caller = std::panic::Location::caller();
        async move {
            let report = self.run().await;
            if let Err(message) = report.check_passed() {
                let score = crate::audit::Score::of(&report);
                panic!(
                    "{message}\n{} of {} cases survived; seed {}, {} random mutations per \
                     tool: `.seed({})` (or `mcptest fuzz --seed {}`) reproduces the run\n\
                     (fuzz asserted at {caller})",
                    score.healthy,
                    score.healthy + score.unhealthy,
                    self.seed,
                    self.mutations,
                    self.seed,
                    self.seed,
                );
            }
            report
        }
    }

    /// Runs every case: one result per tool and case, named `tool: case`.
    pub async fn run(&self) -> Report {
        let started = Instant::now();
        let mut report = Report::new(format!("fuzz of {}", self.target.server));
        self.run_into(&mut report).await;
        report.with_duration(started.elapsed())
    }

    async fn run_into(&self, report: &mut Report) {
        let (mcp, tools) = match self.target.connect_and_list().await {
            Ok(listed) => listed,
            Err(error) => {
                report.push(listing_failed(&error, "fuzz"));
                return;
            }
        };
        let mut mcp = Some(mcp);
        let mut shrunk = BTreeSet::new();
        for name in &self.only {
            if !tools.iter().any(|t| t.name == name.as_str()) {
                report.push(
                    TestResult::new(
                        name.clone(),
                        Outcome::error(
                            format!("tool {name:?}, named to be fuzzed, exists"),
                            "the server lists no such tool",
                        ),
                    )
                    .group("fuzz"),
                );
            }
        }
        let selected: Vec<&Tool> = tools
            .iter()
            .filter(|t| self.only.is_empty() || self.only.contains(t.name.as_ref()))
            .collect();
        if selected.is_empty() {
            report.push(
                TestResult::new(
                    "tools/list",
                    Outcome::error("at least one tool to fuzz", "no tool was selected"),
                )
                .group("fuzz"),
            );
        }
        for tool in selected {
            if self.target.spares(tool) {
                report.push(
                    TestResult::new(
                        tool.name.as_ref(),
                        Outcome::skip(
                            "destructive (annotations.destructiveHint: true); include it \
                             with include_destructive(true)",
                        ),
                    )
                    .group(tool.name.as_ref())
                    .property(CLASSIFICATION, Classification::Skipped.as_str()),
                );
                continue;
            }
            let schema = Value::Object((*tool.input_schema).clone());
            let all =
                cases(&schema)
                    .into_iter()
                    .chain(mutated_cases(&schema, self.seed, self.mutations));
            for case in all {
                if mcp.is_none() {
                    match self.target.server.connect().await {
                        Ok(client) => mcp = Some(client),
                        Err(error) => {
                            report.push(
                                TestResult::new(
                                    format!("{}: {}", tool.name, case.label),
                                    Outcome::fail(failure_of_error(
                                        None,
                                        "the server starts again after the last crash",
                                        &error,
                                    )),
                                )
                                .group(tool.name.as_ref()),
                            );
                            return;
                        }
                    }
                }
                let client = mcp.as_ref().expect("connected above");
                let (result, broken) = self.one(client, tool, &case).await;
                if broken && let Some(old) = mcp.take() {
                    old.close().await;
                }
                let result = self
                    .shrunk(&mut mcp, tool, &case, result, &mut shrunk)
                    .await;
                report.push(result);
            }
        }
        if let Some(client) = mcp {
            client.close().await;
        }
    }

    async fn one(&self, mcp: &McpClient, tool: &Tool, case: &FuzzCase) -> (TestResult, bool) {
        let pid = mcp.pid();
        let call = self.target.call(mcp, tool, case.arguments.clone()).await;
        let (classification, outcome) = match call.outcome() {
            // Rejecting bad input with a JSON-RPC error is a right answer.
            ToolOutcome::RpcError(_) => (Classification::Healthy, Outcome::Pass),
            _ => classify(&call, &[]),
        };
        let repro =
            matches!(outcome, Outcome::Fail(_)).then(|| repro_line(&tool.name, &case.arguments));
        let outcome = match outcome {
            Outcome::Fail(failure) => {
                let repro = repro.clone().unwrap_or_default();
                let mut misses = failure.misses().to_vec();
                misses.push(Miss::new(
                    "nothing more (how to reproduce)",
                    Evidence::new().note(format!("paste into a test: {repro}")),
                ));
                Outcome::fail(Failure::new(
                    failure.call().map(str::to_owned),
                    misses,
                    failure.server_output().clone(),
                ))
            }
            other => other,
        };
        let broken = matches!(
            classification,
            Classification::Crash | Classification::Timeout
        );
        let mut result = TestResult::new(format!("{}: {}", tool.name, case.label), outcome)
            .group(tool.name.as_ref())
            .duration(call.elapsed())
            .property(CLASSIFICATION, classification.as_str());
        if let Some(pid) = pid {
            result = result.property("pid", pid.to_string());
        }
        if let Some(repro) = repro {
            result = result
                .property(REPRO, repro)
                .property(INPUT, case.arguments.to_string());
        }
        (result, broken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structural_cases_come_first_then_one_per_property_and_type() {
        let schema = json!({
            "type": "object",
            "properties": {
                "s": {"type": "string"}, "n": {"type": "integer"}, "b": {"type": "boolean"},
                "a": {"type": "array", "items": {"type": "string"}}, "o": {"type": "object"}
            },
            "required": ["s", "n", "b", "a", "o"]
        });
        let cases = cases(&schema);
        let labels: Vec<&str> = cases.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(&labels[..3], ["empty object", "no arguments", "omit s"]);
        for label in [
            "s: 10 KB string",
            "s: NUL",
            "n: i64 min",
            "n: negative zero",
            "b: \"true\"",
            "a: 1000 items",
            "o: deep nesting",
            "o: 100 keys",
        ] {
            assert!(labels.contains(&label), "{label} in {labels:?}");
        }
        let thousand = cases.iter().find(|c| c.label == "a: 1000 items").unwrap();
        assert_eq!(thousand.arguments["a"].as_array().unwrap().len(), 1000);
        assert_eq!(
            thousand.arguments["s"],
            json!("example"),
            "the rest stays valid"
        );
    }

    #[test]
    fn long_inputs_reproduce_through_a_raw_string() {
        let args = json!({"s": "a\"#".repeat(100)});
        let line = repro_line("t", &args);
        assert!(
            line.starts_with("mcp.call_tool(\"t\", serde_json::from_str(r##\""),
            "{line}"
        );
        let start = line.find("r##\"").unwrap() + 4;
        let end = line.rfind("\"##").unwrap();
        let parsed: Value = serde_json::from_str(&line[start..end]).unwrap();
        assert_eq!(parsed, args);
    }
}
