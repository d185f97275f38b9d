//! `mcptest::scan::lint` beside mcp-assert 0.12.3's own `lint` (installed
//! by `.ci/install-e2e.sh`), rule by rule on the same servers:
//!
//! - the lint fixture (`fixture-chaos --lint-findings`, each of our rules
//!   once), with both tools calling tools: every difference is listed
//!   below with why, and any other one fails the test;
//! - `@modelcontextprotocol/server-filesystem`, a path-heavy server: every
//!   finding of ours under one of mcp-assert's codes is one mcp-assert
//!   reports too, and each of its findings we do not report is listed
//!   below as a false positive, with why.
//!
//! A finding is compared as (code, tool, parameter). mcp-assert files its
//! overloaded-tool check under W103 (its unconstrained-string code) with
//! the field `description`; it is compared as W113, ours.

use std::{collections::BTreeSet, process::Stdio, time::Duration};

use mcptest::{
    Server,
    scan::lint::{Lint, Linted},
};
use mcptest_tests::e2e;
use serde_json::Value;

const CHAOS: &str = env!("CARGO_BIN_EXE_fixture-chaos");

/// (code, tool, parameter)
type Key = (String, String, String);

fn key(code: &str, tool: &str, parameter: &str) -> Key {
    (code.to_owned(), tool.to_owned(), parameter.to_owned())
}

/// mcp-assert's codes: the rules both tools have.
fn shared(code: &str) -> bool {
    !code.starts_with("MCPT-")
}

