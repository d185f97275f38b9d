//! What mcptest, standing in as the client, answers to a server's input
//! requests (SEP-2322): an accepted form filled from its schema, a sampled
//! message, a root; and how an input-required result is known.

use serde_json::{Map, Value, json};

/// The `resultType` of an input-required result.
pub(crate) const INPUT_REQUIRED: &str = "input_required";

/// The methods of the input requests a client answers.
pub(crate) const INPUT_METHODS: &[&str] =
    &["elicitation/create", "sampling/createMessage", "roots/list"];

/// Whether a result asks for input.
pub(crate) fn is_input_required(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some(INPUT_REQUIRED)
}

/// What a client answers to one input request.
fn answer_to(request: &Value) -> Value {
    match request.get("method").and_then(Value::as_str) {
        Some("sampling/createMessage") => json!({
            "role": "assistant",
            "content": { "type": "text", "text": "mcptest" },
            "model": "mcptest",
            "stopReason": "endTurn",
        }),
        Some("roots/list") => json!({ "roots": [{ "uri": "file:///mcptest", "name": "mcptest" }] }),
        _ => {
            let schema = request
                .get("params")
                .and_then(|p| p.get("requestedSchema"))
                .cloned()
                .unwrap_or(Value::Null);
            json!({ "action": "accept", "content": form_content(&schema) })
        }
    }
}

/// Content that fills a form's requested schema: a value of each property's
/// type (the first enum value when there is one).
fn form_content(schema: &Value) -> Value {
    let mut content = Map::new();
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            let value = if let Some(first) = property
                .get("enum")
                .and_then(Value::as_array)
                .and_then(|e| e.first())
            {
                first.clone()
            } else {
                match property.get("type").and_then(Value::as_str) {
                    Some("boolean") => json!(true),
                    Some("integer") | Some("number") => json!(1),
                    Some("array") => json!([]),
                    _ => json!("mcptest"),
                }
            };
            content.insert(name.clone(), value);
        }
    }
    Value::Object(content)
}

/// Answers for every request of an `inputRequests` map.
pub(crate) fn responses_for(requests: &Map<String, Value>) -> Value {
    Value::Object(
        requests
            .iter()
            .map(|(key, request)| (key.clone(), answer_to(request)))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_fill_the_requested_form() {
        let request = json!({
            "method": "elicitation/create",
            "params": { "requestedSchema": { "type": "object", "properties": {
                "ok": { "type": "boolean" },
                "name": { "type": "string" },
                "size": { "type": "string", "enum": ["s", "m"] },
            } } },
        });
        assert_eq!(
            answer_to(&request),
            json!({ "action": "accept", "content": { "ok": true, "name": "mcptest", "size": "s" } })
        );
        let roots = answer_to(&json!({ "method": "roots/list" }));
        assert!(roots["roots"].is_array());
        let sampling = answer_to(&json!({ "method": "sampling/createMessage" }));
        assert_eq!(sampling["role"], "assistant");
    }
}
