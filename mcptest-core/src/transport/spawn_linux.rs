//! Spawning a server on Linux the way `posix_spawn` does — a child that
//! shares the parent's memory until it execs (`CLONE_VM | CLONE_VFORK`),
//! so nothing of a large test process is copied — with the one step
//! `posix_spawn` cannot take: the parent-death signal (`PR_SET_PDEATHSIG`),
//! so that a server dies with the thread that started it even when
//! mcptest is killed with SIGKILL and runs no destructor. std's `Command`
//! would need a `pre_exec` hook for that step, and a hook makes it fork.
//!
//! The child runs on a stack of its own and makes only system calls:
//! every signal is blocked across the clone, the child resets each caught
//! signal to its default before it unblocks them (a handler of the parent
//! must never run on the shared memory), wires the pipes, joins a process
//! group of its own, sets the parent-death signal, changes directory and
//! execs. A failure before the exec is handed back through the shared
//! memory, which the parent reads once the child has exec'd or exited.

use std::{
    ffi::{CString, OsStr, OsString},
    io,
    os::{
        fd::{AsRawFd, FromRawFd, OwnedFd, RawFd},
        unix::ffi::{OsStrExt, OsStringExt},
    },
    path::{Path, PathBuf},
};

use super::launch::Launch;

/// A started child: its pid and the parent's ends of its three pipes.
pub(super) struct Child {
    pub(super) pid: u32,
    pub(super) stdin: OwnedFd,
    pub(super) stdout: OwnedFd,
    pub(super) stderr: OwnedFd,
}

/// The child's stack: its own system calls need little.
const STACK: usize = 64 * 1024;

/// What the child needs, prepared by the parent (the child allocates nothing).
#[repr(C)]
struct Context {
    path: *const libc::c_char,
    argv: *const *const libc::c_char,
    envp: *const *const libc::c_char,
    /// Null for the parent's working directory.
    cwd: *const libc::c_char,
    /// The child's ends of stdin, stdout and stderr.
    fds: [RawFd; 3],
    parent: libc::pid_t,
    /// Set by the child when a step before the exec (or the exec) fails.
    error: libc::c_int,
}

/// Starts `launch` with three pipes, in a process group of its own, with
/// the parent-death signal set. `Ok(None)` when the system refuses the
/// clone itself (a sandbox that forbids it): the caller falls back to a fork.
pub(super) fn spawn(launch: &Launch) -> io::Result<Option<Child>> {
    let env = environment(&launch.env);
    let path = resolve(&launch.program, &env, launch.current_dir.as_deref())?;
    let path = cstring(path.as_os_str())?;
    let argv: Vec<CString> = std::iter::once(cstring(OsStr::new(&launch.program))?)
        .chain(
            launch
                .args
                .iter()
                .map(|a| cstring(OsStr::new(a)))
                .collect::<io::Result<Vec<_>>>()?,
        )
        .collect();
    let envp: Vec<CString> = env
        .iter()
        .map(|(k, v)| {
            let mut pair = k.clone().into_vec();
            pair.push(b'=');
            pair.extend_from_slice(v.as_bytes());
            cstring(OsStr::from_bytes(&pair))
        })
        .collect::<io::Result<_>>()?;
    let cwd = launch
        .current_dir
        .as_deref()
        .map(|d| cstring(d.as_os_str()))
        .transpose()?;
    let argv_ptrs: Vec<*const libc::c_char> = argv
        .iter()
        .map(|a| a.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect();
    let envp_ptrs: Vec<*const libc::c_char> = envp
        .iter()
        .map(|e| e.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect();

    let (stdin_read, stdin_write) = pipe()?;
    let (stdout_read, stdout_write) = pipe()?;
    let (stderr_read, stderr_write) = pipe()?;
    let mut context = Context {
        path: path.as_ptr(),
        argv: argv_ptrs.as_ptr(),
        envp: envp_ptrs.as_ptr(),
        cwd: cwd.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
        fds: [
            stdin_read.as_raw_fd(),
            stdout_write.as_raw_fd(),
            stderr_write.as_raw_fd(),
        ],
        // SAFETY: getpid has no preconditions.
        parent: unsafe { libc::getpid() },
        error: 0,
    };
    let mut stack = vec![0u8; STACK];
    // SAFETY: the stack grows down from its end, aligned to 16 bytes as
    // the ABI requires; it outlives the child's use of it, which ends at
    // its exec or exit, before `clone` returns (CLONE_VFORK).
    let top = unsafe { stack.as_mut_ptr().add(STACK) };
    let top = (top as usize & !15) as *mut libc::c_void;

    // SAFETY: every signal is blocked in this thread across the clone (the
    // child inherits the mask and unblocks only after resetting the
    // handlers), then the thread's mask is restored. `context` and every
    // pointer in it stay alive and unmoved until `clone` returns, which
    // with CLONE_VFORK is after the child has exec'd or exited; the child
    // runs `child_main` only, which makes system calls and allocates nothing.
    let pid = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        let pid = libc::clone(
            child_main,
            top,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&mut context as *mut Context).cast(),
        );
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        pid
    };
    drop(stack);
    if pid < 0 {
        return Ok(None);
    }
    // Written by the child through the shared memory.
    // SAFETY: a plain read of a field of a live local.
    let error = unsafe { std::ptr::read_volatile(&context.error) };
    if error != 0 {
        // The child has exited: reap it before reporting.
        // SAFETY: waitpid on our own child, with a status the call fills in.
        unsafe {
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
        }
        return Err(io::Error::from_raw_os_error(error));
    }
    Ok(Some(Child {
        pid: pid as u32,
        stdin: stdin_write,
        stdout: stdout_read,
        stderr: stderr_read,
    }))
}

