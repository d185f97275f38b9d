//! YAML as a tree that remembers where each node was written and how it was
//! tagged, so every later check can point at file:line:column.
//!
//! The parsing is serde-saphyr's; this module only keeps its `Spanned` and
//! `Tagged` wrappers around every node, and mapping entries in source order.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use serde_saphyr::{Spanned, Tagged};

use super::LoadError;

/// The core schema's tag namespace; `!!re` is `tag:yaml.org,2002:re`.
const CORE_TAGS: &str = "tag:yaml.org,2002:";

/// A position in a file, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Pos {
    pub(crate) line: u64,
    pub(crate) column: u64,
}

/// One YAML node.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) kind: Kind,
    /// The tag as written, shortened: `!!re`, `!custom`; `None` when untagged.
    pub(crate) tag: Option<String>,
    pub(crate) pos: Pos,
}

#[derive(Debug, Clone)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    /// Entries in the order they were written.
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// What the node is, in words, for "expected X, found Y" messages.
    pub(crate) fn describe(&self) -> &'static str {
        match self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Int(_) | Kind::UInt(_) => "an integer",
            Kind::Float(_) => "a number",
            Kind::Str(_) => "a string",
            Kind::Seq(_) => "a list",
            Kind::Map(_) => "a mapping",
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.kind {
            Kind::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// True for a tag that changes nothing about the value (`!!str`, `!!map`, ...).
    fn has_core_tag(&self) -> bool {
        matches!(
            self.tag.as_deref(),
            None | Some("!!str" | "!!int" | "!!float" | "!!bool" | "!!null" | "!!map" | "!!seq")
        )
    }

    /// The node as JSON. Tags other than the core ones are refused (`what`
    /// says where tags are not allowed), as are non-string mapping keys and
    /// numbers JSON cannot hold.
    pub(crate) fn to_json(&self, file: &str, what: &str) -> Result<Value, LoadError> {
        if !self.has_core_tag() {
            return Err(LoadError::at(
                file,
                self.pos,
                format!(
                    "tag `{}` is not allowed in {what}; matchers such as `!!re` only work in `out` \
                     messages of MCP Cases files",
                    self.tag.as_deref().unwrap_or_default()
                ),
            ));
        }
        Ok(match &self.kind {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Int(i) => Value::from(*i),
            Kind::UInt(u) => Value::from(*u),
            Kind::Float(f) => Value::Number(Number::from_f64(*f).ok_or_else(|| {
                LoadError::at(file, self.pos, format!("{f} cannot be written as JSON"))
            })?),
            Kind::Str(s) => Value::String(s.clone()),
            Kind::Seq(items) => Value::Array(
                items
                    .iter()
                    .map(|n| n.to_json(file, what))
                    .collect::<Result<_, _>>()?,
            ),
            Kind::Map(entries) => {
                let mut map = Map::new();
                for (key, value) in entries {
                    let Some(name) = key.as_str() else {
                        return Err(LoadError::at(
                            file,
                            key.pos,
                            format!("expected a string as mapping key, found {}", key.describe()),
                        ));
                    };
                    map.insert(name.to_owned(), value.to_json(file, what)?);
                }
                Value::Object(map)
            }
        })
    }
}

impl Node {
    /// The node `suite!` parsed at compile time and embedded as a constant.
    pub(crate) fn from_embedded(node: &super::generated::EmbeddedNode) -> Node {
        use super::generated::EmbeddedKind as E;
        let kind = match node.kind {
            E::Null => Kind::Null,
            E::Bool(b) => Kind::Bool(b),
            E::Int(i) => Kind::Int(i),
            E::UInt(u) => Kind::UInt(u),
            E::Float(f) => Kind::Float(f),
            E::Str(s) => Kind::Str(s.to_owned()),
            E::Seq(items) => Kind::Seq(items.iter().map(Node::from_embedded).collect()),
            E::Map(entries) => Kind::Map(
                entries
                    .iter()
                    .map(|(k, v)| (Node::from_embedded(k), Node::from_embedded(v)))
                    .collect(),
            ),
        };
        Node {
            kind,
            tag: node.tag.map(str::to_owned),
            pos: Pos {
                line: node.line,
                column: node.column,
            },
        }
    }
}

/// Parses every document of `text`. Empty documents are skipped (so document
/// numbers count the non-empty ones).
pub(crate) fn parse_documents(file: &str, text: &str) -> Result<Vec<Node>, LoadError> {
    let options = serde_saphyr::options! {
        // `y`, `no`, `on` are strings: YAML 1.2's core schema, as in JSON.
        strict_booleans: true,
        with_snippet: false,
    };
    serde_saphyr::from_multiple_with_options::<Node>(text, options)
        .map_err(|e| syntax_error(file, &e))
}

