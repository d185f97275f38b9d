//! What a suite file's values become before the server sees them:
//! `{{fixture}}` and captured `{{name}}` placeholders, and environment
//! variables in `server.env`, expanded the way mcp-assert expands them.
//!
//! Suite files keep mcp-assert's meaning: an unset variable becomes the empty
//! string. The Rust API ([`Server::env`](crate::Server::env)) is stricter and
//! refuses an unset variable without a default.

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

/// Expands `$VAR`, `${VAR}` and `${VAR:-default}` in `text` with `lookup`,
/// as a shell-like `os.ExpandEnv` does: an unset variable becomes "", `:-`
/// also replaces an empty value, a malformed `${...}` is dropped, and a `$`
/// that starts no name stays as it is.
pub(crate) fn expand_env(text: &str, lookup: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(inner) = after.strip_prefix('{') {
            let Some(end) = inner.find('}') else {
                // `${` never closed: dropped, like the rest of a bad reference.
                rest = "";
                break;
            };
            let expr = &inner[..end];
            let (name, default) = match expr.split_once(":-") {
                Some((name, default)) => (name, Some(default)),
                None => (expr, None),
            };
            let value = if is_name(name) { lookup(name) } else { None };
            match (value, default) {
                (Some(v), Some(default)) if v.is_empty() => out.push_str(default),
                (Some(v), _) => out.push_str(&v),
                (None, Some(default)) if is_name(name) => out.push_str(default),
                (None, _) => {}
            }
            rest = &inner[end + 1..];
            continue;
        }
        let len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        if len == 0 {
            // `$` that starts no name: kept literally.
            out.push('$');
            rest = after;
            continue;
        }
        out.push_str(&lookup(&after[..len]).unwrap_or_default());
        rest = &after[len..];
    }
    out.push_str(rest);
    out
}

fn is_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn env(name: &str) -> Option<String> {
        match name {
            "HOME" => Some("/home/ada".into()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn env_values_expand_with_both_forms_and_defaults() {
        assert_eq!(expand_env("$HOME/x", env), "/home/ada/x");
        assert_eq!(expand_env("${HOME}x", env), "/home/adax");
        assert_eq!(expand_env("${NOPE:-fallback}", env), "fallback");
        assert_eq!(expand_env("${EMPTY:-fallback}", env), "fallback");
        assert_eq!(expand_env("${HOME:-fallback}", env), "/home/ada");
        assert_eq!(expand_env("${NOPE:-}", env), "");
    }

    #[test]
    fn an_unset_variable_is_empty_in_suite_files() {
        assert_eq!(expand_env("a${NOPE}b$NOPE.c", env), "ab.c");
        assert_eq!(expand_env("cost: 5$", env), "cost: 5$");
        assert_eq!(expand_env("$ $-x", env), "$ $-x");
        assert_eq!(expand_env("${bad name}x", env), "x");
        assert_eq!(expand_env("x${unclosed", env), "x");
    }

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
