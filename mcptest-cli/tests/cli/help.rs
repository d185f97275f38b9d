use super::*;

#[test]
fn help_shows_an_example_per_command_and_the_exit_codes() {
    let ws = Workspace::new(&[]);
    let out = output(ws.mcptest(&["--help"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    for text in [
        "mcptest run tests/evals",
        "mcptest validate",
        "mcptest conformance --server",
        "mcptest mock contract.yaml",
        "0  everything ran and passed",
        "1  a test or check failed",
        "2  usage error",
        "3  regressions",
    ] {
        assert!(out.stdout.contains(text), "{text:?} missing: {out:?}");
    }
    for command in ["run", "validate", "conformance", "mock"] {
        let out = output(ws.mcptest(&[command, "--help"]));
        assert_eq!(out.code, Some(0), "{out:?}");
        assert!(
            out.stdout.contains(&format!("  mcptest {command} ")),
            "{command}: {out:?}"
        );
    }
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    let ws = Workspace::new(&[]);
    let out = output(ws.mcptest(&["run", "--no-such-flag", "x.yaml"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("--no-such-flag"), "{out:?}");
    let out = output(ws.mcptest(&["run"]));
    assert_eq!(out.code, Some(2), "{out:?}");
}
