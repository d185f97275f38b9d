//! Checks against JSON Schema: a tool's `structuredContent` against its
//! `outputSchema` or any schema, and every listed tool's schemas. They need
//! a JSON Schema validator, so they come with the `json-schema` feature.

use rmcp::model::Tool;
use serde_json::Value;

use super::{
    check::{Check, Polarity},
    failure::{Evidence, Shown, Verdict},
    json::{json_of, structured_of},
    lists::keys_shown,
};
use crate::client::{Reply, ToolCall};
use crate::wording::quoted;

/// At most this many schema violations are listed in a failure.
const SCHEMA_ERRORS_SHOWN: usize = 10;

/// Validates `instance` against the JSON Schema `schema` (any draft the
/// schema names, 2020-12 by default); the error lists the violations, each
/// with where it is in `instance`, as every schema check in mcptest words
/// them.
///
/// ```
/// use mcptest::expect::validate_schema;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "required": ["city"]});
/// assert!(validate_schema(&schema, &json!({"city": "Paris"})).is_ok());
/// let why = validate_schema(&schema, &json!({})).unwrap_err();
/// assert!(why.contains("\"city\" is a required property"), "{why}");
/// ```
pub fn validate_schema(schema: &Value, instance: &Value) -> Result<(), String> {
    violations(schema, instance)?
}

/// The violations of `schema` by `instance` (inner `Err`), or why the
/// schema cannot be used at all (outer `Err`): a check has nothing to
/// judge against then.
fn violations(schema: &Value, instance: &Value) -> Result<Result<(), String>, String> {
    let validator = jsonschema::validator_for(schema)
        .map_err(|e| format!("the schema itself is invalid: {e}"))?;
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| {
            let at = e.instance_path().to_string();
            let at = if at.is_empty() {
                "the root".to_owned()
            } else {
                at
            };
            format!("at {at}: {e}")
        })
        .collect();
    if errors.is_empty() {
        return Ok(Ok(()));
    }
    let total = errors.len();
    let mut lines: Vec<String> = errors.into_iter().take(SCHEMA_ERRORS_SHOWN).collect();
    if total > SCHEMA_ERRORS_SHOWN {
        lines.push(format!("… and {} more", total - SCHEMA_ERRORS_SHOWN));
    }
    Ok(Err(format!(
        "{total} schema violation{}:\n{}",
        if total == 1 { "" } else { "s" },
        lines.join("\n")
    )))
}

/// The verdict of `instance` (shown as `label`) against `schema`.
fn judge(schema: &Value, label: &str, instance: Value) -> Verdict {
    let outcome = violations(schema, &instance);
    let evidence = Evidence::new().actual(Shown::json(label, instance));
    match outcome {
        Ok(Ok(())) => Verdict::pass(evidence),
        Ok(Err(why)) => Verdict::fail(evidence.note(why)),
        Err(why) => Verdict::cannot_judge(evidence.note(why)),
    }
}

/// `structuredContent` validates against the `outputSchema` the tool
/// declares in `tools/list`. The harness knows the definition
/// ([`ToolCall::tool`]); when it does not, the failure says why and how to
/// fix that.
///
/// ```
/// # let call = mcptest::expect::samples::weather_call();
/// call.matches_output_schema();
/// ```
///
/// ```should_panic
/// # let call = mcptest::expect::samples::weather_bad_call();
/// call.matches_output_schema();
/// ```
pub fn matches_output_schema() -> impl Check<ToolCall> {
    MatchesOutputSchema
}

struct MatchesOutputSchema;

impl Check<ToolCall> for MatchesOutputSchema {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("matches", "does not match");
        format!("structuredContent {verb} the tool's outputSchema")
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        let Some(tool) = call.tool() else {
            if let Err(evidence) = structured_of(call) {
                // The harness fetches definitions only for structured answers.
                return Verdict::cannot_judge(evidence.note(
                    "the result has no structuredContent, so there is nothing to check \
                     against an outputSchema",
                ));
            }
            return Verdict::cannot_judge(Evidence::new().note(format!(
                "the definition of tool {:?} is not known, so there is no outputSchema to \
                 check against.\nThe harness fetches tools/list when a call is answered with \
                 structuredContent and the server declares the tools capability; the tool must \
                 be in that list, and Server::fetch_tool_definitions(false) turns this off. For \
                 a call built with ToolCall::from_parts, attach the definition with \
                 .with_tool(tool).",
                call.name()
            )));
        };
        let Some(schema) = &tool.output_schema else {
            return Verdict::cannot_judge(Evidence::new().note(format!(
                "tool {:?} declares no outputSchema in tools/list; use matches_schema(schema) \
                 to check against a schema of your own",
                call.name()
            )));
        };
        let schema = Value::Object((**schema).clone());
        match structured_of(call) {
            Ok(actual) => judge(&schema, "structuredContent", actual),
            Err(evidence) => Verdict::cannot_judge(evidence.note(
                "the result has no structuredContent, but the tool declares an outputSchema",
            )),
        }
    }
}

