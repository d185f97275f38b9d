//! Building one valid input from a JSON Schema: the arguments an audit sends
//! to each tool, and the starting point of a generated suite file.
//!
//! The generator is deterministic and minimal: required properties only
//! (plus optional ones when `minProperties` asks for more), the first `enum`
//! value, `const` as given, the smallest number and the shortest string the
//! bounds allow. What it cannot satisfy by construction (a `pattern` none of
//! its candidates matches, contradictory bounds) it still answers with its
//! best guess; [`input_problems`] says what is wrong with it.

use serde_json::{Map, Value, json};

/// How deep `$ref`s and nesting are followed before the generator gives up
/// on a branch (a recursive schema would otherwise never end).
const MAX_DEPTH: usize = 32;

/// A value that validates against `schema` (a tool's `inputSchema`, or any
/// JSON Schema): required fields, types, `enum`, `const`, formats
/// (`date-time`, `date`, `time`, `email`, `uri`, `uuid`, `ipv4`, `ipv6`,
/// `hostname`), numeric bounds and `multipleOf`, string and array lengths,
/// nested objects and arrays, `allOf`/`anyOf`/`oneOf`, and local `$ref`s
/// (`#/$defs/..`, `#/definitions/..`).
///
/// ```
/// use mcptest::scan::audit::valid_input;
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "city": {"type": "string", "minLength": 3},
///         "days": {"type": "integer", "minimum": 1, "maximum": 7},
///         "units": {"enum": ["metric", "imperial"]},
///         "note": {"type": "string"}
///     },
///     "required": ["city", "days", "units"]
/// });
/// assert_eq!(valid_input(&schema), json!({"city": "example", "days": 1, "units": "metric"}));
/// ```
pub fn valid_input(schema: &Value) -> Value {
    Generator { root: schema }.value(schema, 0, 0)
}

/// What is wrong with `input` as an instance of `schema`, one line per
/// violation; empty when it validates (or when the schema itself cannot be
/// compiled, which is reported as the one problem).
///
/// ```
/// use mcptest::scan::audit::{input_problems, valid_input};
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
/// assert!(input_problems(&schema, &valid_input(&schema)).is_empty());
/// assert_eq!(input_problems(&schema, &json!({})).len(), 1);
/// ```
pub fn input_problems(schema: &Value, input: &Value) -> Vec<String> {
    let validator = match jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
    {
        Ok(validator) => validator,
        Err(e) => return vec![format!("the schema itself is invalid: {e}")],
    };
    validator
        .iter_errors(input)
        .map(|e| {
            let at = e.instance_path().to_string();
            let at = if at.is_empty() { "the root".into() } else { at };
            format!("at {at}: {e}")
        })
        .collect()
}

struct Generator<'a> {
    root: &'a Value,
}

