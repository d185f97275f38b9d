// The suite's path: it comes first, once, and must name YAML files.
mod missing {
    mcptest::suite!(server = "my-server");
}

mod twice {
    mcptest::suite!("ui", "ui");
}

mod nowhere {
    mcptest::suite!("tests/no-such-suite");
}

mod no_yaml {
    mcptest::suite!("ui/*.json");
}

fn main() {}
