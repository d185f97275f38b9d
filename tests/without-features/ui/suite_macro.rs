// `suite!` without the `suite` feature.
mcptest::suite!("tests/evals");

fn main() {}
