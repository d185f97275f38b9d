//! MCP Cases files: a stream of YAML documents, each a case made of `in…`
//! messages (client to server) and `out…` messages (server to client), kept
//! in the order they were written.

use std::time::Duration;

use serde_json::Value;

use crate::{
    error::LoadError,
    fields,
    json::ToJson,
    pattern::Pattern,
    tree::{Kind, Node, Pos},
};

/// One case (one YAML document).
#[derive(Debug, Clone)]
pub struct Case {
    /// The `case` name, if given.
    pub name: Option<String>,
    /// 1-based among the file's non-empty documents.
    pub number: usize,
    pub pos: Pos,
    pub steps: Vec<Step>,
    /// Whether the runner does the handshake first (`_handshake`; default:
    /// when the first `in` is not `initialize`).
    pub handshake: bool,
    /// How long to wait for each `out` (`_timeout`).
    pub timeout: Option<Duration>,
}

#[derive(Debug, Clone)]
pub enum Step {
    /// A message (or a batch, when an array) to send.
    In { key: String, message: Value },
    /// A message expected from the server.
    Out {
        key: String,
        pattern: Pattern,
        pos: Pos,
    },
}

/// The extension keys this implementation defines.
const EXTENSIONS: &[&str] = &["_handshake", "_timeout"];

impl Case {
    /// "`List tools` (case 2)" or "case 2".
    pub fn title(&self) -> String {
        match &self.name {
            Some(name) => format!("`{name}` (case {})", self.number),
            None => format!("case {}", self.number),
        }
    }

    /// The first message sent, if any.
    pub fn first_in(&self) -> Option<&Value> {
        self.steps.iter().find_map(|s| match s {
            Step::In { message, .. } => Some(message),
            Step::Out { .. } => None,
        })
    }
}

pub fn load_cases(file: &str, docs: &[Node]) -> Result<Vec<Case>, LoadError> {
    docs.iter()
        .enumerate()
        .map(|(i, doc)| load_case(file, doc, i + 1))
        .collect()
}

fn load_case(file: &str, doc: &Node, number: usize) -> Result<Case, LoadError> {
    let Some(entries) = doc.as_map() else {
        return Err(fields::expected(
            file,
            doc,
            &format!(
                "MCP Cases document {number} to be a mapping of `case`, `in…` and `out…` keys"
            ),
        ));
    };
    let mut case = Case {
        name: None,
        number,
        pos: doc.pos,
        steps: Vec::new(),
        handshake: true,
        timeout: None,
    };
    let mut handshake = None;
    for (key, value) in entries {
        let Some(name) = key.as_str() else {
            return Err(fields::expected(file, key, "a string key"));
        };
        if name == "case" {
            case.name = Some(fields::string(file, value, "case")?);
        } else if name.starts_with("in") {
            case.steps.push(Step::In {
                key: name.to_owned(),
                message: in_message(file, name, value)?,
            });
        } else if name.starts_with("out") {
            case.steps.push(out_step(file, name, key, value)?);
        } else if name == "_handshake" {
            handshake = Some(handshake_flag(file, value)?);
        } else if name == "_timeout" {
            case.timeout = Some(timeout(file, value)?);
        } else if name.starts_with('_') {
            other_extension(file, name, key)?;
        } else {
            return Err(LoadError::at(
                file,
                key.pos,
                format!(
                    "unknown key `{name}` in an MCP Cases document; keys are `case`, `in…` (client to server), `out…` (server to client) and `_`-prefixed extensions"
                ),
            ));
        }
    }
    if case.first_in().is_none() {
        return Err(LoadError::at(
            file,
            doc.pos,
            format!(
                "{} sends nothing: it needs at least one `in` message",
                case.title()
            ),
        ));
    }
    let starts_with_initialize = case
        .first_in()
        .and_then(|m| m.get("method"))
        .and_then(Value::as_str)
        == Some("initialize");
    case.handshake = handshake.unwrap_or(!starts_with_initialize);
    Ok(case)
}

