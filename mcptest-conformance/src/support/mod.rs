//! The support layer: how checks reach their subject and keep evidence,
//! never what a rule says. Nothing here imports a check; checks of both
//! roles stand on it.
//!
//! Server side: the [`Probe`](probe::Probe) opens channels ([`stdio`] or
//! [`http`]), sends the [`message`]s checks build and hands back what was
//! [`received`](received::Received), recording each exchange as
//! [`evidence`] and holding every message the server sent in the
//! [`schema_ledger`]. Client side: the [`recording_server`] stands in for a
//! server and records what the client sent, read back as a
//! [`transcript`].

pub(crate) mod evidence;
#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod input_answers;
pub(crate) mod message;
pub(crate) mod probe;
pub(crate) mod received;
pub(crate) mod recording_server;
pub(crate) mod revision;
pub(crate) mod schema_ledger;
pub(crate) mod stdio;
pub(crate) mod transcript;
