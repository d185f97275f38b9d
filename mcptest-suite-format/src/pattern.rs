//! What an MCP Cases message matches: objects as subsets, arrays exactly,
//! scalars by value, `!!re` and `!!ere` strings by regex.

use std::fmt::Write as _;

use regex::Regex;
use serde_json::{Map, Value};

use crate::{
    error::LoadError,
    json::ToJson,
    tree::{Kind, Node},
};

/// An expected message (or part of one).
#[derive(Debug, Clone)]
pub enum Pattern {
    /// A literal scalar (null, bool, number, string).
    Scalar(Value),
    /// `!!re` (the whole string) or `!!ere` (`/regex/` inside literal text);
    /// `source` is the text as written.
    Regex {
        tag: &'static str,
        source: String,
        regex: Regex,
    },
    Array(Vec<Pattern>),
    /// Keys in file order; extra keys in the actual object are fine.
    Object(Vec<(String, Pattern)>),
}

impl Pattern {
    /// A pattern from a YAML node; `!!re` / `!!ere` become regexes.
    pub fn from_node(file: &str, node: &Node) -> Result<Pattern, LoadError> {
        match node.tag.as_deref() {
            Some(tag @ ("!!re" | "!!ere")) => {
                let Some(text) = node.as_str() else {
                    return Err(LoadError::at(
                        file,
                        node.pos,
                        format!("`{tag}` goes on a string, not on {}", node.describe()),
                    ));
                };
                let (tag, pattern) = if tag == "!!re" {
                    ("!!re", format!("^(?:{text})$"))
                } else {
                    (
                        "!!ere",
                        embedded_regex(text).map_err(|m| {
                            LoadError::at(file, node.pos, format!("`!!ere` {text:?}: {m}"))
                        })?,
                    )
                };
                let regex = Regex::new(&pattern).map_err(|e| {
                    let reason = e.to_string();
                    let reason = reason
                        .lines()
                        .rfind(|l| !l.trim().is_empty())
                        .unwrap_or_default()
                        .trim();
                    let reason = reason.strip_prefix("error: ").unwrap_or(reason).to_owned();
                    LoadError::at(
                        file,
                        node.pos,
                        format!("`{tag}` {text:?} is not a valid regex: {reason}"),
                    )
                })?;
                Ok(Pattern::Regex {
                    tag,
                    source: text.to_owned(),
                    regex,
                })
            }
            Some("!!str" | "!!int" | "!!float" | "!!bool" | "!!null" | "!!map" | "!!seq")
            | None => Ok(match &node.kind {
                Kind::Seq(items) => Pattern::Array(
                    items
                        .iter()
                        .map(|n| Pattern::from_node(file, n))
                        .collect::<Result<_, _>>()?,
                ),
                Kind::Map(entries) => Pattern::Object(
                    entries
                        .iter()
                        .map(|(k, v)| {
                            let key = k.as_str().ok_or_else(|| {
                                LoadError::at(
                                    file,
                                    k.pos,
                                    format!(
                                        "expected a string as mapping key, found {}",
                                        k.describe()
                                    ),
                                )
                            })?;
                            Ok((key.to_owned(), Pattern::from_node(file, v)?))
                        })
                        .collect::<Result<_, LoadError>>()?,
                ),
                _ => Pattern::Scalar(node.to_json(file, "here")?),
            }),
            Some(other) => Err(LoadError::at(
                file,
                node.pos,
                format!(
                    "unknown tag `{other}`; MCP Cases messages know `!!re` (a regex for the whole string) and `!!ere` (`/regex/` inside literal text)"
                ),
            )),
        }
    }

