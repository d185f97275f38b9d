//! Which tools, prompts and resources suite files exercise, measured against
//! what a server lists.
//!
//! A file *exercises* a tool when it calls it (the assertion's block, a
//! `setup` step, or a `tools/call` message of an MCP Cases file), a prompt
//! when it gets it, and a resource when it reads or subscribes to its URI
//! (a resource template counts when a read URI fits it). Listing alone
//! exercises nothing.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use mcptest::{Server, suite::{Suite, coverage::Coverage}};
//!
//! let suite = Suite::load("tests/evals")?;
//! let mcp = Server::command("my-mcp-server --stdio").connect().await?;
//! let coverage = Coverage::measure(&mcp, &suite.exercised()).await?;
//! mcp.close().await;
//! println!("{}", coverage.summary());
//! assert!(coverage.percent().is_some_and(|p| p >= 80.0), "{}", coverage.report);
//! # Ok(()) }
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use mcptest_suite_format::{
    assertion::{Block, CompletionBlock, PromptAction, ResourceAction},
    cases::Step,
};

use crate::{
    suite::Suite,
    suite_test::{SuiteTest, TestKind},
};
use mcptest_core::Error;
use mcptest_core::McpClient;
use mcptest_core::report::Outcome;
use mcptest_core::report::Report;
use mcptest_core::report::TestResult;

/// What suite files exercise: each name (or URI) with the files that do.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exercised {
    /// Tool names, each with the files that call it.
    pub tools: BTreeMap<String, BTreeSet<String>>,
    /// Prompt names, each with the files that get it.
    pub prompts: BTreeMap<String, BTreeSet<String>>,
    /// Resource URIs, each with the files that read or subscribe to it.
    pub resources: BTreeMap<String, BTreeSet<String>>,
}

impl Exercised {
    /// Adds everything `other` exercises.
    pub fn merge(&mut self, other: Exercised) {
        for (mine, theirs) in [
            (&mut self.tools, other.tools),
            (&mut self.prompts, other.prompts),
            (&mut self.resources, other.resources),
        ] {
            for (name, files) in theirs {
                mine.entry(name).or_default().extend(files);
            }
        }
    }

    fn add(map: &mut BTreeMap<String, BTreeSet<String>>, name: &str, file: &str) {
        map.entry(name.to_owned())
            .or_default()
            .insert(file.to_owned());
    }
}

impl SuiteTest {
    /// The tools, prompts and resources this test exercises.
    pub fn exercised(&self) -> Exercised {
        let mut out = Exercised::default();
        let file = self.file.as_str();
        match &self.kind {
            TestKind::Assertion(a) => {
                for step in &a.setup {
                    Exercised::add(&mut out.tools, &step.tool, file);
                }
                match &a.block {
                    Block::Tool(b) => Exercised::add(&mut out.tools, &b.tool, file),
                    Block::Sampling(b) => Exercised::add(&mut out.tools, &b.tool, file),
                    Block::Notifications(b) => Exercised::add(&mut out.tools, &b.tool, file),
                    Block::Logging(b) => {
                        if let Some((tool, _)) = &b.tool {
                            Exercised::add(&mut out.tools, tool, file);
                        }
                    }
                    Block::Resources(b) => {
                        if let ResourceAction::Read(uri) = &b.action {
                            Exercised::add(&mut out.resources, uri, file);
                        }
                        for uri in b.subscribe.iter().chain(&b.unsubscribe) {
                            Exercised::add(&mut out.resources, uri, file);
                        }
                    }
                    Block::Prompts(b) => {
                        if let PromptAction::Get { name, .. } = &b.action {
                            Exercised::add(&mut out.prompts, name, file);
                        }
                    }
                    Block::Completion(CompletionBlock { prompt, name, .. }) => {
                        // Completing an argument exercises the prompt (or
                        // the resource template) it belongs to.
                        if *prompt {
                            Exercised::add(&mut out.prompts, name, file);
                        }
                    }
                    // A trajectory checks an agent's trace; it calls nothing.
                    Block::Trajectory(_) => {}
                }
            }
            TestKind::Case(c) => {
                for step in &c.steps {
                    if let Step::In { message, .. } = step {
                        match message {
                            Value::Array(batch) => {
                                batch.iter().for_each(|m| exercised_by(m, file, &mut out))
                            }
                            message => exercised_by(message, file, &mut out),
                        }
                    }
                }
            }
        }
        out
    }
}

