//! The coprocess schema applied to frames: what `mcptest exec
//! --check-frames` checks every frame it receives and sends against, and
//! what SDK test suites written in Rust can check theirs with.

use std::{
    collections::HashMap,
    fmt,
    sync::{Arc, Mutex},
};

use serde_json::{Value, json};

use crate::protocol::{SCHEMA, methods_of};

/// Where a frame breaks the schema, and the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameError {
    /// JSON pointer to the offending value in the frame (`""` for the frame
    /// itself).
    pub path: String,
    /// The rule, in the validator's words.
    pub rule: String,
}

impl FrameError {
    /// The path as a message shows it.
    fn shown_path(&self) -> &str {
        if self.path.is_empty() {
            "the top level"
        } else {
            &self.path
        }
    }

    /// `data` of the error that reports it: `{path, rule}`.
    pub(crate) fn data(&self) -> Value {
        json!({ "path": self.path, "rule": self.rule })
    }
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.shown_path(), self.rule)
    }
}

impl std::error::Error for FrameError {}

/// The longest rule kept in a message: a rule that quotes a whole frame
/// (`... is not valid under any of the given schemas`) would otherwise
/// repeat a frame of megabytes.
const RULE_CHARS: usize = 300;

/// The coprocess schema, with one compiled validator per definition used
/// (compiled on first use).
///
/// ```
/// use mcptest_coprocess::FrameSchema;
/// use serde_json::json;
///
/// let schema = FrameSchema::new();
/// let call = json!({"jsonrpc": "2.0", "id": 1, "method": "mcp.call", "params": {"tool": "add"}});
/// assert!(schema.check_request(3, &call).is_ok());
/// let drifted = json!({"jsonrpc": "2.0", "id": 1, "method": "mcp.call", "params": {"tool": "add", "x": 1}});
/// let error = schema.check_request(3, &drifted).unwrap_err();
/// assert_eq!(error.path, "/params");
/// ```
pub struct FrameSchema {
    root: Value,
    validators: Mutex<HashMap<String, Arc<jsonschema::Validator>>>,
}

impl std::fmt::Debug for FrameSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameSchema").finish_non_exhaustive()
    }
}

impl Default for FrameSchema {
    fn default() -> Self {
        FrameSchema::new()
    }
}

impl FrameSchema {
    /// The schema shipped with this crate ([`SCHEMA`]).
    pub fn new() -> FrameSchema {
        FrameSchema {
            root: serde_json::from_str(SCHEMA).expect("the crate's coprocess schema is JSON"),
            validators: Mutex::new(HashMap::new()),
        }
    }

    /// The schema document.
    pub fn document(&self) -> &Value {
        &self.root
    }

    /// Checks `value` against the definition at `pointer`
    /// (`/$defs/result/mcp.call`; a leading `#` is allowed). A pointer that
    /// names no definition is an error naming it.
    ///
    /// # Errors
    ///
    /// The first place where `value` breaks the definition.
    pub fn check(&self, pointer: &str, value: &Value) -> Result<(), FrameError> {
        let pointer = pointer.trim_start_matches('#');
        let validator = self.validator(pointer)?;
        match validator.iter_errors(value).next() {
            None => Ok(()),
            Some(error) => Err(FrameError {
                path: error.instance_path().to_string(),
                rule: shorten(&error.to_string()),
            }),
        }
    }

    /// Checks a request frame: the closed envelope, then (for a method a
    /// session of protocol `version` is served) the method's request.
    ///
    /// # Errors
    ///
    /// Where the frame breaks the schema.
    pub fn check_request(&self, version: u32, frame: &Value) -> Result<(), FrameError> {
        self.check("/$defs/envelope", frame)?;
        let method = frame.get("method").and_then(Value::as_str).unwrap_or("");
        if methods_of(version).contains(&method) {
            self.check(
                &format!("{}/request/{}", group(version), escape(method)),
                frame,
            )?;
        }
        Ok(())
    }

    /// Checks a response frame to a request of `method` (when known) in a
    /// session of protocol `version`: the closed response, then a `result`
    /// against the method's result.
    ///
    /// # Errors
    ///
    /// Where the frame breaks the schema (paths are into the whole frame).
    pub fn check_response(
        &self,
        version: u32,
        method: Option<&str>,
        frame: &Value,
    ) -> Result<(), FrameError> {
        self.check("/$defs/response", frame)?;
        if let (Some(method), Some(result)) = (method, frame.get("result"))
            && methods_of(version).contains(&method)
        {
            self.check(
                &format!("{}/result/{}", group(version), escape(method)),
                result,
            )
            .map_err(|e| FrameError {
                path: format!("/result{}", e.path),
                rule: e.rule,
            })?;
        }
        Ok(())
    }

    fn validator(&self, pointer: &str) -> Result<Arc<jsonschema::Validator>, FrameError> {
        let mut validators = self.validators.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(validator) = validators.get(pointer) {
            return Ok(validator.clone());
        }
        let missing = || FrameError {
            path: String::new(),
            rule: format!("the coprocess schema has no definition at #{pointer}"),
        };
        if self.root.pointer(pointer).is_none() {
            return Err(missing());
        }
        // The definition as the root of a document that carries every
        // definition, so that its references resolve.
        let document = json!({
            "$schema": self.root["$schema"],
            "$id": self.root["$id"],
            "$defs": self.root["$defs"],
            "$ref": format!("#{pointer}"),
        });
        let validator = jsonschema::validator_for(&document).map_err(|e| FrameError {
            path: String::new(),
            rule: format!("the coprocess schema's #{pointer} does not compile: {e}"),
        })?;
        let validator = Arc::new(validator);
        validators.insert(pointer.to_owned(), validator.clone());
        Ok(validator)
    }
}