/// The value of an `in…` key (`name`): a message, or a batch of them.
fn in_message(file: &str, name: &str, value: &Node) -> Result<Value, LoadError> {
    match &value.kind {
        Kind::Map(_) => value.to_json(file, "an `in` message"),
        Kind::Seq(items) if !items.is_empty() && items.iter().all(|i| i.as_map().is_some()) => {
            value.to_json(file, "an `in` message")
        }
        _ => Err(fields::expected(
            file,
            value,
            &format!("`{name}` to be a JSON-RPC message (a mapping) or a batch (a list of them)"),
        )),
    }
}

/// The step of an `out…` key (`name`, written at `key`): the message, or
/// batch, expected back.
fn out_step(file: &str, name: &str, key: &Node, value: &Node) -> Result<Step, LoadError> {
    if !matches!(value.kind, Kind::Map(_) | Kind::Seq(_)) {
        return Err(fields::expected(
            file,
            value,
            &format!("`{name}` to be a JSON-RPC message (a mapping) or a batch (a list of them)"),
        ));
    }
    Ok(Step::Out {
        key: name.to_owned(),
        pattern: Pattern::from_node(file, value)?,
        pos: key.pos,
    })
}

/// The value of `_handshake`.
fn handshake_flag(file: &str, value: &Node) -> Result<bool, LoadError> {
    match value.kind {
        Kind::Bool(b) => Ok(b),
        _ => Err(fields::expected(
            file,
            value,
            "`_handshake` to be true or false",
        )),
    }
}

/// The value of `_timeout`.
fn timeout(file: &str, value: &Node) -> Result<Duration, LoadError> {
    let text = match &value.kind {
        Kind::Str(s) => s.clone(),
        _ => {
            return Err(fields::expected(
                file,
                value,
                "`_timeout` to be a duration like \"5s\"",
            ));
        }
    };
    fields::parse_duration(&text).ok_or_else(|| {
        LoadError::at(
            file,
            value.pos,
            format!("`_timeout`: {text:?} is not a duration like \"500ms\" or \"5s\""),
        )
    })
}

/// An extension key (`_…`) this implementation does not define: another
/// tool's, unless it is too close to one of [`EXTENSIONS`] to be meant so.
fn other_extension(file: &str, name: &str, key: &Node) -> Result<(), LoadError> {
    // Extensions of other tools are theirs to read.
    match crate::names::nearest(name, EXTENSIONS) {
        Some(near) => Err(LoadError::at(
            file,
            key.pos,
            format!(
                "unknown extension `{name}`; did you mean `{near}`? (extensions starting with `_` are otherwise ignored, but this one is too close to a known one to be meant for another tool)"
            ),
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_documents;

    fn cases(text: &str) -> Result<Vec<Case>, LoadError> {
        load_cases("c.yaml", &parse_documents("c.yaml", text)?)
    }

    #[test]
    fn keeps_steps_in_document_order() {
        let cases = cases(
            "case: Init\nin_request: {jsonrpc: '2.0', id: 1, method: initialize}\nout: {id: 1}\nin_note: {jsonrpc: '2.0', method: notifications/initialized}\n---\nin: {jsonrpc: '2.0', id: 2, method: tools/list}\n_other_tool: x\n",
        )
        .unwrap();
        assert_eq!(cases.len(), 2);
        let keys: Vec<&str> = cases[0]
            .steps
            .iter()
            .map(|s| match s {
                Step::In { key, .. } | Step::Out { key, .. } => key.as_str(),
            })
            .collect();
        assert_eq!(keys, ["in_request", "out", "in_note"]);
        assert!(
            !cases[0].handshake,
            "a case starting with initialize does its own"
        );
        assert!(cases[1].handshake);
        assert_eq!(cases[1].title(), "case 2");
    }

    #[test]
    fn errors_point_at_the_key() {
        let err = cases("case: x\nin: {a: 1}\nouput: {b: 2}\n").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("c.yaml:3:1: unknown key `ouput` in an MCP Cases document"),
            "{err}"
        );
        let err = cases("case: x\nin: 5\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "c.yaml:2:5: expected `in` to be a JSON-RPC message (a mapping) or a batch (a list of them), found an integer"
        );
        let err = cases("case: x\n_handshak: false\nin: {a: 1}\n").unwrap_err();
        assert!(
            err.to_string().contains("did you mean `_handshake`?"),
            "{err}"
        );
    }
}
