//! How the test client behaves towards a server: timeouts, the protocol
//! version and identity it presents, and the mocks that answer the server's
//! own requests.

use std::time::Duration;

use rmcp::model::{ClientCapabilities, Implementation};

use super::answers::{Elicitation, Roots, Sampling};
use crate::wire_schema::WireSchema;

/// The protocol version used unless [`Server::protocol_version`] says otherwise:
/// the newest one that still has an `initialize` handshake.
///
/// [`Server::protocol_version`]: crate::Server::protocol_version
pub const DEFAULT_PROTOCOL_VERSION: &str = "2025-11-25";
/// The stateless revision (SEP-2575): no `initialize`, `server/discover` and
/// per-request `_meta` instead.
pub const STATELESS_PROTOCOL_VERSION: &str = "2026-07-28";

#[derive(Clone)]
pub(crate) struct ClientOptions {
    pub(crate) request_timeout: Duration,
    pub(crate) connect_timeout: Duration,
    pub(crate) protocol_version: String,
    pub(crate) client_info: Implementation,
    pub(crate) capabilities: Option<ClientCapabilities>,
    pub(crate) sampling: Option<Sampling>,
    pub(crate) roots: Option<Roots>,
    pub(crate) elicitation: Option<Elicitation>,
    pub(crate) fetch_tool_definitions: bool,
    pub(crate) wire_schema: WireSchema,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            request_timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(30),
            protocol_version: DEFAULT_PROTOCOL_VERSION.to_owned(),
            client_info: Implementation::new("mcptest", env!("CARGO_PKG_VERSION")),
            capabilities: None,
            sampling: None,
            roots: None,
            elicitation: None,
            fetch_tool_definitions: true,
            wire_schema: WireSchema::default(),
        }
    }
}
