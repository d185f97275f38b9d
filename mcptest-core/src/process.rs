//! The server's child processes: started in a process group of their own,
//! always killed (the whole group) and reaped — on close, on drop, when a
//! test panics — with the tail of their stderr kept for error messages.
//!
//! The harness uses this for every stdio server; the floors built on the
//! core (client conformance, the plugin host, the command line) use it for
//! the other programs they run, so that every child of mcptest ends the same
//! way.
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcptest::Error> {
//! use std::time::Duration;
//! use mcptest::process::{ChildProcess, Launch, StderrTail};
//!
//! let launch = Launch::command("my-mcp-client --stdio")?;
//! let spawned = ChildProcess::spawn(&launch)?;
//! let stderr = StderrTail::spawn_reader(spawned.stderr);
//! // ... talk to it over spawned.stdin / spawned.stdout ...
//! spawned.process.wait_for_exit(Duration::from_secs(5)).await;
//! spawned.process.shutdown(Duration::from_millis(100)).await; // kill the group, reap
//! println!("it said: {}", stderr.text());
//! # Ok(()) }
//! ```

pub use crate::command::split as split_command;
pub use crate::transport::process::{ChildProcess, Launch, Spawned, SpawnedParts, kill_all};
pub use crate::transport::stderr::StderrTail;
