//! The protocol revisions checks speak of: the classic one (the last with
//! an `initialize` handshake), the stateless one (SEP-2575), and the
//! versions a check offers to see them refused.

/// The classic revision (the last one with an `initialize` handshake).
pub(crate) const CLASSIC: &str = "2025-11-25";
/// The stateless revision (SEP-2575).
pub(crate) const STATELESS: &str = "2026-07-28";
/// The revision of the legacy HTTP+SSE transport, whose rules hold for a
/// server reached over it whatever version it then negotiates.
pub(crate) const LEGACY_SSE: &str = "2024-11-05";
/// A rule of every revision the server speaks.
pub(crate) const EVERY: &str = "every revision";

/// Revisions that have an `initialize` handshake.
pub(crate) const INITIALIZE_VERSIONS: &[&str] =
    &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// A version no server supports; well-formed so that only its value is wrong.
pub(crate) const UNSUPPORTED_VERSION: &str = "2099-12-31";
