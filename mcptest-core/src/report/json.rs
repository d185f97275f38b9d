//! The report as JSON: everything a program reading it needs, failures both
//! rendered (as a person reads them) and taken apart (call, expectations).

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::{Location, Outcome, Report, TestResult, millis};
use crate::{
    error::ServerOutput,
    expect::{Evidence, Failure, Miss, Shown},
};

impl Report {
    /// The report as JSON:
    ///
    /// ```json
    /// {"title": "...", "duration_ms": 50, "passed": false,
    ///  "counts": {"passed": 1, "failed": 1, "warned": 0, "skipped": 0},
    ///  "results": [{"name": "...", "group": "...", "file": "...", "line": 7,
    ///               "column": 5, "status": "fail", "duration_ms": 30,
    ///               "summary": "...", "message": "...", "failure": {...},
    ///               "properties": {"level": "MUST"}}]}
    /// ```
    pub fn to_json(&self) -> Value {
        json!({
            "title": self.title,
            "duration_ms": millis(self.duration),
            "passed": self.passed(),
            "counts": self.counts(),
            "results": self.results.iter().map(result_json).collect::<Vec<_>>(),
        })
    }
}

fn result_json(result: &TestResult) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), json!(result.name));
    if let Some(group) = &result.group {
        out.insert("group".into(), json!(group));
    }
    if let Some(location) = &result.location {
        out.insert("file".into(), json!(location.file));
        if location.line > 0 {
            out.insert("line".into(), json!(location.line));
        }
        if location.column > 0 {
            out.insert("column".into(), json!(location.column));
        }
    }
    out.insert("status".into(), json!(result.status()));
    out.insert("duration_ms".into(), json!(millis(result.duration)));
    if let Some(summary) = result.outcome.summary() {
        out.insert("summary".into(), json!(summary));
    }
    match &result.outcome {
        Outcome::Fail(failure) | Outcome::Warn(failure) => {
            out.insert("message".into(), json!(failure.render(false)));
            out.insert("failure".into(), failure_json(failure));
        }
        Outcome::Skip(reason) => {
            out.insert("reason".into(), json!(reason));
        }
        Outcome::Pass => {}
    }
    if !result.properties.is_empty() {
        let properties: Map<String, Value> = result
            .properties
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        out.insert("properties".into(), Value::Object(properties));
        // An object's keys may come back sorted; this keeps their order.
        let order: Vec<&str> = result.properties.iter().map(|(k, _)| k.as_str()).collect();
        out.insert("property_order".into(), json!(order));
    }
    Value::Object(out)
}

impl Report {
    /// The report [`to_json`](Report::to_json) wrote (read back from a
    /// file, to merge the reports of a sharded run into one). Every
    /// rendering of the report read back is that of the report written,
    /// durations to the millisecond. The error names what is missing or
    /// wrong, with the result's index.
    ///
    /// ```
    /// use mcptest::report::{Outcome, Report, TestResult};
    ///
    /// let mut report = Report::new("suite tests/evals");
    /// report.push(TestResult::new("echo", Outcome::error("hi", "bye")).group("echo.yaml"));
    /// let back = Report::from_json(&report.to_json()).unwrap();
    /// assert_eq!(back, report);
    /// assert!(Report::from_json(&serde_json::json!({"title": 1})).unwrap_err().contains("title"));
    /// ```
    pub fn from_json(value: &Value) -> Result<Report, String> {
        let title = value
            .get("title")
            .and_then(Value::as_str)
            .ok_or("no \"title\" string: not a report written by mcptest --json")?;
        let results = value
            .get("results")
            .and_then(Value::as_array)
            .ok_or("no \"results\" list: not a report written by mcptest --json")?;
        let mut report = Report::new(title).with_duration(Duration::from_millis(
            value
                .get("duration_ms")
                .and_then(Value::as_u64)
                .unwrap_or(0),
        ));
        for (index, result) in results.iter().enumerate() {
            report.push(result_from_json(result).map_err(|e| format!("results[{index}]: {e}"))?);
        }
        Ok(report)
    }
}

fn text<'a>(value: &'a Value, key: &str) -> Result<Option<&'a str>, String> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("\"{key}\" is {other}, not a string")),
    }
}

