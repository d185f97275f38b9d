use super::*;

/// Over stdio the HTTP rule cannot apply: one folded line in the table,
/// its own row with `--verbose`, and a row in the reports either way.
#[test]
fn checks_that_cannot_apply_fold_unless_verbose() {
    let ws = Workspace::new(&[]);
    let server = server();
    let args = [
        "conformance",
        "--server",
        server.as_str(),
        "--timeout",
        "5s",
        "--only",
        "classic-ping",
        "--only",
        "classic-http-dns-rebinding",
    ];
    let out = output(ws.mcptest(&[&args[..], &["--json", "c.json"]].concat()));
    assert!(
        out.stdout
            .contains("SKIP  1 check: the rule is for Streamable HTTP"),
        "{out:?}"
    );
    assert!(
        !out.stdout.contains("classic-http-dns-rebinding"),
        "{out:?}"
    );
    assert!(out.stdout.contains("(speaks "), "{out:?}");
    let json: serde_json::Value = serde_json::from_str(&ws.read("c.json")).unwrap();
    assert_eq!(json["results"].as_array().unwrap().len(), 2, "{json:#}");
    let out = output(ws.mcptest(&[&args[..], &["--verbose"]].concat()));
    assert!(
        out.stdout
            .contains("SKIP  MUST    classic-http-dns-rebinding"),
        "{out:?}"
    );
    assert!(!out.stdout.contains("SKIP  1 check:"), "{out:?}");
}
