//! Everything mcptest keeps from a server is bounded, in count and in bytes,
//! so a flooding or hostile server cannot exhaust memory or time. What is
//! dropped past a bound is counted and said ("… and 99,950 more stray
//! answers"). The bounds are constants; a test that must see more reads
//! what it needs as it goes (e.g. [`Notifications::clear`](crate::Notifications::clear)
//! after each check).

/// Notifications and server-to-client requests kept per connection (the
/// oldest are dropped first, in O(1)).
pub const NOTIFICATIONS_KEPT: usize = 10_000;
/// Of those, server-to-client requests kept at once: a request that arrives
/// while this many are kept is still answered, and counted in
/// [`Notifications::dropped`](crate::Notifications::dropped) without being
/// stored.
pub const SERVER_REQUESTS_KEPT: usize = 1_000;
/// Answers to server-to-client requests that may wait at once for the
/// server to read its stdin. A request that arrives while this many wait is
/// not answered (the server is not reading its answers) and is counted in
/// [`ServerOutput::unanswered_requests`](crate::ServerOutput::unanswered_requests),
/// so a server that floods requests and stops reading cannot grow mcptest.
pub const SERVER_REQUESTS_IN_FLIGHT: usize = 1_000;
/// The same log's bound in bytes (the JSON of each message's `params`).
pub const NOTIFICATIONS_KEPT_BYTES: usize = 8 * 1024 * 1024;
/// Answers with an id mcptest never sent: the first this many are kept
/// (each cut to [`NOISE_LINE_CHARS`]), all are counted.
pub const STRAY_KEPT: usize = 50;
/// Non-JSON-RPC lines on stdout: the most recent this many are kept, all are
/// counted.
pub const NOISE_KEPT: usize = 50;
/// How many characters of each kept stray line or answer are shown.
pub const NOISE_LINE_CHARS: usize = 300;
