use super::*;

#[test]
fn answers_are_stored_then_compared_and_a_change_shows_its_diff() {
    let ws = Workspace::new(&[("evals/adds.yaml", PASSING)]);
    let server = server();
    let out = output(ws.mcptest(&["snapshot", "evals", "--server", &server]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("none is stored"), "{out:?}");
    assert!(!ws.path("evals/__snapshots__/adds.yaml.json").exists());

    let out = output(ws.mcptest(&["snapshot", "evals", "--server", &server, "--update"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    let stored = ws.read("evals/__snapshots__/adds.yaml.json");
    let json: serde_json::Value = serde_json::from_str(&stored).unwrap();
    // The test's own request only.
    let exchanges = json["adds"].as_array().unwrap();
    assert_eq!(exchanges.len(), 1, "{stored}");
    let call = exchanges
        .iter()
        .find(|e| e["method"] == "tools/call")
        .unwrap_or_else(|| panic!("no tools/call in {stored}"));
    assert_eq!(call["params"]["name"], "add", "{stored}");
    assert_eq!(
        call["answer"]["result"]["content"][0]["text"], "5",
        "{stored}"
    );

    let out = output(ws.mcptest(&["snapshot", "evals", "--server", &server]));
    assert_eq!(out.code, Some(0), "{out:?}");

    ws.write(
        "contract.yaml",
        &CONTRACT.replace(r#""text": "5""#, r#""text": "55""#),
    );
    let out = output(ws.mcptest(&["snapshot", "evals", "--server", &server]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("\"55\""), "{out:?}");
    assert!(out.stdout.contains("--update"), "{out:?}");
    // Comparing never rewrites the store.
    assert_eq!(ws.read("evals/__snapshots__/adds.yaml.json"), stored);
}

#[test]
fn a_server_that_does_not_start_is_a_failure_not_a_snapshot() {
    let ws = Workspace::new(&[("evals/adds.yaml", PASSING)]);
    let out = output(ws.mcptest(&[
        "snapshot",
        "evals",
        "--server",
        "python3 -c 'import sys; sys.exit(4)'",
        "--update",
    ]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        !ws.path("evals/__snapshots__/adds.yaml.json").exists(),
        "{out:?}"
    );
}