fn result_from_json(value: &Value) -> Result<TestResult, String> {
    let name = text(value, "name")?.ok_or("no \"name\"")?;
    let number = |key: &str| value.get(key).and_then(Value::as_u64).unwrap_or(0);
    let outcome = match text(value, "status")? {
        Some("pass") => Outcome::Pass,
        Some("skip") => Outcome::skip(text(value, "reason")?.unwrap_or_default()),
        Some(status @ ("fail" | "warn")) => {
            let failure = failure_from_json(value.get("failure").ok_or("no \"failure\"")?)
                .map_err(|e| format!("failure: {e}"))?;
            if status == "fail" {
                Outcome::fail(failure)
            } else {
                Outcome::warn(failure)
            }
        }
        other => {
            return Err(format!(
                "status {other:?} is none of pass, fail, warn, skip"
            ));
        }
    };
    let mut result =
        TestResult::new(name, outcome).duration(Duration::from_millis(number("duration_ms")));
    if let Some(group) = text(value, "group")? {
        result = result.group(group);
    }
    if let Some(file) = text(value, "file")? {
        let line = u32::try_from(number("line")).unwrap_or(0);
        let column = u32::try_from(number("column")).unwrap_or(0);
        result = result.location(Location::new(file, line, column));
    }
    if let Some(properties) = value.get("properties").and_then(Value::as_object) {
        let mut names: Vec<String> = value
            .get("property_order")
            .and_then(Value::as_array)
            .map(|order| {
                order
                    .iter()
                    .filter_map(|n| n.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        for key in properties.keys() {
            if !names.contains(key) {
                names.push(key.clone());
            }
        }
        for key in names {
            if let Some(v) = properties.get(&key).and_then(Value::as_str) {
                result = result.property(key, v);
            }
        }
    }
    Ok(result)
}

fn failure_from_json(value: &Value) -> Result<Failure, String> {
    let mut misses = Vec::new();
    for miss in value
        .get("misses")
        .and_then(Value::as_array)
        .ok_or("no \"misses\" list")?
    {
        let mut evidence = Evidence::new();
        if let Some(actual) = miss.get("actual") {
            evidence = evidence.actual(
                Shown::from_json(actual)
                    .ok_or_else(|| format!("\"actual\" {actual} is not a shown value"))?,
            );
        }
        if let Some(note) = text(miss, "note")? {
            evidence = evidence.note(note);
        }
        if let Some([expected, actual]) = miss
            .get("diff")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
        {
            evidence = evidence.diff(
                expected.as_str().unwrap_or_default(),
                actual.as_str().unwrap_or_default(),
            );
        }
        misses.push(Miss::new(
            text(miss, "expected")?.unwrap_or_default(),
            evidence,
        ));
    }
    let strings = |key: &str| -> Vec<String> {
        value
            .get(key)
            .and_then(Value::as_array)
            .map(|v| {
                v.iter()
                    .filter_map(|s| s.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let output = ServerOutput {
        stderr: text(value, "stderr")?.unwrap_or_default().to_owned(),
        stdout_noise: strings("stdout_noise"),
        stdout_noise_total: value
            .get("stdout_noise_total")
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0),
        partial_line: text(value, "partial_line")?.map(str::to_owned),
        stray_responses: strings("stray_responses"),
        stray_responses_total: 0,
        unanswered_requests: 0,
    };
    let output = ServerOutput {
        stray_responses_total: value
            .get("stray_responses_total")
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(output.stray_responses.len()),
        unanswered_requests: value
            .get("unanswered_requests")
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0),
        ..output
    };
    let mut failure = Failure::new(text(value, "call")?.map(str::to_owned), misses, output);
    if let Some(dir) = text(value, "fixture_kept")? {
        failure = failure.fixture_kept(dir);
    }
    Ok(failure)
}

fn failure_json(failure: &Failure) -> Value {
    let misses: Vec<Value> = failure
        .misses()
        .iter()
        .map(|miss| {
            let evidence = miss.evidence();
            let mut m = Map::new();
            m.insert("expected".into(), json!(miss.expected()));
            if let Some(shown) = evidence.shown() {
                m.insert("actual".into(), shown.to_json());
            }
            if let Some(note) = evidence.explanation() {
                m.insert("note".into(), json!(note));
            }
            if let Some((expected, actual)) = evidence.diff_sides() {
                m.insert("diff".into(), json!([expected, actual]));
            }
            Value::Object(m)
        })
        .collect();
    let output = failure.server_output();
    let mut out = json!({
        "call": failure.call(),
        "misses": misses,
        "stderr": output.stderr,
    });
    // Only where a copy was kept: most failures have no fixture at all.
    if let Some(kept) = failure.kept_fixture() {
        out["fixture_kept"] = json!(kept);
    }
    if !output.stdout_noise.is_empty() {
        out["stdout_noise"] = json!(output.stdout_noise);
        out["stdout_noise_total"] = json!(output.stdout_noise_total);
    }
    if let Some(line) = &output.partial_line {
        out["partial_line"] = json!(line);
    }
    if !output.stray_responses.is_empty() {
        out["stray_responses"] = json!(output.stray_responses);
        out["stray_responses_total"] = json!(output.stray_responses_total);
    }
    if output.unanswered_requests > 0 {
        out["unanswered_requests"] = json!(output.unanswered_requests);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use serde_json::json;

    #[test]
    fn every_result_with_its_status_place_and_evidence() {
        let json = sample().to_json();
        assert_eq!(json["title"], "suite tests/evals");
        assert_eq!(json["passed"], false);
        assert_eq!(
            json["counts"],
            json!({"passed": 1, "failed": 1, "warned": 1, "skipped": 1})
        );
        let failed = &json["results"][1];
        assert_eq!(failed["status"], "fail");
        assert_eq!(failed["file"], "tests/evals/bye.yaml");
        assert_eq!(failed["line"], 7);
        assert_eq!(failed["column"], 5);
        assert_eq!(failed["duration_ms"], 30);
        assert_eq!(failed["properties"], json!({"level": "MUST"}));
        assert_eq!(
            failed["failure"]["misses"][0]["expected"],
            "text equals \"bye\""
        );
        assert_eq!(
            failed["failure"]["misses"][0]["actual"],
            json!({"label": "text", "text": "hi"})
        );
        assert_eq!(
            failed["failure"]["call"],
            "tools/call echo {\"message\":\"hi\"}"
        );
        assert!(
            failed["message"]
                .as_str()
                .unwrap()
                .contains("expected: text equals \"bye\"")
        );
        assert_eq!(json["results"][3]["reason"], "SLOW_TESTS is not set");
        assert_eq!(json["results"][0].get("summary"), None);
    }

    #[test]
    fn a_report_read_back_is_the_report_written() {
        use super::super::{Outcome, Report, TestResult};
        use crate::{
            error::ServerOutput,
            expect::{Evidence, Failure, Miss, Shown},
        };
        let mut report = sample();
        let output = ServerOutput {
            stderr: "boom\n".into(),
            stdout_noise: vec!["hello".into()],
            stdout_noise_total: 3,
            partial_line: Some("{\"jsonrpc\"".into()),
            stray_responses: vec!["{}".into()],
            stray_responses_total: 7,
            unanswered_requests: 17,
        };
        let miss = Miss::new(
            "text equals \"a\nb\"",
            Evidence::new()
                .actual(Shown::json("structuredContent", json!({"a": [1]})))
                .diff("a\nb", "a\nc"),
        );
        let plain = Miss::new("fast", Evidence::new().actual(Shown::plain("took", "12ms")));
        report.push(
            TestResult::new(
                "everything",
                Outcome::fail(Failure::new(None, vec![miss, plain], output).fixture_kept("/k/x")),
            )
            .property("z", "1")
            .property("a", "2"),
        );
        let back = Report::from_json(&report.to_json()).unwrap();
        assert_eq!(back, report);
        assert_eq!(back.to_markdown(), report.to_markdown());
        assert_eq!(
            Report::from_json(&json!({"title": "t", "results": [{"name": "x", "status": "gone"}]}))
                .unwrap_err(),
            "results[0]: status Some(\"gone\") is none of pass, fail, warn, skip"
        );
    }
}
