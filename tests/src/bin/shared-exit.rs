//! A program that uses a shared server and then ends, for the test that proves
//! the server does not outlive the test binary that shared it.
//!
//! `shared-exit MODE SERVER_PROGRAM [ARGS..]` connects to the server as a
//! shared server, prints the server's pid on stdout, then ends as MODE says:
//! `return` (main returns), `panic` (main panics), `exit` (`process::exit`),
//! `abort` (`process::abort`: no exit hooks run, only the kernel's
//! parent-death signal stops the server).

use std::io::Write as _;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(mode), Some(program)) = (args.next(), args.next()) else {
        eprintln!("usage: shared-exit return|panic|exit|abort SERVER_PROGRAM [ARGS..]");
        std::process::exit(2);
    };
    let server_args: Vec<String> = args.collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let pid = runtime.block_on(async {
        let mcp = mcptest::Server::program(&program)
            .args(&server_args)
            .shared()
            .connect()
            .await
            .unwrap_or_else(|e| panic!("cannot connect to {program}: {e}"));
        mcp.ping().await.expect("ping");
        mcp.pid().expect("a server process")
    });
    // The test's runtime is gone; the shared server must still be there.
    drop(runtime);
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{pid}")
        .and_then(|()| stdout.flush())
        .expect("stdout");
    match mode.as_str() {
        "return" => {}
        "panic" => panic!("the program panics on purpose"),
        "exit" => std::process::exit(0),
        "abort" => std::process::abort(),
        other => {
            eprintln!("unknown mode {other:?}");
            std::process::exit(2);
        }
    }
}
