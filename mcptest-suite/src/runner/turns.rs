//! Turns: the tests `suite!` generates for one suite run one at a time,
//! whoever runs them — threads of one test binary (`cargo test`) or a
//! process per test (`cargo nextest run`) — because their servers may share
//! state (one file for every process, a fixed port), and such tests are
//! written for one at a time, in file order (as `mcptest run` replays them).
//!
//! A turn is taken in two steps: among the threads of this process (a queue
//! served lowest position first), then among processes (an advisory `flock`
//! on a file under the target directory, and a queue directory beside it
//! where each waiting process notes its position, so that the lowest
//! position goes first there too). Only the holder of a process's turn waits
//! among processes, so the lowest waiting position can always go on.
//!
//! Every wait is bounded: a test that sees one other test hold the turn for
//! longer than [`HOLD_LIMIT`] gives up with a failure that names the holder.
//! The files live under `<target>/tmp/mcptest-turns` (never the temp dir);
//! a waiting process's queue entry is removed when its turn comes, and an
//! entry whose process is gone is removed by the next process that sees it.

use std::{
    collections::BTreeSet,
    path::PathBuf,
    sync::{Condvar, Mutex, MutexGuard},
    time::{Duration, Instant},
};

/// How long one test may hold a suite's turn before the tests waiting for
/// it give up (a test's own guard is far shorter: 4 timeouts and 10 s).
pub const HOLD_LIMIT: Duration = Duration::from_secs(15 * 60);

/// How often a waiting test looks again.
const POLL: Duration = Duration::from_millis(20);

/// The turns of one suite's tests: a `static` in the code `suite!`
/// generates, keyed by the package and module of the suite.
#[derive(Debug)]
pub struct Turns {
    key: &'static str,
    /// `CARGO_TARGET_TMPDIR` where the test was compiled, if cargo set it.
    target_tmp: Option<&'static str>,
    queue: Mutex<Queue>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct Queue {
    holder: Option<Holder>,
    /// Waiting tests: (position, ticket); a ticket tells apart two runs of
    /// one position.
    waiting: BTreeSet<(usize, u64)>,
    next_ticket: u64,
}

#[derive(Debug, Clone)]
struct Holder {
    test: String,
    since: Instant,
}

/// A test's turn: the other tests of its suite wait until it is dropped.
#[derive(Debug)]
#[must_use = "the turn ends when this is dropped"]
pub struct Turn<'a> {
    turns: &'a Turns,
    #[cfg(unix)]
    across: Option<across::Held>,
}

impl Turns {
    /// The turns of the suite `key` (`package::module`); the files go under
    /// `target_tmp` (`CARGO_TARGET_TMPDIR`), or else the scratch space of
    /// the target directory this test binary was built in.
    pub const fn new(key: &'static str, target_tmp: Option<&'static str>) -> Self {
        Turns {
            key,
            target_tmp,
            queue: Mutex::new(Queue {
                holder: None,
                waiting: BTreeSet::new(),
                next_ticket: 0,
            }),
            changed: Condvar::new(),
        }
    }

    /// Waits for the turn of the test at `position` (its place in the
    /// suite, in file order) called `test`. The error says who held the
    /// turn for longer than [`HOLD_LIMIT`].
    pub fn wait(&self, position: usize, test: &str) -> Result<Turn<'_>, String> {
        self.wait_in_process(position, test)?;
        // From here the turn is held in this process: dropped, it ends.
        #[allow(unused_mut)]
        let mut turn = Turn {
            turns: self,
            #[cfg(unix)]
            across: None,
        };
        #[cfg(unix)]
        if let Some(dir) = self.dir() {
            turn.across = Some(across::Held::wait(&dir, self.key, position, test)?);
        }
        Ok(turn)
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The turn among this process's threads: lowest position first.
    fn wait_in_process(&self, position: usize, test: &str) -> Result<(), String> {
        let mut queue = self.lock();
        let me = (position, queue.next_ticket);
        queue.next_ticket += 1;
        queue.waiting.insert(me);
        loop {
            if queue.holder.is_none() && queue.waiting.first() == Some(&me) {
                break;
            }
            if let Some(holder) = &queue.holder
                && holder.since.elapsed() > HOLD_LIMIT
            {
                let why = held_too_long(&holder.test, "this process");
                queue.waiting.remove(&me);
                self.changed.notify_all();
                return Err(why);
            }
            queue = self
                .changed
                .wait_timeout(queue, POLL)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        queue.waiting.remove(&me);
        queue.holder = Some(Holder {
            test: test.to_owned(),
            since: Instant::now(),
        });
        Ok(())
    }

    /// Where the files of the turns across processes go, if anywhere.
    #[cfg(unix)]
    fn dir(&self) -> Option<PathBuf> {
        let tmp = match self.target_tmp {
            Some(dir) => PathBuf::from(dir),
            None => mcptest_core::__support::target_tmp_dir()?,
        };
        Some(tmp.join("mcptest-turns"))
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        #[cfg(unix)]
        drop(self.across.take());
        self.turns.lock().holder = None;
        self.turns.changed.notify_all();
    }
}

fn held_too_long(holder: &str, place: &str) -> String {
    format!(
        "test {holder} ({place}) has held the suite's turn for over {} minutes; a test waits at most that long for another",
        HOLD_LIMIT.as_secs() / 60
    )
}

/// The turn among processes: an advisory lock on `<key>.lock`, taken by
/// the lowest position noted in `<key>.queue/` whose process is alive.
#[cfg(unix)]
mod across {
    use std::{
        fs::{self, File, OpenOptions},
        os::fd::AsRawFd,
        path::{Path, PathBuf},
        time::Instant,
    };

