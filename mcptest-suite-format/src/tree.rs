//! A suite file's YAML as a tree that remembers where each node was written
//! and how it was tagged, with mapping entries in source order. The parsing
//! is serde-saphyr's; this module only keeps its `Spanned` and `Tagged`
//! wrappers around every node.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Spanned, Tagged};

/// The core schema's tag namespace; `!!re` is `tag:yaml.org,2002:re`.
const CORE_TAGS: &str = "tag:yaml.org,2002:";

/// A position in a file, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// The line.
    pub line: u64,
    /// The column.
    pub column: u64,
}

/// One YAML node.
#[derive(Debug, Clone)]
pub struct Node {
    /// What it holds.
    pub kind: Kind,
    /// The tag as written, shortened: `!!re`, `!custom`; `None` when untagged.
    pub tag: Option<String>,
    /// Where it is written.
    pub pos: Pos,
}

/// What a node holds.
#[derive(Debug, Clone)]
pub enum Kind {
    /// `null`, `~` or nothing.
    Null,
    /// `true` / `false` (YAML 1.2: `y`, `no`, `on` are strings).
    Bool(bool),
    /// An integer that fits `i64`.
    Int(i64),
    /// A larger non-negative integer.
    UInt(u64),
    /// A float.
    Float(f64),
    /// A string.
    Str(String),
    /// A sequence.
    Seq(Vec<Node>),
    /// Entries in the order they were written.
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// What the node is, in words, for "expected X, found Y" messages.
    pub fn describe(&self) -> &'static str {
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

    /// The string, for a string node.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The entries, for a mapping node.
    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.kind {
            Kind::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The value of `key`, for a mapping node that has it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// True for no tag or a tag that changes nothing about the value
    /// (`!!str`, `!!map`, ...).
    pub fn has_core_tag(&self) -> bool {
        matches!(
            self.tag.as_deref(),
            None | Some("!!str" | "!!int" | "!!float" | "!!bool" | "!!null" | "!!map" | "!!seq")
        )
    }

    /// True when the document looks like an MCP Cases document: it has
    /// `case` or a key starting with `in` / `out`. (Anything else is read as
    /// an mcp-assert file.)
    pub fn is_cases_document(&self) -> bool {
        self.as_map().is_some_and(|entries| {
            entries.iter().any(|(k, _)| {
                k.as_str()
                    .is_some_and(|k| k == "case" || k.starts_with("in") || k.starts_with("out"))
            })
        })
    }
}

/// A YAML syntax error: where, and what (without the position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where the parser stopped (0:0 when it did not say).
    pub pos: Pos,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: invalid YAML: {}",
            self.pos.line, self.pos.column, self.message
        )
    }
}

/// Parses every document of `text` with YAML 1.2's core schema (`y`, `no`,
/// `on` are strings, as in JSON). Empty documents are skipped, so document
/// numbers count the non-empty ones.
pub fn parse_documents(text: &str) -> Result<Vec<Node>, SyntaxError> {
    let options = serde_saphyr::options! {
        strict_booleans: true,
        with_snippet: false,
    };
    serde_saphyr::from_multiple_with_options::<Node>(text, options).map_err(|e| syntax_error(&e))
}

fn syntax_error(error: &serde_saphyr::Error) -> SyntaxError {
    let pos = error
        .location()
        .map(|l| Pos {
            line: l.line(),
            column: l.column(),
        })
        .unwrap_or_default();
    let text = error.to_string();
    let first = text.lines().next().unwrap_or_default();
    // The message repeats the position ("line 2 column 8: ..."); the error
    // prints its own.
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
    SyntaxError {
        pos,
        message: message.to_owned(),
    }
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

    #[test]
    fn keeps_order_positions_and_tags() {
        let docs =
            parse_documents("case: y\nin: {b: 1, a: !!re \"x.*\"}\n---\nout: [1, 2.5, null]\n")
                .unwrap();
        assert_eq!(docs.len(), 2);
        assert!(docs[0].is_cases_document());
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
    }

    #[test]
    fn syntax_errors_say_where() {
        let err = parse_documents("a: 1\nb: [1, 2\n").unwrap_err();
        assert_eq!(err.to_string(), "2:4: invalid YAML: unclosed bracket '['");
    }
}
