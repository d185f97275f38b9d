//! [`Suite`]: the tests of one or more suite files, loaded from a file or a
//! directory, and run through the runner.

use std::path::{Path, PathBuf};

use mcptest_core::report::Report;
use mcptest_core::report::TestResult;
use mcptest_suite_format::{Format, LoadError};

use crate::{load, options::RunOptions, runner, suite_test::SuiteTest};

/// The tests of one or more suite files.
#[derive(Debug, Clone, Default)]
pub struct Suite {
    pub(crate) tests: Vec<SuiteTest>,
}

impl Suite {
    /// Loads a suite file, or every `.yaml` / `.yml` file below a directory
    /// (sorted by path). Any file that cannot be used is an error.
    pub fn load(path: impl AsRef<Path>) -> Result<Suite, LoadError> {
        let path = path.as_ref();
        let shown = path.display().to_string();
        let metadata = std::fs::metadata(path)
            .map_err(|e| LoadError::file(&shown, format!("cannot read: {e}")))?;
        let files = if metadata.is_dir() {
            let mut files = Vec::new();
            collect_yaml(path, &mut files)
                .map_err(|e| LoadError::file(&shown, format!("cannot list the directory: {e}")))?;
            files.sort();
            if files.is_empty() {
                return Err(LoadError::file(
                    &shown,
                    "no .yaml or .yml files in this directory",
                ));
            }
            files
        } else {
            vec![path.to_path_buf()]
        };
        let mut suite = Suite::default();
        for file in files {
            let shown = file.display().to_string();
            let text = std::fs::read_to_string(&file)
                .map_err(|e| LoadError::file(&shown, format!("cannot read: {e}")))?;
            suite.tests.extend(Suite::parse(&shown, &text)?.tests);
        }
        Ok(suite)
    }

    /// Parses one file's text; `file` names it in messages. The format is
    /// told from the content (see [`Format`]).
    pub fn parse(file: &str, text: &str) -> Result<Suite, LoadError> {
        Ok(Suite {
            tests: load::parse(file, text, None)?,
        })
    }

    /// Parses one file's text as `format`, without telling the formats
    /// apart again (what `suite!` does, having told them apart already).
    pub fn parse_as(file: &str, text: &str, format: Format) -> Result<Suite, LoadError> {
        Ok(Suite {
            tests: load::parse(file, text, Some(format))?,
        })
    }

    /// Adds `other`'s tests after these (to run several directories as one).
    pub fn extend(&mut self, other: Suite) {
        self.tests.extend(other.tests);
    }

    /// The tests, in file order.
    pub fn tests(&self) -> &[SuiteTest] {
        &self.tests
    }

    /// Runs every test through the [`runner`] (beside each other, the
    /// replay of the tests that failed beside others, the partition and
    /// the trials, as `options` say): the results, in file order.
    pub async fn run(&self, options: &RunOptions) -> Vec<TestResult> {
        self.run_report("", options).await.results
    }

    /// Runs every test through the [`runner`] into a [`Report`] titled
    /// `title` (`suite tests/evals`), for any of its renderings: the report
    /// `mcptest run` makes of the same tests with the same options.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), mcptest::suite::LoadError> {
    /// use mcptest::{Server, suite::{RunOptions, Suite}};
    ///
    /// let options = RunOptions::new().server(Server::command("my-mcp-server --stdio"));
    /// let report = Suite::load("tests/evals")?.run_report("suite tests/evals", &options).await;
    /// println!("{report}");
    /// report.assert_passed();
    /// # Ok(()) }
    /// ```
    pub async fn run_report(&self, title: impl Into<String>, options: &RunOptions) -> Report {
        runner::run(title, &self.tests, options, &mut |_: &runner::Event<'_>| {}).await
    }
}

fn collect_yaml(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_yaml(&path, out)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) {
            out.push(path);
        }
    }
    Ok(())
}
