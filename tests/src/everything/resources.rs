//! The fixture's resources: three static ones, twelve numbered ones (so that
//! `resources/list` spans several pages) and one template.

use rmcp::{
    ErrorData,
    model::{ErrorCode, ReadResourceResult, Resource, ResourceContents, ResourceTemplate},
};
use serde_json::json;

pub(super) const STATIC_TEXT_URI: &str = "fixture://static/text";
pub(super) const STATIC_TEXT_NAME: &str = "static-text";
pub(super) const STATIC_TEXT: &str = "Hello from fixture-everything.";
const STATIC_BLOB_URI: &str = "fixture://static/blob";
const STATIC_BLOB_BASE64: &str = "AAECA/8="; // [0, 1, 2, 3, 255]
const STATIC_JSON_URI: &str = "fixture://static/json";
const STATIC_JSON: &str = r#"{"answer":42}"#;
const NUMBERS_PREFIX: &str = "fixture://numbers/";
const NUMBER_COUNT: u32 = 12;
pub(super) const ITEMS_TEMPLATE: &str = "fixture://items/{id}";
const ITEMS_PREFIX: &str = "fixture://items/";

pub(super) fn all_resources() -> Vec<Resource> {
    let statics = [
        Resource::new(STATIC_TEXT_URI, STATIC_TEXT_NAME)
            .with_description("A fixed line of text.")
            .with_mime_type("text/plain"),
        Resource::new(STATIC_BLOB_URI, "static-blob")
            .with_description("The bytes 0, 1, 2, 3, 255.")
            .with_mime_type("application/octet-stream"),
        Resource::new(STATIC_JSON_URI, "static-json")
            .with_description("A small JSON document.")
            .with_mime_type("application/json"),
    ];
    let numbers = (1..=NUMBER_COUNT).map(|n| {
        Resource::new(format!("{NUMBERS_PREFIX}{n}"), format!("number-{n}"))
            .with_mime_type("text/plain")
    });
    statics.into_iter().chain(numbers).collect()
}

pub(super) fn all_templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(ITEMS_TEMPLATE, "item")
            .with_description("Any item by id.")
            .with_mime_type("text/plain"),
    ]
}

/// The contents of `fixture://static/text`, shared with the `embedded_resource` tool.
pub(super) fn static_text_contents() -> ResourceContents {
    ResourceContents::text(STATIC_TEXT, STATIC_TEXT_URI).with_mime_type("text/plain")
}

pub(super) fn read(uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let contents = match uri {
        STATIC_TEXT_URI => static_text_contents(),
        STATIC_BLOB_URI => ResourceContents::blob(STATIC_BLOB_BASE64, uri)
            .with_mime_type("application/octet-stream"),
        STATIC_JSON_URI => {
            ResourceContents::text(STATIC_JSON, uri).with_mime_type("application/json")
        }
        _ => {
            if let Some(n) = uri
                .strip_prefix(NUMBERS_PREFIX)
                .and_then(canonical_number)
                .filter(|n| (1..=NUMBER_COUNT).contains(n))
            {
                ResourceContents::text(format!("number {n}"), uri)
            } else if let Some(id) = uri
                .strip_prefix(ITEMS_PREFIX)
                .filter(|id| !id.is_empty() && !id.contains('/'))
            {
                ResourceContents::text(format!("item {id}"), uri)
            } else {
                return Err(not_found(uri));
            }
        }
    };
    Ok(ReadResourceResult::new(vec![contents]))
}

/// Accepts only the spelling `all_resources` lists, so `fixture://numbers/01` is not
/// a second name for `fixture://numbers/1`.
fn canonical_number(text: &str) -> Option<u32> {
    let n: u32 = text.parse().ok()?;
    (n.to_string() == text).then_some(n)
}

/// -32002 is the code MCP specifies for an unknown resource before 2026-07-28; for
/// peers on 2026-07-28 or later rmcp rewrites it to -32602 on the way out.
fn not_found(uri: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::RESOURCE_NOT_FOUND,
        "resource not found",
        Some(json!({ "uri": uri })),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(uri: &str) -> String {
        match &read(uri).unwrap().contents[0] {
            ResourceContents::TextResourceContents { text, .. } => text.clone(),
            other => panic!("expected text, got {other:?}"),
        }
    }

    #[test]
    fn every_listed_resource_is_readable() {
        for resource in all_resources() {
            read(&resource.uri).unwrap();
        }
    }

    #[test]
    fn template_and_numbers_resolve() {
        assert_eq!(text_of("fixture://items/7"), "item 7");
        assert_eq!(text_of("fixture://numbers/12"), "number 12");
    }

    #[test]
    fn unknown_uris_are_not_found() {
        for uri in [
            "fixture://numbers/0",
            "fixture://numbers/13",
            "fixture://numbers/01",
            "fixture://items/",
            "fixture://nope",
        ] {
            let error = read(uri).unwrap_err();
            assert_eq!(error.code, ErrorCode::RESOURCE_NOT_FOUND, "{uri}");
            assert_eq!(error.data, Some(json!({ "uri": uri })));
        }
    }
}
