//! `mcptest exec --connection-server`: the coprocess engine on stdin and
//! stdout (the library's `coprocess::serve`).

use mcptest_coprocess::{ExecOptions, serve};
use tokio::io::BufReader;

use crate::{Exit, args::ExecArgs};

pub fn exec(args: ExecArgs) -> Exit {
    let server =
        match crate::audit::target(args.server_command.as_deref(), args.server_url.as_deref()) {
            Ok(server) => server,
            Err(e) => {
                eprintln!("mcptest: {e}");
                return Exit::Usage;
            }
        };
    let options = ExecOptions {
        call_timeout: args.call_timeout,
        max_line: args
            .max_line_bytes
            .unwrap_or_else(|| ExecOptions::default().max_line),
    };
    let runtime = match crate::runtime(2) {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    let served = runtime.block_on(serve(
        server,
        options,
        BufReader::new(tokio::io::stdin()),
        tokio::io::stdout(),
    ));
    match served {
        Ok(()) => Exit::Pass,
        Err(e) => {
            eprintln!("mcptest: the coprocess channel failed: {e}");
            Exit::Failures
        }
    }
}