/// What one JSON-RPC message of an MCP Cases file exercises.
fn exercised_by(message: &Value, file: &str, out: &mut Exercised) {
    let param = |key: &str| message.pointer(&format!("/params/{key}"))?.as_str();
    match message.get("method").and_then(Value::as_str) {
        Some("tools/call") => {
            if let Some(name) = param("name") {
                Exercised::add(&mut out.tools, name, file);
            }
        }
        Some("prompts/get") => {
            if let Some(name) = param("name") {
                Exercised::add(&mut out.prompts, name, file);
            }
        }
        Some("resources/read" | "resources/subscribe" | "resources/unsubscribe") => {
            if let Some(uri) = param("uri") {
                Exercised::add(&mut out.resources, uri, file);
            }
        }
        _ => {}
    }
}

impl Suite {
    /// The tools, prompts and resources any test of the suite exercises.
    pub fn exercised(&self) -> Exercised {
        let mut out = Exercised::default();
        for test in self.tests() {
            out.merge(test.exercised());
        }
        out
    }
}

/// What a server lists, each item marked exercised or not.
///
/// [`report`](Self::report) holds one result per listed item, grouped
/// `tools`, `prompts`, `resources` and `resource templates`: a pass names
/// the files that exercise it (property `exercised_by`); a skip says no file
/// does. Names the files exercise that the server does not list are in
/// [`not_listed`](Self::not_listed).
#[derive(Debug, Clone)]
pub struct Coverage {
    /// One result per listed item.
    pub report: Report,
    /// `(kind, name)` of what files exercise and the server does not list
    /// (kind: `tool`, `prompt` or `resource`).
    pub not_listed: Vec<(&'static str, String)>,
}

impl Coverage {
    /// Lists the server's tools, prompts, resources and resource templates
    /// (each only when the server declares the capability) and marks each
    /// one exercised or not.
    ///
    /// # Errors
    ///
    /// A listing that fails.
    pub async fn measure(mcp: &McpClient, exercised: &Exercised) -> Result<Coverage, Error> {
        let capabilities = &mcp.server_info().capabilities;
        let mut report = Report::new("coverage");
        let mut listed_tools = BTreeSet::new();
        let mut listed_prompts = BTreeSet::new();
        let mut listed_resources = BTreeSet::new();
        let mut templates = Vec::new();
        if capabilities.tools.is_some() {
            for tool in mcp.list_tools().await?.into_inner() {
                listed_tools.insert(tool.name.to_string());
            }
        }
        if capabilities.prompts.is_some() {
            for prompt in mcp.list_prompts().await?.into_inner() {
                listed_prompts.insert(prompt.name.clone());
            }
        }
        if capabilities.resources.is_some() {
            for resource in mcp.list_resources().await?.into_inner() {
                listed_resources.insert(resource.uri.clone());
            }
            for template in mcp.list_resource_templates().await?.into_inner() {
                templates.push(template.uri_template.clone());
            }
        }
        for name in &listed_tools {
            report.push(item("tools", name, exercised.tools.get(name)));
        }
        for name in &listed_prompts {
            report.push(item("prompts", name, exercised.prompts.get(name)));
        }
        for uri in &listed_resources {
            report.push(item("resources", uri, exercised.resources.get(uri)));
        }
        for template in &templates {
            let files: BTreeSet<String> = exercised
                .resources
                .iter()
                .filter(|(uri, _)| !listed_resources.contains(*uri) && fits(template, uri))
                .flat_map(|(_, files)| files.iter().cloned())
                .collect();
            report.push(item(
                "resource templates",
                template,
                Some(&files).filter(|f| !f.is_empty()),
            ));
        }
        let mut not_listed = Vec::new();
        for name in exercised.tools.keys() {
            if !listed_tools.contains(name) {
                not_listed.push(("tool", name.clone()));
            }
        }
        for name in exercised.prompts.keys() {
            if !listed_prompts.contains(name) {
                not_listed.push(("prompt", name.clone()));
            }
        }
        for uri in exercised.resources.keys() {
            if !listed_resources.contains(uri) && !templates.iter().any(|t| fits(t, uri)) {
                not_listed.push(("resource", uri.clone()));
            }
        }
        Ok(Coverage { report, not_listed })
    }

