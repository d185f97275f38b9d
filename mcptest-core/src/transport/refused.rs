//! A line from the server refused at once, with the reason.

use rmcp::model::RequestId;

/// A line refused at once, with what arrived and why, rather than set
/// aside as noise while a caller waits out its time-out for the answer it
/// held.
pub(crate) struct Refused {
    /// The id it carries at its top level, when it is an answer.
    pub(crate) id: Option<RequestId>,
    /// What arrived and why it was refused, in words.
    pub(crate) reason: String,
}
