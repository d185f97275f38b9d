//! Reading typed values out of YAML nodes with errors that say where and
//! what was expected: the loaders' one way to look at a mapping.

use std::{collections::BTreeMap, time::Duration};

use serde_json::Value;

use crate::{
    error::LoadError,
    json::ToJson,
    tree::{Kind, Node, Pos},
};

/// A mapping whose keys have been checked against the ones a block allows.
pub struct Fields<'a> {
    pub(crate) file: &'a str,
    pub(crate) node: &'a Node,
    entries: &'a [(Node, Node)],
    /// The block's name for messages: "`assert`", "`expect`".
    pub(crate) what: &'a str,
}

impl<'a> Fields<'a> {
    /// Checks that `node` is a mapping whose keys are all in `allowed`.
    pub(crate) fn new(
        file: &'a str,
        node: &'a Node,
        what: &'a str,
        allowed: &[&str],
    ) -> Result<Fields<'a>, LoadError> {
        let Some(entries) = node.as_map() else {
            return Err(expected(file, node, &format!("{what} to be a mapping")));
        };
        for (key, _) in entries {
            let Some(name) = key.as_str() else {
                return Err(expected(file, key, &format!("a string key in {what}")));
            };
            if !allowed.contains(&name) {
                return Err(unknown_key(file, key.pos, name, what, allowed));
            }
        }
        Ok(Fields {
            file,
            node,
            entries,
            what,
        })
    }

    pub(crate) fn get(&self, key: &str) -> Option<&'a Node> {
        self.entries
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// The position of `key` itself (for "needs X" messages on the block).
    pub(crate) fn key_pos(&self, key: &str) -> Option<Pos> {
        self.entries
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(k, _)| k.pos)
    }

    pub(crate) fn error(&self, node: &Node, message: impl Into<String>) -> LoadError {
        LoadError::at(self.file, node.pos, message)
    }

    /// An error about the block as a whole, pointing at its first key.
    pub(crate) fn missing(&self, key: &str, meaning: &str) -> LoadError {
        LoadError::at(
            self.file,
            self.node.pos,
            format!("{} needs `{key}`: {meaning}", self.what),
        )
    }

    pub(crate) fn string(&self, key: &str) -> Result<Option<String>, LoadError> {
        self.get(key).map(|n| string(self.file, n, key)).transpose()
    }

    pub(crate) fn required_string(&self, key: &str, meaning: &str) -> Result<String, LoadError> {
        match self.string(key)? {
            Some(s) if !s.trim().is_empty() => Ok(s),
            Some(_) => Err(self.error(
                self.get(key).expect("present"),
                format!("`{key}` is empty; it must be {meaning}"),
            )),
            None => Err(self.missing(key, meaning)),
        }
    }

    pub(crate) fn bool(&self, key: &str) -> Result<Option<bool>, LoadError> {
        self.get(key)
            .map(|n| match n.kind {
                Kind::Bool(b) => Ok(b),
                _ => Err(expected(
                    self.file,
                    n,
                    &format!("`{key}` to be true or false"),
                )),
            })
            .transpose()
    }

    pub(crate) fn count(&self, key: &str) -> Result<Option<usize>, LoadError> {
        self.get(key)
            .map(|n| match n.kind {
                Kind::Int(i) if i >= 0 => Ok(i as usize),
                _ => Err(expected(
                    self.file,
                    n,
                    &format!("`{key}` to be a whole number of 0 or more"),
                )),
            })
            .transpose()
    }

    pub(crate) fn int(&self, key: &str) -> Result<Option<i64>, LoadError> {
        self.get(key)
            .map(|n| match n.kind {
                Kind::Int(i) => Ok(i),
                _ => Err(expected(
                    self.file,
                    n,
                    &format!("`{key}` to be a whole number"),
                )),
            })
            .transpose()
    }

    /// A list of strings; a single string is not accepted (a one-element
    /// list is written `[x]`).
    pub(crate) fn strings(&self, key: &str) -> Result<Vec<String>, LoadError> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(n) => strings(self.file, n, key),
        }
    }

    /// A mapping of strings to strings, in file order.
    pub(crate) fn string_map(&self, key: &str) -> Result<Vec<(String, String)>, LoadError> {
        let Some(node) = self.get(key) else {
            return Ok(Vec::new());
        };
        let Some(entries) = node.as_map() else {
            return Err(expected(
                self.file,
                node,
                &format!("`{key}` to be a mapping"),
            ));
        };
        entries
            .iter()
            .map(|(k, v)| {
                let name = string(self.file, k, &format!("a key of `{key}`"))?;
                Ok((
                    name,
                    scalar_string(
                        self.file,
                        v,
                        &format!("`{key}.{}`", k.as_str().unwrap_or_default()),
                    )?,
                ))
            })
            .collect()
    }

    /// Tool arguments: a mapping (or nothing).
    pub(crate) fn arguments(&self, key: &str) -> Result<Value, LoadError> {
        match self.get(key) {
            None => Ok(Value::Object(Default::default())),
            Some(n) if matches!(n.kind, Kind::Null) => Ok(Value::Object(Default::default())),
            Some(n) if n.as_map().is_some() => n.to_json(self.file, &format!("`{key}`")),
            Some(n) => Err(expected(
                self.file,
                n,
                &format!("`{key}` to be a mapping of argument names to values"),
            )),
        }
    }

    pub(crate) fn duration(&self, key: &str) -> Result<Option<Duration>, LoadError> {
        self.get(key)
            .map(|n| {
                let text = match &n.kind {
                    Kind::Str(s) => s.clone(),
                    Kind::Int(i) if *i >= 0 => format!("{i}s"),
                    _ => return Err(expected(self.file, n, &format!("`{key}` to be a duration like \"30s\""))),
                };
                parse_duration(&text).ok_or_else(|| {
                    self.error(
                        n,
                        format!("`{key}`: {text:?} is not a duration; write it like \"500ms\", \"30s\", \"2m\" or \"1m30s\""),
                    )
                })
            })
            .transpose()
    }
}

