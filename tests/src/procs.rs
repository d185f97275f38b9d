//! Reading the process table (Linux `/proc`) to prove that no server process
//! outlives its test: not the server, not its children, not as a zombie.

use std::time::{Duration, Instant};

/// One row of the process table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessRow {
    /// Process id.
    pub pid: u32,
    /// State letter (`R`, `S`, `Z` for zombie, ...).
    pub state: char,
    /// Parent process id.
    pub ppid: u32,
    /// Process group id.
    pub pgrp: u32,
    /// Command name.
    pub comm: String,
}

/// The row for `pid`, if such a process exists (zombies included).
pub fn process(pid: u32) -> Option<ProcessRow> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&stat)
}

fn parse_stat(stat: &str) -> Option<ProcessRow> {
    // `pid (comm) state ppid pgrp ...`; comm may contain spaces and parens.
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let pid = stat[..open].trim().parse().ok()?;
    let comm = stat[open + 1..close].to_owned();
    let mut rest = stat[close + 1..].split_whitespace();
    let state = rest.next()?.chars().next()?;
    let ppid = rest.next()?.parse().ok()?;
    let pgrp = rest.next()?.parse().ok()?;
    Some(ProcessRow {
        pid,
        state,
        ppid,
        pgrp,
        comm,
    })
}

/// Every process in process group `pgrp`.
pub fn group(pgrp: u32) -> Vec<ProcessRow> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(process)
        .filter(|row| row.pgrp == pgrp)
        .collect()
}

/// Children of this test process that are zombies (exited, never reaped).
pub fn zombie_children() -> Vec<ProcessRow> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(process)
        .filter(|row| row.ppid == me && row.state == 'Z')
        .collect()
}

/// True for a process that still runs, or that is a zombie this test process
/// should have reaped. A zombie owned by another parent has been killed; its
/// reaping is that parent's job (orphans go to PID 1, which may be slow).
fn lingers(row: &ProcessRow) -> bool {
    row.state != 'Z' || row.ppid == std::process::id()
}

/// Panics unless the process `pid` and every member of its process group are
/// gone within `within`: not running, and not a zombie of this process.
pub fn assert_gone(pid: u32, within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let leader = process(pid).filter(lingers);
        let members: Vec<ProcessRow> = group(pid).into_iter().filter(lingers).collect();
        if leader.is_none() && members.is_empty() {
            return;
        }
        if Instant::now() >= deadline {
            panic!(
                "process {pid} or its group outlived the client:\n  leader: {leader:?}\n  group: {members:?}"
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_stat_line_with_odd_names() {
        let row = parse_stat("4242 (my (odd) server) S 1 4242 4242 0 -1 ...").unwrap();
        assert_eq!(row.pid, 4242);
        assert_eq!(row.comm, "my (odd) server");
        assert_eq!((row.state, row.ppid, row.pgrp), ('S', 1, 4242));
    }

    #[test]
    fn finds_this_process() {
        let me = process(std::process::id()).expect("this process is listed");
        assert_eq!(me.pid, std::process::id());
    }
}
