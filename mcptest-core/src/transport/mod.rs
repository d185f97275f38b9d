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