pub(crate) fn expected(file: &str, node: &Node, what: &str) -> LoadError {
    LoadError::at(
        file,
        node.pos,
        format!("expected {what}, found {}", node.describe()),
    )
}

pub(crate) fn string(file: &str, node: &Node, what: &str) -> Result<String, LoadError> {
    node.as_str()
        .map(str::to_owned)
        .ok_or_else(|| expected(file, node, &format!("{} to be a string", quoted(what))))
}

/// A string, or a number or boolean written without quotes (kept as written).
fn scalar_string(file: &str, node: &Node, what: &str) -> Result<String, LoadError> {
    Ok(match &node.kind {
        Kind::Str(s) => s.clone(),
        Kind::Int(i) => i.to_string(),
        Kind::UInt(u) => u.to_string(),
        Kind::Float(f) => f.to_string(),
        Kind::Bool(b) => b.to_string(),
        _ => return Err(expected(file, node, &format!("{what} to be a string"))),
    })
}

pub(crate) fn strings(file: &str, node: &Node, key: &str) -> Result<Vec<String>, LoadError> {
    let Kind::Seq(items) = &node.kind else {
        return Err(expected(
            file,
            node,
            &format!("`{key}` to be a list of strings"),
        ));
    };
    items
        .iter()
        .map(|item| scalar_string(file, item, &format!("each item of `{key}`")))
        .collect()
}

fn quoted(what: &str) -> String {
    if what.starts_with('`') || what.contains(' ') {
        what.to_owned()
    } else {
        format!("`{what}`")
    }
}

/// "unknown key `contians` in `expect`; did you mean `contains`? (valid: ...)"
pub(crate) fn unknown_key(
    file: &str,
    pos: Pos,
    name: &str,
    what: &str,
    allowed: &[&str],
) -> LoadError {
    let mut message = format!("unknown key `{name}` in {what}");
    if let Some(near) = crate::names::nearest(name, allowed) {
        message.push_str(&format!("; did you mean `{near}`?"));
    }
    message.push_str(&format!(" (expected one of: {})", allowed.join(", ")));
    LoadError::at(file, pos, message)
}

/// Go-style durations as mcp-assert writes them: "250ms", "30s", "2m", "1h", "1m30s".
pub(crate) fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let units: BTreeMap<&str, f64> = [
        ("ns", 1e-9),
        ("us", 1e-6),
        ("µs", 1e-6),
        ("ms", 1e-3),
        ("s", 1.0),
        ("m", 60.0),
        ("h", 3600.0),
    ]
    .into_iter()
    .collect();
    let mut rest = text;
    let mut total = 0.0f64;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if digits == 0 {
            return None;
        }
        let number: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let factor = units.get(&rest[..unit_len])?;
        total += number * factor;
        rest = &rest[unit_len..];
    }
    Duration::try_from_secs_f64(total).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30s"), Some(Duration::from_secs(30)));
        assert_eq!(parse_duration("1m30s"), Some(Duration::from_secs(90)));
        assert_eq!(parse_duration("250ms"), Some(Duration::from_millis(250)));
        assert_eq!(parse_duration("1.5s"), Some(Duration::from_millis(1500)));
        for bad in ["", "30", "s", "3x", "-1s"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }
}
