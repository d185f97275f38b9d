use super::*;
use quick_xml::{Reader, events::Event};

fn suite() -> Workspace {
    Workspace::new(&[
        ("suite/add.yaml", PASSING),
        ("suite/bad.yaml", FAILING),
        ("suite/off.yaml", SKIPPED),
    ])
}

/// An element's attributes, in order.
type Attributes = Vec<(String, String)>;

/// (testcase name, failure message) pairs, and the suite's attributes.
fn parse_junit(xml: &str) -> (Vec<(String, Option<String>)>, Attributes) {
    let mut reader = Reader::from_str(xml);
    let mut cases: Vec<(String, Option<String>)> = Vec::new();
    let mut suite = Vec::new();
    loop {
        match reader.read_event().unwrap() {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                let attrs: Attributes = e
                    .attributes()
                    .map(|a| {
                        let a = a.unwrap();
                        (
                            String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                            a.unescape_value().unwrap().into_owned(),
                        )
                    })
                    .collect();
                let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
                match e.name().as_ref() {
                    b"testsuite" => suite = attrs.clone(),
                    b"testcase" => cases.push((get("name").unwrap(), None)),
                    b"failure" => cases.last_mut().unwrap().1 = get("message"),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    (cases, suite)
}

#[test]
fn every_format_in_one_run() {
    let ws = suite();
    let out = output(ws.run(&[
        "suite",
        "--junit",
        "junit.xml",
        "--json",
        "report.json",
        "--markdown",
        "summary.md",
        "--badge",
        "badge.json",
    ]));
    assert_eq!(out.code, Some(1), "{out:?}");

    let (cases, suite) = parse_junit(&ws.read("junit.xml"));
    let names: Vec<&str> = cases.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["adds", "adds wrong", "off"]);
    assert_eq!(cases[0].1, None);
    assert!(
        cases[1]
            .1
            .as_deref()
            .unwrap()
            .starts_with("expected text contains \"6\" (contains)"),
        "{cases:?}"
    );
    let attr = |k: &str| suite.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    assert_eq!(attr("tests"), Some("3"));
    assert_eq!(attr("failures"), Some("1"));

    let json: serde_json::Value = serde_json::from_str(&ws.read("report.json")).unwrap();
    insta::with_settings!({filters => vec![(r"\b[0-9.]+(ns|µs|ms|s)\b", "[time]")]}, {
        insta::assert_json_snapshot!("report_json", json, {
            ".duration_ms" => "[ms]",
            ".results[].duration_ms" => "[ms]",
        });
        insta::assert_snapshot!("report_markdown", ws.read("summary.md"));
    });

    let badge: serde_json::Value = serde_json::from_str(&ws.read("badge.json")).unwrap();
    assert_eq!(
        badge,
        serde_json::json!({"schemaVersion": 1, "label": "mcptest", "message": "1/2 passed", "color": "red"})
    );
}

#[test]
fn an_unwritable_report_is_an_error_and_the_verdict_stands() {
    // `blocker` is a file, so no directory can be made under it.
    let ws = Workspace::new(&[("suite/add.yaml", PASSING), ("blocker", "")]);
    let out = output(ws.run(&[
        "suite",
        "--junit",
        "blocker/junit.xml",
        "--json",
        "fresh/dir/ok.json",
    ]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr
            .contains("cannot write the JUnit report to blocker/junit.xml"),
        "{out:?}"
    );
    assert!(
        ws.path("fresh/dir/ok.json").exists(),
        "the other reports are written, their directories made"
    );
    let ws = suite();
    ws.write("blocker", "");
    let out = output(ws.run(&["suite", "--markdown", "blocker/summary.md"]));
    assert_eq!(out.code, Some(1), "{out:?}");
}

#[test]
fn github_actions_get_annotations_and_a_step_summary() {
    let ws = suite();
    ws.write("step-summary.md", "earlier step\n");
    let summary = ws.path("step-summary.md");
    let out = output(
        ws.run(&["suite"])
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_STEP_SUMMARY", &summary),
    );
    assert_eq!(out.code, Some(1), "{out:?}");
    let annotations: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(annotations.len(), 1, "{out:?}");
    assert!(
        annotations[0].starts_with("::error file=suite/bad.yaml,line=2,col=1,title=adds wrong::"),
        "{out:?}"
    );
    let written = std::fs::read_to_string(&summary).unwrap();
    assert!(
        written.starts_with("earlier step\n### ❌ mcptest run suite"),
        "{written}"
    );
    // Outside GitHub Actions: no annotations.
    let out = output(ws.run(&["suite"]));
    assert!(!out.stdout.contains("::error"), "{out:?}");
}
