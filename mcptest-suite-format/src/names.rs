//! The names mcptest spells the same everywhere: MCP's log levels, and the
//! did-you-mean that every list of keys answers a misspelling with.

/// The log levels of MCP (syslog's severities), least severe first: the
/// one list of their names, for the loader, the core's `LogLevel` and the
/// conformance checks (which reach it as `mcptest_core::__support::LOG_LEVELS`).
///
/// ```
/// use mcptest_suite_format::LOG_LEVELS;
/// assert_eq!(LOG_LEVELS.first(), Some(&"debug"));
/// assert!(LOG_LEVELS.contains(&"warning"));
/// ```
pub const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// The allowed name closest to `name`, if any is close enough to be a typo
/// (a third of the longer name's length, at least 2 edits away at most).
///
/// ```
/// use mcptest_suite_format::nearest;
/// let keys = ["contains", "contains_any", "not_contains", "equals"];
/// assert_eq!(nearest("contians", &keys), Some("contains"));
/// assert_eq!(nearest("equal", &keys), Some("equals"));
/// assert_eq!(nearest("zzzzzz", &keys), None);
/// ```
pub fn nearest<'b>(name: &str, allowed: &[&'b str]) -> Option<&'b str> {
    allowed
        .iter()
        .map(|candidate| (strsim::damerau_levenshtein(name, candidate), *candidate))
        .filter(|(distance, candidate)| *distance <= (candidate.len().max(name.len()) / 3).max(2))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}