impl Generator<'_> {
    /// `variant` makes sibling values differ (array items under
    /// `uniqueItems`); 0 is the plain choice.
    fn value(&self, schema: &Value, depth: usize, variant: usize) -> Value {
        let Some(schema) = schema.as_object() else {
            // `true` (or a malformed schema): anything goes.
            return json!("example");
        };
        if depth > MAX_DEPTH {
            return Value::Null;
        }
        if let Some(target) = schema.get("$ref").and_then(Value::as_str)
            && let Some(resolved) = self.resolve(target)
        {
            return self.value(resolved, depth + 1, variant);
        }
        if let Some(value) = schema.get("const") {
            return value.clone();
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array)
            && !values.is_empty()
        {
            return values[variant % values.len()].clone();
        }
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            let merged = self.merge_all_of(schema, all, depth);
            return self.value(&merged, depth + 1, variant);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(options) = schema.get(key).and_then(Value::as_array) {
                // The first option that is not `null`: a nullable field is
                // better exercised with a value.
                let option = options
                    .iter()
                    .find(|o| o.get("type").and_then(Value::as_str) != Some("null"))
                    .or(options.first());
                if let Some(option) = option {
                    return self.value(option, depth + 1, variant);
                }
            }
        }
        match type_of(schema) {
            "object" => self.object(schema, depth, variant),
            "array" => self.array(schema, depth),
            "string" => Value::String(string(schema, variant)),
            "integer" => integer(schema, variant),
            "number" => number(schema, variant),
            "boolean" => Value::Bool(variant.is_multiple_of(2)),
            "null" => Value::Null,
            _ => json!("example"),
        }
    }

    fn resolve(&self, target: &str) -> Option<&Value> {
        let pointer = target.strip_prefix('#')?;
        if pointer.is_empty() {
            return Some(self.root);
        }
        self.root.pointer(pointer)
    }

    /// One schema with the properties, `required` and other keywords of every
    /// `allOf` member (and of the schema itself), `$ref`s followed.
    fn merge_all_of(&self, schema: &Map<String, Value>, all: &[Value], depth: usize) -> Value {
        let mut merged = schema.clone();
        merged.remove("allOf");
        for member in all {
            let mut member = member;
            for _ in 0..MAX_DEPTH.saturating_sub(depth) {
                match member
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|t| self.resolve(t))
                {
                    Some(resolved) => member = resolved,
                    None => break,
                }
            }
            let Some(member) = member.as_object() else {
                continue;
            };
            for (key, value) in member {
                match (key.as_str(), merged.get_mut(key)) {
                    ("properties", Some(Value::Object(props))) => {
                        if let Some(more) = value.as_object() {
                            props.extend(more.clone());
                        }
                    }
                    ("required", Some(Value::Array(required))) => {
                        for name in value.as_array().into_iter().flatten() {
                            if !required.contains(name) {
                                required.push(name.clone());
                            }
                        }
                    }
                    ("$ref", _) => {}
                    (_, Some(_)) => {}
                    (_, None) => {
                        merged.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        Value::Object(merged)
    }

    fn object(&self, schema: &Map<String, Value>, depth: usize, variant: usize) -> Value {
        let empty = Map::new();
        let properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let mut names = required(schema.get("required"));
        let min = bound(schema, "minProperties").unwrap_or(0) as usize;
        for name in properties.keys() {
            if names.len() >= min {
                break;
            }
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        let mut object = Map::new();
        for name in names {
            let property = properties
                .get(name)
                .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()))
                .unwrap_or(&Value::Bool(true));
            object.insert(name.to_owned(), self.value(property, depth + 1, variant));
        }
        // Still short of minProperties: invent keys, as additionalProperties allows.
        let mut n = 0;
        while object.len() < min && n < min + 16 {
            let item = schema
                .get("additionalProperties")
                .filter(|a| a.is_object())
                .unwrap_or(&Value::Bool(true));
            object.insert(format!("key{n}"), self.value(item, depth + 1, n));
            n += 1;
        }
        Value::Object(object)
    }

    fn array(&self, schema: &Map<String, Value>, depth: usize) -> Value {
        let prefix: &[Value] = schema
            .get("prefixItems")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let min = bound(schema, "minItems").unwrap_or(0) as usize;
        // One item shows the tool a real element; more only when asked for.
        let max = bound(schema, "maxItems").map_or(usize::MAX, |m| m as usize);
        let len = min.max(prefix.len()).max(1).min(max);
        let items = schema.get("items").unwrap_or(&Value::Bool(true));
        let unique = schema.get("uniqueItems") == Some(&Value::Bool(true));
        let mut out: Vec<Value> = Vec::with_capacity(len);
        for i in 0..len {
            let item_schema = prefix.get(i).unwrap_or(items);
            let mut item = self.value(item_schema, depth + 1, if unique { i } else { 0 });
            if unique && out.contains(&item) {
                for v in len..len + 64 {
                    item = self.value(item_schema, depth + 1, v);
                    if !out.contains(&item) {
                        break;
                    }
                }
            }
            out.push(item);
        }
        Value::Array(out)
    }
}

/// The type to build: `type` (the first that is not `null` of a list), or
/// what the keywords imply.
fn type_of(schema: &Map<String, Value>) -> &str {
    match schema.get("type") {
        Some(Value::String(t)) => return t,
        Some(Value::Array(types)) => {
            let mut strings = types.iter().filter_map(Value::as_str);
            if let Some(t) = strings.clone().find(|t| *t != "null").or(strings.next()) {
                return t;
            }
        }
        _ => {}
    }
    let has = |keys: &[&str]| keys.iter().any(|k| schema.contains_key(*k));
    if has(&[
        "properties",
        "required",
        "additionalProperties",
        "minProperties",
    ]) {
        "object"
    } else if has(&["items", "prefixItems", "minItems", "maxItems"]) {
        "array"
    } else if has(&["minLength", "maxLength", "pattern", "format"]) {
        "string"
    } else if has(&[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]) {
        "number"
    } else {
        "any"
    }
}

fn bound(schema: &Map<String, Value>, key: &str) -> Option<u64> {
    schema.get(key).and_then(Value::as_u64)
}

fn float(schema: &Map<String, Value>, key: &str) -> Option<f64> {
    schema.get(key).and_then(Value::as_f64)
}

fn string(schema: &Map<String, Value>, variant: usize) -> String {
    let by_format = schema
        .get("format")
        .and_then(Value::as_str)
        .and_then(|format| format_example(format, variant));
    if let Some(text) = by_format {
        return text;
    }
    let min = bound(schema, "minLength").unwrap_or(0) as usize;
    let max = bound(schema, "maxLength").map_or(usize::MAX, |m| m as usize);
    let base = if variant == 0 {
        "example".to_owned()
    } else {
        format!("example{variant}")
    };
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str)
        && let Some(text) = pattern_example(pattern, &base, min, max)
    {
        return text;
    }
    fit_length(base, min, max)
}

