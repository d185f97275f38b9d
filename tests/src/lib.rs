//! Fixture MCP servers for mcptest's own integration tests, and the helpers those
//! tests share.
//!
//! [`everything::Everything`] is a server that exercises every MCP feature mcptest must
//! handle, so tests can host it in-process or, through the `fixture-everything` binary,
//! as a child process or over Streamable HTTP. The `fixture-chaos` binary, which
//! misbehaves on purpose, lives only under `src/bin`. [`stateless`] is the
//! conformance fixture: `fixture-stateless` conforms to 2025-11-25 and 2026-07-28,
//! `fixture-broken` breaks one rule per flag, and `fixture-client` is a client
//! for the client checks. [`poisoned`] holds the definitions
//! `fixture-chaos --poisoned` lists, one broken security lint rule each; [`lintable`] the
//! lists of `fixture-chaos --lint-findings` (each lint rule tripped once) and
//! `--lint-clean` (none); [`wide`] has as many tools as asked
//! for, for the audit benchmark. `shared-exit` is not a server: a program that
//! uses a shared server and ends, for the test that no server outlives it.
//! Nor is `mcptest-command`: the `mcptest` command itself, built here so the
//! tests can run it against these servers.
//! [`sse`] serves any of them over the legacy HTTP+SSE transport
//! (`fixture-everything --sse`, `fixture-auth`'s `/sse`), and
//! `fixture-container` stands in for `docker` and `podman`.

pub mod e2e;
pub mod everything;
pub mod http;
pub mod lintable;
pub mod poisoned;
pub mod procs;
pub mod sse;
pub mod stateless;
pub mod wide;
