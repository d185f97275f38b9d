//! SARIF 2.1.0 logs of the scans' findings, for GitHub code scanning and
//! every other tool that reads SARIF: the lint's findings (every rule, or
//! the security rules alone), the audit's unhealthy tools and drift's
//! changes, each result under its rule, at the line of the stored surface
//! snapshot (or any repository file) that it is about.
//!
//! GitHub code scanning refuses a whole file when one result has no file
//! location, so every result points into the [`anchor`](SarifLog::anchor):
//! the surface snapshot `assert_tool_surface_snapshot!` writes (a result
//! about tool `add`'s parameter `a` points at that parameter's line), or
//! any other file of the repository (its first line). A log without an
//! anchor is valid SARIF with logical locations only.
//!
//! Any finding becomes a result through [`SarifFinding`]: a rule id, a
//! level, a message, and where it is — a JSON pointer into the listed
//! definitions ([`SarifLog::listed`]) or an [`Address`].
//!
//! ```
//! use mcptest::scan::{lint::{Definitions, check}, sarif::SarifLog, surface::SurfaceFile};
//! use serde_json::json;
//!
//! let defs = Definitions::from_json(json!({"tools": [
//!     {"name": "run", "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}}}
//! ]})).unwrap();
//! let log = SarifLog::lint_security(&check(&defs), &defs).anchor(SurfaceFile::read("tests/snapshots/surface.snap"));
//! let sarif = log.to_json();
//! assert_eq!(sarif["version"], "2.1.0");
//! let result = &sarif["runs"][0]["results"][0];
//! assert_eq!(result["ruleId"], "MCPT-L006");
//! assert_eq!(result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"], "tools/run/inputSchema/properties/command");
//! assert_eq!(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "tests/snapshots/surface.snap");
//! ```

use std::collections::BTreeMap;

use mcptest_core::{
    Definitions,
    report::{Report, Status, TestResult},
};
use serde_json::{Value, json};
use serde_sarif::sarif as s;

use crate::{
    audit::Classification,
    drift::{Change, DriftRule, Impact},
    lint::{Family, Finding, LintRule, RULES as LINT_RULES, Severity},
    surface::{Address, List, SurfaceFile},
};

/// A result's level, as SARIF names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Fails the check.
    Error,
    /// Shown, does not fail.
    Warning,
    /// For information.
    Note,
}

impl Level {
    /// `error`, `warning`, `note`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

/// A rule as code scanning lists it: shown beside each of its results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SarifRule {
    /// `MCPT-L001`: what results name.
    pub id: String,
    /// `hidden-instructions`.
    pub name: String,
    /// One line: what the rule finds.
    pub description: String,
    /// Why it matters and what to do.
    pub help: String,
    /// The level of its results unless a result says otherwise.
    pub level: Level,
    /// Tags code scanning filters by (`security`, `drift`, ...).
    pub tags: Vec<String>,
}

/// What a finding gives its SARIF result. The lint's, audit's and drift's
/// findings implement it; so can any other.
///
/// ```
/// use mcptest::scan::{sarif::{Level, SarifFinding, SarifLog, SarifRule}, surface::{Address, List}};
///
/// struct Vague { tool: String }
/// impl SarifFinding for Vague {
///     fn rule_id(&self) -> &str { "W101" }
///     fn level(&self) -> Level { Level::Warning }
///     fn message(&self) -> String { format!("tool {:?}: the description is vague", self.tool) }
///     fn address(&self) -> Option<Address> {
///         Some(Address::item(List::Tools, self.tool.clone()).field(["description"]))
///     }
/// }
/// let rule = SarifRule {
///     id: "W101".into(), name: "vague-description".into(), description: "A vague description".into(),
///     help: "Say what the tool does.".into(), level: Level::Warning, tags: vec![],
/// };
/// let mut log = SarifLog::new("mcptest lint", [rule]);
/// log.push(&Vague { tool: "do_it".into() });
/// assert_eq!(log.to_json()["runs"][0]["results"][0]["level"], "warning");
/// ```
pub trait SarifFinding {
    /// The id of its rule, one of the rules the log was given.
    fn rule_id(&self) -> &str;
    /// Error, warning or note.
    fn level(&self) -> Level;
    /// What was found, in one or two sentences.
    fn message(&self) -> String;
    /// Where it is: a JSON pointer into the listed definitions given to
    /// [`SarifLog::listed`] (`/tools/0/inputSchema/properties/path`).
    fn pointer(&self) -> Option<&str> {
        None
    }
    /// Where it is, by name, for a finding that knows it without the
    /// listing; it wins over [`pointer`](SarifFinding::pointer).
    fn address(&self) -> Option<Address> {
        None
    }
}

