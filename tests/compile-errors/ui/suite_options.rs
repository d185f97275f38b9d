// `suite!`'s options: an unknown one lists the valid ones, a repeated one is
// reported on its second use, and every mistake is reported in one go.
mcptest::suite!("ui", servre = "my-server", timeout = "1s", timeout = "2s", ignore);

fn main() {}