/// Hands the failed step's error to the parent and ends the child.
///
/// # Safety
/// Only in the child, with `context` the parent's.
unsafe fn fail(context: &mut Context) -> ! {
    // SAFETY: errno of this thread (the suspended parent's), then exit
    // without running anything of the parent's.
    unsafe {
        context.error = *libc::__errno_location();
        if context.error == 0 {
            context.error = libc::ECHILD;
        }
        libc::_exit(127)
    }
}

/// The child, on its own stack, sharing the parent's memory until it execs.
extern "C" fn child_main(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the parent's `Context`, alive until this child execs
    // or exits. Only system calls follow: no allocation, no lock, no
    // unwinding; errno is the suspended parent thread's, read back by it.
    unsafe {
        let context = &mut *arg.cast::<Context>();
        // A caught signal back to its default before any can be delivered;
        // ignored ones stay ignored across exec, except SIGPIPE, which the
        // Rust runtime ignores for itself (as std's spawn resets it).
        let mut action: libc::sigaction = std::mem::zeroed();
        for signal in 1..=64 {
            if libc::sigaction(signal, std::ptr::null(), &mut action) == 0
                && (action.sa_sigaction != libc::SIG_IGN || signal == libc::SIGPIPE)
                && action.sa_sigaction != libc::SIG_DFL
            {
                action.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        for (target, fd) in context.fds.into_iter().enumerate() {
            // dup2 clears close-on-exec on the copy; the pipes' own
            // descriptors close at the exec.
            if libc::dup2(fd, target as libc::c_int) < 0 {
                fail(context);
            }
        }
        if libc::setpgid(0, 0) != 0 {
            fail(context);
        }
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
            fail(context);
        }
        // The parent died before the signal was set: it will not come.
        if libc::getppid() != context.parent {
            libc::_exit(127);
        }
        if !context.cwd.is_null() && libc::chdir(context.cwd) != 0 {
            fail(context);
        }
        libc::execve(context.path, context.argv, context.envp);
        fail(context)
    }
}

/// A pipe whose two ends close on exec, both above the standard three (a
/// process started with its stdin closed gets descriptor 0 back from the
/// system, and the child's `dup2` onto 0, 1 and 2 must never meet itself).
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills the two descriptors, whose ownership passes to
    // the `OwnedFd`s below.
    let (read, write) = unsafe {
        if libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return Err(io::Error::last_os_error());
        }
        (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
    };
    Ok((above_stdio(read)?, above_stdio(write)?))
}

