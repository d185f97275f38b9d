//! Server checks, by topic. Each is an async function of the
//! [`Probe`](crate::support::probe::Probe) (and, for most, of the facts the
//! gates learned) that returns its finding; the
//! [`catalogue`](crate::catalogue) says which rule each one checks.
//!
//! Two modules serve the topics: [`facts`] (the gates every check is
//! behind) and [`listing`] (finding on the server what a check needs).

pub(crate) mod adaptive;
pub(crate) mod authorization;
pub(crate) mod classic;
pub(crate) mod facts;
pub(crate) mod features;
pub(crate) mod http_transport;
pub(crate) mod input_required;
pub(crate) mod listen;
pub(crate) mod listing;
pub(crate) mod schema_valid;
pub(crate) mod skills;
pub(crate) mod sse_transport;
pub(crate) mod stateless;
pub(crate) mod tasks;
pub(crate) mod tools;
