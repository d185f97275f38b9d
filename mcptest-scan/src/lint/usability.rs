//! The agent-usability rules of one tool at a time: its description (E101,
//! W101, W108, W110, W111, W113, W116), its parameters (E102, E103, E112,
//! W102, W103, W104, W109) and its name among the others (E113).
//!
//! Words are compared as words ([`words`]), never as substrings: `set` is
//! not found in `get_settings`, nor `put` in `input`, nor `name` in
//! `filename`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{
    finding::Finding,
    pointer::{escape, subject_of},
    rules::rule,
    words::{contains_words, is_verb_form, words},
};

/// Descriptions that say nothing, whole (case and outer spaces ignored).
const VAGUE: &[&str] = &[
    "get data",
    "process data",
    "do something",
    "execute",
    "run",
    "handle",
    "perform action",
    "utility",
    "helper",
];

/// Shorter than this (in characters), a description cannot say when to use
/// the tool (W111).
pub(crate) const SHORT_DESCRIPTION: usize = 20;

/// Longer than this, a description costs context on every request (W111).
pub(crate) const LONG_DESCRIPTION_WARNING: usize = 500;

/// Parameter names that say nothing about what they hold (W104).
const GENERIC_NAMES: &[&str] = &[
    "data", "value", "input", "output", "payload", "info", "content", "body", "params", "args",
    "options", "config", "settings", "result", "object", "item", "obj", "val", "str", "num",
];

/// Words of a parameter name whose values no enum or pattern could list:
/// paths, identifiers, names and free text (W103 leaves them out).
const OPEN_BY_NATURE: &[&str] = &[
    "path",
    "paths",
    "file",
    "files",
    "filename",
    "dir",
    "directory",
    "folder",
    "root",
    "source",
    "destination",
    "target",
    "uri",
    "url",
    "link",
    "id",
    "ids",
    "uuid",
    "key",
    "name",
    "names",
    "title",
    "text",
    "content",
    "message",
    "body",
    "query",
    "search",
    "q",
    "pattern",
    "glob",
    "regex",
    "code",
    "script",
    "command",
    "cmd",
    "prompt",
    "instructions",
    "description",
    "comment",
    "note",
    "notes",
    "summary",
    "template",
    "expression",
    "selector",
    "filter",
    "question",
    "answer",
    "token",
    "cursor",
];

/// Words of a parameter name that a person types or reads: models fill
/// them better when shown an example (W109).
const USER_FACING: &[&str] = &[
    "query", "search", "email", "url", "uri", "phone", "address", "username", "name", "title",
    "message", "prompt", "question", "filter", "sort", "locale", "timezone", "language",
    "currency", "country", "region",
];

/// Word sequences of a parameter name that carries a secret (E112).
const SECRET_NAMES: &[&[&str]] = &[
    &["password"],
    &["passwd"],
    &["passphrase"],
    &["secret"],
    &["api", "key"],
    &["apikey"],
    &["private", "key"],
    &["privatekey"],
    &["access", "key"],
    &["accesskey"],
    &["credential"],
    &["credentials"],
    &["bearer"],
    &["jwt"],
    &["auth", "token"],
    &["access", "token"],
    &["refresh", "token"],
    &["bearer", "token"],
    &["api", "token"],
    &["session", "token"],
    &["id", "token"],
];

/// Last words that make a secret-sounding name refer to a secret rather
/// than hold one: `secret_name`, `password_file`, `api_key_id`.
const REFERS_TO_SECRET: &[&str] = &[
    "id",
    "ids",
    "name",
    "names",
    "arn",
    "path",
    "file",
    "ref",
    "reference",
    "count",
    "length",
    "policy",
    "type",
    "env",
    "var",
    "variable",
    "hint",
    "expiry",
    "expires",
    "ttl",
    "field",
];

/// Verbs in a tool's name that make it change state (W108).
const MUTATION_VERBS: &[&str] = &[
    "create", "delete", "remove", "update", "modify", "write", "insert", "drop", "destroy", "set",
    "put", "post", "send", "publish", "push", "add", "patch", "replace", "upload", "move",
    "rename", "save", "store", "submit", "edit", "append",
];

