//! The rules of the tool list as a whole: descriptions that read alike
//! (W105), the list's and each tool's token cost (W106, W115), how many
//! tools there are (W112) and how deep each input schema nests (W114).

use std::collections::{BTreeSet, HashSet};

use serde_json::Value;

use super::{finding::Finding, pointer::subject_of, rules::rule, tokens::TokenCost};

/// Two descriptions at least this alike (bigram Dice coefficient) are
/// flagged (W105).
pub(crate) const SIMILAR: f64 = 0.80;

/// A tool list of more tokens than this is flagged (W106).
pub(crate) const TOOL_LIST_TOKENS: usize = 8000;

/// A tool definition of more tokens than this is flagged (W115).
pub(crate) const TOOL_TOKENS: usize = 1000;

/// More tools than this are flagged (W112).
pub(crate) const MANY_TOOLS: usize = 20;

/// Input schemas nested deeper than this are flagged (W114).
pub(crate) const DEEP: usize = 3;

/// Every finding of the whole-list rules; `tokens` is the list's cost.
pub(crate) fn check(doc: &Value, tokens: &TokenCost, out: &mut Vec<Finding>) {
    let tools: &[Value] = doc
        .get("tools")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    similar(doc, tools, out);
    if tokens.tools_list > TOOL_LIST_TOKENS {
        out.push(Finding::new(
            rule("W106"),
            "the tool list",
            "/tools",
            format!(
                "tools/list is {} tokens ({}), more than {TOOL_LIST_TOKENS}",
                tokens.tools_list, tokens.encoding
            ),
            None,
        ));
    }
    for tool in &tokens.tools {
        if tool.tokens > TOOL_TOKENS {
            out.push(Finding::new(
                rule("W115"),
                &subject_of(doc, &tool.pointer),
                &tool.pointer,
                format!(
                    "its definition is {} tokens ({}), more than {TOOL_TOKENS}",
                    tool.tokens, tokens.encoding
                ),
                None,
            ));
        }
    }
    if tools.len() > MANY_TOOLS {
        out.push(Finding::new(
            rule("W112"),
            "the tool list",
            "/tools",
            format!("{} tools, more than {MANY_TOOLS}", tools.len()),
            None,
        ));
    }
    for (index, tool) in tools.iter().enumerate() {
        let Some(schema) = tool.get("inputSchema") else {
            continue;
        };
        let depth = depth(schema, schema, &mut HashSet::new());
        if depth > DEEP {
            let at = format!("/tools/{index}/inputSchema");
            out.push(Finding::new(
                rule("W114"),
                &subject_of(doc, &at),
                &at,
                format!("its arguments nest {depth} levels deep, more than {DEEP}"),
                None,
            ));
        }
    }
}

/// A tool's index, description and the description's bigrams.
type Described<'a> = (usize, &'a str, BTreeSet<(char, char)>);

/// W105: each pair of tools whose descriptions are at least [`SIMILAR`]
/// alike, reported on the first of the two.
fn similar(doc: &Value, tools: &[Value], out: &mut Vec<Finding>) {
    let described: Vec<Described> = tools
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let text = t.get("description")?.as_str()?.trim();
            (!text.is_empty()).then(|| (i, text, bigrams(text)))
        })
        .collect();
    for (n, (i, a, bigrams_a)) in described.iter().enumerate() {
        for (j, b, bigrams_b) in &described[n + 1..] {
            let score = if a == b {
                1.0
            } else {
                dice(bigrams_a, bigrams_b)
            };
            if score >= SIMILAR {
                let at = format!("/tools/{i}/description");
                let other = tools[*j]
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let mut finding = Finding::new(
                    rule("W105"),
                    &subject_of(doc, &at),
                    &at,
                    format!(
                        "its description is {:.0}% like that of tool {other:?}",
                        (score * 100.0).floor()
                    ),
                    None,
                );
                finding.related = vec![format!("/tools/{j}/description")];
                out.push(finding);
            }
        }
    }
}

/// The set of adjacent character pairs of `text`, lowercased.
fn bigrams(text: &str) -> BTreeSet<(char, char)> {
    let chars: Vec<char> = text.to_lowercase().chars().collect();
    chars.windows(2).map(|w| (w[0], w[1])).collect()
}

/// The Dice coefficient of two bigram sets: twice the shared pairs over
/// all pairs.
fn dice(a: &BTreeSet<(char, char)>, b: &BTreeSet<(char, char)>) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let shared = a.intersection(b).count();
    2.0 * shared as f64 / (a.len() + b.len()) as f64
}

