//! The passing corpus in `suites/pass`, in both formats, as generated tests:
//! one `#[test]` per mcp-assert file and per MCP Cases document, each against
//! a fresh `fixture-everything` working in a fresh copy of `suites/fixtures`
//! (so the tests are independent: they run at once, taking no turns).

use mcptest::Server;

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");

mcptest::suite!(
    "suites/pass",
    server = Server::program(EVERYTHING).args(["--root", "{{fixture}}"]),
    fixture = "suites/fixtures",
    independent,
);

/// The generated tests' tables, for the comparison of every front end
/// (`one_runner`).
pub(crate) use pass::{FILES as PASS_FILES, TESTS as PASS_TESTS};

/// The macro's table lists every test, sorted by file, with stable names.
#[test]
fn the_generated_tests_are_sorted_and_named_after_files_and_cases() {
    let names: Vec<&str> = pass::TESTS.iter().map(|(name, _, _)| *name).collect();
    assert_eq!(
        &names[..8],
        [
            "cases_no_handshake__without_the_handshake_a_request_before_initialize_is_refused",
            "cases_notifications__progress_notifications_then_the_answer",
            "cases_notifications__notifications_the_case_does_not_mention_do_not_fail_it",
            "cases_notifications__an_error_answer",
            "cases_tools__list_tools",
            "cases_tools__call_echo",
            "cases_tools__initialization_lifecycle",
            "cases_tools__a_batch_is_sent_as_one_array",
        ]
    );
    assert!(names.contains(&"echo_text_checks"));
    let files: Vec<&str> = pass::FILES.iter().map(|f| f.path).collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);
    assert!(
        files.iter().all(|f| f.starts_with("suites/pass/")),
        "{files:?}"
    );
}

/// The macro tells the formats apart once, at compile time, and the run
/// time takes its word: the loader agrees with it on every file.
#[test]
fn the_macro_passes_the_format_it_detected() {
    use mcptest::suite::{Format, Suite};
    for file in pass::FILES {
        let detected = Suite::parse(file.path, file.text).expect("loads").tests()[0].format;
        let given = Suite::parse_as(file.path, file.text, file.format).expect("loads");
        assert_eq!(file.format, detected, "{}", file.path);
        assert!(given.tests().iter().all(|t| t.format == file.format));
        let cases = file.path.starts_with("suites/pass/cases/");
        assert_eq!(file.format == Format::McpCases, cases, "{}", file.path);
    }
}

/// Each file is embedded already parsed: loading it from the macro's tree
/// gives the same tests, at the same lines and columns, as parsing its text.
#[test]
fn the_embedded_tree_loads_like_the_text() {
    use mcptest::suite::Suite;
    for file in pass::FILES {
        let parsed = Suite::parse(file.path, file.text).expect("the text loads");
        let embedded = file.load().expect("the tree loads");
        let shape = |suite: &Suite| -> Vec<String> {
            suite
                .tests()
                .iter()
                .map(|t| format!("{} {:?} {:?} {:?}", t.name, t.format, t.location, t.file))
                .collect()
        };
        assert_eq!(shape(&embedded), shape(&parsed), "{}", file.path);
        assert!(!file.docs.is_empty(), "{}", file.path);
    }
}