    /// A literal pattern (what an `in` message is when matched by the mock).
    pub fn literal(value: &Value) -> Pattern {
        match value {
            Value::Array(items) => Pattern::Array(items.iter().map(Pattern::literal).collect()),
            Value::Object(map) => Pattern::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), Pattern::literal(v)))
                    .collect(),
            ),
            scalar => Pattern::Scalar(scalar.clone()),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Pattern> {
        match self {
            Pattern::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, p)| p),
            _ => None,
        }
    }

    pub fn as_literal(&self) -> Option<&Value> {
        match self {
            Pattern::Scalar(v) => Some(v),
            _ => None,
        }
    }

    pub fn matches(&self, actual: &Value) -> bool {
        self.mismatch(actual).is_none()
    }

    /// The first place where `actual` differs: "at `result.tools[0].name`:
    /// expected \"echo\", got \"add\"".
    pub fn mismatch(&self, actual: &Value) -> Option<String> {
        self.mismatch_at(actual, "")
    }

    /// Like [`mismatch`](Self::mismatch), ignoring the top-level `id`.
    pub fn mismatch_ignoring_id(&self, actual: &Value) -> Option<String> {
        self.without_id().mismatch(actual)
    }

    /// The pattern without its top-level `id`.
    pub fn without_id(&self) -> Pattern {
        match self {
            Pattern::Object(entries) => {
                Pattern::Object(entries.iter().filter(|(k, _)| k != "id").cloned().collect())
            }
            other => other.clone(),
        }
    }

    fn mismatch_at(&self, actual: &Value, path: &str) -> Option<String> {
        let at = if path.is_empty() {
            "the message".to_owned()
        } else {
            format!("`{path}`")
        };
        match self {
            Pattern::Scalar(expected) => (!scalar_equal(expected, actual))
                .then(|| format!("at {at}: expected {expected}, got {}", short(actual))),
            Pattern::Regex { tag, source, regex } => match actual {
                Value::String(s) if regex.is_match(s) => None,
                Value::String(s) => Some(format!(
                    "at {at}: expected a string matching {tag} {source:?}, got {s:?}"
                )),
                other => Some(format!(
                    "at {at}: expected a string matching {tag} {source:?}, got {}",
                    short(other)
                )),
            },
            Pattern::Array(items) => {
                let Value::Array(actual_items) = actual else {
                    return Some(format!(
                        "at {at}: expected an array of {}, got {}",
                        items.len(),
                        short(actual)
                    ));
                };
                if actual_items.len() != items.len() {
                    return Some(format!(
                        "at {at}: expected an array of {} items, got {}",
                        items.len(),
                        actual_items.len()
                    ));
                }
                items
                    .iter()
                    .zip(actual_items)
                    .enumerate()
                    .find_map(|(i, (p, v))| p.mismatch_at(v, &format!("{path}[{i}]")))
            }
            Pattern::Object(entries) => {
                let Value::Object(map) = actual else {
                    return Some(format!(
                        "at {at}: expected an object, got {}",
                        short(actual)
                    ));
                };
                entries.iter().find_map(|(key, p)| {
                    let child = if path.is_empty() {
                        key.clone()
                    } else {
                        format!("{path}.{key}")
                    };
                    match map.get(key) {
                        Some(v) => p.mismatch_at(v, &child),
                        None => Some(format!(
                            "at `{child}`: missing (expected {})",
                            short(&p.display())
                        )),
                    }
                })
            }
        }
    }

    /// The pattern as JSON for printing; a regex shows as `"!!re <source>"`.
    pub fn display(&self) -> Value {
        match self {
            Pattern::Scalar(v) => v.clone(),
            Pattern::Regex { tag, source, .. } => Value::String(format!("{tag} {source}")),
            Pattern::Array(items) => Value::Array(items.iter().map(Pattern::display).collect()),
            Pattern::Object(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, p)| (k.clone(), p.display()))
                    .collect::<Map<_, _>>(),
            ),
        }
    }

    /// The pattern in words for a failure: its JSON, compact when short,
    /// pretty-printed on the lines after the label otherwise.
    pub fn describe_json(&self) -> String {
        let expected = self.display();
        let compact = expected.to_string();
        if compact.len() <= 100 {
            compact
        } else {
            format!("\n{}", pretty(&expected))
        }
    }

    /// The value a mock server sends for this pattern: regexes are sent as
    /// the text they were written with.
    pub fn to_output(&self) -> Value {
        match self {
            Pattern::Scalar(v) => v.clone(),
            Pattern::Regex { source, .. } => Value::String(source.clone()),
            Pattern::Array(items) => Value::Array(items.iter().map(Pattern::to_output).collect()),
            Pattern::Object(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, p)| (k.clone(), p.to_output()))
                    .collect::<Map<_, _>>(),
            ),
        }
    }

    /// `actual` cut down to what the pattern speaks about, with matching
    /// regexes shown as the pattern shows them: diffing this against
    /// [`display`](Self::display) shows only real differences.
    pub fn project(&self, actual: &Value) -> Value {
        match (self, actual) {
            (Pattern::Regex { .. }, Value::String(s)) if self.matches(actual) => {
                let _ = s;
                self.display()
            }
            (Pattern::Array(items), Value::Array(values)) if items.len() == values.len() => {
                Value::Array(
                    items
                        .iter()
                        .zip(values)
                        .map(|(p, v)| p.project(v))
                        .collect(),
                )
            }
            (Pattern::Object(entries), Value::Object(map)) => Value::Object(
                entries
                    .iter()
                    .filter_map(|(k, p)| map.get(k).map(|v| (k.clone(), p.project(v))))
                    .collect::<Map<_, _>>(),
            ),
            (Pattern::Scalar(expected), _) if scalar_equal(expected, actual) => expected.clone(),
            _ => actual.clone(),
        }
    }

    /// How much of `actual` matches, for picking the closest candidate.
    pub fn score(&self, actual: &Value) -> usize {
        match (self, actual) {
            (Pattern::Object(entries), Value::Object(map)) => entries
                .iter()
                .map(|(k, p)| match map.get(k) {
                    // The method counts most: it says what the message is.
                    Some(v) if k == "method" && p.matches(v) => 100,
                    Some(v) => 1 + p.score(v),
                    None => 0,
                })
                .sum(),
            (Pattern::Array(items), Value::Array(values)) => {
                items.iter().zip(values).map(|(p, v)| p.score(v)).sum()
            }
            (p, v) if p.matches(v) => 2,
            _ => 0,
        }
    }
}

