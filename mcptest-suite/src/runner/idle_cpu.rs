//! How many cores sat idle lately, machine-wide: what the runner reads to
//! start more tests while servers start up (waiting on imports
//! and disk, not computing). Linux reads `/proc/stat`; elsewhere there is
//! no reading, and the run keeps its fixed number of jobs.

use std::time::Instant;

/// Successive readings of the machine's CPU time.
pub(super) struct IdleCpu {
    cores: f64,
    last: Times,
    /// When `last` was read: a reading needs some time between them.
    at: Instant,
}

#[derive(Clone, Copy)]
struct Times {
    idle: u64,
    total: u64,
}

impl IdleCpu {
    /// The first reading; `None` where the machine's CPU time cannot be read.
    pub(super) fn new(cores: usize) -> Option<IdleCpu> {
        Some(IdleCpu {
            cores: cores as f64,
            last: read()?,
            at: Instant::now(),
        })
    }

    /// Idle cores (0 to the number of cores) since the last call; `None`
    /// when too little time passed to tell, or the reading failed.
    pub(super) fn idle_cores(&mut self) -> Option<f64> {
        if self.at.elapsed().as_millis() < 50 {
            return None;
        }
        let now = read()?;
        let total = now.total.checked_sub(self.last.total)?;
        let idle = now.idle.checked_sub(self.last.idle)?;
        self.last = now;
        self.at = Instant::now();
        if total == 0 {
            return None;
        }
        Some(self.cores * idle as f64 / total as f64)
    }
}

#[cfg(target_os = "linux")]
fn read() -> Option<Times> {
    parse(&std::fs::read_to_string("/proc/stat").ok()?)
}

#[cfg(not(target_os = "linux"))]
fn read() -> Option<Times> {
    None
}

/// The first line of /proc/stat: `cpu user nice system idle iowait irq
/// softirq steal ...` in clock ticks; idle is idle + iowait (a core waiting
/// on the disk could run a test).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn parse(stat: &str) -> Option<Times> {
    let line = stat.lines().next()?.strip_prefix("cpu ")?;
    let ticks: Vec<u64> = line
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    // guest and guest_nice (9th, 10th) are already counted in user and nice.
    let total = ticks.iter().take(8).sum();
    let idle = ticks.get(3)? + ticks.get(4).copied().unwrap_or(0);
    Some(Times { idle, total })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_is_idle_and_iowait_of_the_first_eight_fields() {
        let t = parse("cpu  100 0 50 800 50 0 0 0 7 7\ncpu0 1 2 3 4\n").unwrap();
        assert_eq!((t.idle, t.total), (850, 1000));
        assert!(parse("intr 1 2 3").is_none());
        assert!(parse("cpu  1 x 3").is_none());
    }
}
