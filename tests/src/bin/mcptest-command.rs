//! The `mcptest` command, built in this package from the command's library:
//! a test gets the path of its own package's binaries only, and the tests
//! that compare `mcptest run` with `Suite::run` and `suite!` run it against
//! this package's fixture servers.

fn main() -> std::process::ExitCode {
    mcptest_cli::main()
}