/// Numbers compare by value (1 matches 1.0), everything else exactly.
fn scalar_equal(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Number(a), Value::Number(b)) => {
            a == b || a.as_f64().zip(b.as_f64()).is_some_and(|(x, y)| x == y)
        }
        _ => expected == actual,
    }
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 120 {
        format!("{}…", text.chars().take(120).collect::<String>())
    } else {
        text
    }
}

/// `Hello /\w+/!` → `^Hello \w+!$`: text outside slashes is literal, `\/`
/// is a literal slash (inside a regex too).
fn embedded_regex(text: &str) -> Result<String, String> {
    let mut out = String::from("^");
    let mut literal = String::new();
    let mut regex: Option<String> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek(), regex.as_mut()) {
            ('\\', Some('/'), Some(r)) => {
                chars.next();
                r.push_str("\\/");
            }
            ('\\', Some('/'), None) => {
                chars.next();
                literal.push('/');
            }
            ('/', _, None) => {
                out.push_str(&regex::escape(&literal));
                literal.clear();
                regex = Some(String::new());
            }
            ('/', _, Some(r)) => {
                let _ = write!(out, "(?:{r})");
                regex = None;
            }
            (c, _, Some(r)) => r.push(c),
            (c, _, None) => literal.push(c),
        }
    }
    if regex.is_some() {
        return Err("a `/regex/` is not closed; write `\\/` for a literal slash".into());
    }
    out.push_str(&regex::escape(&literal));
    out.push('$');
    Ok(out)
}

/// `value` as pretty JSON, for messages.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_documents;
    use serde_json::json;

    fn pattern(yaml: &str) -> Pattern {
        let docs = parse_documents("t.yaml", yaml).unwrap();
        Pattern::from_node("t.yaml", &docs[0]).unwrap()
    }

    #[test]
    fn objects_are_subsets_arrays_exact_scalars_by_value() {
        let p = pattern("{a: 1, b: [x, {c: true}]}");
        assert!(p.matches(&json!({"a": 1.0, "b": ["x", {"c": true, "extra": 1}], "more": 2})));
        assert_eq!(
            p.mismatch(&json!({"a": 1, "b": ["x"]})).unwrap(),
            "at `b`: expected an array of 2 items, got 1"
        );
        assert_eq!(
            p.mismatch(&json!({"a": 2, "b": ["x", {"c": true}]}))
                .unwrap(),
            "at `a`: expected 1, got 2"
        );
        assert_eq!(
            p.mismatch(&json!({"b": ["x", {"c": true}]})).unwrap(),
            "at `a`: missing (expected 1)"
        );
        assert_eq!(
            p.mismatch(&json!({"a": 1, "b": ["x", {"c": "true"}]}))
                .unwrap(),
            "at `b[1].c`: expected true, got \"true\""
        );
    }

    #[test]
    fn re_matches_the_whole_string_and_ere_embeds_regexes() {
        let p = pattern("!!re 'tools/.*'");
        assert!(p.matches(&json!("tools/list")));
        assert!(!p.matches(&json!("x tools/list")));
        assert!(!p.matches(&json!(5)));
        let p = pattern(r"!!ere 'Hello /\w+/! (1+1=2) a\/b'");
        assert!(p.matches(&json!("Hello Ada! (1+1=2) a/b")));
        assert!(!p.matches(&json!("Hello Ada! (11=2) a/b")));
        let docs = parse_documents("t.yaml", "!!ere 'open /x'").unwrap();
        let err = Pattern::from_node("t.yaml", &docs[0]).unwrap_err();
        assert!(err.to_string().contains("is not closed"), "{err}");
        let docs = parse_documents("t.yaml", "x: !!re '('").unwrap();
        let err = Pattern::from_node("t.yaml", &docs[0]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("t.yaml:1:9: `!!re` \"(\" is not a valid regex: unclosed group"),
            "{err}"
        );
    }

    #[test]
    fn projection_hides_what_matches() {
        let p = pattern("{id: 1, result: {name: !!re 'e.*'}}");
        let actual = json!({"jsonrpc": "2.0", "id": 1, "result": {"name": "echo", "x": 1}});
        assert_eq!(p.project(&actual), p.display());
    }
}
