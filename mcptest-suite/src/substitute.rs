//! What a suite file's values become before the server sees them:
//! `{{fixture}}` and captured `{{name}}` placeholders. Environment variables
//! in `server.env` are expanded once, when the server starts, in the suite
//! dialect (mcp-assert's meaning: an unset variable becomes the empty string);
//! the Rust API ([`Server::env`](mcptest_core::Server::env)) is stricter and refuses
//! an unset variable without a default.

use std::{collections::BTreeMap, path::Path};

use serde_json::{Map, Value};

/// `{{fixture}}` replaced by the fixture copy's path (left as it is without one).
pub(crate) fn fixture(text: &str, fixture: Option<&Path>) -> String {
    match fixture {
        Some(dir) => text.replace("{{fixture}}", &dir.to_string_lossy()),
        None => text.to_owned(),
    }
}

/// `{{fixture}}` first, then each captured `{{name}}`, in every string of `value`.
pub(crate) fn value(value: &Value, dir: Option<&Path>, vars: &BTreeMap<String, String>) -> Value {
    match value {
        Value::String(s) => Value::String(text(s, dir, vars)),
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| self::value(v, dir, vars)).collect())
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), self::value(v, dir, vars)))
                .collect::<Map<_, _>>(),
        ),
        other => other.clone(),
    }
}

/// `{{fixture}}` first, then each captured `{{name}}`, in one string.
pub(crate) fn text(text: &str, dir: Option<&Path>, vars: &BTreeMap<String, String>) -> String {
    let mut s = fixture(text, dir);
    for (name, v) in vars {
        s = s.replace(&format!("{{{{{name}}}}}"), v);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn placeholders_are_replaced_in_every_string() {
        let vars = BTreeMap::from([("id".to_owned(), "42".to_owned())]);
        let dir = Path::new("/tmp/copy/fixtures");
        assert_eq!(
            value(
                &json!({"path": "{{fixture}}/a", "ids": ["{{id}}", 1]}),
                Some(dir),
                &vars
            ),
            json!({"path": "/tmp/copy/fixtures/a", "ids": ["42", 1]})
        );
        assert_eq!(text("{{fixture}}", None, &vars), "{{fixture}}");
    }
}