/// One SARIF log of one command's findings. See the [module](self) docs.
#[derive(Debug, Clone)]
pub struct SarifLog {
    command: String,
    rules: Vec<SarifRule>,
    listed: Value,
    anchor: Option<SurfaceFile>,
    /// (rule index, level, message, address)
    results: Vec<(usize, Level, String, Address)>,
}

impl SarifLog {
    /// An empty log of `command` (`mcptest lint-security`) with its rules.
    pub fn new(command: impl Into<String>, rules: impl IntoIterator<Item = SarifRule>) -> SarifLog {
        SarifLog {
            command: command.into(),
            rules: rules.into_iter().collect(),
            listed: Value::Null,
            anchor: None,
            results: Vec::new(),
        }
    }

    /// The listed definitions the findings' pointers index
    /// ([`Definitions::to_json`]): a pointer's item index becomes its name.
    pub fn listed(mut self, listed: Value) -> SarifLog {
        self.listed = listed;
        self
    }

    /// The repository file every result points into (see the
    /// [module](self) docs). Its path is written as given, with `/`
    /// separators: give it relative to the repository's root.
    pub fn anchor(mut self, file: SurfaceFile) -> SarifLog {
        self.anchor = Some(file);
        self
    }

    /// Adds a finding's result.
    pub fn push<F: SarifFinding + ?Sized>(&mut self, finding: &F) {
        let id = finding.rule_id();
        let index = match self.rules.iter().position(|r| r.id == id) {
            Some(index) => index,
            None => {
                self.rules.push(SarifRule {
                    id: id.to_owned(),
                    name: id.to_owned(),
                    description: id.to_owned(),
                    help: String::new(),
                    level: finding.level(),
                    tags: Vec::new(),
                });
                self.rules.len() - 1
            }
        };
        let address = finding
            .address()
            .or_else(|| Address::from_pointer(&self.listed, finding.pointer()?))
            .unwrap_or_else(Address::server);
        self.results
            .push((index, finding.level(), finding.message(), address));
    }

    /// How many results the log holds.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// True when the log holds no result.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// The log in serde-sarif's types.
    pub fn to_sarif(&self) -> s::Sarif {
        let rules = self.rules.iter().map(descriptor).collect::<Vec<_>>();
        let results = self
            .results
            .iter()
            .map(|(index, level, message, address)| self.result(*index, *level, message, address))
            .collect::<Vec<_>>();
        let driver = s::ToolComponent::builder()
            .name("mcptest")
            .full_name(self.command.clone())
            .semantic_version(env!("CARGO_PKG_VERSION"))
            .rules(rules)
            .build();
        let run = s::Run::builder()
            .tool(s::Tool::builder().driver(driver).build())
            .automation_details(
                s::RunAutomationDetails::builder()
                    .id(format!("{}/", self.command))
                    .build(),
            )
            .results(results)
            .build();
        s::Sarif::builder()
            .version(json!("2.1.0"))
            .schema(s::SCHEMA_URL)
            .runs(vec![run])
            .build()
    }

    /// The log as JSON.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self.to_sarif()).expect("a SARIF log serialises")
    }

    /// The log as the text of a `.sarif` file.
    pub fn to_pretty_string(&self) -> String {
        let mut text =
            serde_json::to_string_pretty(&self.to_sarif()).expect("a SARIF log serialises");
        text.push('\n');
        text
    }

    fn result(&self, index: usize, level: Level, message: &str, address: &Address) -> s::Result {
        let rule = &self.rules[index];
        let mut location = s::Location::builder()
            .logical_locations(vec![logical(address)])
            .build();
        if let Some(anchor) = &self.anchor {
            let (line, column) = anchor.line(address);
            location.physical_location = Some(
                s::PhysicalLocation::builder()
                    .artifact_location(
                        s::ArtifactLocation::builder()
                            .uri(anchor.path.replace('\\', "/"))
                            .build(),
                    )
                    .region(
                        s::Region::builder()
                            .start_line(line as i64)
                            .start_column(column as i64)
                            .build(),
                    )
                    .build(),
            );
        }
        // Code scanning tracks a result across runs by these; an address
        // survives the snapshot's lines moving.
        let fingerprints = BTreeMap::from([(
            "mcptestAddress/v1".to_owned(),
            format!("{}:{address}", rule.id),
        )]);
        s::Result::builder()
            .rule_id(rule.id.clone())
            .rule_index(index as i64)
            .level(match level {
                Level::Error => s::ResultLevel::Error,
                Level::Warning => s::ResultLevel::Warning,
                Level::Note => s::ResultLevel::Note,
            })
            .message(s::Message::builder().text(message.to_owned()).build())
            .locations(vec![location])
            .partial_fingerprints(fingerprints)
            .build()
    }
}

