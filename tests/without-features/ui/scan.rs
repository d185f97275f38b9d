// Scans without the `scan` feature.
use mcptest::scan::audit::Audit;

fn main() {
    let _ = Audit::new(mcptest::Server::command("my-server"));
}
