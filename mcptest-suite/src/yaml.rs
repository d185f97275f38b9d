//! YAML as a tree that remembers where each node was written and how it was
//! tagged, so every later check can point at file:line:column. The tree and
//! its reader are `mcptest-yaml`'s, shared with the `suite!` macro so a file
//! reads alike at compile time and at run time; this module adds what the
//! loader needs on top (JSON values, file names in errors).

use serde_json::{Map, Number, Value};

pub(crate) use mcptest_yaml::{Kind, Node, Pos};

use super::LoadError;

/// The node as JSON.
pub(crate) trait ToJson {
    /// Tags other than the core ones are refused (`what` says where tags are
    /// not allowed), as are non-string mapping keys and numbers JSON cannot
    /// hold.
    fn to_json(&self, file: &str, what: &str) -> Result<Value, LoadError>;
}

impl ToJson for Node {
    fn to_json(&self, file: &str, what: &str) -> Result<Value, LoadError> {
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
        E::Seq(items) => Kind::Seq(items.iter().map(from_embedded).collect()),
        E::Map(entries) => Kind::Map(
            entries
                .iter()
                .map(|(k, v)| (from_embedded(k), from_embedded(v)))
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

/// Parses every document of `text` (empty documents skipped); a syntax
/// error names `file`.
pub(crate) fn parse_documents(file: &str, text: &str) -> Result<Vec<Node>, LoadError> {
    mcptest_yaml::parse_documents(text)
        .map_err(|e| LoadError::at(file, e.pos, format!("invalid YAML: {}", e.message)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn documents_become_json() {
        // The tree itself (order, positions, tags) is tested in mcptest-yaml.
        let docs = parse_documents("t.yaml", "out: [1, 2.5, null]\n").unwrap();
        let out = docs[0].as_map().unwrap()[0]
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
