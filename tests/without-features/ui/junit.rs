// JUnit XML without the `junit` feature.
fn junit(report: &mcptest::report::Report) -> String {
    report.to_junit()
}

fn main() {
    let _ = junit;
}
