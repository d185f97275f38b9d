//! The schema checks without the `json-schema` feature: each still has its
//! name, and using it is a compile error that says to turn the feature on
//! (see [`needs`](crate::needs)); the fluent forms are in the table.

use serde_json::Value;

use super::{
    check::{Check, Polarity},
    failure::Verdict,
};
use crate::{client::Reply, client::ToolCall, needs};

/// What the stubs would return; never made, since no type meets their bound.
struct NeedsJsonSchema;

impl<S: ?Sized> Check<S> for NeedsJsonSchema {
    fn describe(&self, _: Polarity) -> String {
        unreachable!("made only with the `json-schema` feature")
    }
    fn evaluate(&self, _: &S) -> Verdict {
        unreachable!("made only with the `json-schema` feature")
    }
}

fn unavailable() -> NeedsJsonSchema {
    unreachable!("no type implements needs::JsonSchemaChecks without the `json-schema` feature")
}

#[doc(hidden)]
pub fn matches_output_schema<'a>() -> impl Check<ToolCall>
where
    &'a (): needs::JsonSchemaChecks,
{
    unavailable()
}

#[doc(hidden)]
pub fn matches_schema<'a>(_schema: Value) -> impl Check<ToolCall>
where
    &'a (): needs::JsonSchemaChecks,
{
    unavailable()
}

#[doc(hidden)]
pub fn input_schemas_valid<'a>() -> impl Check<Reply<Vec<rmcp::model::Tool>>>
where
    &'a (): needs::JsonSchemaChecks,
{
    unavailable()
}

#[doc(hidden)]
pub fn validate_schema<'a>(_schema: &Value, _instance: &Value) -> Result<(), String>
where
    &'a (): needs::JsonSchemaChecks,
{
    unreachable!("no type implements needs::JsonSchemaChecks without the `json-schema` feature")
}
