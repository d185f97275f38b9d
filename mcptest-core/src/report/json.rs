//! The report as JSON: everything a program reading it needs, failures both
//! rendered (as a person reads them) and taken apart (call, expectations).

use serde_json::{Map, Value, json};

use super::{Outcome, Report, TestResult, millis};
use crate::expect::Failure;

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
    }
    Value::Object(out)
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
}
