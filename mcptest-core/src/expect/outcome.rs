//! How a tool call ended, as failure messages show it: what every check on a
//! [`ToolCall`] shows when the call did not end as it expected.

use super::failure::Shown;
use crate::client::{ToolCall, ToolOutcome};

/// How a call ended, for failure messages.
pub(crate) fn outcome_shown(call: &ToolCall) -> Shown {
    match call.outcome() {
        ToolOutcome::Success(_) => Shown::text("success with text", call.text()),
        ToolOutcome::ToolError(_) => Shown::text("isError: true with text", call.text()),
        ToolOutcome::RpcError(e) => {
            let mut words = format!("{}: {}", e.code, e.message);
            if let Some(data) = &e.data {
                words.push_str(&format!(" (data: {data})"));
            }
            Shown::plain("JSON-RPC error", words)
        }
        ToolOutcome::Failed(error) => {
            // The failure message shows the server's output once, at the end.
            let full = error.to_string();
            let output = error
                .server_output()
                .map(|o| o.to_string())
                .unwrap_or_default();
            let words = full.strip_suffix(&output).unwrap_or(&full).to_owned();
            Shown::plain("no answer:", words)
        }
    }
}
