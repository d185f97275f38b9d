// Typed values: a duration, an identifier for the module, a fixture
// directory that exists, a path for `crate`.
mcptest::suite!(
    "ui",
    timeout = "soon",
    name = "evals",
    fixture = "no-such-dir",
    crate = 1,
    ignore = true,
);

fn main() {}