fn descriptor(rule: &SarifRule) -> s::ReportingDescriptor {
    let text = |t: &str| {
        s::MultiformatMessageString::builder()
            .text(t.to_owned())
            .build()
    };
    let mut properties = s::PropertyBag::builder().build();
    if !rule.tags.is_empty() {
        properties.tags = Some(rule.tags.clone());
    }
    s::ReportingDescriptor::builder()
        .id(rule.id.clone())
        .name(rule.name.clone())
        .short_description(text(&rule.description))
        .full_description(text(&rule.description))
        .help(text(if rule.help.is_empty() {
            &rule.description
        } else {
            &rule.help
        }))
        .default_configuration(
            s::ReportingConfiguration::builder()
                .level(json!(rule.level.as_str()))
                .build(),
        )
        .properties(properties)
        .build()
}

fn logical(address: &Address) -> s::LogicalLocation {
    let (name, kind) = match (address.list, address.parameter()) {
        (None, _) => ("instructions".to_owned(), "module"),
        (Some(_), Some(parameter)) => (parameter.to_owned(), "parameter"),
        (Some(List::Tools | List::Prompts), None) => (address.name.clone(), "function"),
        (Some(_), None) => (address.name.clone(), "resource"),
    };
    s::LogicalLocation::builder()
        .name(name)
        .fully_qualified_name(address.to_string())
        .kind(kind)
        .build()
}

impl From<&LintRule> for SarifRule {
    fn from(rule: &LintRule) -> SarifRule {
        SarifRule {
            id: rule.id.to_owned(),
            name: rule.name.to_owned(),
            description: format!("{}: {}", rule.name, rule.expected),
            help: format!("{}. Why it matters: {}", rule.expected, rule.why),
            level: level_of(rule.severity),
            tags: vec![rule.family.as_str().into(), "mcp".into()],
        }
    }
}

fn level_of(severity: Severity) -> Level {
    match severity {
        Severity::Error => Level::Error,
        Severity::Warning => Level::Warning,
    }
}

impl SarifFinding for Finding {
    fn rule_id(&self) -> &str {
        self.rule.id
    }
    fn level(&self) -> Level {
        level_of(self.severity)
    }
    fn message(&self) -> String {
        format!(
            "{} ({}): {}. {}",
            self.subject, self.rule.name, self.detail, self.rule.why
        )
    }
    fn pointer(&self) -> Option<&str> {
        Some(&self.pointer)
    }
}

impl From<&DriftRule> for SarifRule {
    fn from(rule: &DriftRule) -> SarifRule {
        SarifRule {
            id: rule.id.to_owned(),
            name: rule.name.to_owned(),
            description: format!("{} change: {}", rule.impact, rule.what),
            help: format!("{}: {}", rule.impact, rule.why),
            level: impact_level(rule.impact),
            tags: vec!["drift".into(), rule.impact.as_str().into(), "mcp".into()],
        }
    }
}

fn impact_level(impact: Impact) -> Level {
    match impact {
        Impact::Breaking => Level::Error,
        Impact::Degrading => Level::Warning,
        Impact::Compatible => Level::Note,
    }
}

impl SarifFinding for Change {
    fn rule_id(&self) -> &str {
        self.rule.id
    }
    fn level(&self) -> Level {
        impact_level(self.impact())
    }
    fn message(&self) -> String {
        format!(
            "{} ({} change, {}): {}. {}",
            self.address.subject(),
            self.rule.impact,
            self.rule.name,
            self.detail,
            self.rule.why
        )
    }
    fn address(&self) -> Option<Address> {
        Some(self.address.clone())
    }
}

