//! The recording server's tools, each there to provoke what a client check
//! looks for (see the [module](super) docs), listed in one fixed order.

use std::sync::Arc;

use rmcp::model::Tool;
use serde_json::{Value, json};

use super::UNTYPED_TOOL;

/// Every tool, in the order `tools/list` gives them.
pub(super) fn all(canary_url: &str) -> Vec<Tool> {
    [
        round_trip_tools(),
        header_tools(),
        vec![Tool::new(
            UNTYPED_TOOL,
            "Answers with a result that has no resultType: a complete result.",
            object_schema(json!({ "type": "object" })),
        )],
        schema_tools(canary_url),
    ]
    .concat()
}

/// `echo`, `slow`, `ask` and `confirm`: an answer, a call to cancel, and
/// the input-required rounds of SEP-2322.
fn round_trip_tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "echo",
            "Returns `text`.",
            object_schema(json!({
                "type": "object",
                "properties": { "text": { "type": "string" } },
                "required": ["text"],
            })),
        ),
        Tool::new(
            "slow",
            "Never finishes on its own: cancel it.",
            object_schema(json!({ "type": "object" })),
        ),
        Tool::new(
            "ask",
            "Asks the client for input with every client capability the request declares \
             (elicitation, sampling, roots).",
            object_schema(json!({ "type": "object" })),
        ),
        Tool::new(
            "confirm",
            "Like `ask`, with an opaque requestState the retry must echo unchanged.",
            object_schema(json!({ "type": "object" })),
        ),
    ]
}

/// `forecast` and the `tag_*` tools: arguments marked `x-mcp-header`,
/// validly and not (SEP-2243).
fn header_tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "forecast",
            "Forecasts the weather for a region; over HTTP the arguments marked x-mcp-header \
             travel in Mcp-Param-* headers too.",
            object_schema(json!({
                "type": "object",
                "properties": {
                    "region": { "type": "string", "x-mcp-header": "Region" },
                    "days": { "type": "integer", "x-mcp-header": "Days" },
                    "metric": { "type": "boolean", "x-mcp-header": "Metric" },
                    "label": {
                        "type": "string",
                        "description": "Free text, any characters",
                        "x-mcp-header": "Label",
                    },
                    "comment": { "type": "string" },
                },
                "required": ["region"],
            })),
        ),
        tag_tool(
            "tag_valid",
            "A valid x-mcp-header.",
            json!({
                "label": { "type": "string", "x-mcp-header": "Tag" },
            }),
        ),
        tag_tool(
            "tag_empty",
            "An empty x-mcp-header: a client must not use this tool.",
            json!({
                "label": { "type": "string", "x-mcp-header": "" },
            }),
        ),
        tag_tool(
            "tag_spaced",
            "An x-mcp-header that is no HTTP token: a client must not use this tool.",
            json!({ "label": { "type": "string", "x-mcp-header": "Tag Name" } }),
        ),
        tag_tool(
            "tag_twice",
            "One x-mcp-header on two properties (ignoring case): a client must not use this \
             tool.",
            json!({
                "first": { "type": "string", "x-mcp-header": "Tag" },
                "second": { "type": "string", "x-mcp-header": "tag" },
            }),
        ),
        tag_tool(
            "tag_object",
            "An x-mcp-header on an object property: a client must not use this tool.",
            json!({ "label": { "type": "object", "x-mcp-header": "Tag" } }),
        ),
    ]
}

/// `contact`, `schema_echo` and `lookup`: JSON Schema 2020-12 keywords a
/// client must keep, and a network `$ref` it must not fetch (SEP-1613,
/// SEP-2106).
fn schema_tools(canary_url: &str) -> Vec<Tool> {
    vec![
        Tool::new(
            "contact",
            "Records how to reach someone; its inputSchema uses JSON Schema 2020-12 \
             keywords a client must keep.",
            object_schema(json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "$defs": {
                    "postal": {
                        "$anchor": "postal",
                        "type": "object",
                        "properties": {
                            "line": { "type": "string" },
                            "town": { "type": "string" },
                        },
                    },
                },
                "properties": {
                    "who": { "type": "string" },
                    "by": { "type": "string", "enum": ["phone", "mail", "post"] },
                    "phone": { "type": "string" },
                    "mail": { "type": "string" },
                    "post": { "$ref": "#/$defs/postal" },
                },
                "allOf": [{ "anyOf": [{ "required": ["phone"] }, { "required": ["mail"] }] }],
                "if": {
                    "properties": { "by": { "const": "post" } },
                    "required": ["by"],
                },
                "then": { "required": ["post"] },
                "else": { "required": ["who"] },
                "additionalProperties": false,
            })),
        ),
        Tool::new(
            "schema_echo",
            "Returns `schema`: pass a listed tool's name and its inputSchema exactly as \
             you hold it.",
            object_schema(json!({
                "type": "object",
                "properties": {
                    "tool": { "type": "string" },
                    "schema": { "type": "object" },
                },
                "required": ["tool", "schema"],
            })),
        ),
        Tool::new(
            "lookup",
            "Looks up a user profile by id.",
            object_schema(json!({
                "type": "object",
                "$defs": { "userId": { "type": "string", "pattern": "^u[0-9]+$" } },
                "properties": {
                    "id": { "$ref": "#/$defs/userId" },
                    "profile": { "$ref": canary_url },
                },
                "required": ["id"],
            })),
        ),
    ]
}

fn object_schema(schema: Value) -> Arc<serde_json::Map<String, Value>> {
    match schema {
        Value::Object(map) => Arc::new(map),
        _ => Arc::default(),
    }
}

/// A `tag_*` tool: its properties, each required, carry `x-mcp-header`
/// annotations, valid or not.
fn tag_tool(name: &'static str, description: &'static str, properties: Value) -> Tool {
    let required: Vec<&String> = properties
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, _)| k)
        .collect();
    Tool::new(
        name,
        description,
        object_schema(json!({ "type": "object", "properties": properties, "required": required })),
    )
}
