//! mcp-assert's expectations, checked in its order; the first that fails
//! is reported.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use serde_json::Value;

use super::{assertion::Expect, failure::Failure};

/// What the expectations look at besides the text.
pub(crate) struct Context<'a> {
    pub(crate) is_error: bool,
    /// Where relative file paths point (the fixture copy), if anywhere.
    pub(crate) fixture: Option<&'a Path>,
    /// File contents before the call, for `file_unchanged` (path as written
    /// after substitution → contents, `None` when it did not exist).
    pub(crate) snapshots: &'a BTreeMap<String, Option<Vec<u8>>>,
    /// Progress notifications received for the call, when collected.
    pub(crate) progress: Option<usize>,
}

/// `{{fixture}}` substituted; a relative path stays relative, so it resolves
/// against the working directory of the run (as mcp-assert resolves it), not
/// silently inside the fixture copy.
pub(crate) fn file_path(path: &str, fixture: Option<&Path>) -> PathBuf {
    PathBuf::from(super::substitute::fixture(path, fixture))
}

pub(crate) fn check(expect: &Expect, text: &str, cx: &Context<'_>) -> Result<(), Failure> {
    if expect.not_error && cx.is_error {
        return Err(Failure::new("a result without isError (not_error: true)")
            .but("the tool returned isError: true"));
    }
    if expect.is_error && !cx.is_error {
        return Err(Failure::new("a result with isError: true (is_error: true)")
            .but("the tool reported success"));
    }
    if expect.not_empty {
        let trimmed = text.trim();
        if matches!(trimmed, "" | "null" | "[]" | "{}") {
            return Err(Failure::new("a non-empty result (not_empty: true)")
                .but(format!("the text was {trimmed:?}")));
        }
    }
    if let Some(want) = &expect.equals
        && text.trim() != want.trim()
    {
        return Err(Failure::new(format!(
            "text equal to {:?} (equals, whitespace trimmed)",
            want.trim()
        ))
        .diff(want.trim(), text.trim()));
    }
    for needle in &expect.contains {
        if !text.contains(needle.as_str()) {
            return Err(
                Failure::new(format!("text containing {needle:?} (contains)"))
                    .but("it is not there"),
            );
        }
    }
    if !expect.contains_any.is_empty()
        && !expect
            .contains_any
            .iter()
            .any(|n| text.contains(n.as_str()))
    {
        return Err(Failure::new(format!(
            "text containing at least one of {:?} (contains_any)",
            expect.contains_any
        ))
        .but("none of them is there"));
    }
    if !expect.not_contains.is_empty() && text.is_empty() {
        return Err(Failure::new(format!(
            "text not containing {:?} (not_contains)",
            expect.not_contains
        ))
        .but("the result has no text, so there is nothing to check"));
    }
    for needle in &expect.not_contains {
        if let Some(at) = text.find(needle.as_str()) {
            return Err(
                Failure::new(format!("text not containing {needle:?} (not_contains)"))
                    .but(format!("it is there, at byte {at}")),
            );
        }
    }
    for (source, regex) in &expect.matches_regex {
        if !regex.is_match(text) {
            return Err(Failure::new(format!(
                "text matching the regex {source:?} (matches_regex)"
            ))
            .but("it does not match"));
        }
    }
    if !expect.json_path.is_empty() {
        let Some(document) = json_document(text) else {
            return Err(Failure::new("JSON text for json_path")
                .but("neither the text nor any of its lines is JSON"));
        };
        for (path, want) in &expect.json_path {
            let found = lookup(&document, path).map_err(|why| {
                Failure::new(format!("{path} = {} (json_path)", as_compared(want))).but(why)
            })?;
            if as_compared(found) != as_compared(want) {
                return Err(Failure::new(format!(
                    "{path} = {} (json_path, compared as text)",
                    as_compared(want)
                ))
                .but(format!("it is {}", as_compared(found))));
            }
        }
    }
    if expect.min_results.is_some() || expect.max_results.is_some() {
        let Some(count) = result_count(text) else {
            return Err(Failure::new(bounds(expect)).but("the text is neither a JSON array nor an object with an array under locations, items, results, references or symbols"));
        };
        if expect.min_results.is_some_and(|min| count < min)
            || expect.max_results.is_some_and(|max| count > max)
        {
            return Err(Failure::new(bounds(expect)).but(format!("there are {count}")));
        }
    }
    if let Some(want) = expect.net_delta {
        let found = serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|v| v.get("net_delta").and_then(Value::as_f64));
        match found {
            None => {
                return Err(Failure::new(format!("net_delta = {want}"))
                    .but("the text is not a JSON object with a numeric net_delta"));
            }
            Some(found) if found as i64 != want => {
                return Err(
                    Failure::new(format!("net_delta = {want}")).but(format!("it is {found}"))
                );
            }
            Some(_) => {}
        }
    }
    for (path, needle) in &expect.file_contains {
        let resolved = file_path(path, cx.fixture);
        match std::fs::read(&resolved) {
            Err(e) => {
                return Err(Failure::new(format!(
                    "{} to contain {needle:?} (file_contains)",
                    resolved.display()
                ))
                .but(format!("it cannot be read: {e}")));
            }
            Ok(bytes) if !String::from_utf8_lossy(&bytes).contains(needle.as_str()) => {
                return Err(Failure::new(format!(
                    "{} to contain {needle:?} (file_contains)",
                    resolved.display()
                ))
                .but("it does not")
                .got_text(String::from_utf8_lossy(&bytes).into_owned()));
            }
            Ok(_) => {}
        }
    }
    for (path, needle) in &expect.file_not_contains {
        let resolved = file_path(path, cx.fixture);
        match std::fs::read(&resolved) {
            Err(e) => {
                return Err(Failure::new(format!(
                    "{} not to contain {needle:?} (file_not_contains)",
                    resolved.display()
                ))
                .but(format!("it cannot be read: {e}")));
            }
            Ok(bytes) if String::from_utf8_lossy(&bytes).contains(needle.as_str()) => {
                return Err(Failure::new(format!(
                    "{} not to contain {needle:?} (file_not_contains)",
                    resolved.display()
                ))
                .but("it does")
                .got_text(String::from_utf8_lossy(&bytes).into_owned()));
            }
            Ok(_) => {}
        }
    }
    for path in &expect.file_not_exists {
        let resolved = file_path(path, cx.fixture);
        match std::fs::symlink_metadata(&resolved) {
            Ok(_) => {
                return Err(Failure::new(format!(
                    "{} not to exist (file_not_exists)",
                    resolved.display()
                ))
                .but("it exists"));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(Failure::new(format!(
                    "{} not to exist (file_not_exists)",
                    resolved.display()
                ))
                .but(format!("it cannot be checked: {e}")));
            }
        }
    }
    if !expect.in_order.is_empty() {
        let mut from = 0;
        for needle in &expect.in_order {
            match text[from..].find(needle.as_str()) {
                Some(at) => from += at + needle.len(),
                None => {
                    return Err(Failure::new(format!(
                        "text containing {:?} in this order (in_order)",
                        expect.in_order
                    ))
                    .but(format!("{needle:?} does not appear after byte {from}")));
                }
            }
        }
    }
    for path in &expect.file_unchanged {
        let resolved = file_path(path, cx.fixture);
        let Some(before) = cx.snapshots.get(path).cloned().flatten() else {
            return Err(Failure::new(format!(
                "{} to be unchanged by the call (file_unchanged)",
                resolved.display()
            ))
            .but("it did not exist before the call, so there is nothing to compare"));
        };
        let before = Some(before);
        let after = std::fs::read(&resolved).ok();
        if before != after {
            let describe = |c: &Option<Vec<u8>>| match c {
                None => "(missing)".to_owned(),
                Some(bytes) => String::from_utf8_lossy(bytes).into_owned(),
            };
            return Err(Failure::new(format!(
                "{} to be unchanged by the call (file_unchanged)",
                resolved.display()
            ))
            .but("it changed")
            .diff(describe(&before), describe(&after)));
        }
    }
    if let Some(min) = expect.min_progress
        && cx.progress.is_none_or(|count| count < min)
    {
        let count = cx.progress.unwrap_or_default();
        return Err(Failure::new(format!(
            "at least {min} progress notifications (min_progress)"
        ))
        .but(format!("{count} arrived")));
    }
    Ok(())
}

