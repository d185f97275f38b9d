//! `fixture-stateless` with rules broken on purpose, one flag per rule
//! (`fixture-broken --help` lists them), so that each conformance check can
//! be seen to fail.

fn main() -> std::process::ExitCode {
    mcptest_tests::stateless::main_with("fixture-broken", true)
}
