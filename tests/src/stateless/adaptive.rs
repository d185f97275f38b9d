//! Fixture tools for the adaptive feature checks: `media` answers with an
//! image, an audio clip and an embedded resource; `slow` reports progress
//! before it answers. Breakages bend the content and the progress.

use rmcp::{
    ErrorData, RoleServer,
    model::{CallToolResponse, CallToolResult, ProgressNotificationParam},
    service::RequestContext,
};
use serde_json::json;

use super::{Breakage, Breakages, text, typed};

/// The tool that answers with every non-text content type.
pub const MEDIA_TOOL: &str = "media";
/// The tool that reports progress.
pub const PROGRESS_TOOL: &str = "slow";

/// A 1x1 PNG, base64.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
/// A few bytes standing in for a WAV clip, base64.
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

/// `tools/call media`.
pub(super) fn media(breakages: &Breakages) -> CallToolResponse {
    let mut image = json!({ "type": "image", "data": PNG, "mimeType": "image/png" });
    if breakages.has(Breakage::BadMediaContent) {
        image = json!({ "type": "image", "data": "not base64!", "mimeType": "text/plain" });
    }
    let result: CallToolResult = typed(json!({
        "resultType": "complete",
        "content": [
            image,
            { "type": "audio", "data": WAV, "mimeType": "audio/wav" },
            { "type": "resource", "resource": {
                "uri": "fixture://hello", "mimeType": "text/plain", "text": "the text of fixture://hello",
            } },
        ],
    }));
    result.into()
}

/// `tools/call slow`: two progress notifications for the request's token,
/// then the answer.
pub(super) async fn slow(
    breakages: &Breakages,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    if let Some(token) = context.meta.get_progress_token() {
        let mut token = serde_json::to_value(token).unwrap_or_default();
        if breakages.has(Breakage::ProgressWrongToken) {
            token = json!("fixture-some-other-token");
        }
        for (progress, message) in [(1, "half way"), (2, "done")] {
            let param: ProgressNotificationParam = typed(json!({
                "progressToken": token, "progress": progress, "total": 2, "message": message,
            }));
            let _ = context.peer.notify_progress(param).await;
        }
    }
    Ok(text("finished").into())
}
