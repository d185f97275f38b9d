use super::*;

const CHECKS: [&str; 4] = [
    "--only",
    "classic-initialize-result",
    "--only",
    "classic-ping",
];

fn conformance(ws: &Workspace, extra: &[&str]) -> Output {
    let server = server();
    let mut args = vec![
        "conformance",
        "--server",
        server.as_str(),
        "--timeout",
        "5s",
    ];
    args.extend_from_slice(&CHECKS);
    args.extend_from_slice(extra);
    output(ws.mcptest(&args))
}

#[test]
fn the_table_and_the_reports() {
    let ws = Workspace::new(&[]);
    let out = conformance(&ws, &["--json", "c.json", "--junit", "c.xml"]);
    assert!(out.stdout.contains("classic-ping"), "{out:?}");
    let json: serde_json::Value = serde_json::from_str(&ws.read("c.json")).unwrap();
    let names: Vec<&str> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["classic-initialize-result", "classic-ping"],
        "{json:#}"
    );
    assert!(ws.read("c.xml").contains("<testcase name=\"classic-ping\""));
    let ping = json["results"][1]["status"].as_str().unwrap();
    assert_eq!(ping, "pass", "the mock answers ping: {out:?}");
    let failed = json["counts"]["failed"].as_u64().unwrap();
    assert_eq!(out.code, Some(if failed == 0 { 0 } else { 1 }), "{out:?}");
}

#[test]
fn a_listed_check_that_passes_fails_the_run() {
    let ws = Workspace::new(&[]);
    ws.write("known.yaml", "- classic-ping\n");
    let out = conformance(&ws, &["--expected-failures", "known.yaml"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout
            .contains("classic-ping is listed as an expected failure and now passes"),
        "{out:?}"
    );
    ws.write("typo.yaml", "- classic-pong\n");
    let out = conformance(&ws, &["--expected-failures", "typo.yaml"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr
            .contains("\"classic-pong\" is not a conformance check id"),
        "{out:?}"
    );
}

#[test]
fn a_server_that_does_not_exist_is_a_usage_error() {
    let ws = Workspace::new(&[]);
    let out = output(ws.mcptest(&["conformance", "--server", "no-such-mcp-server-anywhere"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    let out = output(ws.mcptest(&["conformance"]));
    assert_eq!(out.code, Some(2), "{out:?}");
}

#[test]
fn protocol_chooses_the_revision_and_refuses_an_unknown_one() {
    let ws = Workspace::new(&[]);
    let server = format!("'{MCPTEST}' mock contract.yaml");
    let out = output(ws.mcptest(&["conformance", "--server", &server, "--protocol", "banana"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr
            .contains("--protocol \"banana\" is no revision mcptest checks; use one of 2024-11-05"),
        "{out:?}"
    );
    let out = output(ws.mcptest(&[
        "conformance",
        "--server",
        &server,
        "--protocol",
        "2025-11-25",
        "--json",
        "c.json",
    ]));
    let json: serde_json::Value = serde_json::from_str(&ws.read("c.json")).unwrap();
    let ids: Vec<&str> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert!(!ids.is_empty(), "{out:?}");
    // The HTTP+SSE transport's rules are the transport's, whatever the
    // revision (over stdio they fold).
    assert!(
        ids.iter()
            .all(|id| id.starts_with("classic-") || id.starts_with("sse-")),
        "{ids:?}"
    );
    assert!(ids.iter().any(|id| id.starts_with("classic-")), "{ids:?}");
}

#[test]
fn a_url_nothing_listens_on_is_a_usage_error_not_a_report() {
    // A port that was free a moment ago and that nothing listens on now.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let ws = Workspace::new(&[]);
    let out = output(ws.mcptest(&["conformance", "--url", &url, "--json", "c.json"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr
            .contains(&format!("cannot connect to {url}: connection refused")),
        "{out:?}"
    );
    assert!(!out.stdout.contains("checks"), "no report: {out:?}");
    assert!(!ws.path("c.json").exists(), "no report file: {out:?}");
}

/// The registration approach of a protected client run: each flag needs
/// `--protected` (and the secret its id), and the two approaches exclude
/// each other; every misuse is exit 2 with what to write, before any
/// client runs.
#[test]
fn a_registration_approach_needs_protection_and_only_one() {
    let ws = Workspace::new(&[]);
    let client = ["conformance", "--client-http", "no-such-client {{url}}"];
    let cases: [(&[&str], &str); 4] = [
        (
            &["--pre-registered-client-id", "known"],
            "the following required arguments were not provided",
        ),
        (
            &["--client-metadata-document"],
            "the following required arguments were not provided",
        ),
        (
            &["--protected", "--pre-registered-client-secret", "s"],
            "--pre-registered-client-id <ID>",
        ),
        (
            &[
                "--protected",
                "--pre-registered-client-id",
                "known",
                "--client-metadata-document",
            ],
            "cannot be used with",
        ),
    ];
    for (extra, said) in cases {
        let out = output(ws.mcptest(&[&client[..], extra].concat()));
        assert_eq!(out.code, Some(2), "{extra:?}: {out:?}");
        assert!(out.stderr.contains(said), "{extra:?}: {out:?}");
        assert!(!out.stdout.contains("checks"), "no run: {out:?}");
    }
    // Needing --protected, each says so by name.
    let out = output(ws.mcptest(&[&client[..], &["--client-metadata-document"]].concat()));
    assert!(out.stderr.contains("--protected"), "{out:?}");
}
