//! Byte-level plumbing under rmcp: the child process, newline-delimited
//! JSON-RPC, and what the wire showed besides valid answers.

pub(crate) mod endpoint;
pub(crate) mod inbound;
mod launch;
pub(crate) mod lines;
pub(crate) mod process;
mod refused;
#[cfg(target_os = "linux")]
mod spawn_linux;
pub(crate) mod stderr;

/// Whether `program` would be found on this process's `PATH` by the spawn
/// of a server (a bare name searched as `execvp` does).
#[cfg(target_os = "linux")]
pub(crate) fn on_path(program: &str) -> bool {
    let env: Vec<_> = std::env::var_os("PATH")
        .map(|path| (std::ffi::OsString::from("PATH"), path))
        .into_iter()
        .collect();
    spawn_linux::resolve(program, &env, None).is_ok()
}

/// Elsewhere the spawn itself says when a program is missing.
#[cfg(not(target_os = "linux"))]
pub(crate) fn on_path(_program: &str) -> bool {
    true
}
