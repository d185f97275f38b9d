//! The futures of the public async API, boxed where they are made.
//!
//! An `async fn` of this crate is compiled again in every crate that awaits
//! it: its body is a generic state machine to the compiler, and a test crate
//! that awaits `McpClient::call_tool` would otherwise compile the call, the
//! connection and rmcp's service loop beside its own code. A public method
//! returns [`boxed`] instead, which compiles the body here once; the caller
//! polls a `Box<dyn Future>`. One allocation per call, next to a JSON-RPC
//! round trip.

use std::pin::Pin;

/// `future` on the heap, behind a `dyn Future` made in this crate.
pub(crate) fn boxed<'a, T>(
    future: impl Future<Output = T> + Send + 'a,
) -> Pin<Box<dyn Future<Output = T> + Send + 'a>> {
    Box::pin(future)
}