/// Words of a description that admit a change of state (W108), besides any
/// form of a mutation verb.
const SIDE_EFFECT_WORDS: &[&str] = &[
    "overwrite",
    "mutate",
    "change",
    "persist",
    "destructive",
    "irreversible",
    "irreversibly",
    "permanently",
    "idempotent",
];

/// Actions a description can name; more than [`OVERLOADED`] different ones
/// make a tool overloaded (W113).
const ACTIONS: &[&str] = &[
    "get",
    "fetch",
    "read",
    "list",
    "search",
    "find",
    "query",
    "create",
    "add",
    "insert",
    "write",
    "post",
    "send",
    "publish",
    "update",
    "modify",
    "patch",
    "set",
    "change",
    "replace",
    "delete",
    "remove",
    "destroy",
    "drop",
    "clear",
    "validate",
    "check",
    "verify",
    "test",
    "convert",
    "transform",
    "parse",
    "format",
];

/// At most this many actions per description (W113).
const OVERLOADED: usize = 3;

/// The words of a description that say what comes back (W116).
const RETURN_WORDS: &[&str] = &["return", "output", "produce", "respond", "yield", "result"];

/// Phrases of a parameter's description that give an example.
const EXAMPLE_PHRASES: &[&str] = &[
    "e.g.",
    "for example",
    "for instance",
    "such as",
    "example:",
    "examples:",
    "one of",
    "like '",
    "like \"",
    "like `",
];

/// Every finding of the one-tool rules over the tools of `doc`.
pub(crate) fn check(doc: &Value, out: &mut Vec<Finding>) {
    let Some(tools) = doc.get("tools").and_then(Value::as_array) else {
        return;
    };
    duplicate_names(doc, tools, out);
    for (index, tool) in tools.iter().enumerate() {
        let at = format!("/tools/{index}");
        let tool_check = ToolCheck {
            subject: subject_of(doc, &at),
            at,
            tool,
            description: tool
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("")
                .trim(),
        };
        tool_check.description_rules(out);
        tool_check.parameter_rules(out);
    }
}

/// One tool under check.
struct ToolCheck<'a> {
    subject: String,
    at: String,
    tool: &'a Value,
    description: &'a str,
}

