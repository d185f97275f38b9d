//! `mcptest snapshot`: runs the files with each session recorded, and
//! compares what the server answered with the snapshot stored beside each
//! file (`__snapshots__/<file>.json`); `--update` stores it instead.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use mcptest::{
    ServerOutput,
    expect::{Evidence, Failure, Miss},
    report::{Outcome, Report, TestResult},
    suite::{
        SuiteTest,
        runner::{self, Event},
    },
};
use mcptest_core::__support::interactions;
use serde_json::Value;

use crate::{
    Exit,
    args::SnapshotArgs,
    output::{self, Palette},
};

pub fn snapshot(args: SnapshotArgs) -> Exit {
    let tests = match args.suite.load() {
        Ok(tests) => tests,
        Err(exit) => return exit,
    };
    let options = match args.suite.options() {
        Ok(options) => options,
        Err(exit) => return exit,
    };
    let sessions = match tempfile::Builder::new()
        .prefix("mcptest-snapshot-")
        .tempdir()
    {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("mcptest: cannot create a directory for the sessions: {e}");
            return Exit::Usage;
        }
    };
    let options = options.record(sessions.path());
    let runtime = match args.suite.runtime() {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    let palette = Palette::new(crate::color());
    let title = format!("mcptest snapshot {}", args.suite.all_paths().join(" "));
    // The runs' own lines are not shown: the snapshot verdicts are.
    let ran = runtime.block_on(runner::run(
        title.clone(),
        &tests,
        &options,
        &mut |_: &Event<'_>| {},
    ));
    let mut stores: BTreeMap<PathBuf, Store> = BTreeMap::new();
    let mut report = Report::new(title).with_duration(ran.duration);
    for (test, ran) in tests.iter().zip(&ran.results) {
        let path = store_path(&test.file);
        let store = stores
            .entry(path.clone())
            .or_insert_with(|| Store::load(&path));
        let outcome = verdict(test, ran, sessions.path(), store, args.update);
        report.push(
            TestResult::new(test.name.clone(), outcome)
                .group(test.file.clone())
                .location(test.location.clone())
                .duration(ran.duration),
        );
    }
    for result in &report.results {
        println!("{}", palette.line(result));
    }
    print!("{}", output::summary(&report, &palette));
    if args.update {
        for (path, store) in &stores {
            if let Err(e) = store.save(path) {
                eprintln!("mcptest: cannot write {}: {e}", path.display());
                return Exit::Usage;
            }
        }
    }
    output::write_reports(&report, &args.reports);
    if report.passed() {
        Exit::Pass
    } else {
        Exit::Failures
    }
}

/// `evals/add.yaml` -> `evals/__snapshots__/add.yaml.json`.
fn store_path(file: &str) -> PathBuf {
    let file = Path::new(file);
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    file.parent()
        .unwrap_or(Path::new(""))
        .join("__snapshots__")
        .join(format!("{}.json", name.unwrap_or_default()))
}

/// The stored snapshots of one suite file: each test's exchanges by name.
struct Store {
    tests: BTreeMap<String, Value>,
    /// Why the file could not be read, if it exists and is not a store.
    broken: Option<String>,
    changed: bool,
}

impl Store {
    fn load(path: &Path) -> Store {
        let mut store = Store {
            tests: BTreeMap::new(),
            broken: None,
            changed: false,
        };
        match std::fs::read_to_string(path) {
            Ok(text) => match serde_json::from_str(&text) {
                Ok(tests) => store.tests = tests,
                Err(e) => {
                    store.broken = Some(format!("{} is not a snapshot file: {e}", path.display()))
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => store.broken = Some(format!("{}: {e}", path.display())),
        }
        store
    }

    fn save(&self, path: &Path) -> std::io::Result<()> {
        if !self.changed {
            return Ok(());
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut text = serde_json::to_string_pretty(&self.tests).expect("JSON serialises");
        text.push('\n');
        std::fs::write(path, text)
    }
}

fn verdict(
    test: &SuiteTest,
    ran: &TestResult,
    sessions: &Path,
    store: &mut Store,
    update: bool,
) -> Outcome {
    let cassette = sessions.join(test.cassette_name());
    let recorded = match interactions(&cassette, &[]) {
        Ok(recorded) if !recorded.is_empty() => recorded,
        Ok(_) => {
            return Outcome::error(
                "a request answered by the server, to snapshot",
                "the session holds no request besides initialize",
            );
        }
        Err(e) => {
            let why = match ran.outcome.summary() {
                Some(run) => format!("no session was recorded ({e}); the run: {run}"),
                None => format!("no session was recorded: {e}"),
            };
            return Outcome::error("a recorded session", why);
        }
    };
    let current = serde_json::to_value(&recorded).expect("exchanges serialise");
    if let Some(why) = &store.broken {
        return Outcome::error("a readable snapshot file", why.clone());
    }
    match store.tests.get(&test.name) {
        Some(stored) if *stored == current => Outcome::Pass,
        _ if update => {
            store.tests.insert(test.name.clone(), current);
            store.changed = true;
            Outcome::Pass
        }
        None => Outcome::error(
            format!(
                "a stored snapshot of {:?} in {}",
                test.name,
                store_path(&test.file).display()
            ),
            "none is stored: run `mcptest snapshot --update` to store this run's answers",
        ),
        Some(stored) => {
            let pretty = |v: &Value| serde_json::to_string_pretty(v).expect("JSON serialises");
            Outcome::fail(Failure::new(
                None,
                vec![Miss::new(
                    "the answers stored in the snapshot (`mcptest snapshot --update` accepts the new ones)",
                    Evidence::new().diff(pretty(stored), pretty(&current)),
                )],
                ServerOutput::default(),
            ))
        }
    }
}
