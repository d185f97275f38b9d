// The HTTP types without the `http` feature.
use mcptest::RawHttp;

fn main() {
    let _: Option<RawHttp> = None;
}
