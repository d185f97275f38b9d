// Every mistake is reported in one go, and the function is still emitted, so
// code that refers to it (and an IDE) keeps working.
use mcptest::prelude::*;

#[mcp_test(bin = "my-server", url = "http://x", timeout = "soon", protocol = "v1", retries = 3)]
#[tokio::test]
fn everything_wrong(mcp: String) {
    let _ = mcp;
}

fn main() {
    // Still defined despite the errors above.
    let _ = everything_wrong;
}
