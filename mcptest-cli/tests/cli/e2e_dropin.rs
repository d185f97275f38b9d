//! mcptest as a drop-in for mcp-assert, against real servers: the suites of
//! `tests/suites/dropin` (a stateful server whose processes share one file;
//! files naming a server that `--server` must replace), run three times in
//! a row at the default settings with mcp-assert's own command line, each
//! verdict compared with mcp-assert's. Needs `.ci/install-e2e.sh` (which
//! installs the servers and mcp-assert); `.ci/run` runs these with
//! `--ignored`.

use std::{collections::BTreeMap, time::Instant};

use super::*;

fn installed(var: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| {
        panic!("{var} is not set: run `bash .ci/install-e2e.sh && source target/e2e/env.sh`")
    })
}

fn suite(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/suites/dropin")
        .join(name)
        .canonicalize()
        .unwrap()
        .display()
        .to_string()
}

type Verdicts = BTreeMap<String, String>;

/// Name → PASS / FAIL / SKIP, from `results` whose items have `name` and
/// `status` (both tools' JSON say it so).
fn verdicts(results: &serde_json::Value) -> Verdicts {
    results
        .as_array()
        .unwrap_or_else(|| panic!("not a list: {results}"))
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_owned(),
                r["status"].as_str().unwrap().to_uppercase(),
            )
        })
        .collect()
}

/// Runs `program run --suite DIR --server CMD --json` (the same line for
/// both tools) in `ws`; the verdicts, what stdout held, and the wall time.
fn run(
    ws: &Workspace,
    program: &str,
    dir: &str,
    server: &str,
    env: &[(&str, String)],
) -> (Option<i32>, serde_json::Value, String, f64) {
    let mut command = std::process::Command::new(program);
    command
        .current_dir(ws.path(""))
        .args(["run", "--suite", dir, "--server", server, "--json"])
        .env("NO_COLOR", "1")
        .env("MCPTEST_KEPT_DIR", ws.path("kept"))
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY");
    for (k, v) in env {
        command.env(k, v);
    }
    let started = Instant::now();
    let out = command.output().unwrap();
    let wall = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let start = stdout
        .find(['[', '{'])
        .unwrap_or_else(|| panic!("{program}: no JSON on stdout\n{stdout}\n{stderr}"));
    let json: serde_json::Value = serde_json::from_str(&stdout[start..])
        .unwrap_or_else(|e| panic!("{program}: {e}\n{stdout}\n{stderr}"));
    (out.status.code(), json, stderr, wall)
}

/// The suite `name` with both tools: mcp-assert once, mcptest three times
/// in a row at its default settings; every verdict the same.
fn agree(
    name: &str,
    server: &str,
    env: impl Fn(&str) -> Vec<(&'static str, String)>,
    expected: &Verdicts,
) {
    let ws = Workspace::new(&[]);
    let dir = suite(name);
    let peer = installed("MCPTEST_E2E_MCP_ASSERT");
    let (peer_code, peer_json, peer_err, peer_wall) = run(&ws, &peer, &dir, server, &env("peer"));
    let theirs = verdicts(&peer_json);
    assert_eq!(
        &theirs, expected,
        "mcp-assert's verdicts on {name}: {peer_err}"
    );
    for round in 1..=3 {
        let (code, json, stderr, wall) = run(
            &ws,
            MCPTEST,
            &dir,
            server,
            &env(&format!("mcptest-{round}")),
        );
        let ours = verdicts(&json["results"]);
        assert_eq!(ours, theirs, "{name}, run {round} of 3: {stderr}");
        assert_eq!(
            code, peer_code,
            "{name}, run {round}: the exit status: {stderr}"
        );
        let interfered = interfered(&json);
        eprintln!(
            "{name} run {round}: {} tests, same verdicts as mcp-assert; {wall:.2}s (mcp-assert {peer_wall:.2}s); interfered: {interfered:?}",
            ours.len()
        );
    }
}

fn all(status: &str, names: &[&str]) -> Verdicts {
    names
        .iter()
        .map(|n| ((*n).to_owned(), status.to_owned()))
        .collect()
}

#[test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
fn a_server_sharing_one_file_gets_the_peer_verdicts_three_runs_of_three() {
    let memory = installed("MCPTEST_E2E_MEMORY");
    let ws_dir = tempfile::tempdir().unwrap();
    let file = |who: &str| {
        vec![(
            "DROPIN_MEMORY_FILE",
            ws_dir
                .path()
                .join(format!("{who}.jsonl"))
                .display()
                .to_string(),
        )]
    };
    let expected = all(
        "PASS",
        &[
            "no scratch entity is seen by others",
            "a scratch entity comes and goes",
            "a created project is read back from the graph",
            "observations are added to an entity",
            "a relation links two entities",
            "a search for nothing finds no entity",
        ],
    );
    agree("memory", &memory, file, &expected);
}

#[test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
fn server_replaces_the_server_the_files_name_as_with_the_peer() {
    let server = format!("{} --local-timezone UTC", installed("MCPTEST_E2E_TIME"));
    let mut expected = all(
        "PASS",
        &[
            "the current time in UTC",
            "noon in London is 13:00 in Paris in winter",
            "the current time in Tokyo",
        ],
    );
    expected.insert("a wrong expectation fails".into(), "FAIL".into());
    agree("override", &server, |_| Vec::new(), &expected);
}
