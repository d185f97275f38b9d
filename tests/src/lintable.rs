//! The tool lists of the lint fixture, served by `fixture-chaos
//! --lint-findings` and `--lint-clean`: `tests/lint/trips-each-rule.json`
//! trips each rule of `mcptest lint` once (its `trips` list names the rules
//! beside each tool), `tests/lint/trips-none.json` trips none. The files
//! are the one source: the command's tests serve the same files through
//! `mcptest mock`.
//!
//! Two tools of the tripping list answer calls in a way a rule looks for:
//! [`RADAR_TOOL`] returns [`RADAR_BYTES`] of text (E301 with
//! `--call-tools`), [`LUCKY_TOOL`] a different text on every call (W107
//! with `--detect-nondeterminism`); every other call gets a short fixed
//! answer.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

/// The tripping list, as the file holds it.
pub const TRIPS_EACH_RULE: &str = include_str!("../lint/trips-each-rule.json");

/// The clean list, as the file holds it.
pub const TRIPS_NONE: &str = include_str!("../lint/trips-none.json");

/// The tool whose answer is too large (E301).
pub const RADAR_TOOL: &str = "get_radar_image";

/// How large: 150 KB, over the default limit of 100 KB.
pub const RADAR_BYTES: usize = 150 * 1024;

/// The tool whose answer changes from call to call (W107).
pub const LUCKY_TOOL: &str = "get_lucky_forecast";

fn parse(text: &str, file: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("tests/lint/{file} is not JSON: {e}"))
}

/// The tools that trip each rule once.
pub fn tripping_tools() -> Value {
    parse(TRIPS_EACH_RULE, "trips-each-rule.json")["tools"].clone()
}

/// The rule ids each tool of [`tripping_tools`] trips, by index (W112 and
/// W106 are the list's own: more than 20 tools, and its tokens).
pub fn trips() -> Vec<Vec<String>> {
    parse(TRIPS_EACH_RULE, "trips-each-rule.json")["trips"]
        .as_array()
        .expect("a trips list")
        .iter()
        .map(|t| {
            t.as_str()
                .unwrap_or_default()
                .split_whitespace()
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

/// The tools that trip no rule.
pub fn clean_tools() -> Value {
    parse(TRIPS_NONE, "trips-none.json")["tools"].clone()
}

/// The answer to a call of `name` (a `tools/call` result).
pub fn call(name: &str) -> Value {
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let text = match name {
        RADAR_TOOL => "#".repeat(RADAR_BYTES),
        LUCKY_TOOL => {
            let n = CALLS.fetch_add(1, Ordering::Relaxed);
            format!("lucky forecast number {n}: sunshine")
        }
        _ => format!("{name}: fine and dry"),
    };
    json!({"content": [{"type": "text", "text": text}], "isError": false})
}
