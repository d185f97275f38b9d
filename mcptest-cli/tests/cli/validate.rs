use super::*;

#[test]
fn good_files_pass_and_every_bad_file_is_reported() {
    let ws = Workspace::new(&[
        ("suite/add.yaml", PASSING),
        (
            "suite/broken.yaml",
            "name: x\nassert:\n  tool: add\n  expect: {contains: [\"a\"\n",
        ),
        (
            "suite/unknown.yaml",
            "name: x\nassert:\n  tool: add\n  expect:\n    containz: [\"a\"]\n",
        ),
    ]);
    let out = output(ws.mcptest(&["validate", "suite/add.yaml", "contract.yaml"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("2 files, 3 tests, 0 problems"),
        "{out:?}"
    );

    let out = output(ws.mcptest(&["validate", "suite"]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout.contains("3 files, 1 test, 2 problems"),
        "{out:?}"
    );
    assert!(out.stdout.contains("suite/unknown.yaml:5:5: "), "{out:?}");
    assert!(out.stdout.contains("containz"), "{out:?}");
    assert!(out.stdout.contains("suite/broken.yaml:"), "{out:?}");

    let out = output(ws.mcptest(&["validate", "missing.yaml"]));
    assert_eq!(out.code, Some(2), "{out:?}");

    // `lint` was once this command's name; it is the server linter now,
    // and a suite file given to it is refused with the way to validate.
    let out = output(ws.mcptest(&["lint", "suite/add.yaml"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("use `mcptest validate`"), "{out:?}");
}