/// `text` cut or padded with `a` to a length in `min..=max` (in characters,
/// as JSON Schema counts them).
fn fit_length(text: String, min: usize, max: usize) -> String {
    let mut text: String = text.chars().take(max).collect();
    let len = text.chars().count();
    if len < min {
        text.extend(std::iter::repeat_n('a', min - len));
    }
    text
}

/// A candidate that matches `pattern` and the lengths, from a few shapes
/// patterns commonly ask for.
fn pattern_example(pattern: &str, base: &str, min: usize, max: usize) -> Option<String> {
    let re = regex::Regex::new(pattern).ok()?;
    let candidates = [
        base,
        "a",
        "A",
        "0",
        "1",
        "abc",
        "ABC",
        "123",
        "a1",
        "A1",
        "abc123",
        "abc-123",
        "a_b",
        "example.com",
        "user@example.com",
        "https://example.com",
        "2024-01-01",
        "00:00",
        "#000000",
        "+10000000000",
        "v1.0.0",
        "1.0.0",
        "AB12",
        "ab-cd",
    ];
    candidates
        .iter()
        .map(|c| fit_length((*c).to_owned(), min, max))
        .find(|c| re.is_match(c))
}

fn format_example(format: &str, variant: usize) -> Option<String> {
    let n = variant % 10;
    Some(match format {
        "date-time" => format!("2024-01-0{}T00:00:00Z", n.max(1)),
        "date" => format!("2024-01-0{}", n.max(1)),
        "time" => format!("00:00:0{n}Z"),
        "duration" => format!("P{}D", n + 1),
        "email" | "idn-email" => format!("user{n}@example.com"),
        "hostname" | "idn-hostname" => format!("host{n}.example.com"),
        "ipv4" => format!("127.0.0.{}", n + 1),
        "ipv6" => format!("::{}", n + 1),
        "uri" | "iri" | "url" => format!("https://example.com/{n}"),
        "uri-reference" | "iri-reference" => format!("/example/{n}"),
        "uri-template" => "https://example.com/{id}".to_owned(),
        "uuid" => format!("00000000-0000-4000-8000-00000000000{n}"),
        "json-pointer" => format!("/example{n}"),
        "relative-json-pointer" => "0".to_owned(),
        "regex" => "^example$".to_owned(),
        _ => return None,
    })
}

