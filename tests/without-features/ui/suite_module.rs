// The suite module without the `suite` feature.
fn main() {
    let _ = mcptest::suite::Suite::load("tests/evals");
}
