//! The server's child process: spawned in its own process group (on Linux
//! without a fork, see `spawn_linux`), and always killed and reaped — on
//! close, on drop, and when a test panics.

use std::{
    collections::BTreeSet,
    path::PathBuf,
    process::{ExitStatus, Stdio},
    sync::Mutex,
    time::{Duration, Instant},
};

use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command};

pub use super::launch::Launch;
use crate::error::Error;

/// How often exit is polled while waiting. Polling `waitpid(WNOHANG)` needs no
/// runtime, so the same code serves `Drop` and async close.
const POLL: Duration = Duration::from_millis(2);
/// After SIGKILL, how long to wait for the kernel to let us reap.
const REAP_AFTER_KILL: Duration = Duration::from_secs(5);

/// A started child with its three pipes.
#[derive(Debug)]
pub struct Spawned {
    /// The process: kill and reap it with [`ChildProcess::shutdown`].
    pub process: ChildProcess,
    /// Its standard input.
    pub stdin: ChildStdin,
    /// Its standard output.
    pub stdout: ChildStdout,
    /// Its standard error; hand it to [`StderrTail::spawn_reader`](crate::__support::process::StderrTail::spawn_reader)
    /// so that a chatty child never blocks on a full pipe.
    pub stderr: ChildStderr,
}

/// The same, with each pipe as the operating system handed it over: a host
/// that wants to report a missing pipe as an error rather than a panic
/// starts from this.
#[derive(Debug)]
pub struct SpawnedParts {
    /// The process.
    pub process: ChildProcess,
    /// Its standard input, if the system gave one.
    pub stdin: Option<ChildStdin>,
    /// Its standard output, if the system gave one.
    pub stdout: Option<ChildStdout>,
    /// Its standard error, if the system gave one.
    pub stderr: Option<ChildStderr>,
}

/// The process groups of the children started and not yet reaped (a
/// group's id is its leader's pid, reserved until the leader is reaped), for
/// [`kill_all`].
static LIVE_GROUPS: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// Kills the process group of every child started and not yet reaped, and
/// says how many. For a program about to exit on a signal: its destructors
/// will not run, and the children are in process groups of their own, so
/// the terminal's Ctrl-C does not reach them.
pub fn kill_all() -> usize {
    let live = LIVE_GROUPS.lock().unwrap_or_else(|p| p.into_inner());
    for &pid in live.iter() {
        kill_group_of(pid);
    }
    live.len()
}

#[cfg(unix)]
fn kill_group_of(pid: u32) {
    // SAFETY: sending a signal has no memory-safety preconditions. The group
    // id is our child's pid, reserved until we reap the child.
    unsafe {
        libc::killpg(pid as libc::pid_t, libc::SIGKILL);
    }
}

#[cfg(not(unix))]
fn kill_group_of(_pid: u32) {}

/// How the child is reaped: through tokio's handle, or by pid for a child
/// spawned without it.
enum Handle {
    Tokio(Child),
    #[cfg(target_os = "linux")]
    Pid(u32),
}

impl Handle {
    fn try_wait(&mut self) -> std::io::Result<Option<ExitStatus>> {
        match self {
            Handle::Tokio(child) => child.try_wait(),
            #[cfg(target_os = "linux")]
            Handle::Pid(pid) => {
                use std::os::unix::process::ExitStatusExt;
                let mut status = 0;
                // SAFETY: waitpid on our own child, with a status the call fills in.
                match unsafe { libc::waitpid(*pid as libc::pid_t, &mut status, libc::WNOHANG) } {
                    0 => Ok(None),
                    n if n > 0 => Ok(Some(ExitStatus::from_raw(status))),
                    _ => Err(std::io::Error::last_os_error()),
                }
            }
        }
    }

    #[cfg(not(unix))]
    fn start_kill(&mut self) -> std::io::Result<()> {
        match self {
            Handle::Tokio(child) => child.start_kill(),
        }
    }
}

/// A child in a process group of its own, killed (the whole group) and
/// reaped when it is shut down or dropped, also when the thread is
/// panicking.
pub struct ChildProcess {
    child: Mutex<Option<Handle>>,
    pid: Option<u32>,
    status: Mutex<Option<ExitStatus>>,
    /// A pidfd of the child, opened at spawn (before anything can reap it,
    /// so it names our child and no later process with its pid).
    #[cfg(target_os = "linux")]
    pidfd: Option<std::os::fd::OwnedFd>,
}

impl std::fmt::Debug for ChildProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChildProcess")
            .field("pid", &self.pid)
            .finish_non_exhaustive()
    }
}

