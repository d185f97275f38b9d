//! `mcptest run` against the third-party servers `.ci/install-e2e.sh`
//! installs (`.ci/run` runs these with `--ignored`).

use super::*;

fn installed(var: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| {
        panic!("{var} is not set: run `bash .ci/install-e2e.sh && source target/e2e/env.sh`")
    })
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

#[test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
fn the_everything_suite_passes_in_both_formats_with_a_junit_report() {
    let ws = Workspace::new(&[]);
    let suite = repo("tests/suites/e2e_everything");
    let server = format!("'{}' stdio", installed("MCPTEST_E2E_EVERYTHING"));
    let out = output(ws.mcptest(&[
        "run",
        suite.to_str().unwrap(),
        "--server",
        &server,
        "--junit",
        "junit.xml",
    ]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("10 passed, 0 failed"), "{out:?}");
    let junit = ws.read("junit.xml");
    assert_eq!(junit.matches("<testcase").count(), 10, "{junit}");
}

/// The benchmark's 30-file suite (benches/peer), which names its
/// servers, with their installed paths filled in as its script does.
#[test]
#[ignore = "e2e: needs .ci/install-e2e.sh; .ci/run runs it"]
fn the_peer_benchmark_suite_passes_against_three_servers() {
    let ws = Workspace::new(&[]);
    let everything = installed("MCPTEST_E2E_EVERYTHING");
    let time = installed("MCPTEST_E2E_TIME");
    let filesystem = installed("MCPTEST_E2E_FILESYSTEM");
    let mut files = 0;
    std::fs::create_dir_all(ws.path("suite")).unwrap();
    for entry in std::fs::read_dir(repo("benches/peer/suite")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("@EVERYTHING@", &everything)
            .replace("@TIME@", &time)
            .replace("@FILESYSTEM@", &filesystem);
        ws.write(
            &format!("suite/{}", path.file_name().unwrap().to_str().unwrap()),
            &text,
        );
        files += 1;
    }
    assert!(files >= 30, "the benchmark suite has {files} files");
    let fixture = repo("benches/peer/fixture");
    let out = output(ws.mcptest(&[
        "run",
        "suite",
        "--fixture",
        fixture.to_str().unwrap(),
        "--json",
        "report.json",
    ]));
    assert_eq!(out.code, Some(0), "{out:?}");
    let json: serde_json::Value = serde_json::from_str(&ws.read("report.json")).unwrap();
    assert_eq!(json["counts"]["passed"], files, "{json}");
}