/// Runs mcp-assert's `lint --server CMD --json` and more; its findings as
/// keys. Bounded: a peer that hangs is killed after two minutes.
async fn peer(server: &str, extra: &[&str]) -> BTreeSet<Key> {
    let program = e2e::path("MCPTEST_E2E_MCP_ASSERT");
    let child = tokio::process::Command::new(&program)
        .args(["lint", "--server", server, "--json"])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    let out = tokio::time::timeout(Duration::from_secs(120), child.wait_with_output())
        .await
        .expect("mcp-assert lint answers within two minutes")
        .expect("mcp-assert lint runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "mcp-assert printed no JSON report ({e}):\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let findings = json["findings"].as_array().cloned().unwrap_or_default();
    assert!(
        json["tools"].as_u64().unwrap_or(0) > 0,
        "mcp-assert listed no tool: {json}"
    );
    findings
        .iter()
        .map(|f| {
            let field = f["field"].as_str().unwrap_or_default();
            let mut code = f["code"].as_str().unwrap_or_default();
            if code == "W103" && field == "description" {
                code = "W113";
            }
            let parameter = field
                .strip_prefix("args.")
                .map(|p| p.split('.').next().unwrap_or_default())
                .unwrap_or_default();
            key(code, f["tool"].as_str().unwrap_or_default(), parameter)
        })
        .collect()
}

fn ours(linted: &Linted) -> BTreeSet<Key> {
    linted
        .findings
        .iter()
        .map(|f| {
            // A list-wide finding (W106, W112) is on no tool; mcp-assert
            // names "(all tools)" and "(server)".
            let tool = match f.rule.id {
                "W106" => "(all tools)".to_owned(),
                "W112" => "(server)".to_owned(),
                _ => f.tool.clone().unwrap_or_default(),
            };
            key(f.rule.id, &tool, f.parameter.as_deref().unwrap_or_default())
        })
        .collect()
}

fn table(title: &str, rows: &[(Key, &str)]) -> String {
    let mut out = format!("{title}\n");
    for ((code, tool, parameter), why) in rows {
        out.push_str(&format!("  {code:<5} {tool:<22} {parameter:<14} {why}\n"));
    }
    out
}

/// What only we report on the lint fixture, and why mcp-assert does not.
const ONLY_OURS_ON_THE_FIXTURE: &[(&str, &str, &str, &str)] = &[
    (
        "E105",
        "get_ticket",
        "ticket_key",
        "open_ticket's outputSchema returns ticket_key, taken here as free text; mcp-assert infers \
         flows only between two tools' inputs, and open_ticket takes none",
    ),
    (
        "E107",
        "draft_bulletin",
        "",
        "draft_bulletin returns the bulletin_id review_bulletin takes, which returns the \
         review_id draft_bulletin takes; no input of one is an input of the other, the only \
         thing mcp-assert matches",
    ),
];

/// What only mcp-assert reports on the lint fixture, and why we do not.
const ONLY_PEERS_ON_THE_FIXTURE: &[(&str, &str, &str, &str)] = &[
    (
        "W103",
        "load_archive",
        "archive_path",
        "a path: no enum or pattern could list the values, so W103 leaves out paths, ids, \
         names and free text (MCPT-L006 flags an unconstrained path, as a security matter)",
    ),
    (
        "W108",
        "get_area_offset",
        "",
        "mcp-assert finds the verb `set` inside `offset`; we compare whole words",
    ),
    (
        "W111",
        "get_tide_table",
        "",
        "\"Returns.\" is vague (W101); a vague description is short too, and one finding says it",
    ),
];

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn on_the_lint_fixture_every_difference_from_mcp_assert_is_a_listed_one() {
    let server = format!("{CHAOS} --lint-findings");
    let flags = ["--call-tools", "--detect-nondeterminism"];
    let theirs = peer(&server, &flags).await;
    let linted = Lint::new(Server::command(&server))
        .call_tools(true)
        .detect_nondeterminism(true)
        .lint()
        .await
        .unwrap_or_else(|report| panic!("{report}"));
    let ours: BTreeSet<Key> = ours(&linted)
        .into_iter()
        .filter(|(code, ..)| shared(code))
        .collect();
    let only_ours: Vec<(Key, &str)> = ours
        .difference(&theirs)
        .map(|k| {
            let why = ONLY_OURS_ON_THE_FIXTURE
                .iter()
                .find(|(c, t, p, _)| key(c, t, p) == *k)
                .map_or("UNEXPECTED", |row| row.3);
            (k.clone(), why)
        })
        .collect();
    let only_theirs: Vec<(Key, &str)> = theirs
        .difference(&ours)
        .map(|k| {
            let why = ONLY_PEERS_ON_THE_FIXTURE
                .iter()
                .find(|(c, t, p, _)| key(c, t, p) == *k)
                .map_or("UNEXPECTED", |row| row.3);
            (k.clone(), why)
        })
        .collect();
    let report = format!(
        "{}{}",
        table("only mcptest:", &only_ours),
        table("only mcp-assert:", &only_theirs)
    );
    println!("{report}");
    assert_eq!(only_ours.len(), ONLY_OURS_ON_THE_FIXTURE.len(), "{report}");
    assert_eq!(
        only_theirs.len(),
        ONLY_PEERS_ON_THE_FIXTURE.len(),
        "{report}"
    );
    assert!(!report.contains("UNEXPECTED"), "{report}");
    // Everything else agrees, rule by rule: 24 rules, of which E105 and
    // E107 are ours alone here.
    let agreed: BTreeSet<&str> = ours.intersection(&theirs).map(|k| k.0.as_str()).collect();
    assert_eq!(agreed.len(), 22, "{agreed:?}\n{report}");
}

/// mcp-assert's findings on server-filesystem that are false positives,
/// and why.
const FALSE_POSITIVES_ON_FILESYSTEM: &[(&str, &str, &str, &str)] = &[
    ("E103", "write_file", "content", NAMED),
    ("E103", "edit_file", "edits", NAMED),
    ("E103", "list_directory", "path", NAMED),
    ("E103", "list_directory_with_sizes", "path", NAMED),
    ("E103", "move_file", "source", NAMED),
    ("E103", "move_file", "destination", NAMED),
    ("E103", "search_files", "pattern", NAMED),
    ("W104", "write_file", "content", NAMED),
    ("W103", "read_file", "path", OPEN),
    ("W103", "read_text_file", "path", OPEN),
    ("W103", "read_media_file", "path", OPEN),
    ("W103", "write_file", "path", OPEN),
    ("W103", "write_file", "content", OPEN),
    ("W103", "edit_file", "path", OPEN),
    ("W103", "create_directory", "path", OPEN),
    ("W103", "list_directory", "path", OPEN),
    ("W103", "list_directory_with_sizes", "path", OPEN),
    ("W103", "directory_tree", "path", OPEN),
    ("W103", "move_file", "source", OPEN),
    ("W103", "move_file", "destination", OPEN),
    ("W103", "search_files", "path", OPEN),
    ("W103", "search_files", "pattern", OPEN),
    ("W103", "get_file_info", "path", OPEN),
    ("W108", "write_file", "", ANNOTATED),
    ("W108", "create_directory", "", ANNOTATED),
    ("W116", "read_file", "", OUTPUT_SCHEMA),
    ("W116", "read_text_file", "", OUTPUT_SCHEMA),
    ("W116", "write_file", "", OUTPUT_SCHEMA),
    ("W116", "create_directory", "", OUTPUT_SCHEMA),
    ("W116", "move_file", "", OUTPUT_SCHEMA),
    ("E107", "read_file", "", SHARED_INPUT),
    ("E107", "directory_tree", "", SHARED_INPUT),
];

const NAMED: &str = "the tool's description names the parameter and says what it is \
                     (\"Both source and destination must be within ...\")";
const OPEN: &str = "a path, file content or glob: no enum or pattern could list its values";
const ANNOTATED: &str = "its annotations say it changes state (readOnlyHint: false, \
                         destructiveHint, idempotentHint) and its description says \
                         \"create\"/\"overwrite\"";
const OUTPUT_SCHEMA: &str = "it has an outputSchema, which says what it returns";
const SHARED_INPUT: &str = "the two tools share an optional input (head/tail, excludePatterns); \
                            neither returns what the other takes";

#[tokio::test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
async fn on_server_filesystem_fewer_false_positives_than_mcp_assert() {
    let root = tempfile::tempdir().unwrap();
    let program = e2e::path("MCPTEST_E2E_FILESYSTEM");
    let server = format!("{} {}", program.display(), root.path().display());
    let theirs = peer(&server, &[]).await;
    let linted = Lint::new(
        Server::program(&program)
            .arg(root.path())
            .connect_timeout(Duration::from_secs(60)),
    )
    .lint()
    .await
    .unwrap_or_else(|report| panic!("{report}"));
    let all_ours = ours(&linted);
    let ours: BTreeSet<Key> = all_ours.iter().filter(|k| shared(&k.0)).cloned().collect();

    // Every finding of ours under mcp-assert's codes, mcp-assert has too.
    let only_ours: Vec<&Key> = ours.difference(&theirs).collect();
    assert_eq!(only_ours, Vec::<&Key>::new(), "ours: {ours:#?}");
    // Each of mcp-assert's that we do not report is a listed false positive.
    let listed: BTreeSet<Key> = FALSE_POSITIVES_ON_FILESYSTEM
        .iter()
        .map(|(c, t, p, _)| key(c, t, p))
        .collect();
    let missed: BTreeSet<Key> = theirs.difference(&ours).cloned().collect();
    let unexplained: Vec<&Key> = missed.difference(&listed).collect();
    let gone: Vec<&Key> = listed.difference(&missed).collect();
    assert!(
        unexplained.is_empty() && gone.is_empty(),
        "mcp-assert findings we do not report, unexplained: {unexplained:#?}\n\
         listed false positives mcp-assert no longer reports (or we now do): {gone:#?}"
    );
    let security = all_ours.len() - ours.len();
    println!(
        "server-filesystem: mcp-assert {} findings, {} of them false positives; mcptest {} \
         under the same codes, none of them a listed false positive (and {security} of its \
         security rules: MCPT-L004 well-known names, MCPT-L006 unconstrained paths)",
        theirs.len(),
        listed.len(),
        ours.len()
    );
    println!(
        "{}",
        table(
            "mcp-assert's false positives:",
            &FALSE_POSITIVES_ON_FILESYSTEM
                .iter()
                .map(|(c, t, p, why)| (key(c, t, p), *why))
                .collect::<Vec<_>>()
        )
    );
    assert!(ours.len() < theirs.len());
    assert_eq!(theirs.len() - listed.len(), ours.len(), "the rest agree");
}