impl ChildProcess {
    /// Starts `launch` with all three pipes, in a process group of its own.
    /// A program that cannot be found is [`Error::Spawn`] naming the
    /// directories searched.
    ///
    /// On Linux the kernel also kills the process when the thread that
    /// spawned it ends (`PR_SET_PDEATHSIG`), so an mcptest killed with
    /// SIGKILL, which runs no destructor, leaves no server behind. Spawn from
    /// a thread that lives as long as the server (a test's thread, a
    /// runtime's worker; not a `spawn_blocking` thread, which ends when
    /// idle). What the signal does not reach: a grandchild the server starts,
    /// once its parent is gone, unless it stays in the server's process group
    /// and the group is killed.
    pub fn spawn(launch: &Launch) -> Result<Spawned, Error> {
        let parts = Self::spawn_parts(launch)?;
        Ok(Spawned {
            process: parts.process,
            stdin: parts.stdin.expect("stdin was piped"),
            stdout: parts.stdout.expect("stdout was piped"),
            stderr: parts.stderr.expect("stderr was piped"),
        })
    }

    /// Spawns `launch` with all three pipes requested, killed and reaped
    /// like every child (and tied to its spawning thread, as [`spawn`](Self::spawn)).
    pub fn spawn_parts(launch: &Launch) -> Result<SpawnedParts, Error> {
        let spawn_error = |source: std::io::Error| Error::Spawn {
            program: launch.program.clone(),
            searched: searched_path(&launch.program, &source),
            source,
        };
        // Without fork: a large test process is not copied for each server.
        #[cfg(target_os = "linux")]
        if let Some(child) = super::spawn_linux::spawn(launch).map_err(spawn_error)? {
            let stdin = ChildStdin::from_std(std::process::ChildStdin::from(child.stdin));
            let stdout = ChildStdout::from_std(std::process::ChildStdout::from(child.stdout));
            let stderr = ChildStderr::from_std(std::process::ChildStderr::from(child.stderr));
            let process = ChildProcess::started(Handle::Pid(child.pid), Some(child.pid));
            return match (stdin, stdout, stderr) {
                (Ok(stdin), Ok(stdout), Ok(stderr)) => Ok(SpawnedParts {
                    process,
                    stdin: Some(stdin),
                    stdout: Some(stdout),
                    stderr: Some(stderr),
                }),
                // `process` is killed and reaped as it drops.
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Err(spawn_error(e)),
            };
        }

        let mut command = Command::new(&launch.program);
        command
            .args(&launch.args)
            .envs(launch.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // The backstop if everything else is skipped (e.g. a leaked client).
            .kill_on_drop(true);
        if let Some(dir) = &launch.current_dir {
            command.current_dir(dir);
        }
        // Its own process group, so that teardown reaches whatever the server
        // starts in turn (`npx` → `node`, shell wrappers, workers).
        #[cfg(unix)]
        command.process_group(0);
        // Where the system refused the clone of `spawn_linux`: a fork.
        #[cfg(target_os = "linux")]
        {
            // SAFETY: the closure runs in the forked child before exec and only
            // makes one async-signal-safe system call.
            unsafe {
                command.pre_exec(|| {
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == 0 {
                        Ok(())
                    } else {
                        Err(std::io::Error::last_os_error())
                    }
                });
            }
        }

        let mut child = command.spawn().map_err(spawn_error)?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let pid = child.id();
        Ok(SpawnedParts {
            process: ChildProcess::started(Handle::Tokio(child), pid),
            stdin,
            stdout,
            stderr,
        })
    }

    /// A child just started: remembered for [`kill_all`] until reaped.
    fn started(handle: Handle, pid: Option<u32>) -> ChildProcess {
        if let Some(pid) = pid {
            LIVE_GROUPS
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(pid);
        }
        ChildProcess {
            child: Mutex::new(Some(handle)),
            #[cfg(target_os = "linux")]
            pidfd: pid.and_then(pidfd_open),
            pid,
            status: Mutex::new(None),
        }
    }

    /// The operating system's id of the server process.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// The exit status, if the process has exited (reaping it if so).
    pub fn try_status(&self) -> Option<ExitStatus> {
        if let Some(status) = *self.status.lock().unwrap_or_else(|p| p.into_inner()) {
            return Some(status);
        }
        if !self.leader_exited() {
            return None;
        }
        // The leader is a zombie now: its pid (and so our process group id) is
        // still reserved, so the group can be killed without risk of hitting an
        // unrelated process. Take any stragglers down with it before reaping.
        self.kill_group();
        self.reap()
    }

    /// Waits up to `limit` for the process to exit by itself.
    pub async fn wait_for_exit(&self, limit: Duration) -> Option<ExitStatus> {
        if let Some(status) = self.try_status() {
            return Some(status);
        }
        let deadline = Instant::now() + limit;
        #[cfg(target_os = "linux")]
        if let Some(watch) = self.exit_watch()
            && tokio::time::timeout(limit, watch.exited()).await.is_ok()
        {
            // The event fires at exit; the status can be collected at once.
            return self.try_status();
        }
        loop {
            if let Some(status) = self.try_status() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits `grace` for the server to exit (its stdin must already be closed),
    /// then kills the whole process group and reaps the leader.
    pub async fn shutdown(&self, grace: Duration) -> Option<ExitStatus> {
        if let Some(status) = self.wait_for_exit(grace).await {
            return Some(status);
        }
        self.kill_group();
        self.wait_for_exit(REAP_AFTER_KILL).await
    }

    /// The same as [`shutdown`](Self::shutdown) without a runtime: for `Drop`,
    /// which may run while a test unwinds.
    pub fn shutdown_blocking(&self, grace: Duration) -> Option<ExitStatus> {
        let wait = |limit: Duration| {
            let deadline = Instant::now() + limit;
            loop {
                if let Some(status) = self.try_status() {
                    return Some(status);
                }
                if Instant::now() >= deadline {
                    return None;
                }
                std::thread::sleep(POLL);
            }
        };
        if let Some(status) = wait(grace) {
            return Some(status);
        }
        self.kill_group();
        wait(REAP_AFTER_KILL)
    }

    fn reap(&self) -> Option<ExitStatus> {
        let mut guard = self.child.lock().unwrap_or_else(|p| p.into_inner());
        let child = guard.as_mut()?;
        // Held across the reap, so that `kill_all` never signals a group id
        // that the reap has freed for reuse.
        let mut live = LIVE_GROUPS.lock().unwrap_or_else(|p| p.into_inner());
        match child.try_wait() {
            Ok(Some(status)) => {
                if let Some(pid) = self.pid {
                    live.remove(&pid);
                }
                drop(live);
                *self.status.lock().unwrap_or_else(|p| p.into_inner()) = Some(status);
                guard.take();
                Some(status)
            }
            Ok(None) | Err(_) => None,
        }
    }

    /// True when the group leader has exited, without reaping it.
    #[cfg(unix)]
    fn leader_exited(&self) -> bool {
        let Some(pid) = self.pid else { return true };
        if self
            .child
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_none()
        {
            return true;
        }
        // SAFETY: waitid with WNOWAIT only inspects the state of our own child;
        // `info` is a plain C struct that the call fills in.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let rc = libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            rc == 0 && info.si_pid() != 0
        }
    }

    #[cfg(not(unix))]
    fn leader_exited(&self) -> bool {
        let mut guard = self.child.lock().unwrap_or_else(|p| p.into_inner());
        match guard.as_mut() {
            Some(child) => matches!(child.try_wait(), Ok(Some(_))),
            None => true,
        }
    }

    #[cfg(unix)]
    fn kill_group(&self) {
        if let Some(pid) = self.pid {
            kill_group_of(pid);
        }
    }

    #[cfg(not(unix))]
    fn kill_group(&self) {
        if let Some(child) = self
            .child
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_mut()
        {
            let _ = child.start_kill();
        }
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        if self
            .status
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_none()
        {
            self.shutdown_blocking(Duration::ZERO);
        }
        // Killed but not reaped in time (the runtime reaps it later): its id
        // may be reused then, so `kill_all` forgets it now.
        if let Some(pid) = self.pid {
            LIVE_GROUPS
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&pid);
        }
    }
}

/// An event at the child's exit, without reaping it: a pidfd (Linux 5.3+)
/// in the runtime's reactor, so waiting costs no timer ticks. Taken by the
/// reader of the server's stdout, which must not wait for an end of file
/// that a grandchild holding the pipe would never give.
#[cfg(target_os = "linux")]
pub(crate) struct ExitWatch(tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>);

#[cfg(target_os = "linux")]
impl ExitWatch {
    /// Resolves once the process has exited (at once if it has).
    pub(crate) async fn exited(&self) {
        if self.0.readable().await.is_err() {
            // The reactor refused the descriptor: never resolve, as if
            // there were no event (the caller's own bounds apply).
            std::future::pending::<()>().await;
        }
    }
}

impl ChildProcess {
    /// A watch on the child's exit, where the system offers one (and a
    /// runtime is running).
    #[cfg(target_os = "linux")]
    pub(crate) fn exit_watch(&self) -> Option<ExitWatch> {
        use tokio::io::{Interest, unix::AsyncFd};
        let fd = self.pidfd.as_ref()?.try_clone().ok()?;
        tokio::runtime::Handle::try_current().ok()?;
        AsyncFd::with_interest(fd, Interest::READABLE)
            .ok()
            .map(ExitWatch)
    }
}

/// A pidfd of process `pid`; `None` where pidfds are unavailable.
#[cfg(target_os = "linux")]
fn pidfd_open(pid: u32) -> Option<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd;
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor
    // (or -1); ownership of that descriptor passes to `OwnedFd` below.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    if fd < 0 {
        return None;
    }
    // SAFETY: `fd` was just returned by pidfd_open and is owned by nobody else.
    Some(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd as i32) })
}

/// The `PATH` directories searched for a bare program name that was not found.
fn searched_path(program: &str, error: &std::io::Error) -> Vec<PathBuf> {
    if error.kind() != std::io::ErrorKind::NotFound || program.contains(std::path::MAIN_SEPARATOR) {
        return Vec::new();
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).collect()
}