/// The audit's rules: one per kind of unhealthy answer, and one for a tool
/// list that could not be audited.
pub fn audit_rules() -> Vec<SarifRule> {
    let rule = |id: &str, name: &str, description: &str, help: &str| SarifRule {
        id: id.into(),
        name: name.into(),
        description: description.into(),
        help: help.into(),
        level: Level::Error,
        tags: vec!["reliability".into(), "mcp".into()],
    };
    vec![
        rule(
            "MCPT-A001",
            "crash",
            "The server died or dropped the connection when the tool was called",
            "A tool call with a valid input must not take the server down; the result shows its exit status and stderr.",
        ),
        rule(
            "MCPT-A002",
            "timeout",
            "The tool did not answer within the timeout",
            "An agent waits on every call; a tool that hangs on a valid input stalls it.",
        ),
        rule(
            "MCPT-A003",
            "protocol-error",
            "The answer is no valid tools/call result (or breaks the outputSchema)",
            "A JSON-RPC error or a malformed result to a valid input is a bug in the tool, not a refusal.",
        ),
        rule(
            "MCPT-A004",
            "not-audited",
            "The tools could not be listed or called",
            "Nothing was checked: the server did not start, tools/list failed, or a tool to skip does not exist.",
        ),
    ]
}

/// One unhealthy result of an audit report.
struct AuditFinding<'a>(&'a TestResult);

impl SarifFinding for AuditFinding<'_> {
    fn rule_id(&self) -> &str {
        match Classification::of(self.0) {
            Some(Classification::Crash) => "MCPT-A001",
            Some(Classification::Timeout) => "MCPT-A002",
            Some(Classification::ProtocolError) => "MCPT-A003",
            _ => "MCPT-A004",
        }
    }
    fn level(&self) -> Level {
        match self.0.status() {
            Status::Fail => Level::Error,
            _ => Level::Warning,
        }
    }
    fn message(&self) -> String {
        let mut text = match self.0.outcome.failure() {
            Some(failure) => failure.render(false),
            None => self.0.name.clone(),
        };
        // Code scanning shows the message in a box: the head of the story.
        if text.chars().count() > 2000 {
            text = text.chars().take(2000).collect::<String>() + "…";
        }
        text
    }
    fn address(&self) -> Option<Address> {
        (self.0.group.as_deref() == Some("tools"))
            .then(|| Address::item(List::Tools, self.0.name.clone()))
    }
}

impl SarifLog {
    /// The lint's `findings` over `definitions` (the listing their pointers
    /// index), under every lint rule of every family (`mcptest lint`).
    /// Each result has its finding's own severity: a warning made an error
    /// by [`Lint::strict`](crate::lint::Lint::strict) is an error result
    /// under a rule whose default level stays `warning`.
    ///
    /// ```
    /// use mcptest::scan::{lint::{Definitions, check}, sarif::SarifLog};
    /// use serde_json::json;
    ///
    /// let defs = Definitions::from_json(json!({"tools": [
    ///     {"name": "run", "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}}}
    /// ]})).unwrap();
    /// let sarif = SarifLog::lint(&check(&defs), &defs).to_json();
    /// let ids: Vec<&str> = sarif["runs"][0]["results"].as_array().unwrap().iter()
    ///     .map(|r| r["ruleId"].as_str().unwrap()).collect();
    /// // The tool has no description (usability) and a free-form command (security).
    /// assert!(ids.contains(&"E101") && ids.contains(&"MCPT-L006"), "{ids:?}");
    /// ```
    pub fn lint(findings: &[Finding], definitions: &Definitions) -> SarifLog {
        SarifLog::lint_of("mcptest lint", findings, definitions, |_| true)
    }

    /// [`lint`](SarifLog::lint) narrowed to the security family: its
    /// findings among `findings`, under every security rule
    /// (`mcptest lint-security`).
    pub fn lint_security(findings: &[Finding], definitions: &Definitions) -> SarifLog {
        SarifLog::lint_of("mcptest lint-security", findings, definitions, |rule| {
            rule.family == Family::Security
        })
    }

