//! The cassette file: its format, the messages it holds, loading it for
//! replay, and the redaction of secret fields.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Error;

/// The file: a format marker, the redacted field names, and every message
/// in the order it crossed the connection.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct CassetteFile {
    pub(crate) mcptest_cassette: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) redacted_fields: Vec<String>,
    pub(crate) messages: Vec<Entry>,
}

/// One message and who sent it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Entry {
    pub(crate) from: Side,
    pub(crate) message: Value,
}

/// Which end of the connection sent a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Side {
    Client,
    Server,
}

/// The format version written in `mcptest_cassette`.
pub(crate) const FORMAT: u32 = 1;

/// A loaded cassette, ready to replay.
pub(crate) struct Tape {
    pub(crate) path: PathBuf,
    pub(crate) redact: Vec<String>,
    pub(crate) messages: Vec<Entry>,
}

impl Tape {
    pub(super) fn load(path: &Path, redact: &[String]) -> Result<Tape, Error> {
        let bad = |why: String| Error::InvalidConfig {
            message: format!("cassette {}: {why}", path.display()),
        };
        let text = std::fs::read_to_string(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                bad("no such file to replay; record it first (CassetteMode::Record or Auto)".into())
            } else {
                bad(e.to_string())
            }
        })?;
        let file: CassetteFile =
            serde_json::from_str(&text).map_err(|e| bad(format!("not a cassette: {e}")))?;
        if file.mcptest_cassette != FORMAT {
            return Err(bad(format!(
                "format {} is not the one this mcptest reads ({FORMAT})",
                file.mcptest_cassette
            )));
        }
        let mut redact = redact.to_vec();
        redact.extend(file.redacted_fields);
        Ok(Tape {
            path: path.to_path_buf(),
            redact,
            messages: file.messages,
        })
    }
}

/// Replaces the value of every object member named in `fields`, at any
/// depth, with `"[redacted]"`.
pub(crate) fn redact(value: &mut Value, fields: &[String]) {
    if fields.is_empty() {
        return;
    }
    match value {
        Value::Object(map) => {
            for (key, member) in map.iter_mut() {
                if fields.iter().any(|f| f == key) {
                    *member = Value::String("[redacted]".into());
                } else {
                    redact(member, fields);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact(v, fields)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn redaction_reaches_every_depth() {
        let mut value =
            json!({"a": {"token": "s3cret", "list": [{"token": 1}, {"keep": 2}]}, "token": null});
        redact(&mut value, &["token".to_owned()]);
        assert_eq!(
            value,
            json!({"a": {"token": "[redacted]", "list": [{"token": "[redacted]"}, {"keep": 2}]}, "token": "[redacted]"})
        );
    }
}
