use super::*;

#[test]
fn a_server_that_rejects_every_case_with_json_rpc_errors_survives() {
    // The mock answers every unknown call with a JSON-RPC error: a right
    // answer to bad input, so every case passes.
    let ws = Workspace::new(&[]);
    let out = output(ws.mcptest(&[
        "fuzz",
        "--server",
        &server(),
        "--mutations",
        "4",
        "--seed",
        "7",
        "--json",
        "fuzz.json",
    ]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("cases survived"), "{out:?}");
    let json: serde_json::Value = serde_json::from_str(&ws.read("fuzz.json")).unwrap();
    let names: Vec<&str> = json["results"]
        .as_array()
        .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    assert!(
        names.iter().any(|n| n.contains("mutation 4 of seed 7")),
        "{json}"
    );
}

#[test]
fn an_unknown_tool_fails_the_run() {
    let ws = Workspace::new(&[]);
    let out = output(ws.mcptest(&["fuzz", "--server", &server(), "--tool", "nope"]));
    assert_eq!(out.code, Some(1), "{out:?}");
}
