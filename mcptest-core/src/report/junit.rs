//! The report as JUnit XML (through quick-junit), the format every CI
//! system reads.

use quick_junit::{NonSuccessKind, Property, TestCase, TestCaseStatus, TestSuite};

use super::{Outcome, Report, TestResult, safe_text};

/// Server text made safe for XML (see [`safe_text`]).
fn x(text: &str) -> String {
    safe_text(text).into_owned()
}

impl Report {
    /// The report as JUnit XML: one `<testsuite>` named after the title,
    /// one `<testcase>` per result (`classname` is the result's group, or its
    /// file). A failure's message is its one-line summary and its text the
    /// whole failure; a skip carries its reason; a warning passes, with the
    /// warning in `<system-out>` and a `status = warn` property. The
    /// location and labels become properties.
    ///
    /// Needs the `junit` feature.
    pub fn to_junit(&self) -> String {
        let mut suite = TestSuite::new(x(&self.title));
        suite.set_time(self.duration);
        for result in &self.results {
            suite.add_test_case(test_case(result));
        }
        let mut report = quick_junit::Report::new("mcptest");
        report.set_time(self.duration);
        report.add_test_suite(suite);
        report
            .to_string()
            .unwrap_or_else(|e| format!("<!-- the JUnit report could not be written: {e} -->"))
    }
}

fn test_case(result: &TestResult) -> TestCase {
    let status = match &result.outcome {
        Outcome::Pass | Outcome::Warn(_) => TestCaseStatus::success(),
        Outcome::Fail(failure) => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status.set_message(x(&result.outcome.summary().unwrap_or_default()));
            status.set_description(x(&failure.render(false)));
            status
        }
        Outcome::Skip(reason) => {
            let mut status = TestCaseStatus::skipped();
            status.set_message(x(reason));
            status
        }
    };
    let mut case = TestCase::new(x(&result.name), status);
    let classname = result
        .group
        .clone()
        .or_else(|| result.location.as_ref().map(|l| l.file.clone()));
    if let Some(classname) = classname {
        case.set_classname(x(&classname));
    }
    case.set_time(result.duration);
    if let Outcome::Warn(failure) = &result.outcome {
        case.set_system_out(x(&format!("warning: {}", failure.render(false))));
        case.add_property(Property::new("status", "warn"));
    }
    if let Some(location) = &result.location {
        case.add_property(Property::new("file", location.file.as_str()));
        if location.line > 0 {
            case.add_property(Property::new("line", location.line.to_string()));
        }
    }
    for (name, value) in &result.properties {
        case.add_property(Property::new(x(name), x(value)));
    }
    case
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;

    #[test]
    fn one_testcase_per_result() {
        let xml = sample().to_junit();
        assert!(xml.contains(r#"<testsuite name="suite tests/evals" tests="4" disabled="1" errors="0" failures="1""#), "{xml}");
        assert!(
            xml.contains(r#"<testcase name="echo says bye" classname="bye.yaml" time="0.030">"#),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<failure message="expected text equals &quot;bye&quot;: it differs">"#),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<skipped message="SLOW_TESTS is not set"/>"#),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<property name="status" value="warn"/>"#),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<property name="line" value="7"/>"#),
            "{xml}"
        );
    }
}
