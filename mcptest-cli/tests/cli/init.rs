use super::{audit::HEALTHY, audit::healthy_server, *};

#[test]
fn the_template_lints_and_is_never_overwritten() {
    let ws = Workspace::new(&[]);
    let out = output(ws.mcptest(&["init", "evals"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("next: edit the server"), "{out:?}");
    let text = ws.read("evals/example.yaml");
    assert!(text.contains("mcptest run evals"), "{text}");
    let out = output(ws.mcptest(&["validate", "evals"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    ws.write("evals/example.yaml", "# mine\n");
    let out = output(ws.mcptest(&["init", "evals"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("exists; not overwritten"), "{out:?}");
    assert_eq!(ws.read("evals/example.yaml"), "# mine\n");
}

#[test]
fn with_a_server_the_first_tool_gets_a_file_that_runs_green() {
    let ws = Workspace::new(&[("healthy.yaml", HEALTHY)]);
    let server = healthy_server();
    let out = output(ws.mcptest(&["init", "evals", "--server", &server]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(ws.path("evals/add.yaml").exists(), "{out:?}");
    assert!(!ws.path("evals/drop_all.yaml").exists(), "{out:?}");
    let out = output(ws.mcptest(&["run", "evals", "--server", &server]));
    assert_eq!(out.code, Some(0), "{out:?}");
}
