//! Whether a message fits one generated definition of the schema, and where
//! it breaks it when it does not.

use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;

use super::words;

/// Where a message broke its definition.
pub(super) struct Broken {
    pub(super) definition: &'static str,
    pub(super) path: String,
    pub(super) requirement: String,
}

/// Reads `value` as `T`; where it does not fit, the path and what the
/// schema requires there.
///
/// The generated types read `null` as an absent optional member, where the
/// schema allows absence but no `null` (`"id": null` in an error answer):
/// a message holding a `null` is written back from `T`, and a `null` that
/// did not survive was read as absence, which the schema does not allow.
pub(super) fn fits<T: DeserializeOwned + Serialize>(
    definition: &'static str,
    value: &Value,
) -> Result<(), Broken> {
    // Read plainly first: a message that fits (nearly every one) does not
    // pay for the path tracking, which only a message that breaks needs.
    match T::deserialize(value) {
        Ok(typed) => {
            if !holds_null(value) {
                return Ok(());
            }
            let back = serde_json::to_value(&typed).unwrap_or(Value::Null);
            match lost_null(value, &back, String::new()) {
                None => Ok(()),
                Some(path) => Err(Broken {
                    definition,
                    path,
                    requirement: "null is not allowed here: the member may be left out, \
                                  but when present it must be a value of its type"
                        .to_owned(),
                }),
            }
        }
        Err(plain) => Err(broken::<T>(definition, value, &plain.to_string())),
    }
}

/// Where `value` breaks `T`: read again, this time tracking the path.
fn broken<T: DeserializeOwned>(definition: &'static str, value: &Value, plain: &str) -> Broken {
    let (path, error) = match serde_path_to_error::deserialize::<_, T>(value) {
        Err(error) => (error.path().to_string(), error.into_inner().to_string()),
        // The same reader cannot change its mind; were it to, the plain
        // error is still the answer, at the top.
        Ok(_) => (".".to_owned(), plain.to_owned()),
    };
    let requirement = words::requirement(&error, &path);
    Broken {
        definition,
        path,
        requirement,
    }
}

/// Whether any member or item of `value` is `null`.
fn holds_null(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.iter().any(holds_null),
        Value::Object(members) => members.values().any(holds_null),
        _ => false,
    }
}

/// Members the schema types as `unknown` (any JSON value, `null` too): an
/// error's `data`, a 2026-07-28 `structuredContent`.
const ANY_VALUE: &[&str] = &["data", "structuredContent"];

/// The path of the first `null` in `sent` that `back` (the same message
/// written back from its type) no longer holds.
fn lost_null(sent: &Value, back: &Value, path: String) -> Option<String> {
    let at = |path: &str, step: String| {
        if path.is_empty() {
            step.trim_start_matches('.').to_owned()
        } else {
            format!("{path}{step}")
        }
    };
    match (sent, back) {
        (Value::Object(members), _) => members.iter().find_map(|(key, item)| {
            let kept = back.get(key);
            let here = at(&path, format!(".{key}"));
            match item {
                Value::Null if kept != Some(&Value::Null) && !ANY_VALUE.contains(&key.as_str()) => {
                    Some(here)
                }
                _ => kept.and_then(|kept| lost_null(item, kept, here)),
            }
        }),
        (Value::Array(items), Value::Array(kept)) => {
            items
                .iter()
                .zip(kept)
                .enumerate()
                .find_map(|(i, (item, kept))| match item {
                    Value::Null if *kept != Value::Null => Some(at(&path, format!("[{i}]"))),
                    _ => lost_null(item, kept, at(&path, format!("[{i}]"))),
                })
        }
        _ => None,
    }
}