fn integer(schema: &Map<String, Value>, variant: usize) -> Value {
    let min = float(schema, "minimum")
        .map(f64::ceil)
        .into_iter()
        .chain(float(schema, "exclusiveMinimum").map(|m| m.floor() + 1.0))
        .reduce(f64::max);
    let max = float(schema, "maximum")
        .map(f64::floor)
        .into_iter()
        .chain(float(schema, "exclusiveMaximum").map(|m| m.ceil() - 1.0))
        .reduce(f64::min);
    let step = float(schema, "multipleOf")
        .filter(|s| *s > 0.0 && s.fract() == 0.0)
        .unwrap_or(1.0);
    let preferred = 1.0 + variant as f64;
    let mut value = match (min, max) {
        (Some(min), _) => min + variant as f64,
        (None, Some(max)) if max < preferred => max - variant as f64,
        _ => preferred,
    };
    if let Some(max) = max {
        value = value.min(max);
    }
    // Up to the next multiple, or down when that would pass the maximum.
    let up = (value / step).ceil() * step;
    value = if max.is_some_and(|m| up > m) {
        (value / step).floor() * step
    } else {
        up
    };
    json!(value as i64)
}

fn number(schema: &Map<String, Value>, variant: usize) -> Value {
    let exclusive_min = float(schema, "exclusiveMinimum");
    let exclusive_max = float(schema, "exclusiveMaximum");
    let min = float(schema, "minimum");
    let max = float(schema, "maximum");
    let step = float(schema, "multipleOf").filter(|s| *s > 0.0);
    let low = min.into_iter().chain(exclusive_min).reduce(f64::max);
    let high = max.into_iter().chain(exclusive_max).reduce(f64::min);
    let preferred = 1.0 + variant as f64;
    let mut value = match (low, high) {
        (Some(low), Some(high)) => {
            if (low..=high).contains(&preferred)
                && exclusive_min != Some(preferred)
                && exclusive_max != Some(preferred)
            {
                preferred
            } else {
                (low + high) / 2.0
            }
        }
        (Some(low), None) => {
            if exclusive_min == Some(low) {
                low + 1.0 + variant as f64
            } else {
                low + variant as f64
            }
        }
        (None, Some(high)) if high <= preferred => high - 1.0 - variant as f64,
        _ => preferred,
    };
    if let Some(step) = step {
        let up = (value / step).ceil() * step;
        value = if high.is_some_and(|h| up > h || exclusive_max == Some(up)) {
            (value / step).floor() * step
        } else {
            up
        };
    }
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        json!(value as i64)
    } else {
        json!(value)
    }
}

