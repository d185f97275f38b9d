// A suite file the loader refuses is refused at compile time, on the
// `suite!` line, in the loader's own words: file:line:column, what is wrong
// and the nearest key. (tests/tests/ui.rs copies tests/ui/suites/ to where
// this crate is compiled.)
mod misspelled_key {
    mcptest::suite!("suites/misspelled_key.yaml", server = "my-server");
}

mod wrong_type {
    mcptest::suite!("suites/wrong_type.yaml", server = "my-server");
}

mod log_level {
    mcptest::suite!("suites/log_level.yaml", server = "my-server");
}

fn main() {}
