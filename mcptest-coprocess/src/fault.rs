//! A request's failure as the engine answers it ([`Fault`]: an error
//! frame's code, message and data), and the check of a request's params
//! that every method starts with.

use serde_json::{Map, Value};

use crate::protocol::codes;

/// A coprocess error: code, message and optional data.
#[derive(Debug)]
pub(crate) struct Fault {
    pub(crate) code: i32,
    pub(crate) message: String,
    pub(crate) data: Option<Value>,
}

impl Fault {
    pub(crate) fn new(code: i32, message: impl Into<String>) -> Fault {
        Fault {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub(crate) fn data(mut self, data: Value) -> Fault {
        self.data = Some(data);
        self
    }

    /// -32602 with `message`.
    pub(crate) fn params(message: impl Into<String>) -> Fault {
        Fault::new(codes::INVALID_PARAMS, message)
    }
}

/// The params as an object with only `allowed` keys and every `required` one.
pub(crate) fn object<'a>(
    params: &'a Value,
    allowed: &[&str],
    required: &[&str],
) -> Result<&'a Map<String, Value>, Fault> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    let fields = match params {
        Value::Object(fields) => fields,
        _ => EMPTY.get_or_init(Map::new),
    };
    if let Some(extra) = fields.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(Fault::new(
            codes::INVALID_PARAMS,
            format!("unknown param `{extra}` (expected: {})", allowed.join(", ")),
        ));
    }
    if let Some(missing) = required.iter().find(|k| !fields.contains_key(**k)) {
        return Err(Fault::new(
            codes::INVALID_PARAMS,
            format!("missing param `{missing}`"),
        ));
    }
    Ok(fields)
}
