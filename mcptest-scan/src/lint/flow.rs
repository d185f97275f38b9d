//! Values that flow from one tool to another: free text passed on (E105)
//! and cycles of tools (E107).
//!
//! A flow is inferred from evidence that one tool *returns* a value: a
//! property of its `outputSchema`, or an identifier (`ticket_key`,
//! `sessionId`) that its description says it returns. The value flows to
//! every other tool that takes a parameter of the same name (the same
//! words in any naming style). Two tools that merely take the same
//! parameter are no flow: neither produces what the other takes. Names too
//! generic to say two values are the same one (`path`, `name`, `id`,
//! `query`, `content`, cursors and page tokens ...) are never matched, and
//! a tool feeding itself (pagination) is no cycle.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::{
    finding::Finding,
    pointer::{escape, subject_of},
    rules::rule,
    words::{is_verb_form, words},
};

/// Names that say nothing about which value they hold: two tools with a
/// `path` do not pass each other paths.
const GENERIC: &[&str] = &[
    "path",
    "file",
    "name",
    "type",
    "id",
    "url",
    "uri",
    "dir",
    "directory",
    "format",
    "output",
    "input",
    "mode",
    "source",
    "destination",
    "target",
    "content",
    "pattern",
    "query",
    "text",
    "encoding",
    "recursive",
    "limit",
    "offset",
    "exclude",
    "include",
    "filter",
    "options",
    "command",
    "language",
    "root",
    "data",
    "value",
    "result",
    "results",
    "status",
    "message",
    "description",
    "title",
    "body",
    "items",
    "count",
    "total",
    "cursor",
    "next_cursor",
    "page",
    "page_size",
    "per_page",
    "page_token",
    "next_page_token",
    "token",
    "has_more",
    "error",
    "success",
    "ok",
    "created_at",
    "updated_at",
    "timestamp",
    "time",
    "date",
    "size",
    "length",
    "kind",
    "version",
    "metadata",
    "tags",
    "url",
    "link",
];

/// One value a tool returns, and where the evidence is.
struct Produced {
    key: String,
    pointer: String,
    /// Constrained where it is produced (enum, pattern, format, const).
    constrained: bool,
}

/// One parameter a tool takes.
struct Taken {
    key: String,
    name: String,
    pointer: String,
    constrained: bool,
    is_string: bool,
}

/// Every finding of E105 and E107 over the tools of `doc`.
pub(crate) fn check(doc: &Value, out: &mut Vec<Finding>) {
    let Some(tools) = doc.get("tools").and_then(Value::as_array) else {
        return;
    };
    let produced: Vec<Vec<Produced>> = tools
        .iter()
        .enumerate()
        .map(|(i, t)| produces(i, t))
        .collect();
    let taken: Vec<Vec<Taken>> = tools.iter().enumerate().map(|(i, t)| takes(i, t)).collect();
    // edges[from] = {to: [key]}
    let mut edges: BTreeMap<usize, BTreeMap<usize, Vec<String>>> = BTreeMap::new();
    for (to, params) in taken.iter().enumerate() {
        for param in params {
            let mut sources: Vec<&Produced> = Vec::new();
            let mut producers: Vec<usize> = Vec::new();
            for (from, values) in produced.iter().enumerate() {
                if from == to {
                    continue;
                }
                for value in values.iter().filter(|v| v.key == param.key) {
                    edges
                        .entry(from)
                        .or_default()
                        .entry(to)
                        .or_default()
                        .push(param.name.clone());
                    if !value.constrained {
                        sources.push(value);
                        producers.push(from);
                    }
                }
            }
            if param.is_string && !param.constrained && !sources.is_empty() {
                let names: Vec<String> = producers
                    .iter()
                    .map(|p| name_of(&tools[*p]))
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .map(|n| format!("{n:?}"))
                    .collect();
                let mut finding = Finding::new(
                    rule("E105"),
                    &subject_of(doc, &param.pointer),
                    &param.pointer,
                    format!(
                        "{:?} is returned by {} as free text and taken here with no enum, \
                         pattern, format or const",
                        param.name,
                        names.join(", ")
                    ),
                    None,
                );
                finding.related = sources.iter().map(|s| s.pointer.clone()).collect();
                out.push(finding);
            }
        }
    }
    cycles(doc, tools, &edges, out);
}

