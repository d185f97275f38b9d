// One default server: `server`, `bin` and `handler` exclude each other, and
// literal values are checked here.
mod both {
    mcptest::suite!("ui", server = "my-server", bin = "my-server", handler = 1);
}

mod bad_values {
    mcptest::suite!("ui", server = "", bin = "no/slash");
}

fn main() {}
