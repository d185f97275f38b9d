//! `mcptest`: the command line over the mcptest library — run suite files,
//! write the reports CI systems read, check protocol conformance, validate suite
//! files, play MCP Cases files as a mock server, audit and fuzz every tool
//! of a server, lint its definitions for agent usability and security,
//! classify the drift between two surfaces and write starter suite files.
//! Argument parsing and output only; every check is the library's.
//!
//! The command is a library with one function, [`main`], so that the
//! `mcptest` binary and the test packages that run the command beside
//! their own fixture servers build the same command. Not an API.

mod args;
mod audit;
mod conformance;
mod connect;
mod coverage;
mod drift;
mod exec;
mod fuzz;
mod generate;
mod init;
mod intercept;
mod lint;
mod lint_security;
mod merge;
mod mock;
mod output;
mod paths;
mod run;
mod sarif;
mod snapshot;
mod suite_args;
mod terminal;
mod validate;
mod watch;

use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command, ReportCommand};

/// The documented exit statuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Everything ran and passed.
    Pass = 0,
    /// A test or check failed (or nothing was checked).
    Failures = 1,
    /// Bad arguments, or a file that cannot be loaded.
    Usage = 2,
    /// A test that passed in the baseline no longer passes.
    Regressions = 3,
    /// `drift`: a degrading change, and no breaking one.
    Degraded = 4,
}

/// The `mcptest` command: parses the process's arguments, runs the
/// command and answers its exit status.
pub fn main() -> ExitCode {
    // clap exits with 2 on a usage error and 0 for --help / --version.
    let cli = Cli::parse();
    // `mock` stops on Ctrl-C by itself; every other command may start
    // servers that must not outlive it.
    if !matches!(cli.command, Command::Mock(_)) {
        stop_servers_on_signal();
    }
    let exit = match cli.command {
        Command::Run(args) => run::run(args),
        Command::Validate(args) => validate::validate(args),
        Command::Conformance(args) => conformance::conformance(args),
        Command::Mock(args) => mock::mock(args),
        Command::Audit(args) => audit::audit(args),
        Command::Fuzz(args) => fuzz::fuzz(args),
        Command::Generate(args) => generate::generate(args),
        Command::Coverage(args) => coverage::coverage(args),
        Command::Init(args) => init::init(args),
        Command::Intercept(args) => intercept::intercept(args),
        Command::Watch(args) => watch::watch(args),
        Command::Exec(args) => exec::exec(args),
        Command::Snapshot(args) => snapshot::snapshot(args),
        Command::Lint(args) => lint::lint(args),
        Command::LintSecurity(args) => lint_security::lint_security(args),
        Command::Drift(args) => drift::drift(args),
        Command::Report(ReportCommand::Merge(args)) => merge::merge(args),
    };
    // A signal's handler is killing the servers and will exit with the
    // shell's status; the tests it stopped may end the command first.
    if INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::sleep(std::time::Duration::from_secs(30));
    }
    ExitCode::from(exit as u8)
}

/// Set when SIGINT or SIGTERM arrived: the signal's handler exits.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A runtime for one command.
fn runtime(threads: usize) -> Result<tokio::runtime::Runtime, Exit> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads.max(1))
        .enable_all()
        .build()
        .map_err(|e| {
            eprintln!("mcptest: cannot start the async runtime: {e}");
            Exit::Usage
        })
}

/// Whether to colour terminal output: stdout is a colour terminal and
/// `NO_COLOR` is not set.
fn color() -> bool {
    console::colors_enabled() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// On SIGINT or SIGTERM: kills every server the command started (they run
/// in process groups of their own, out of the terminal's reach, and exiting
/// on a signal runs no destructor), says so, and exits 130 or 143 as a shell
/// would. The handlers are in place before this returns.
fn stop_servers_on_signal() {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return;
    };
    let signals = {
        let _inside = runtime.enter();
        signals()
    };
    let Some(signals) = signals else { return };
    let spawned = std::thread::Builder::new()
        .name("mcptest-signals".into())
        .spawn(move || {
            let code = runtime.block_on(signals);
            INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
            let killed = mcptest::Server::kill_all();
            let removed = mcptest::Fixture::remove_live();
            eprintln!(
                "\nmcptest: interrupted; killed {killed} server{}, removed {removed} fixture cop{} of unfinished tests",
                if killed == 1 { "" } else { "s" },
                if removed == 1 { "y" } else { "ies" }
            );
            std::process::exit(code);
        });
    if let Err(e) = spawned {
        eprintln!("mcptest: cannot watch for signals: {e}");
    }
}

/// A future that ends with the shell's exit status for the first SIGINT or
/// SIGTERM; `None` when the handlers cannot be installed.
#[cfg(unix)]
fn signals() -> Option<impl std::future::Future<Output = i32>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt()).ok()?;
    let mut terminate = signal(SignalKind::terminate()).ok()?;
    Some(async move {
        tokio::select! {
            _ = interrupt.recv() => 130,
            _ = terminate.recv() => 143,
        }
    })
}

#[cfg(not(unix))]
fn signals() -> Option<impl std::future::Future<Output = i32>> {
    Some(async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
        130
    })
}
