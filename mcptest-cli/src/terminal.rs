//! The terminal reporter of the suite runner: a progress bar on a
//! terminal, a line per test as it ends, the replay's lines, and after the
//! run the failures in full, the tests that interfered and the fixture
//! copies kept.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mcptest::{
    report::Report,
    suite::runner::{self, Event, INTERFERED, Reporter},
};

use crate::output::{self, Palette};

/// Where the run's words go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Out {
    /// Nowhere: the command shows its own verdicts.
    Hidden,
    Stdout,
    /// Stderr, when stdout carries the JSON report.
    Stderr,
}

impl Out {
    pub fn say(self, line: &str) {
        self.say_raw(&format!("{line}\n"));
    }

    pub fn say_raw(self, text: &str) {
        match self {
            Out::Stdout => print!("{text}"),
            Out::Stderr => eprint!("{text}"),
            Out::Hidden => {}
        }
    }
}

/// Reads the runner's events onto the terminal.
pub struct Terminal<'a> {
    pub out: Out,
    pub palette: &'a Palette,
    /// `--server`, to say how many files' servers it replaces.
    pub server: Option<&'a str>,
    progress: ProgressBar,
}

impl<'a> Terminal<'a> {
    pub fn new(out: Out, palette: &'a Palette, server: Option<&'a str>) -> Self {
        Terminal {
            out,
            palette,
            server,
            progress: ProgressBar::hidden(),
        }
    }

    /// A bar on stderr when it is a terminal and lines are shown.
    fn start_progress(&mut self, tests: usize) {
        if self.out == Out::Hidden || !console::Term::stderr().is_term() {
            return;
        }
        let bar = ProgressBar::with_draw_target(Some(tests as u64), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
                .expect("a valid template"),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        self.progress = bar;
    }

    /// After the run: every failure in full and the summary line, the
    /// tests that interfered, the fixture copies kept.
    pub fn summary(&self, report: &Report) {
        self.out.say_raw(&output::summary(report, self.palette));
        self.out.say_raw(&runner::interference_summary(report));
        self.out.say_raw(&kept_copies(report));
    }
}

impl Reporter for Terminal<'_> {
    fn report(&mut self, event: &Event<'_>) {
        match event {
            Event::RunStarted { tests, .. } => {
                if let Some(server) = self.server {
                    let replaced = tests.iter().filter(|t| t.names_server()).count();
                    if replaced > 0 {
                        self.out.say(&format!(
                            "--server replaces the server named in {replaced} of {} test files: {server}",
                            tests.len()
                        ));
                    }
                }
                self.start_progress(tests.len());
            }
            Event::TestFinished { result, .. } => {
                let line = self.palette.line(result);
                self.progress.suspend(|| self.out.say(&line));
                self.progress.inc(1);
            }
            Event::ReplayStarted { failed, up_to } => {
                self.progress.finish_and_clear();
                self.out.say(&format!(
                    "{failed} failed beside other tests: rerunning tests 1 to {up_to} one at a time, in file order (--independent skips this)"
                ));
            }
            Event::ReplayFinished {
                result,
                failed_beside,
                ..
            } if *failed_beside || result.property_value(INTERFERED).is_some() => {
                self.out
                    .say(&format!("one at a time: {}", self.palette.line(result)));
            }
            Event::RunFinished { .. } => self.progress.finish_and_clear(),
            _ => {}
        }
    }
}

/// The fixture copies kept for failed tests, one line each; empty when none.
fn kept_copies(report: &Report) -> String {
    let kept: Vec<(&str, &std::path::Path)> = report
        .results
        .iter()
        .filter_map(|r| Some((r.name.as_str(), r.outcome.failure()?.kept_fixture()?)))
        .collect();
    if kept.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "kept fixture copies (one per test, replaced when it fails again; in {}, or $MCPTEST_KEPT_DIR):\n",
        mcptest::Fixture::kept_home().display()
    );
    for (name, path) in kept {
        out.push_str(&format!("  {name}: {}\n", path.display()));
    }
    out
}