impl ToolCheck<'_> {
    fn push(&self, out: &mut Vec<Finding>, id: &str, pointer: String, detail: String) {
        out.push(Finding::new(
            rule(id),
            &self.subject,
            &pointer,
            detail,
            None,
        ));
    }

    fn name(&self) -> &str {
        self.tool.get("name").and_then(Value::as_str).unwrap_or("")
    }

    fn description_rules(&self, out: &mut Vec<Finding>) {
        let at = format!("{}/description", self.at);
        let description = self.description;
        if description.is_empty() {
            self.push(out, "E101", at, "the tool has no description".into());
            return;
        }
        let length = description.chars().count();
        let lower = description.to_lowercase();
        let vague = VAGUE.contains(&lower.as_str())
            || (length < 10 && !description.chars().any(char::is_whitespace));
        if vague {
            self.push(
                out,
                "W101",
                at.clone(),
                format!("{description:?} says nothing about what the tool does or when to use it"),
            );
        } else if length < SHORT_DESCRIPTION {
            // A vague description is W101's; it is short too, and one
            // finding says it.
            self.push(
                out,
                "W111",
                at.clone(),
                format!("{length} characters, fewer than {SHORT_DESCRIPTION}"),
            );
        }
        if length > LONG_DESCRIPTION_WARNING {
            self.push(
                out,
                "W111",
                at.clone(),
                format!("{length} characters, more than {LONG_DESCRIPTION_WARNING}"),
            );
        }
        let prose = words(description);
        if self.tool.get("outputSchema").is_none()
            && !prose
                .iter()
                .any(|w| RETURN_WORDS.iter().any(|r| is_verb_form(w, r)))
        {
            self.push(
                out,
                "W116",
                at.clone(),
                "the description does not say what the tool returns, and there is no outputSchema"
                    .into(),
            );
        }
        self.hidden_side_effects(&prose, out);
        let actions: Vec<&str> = ACTIONS
            .iter()
            .filter(|a| prose.iter().any(|w| is_verb_form(w, a)))
            .copied()
            .collect();
        if actions.len() > OVERLOADED {
            self.push(
                out,
                "W113",
                at.clone(),
                format!(
                    "it names {} different actions ({}), more than {OVERLOADED}",
                    actions.len(),
                    actions.join(", ")
                ),
            );
        }
        self.drift(&prose, at, out);
    }

    /// W108: a tool named for a change whose description and annotations
    /// never admit one.
    fn hidden_side_effects(&self, prose: &[String], out: &mut Vec<Finding>) {
        let Some(verb) = words(self.name())
            .into_iter()
            .find(|w| MUTATION_VERBS.contains(&w.as_str()))
        else {
            return;
        };
        let annotations = self.tool.get("annotations");
        let hint = |key: &str| annotations.and_then(|a| a.get(key));
        let annotated = hint("destructiveHint") == Some(&Value::Bool(true))
            || hint("readOnlyHint") == Some(&Value::Bool(false))
            || hint("idempotentHint").is_some_and(Value::is_boolean);
        let admitted = prose.iter().any(|w| {
            MUTATION_VERBS
                .iter()
                .chain(SIDE_EFFECT_WORDS)
                .any(|v| is_verb_form(w, v))
        }) || contains_words(prose, &words("side effect"))
            || contains_words(prose, &words("cannot be undone"));
        if !annotated && !admitted {
            self.push(
                out,
                "W108",
                format!("{}/description", self.at),
                format!(
                    "its name says {verb:?}, yet neither its description nor its annotations \
                     (readOnlyHint, destructiveHint, idempotentHint) say it changes anything"
                ),
            );
        }
    }

    /// W110: fewer than half of the parameters named in the description.
    fn drift(&self, prose: &[String], at: String, out: &mut Vec<Finding>) {
        let Some(properties) = self.properties() else {
            return;
        };
        if properties.len() < 2 {
            return;
        }
        let mentioned = properties
            .keys()
            .filter(|name| {
                words(name).iter().any(|word| {
                    word.chars().count() > 2 && prose.iter().any(|p| p.starts_with(word.as_str()))
                })
            })
            .count();
        if mentioned * 2 < properties.len() {
            self.push(
                out,
                "W110",
                at,
                format!(
                    "it names {mentioned} of its {} parameters ({})",
                    properties.len(),
                    properties.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }

    fn properties(&self) -> Option<&Map<String, Value>> {
        self.tool.get("inputSchema")?.get("properties")?.as_object()
    }

    fn parameter_rules(&self, out: &mut Vec<Finding>) {
        let Some(properties) = self.properties() else {
            return;
        };
        let required: Vec<&str> = self
            .tool
            .pointer("/inputSchema/required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let tool_prose = words(self.description);
        for (name, property) in properties {
            let Some(map) = property.as_object() else {
                continue;
            };
            let parameter = Parameter {
                name,
                map,
                at: format!("{}/inputSchema/properties/{}", self.at, escape(name)),
                required: required.contains(&name.as_str()),
                named_in_tool: contains_words(&tool_prose, &words(name)),
            };
            self.parameter(&parameter, out);
        }
    }

    fn parameter(&self, p: &Parameter, out: &mut Vec<Finding>) {
        let name = p.name;
        if !p.typed() {
            self.push(
                out,
                "E102",
                format!("{}/type", p.at),
                format!("parameter {name:?} has no type"),
            );
        }
        if !p.described() {
            let (id, which) = if p.required {
                ("E103", "required")
            } else {
                ("W102", "optional")
            };
            self.push(
                out,
                id,
                format!("{}/description", p.at),
                format!(
                    "{which} parameter {name:?} has no description, and the tool's description \
                     does not name it"
                ),
            );
            if GENERIC_NAMES.contains(&name.to_lowercase().as_str()) {
                self.push(
                    out,
                    "W104",
                    p.at.clone(),
                    format!("{name:?} is a generic name and nothing describes it"),
                );
            }
        }
        if p.is_type("string") && p.required && !p.shaped() && !p.open_by_nature() {
            self.push(
                out,
                "W103",
                p.at.clone(),
                format!(
                    "required string {name:?} has no enum, pattern, format, const, examples or \
                     default, and its description gives no example"
                ),
            );
        }
        let name_words = words(name);
        let user_facing = name_words.iter().any(|w| {
            USER_FACING
                .iter()
                .any(|u| w == u || w.strip_suffix('s') == Some(u))
        });
        if user_facing && p.takes_strings() && !p.exemplified() {
            self.push(
                out,
                "W109",
                format!("{}/examples", p.at),
                format!("user-facing parameter {name:?} has no examples, enum or default"),
            );
        }
        if secret_name(&name_words) && p.map.get("writeOnly") != Some(&Value::Bool(true)) {
            self.push(
                out,
                "E112",
                p.at.clone(),
                format!("parameter {name:?} carries a secret and is not marked writeOnly: true"),
            );
        }
    }
}

/// One top-level parameter of a tool's input schema.
struct Parameter<'a> {
    name: &'a str,
    map: &'a Map<String, Value>,
    at: String,
    required: bool,
    /// The tool's description names it (as whole words).
    named_in_tool: bool,
}

impl Parameter<'_> {
    fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    fn description(&self) -> &str {
        self.map
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
    }

    /// A type, or keywords that give one.
    fn typed(&self) -> bool {
        ["type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf"]
            .iter()
            .any(|k| self.has(k))
    }

    fn described(&self) -> bool {
        !self.description().is_empty() || self.named_in_tool
    }

    fn is_type(&self, wanted: &str) -> bool {
        match self.map.get("type") {
            Some(Value::String(t)) => t == wanted,
            Some(Value::Array(types)) => types.iter().any(|t| t == wanted),
            _ => false,
        }
    }

    /// A string, or an array of strings.
    fn takes_strings(&self) -> bool {
        self.is_type("string")
            || (!self.has("type") && !self.has("items"))
            || (self.is_type("array")
                && self
                    .map
                    .get("items")
                    .and_then(|i| i.get("type"))
                    .is_some_and(|t| t == "string"))
    }

    fn example_in_description(&self) -> bool {
        let lower = self.description().to_lowercase();
        EXAMPLE_PHRASES.iter().any(|p| lower.contains(p))
    }

    /// Its values are shown or bounded: enum, pattern, format, const,
    /// examples, default, or an example in its description.
    fn shaped(&self) -> bool {
        ["enum", "pattern", "format", "const", "examples", "default"]
            .iter()
            .any(|k| self.has(k))
            || self.example_in_description()
    }

    fn exemplified(&self) -> bool {
        ["examples", "enum", "default", "const"]
            .iter()
            .any(|k| self.has(k))
            || self.example_in_description()
            || self
                .map
                .get("items")
                .is_some_and(|i| i.get("enum").is_some() || i.get("examples").is_some())
    }

    fn open_by_nature(&self) -> bool {
        words(self.name)
            .iter()
            .any(|w| OPEN_BY_NATURE.contains(&w.as_str()))
    }
}

/// A name that holds a secret: it contains a secret word sequence, and does
/// not end in a word that makes it refer to one (`secret_name`).
fn secret_name(name_words: &[String]) -> bool {
    let holds = SECRET_NAMES.iter().any(|seq| {
        let seq: Vec<String> = seq.iter().map(|s| (*s).to_owned()).collect();
        // A lone `token` is a credential; `max_tokens`, `page_token` and
        // `token_count` are not.
        contains_words(name_words, &seq)
    }) || name_words == ["token"];
    let refers = name_words
        .last()
        .is_some_and(|w| REFERS_TO_SECRET.contains(&w.as_str()))
        && name_words.len() > 1;
    holds && !refers
}

/// E113: a name listed more than once; one finding per name, at its second
/// listing.
fn duplicate_names(doc: &Value, tools: &[Value], out: &mut Vec<Finding>) {
    let mut seen: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (index, tool) in tools.iter().enumerate() {
        if let Some(name) = tool.get("name").and_then(Value::as_str) {
            seen.entry(name).or_default().push(index);
        }
    }
    for (name, indexes) in seen {
        if let [first, second, ..] = indexes[..] {
            let at = format!("/tools/{second}/name");
            let mut finding = Finding::new(
                rule("E113"),
                &subject_of(doc, &at),
                &at,
                format!(
                    "{name:?} is listed {} times (first at /tools/{first}/name)",
                    indexes.len()
                ),
                None,
            );
            finding.related = indexes
                .iter()
                .filter(|i| **i != second)
                .map(|i| format!("/tools/{i}/name"))
                .collect();
            out.push(finding);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The ids and pointers found for `tools`.
    fn found(tools: Value) -> Vec<(String, String)> {
        let mut out = Vec::new();
        check(&json!({ "tools": tools }), &mut out);
        out.into_iter()
            .map(|f| (f.rule.id.to_owned(), f.pointer))
            .collect()
    }

    fn ids(tools: Value) -> Vec<String> {
        let mut ids: Vec<String> = found(tools).into_iter().map(|(id, _)| id).collect();
        ids.sort();
        ids
    }

    /// A tool that no rule of this file flags, with `patch` merged in.
    fn tool(patch: Value) -> Value {
        let mut tool = json!({
            "name": "get_forecast",
            "description": "Returns the weather forecast for a city.",
            "inputSchema": {"type": "object", "properties": {
                "city": {"type": "string", "description": "The city, e.g. \"Paris\"."}
            }, "required": ["city"]}
        });
        for (k, v) in patch.as_object().unwrap() {
            if v.is_null() {
                tool.as_object_mut().unwrap().remove(k);
            } else {
                tool[k] = v.clone();
            }
        }
        tool
    }

    fn schema(properties: Value, required: &[&str]) -> Value {
        json!({"type": "object", "properties": properties, "required": required})
    }

    #[test]
    fn a_plain_tool_trips_nothing() {
        assert_eq!(found(json!([tool(json!({}))])), vec![]);
    }

    #[test]
    fn e101_a_missing_or_blank_description() {
        assert_eq!(
            found(json!([tool(json!({"description": null}))])),
            [("E101".into(), "/tools/0/description".into())]
        );
        assert_eq!(ids(json!([tool(json!({"description": "  "}))])), ["E101"]);
    }

    #[test]
    fn w101_vague_and_w111_short_are_one_finding() {
        assert_eq!(
            ids(json!([tool(json!({"description": "Utility"}))])),
            ["W101", "W116"]
        );
        assert_eq!(
            ids(json!([tool(json!({"description": "Returns."}))])),
            ["W101"]
        );
        // Short, but with a space: not vague, only short.
        assert_eq!(
            ids(json!([tool(json!({"description": "Returns a city."}))])),
            ["W111"]
        );
    }

    #[test]
    fn w111_long() {
        let long = format!("Returns the forecast. {}", "Very detailed. ".repeat(40));
        assert_eq!(ids(json!([tool(json!({"description": long}))])), ["W111"]);
    }

    #[test]
    fn w116_no_word_for_the_output_unless_there_is_an_output_schema() {
        let quiet = json!({"description": "Looks up the weather for a city."});
        assert_eq!(ids(json!([tool(quiet.clone())])), ["W116"]);
        let mut with_schema = tool(quiet);
        with_schema["outputSchema"] = json!({"type": "object"});
        assert_eq!(ids(json!([with_schema])), Vec::<String>::new());
        for text in [
            "Looks up the weather; the result is a table.",
            "Looks up the weather and outputs a table.",
            "Looks up the weather, returning a table.",
        ] {
            assert_eq!(
                ids(json!([tool(json!({"description": text}))])),
                Vec::<String>::new()
            );
        }
    }

    #[test]
    fn e102_untyped_parameters_and_what_counts_as_a_type() {
        let tools = json!([tool(json!({
            "description": "Returns the forecast for a city over some days, in units, at a place.",
            "inputSchema": schema(json!({
            "city": {"description": "The city, e.g. Paris"},
            "days": {"anyOf": [{"type": "integer"}, {"type": "null"}], "description": "Days."},
            "units": {"enum": ["metric", "imperial"], "description": "Units."},
            "place": {"$ref": "#/$defs/place", "description": "A place."}
        }), &["city"])
        }))]);
        assert_eq!(
            found(tools),
            [(
                "E102".into(),
                "/tools/0/inputSchema/properties/city/type".into()
            )]
        );
    }

    #[test]
    fn e103_w102_w104_undescribed_parameters_unless_the_tool_names_them() {
        let tools = json!([tool(json!({
            "description": "Returns the weather forecast.",
            "inputSchema": schema(json!({
                "city": {"type": "string", "examples": ["Paris"]},
                "data": {"type": "object"},
                "detail": {"type": "boolean"}
            }), &["city"])
        }))]);
        assert_eq!(
            found(tools),
            [
                ("W110".into(), "/tools/0/description".into()),
                (
                    "E103".into(),
                    "/tools/0/inputSchema/properties/city/description".into()
                ),
                (
                    "W102".into(),
                    "/tools/0/inputSchema/properties/data/description".into()
                ),
                ("W104".into(), "/tools/0/inputSchema/properties/data".into()),
                (
                    "W102".into(),
                    "/tools/0/inputSchema/properties/detail/description".into()
                ),
            ]
        );
        // Named in the tool's description: described there.
        let tools = json!([tool(json!({
            "description": "Returns the forecast for a city, with the data and detail asked for.",
            "inputSchema": schema(json!({
                "city": {"type": "string", "examples": ["Paris"]},
                "data": {"type": "object"},
                "detail": {"type": "boolean"}
            }), &["city"])
        }))]);
        assert_eq!(found(tools), vec![]);
    }

    #[test]
    fn w103_closed_kinds_of_string_need_a_shape_and_open_ones_do_not() {
        let p = |extra: Value| {
            let mut status = json!({"type": "string", "description": "The status."});
            for (k, v) in extra.as_object().unwrap() {
                status[k] = v.clone();
            }
            json!([tool(json!({
                "description": "Returns the tickets with a status.",
                "inputSchema": schema(json!({"status": status}), &["status"])
            }))])
        };
        assert_eq!(
            found(p(json!({}))),
            [(
                "W103".into(),
                "/tools/0/inputSchema/properties/status".into()
            )]
        );
        for shape in [
            json!({"enum": ["open"]}),
            json!({"pattern": "^[a-z]+$"}),
            json!({"format": "date"}),
            json!({"const": "open"}),
            json!({"examples": ["open"]}),
            json!({"default": "open"}),
            json!({"description": "The status, e.g. open."}),
        ] {
            assert_eq!(found(p(shape.clone())), vec![], "{shape}");
        }
        // Paths, ids, names and free text: no enum could list them.
        let tools = json!([tool(json!({
            "description": "Returns the file at path for the ticket id, with the content and query.",
            "inputSchema": schema(json!({
                "path": {"type": "string", "description": "A path."},
                "ticket_id": {"type": "string", "description": "An id."},
                "content": {"type": "string", "description": "Text."},
                "query": {"type": "string", "description": "A query such as \"x\"."}
            }), &["path", "ticket_id", "content", "query"])
        }))]);
        assert_eq!(found(tools), vec![]);
    }

    #[test]
    fn w104_generic_names_only_without_a_description() {
        let tools = json!([tool(json!({
            "description": "Returns the forecast for a value in degrees.",
            "inputSchema": schema(json!({
                "value": {"type": "number", "description": "Degrees."},
                "payload": {"type": "object"}
            }), &[])
        }))]);
        let ids: Vec<_> = found(tools)
            .into_iter()
            .map(|(id, p)| format!("{id} {p}"))
            .collect();
        assert_eq!(
            ids,
            [
                "W102 /tools/0/inputSchema/properties/payload/description",
                "W104 /tools/0/inputSchema/properties/payload",
            ]
        );
    }

    #[test]
    fn w108_mutation_names_whose_description_or_annotations_admit_nothing() {
        let quiet = |name: &str| {
            tool(
                json!({"name": name, "description": "Delivers the note to the team; returns its number."}),
            )
        };
        assert_eq!(
            found(json!([quiet("send_note")])),
            [("W108".into(), "/tools/0/description".into())]
        );
        // Words, not substrings: no verb in these names.
        for name in [
            "get_settings",
            "compute_input",
            "get_address",
            "postgres_query",
        ] {
            assert_eq!(found(json!([quiet(name)])), vec![], "{name}");
        }
        // Admitted in the description or the annotations.
        let admitted = tool(
            json!({"name": "send_note", "description": "Sends the note; returns its number."}),
        );
        assert_eq!(found(json!([admitted])), vec![]);
        let imperative = tool(
            json!({"name": "write_note", "description": "Create or overwrite a note; returns its number."}),
        );
        assert_eq!(found(json!([imperative])), vec![]);
        for annotations in [
            json!({"destructiveHint": true}),
            json!({"readOnlyHint": false}),
            json!({"idempotentHint": true}),
        ] {
            let mut t = quiet("send_note");
            t["annotations"] = annotations.clone();
            assert_eq!(found(json!([t])), vec![], "{annotations}");
        }
    }

    #[test]
    fn w109_user_facing_strings_need_an_example() {
        let tools = json!([tool(json!({
            "description": "Returns the users matching a query, sorted, with a flag and a limit.",
            "inputSchema": schema(json!({
                "query": {"type": "string", "description": "Words to find."},
                "sort": {"type": "string", "enum": ["name", "age"], "description": "Order."},
                "flag": {"type": "boolean", "description": "A flag."},
                "limit": {"type": "integer", "description": "At most."},
                "filename": {"type": "string", "description": "A file."},
                "user_names": {"type": "array", "items": {"type": "string"}, "description": "Names."}
            }), &[])
        }))]);
        assert_eq!(
            found(tools),
            [
                (
                    "W109".into(),
                    "/tools/0/inputSchema/properties/query/examples".into()
                ),
                (
                    "W109".into(),
                    "/tools/0/inputSchema/properties/user_names/examples".into()
                ),
            ]
        );
    }

    #[test]
    fn w110_drift_counts_parameters_named_in_any_naming_style() {
        let with = |description: &str| {
            json!([tool(json!({
                "description": description,
                "inputSchema": schema(json!({
                    "city": {"type": "string", "description": "e.g. Paris"},
                    "dryRun": {"type": "boolean", "description": "Only pretend."},
                    "max_days": {"type": "integer", "description": "Days."}
                }), &[])
            }))])
        };
        assert_eq!(ids(with("Returns the weather.")), ["W110"]);
        assert_eq!(
            ids(with("Returns the weather for a city; a dry run first.")),
            Vec::<String>::new()
        );
    }

    #[test]
    fn w113_more_than_three_actions() {
        let t = tool(
            json!({"description": "Reads, converts, validates and formats the forecast; returns it."}),
        );
        assert_eq!(ids(json!([t])), ["W113"]);
        let t = tool(json!({"description": "Reads and converts the forecast; returns it."}));
        assert_eq!(ids(json!([t])), Vec::<String>::new());
    }

    #[test]
    fn e112_secret_parameters_unless_write_only_or_a_reference() {
        let tools = json!([tool(json!({
            "description": "Returns a session for the password, api key, access token and the others.",
            "inputSchema": schema(json!({
                "password": {"type": "string", "description": "The password."},
                "apiKey": {"type": "string", "description": "The key.", "writeOnly": true},
                "accessToken": {"type": "string", "description": "A token."},
                "token": {"type": "string", "description": "A token."},
                "max_tokens": {"type": "integer", "description": "At most."},
                "page_token": {"type": "string", "description": "A page."},
                "secret_name": {"type": "string", "description": "Which secret."},
                "password_file": {"type": "string", "description": "Where it is."}
            }), &[])
        }))]);
        let pointers: Vec<String> = found(tools)
            .into_iter()
            .filter(|(id, _)| id == "E112")
            .map(|(_, p)| p)
            .collect();
        assert_eq!(
            pointers,
            [
                "/tools/0/inputSchema/properties/accessToken",
                "/tools/0/inputSchema/properties/password",
                "/tools/0/inputSchema/properties/token",
            ]
        );
    }

    #[test]
    fn e113_a_name_listed_twice_is_one_finding_at_the_second() {
        let mut out = Vec::new();
        let doc = json!({"tools": [tool(json!({})), tool(json!({"description": "Returns the forecast, again."})), tool(json!({}))]});
        check(&doc, &mut out);
        let e113: Vec<&Finding> = out.iter().filter(|f| f.rule.id == "E113").collect();
        assert_eq!(e113.len(), 1, "{out:?}");
        assert_eq!(e113[0].pointer, "/tools/1/name");
        assert_eq!(e113[0].related, ["/tools/0/name", "/tools/2/name"]);
        assert!(
            e113[0].detail.contains("listed 3 times"),
            "{}",
            e113[0].detail
        );
    }
}