    /// The lint's log of `command`: the rules `keep` keeps, and their
    /// findings.
    fn lint_of(
        command: &str,
        findings: &[Finding],
        definitions: &Definitions,
        keep: impl Fn(&LintRule) -> bool,
    ) -> SarifLog {
        let mut log = SarifLog::new(
            command,
            LINT_RULES.iter().filter(|r| keep(r)).map(SarifRule::from),
        )
        .listed(definitions.to_json());
        for finding in findings.iter().filter(|f| keep(f.rule)) {
            log.push(finding);
        }
        log
    }

    /// Drift's changes, under every drift rule (compatible ones as notes).
    pub fn drift(changes: &[Change]) -> SarifLog {
        let mut log = SarifLog::new(
            "mcptest drift",
            crate::drift::RULES.iter().map(SarifRule::from),
        );
        for change in changes {
            log.push(change);
        }
        log
    }

    /// An audit report's failed and warned results (a tool that crashed,
    /// hung or broke the protocol; a run that could not audit).
    pub fn audit(report: &Report) -> SarifLog {
        let mut log = SarifLog::new("mcptest audit", audit_rules());
        for result in &report.results {
            if matches!(result.status(), Status::Fail | Status::Warn) {
                log.push(&AuditFinding(result));
            }
        }
        log
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{drift, surface::Surface};
    use mcptest_core::report::Outcome;

    const SNAP: &str = "---\nsource: x.rs\n---\nprompts: []\nresourceTemplates: []\nresources: []\ntools:\n  - inputSchema:\n      properties:\n        command:\n          type: string\n      type: object\n    name: run\n";

    #[test]
    fn lint_findings_point_at_their_line_in_the_snapshot() {
        let defs = Definitions::from_json(json!({"tools": [
            {"name": "zzz", "inputSchema": {"type": "object"}},
            {"name": "run", "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}}}
        ]}))
        .unwrap();
        let findings = crate::lint::check(&defs);
        let anchor = Surface::parse("surface.snap", SNAP)
            .unwrap()
            .file()
            .unwrap()
            .clone();
        let sarif = SarifLog::lint_security(&findings, &defs)
            .anchor(anchor)
            .to_json();
        let results = sarif["runs"][0]["results"].as_array().unwrap();
        let command = results.iter().find(|r| r["ruleId"] == "MCPT-L006").unwrap();
        let region = &command["locations"][0]["physicalLocation"]["region"];
        assert_eq!(
            (region["startLine"].as_i64(), region["startColumn"].as_i64()),
            (Some(10), Some(9))
        );
        assert_eq!(command["level"], "warning");
        assert_eq!(
            command["locations"][0]["logicalLocations"][0]["kind"],
            "parameter"
        );
        let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap();
        let security: Vec<&str> = LINT_RULES
            .iter()
            .filter(|r| r.family == Family::Security)
            .map(|r| r.id)
            .collect();
        assert_eq!(rules.len(), security.len());
        // The usability rules found something too (tools without a
        // description); lint-security's log leaves them out.
        assert!(findings.iter().any(|f| f.rule.id == "E101"), "{findings:?}");
        for result in results {
            let id = result["ruleId"].as_str().unwrap();
            assert!(security.contains(&id), "{id} is not a security rule");
        }
        let index = command["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], "MCPT-L006");
        assert_eq!(rules[index]["properties"]["tags"][0], "security");
    }

    #[test]
    fn the_lint_log_holds_every_family_and_lint_security_is_its_security_part() {
        let defs = Definitions::from_json(json!({"tools": [
            {"name": "run", "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}}}
        ]}))
        .unwrap();
        let mut findings = crate::lint::check(&defs);
        let anchor = Surface::parse("surface.snap", SNAP)
            .unwrap()
            .file()
            .unwrap()
            .clone();
        // What `Lint::strict` does to a warning: the result is an error,
        // its rule's default level stays a warning.
        let l006 = findings
            .iter_mut()
            .find(|f| f.rule.id == "MCPT-L006")
            .unwrap();
        assert_eq!(l006.severity, Severity::Warning);
        l006.severity = Severity::Error;
        let whole = SarifLog::lint(&findings, &defs)
            .anchor(anchor.clone())
            .to_json();
        let run = &whole["runs"][0];
        assert_eq!(run["tool"]["driver"]["fullName"], "mcptest lint");
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        assert_eq!(rules.len(), LINT_RULES.len());
        let results = run["results"].as_array().unwrap();
        assert_eq!(results.len(), findings.len());
        let rule_of = |result: &Value| &rules[result["ruleIndex"].as_u64().unwrap() as usize];
        // The tool has no description: E101 at the tool's line.
        let e101 = results.iter().find(|r| r["ruleId"] == "E101").unwrap();
        assert_eq!(rule_of(e101)["properties"]["tags"][0], "usability");
        assert_eq!(e101["level"], "error");
        assert_eq!(
            e101["locations"][0]["physicalLocation"]["region"]["startLine"],
            8
        );
        let l006 = results.iter().find(|r| r["ruleId"] == "MCPT-L006").unwrap();
        assert_eq!(l006["level"], "error");
        assert_eq!(rule_of(l006)["defaultConfiguration"]["level"], "warning");

        // lint-security's log is the same results, the security ones alone.
        let security = SarifLog::lint_security(&findings, &defs)
            .anchor(anchor)
            .to_json();
        let security = &security["runs"][0];
        assert_eq!(
            security["tool"]["driver"]["fullName"],
            "mcptest lint-security"
        );
        let without_index = |r: &Value| {
            let mut r = r.clone();
            r.as_object_mut().unwrap().remove("ruleIndex");
            r
        };
        let expected: Vec<Value> = results
            .iter()
            .filter(|r| rule_of(r)["properties"]["tags"][0] == "security")
            .map(without_index)
            .collect();
        let got: Vec<Value> = security["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(without_index)
            .collect();
        assert!(!expected.is_empty() && expected.len() < results.len());
        assert_eq!(got, expected);
    }

    #[test]
    fn drift_changes_are_levelled_by_impact() {
        let old = Surface::parse("surface.snap", SNAP).unwrap();
        let new = Surface::from_value(&json!({"tools": [{"name": "other"}]}));
        let changes = drift::diff(&old, &new);
        let log = SarifLog::drift(&changes).anchor(old.file().unwrap().clone());
        let sarif = log.to_json();
        let results = sarif["runs"][0]["results"].as_array().unwrap();
        let found: Vec<(&str, &str, i64)> = results
            .iter()
            .map(|r| {
                (
                    r["ruleId"].as_str().unwrap(),
                    r["level"].as_str().unwrap(),
                    r["locations"][0]["physicalLocation"]["region"]["startLine"]
                        .as_i64()
                        .unwrap(),
                )
            })
            .collect();
        // The new tool is not in the old snapshot: its list's line.
        assert_eq!(found, [("MCPT-D013", "note", 7), ("MCPT-D001", "error", 8)]);
    }

    #[test]
    fn audit_results_name_the_tool_or_the_server() {
        let mut report = Report::new("audit");
        report.push(TestResult::new("ok", Outcome::Pass).group("tools"));
        report.push(
            TestResult::new("run", Outcome::error("an answer", "it died"))
                .group("tools")
                .property(crate::audit::CLASSIFICATION, "crash"),
        );
        report.push(TestResult::new("tools/list", Outcome::error("a list", "none")).group("audit"));
        let sarif = SarifLog::audit(&report).to_json();
        let results = sarif["runs"][0]["results"].as_array().unwrap();
        assert_eq!(results.len(), 2);
        assert_eq!(results[0]["ruleId"], "MCPT-A001");
        assert_eq!(
            results[0]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
            "tools/run"
        );
        assert_eq!(results[1]["ruleId"], "MCPT-A004");
        assert_eq!(
            results[1]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
            "instructions"
        );
    }

    #[test]
    fn a_finding_of_an_unknown_rule_gets_a_rule_so_that_its_index_holds() {
        struct Odd;
        impl SarifFinding for Odd {
            fn rule_id(&self) -> &str {
                "X1"
            }
            fn level(&self) -> Level {
                Level::Note
            }
            fn message(&self) -> String {
                "odd".into()
            }
        }
        let mut log = SarifLog::new("t", []);
        log.push(&Odd);
        let sarif = log.to_json();
        assert_eq!(sarif["runs"][0]["tool"]["driver"]["rules"][0]["id"], "X1");
        assert_eq!(sarif["runs"][0]["results"][0]["ruleIndex"], 0);
        assert_eq!(log.len(), 1);
    }
}
