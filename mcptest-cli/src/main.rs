//! The `mcptest` binary: the command of this package's library.

fn main() -> std::process::ExitCode {
    mcptest_cli::main()
}
