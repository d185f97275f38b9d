//! A suite file's YAML, parsed at compile time into a tree that keeps what
//! mcptest's loader needs (mapping order, tags, line:column of every node)
//! and emitted as a constant: the generated test loads its file from it
//! without parsing YAML when it runs.

use std::fmt;

use proc_macro2::TokenStream;
use quote::quote;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Spanned, Tagged};

/// The core schema's tag namespace; `!!re` is `tag:yaml.org,2002:re`.
const CORE_TAGS: &str = "tag:yaml.org,2002:";

/// One YAML node.
pub(crate) struct Node {
    kind: Kind,
    /// The tag, shortened (`!!re`); `None` when untagged.
    tag: Option<String>,
    line: u64,
    column: u64,
}

enum Kind {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

impl Node {
    fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    fn get(&self, key: &str) -> Option<&Node> {
        match &self.kind {
            Kind::Map(entries) => entries
                .iter()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// An MCP Cases document: it has `case`, or a key starting with `in` /
    /// `out` (as mcptest's loader tells them apart).
    pub(crate) fn is_cases(&self) -> bool {
        match &self.kind {
            Kind::Map(entries) => entries
                .iter()
                .filter_map(|(k, _)| k.as_str())
                .any(|k| k == "case" || k.starts_with("in") || k.starts_with("out")),
            _ => false,
        }
    }

    /// The case's name, if it has one.
    pub(crate) fn case(&self) -> Option<&str> {
        self.get("case").and_then(Node::as_str)
    }

    /// `skip: true`.
    pub(crate) fn skip(&self) -> bool {
        matches!(self.get("skip").map(|n| &n.kind), Some(Kind::Bool(true)))
    }

    /// The node as a constant `EmbeddedNode` of mcptest (`private` is the
    /// path of its macro support module).
    pub(crate) fn to_tokens(&self, private: &TokenStream) -> TokenStream {
        let kind = match &self.kind {
            Kind::Null => quote!(Null),
            Kind::Bool(b) => quote!(Bool(#b)),
            Kind::Int(i) => quote!(Int(#i)),
            Kind::UInt(u) => quote!(UInt(#u)),
            Kind::Float(f) => {
                // Bit for bit, NaN and infinities included.
                let bits = f.to_bits();
                quote!(Float(::core::primitive::f64::from_bits(#bits)))
            }
            Kind::Str(s) => quote!(Str(#s)),
            Kind::Seq(items) => {
                let items = items.iter().map(|n| n.to_tokens(private));
                quote!(Seq(&[#(#items),*]))
            }
            Kind::Map(entries) => {
                let entries = entries.iter().map(|(k, v)| {
                    let (k, v) = (k.to_tokens(private), v.to_tokens(private));
                    quote!((#k, #v))
                });
                quote!(Map(&[#(#entries),*]))
            }
        };
        let tag = match &self.tag {
            Some(tag) => quote!(::core::option::Option::Some(#tag)),
            None => quote!(::core::option::Option::None),
        };
        let (line, column) = (self.line, self.column);
        quote! {
            #private::EmbeddedNode {
                kind: #private::EmbeddedKind::#kind,
                tag: #tag,
                line: #line,
                column: #column,
            }
        }
    }
}

/// A YAML syntax error, at line:column.
pub(crate) struct ParseError {
    line: u64,
    column: u64,
    message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: invalid YAML: {}",
            self.line, self.column, self.message
        )
    }
}

/// Every document of `text`, with YAML 1.2's booleans (`y`, `no`, `on` are
/// strings), as mcptest's loader reads them.
pub(crate) fn parse(text: &str) -> Result<Vec<Node>, ParseError> {
    let options = serde_saphyr::options! { strict_booleans: true, with_snippet: false };
    serde_saphyr::from_multiple_with_options::<Node>(text, options).map_err(|e| {
        let (line, column) = e
            .location()
            .map(|l| (l.line(), l.column()))
            .unwrap_or((0, 0));
        let text = e.to_string();
        let first = text.lines().next().unwrap_or_default().to_owned();
        // The message repeats the position; the error prints its own.
        let message = first
            .split_once(": ")
            .filter(|(h, _)| h.starts_with("line ") || h.starts_with("error: line "))
            .map(|(_, m)| m.to_owned())
            .unwrap_or(first);
        let message = match message.rfind(" at line ") {
            Some(at) if message[at..].contains(", column ") => message[..at].to_owned(),
            _ => message,
        };
        ParseError {
            line,
            column,
            message,
        }
    })
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let spanned = Spanned::<Tagged<RawKind>>::deserialize(deserializer)?;
        let Tagged(RawKind(kind), tag) = spanned.value;
        Ok(Node {
            kind,
            tag: tag.map(|t| match t.strip_prefix(CORE_TAGS) {
                Some(short) => format!("!!{short}"),
                None => t,
            }),
            line: spanned.referenced.line(),
            column: spanned.referenced.column(),
        })
    }
}

struct RawKind(Kind);

impl<'de> Deserialize<'de> for RawKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(AnyKind)
    }
}

struct AnyKind;

impl<'de> Visitor<'de> for AnyKind {
    type Value = RawKind;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<RawKind, E> {
        Ok(RawKind(Kind::Null))
    }
    fn visit_none<E>(self) -> Result<RawKind, E> {
        Ok(RawKind(Kind::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<RawKind, D::Error> {
        RawKind::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<RawKind, E> {
        Ok(RawKind(Kind::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<RawKind, E> {
        Ok(RawKind(Kind::Int(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<RawKind, E> {
        Ok(RawKind(i64::try_from(v).map_or(Kind::UInt(v), Kind::Int)))
    }
    fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<RawKind, E> {
        i64::try_from(v)
            .map(|i| RawKind(Kind::Int(i)))
            .map_err(|_| E::custom(format!("the integer {v} is too large")))
    }
    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<RawKind, E> {
        u64::try_from(v)
            .map(|u| RawKind(Kind::UInt(u)))
            .map_err(|_| E::custom(format!("the integer {v} is too large")))
    }
    fn visit_f64<E>(self, v: f64) -> Result<RawKind, E> {
        Ok(RawKind(Kind::Float(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<RawKind, E> {
        Ok(RawKind(Kind::Str(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<RawKind, E> {
        Ok(RawKind(Kind::Str(v)))
    }
    fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<RawKind, E> {
        String::from_utf8(v.to_vec())
            .map(|s| RawKind(Kind::Str(s)))
            .map_err(|_| E::custom("binary data is not supported here"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawKind, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Node>()? {
            items.push(item);
        }
        Ok(RawKind(Kind::Seq(items)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawKind, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry::<Node, Node>()? {
            entries.push(entry);
        }
        Ok(RawKind(Kind::Map(entries)))
    }
}