fn name_of(tool: &Value) -> String {
    tool.get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// The matching key of a name: its words joined, so `ticketKey`,
/// `ticket_key` and `ticket-key` are one key; none for a generic name.
fn key(name: &str) -> Option<String> {
    let words = words(name);
    let key = words.join("_");
    if words.is_empty() || GENERIC.contains(&key.as_str()) {
        return None;
    }
    Some(key)
}

fn constrained(schema: &Map<String, Value>) -> bool {
    ["enum", "pattern", "format", "const"]
        .iter()
        .any(|k| schema.contains_key(*k))
}

/// What tool `index` returns: the properties of its output schema (two
/// levels, through arrays), and identifiers its description says it
/// returns.
fn produces(index: usize, tool: &Value) -> Vec<Produced> {
    let mut out = Vec::new();
    if let Some(schema) = tool.get("outputSchema") {
        output_properties(schema, &format!("/tools/{index}/outputSchema"), 2, &mut out);
    }
    let description = tool
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    for sentence in description.split(['.', ';', '\n']) {
        let says_returns = words(sentence).iter().any(|w| {
            ["return", "output", "produce", "yield"]
                .iter()
                .any(|r| is_verb_form(w, r))
        });
        if !says_returns {
            continue;
        }
        for token in sentence.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            let identifier = token.contains('_')
                || (token.chars().next().is_some_and(char::is_lowercase)
                    && token.chars().any(char::is_uppercase));
            if let (true, Some(key)) = (identifier, key(token)) {
                out.push(Produced {
                    key,
                    pointer: format!("/tools/{index}/description"),
                    constrained: false,
                });
            }
        }
    }
    out
}

fn output_properties(schema: &Value, at: &str, levels: usize, out: &mut Vec<Produced>) {
    // An array of objects returns its items' properties.
    let (schema, at) = match schema.get("items") {
        Some(items) if schema.get("properties").is_none() => (items, format!("{at}/items")),
        _ => (schema, at.to_owned()),
    };
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, property) in properties {
        let pointer = format!("{at}/properties/{}", escape(name));
        if let (Some(key), Some(map)) = (key(name), property.as_object()) {
            out.push(Produced {
                key,
                pointer: pointer.clone(),
                constrained: constrained(map),
            });
        }
        if levels > 1 {
            output_properties(property, &pointer, levels - 1, out);
        }
    }
}

/// The top-level parameters tool `index` takes.
fn takes(index: usize, tool: &Value) -> Vec<Taken> {
    let Some(properties) = tool
        .pointer("/inputSchema/properties")
        .and_then(Value::as_object)
    else {
        return Vec::new();
    };
    properties
        .iter()
        .filter_map(|(name, property)| {
            let map = property.as_object()?;
            Some(Taken {
                key: key(name)?,
                name: name.clone(),
                pointer: format!("/tools/{index}/inputSchema/properties/{}", escape(name)),
                constrained: constrained(map),
                is_string: map.get("type").and_then(Value::as_str) == Some("string"),
            })
        })
        .collect()
}

/// E107: each group of two or more tools that reach one another through
/// flows (a strongly connected component), once.
fn cycles(
    doc: &Value,
    tools: &[Value],
    edges: &BTreeMap<usize, BTreeMap<usize, Vec<String>>>,
    out: &mut Vec<Finding>,
) {
    for component in components(tools.len(), edges) {
        if component.len() < 2 {
            continue;
        }
        let first = component[0];
        let mut links = Vec::new();
        for from in &component {
            for (to, keys) in edges.get(from).into_iter().flatten() {
                if !component.contains(to) {
                    continue;
                }
                let keys: BTreeSet<&str> = keys.iter().map(String::as_str).collect();
                links.push(format!(
                    "{} returns {} that {} takes",
                    name_of(&tools[*from]),
                    keys.into_iter().collect::<Vec<_>>().join(", "),
                    name_of(&tools[*to])
                ));
            }
        }
        let names: Vec<String> = component.iter().map(|i| name_of(&tools[*i])).collect();
        let at = format!("/tools/{first}");
        let mut finding = Finding::new(
            rule("E107"),
            &subject_of(doc, &at),
            &at,
            format!(
                "tools {} form a cycle: {}",
                names.join(", "),
                links.join("; ")
            ),
            None,
        );
        finding.related = component[1..]
            .iter()
            .map(|i| format!("/tools/{i}"))
            .collect();
        out.push(finding);
    }
}

