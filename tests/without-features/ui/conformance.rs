// Conformance without the `conformance` feature.
use mcptest::conformance::Conformance;

fn main() {
    let _ = Conformance::new(mcptest::Server::command("my-server"));
}
