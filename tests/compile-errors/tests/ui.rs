//! Compile-time errors of `#[mcp_test]` and `suite!` (`suite_*.rs`): one file
//! per family of mistakes in `ui/`, each with the exact compiler output expected in its `.stderr`.
//! Regenerate with `TRYBUILD=overwrite cargo test -p mcptest-compile-errors`
//! and read the diff.

use std::path::{Path, PathBuf};

#[test]
fn mcp_test_compile_errors() {
    // `suite!` paths are relative to the crate being compiled: the project
    // trybuild makes under the target directory gets the suite files that
    // `ui/suite_files.rs` names.
    let project = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the tmp dir is inside the target dir")
        .join("tests/trybuild")
        .join(env!("CARGO_PKG_NAME"));
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/suites"),
        &project.join("suites"),
    );

    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}

fn copy_dir(from: &Path, to: &PathBuf) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("cannot create {}: {e}", to.display()));
    for entry in
        std::fs::read_dir(from).unwrap_or_else(|e| panic!("cannot list {}: {e}", from.display()))
    {
        let path = entry.expect("a directory entry").path();
        std::fs::copy(&path, to.join(path.file_name().expect("a file name")))
            .unwrap_or_else(|e| panic!("cannot copy {}: {e}", path.display()));
    }
}
