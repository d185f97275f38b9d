//! `mcptest exec --connection-server`: the coprocess engine on stdin and
//! stdout (`mcptest_coprocess::serve`), for the server the command line
//! names (`-- PROGRAM ARG...`, `--server-command`, `--server-url`,
//! `--server-sse`, with the credentials flags of a server at a URL) or none.

use std::path::Path;

use mcptest::Server;
use mcptest_coprocess::{ExecOptions, serve};
use tokio::io::BufReader;

use crate::{Exit, args::ExecArgs};

pub fn exec(args: ExecArgs) -> Exit {
    let server = match server(&args) {
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
        check_frames: args.check_frames,
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

/// The server under test, checked to exist (a typo is a usage error, not a
/// server that failed), with `--server-env` and `--server-cwd`; `None`
/// when the command line names none.
fn server(args: &ExecArgs) -> Result<Option<Server>, String> {
    let launched = |server: Server| {
        let mut server = server;
        for (key, value) in &args.server_env {
            server = server.env(key, value);
        }
        if let Some(dir) = &args.server_cwd {
            server = server.current_dir(dir);
        }
        server
    };
    if let Some(dir) = &args.server_cwd
        && !dir.is_dir()
    {
        return Err(format!("--server-cwd {}: not a directory", dir.display()));
    }
    if args.server_url.is_some() || args.server_sse.is_some() {
        return crate::connect::target(
            None,
            args.server_url.as_deref(),
            args.server_sse.as_deref(),
            &args.auth,
        )
        .map(Some);
    }
    if args.auth.given() {
        return Err(
            "--header, --bearer-env and --client-id are for a server reached at a URL \
             (--server-url or --server-sse)"
                .into(),
        );
    }
    if let Some(command) = &args.server_command {
        return crate::connect::target(Some(command), None, None, &Default::default())
            .map(|s| Some(launched(s)));
    }
    let Some((program, rest)) = args.server_argv.split_first() else {
        if !args.server_env.is_empty() || args.server_cwd.is_some() {
            return Err(
                "--server-env and --server-cwd apply to a server: give it after `--` (or with --server-command)"
                    .into(),
            );
        }
        return Ok(None);
    };
    check_program(program, args.server_cwd.as_deref())?;
    Ok(Some(launched(Server::program(program).args(rest))))
}

/// The program after `--` exists: a path (relative to `--server-cwd` when
/// given, where it is started), or a name on PATH.
fn check_program(program: &str, cwd: Option<&Path>) -> Result<(), String> {
    let path = Path::new(program);
    if program.is_empty() {
        return Err("-- PROGRAM: the program is empty".into());
    }
    if path.components().count() > 1 {
        let resolved = match cwd {
            Some(dir) if path.is_relative() => dir.join(path),
            _ => path.to_path_buf(),
        };
        if resolved.is_dir() {
            return Err(format!("-- {program}: is a directory"));
        }
        return which::which(&resolved).map(drop).map_err(|_| {
            if resolved.exists() {
                format!("-- {program}: exists but is not executable (chmod +x?)")
            } else {
                format!("-- {program}: server not found: no such file")
            }
        });
    }
    which::which(program)
        .map(drop)
        .map_err(|e| format!("-- {program}: server not found: {e}"))
}
