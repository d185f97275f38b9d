//! What mcptest's own crates (the suite runner, conformance, scans, the
//! coprocess and the command) use of the core beyond a test's API. Not a
//! public API: nothing here is promised to users, and it changes whenever
//! those crates need it to. A test author's names are at the crate root and
//! in its public modules.
//!
//! - [`process`]: child processes in a process group of their own, always
//!   killed and reaped, with the tail of their stderr kept;
//! - text as every front end shows it: [`safe_text`] (server text made
//!   visible-safe), [`is_unsafe`], [`fmt_duration`], and the value wording of
//!   checks ([`quoted`], [`quoted_list`], [`kind_of`]), colour on a terminal
//!   ([`color_enabled`]);
//! - JSON-RPC and cassette plumbing: [`is_response`], [`interactions`],
//!   [`CASSETTE_MISS`];
//! - names on disk: [`file_name_part`] (any text as part of a file name),
//!   [`target_tmp_dir`] (a test binary's scratch space under the target
//!   directory);
//! - [`LOG_LEVELS`], the names of MCP's log levels (what
//!   [`LogLevel::name`](crate::LogLevel::name) reads);
//! - [`oauth`]: the discovery behind `Server::client_credentials`;
//! - [`sse`]: raw access to an HTTP+SSE server (conformance's transport checks).

pub use crate::cassette::reading::{CASSETTE_MISS, Interaction, interactions};
pub use crate::error::fmt_duration;
pub use crate::expect::failure::color_enabled;
pub use crate::fixture::{file_name_part, target_tmp_dir};
pub use crate::raw::is_response;
pub use crate::report::safe::{is_unsafe, safe_text};
pub use crate::wording::{kind_of, quoted, quoted_list};
pub use mcptest_suite_format::LOG_LEVELS;

/// Child processes in a process group of their own, always killed (the
/// whole group) and reaped, with the tail of their stderr kept (see
/// [`ChildProcess`](process::ChildProcess)).
pub mod process {
    pub use crate::command::split as split_command;
    pub use crate::server::container::found_runtime as container_runtime;
    pub use crate::transport::process::{ChildProcess, Launch, Spawned, SpawnedParts};
    pub use crate::transport::stderr::StderrTail;
}

/// Raw access to an HTTP+SSE server, for the transport's own rules.
#[cfg(feature = "http")]
pub mod sse {
    pub use crate::raw::sse::{RawSse, SseEvent, SseNext, SsePost, SseRefusal, SseSession};
}

/// Authorization-server discovery and the client-credentials grant.
#[cfg(feature = "http")]
pub mod oauth {
    pub use crate::oauth::{ClientCredentials, Discovery, challenge_param, token_at};
}
