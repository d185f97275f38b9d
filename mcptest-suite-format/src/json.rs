//! What the loader needs on top of the tree: nodes as JSON values, and
//! syntax errors that name the file.

use serde_json::{Map, Number, Value};

use crate::{
    error::LoadError,
    tree::{Kind, Node},
};

/// The node as JSON.
pub trait ToJson {
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

/// Parses every document of `text` (empty documents skipped); a syntax
/// error names `file`, as every load error does.
pub fn parse_documents(file: &str, text: &str) -> Result<Vec<Node>, LoadError> {
    crate::tree::parse_documents(text)
        .map_err(|e| LoadError::at(file, e.pos, format!("invalid YAML: {}", e.message)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn documents_become_json() {
        // The tree itself (order, positions, tags) is tested in `tree`.
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