/// The names in a schema's `required` (given as `schema.get("required")`;
/// none when it is absent or not a list).
pub(crate) fn required(list: Option<&Value>) -> Vec<&str> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Generates for `schema` and proves the value validates (formats included).
    #[track_caller]
    fn valid(schema: Value) -> Value {
        let input = valid_input(&schema);
        let problems = input_problems(&schema, &input);
        assert!(
            problems.is_empty(),
            "{input} does not validate against {schema}: {problems:?}"
        );
        input
    }

    #[test]
    fn required_fields_only_of_every_type() {
        let input = valid(json!({
            "type": "object",
            "properties": {
                "s": {"type": "string"}, "i": {"type": "integer"}, "n": {"type": "number"},
                "b": {"type": "boolean"}, "z": {"type": "null"}, "optional": {"type": "string"}
            },
            "required": ["s", "i", "n", "b", "z"]
        }));
        assert_eq!(
            input,
            json!({"s": "example", "i": 1, "n": 1, "b": true, "z": null})
        );
    }

    #[test]
    fn an_empty_or_typeless_schema_gets_an_empty_object() {
        assert_eq!(valid(json!({"type": "object"})), json!({}));
        assert_eq!(valid(json!({"properties": {"a": {}}})), json!({}));
    }

    #[test]
    fn enums_and_consts() {
        assert_eq!(
            valid(json!({"type": "object", "properties": {
                "unit": {"type": "string", "enum": ["c", "f"]}, "v": {"const": 3}
            }, "required": ["unit", "v"]})),
            json!({"unit": "c", "v": 3})
        );
    }

    #[test]
    fn formats() {
        for format in [
            "date-time",
            "date",
            "time",
            "email",
            "uri",
            "uuid",
            "ipv4",
            "ipv6",
            "hostname",
            "duration",
            "uri-reference",
            "json-pointer",
        ] {
            let input = valid(json!({"type": "string", "format": format}));
            assert!(input.is_string(), "{format}: {input}");
        }
        assert_eq!(
            valid(json!({"type": "string", "format": "date-time"})),
            json!("2024-01-01T00:00:00Z")
        );
    }

    #[test]
    fn numeric_bounds() {
        assert_eq!(valid(json!({"type": "integer", "minimum": 5})), json!(5));
        assert_eq!(valid(json!({"type": "integer", "maximum": -3})), json!(-3));
        assert_eq!(
            valid(json!({"type": "integer", "exclusiveMinimum": 5})),
            json!(6)
        );
        assert_eq!(
            valid(json!({"type": "integer", "minimum": 3, "multipleOf": 5})),
            json!(5)
        );
        assert_eq!(valid(json!({"type": "integer", "minimum": 0})), json!(0));
        valid(json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}));
        valid(json!({"type": "number", "minimum": 0.5, "maximum": 0.75}));
        valid(json!({"type": "number", "exclusiveMaximum": 0}));
        valid(json!({"type": "number", "minimum": 1, "multipleOf": 0.25}));
        valid(json!({"type": "integer", "minimum": 10, "maximum": 12, "multipleOf": 11}));
    }

    #[test]
    fn string_lengths_and_patterns() {
        assert_eq!(
            valid(json!({"type": "string", "minLength": 10})),
            json!("exampleaaa")
        );
        assert_eq!(
            valid(json!({"type": "string", "maxLength": 2})),
            json!("ex")
        );
        valid(json!({"type": "string", "pattern": "^[0-9]+$"}));
        valid(json!({"type": "string", "pattern": "^[A-Z]{2}[0-9]{2}$"}));
        valid(json!({"type": "string", "pattern": "^v[0-9]+\\.[0-9]+\\.[0-9]+$"}));
    }

    #[test]
    fn nested_objects_and_arrays() {
        let input = valid(json!({
            "type": "object",
            "properties": {
                "filter": {
                    "type": "object",
                    "properties": {"tags": {"type": "array", "items": {"type": "string"}, "minItems": 2, "uniqueItems": true}},
                    "required": ["tags"]
                },
                "points": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}}
            },
            "required": ["filter", "points"]
        }));
        assert_eq!(
            input,
            json!({"filter": {"tags": ["example", "example1"]}, "points": [{"x": 1}]})
        );
        assert_eq!(valid(json!({"type": "array", "maxItems": 0})), json!([]));
        valid(
            json!({"type": "array", "items": {"type": "integer", "enum": [1, 2, 3]}, "minItems": 3, "uniqueItems": true}),
        );
        valid(json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}));
        valid(
            json!({"type": "object", "minProperties": 2, "properties": {"a": {"type": "string"}}}),
        );
    }

    #[test]
    fn local_refs_defs_and_combinators() {
        let input = valid(json!({
            "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}},
            "definitions": {"Id": {"type": "string", "format": "uuid"}},
            "type": "object",
            "properties": {
                "at": {"$ref": "#/$defs/Point"},
                "id": {"$ref": "#/definitions/Id"},
                "maybe": {"anyOf": [{"type": "null"}, {"type": "boolean"}]},
                "kind": {"oneOf": [{"const": "a"}, {"const": "b"}]},
                "both": {"allOf": [{"$ref": "#/$defs/Point"}, {"properties": {"y": {"type": "string"}}, "required": ["y"]}]},
                "nullable": {"type": ["null", "integer"]}
            },
            "required": ["at", "id", "maybe", "kind", "both", "nullable"]
        }));
        assert_eq!(input["at"], json!({"x": 1}));
        assert_eq!(input["maybe"], json!(true));
        assert_eq!(input["both"], json!({"x": 1, "y": "example"}));
        assert_eq!(input["nullable"], json!(1));
    }

    #[test]
    fn a_recursive_schema_ends() {
        let schema = json!({
            "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}, "required": ["next"]}},
            "$ref": "#/$defs/Node"
        });
        // Unsatisfiable by any finite value; the point is that it returns.
        let input = valid_input(&schema);
        assert!(input.is_object());
    }

    #[test]
    fn problems_name_the_place() {
        let schema =
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        let problems = input_problems(&schema, &json!({"n": "x"}));
        assert_eq!(problems.len(), 1);
        assert!(problems[0].starts_with("at /n:"), "{problems:?}");
    }
}