fn syntax_error(file: &str, error: &serde_saphyr::Error) -> LoadError {
    let pos = error
        .location()
        .map(|l| Pos {
            line: l.line(),
            column: l.column(),
        })
        .unwrap_or_default();
    let text = error.to_string();
    let first = text.lines().next().unwrap_or_default();
    // The message repeats the position ("line 2 column 8: ..."); we print our own.
    let message = first
        .split_once(": ")
        .filter(|(head, _)| head.starts_with("line ") || head.starts_with("error: line "))
        .map(|(_, rest)| rest)
        .unwrap_or(first);
    // ... and sometimes again at the end.
    let message = match message.rfind(" at line ") {
        Some(at) if message[at..].contains(", column ") => &message[..at],
        _ => message,
    };
    LoadError::at(file, pos, format!("invalid YAML: {message}"))
}

struct RawNode(Kind);

impl<'de> Deserialize<'de> for RawNode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct AnyNode;
        impl<'de> Visitor<'de> for AnyNode {
            type Value = RawNode;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any YAML value")
            }
            fn visit_unit<E>(self) -> Result<RawNode, E> {
                Ok(RawNode(Kind::Null))
            }
            fn visit_none<E>(self) -> Result<RawNode, E> {
                Ok(RawNode(Kind::Null))
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<RawNode, D::Error> {
                RawNode::deserialize(d)
            }
            fn visit_bool<E>(self, v: bool) -> Result<RawNode, E> {
                Ok(RawNode(Kind::Bool(v)))
            }
            fn visit_i64<E>(self, v: i64) -> Result<RawNode, E> {
                Ok(RawNode(Kind::Int(v)))
            }
            fn visit_u64<E>(self, v: u64) -> Result<RawNode, E> {
                Ok(RawNode(match i64::try_from(v) {
                    Ok(i) => Kind::Int(i),
                    Err(_) => Kind::UInt(v),
                }))
            }
            fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<RawNode, E> {
                i64::try_from(v)
                    .map(|i| RawNode(Kind::Int(i)))
                    .map_err(|_| E::custom(format!("the integer {v} is too large")))
            }
            fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<RawNode, E> {
                u64::try_from(v)
                    .map(|u| RawNode(Kind::UInt(u)))
                    .map_err(|_| E::custom(format!("the integer {v} is too large")))
            }
            fn visit_f64<E>(self, v: f64) -> Result<RawNode, E> {
                Ok(RawNode(Kind::Float(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<RawNode, E> {
                Ok(RawNode(Kind::Str(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<RawNode, E> {
                Ok(RawNode(Kind::Str(v)))
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<RawNode, E> {
                String::from_utf8(v.to_vec())
                    .map(|s| RawNode(Kind::Str(s)))
                    .map_err(|_| E::custom("binary data is not supported here"))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawNode, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Node>()? {
                    items.push(item);
                }
                Ok(RawNode(Kind::Seq(items)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawNode, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<Node, Node>()? {
                    entries.push(entry);
                }
                Ok(RawNode(Kind::Map(entries)))
            }
        }
        deserializer.deserialize_any(AnyNode)
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let spanned = Spanned::<Tagged<RawNode>>::deserialize(deserializer)?;
        let Tagged(RawNode(kind), tag) = spanned.value;
        Ok(Node {
            kind,
            tag: tag.map(|t| match t.strip_prefix(CORE_TAGS) {
                Some(short) => format!("!!{short}"),
                None => t,
            }),
            pos: Pos {
                line: spanned.referenced.line(),
                column: spanned.referenced.column(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_order_positions_and_tags() {
        let docs = parse_documents(
            "t.yaml",
            "case: y\nin: {b: 1, a: !!re \"x.*\"}\n---\nout: [1, 2.5, null]\n",
        )
        .unwrap();
        assert_eq!(docs.len(), 2);
        let entries = docs[0].as_map().unwrap();
        assert_eq!(entries[0].1.as_str(), Some("y"), "`y` stays a string");
        let inner = entries[1].1.as_map().unwrap();
        let keys: Vec<_> = inner.iter().map(|(k, _)| k.as_str().unwrap()).collect();
        assert_eq!(keys, ["b", "a"]);
        assert_eq!(inner[1].1.tag.as_deref(), Some("!!re"));
        assert_eq!(
            inner[1].1.pos,
            Pos {
                line: 2,
                column: 20
            },
            "the value's position, after its tag"
        );
        let out = docs[1].as_map().unwrap()[0]
            .1
            .to_json("t.yaml", "here")
            .unwrap();
        assert_eq!(out, json!([1, 2.5, null]));
    }

    #[test]
    fn syntax_errors_say_where() {
        let err = parse_documents("t.yaml", "a: 1\nb: [1, 2\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.yaml:2:4: invalid YAML: unclosed bracket '['"
        );
        let err = parse_documents("t.yaml", "a: 1\na: 2\n").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("t.yaml:2:1: invalid YAML: duplicate mapping key"),
            "{err}"
        );
    }

    #[test]
    fn tags_are_refused_where_json_is_meant() {
        let docs = parse_documents("t.yaml", "x: !!re 'a'\n").unwrap();
        let err = docs[0].to_json("t.yaml", "an `in` message").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("t.yaml:1:9: tag `!!re` is not allowed in an `in` message"),
            "{err}"
        );
    }
}