/// How many levels of objects a value of `schema` nests: a flat object is
/// 1, an object holding objects 2, and so on. Arrays add no level of their
/// own; `anyOf`/`oneOf`/`allOf` take their deepest branch; local `$ref`s
/// are followed once each (a recursive schema is measured to where it
/// repeats).
fn depth(schema: &Value, root: &Value, seen: &mut HashSet<String>) -> usize {
    let Some(map) = schema.as_object() else {
        return 0;
    };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        let Some(target) = reference.strip_prefix('#').and_then(|p| root.pointer(p)) else {
            return 0;
        };
        if !seen.insert(reference.to_owned()) {
            return 0;
        }
        let d = depth(target, root, seen);
        seen.remove(reference);
        return d;
    }
    let mut deepest = 0;
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(branches) = map.get(key).and_then(Value::as_array) {
            for branch in branches {
                deepest = deepest.max(depth(branch, root, seen));
            }
        }
    }
    if let Some(items) = map.get("items") {
        deepest = deepest.max(depth(items, root, seen));
    }
    let mut children: Vec<&Value> = Vec::new();
    if let Some(properties) = map.get("properties").and_then(Value::as_object) {
        children.extend(properties.values());
    }
    if let Some(patterns) = map.get("patternProperties").and_then(Value::as_object) {
        children.extend(patterns.values());
    }
    if let Some(extra) = map.get("additionalProperties").filter(|v| v.is_object()) {
        children.push(extra);
    }
    let is_object = map.contains_key("properties")
        || map.contains_key("patternProperties")
        || map
            .get("additionalProperties")
            .is_some_and(Value::is_object);
    if is_object {
        let inner = children
            .into_iter()
            .map(|c| depth(c, root, seen))
            .max()
            .unwrap_or(0);
        deepest = deepest.max(1 + inner);
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::tokens::of_document;
    use serde_json::json;

    fn found(doc: &Value) -> Vec<Finding> {
        let mut out = Vec::new();
        check(doc, &of_document(doc), &mut out);
        out
    }

    fn tool(name: &str, description: &str) -> Value {
        json!({"name": name, "description": description, "inputSchema": {"type": "object"}})
    }

    #[test]
    fn w105_descriptions_alike_by_bigrams() {
        let doc = json!({"tools": [
            tool("list_directory", "Get a detailed listing of all files and directories in a specified path."),
            tool("list_directory_with_sizes", "Get a detailed listing of all files and directories in a specified path, including sizes."),
            tool("get_weather", "Returns the weather in a city."),
        ]});
        let found = found(&doc);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].rule.id, "W105");
        assert_eq!(found[0].pointer, "/tools/0/description");
        assert_eq!(found[0].related, ["/tools/1/description"]);
        assert!(
            found[0].detail.contains("\"list_directory_with_sizes\""),
            "{}",
            found[0].detail
        );
        assert!((dice(&bigrams("night"), &bigrams("nacht")) - 0.25).abs() < 1e-9);
    }

    #[test]
    fn w106_w115_token_costs() {
        let words: Vec<String> = (0..400).map(|i| format!("Zone_{i:04}")).collect();
        let big = json!({"name": "big", "description": "Returns one zone.", "inputSchema": {
            "type": "object", "properties": {"zone": {"type": "string", "enum": words}}}});
        let doc = json!({"tools": [big, tool("small", "Returns a small thing.")]});
        let ids: Vec<&str> = found(&doc).iter().map(|f| f.rule.id).collect();
        assert_eq!(ids, ["W115"]);
        let many: Vec<Value> = (0..10)
            .map(|i| {
                let mut t = doc["tools"][0].clone();
                t["name"] = json!(format!("big{i}"));
                t["description"] = json!(format!(
                    "Returns zone number {i} of {}.",
                    "abcdefghij".repeat(i)
                ));
                t
            })
            .collect();
        let found = found(&json!({"tools": many}));
        let w106: Vec<&Finding> = found.iter().filter(|f| f.rule.id == "W106").collect();
        assert_eq!(w106.len(), 1);
        assert_eq!(w106[0].pointer, "/tools");
        assert!(w106[0].detail.contains("o200k_base"), "{}", w106[0].detail);
        assert_eq!(found.iter().filter(|f| f.rule.id == "W115").count(), 10);
    }

    #[test]
    fn w112_more_than_twenty_tools() {
        let tools: Vec<Value> = (0..21)
            .map(|i| {
                tool(
                    &format!("t{i}"),
                    &format!("Returns thing {i} {}.", "x".repeat(i * 3)),
                )
            })
            .collect();
        let found = found(&json!({"tools": tools}));
        let ids: Vec<&str> = found.iter().map(|f| f.rule.id).collect();
        assert!(ids.contains(&"W112"), "{ids:?}");
        let tools: Vec<Value> = (0..20).map(|i| tool(&format!("t{i}"), "x")).collect();
        assert!(!found_ids(&json!({"tools": tools})).contains(&"W112".to_owned()));
    }

    fn found_ids(doc: &Value) -> Vec<String> {
        found(doc).iter().map(|f| f.rule.id.to_owned()).collect()
    }

    #[test]
    fn w114_depth_counts_objects_through_arrays_refs_and_branches() {
        let level = |inner: Value| json!({"type": "object", "properties": {"a": inner}});
        let flat = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert_eq!(depth(&flat, &flat, &mut HashSet::new()), 1);
        let three = level(level(flat.clone()));
        assert_eq!(depth(&three, &three, &mut HashSet::new()), 3);
        let four = level(json!({"type": "array", "items": level(level(flat.clone()))}));
        assert_eq!(depth(&four, &four, &mut HashSet::new()), 4);
        let by_ref = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"anyOf": [{"type": "null"}, level(level(flat.clone()))]}}});
        assert_eq!(depth(&by_ref, &by_ref, &mut HashSet::new()), 4);
        let recursive = json!({"type": "object", "properties": {"node": {"$ref": "#/$defs/N"}},
            "$defs": {"N": {"type": "object", "properties": {"child": {"$ref": "#/$defs/N"}}}}});
        assert_eq!(depth(&recursive, &recursive, &mut HashSet::new()), 2);
        let doc =
            json!({"tools": [{"name": "deep", "description": "Returns.", "inputSchema": four}]});
        let found = found(&doc);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].rule.id, "W114");
        assert_eq!(found[0].pointer, "/tools/0/inputSchema");
    }
}
