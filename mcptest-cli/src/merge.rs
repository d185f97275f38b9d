//! `mcptest report merge`: the JSON reports of a run's shards (`mcptest
//! run --partition ... --json`) joined into one report, written in every
//! format a run writes.

use std::{collections::BTreeMap, path::PathBuf};

use mcptest::report::{Report, TestResult};

use crate::{
    Exit,
    args::MergeArgs,
    output::{self, Palette},
};

pub fn merge(args: MergeArgs) -> Exit {
    let mut shards = Vec::new();
    for path in &args.files {
        match read(path) {
            Ok(report) => shards.push((path.clone(), report)),
            Err(e) => {
                eprintln!("mcptest: {}: {e}", path.display());
                return Exit::Usage;
            }
        }
    }
    let report = match join(shards) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
    };
    let palette = Palette::new(crate::color() && !args.reports.json_on_stdout());
    let summary = output::summary(&report, &palette);
    if args.reports.json_on_stdout() {
        eprint!("{summary}");
    } else {
        print!("{summary}");
    }
    output::write_reports(&report, &args.reports);
    if report.passed() {
        Exit::Pass
    } else {
        Exit::Failures
    }
}

fn read(path: &PathBuf) -> Result<Report, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    Report::from_json(&value)
}

/// The shards' title without its ` (partition ...)` part.
fn run_title(title: &str) -> String {
    match title.find(" (partition ") {
        Some(start) => {
            let rest = &title[start + 1..];
            let end = rest.find(')').map_or(title.len(), |e| start + 1 + e + 1);
            format!("{}{}", &title[..start], &title[end..])
        }
        None => title.to_owned(),
    }
}

/// One report of the shards' results, in the order of an unsharded run
/// (by file, then place in the file); its duration is the longest shard's,
/// as the shards run side by side. Shards of different runs, or a test in
/// two shards, are errors.
fn join(shards: Vec<(PathBuf, Report)>) -> Result<Report, String> {
    let Some(title) = shards.first().map(|(_, r)| run_title(&r.title)) else {
        return Err("no report to merge".into());
    };
    let mut seen: BTreeMap<(Option<String>, String), PathBuf> = BTreeMap::new();
    let mut results: Vec<TestResult> = Vec::new();
    let mut duration = std::time::Duration::ZERO;
    for (path, report) in shards {
        let this = run_title(&report.title);
        if this != title {
            return Err(format!(
                "{} is a report of {this:?}, the first of {title:?}: shards of one run only",
                path.display()
            ));
        }
        duration = duration.max(report.duration);
        for result in report.results {
            let key = (result.group.clone(), result.name.clone());
            if let Some(first) = seen.insert(key, path.clone()) {
                return Err(format!(
                    "`{}` is in both {} and {}: the shards overlap",
                    result.name,
                    first.display(),
                    path.display()
                ));
            }
            results.push(result);
        }
    }
    results.sort_by(|a, b| {
        let place = |r: &TestResult| {
            r.location
                .as_ref()
                .map(|l| (l.file.clone(), l.line, l.column))
        };
        place(a).cmp(&place(b))
    });
    let mut report = Report::new(title).with_duration(duration);
    for result in results {
        report.push(result);
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_partition_leaves_the_title() {
        assert_eq!(
            run_title("mcptest run evals (partition hash:1/4: 3 of 9 tests) (2 trials each: x)"),
            "mcptest run evals (2 trials each: x)"
        );
        assert_eq!(run_title("mcptest run evals"), "mcptest run evals");
    }
}
