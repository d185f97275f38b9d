//! What the benchmarks share: where criterion writes its estimates, and the
//! report that states each candidate as a ratio against the baseline measured
//! in the same run.

use std::{path::PathBuf, time::Duration};

/// Where criterion keeps its results for this workspace.
pub fn criterion_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("criterion")
}

/// The median of `samples` (the upper one of an even count), as the
/// interleaved comparisons report each variant: a drift in the machine's
/// load moves it less than a mean. `samples` is never empty (each
/// comparison runs a fixed number of rounds).
pub fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Criterion's mean estimate, in nanoseconds, for `group/function` of the
/// run that just finished.
pub fn mean_ns(group: &str, function: &str) -> Option<f64> {
    let path = criterion_dir()
        .join(group)
        .join(function)
        .join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["mean"]["point_estimate"].as_f64()
}

/// Prints `candidate` against `baseline` as a ratio (and the target, if
/// any), e.g. `spawn-call-teardown: mcptest / hand-written = 1.04x (target <= 1.10x)`.
pub fn report_ratio(group: &str, candidate: &str, baseline: &str, target: Option<f64>) {
    match (mean_ns(group, candidate), mean_ns(group, baseline)) {
        (Some(c), Some(b)) => {
            let ratio = c / b;
            let verdict = match target {
                Some(t) if ratio <= t => format!(" (target <= {t:.2}x: met)"),
                Some(t) => format!(" (target <= {t:.2}x: MISSED)"),
                None => String::new(),
            };
            println!(
                "{group}: {candidate} {} / {baseline} {} = {ratio:.3}x{verdict}",
                human(c),
                human(b)
            );
        }
        _ => println!("{group}: no estimates for {candidate} and {baseline} (filtered out?)"),
    }
}

/// Prints how many operations per second one iteration of `group/function`
/// stands for.
pub fn report_rate(group: &str, function: &str, target_per_sec: Option<f64>) {
    if let Some(ns) = mean_ns(group, function) {
        let rate = 1e9 / ns;
        let verdict = match target_per_sec {
            Some(t) if rate >= t => format!(" (target >= {t:.0}/s: met)"),
            Some(t) => format!(" (target >= {t:.0}/s: MISSED)"),
            None => String::new(),
        };
        println!("{group}: {function} = {rate:.0} calls/s{verdict}");
    }
}

fn human(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.1} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}