fn bounds(expect: &Expect) -> String {
    match (expect.min_results, expect.max_results) {
        (Some(min), Some(max)) => {
            format!("between {min} and {max} results (min_results, max_results)")
        }
        (Some(min), None) => format!("at least {min} results (min_results)"),
        (None, Some(max)) => format!("at most {max} results (max_results)"),
        (None, None) => String::new(),
    }
}

/// The text as JSON, or else its first line that is JSON.
fn json_document(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok().or_else(|| {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .find_map(|l| serde_json::from_str(l).ok())
    })
}

/// How mcp-assert compares: values as text (strings bare, numbers without
/// a needless `.0`, everything else as JSON).
pub(crate) fn as_compared(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// `$.a.b[0]` lookups: dots for fields, `[n]` for array items.
pub(crate) fn lookup<'v>(root: &'v Value, path: &str) -> Result<&'v Value, String> {
    let rest = path.strip_prefix('$').unwrap_or(path);
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    let mut current = root;
    if rest.is_empty() {
        return Ok(current);
    }
    for part in rest.split('.') {
        let (field, indexes) = match part.find('[') {
            Some(at) => (&part[..at], &part[at..]),
            None => (part, ""),
        };
        if !field.is_empty() {
            current = match current {
                Value::Object(map) => map
                    .get(field)
                    .ok_or_else(|| format!("there is no field {field:?}"))?,
                other => {
                    return Err(format!(
                        "{field:?} is looked up in {}, which is not an object",
                        kind(other)
                    ));
                }
            };
        }
        let mut indexes = indexes;
        while let Some(inner) = indexes.strip_prefix('[') {
            let Some(end) = inner.find(']') else {
                return Err(format!("{part:?} has an unclosed `[`"));
            };
            let index: usize = inner[..end]
                .trim()
                .parse()
                .map_err(|_| format!("{:?} is not an array index", &inner[..end]))?;
            current = match current {
                Value::Array(items) => items.get(index).ok_or_else(|| {
                    format!("index {index} is out of range (length {})", items.len())
                })?,
                other => {
                    return Err(format!(
                        "[{index}] is looked up in {}, which is not an array",
                        kind(other)
                    ));
                }
            };
            indexes = &inner[end + 1..];
        }
    }
    Ok(current)
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A top-level array's length, or that of the first array under one of the
/// well-known keys.
fn result_count(text: &str) -> Option<usize> {
    match serde_json::from_str::<Value>(text).ok()? {
        Value::Array(items) => Some(items.len()),
        Value::Object(map) => ["locations", "items", "results", "references", "symbols"]
            .iter()
            .find_map(|k| map.get(*k).and_then(Value::as_array).map(Vec::len)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Rule: nothing passes vacuously. Each expectation, given a result
    /// whose subject is missing (no text, no files, no progress), fails
    /// with a reason. `file_not_exists` is the one exception: a missing file
    /// is what it asks for. `not_error` looks at the result itself, which
    /// exists whenever a check runs (a call without an answer fails before).
    #[test]
    fn every_expect_field_fails_when_its_subject_is_missing() {
        let set: Vec<(&str, Expect)> = vec![
            (
                "contains",
                Expect {
                    contains: vec!["a".into()],
                    ..Expect::default()
                },
            ),
            (
                "contains_any",
                Expect {
                    contains_any: vec!["a".into()],
                    ..Expect::default()
                },
            ),
            (
                "not_contains",
                Expect {
                    not_contains: vec!["a".into()],
                    ..Expect::default()
                },
            ),
            (
                "equals",
                Expect {
                    equals: Some("a".into()),
                    ..Expect::default()
                },
            ),
            (
                "json_path",
                Expect {
                    json_path: vec![("$.a".into(), json!(1))],
                    ..Expect::default()
                },
            ),
            (
                "min_results",
                Expect {
                    min_results: Some(0),
                    ..Expect::default()
                },
            ),
            (
                "max_results",
                Expect {
                    max_results: Some(5),
                    ..Expect::default()
                },
            ),
            (
                "not_empty",
                Expect {
                    not_empty: true,
                    ..Expect::default()
                },
            ),
            (
                "is_error",
                Expect {
                    is_error: true,
                    ..Expect::default()
                },
            ),
            (
                "matches_regex",
                Expect {
                    matches_regex: vec![("a".into(), regex::Regex::new("a").unwrap())],
                    ..Expect::default()
                },
            ),
            (
                "file_contains",
                Expect {
                    file_contains: vec![("/no/such/file".into(), "a".into())],
                    ..Expect::default()
                },
            ),
            (
                "file_not_contains",
                Expect {
                    file_not_contains: vec![("/no/such/file".into(), "a".into())],
                    ..Expect::default()
                },
            ),
            (
                "file_unchanged",
                Expect {
                    file_unchanged: vec!["/no/such/file".into()],
                    ..Expect::default()
                },
            ),
            (
                "net_delta",
                Expect {
                    net_delta: Some(0),
                    ..Expect::default()
                },
            ),
            (
                "in_order",
                Expect {
                    in_order: vec!["a".into()],
                    ..Expect::default()
                },
            ),
            (
                "min_progress",
                Expect {
                    min_progress: Some(1),
                    ..Expect::default()
                },
            ),
        ];
        let snapshots = BTreeMap::from([("/no/such/file".to_owned(), None)]);
        for progress in [None, Some(0)] {
            let cx = Context {
                is_error: false,
                fixture: None,
                snapshots: &snapshots,
                progress,
            };
            for (field, expect) in &set {
                assert!(!expect.is_empty(), "{field}");
                let failure = check(expect, "", &cx)
                    .err()
                    .unwrap_or_else(|| panic!("`{field}` passed on a missing subject"));
                assert!(
                    failure.but.is_some() || failure.diff.is_some(),
                    "`{field}` fails without saying why"
                );
            }
        }
        assert!(Expect::default().is_empty());
    }

    #[test]
    fn file_unchanged_needs_the_file_before_the_call() {
        let snapshots = BTreeMap::from([("/tmp/x".to_owned(), None)]);
        let cx = Context {
            is_error: false,
            fixture: None,
            snapshots: &snapshots,
            progress: None,
        };
        let expect = Expect {
            file_unchanged: vec!["/tmp/x".into()],
            ..Expect::default()
        };
        let failure = check(&expect, "", &cx).unwrap_err();
        assert_eq!(
            failure.but.as_deref(),
            Some("it did not exist before the call, so there is nothing to compare")
        );
    }

    #[test]
    fn relative_file_paths_stay_relative_to_the_working_directory() {
        let copy = Path::new("/tmp/copy/fixtures");
        assert_eq!(
            file_path("hello.txt", Some(copy)),
            PathBuf::from("hello.txt")
        );
        assert_eq!(
            file_path("{{fixture}}/hello.txt", Some(copy)),
            PathBuf::from("/tmp/copy/fixtures/hello.txt")
        );
    }

    #[test]
    fn lookups_follow_fields_and_indexes() {
        let doc = json!({"a": {"b": [10, {"c": "x"}]}});
        assert_eq!(lookup(&doc, "$.a.b[0]").unwrap(), &json!(10));
        assert_eq!(lookup(&doc, "$.a.b[1].c").unwrap(), &json!("x"));
        assert_eq!(
            lookup(&doc, "$.a.z").unwrap_err(),
            "there is no field \"z\""
        );
        assert_eq!(
            lookup(&doc, "$.a.b[5]").unwrap_err(),
            "index 5 is out of range (length 2)"
        );
    }

    #[test]
    fn json_falls_back_to_the_first_json_line() {
        assert_eq!(
            json_document("Result:\n{\"n\": 1}\nbye"),
            Some(json!({"n": 1}))
        );
        assert_eq!(json_document("no json here"), None);
    }

    #[test]
    fn values_compare_as_text() {
        assert_eq!(as_compared(&json!(5.0)), "5");
        assert_eq!(as_compared(&json!(2.5)), "2.5");
        assert_eq!(as_compared(&json!("5")), "5");
        assert_eq!(as_compared(&json!(true)), "true");
    }

    #[test]
    fn counts_arrays_and_known_fields() {
        assert_eq!(result_count("[1,2,3]"), Some(3));
        assert_eq!(result_count("{\"other\": [1], \"items\": [1, 2]}"), Some(2));
        assert_eq!(result_count("{\"other\": [1]}"), None);
    }
}
