//! Raw JSON-RPC, for what a well-behaved client never sends: over a server's
//! stdio ([`RawConnection`]) and over Streamable HTTP (`RawHttp`, with the
//! `http` feature).

#[cfg(feature = "http")]
pub(crate) mod http;
mod response;
#[cfg(feature = "http")]
pub(crate) mod sse;
pub(crate) mod stdio;

#[cfg(feature = "http")]
pub use http::{HttpReply, RawHttp};
pub use response::is_response;
pub use stdio::RawConnection;