fn above_stdio(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > 2 {
        return Ok(fd);
    }
    // SAFETY: F_DUPFD_CLOEXEC returns a new descriptor (or -1), owned by
    // the `OwnedFd` below; the low one closes as `fd` drops.
    unsafe {
        let moved = libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3);
        if moved < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(OwnedFd::from_raw_fd(moved))
    }
}

fn cstring(text: &OsStr) -> io::Result<CString> {
    CString::new(text.as_bytes()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} holds a NUL byte", text.to_string_lossy()),
        )
    })
}

/// The parent's environment with `added` on top (a name given again
/// replaces the parent's value).
fn environment(added: &[(String, String)]) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(k, _)| !added.iter().any(|(a, _)| OsStr::new(a) == k))
        .collect();
    env.extend(
        added
            .iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v))),
    );
    env
}

/// The file to exec: a program with a `/` as given (relative to the new
/// working directory, where the exec happens), a bare name searched on the
/// child's `PATH` as `execvp` would. Not found is `NotFound`.
pub(super) fn resolve(
    program: &str,
    env: &[(OsString, OsString)],
    cwd: Option<&Path>,
) -> io::Result<PathBuf> {
    if program.contains('/') {
        return Ok(PathBuf::from(program));
    }
    let path = env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| OsString::from("/usr/local/bin:/usr/bin:/bin"));
    for dir in std::env::split_paths(&path) {
        let dir = match (dir.is_relative(), cwd) {
            (true, Some(cwd)) => cwd.join(dir),
            _ => dir,
        };
        let candidate = dir.join(program);
        if is_executable(&candidate) {
            return Ok(candidate);
        }
    }
    Err(io::Error::from(io::ErrorKind::NotFound))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_name_is_found_on_the_child_s_path_and_a_missing_one_is_not_found() {
        let env = vec![(
            OsString::from("PATH"),
            OsString::from("/nowhere:/bin:/usr/bin"),
        )];
        let found = resolve("sh", &env, None).unwrap();
        assert!(found.ends_with("sh") && found.is_absolute(), "{found:?}");
        let missing = resolve("no-such-program-mcptest", &env, None).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        assert_eq!(resolve("./x", &env, None).unwrap(), PathBuf::from("./x"));
    }

    #[test]
    fn a_failed_exec_is_reported_and_the_child_reaped() {
        let launch = Launch {
            program: "/nonexistent/mcptest-program".into(),
            args: vec![],
            env: vec![],
            current_dir: None,
        };
        let error = spawn(&launch).err().expect("the exec fails");
        assert_eq!(error.kind(), io::ErrorKind::NotFound, "{error}");
    }

    #[test]
    fn the_child_gets_its_arguments_environment_directory_and_group() {
        let dir = tempfile::tempdir().unwrap();
        let launch = Launch {
            program: "sh".into(),
            args: vec![
                "-c".into(),
                "echo \"$0 $MCPTEST_SPAWN $(pwd) $(ps -o pgid= -p $$)\"; echo err >&2".into(),
            ],
            env: vec![("MCPTEST_SPAWN".into(), "yes".into())],
            current_dir: Some(dir.path().to_owned()),
        };
        let child = spawn(&launch).unwrap().expect("clone is allowed here");
        drop(child.stdin);
        let mut out = String::new();
        let mut err = String::new();
        std::io::Read::read_to_string(&mut std::fs::File::from(child.stdout), &mut out).unwrap();
        std::io::Read::read_to_string(&mut std::fs::File::from(child.stderr), &mut err).unwrap();
        // SAFETY: waitpid on our own child.
        let status = unsafe {
            let mut status = 0;
            libc::waitpid(child.pid as libc::pid_t, &mut status, 0);
            status
        };
        assert_eq!(status, 0);
        let words: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(words[0], "sh");
        assert_eq!(words[1], "yes");
        assert_eq!(
            std::fs::canonicalize(words[2]).unwrap(),
            std::fs::canonicalize(dir.path()).unwrap()
        );
        assert_eq!(
            words[3],
            child.pid.to_string(),
            "a process group of its own"
        );
        assert_eq!(err.trim(), "err");
    }
}
