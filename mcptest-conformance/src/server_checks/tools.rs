//! Server checks of tool listings, over any transport: a stable order, and
//! input and output schemas valid in JSON Schema 2020-12 (or the dialect
//! their `$schema` names). Skipped with the reason when the server lists
//! fewer tools than a check needs.

use std::collections::BTreeSet;

use serde_json::Value;

use super::facts::{ClassicFacts, StatelessFacts, declares};
use super::listing::{list_all, tools_declared};
use crate::model::{Checked, Observed, Problems};
use crate::support::message::meta;
use crate::support::probe::{Ch, Probe};
use crate::support::revision::STATELESS;

/// A tool's name, for reasons.
pub(crate) fn tool_name(tool: &Value) -> &str {
    tool.get("name")
        .and_then(Value::as_str)
        .unwrap_or("(unnamed)")
}

pub(crate) async fn tools_list_order(p: &mut Probe, facts: &ClassicFacts) -> Checked {
    tools_declared(facts)?;
    let (ch, _) = p.classic_session().await?;
    same_order(p, ch, None, 2).await
}

/// `mcp-tools-list-deterministic-order` (2026-07-28 server/tools, listing
/// tools): "Servers SHOULD return tools in a deterministic order (i.e., the
/// same ordering across requests when the underlying set of tools has not
/// changed)". Three stateless `tools/list` calls, compared name by name.
pub(crate) async fn tools_deterministic_order(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    if facts.discover.is_some() && !declares(&facts.capabilities(), "tools") {
        return Err(Observed::NotApplicable(
            "server/discover does not declare the tools capability".into(),
        ));
    }
    let ch = p.open().await?;
    same_order(p, ch, Some(&meta(STATELESS)), 3).await
}

/// Lists the tools `calls` times on `ch` (each request with `meta` as its
/// `_meta`, when given) and compares the names by position. Fewer than two
/// tools have no order; a set of tools that changes between the calls
/// leaves the order untestable (the rule holds while the set is the same).
async fn same_order(p: &mut Probe, ch: Ch, meta: Option<&Value>, calls: usize) -> Checked {
    let names = |tools: &[Value]| -> Vec<String> {
        tools.iter().map(|t| tool_name(t).to_owned()).collect()
    };
    let (first, _) = list_all(p, ch, "tools/list", "tools", meta, true).await?;
    let first = names(&first);
    if first.len() < 2 {
        return Ok(Observed::NotApplicable(format!(
            "the server lists {} tool{}: there is no order to compare",
            first.len(),
            if first.len() == 1 { "" } else { "s" }
        )));
    }
    for _ in 1..calls {
        let (next, _) = list_all(p, ch, "tools/list", "tools", meta, true).await?;
        let next = names(&next);
        if next == first {
            continue;
        }
        let set = |names: &[String]| names.iter().cloned().collect::<BTreeSet<String>>();
        if set(&next) != set(&first) {
            return Ok(Observed::NotApplicable(format!(
                "the set of tools changed between two calls ({first:?}, then {next:?}): \
                 the order is only fixed while the set is the same"
            )));
        }
        return Ok(Observed::Broken(format!(
            "tools/list listed {first:?} and then {next:?}"
        )));
    }
    Ok(Observed::holds())
}

/// The dialects a `$schema` may name, and whether mcptest can check them.
fn dialect_problem(schema: &Value) -> Option<String> {
    match schema.get("$schema") {
        None => jsonschema::draft202012::meta::validate(schema)
            .err()
            .map(|error| {
                format!(
                    "is not valid JSON Schema 2020-12 (the dialect when $schema is absent): \
                     {error} (at {})",
                    error.instance_path()
                )
            }),
        Some(Value::String(_)) => jsonschema::meta::validate(schema).err().map(|error| {
            format!(
                "is not valid in the dialect its $schema names: {error} (at {})",
                error.instance_path()
            )
        }),
        Some(other) => Some(format!("has $schema {other}, which is not a URI string")),
    }
}

pub(crate) async fn tool_schemas_2020_12(p: &mut Probe, facts: &ClassicFacts) -> Checked {
    tools_declared(facts)?;
    let (ch, _) = p.classic_session().await?;
    let (tools, _) = list_all(p, ch, "tools/list", "tools", None, true).await?;
    if tools.is_empty() {
        return Ok(Observed::NotApplicable("the server lists no tools".into()));
    }
    let mut problems = Problems::default();
    for tool in &tools {
        let name = tool_name(tool);
        for key in ["inputSchema", "outputSchema"] {
            match tool.get(key) {
                None if key == "outputSchema" => {}
                None => problems.push(format!("tool {name:?} has no {key}")),
                Some(schema @ Value::Object(_)) => {
                    if let Some(problem) = dialect_problem(schema) {
                        problems.push(format!("tool {name:?}: {key} {problem}"));
                    }
                }
                Some(other) => {
                    problems.push(format!("tool {name:?}: {key} is {other}, not an object"))
                }
            }
        }
    }
    Ok(problems.into_finding())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schemas_are_read_as_2020_12_unless_they_say_otherwise() {
        let tuple = json!({"type": "array", "items": [{"type": "number"}]});
        assert!(dialect_problem(&tuple).is_some());
        let draft7 = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "array",
            "items": [{"type": "number"}]
        });
        assert_eq!(dialect_problem(&draft7), None);
        let old = json!({"type": "number", "exclusiveMinimum": true});
        assert!(dialect_problem(&old).unwrap().contains("2020-12"));
        assert!(dialect_problem(&json!({"$schema": 7})).is_some());
        assert_eq!(dialect_problem(&json!({"type": "object"})), None);
    }
}