/// The strongly connected components of the flow graph (Tarjan), each
/// sorted, in order of their first tool.
fn components(
    count: usize,
    edges: &BTreeMap<usize, BTreeMap<usize, Vec<String>>>,
) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a BTreeMap<usize, BTreeMap<usize, Vec<String>>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        let targets: Vec<usize> = s
            .edges
            .get(&v)
            .map(|m| m.keys().copied().collect())
            .unwrap_or_default();
        for w in targets {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            component.sort_unstable();
            s.out.push(component);
        }
    }
    let mut state = State {
        edges,
        index: vec![None; count],
        low: vec![0; count],
        on_stack: vec![false; count],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..count {
        if state.index[v].is_none() {
            visit(&mut state, v);
        }
    }
    let mut out = state.out;
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn found(tools: Value) -> Vec<Finding> {
        let mut out = Vec::new();
        check(&json!({ "tools": tools }), &mut out);
        out
    }

    fn tool(name: &str, description: &str, input: Value, output: Option<Value>) -> Value {
        let mut t = json!({"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": input}});
        if let Some(output) = output {
            t["outputSchema"] = json!({"type": "object", "properties": output});
        }
        t
    }

    #[test]
    fn e105_a_returned_value_taken_as_free_text() {
        let found = found(json!([
            tool(
                "create_ticket",
                "Opens a ticket.",
                json!({}),
                Some(json!({"ticket_key": {"type": "string"}}))
            ),
            tool(
                "close_ticket",
                "Closes one.",
                json!({"ticketKey": {"type": "string"}}),
                None
            ),
            tool(
                "tag_ticket",
                "Tags one.",
                json!({"ticket_key": {"type": "string", "pattern": "^T-[0-9]+$"}}),
                None
            ),
        ]));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].rule.id, "E105");
        assert_eq!(
            found[0].pointer,
            "/tools/1/inputSchema/properties/ticketKey"
        );
        assert_eq!(
            found[0].related,
            ["/tools/0/outputSchema/properties/ticket_key"]
        );
        assert!(
            found[0].detail.contains("\"create_ticket\""),
            "{}",
            found[0].detail
        );
    }

    #[test]
    fn e105_from_an_identifier_the_description_says_it_returns() {
        let found = found(json!([
            tool(
                "open_session",
                "Opens a session and returns its session_id.",
                json!({}),
                None
            ),
            tool(
                "use_session",
                "Uses one.",
                json!({"session_id": {"type": "string"}}),
                None
            ),
            tool("mentions", "See also session_id.", json!({}), None),
        ]));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].related, ["/tools/0/description"]);
    }

    #[test]
    fn shared_inputs_and_generic_names_are_no_flow() {
        let found = found(json!([
            tool(
                "read_file",
                "Reads.",
                json!({"path": {"type": "string"}, "head": {"type": "number"}}),
                Some(json!({"content": {"type": "string"}}))
            ),
            tool(
                "read_text_file",
                "Reads text.",
                json!({"path": {"type": "string"}, "head": {"type": "number"}}),
                Some(json!({"content": {"type": "string"}}))
            ),
            tool(
                "write_file",
                "Writes.",
                json!({"content": {"type": "string"}, "path": {"type": "string"}}),
                None
            ),
        ]));
        assert_eq!(found.len(), 0, "{found:?}");
    }

    #[test]
    fn e107_one_finding_per_cycle_and_no_self_loop() {
        let found = found(json!([
            tool(
                "list_pages",
                "Lists.",
                json!({"cursor": {"type": "string"}}),
                Some(json!({"cursor": {"type": "string"}}))
            ),
            tool(
                "plan",
                "Plans.",
                json!({"draft_id": {"type": "string", "format": "uuid"}}),
                Some(json!({"plan_id": {"type": "string", "format": "uuid"}}))
            ),
            tool(
                "draft",
                "Drafts.",
                json!({"plan_id": {"type": "string", "format": "uuid"}}),
                Some(json!({"draft_id": {"type": "string", "format": "uuid"}}))
            ),
            tool(
                "review",
                "Reviews.",
                json!({"draft_id": {"type": "string", "format": "uuid"}}),
                Some(json!({"plan_id": {"type": "string", "format": "uuid"}}))
            ),
        ]));
        let ids: Vec<&str> = found.iter().map(|f| f.rule.id).collect();
        assert_eq!(ids, ["E107"], "{found:?}");
        assert_eq!(found[0].pointer, "/tools/1");
        assert_eq!(found[0].related, ["/tools/2", "/tools/3"]);
        assert!(
            found[0]
                .detail
                .contains("draft returns draft_id that plan takes"),
            "{}",
            found[0].detail
        );
    }
}
