//! `mcptest watch`: runs the files, then again each time a file below the
//! watched paths changes, and says which tests flipped since the run before.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::mpsc,
    time::Duration,
};

use mcptest::{
    report::{Report, Status},
    suite::runner::{self, Event, Reporter},
};
use notify::{RecursiveMode, Watcher};

use crate::{
    Exit,
    args::WatchArgs,
    output::{self, Palette},
    terminal::{Out, Terminal},
};

/// How long to wait for more events after one, so that an editor's burst
/// of writes is one rerun.
const SETTLE: Duration = Duration::from_millis(200);

pub fn watch(args: WatchArgs) -> Exit {
    let options = match args.suite.options() {
        Ok(options) => options,
        Err(exit) => return exit,
    };
    let (events, changes) = mpsc::channel();
    let mut watcher = match notify::recommended_watcher(events) {
        Ok(watcher) => watcher,
        Err(e) => {
            eprintln!("mcptest: cannot watch files: {e}");
            return Exit::Usage;
        }
    };
    for root in roots(&args.suite.all_paths()) {
        if let Err(e) = watcher.watch(&root, RecursiveMode::Recursive) {
            eprintln!("mcptest: cannot watch {}: {e}", root.display());
            return Exit::Usage;
        }
    }
    let runtime = match args.suite.runtime() {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    let palette = Palette::new(crate::color());
    let mut last: Option<BTreeMap<String, Status>> = None;
    let mut runs = 0u32;
    loop {
        runs += 1;
        // A file that no longer loads is reported, and the watch goes on.
        let report = match args.suite.load() {
            Ok(tests) => {
                let mut terminal = Terminal::new(Out::Stdout, &palette, None);
                Some(runtime.block_on(runner::run(
                    format!("run {runs}"),
                    &tests,
                    &options,
                    &mut |event: &Event<'_>| terminal.report(event),
                )))
            }
            Err(_) => None,
        };
        let exit = if let Some(report) = &report {
            print!("{}", output::summary(report, &palette));
            let now = statuses(report);
            if let Some(before) = &last {
                for line in flips(before, &now) {
                    println!("{line}");
                }
            }
            last = Some(now);
            if report.passed() {
                Exit::Pass
            } else {
                Exit::Failures
            }
        } else {
            Exit::Usage
        };
        if args.max_runs.is_some_and(|max| runs >= max) {
            return exit;
        }
        println!(
            "watching {} for changes (Ctrl-C stops)",
            args.suite.all_paths().join(" ")
        );
        if !wait_for_change(&changes) {
            eprintln!("mcptest: the file watcher stopped");
            return exit;
        }
    }
}

/// Blocks until a file changes (then lets a burst settle); false when the
/// watcher is gone.
fn wait_for_change(changes: &mpsc::Receiver<notify::Result<notify::Event>>) -> bool {
    loop {
        match changes.recv() {
            Ok(Ok(event)) if is_change(&event) => break,
            Ok(_) => continue,
            Err(_) => return false,
        }
    }
    while changes.recv_timeout(SETTLE).is_ok() {}
    true
}

fn is_change(event: &notify::Event) -> bool {
    use notify::EventKind;
    matches!(
        event.kind,
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
    )
}

/// What to watch for each argument: a directory itself, a file's or a
/// glob's directory (so that editors that replace files are seen).
fn roots(paths: &[String]) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = Vec::new();
    for arg in paths {
        let path = Path::new(arg);
        let root = if path.is_dir() {
            path.to_path_buf()
        } else {
            // The part of a glob before its first wildcard, or the file's
            // directory.
            let literal = arg.split(['*', '?', '[']).next().unwrap_or_default();
            let dir = Path::new(literal);
            let dir = if literal.ends_with('/') || dir.is_dir() {
                dir
            } else {
                dir.parent().unwrap_or(Path::new(""))
            };
            if dir.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                dir.to_path_buf()
            }
        };
        if !roots.contains(&root) {
            roots.push(root);
        }
    }
    roots
}

fn statuses(report: &Report) -> BTreeMap<String, Status> {
    report
        .results
        .iter()
        .map(|r| {
            let key = match &r.group {
                Some(file) => format!("{file}: {}", r.name),
                None => r.name.clone(),
            };
            (key, r.status())
        })
        .collect()
}

/// `flipped: a.yaml: adds PASS -> FAIL`, `new: ...`, `gone: ...`.
fn flips(before: &BTreeMap<String, Status>, now: &BTreeMap<String, Status>) -> Vec<String> {
    let mut lines = Vec::new();
    for (key, status) in now {
        match before.get(key) {
            Some(old) if old != status => lines.push(format!("flipped: {key} {old} -> {status}")),
            Some(_) => {}
            None => lines.push(format!("new: {key} {status}")),
        }
    }
    for key in before.keys() {
        if !now.contains_key(key) {
            lines.push(format!("gone: {key}"));
        }
    }
    if lines.is_empty() {
        lines.push("no test changed status".to_owned());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flips_name_each_change_of_status() {
        let before = BTreeMap::from([
            ("a: x".to_owned(), Status::Pass),
            ("a: y".to_owned(), Status::Fail),
        ]);
        let now = BTreeMap::from([
            ("a: x".to_owned(), Status::Fail),
            ("a: z".to_owned(), Status::Pass),
        ]);
        assert_eq!(
            flips(&before, &now),
            ["flipped: a: x PASS -> FAIL", "new: a: z PASS", "gone: a: y"]
        );
        assert_eq!(flips(&now, &now), ["no test changed status"]);
    }

    #[test]
    fn roots_are_directories() {
        assert_eq!(
            roots(&["evals/**/*.yaml".into()]),
            [PathBuf::from("evals/")]
        );
        assert_eq!(roots(&["a.yaml".into()]), [PathBuf::from(".")]);
    }
}