/// Where the definitions of protocol `version` live.
fn group(version: u32) -> &'static str {
    if version >= 3 { "/$defs" } else { "/$defs/v2" }
}

/// A method name as one JSON pointer token (`coprocess~1handshake`).
fn escape(method: &str) -> String {
    method.replace('~', "~0").replace('/', "~1")
}

fn shorten(rule: &str) -> String {
    match rule.char_indices().nth(RULE_CHARS) {
        Some((at, _)) => format!("{}...", &rule[..at]),
        None => rule.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{COMMAND_LINE_LANES, METHODS};

    #[test]
    fn the_schema_is_a_valid_draft_2020_12_schema() {
        let schema = FrameSchema::new();
        jsonschema::draft202012::meta::validate(schema.document())
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            jsonschema::validator_for(schema.document()).is_ok(),
            "the whole document compiles"
        );
    }

    #[test]
    fn every_method_has_a_request_params_and_result_in_each_version_that_serves_it() {
        let schema = FrameSchema::new();
        let defs = &schema.document()["$defs"];
        for (method, since) in METHODS {
            for version in *since..=crate::COPROCESS_PROTOCOL_VERSION {
                let group = if version >= 3 { defs } else { &defs["v2"] };
                for kind in ["request", "params", "result"] {
                    assert!(
                        group[kind][*method].is_object(),
                        "no {kind} of {method} for v{version}"
                    );
                }
            }
        }
        for kind in ["request", "params", "result"] {
            let listed = defs[kind].as_object().unwrap().len();
            assert_eq!(
                listed,
                METHODS.len(),
                "{kind}: a method no table row serves"
            );
        }
        assert_eq!(
            defs["test"]["properties"]["lane"]["enum"],
            json!(mcptest_suite::LANES),
            "the schema's lanes are the runner's"
        );
        assert!(COMMAND_LINE_LANES.iter().all(|(lane, _)| !lane.is_empty()));
    }

    #[test]
    fn requests_are_checked_by_method_and_version() {
        let schema = FrameSchema::new();
        let call = |params: Value| json!({"jsonrpc": "2.0", "id": 1, "method": "mcp.call", "params": params});
        let passthrough = call(json!({"tool": "add", "passthrough": true}));
        assert_eq!(schema.check_request(3, &passthrough), Ok(()));
        let error = schema.check_request(2, &passthrough).unwrap_err();
        assert_eq!(error.path, "/params", "{error}");
        assert!(error.rule.contains("passthrough"), "{error}");
        let error = schema
            .check_request(3, &call(json!({"tool": 5})))
            .unwrap_err();
        assert_eq!(error.path, "/params/tool", "{error}");
        // An unknown method is checked as an envelope only: the engine
        // answers it with -32601.
        let unknown = json!({"jsonrpc": "2.0", "id": "x", "method": "mcp.nope"});
        assert_eq!(schema.check_request(3, &unknown), Ok(()));
        let extra = json!({"jsonrpc": "2.0", "id": 1, "method": "mcp.nope", "trace": 1});
        assert_eq!(schema.check_request(3, &extra).unwrap_err().path, "");
        let handshake = json!({"jsonrpc": "2.0", "id": 1, "method": "coprocess/handshake", "params": {"protocol_version": 3}});
        assert_eq!(schema.check_request(2, &handshake), Ok(()));
    }

    #[test]
    fn responses_are_checked_with_their_result_and_error_data() {
        let schema = FrameSchema::new();
        let verdict = json!({"success": true, "text": "5", "data": null, "error": null,
            "duration_ms": 3, "content": [{"type": "text", "text": "5"}], "messages": [], "logs": []});
        let frame = json!({"jsonrpc": "2.0", "id": 1, "result": verdict});
        assert_eq!(schema.check_response(3, Some("mcp.call"), &frame), Ok(()));
        let error = schema
            .check_response(2, Some("mcp.call"), &frame)
            .unwrap_err();
        assert_eq!(error.path, "/result", "{error}");
        let passthrough = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [], "isError": false, "future": 1}});
        assert_eq!(
            schema.check_response(3, Some("mcp.call"), &passthrough),
            Ok(())
        );
        let both = json!({"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": -32603, "message": "x"}});
        assert!(schema.check_response(3, None, &both).is_err());
        let upstream = |data: Value| json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "x", "data": data}});
        assert_eq!(
            schema.check_response(
                3,
                Some("mcp.call"),
                &upstream(json!({"method": "tools/call", "tool": "t", "upstream": {"code": -32602, "message": "no", "data": null}}))
            ),
            Ok(())
        );
        assert!(
            schema
                .check_response(
                    3,
                    Some("mcp.call"),
                    &upstream(json!({"binary": [2, 3], "sdk": 4}))
                )
                .is_err()
        );
    }

    #[test]
    fn a_pointer_to_nothing_and_a_long_rule_are_reported_plainly() {
        let schema = FrameSchema::new();
        let error = schema.check("/$defs/nothing", &json!(1)).unwrap_err();
        assert!(error.rule.contains("#/$defs/nothing"), "{error}");
        let long = "x".repeat(1000);
        assert_eq!(shorten(&long).chars().count(), RULE_CHARS + 3);
        assert_eq!(
            FrameError {
                path: String::new(),
                rule: "r".into()
            }
            .to_string(),
            "the top level: r"
        );
    }
}