    use super::{HOLD_LIMIT, POLL, held_too_long};

    /// How long a process that finds the turn free waits once, so that the
    /// lower positions started at about the same time (a process per test,
    /// started in order) can note themselves first.
    const SETTLE: std::time::Duration = std::time::Duration::from_millis(25);

    /// A process's turn; dropping it ends the turn.
    #[derive(Debug)]
    pub(super) struct Held {
        /// Holds the `flock` while open.
        _lock: File,
        holder: PathBuf,
    }

    impl Held {
        pub(super) fn wait(
            dir: &Path,
            key: &str,
            position: usize,
            test: &str,
        ) -> Result<Held, String> {
            let name = mcptest_core::__support::file_name_part(key);
            let queue = dir.join(format!("{name}.queue"));
            let problem = |what: &str, path: &Path, e: std::io::Error| {
                format!("cannot {what} {}: {e}", path.display())
            };
            fs::create_dir_all(&queue).map_err(|e| problem("create", &queue, e))?;
            let pid = std::process::id();
            let entry = queue.join(format!("{position:010}-{pid}"));
            fs::write(&entry, test).map_err(|e| problem("write", &entry, e))?;
            let waited = Entry(entry);
            let lock_path = dir.join(format!("{name}.lock"));
            let lock = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&lock_path)
                .map_err(|e| problem("open", &lock_path, e))?;
            let holder = dir.join(format!("{name}.holder"));
            std::thread::sleep(SETTLE);
            let mut seen = (String::new(), Instant::now());
            loop {
                if !lower_waiting(&queue, position, pid) && try_lock(&lock) {
                    break;
                }
                let now = fs::read_to_string(&holder).unwrap_or_default();
                if now != seen.0 {
                    seen = (now, Instant::now());
                } else if !seen.0.is_empty() && seen.1.elapsed() > HOLD_LIMIT {
                    return Err(held_too_long(&seen.0, "another process"));
                }
                std::thread::sleep(POLL);
            }
            drop(waited);
            // Who holds the turn, for the message of a test that gives up.
            let _ = fs::write(&holder, format!("`{test}` (process {pid})"));
            Ok(Held {
                _lock: lock,
                holder,
            })
        }
    }

    impl Drop for Held {
        fn drop(&mut self) {
            let _ = fs::write(&self.holder, "");
        }
    }

    /// A queue entry, removed when dropped (the turn came, or the wait
    /// gave up).
    struct Entry(PathBuf);

    impl Drop for Entry {
        fn drop(&mut self) {
            let _ = fs::remove_file(&self.0);
        }
    }

    /// Whether another live process waits with a lower position; the
    /// entries of processes that are gone are removed.
    fn lower_waiting(queue: &Path, position: usize, me: u32) -> bool {
        let Ok(entries) = fs::read_dir(queue) else {
            return false;
        };
        let mut lower = false;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some((theirs, pid)) = name.to_str().and_then(|n| n.split_once('-')) else {
                continue;
            };
            let (Ok(theirs), Ok(pid)) = (theirs.parse::<usize>(), pid.parse::<u32>()) else {
                continue;
            };
            if pid == me {
                continue;
            }
            if !alive(pid) {
                let _ = fs::remove_file(entry.path());
            } else if theirs < position {
                lower = true;
            }
        }
        lower
    }

    fn alive(pid: u32) -> bool {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 only checks that the process exists.
        let sent = unsafe { libc::kill(pid, 0) };
        sent == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }

    fn try_lock(file: &File) -> bool {
        // SAFETY: the descriptor is open for as long as `file` lives; the
        // lock is released when it closes.
        unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, atomic::AtomicUsize, atomic::Ordering};

    static TURNS: Turns = Turns::new("mcptest-suite::turns::tests", None);

    #[test]
    fn tests_of_one_suite_take_turns_lowest_position_first() {
        let first = TURNS.wait(0, "first").unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let inside = Arc::new(AtomicUsize::new(0));
        let waiters: Vec<_> = [3usize, 1, 2]
            .into_iter()
            .map(|position| {
                let (order, inside) = (order.clone(), inside.clone());
                std::thread::spawn(move || {
                    let _turn = TURNS.wait(position, "waiter").unwrap();
                    assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0, "one at a time");
                    order.lock().unwrap().push(position);
                    std::thread::sleep(Duration::from_millis(20));
                    inside.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        // Every waiter is queued before the first turn ends.
        let deadline = Instant::now() + Duration::from_secs(10);
        while TURNS.lock().waiting.len() < 3 {
            assert!(Instant::now() < deadline, "the waiters did not queue");
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(first);
        for waiter in waiters {
            waiter.join().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), [1, 2, 3]);
    }
}