    /// How many listed items some file exercises.
    pub fn covered(&self) -> usize {
        self.report.counts().passed
    }

    /// How many items the server lists.
    pub fn total(&self) -> usize {
        self.report.results.len()
    }

    /// The share of listed items exercised, in percent; `None` when the
    /// server lists nothing (there is nothing to cover, which is not 100%).
    pub fn percent(&self) -> Option<f64> {
        (self.total() > 0).then(|| 100.0 * self.covered() as f64 / self.total() as f64)
    }

    /// "7 of 9 listed items exercised (77.8%)".
    pub fn summary(&self) -> String {
        match self.percent() {
            Some(p) => format!(
                "{} of {} listed items exercised ({p:.1}%)",
                self.covered(),
                self.total()
            ),
            None => "the server lists no tool, prompt or resource".to_owned(),
        }
    }
}

fn item(group: &str, name: &str, files: Option<&BTreeSet<String>>) -> TestResult {
    let outcome = match files {
        Some(files) if !files.is_empty() => Outcome::Pass,
        _ => Outcome::skip("no suite file exercises it"),
    };
    let mut result = TestResult::new(name, outcome).group(group);
    if let Some(files) = files.filter(|f| !f.is_empty()) {
        result = result.property(
            "exercised_by",
            files.iter().cloned().collect::<Vec<_>>().join(", "),
        );
    }
    result
}

/// Whether `uri` fits an RFC 6570 template, taking each `{...}` expression
/// as one or more characters and the text between them literally.
fn fits(template: &str, uri: &str) -> bool {
    let mut literals = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        literals.push(&rest[..open]);
        match rest[open..].find('}') {
            Some(close) => rest = &rest[open + close + 1..],
            // Not a template: compare it literally.
            None => return template == uri,
        }
    }
    if literals.is_empty() {
        return template == uri;
    }
    let tail = rest;
    let Some(mut at) = uri.strip_prefix(literals[0]).map(|_| literals[0].len()) else {
        return false;
    };
    for literal in &literals[1..] {
        // Each expression takes at least one character.
        match uri.get(at + 1..).and_then(|s| s.find(literal)) {
            Some(i) => at = at + 1 + i + literal.len(),
            None => return false,
        }
    }
    uri.len() > at + tail.len() && uri.ends_with(tail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Suite;

    #[test]
    fn a_template_fits_uris_with_a_value_for_each_expression() {
        assert!(fits("file:///{path}", "file:///notes.txt"));
        assert!(fits("notes://{folder}/{name}.md", "notes://a/b.md"));
        assert!(!fits("notes://{folder}/{name}.md", "notes://a/b.txt"));
        assert!(!fits("notes://{folder}/{name}.md", "notes:///b.md"));
        assert!(!fits("file:///{path}", "file:///"));
        assert!(!fits("file:///{path}", "http://x"));
        assert!(fits("plain://uri", "plain://uri"));
        assert!(!fits("plain://uri", "plain://other"));
    }

    #[test]
    fn assertion_files_and_cases_files_name_what_they_exercise() {
        let assertion = Suite::parse(
            "a.yaml",
            "name: echo\nserver:\n  command: srv\nsetup:\n  - tool: login\n    args: {}\nassert:\n  tool: echo\n  args: {text: hi}\n  expect:\n    contains: [hi]\n",
        )
        .unwrap();
        let cases = Suite::parse(
            "b.yaml",
            "case: read\nin: {jsonrpc: '2.0', id: 1, method: resources/read, params: {uri: 'file:///x'}}\nout: {jsonrpc: '2.0', id: 1}\n---\ncase: prompt\nin: {jsonrpc: '2.0', id: 2, method: prompts/get, params: {name: greet}}\nout: {jsonrpc: '2.0', id: 2}\n",
        )
        .unwrap();
        let mut suite = assertion;
        suite.extend(cases);
        let exercised = suite.exercised();
        assert_eq!(
            exercised.tools.keys().collect::<Vec<_>>(),
            ["echo", "login"]
        );
        assert_eq!(exercised.prompts.keys().collect::<Vec<_>>(), ["greet"]);
        assert_eq!(
            exercised.resources.keys().collect::<Vec<_>>(),
            ["file:///x"]
        );
        assert_eq!(
            exercised.tools["echo"].iter().collect::<Vec<_>>(),
            ["a.yaml"]
        );
    }
}