/// The result (`structuredContent`, or the text as JSON) validates against
/// the JSON Schema `schema`. An invalid schema fails the check and says why.
///
/// ```
/// use serde_json::json;
/// # let call = mcptest::expect::samples::echo_call("[1, 2, 3]");
/// call.matches_schema(json!({"type": "array", "items": {"type": "integer"}}));
/// ```
///
/// ```should_panic
/// # use serde_json::json;
/// # let call = mcptest::expect::samples::echo_call("[1, 2, 3]");
/// call.matches_schema(json!({"type": "array", "items": {"type": "string"}}));
/// ```
pub fn matches_schema(schema: Value) -> impl Check<ToolCall> {
    MatchesSchema(schema)
}

struct MatchesSchema(Value);

impl Check<ToolCall> for MatchesSchema {
    fn describe(&self, polarity: Polarity) -> String {
        let verb = polarity.pick("matches", "does not match");
        format!("the result {verb} the schema {}", self.0)
    }
    fn evaluate(&self, call: &ToolCall) -> Verdict {
        match json_of(call) {
            Ok((label, value)) => judge(&self.0, label, value),
            Err(evidence) => Verdict::cannot_judge(evidence),
        }
    }
}

/// Whether `schema` is a usable object schema for `inputSchema`: it
/// compiles as JSON Schema and its `type` is `"object"`.
pub(crate) fn check_object_schema(schema: &Value) -> Result<(), String> {
    jsonschema::meta::validate(schema).map_err(|e| format!("is not a valid JSON Schema: {e}"))?;
    jsonschema::validator_for(schema).map_err(|e| format!("does not compile: {e}"))?;
    match schema.get("type") {
        Some(Value::String(t)) if t == "object" => Ok(()),
        Some(other) => Err(format!("has type {other}, not \"object\"")),
        None => Err("has no \"type\": \"object\"".to_owned()),
    }
}

/// Every tool's `inputSchema` (and `outputSchema`, when declared) is a
/// valid JSON Schema whose `type` is `"object"`, as MCP requires.
///
/// ```
/// # let tools = mcptest::expect::samples::tool_list();
/// tools.input_schemas_valid();
/// ```
///
/// ```should_panic
/// # let tools = mcptest::expect::samples::tool_list_with_bad_schema();
/// tools.input_schemas_valid();
/// ```
pub fn input_schemas_valid() -> impl Check<Reply<Vec<Tool>>> {
    InputSchemasValid
}

struct InputSchemasValid;

impl Check<Reply<Vec<Tool>>> for InputSchemasValid {
    fn describe(&self, polarity: Polarity) -> String {
        polarity
            .pick(
                "every tool's inputSchema (and outputSchema) is a valid object schema",
                "some tool's inputSchema or outputSchema is not a valid object schema",
            )
            .into()
    }
    fn evaluate(&self, list: &Reply<Vec<Tool>>) -> Verdict {
        let mut problems = Vec::new();
        let mut first_bad = None;
        for tool in list.iter() {
            let schemas = std::iter::once(("inputSchema", Some(&tool.input_schema))).chain(
                std::iter::once(("outputSchema", tool.output_schema.as_ref())),
            );
            for (which, schema) in schemas {
                let Some(schema) = schema else { continue };
                let schema = Value::Object((**schema).clone());
                if let Err(why) = check_object_schema(&schema) {
                    problems.push(format!("tool {}: {which} {why}", quoted(&tool.name)));
                    if first_bad.is_none() {
                        first_bad = Some(Shown::json(format!("{which} of {}", tool.name), schema));
                    }
                }
            }
        }
        let evidence = match first_bad {
            Some(shown) => Evidence::new().actual(shown).note(problems.join("\n")),
            None => Evidence::new().actual(keys_shown(list)),
        };
        Verdict::from_bool(problems.is_empty(), evidence)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn object_schemas() {
        assert!(check_object_schema(&json!({"type": "object"})).is_ok());
        assert_eq!(
            check_object_schema(&json!({"type": "string"})).unwrap_err(),
            "has type \"string\", not \"object\""
        );
        assert!(
            check_object_schema(&json!({"type": 5}))
                .unwrap_err()
                .starts_with("is not a valid JSON Schema")
        );
    }
}
