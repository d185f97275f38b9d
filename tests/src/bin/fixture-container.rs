//! Stands in for `docker` and `podman` in the tests (no container can run
//! on the machines they run on): takes `docker run`'s arguments, records
//! them, and runs the server itself, as a container would.
//!
//! ```text
//! fixture-container run --rm -i [-v SRC:DST]... [-e KEY=VALUE]... [-w DIR] IMAGE PROGRAM ARG...
//! ```
//!
//! Installed in a test's `PATH` as `docker` (or `podman`), a link to this
//! program. It writes `fixture-container: <name> <argv as JSON>` to stderr
//! (where the failure messages and `McpClient::stderr` show it) and, when
//! `MCPTEST_STANDIN_LOG` is set, appends the JSON array to that file. Then it
//! replaces itself with `PROGRAM ARG...`, with the environment a container
//! has: only `PATH` from outside, and the `-e` variables. A mount must map a
//! directory that exists to the same path (how mcptest mounts the fixture),
//! since the "container" sees the host's files. Anything else is refused
//! with exit status 125, as `docker run` refuses its usage errors.

use std::{io::Write as _, process::ExitCode};

fn refuse(message: &str) -> ExitCode {
    eprintln!("fixture-container: {message}");
    ExitCode::from(125)
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    let name = argv
        .first()
        .map(|a| a.rsplit('/').next().unwrap_or(a).to_owned())
        .unwrap_or_default();
    let recorded = serde_json::to_string(&argv).unwrap_or_default();
    eprintln!("fixture-container: {name} {recorded}");
    if let Some(log) = std::env::var_os("MCPTEST_STANDIN_LOG") {
        // One `write` of the whole line: two stand-ins started at once
        // append to one file, and `O_APPEND` keeps each write whole, not a
        // line written in pieces (`writeln!` writes the text and the
        // newline apart).
        let line = format!("{recorded}\n");
        let appended = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .and_then(|mut file| file.write_all(line.as_bytes()));
        if let Err(e) = appended {
            return refuse(&format!("cannot append to {}: {e}", log.to_string_lossy()));
        }
    }
    let mut args = argv.into_iter().skip(1);
    if args.next().as_deref() != Some("run") {
        return refuse("only `run` is known");
    }
    let mut env: Vec<(String, String)> = Vec::new();
    let mut workdir = None;
    let image = loop {
        let Some(arg) = args.next() else {
            return refuse("no image given");
        };
        match arg.as_str() {
            "--rm" | "-i" => {}
            "-v" => {
                let Some(mount) = args.next() else {
                    return refuse("-v needs SRC:DST");
                };
                let Some((src, dst)) = mount.split_once(':') else {
                    return refuse(&format!("-v {mount}: not SRC:DST"));
                };
                if src != dst || !std::path::Path::new(src).is_dir() {
                    return refuse(&format!(
                        "-v {mount}: this stand-in mounts an existing directory at its own path"
                    ));
                }
            }
            "-e" => {
                let Some(pair) = args.next() else {
                    return refuse("-e needs KEY=VALUE");
                };
                let Some((key, value)) = pair.split_once('=') else {
                    return refuse(&format!("-e {pair}: not KEY=VALUE"));
                };
                env.push((key.to_owned(), value.to_owned()));
            }
            "-w" => workdir = args.next(),
            flag if flag.starts_with('-') => return refuse(&format!("unknown flag {flag}")),
            _ => break arg,
        }
    };
    let Some(program) = args.next() else {
        return refuse(&format!("no command after the image {image}"));
    };
    let mut command = std::process::Command::new(&program);
    command.args(args).env_clear();
    if let Some(path) = std::env::var_os("PATH") {
        command.env("PATH", path);
    }
    command.envs(env);
    if let Some(dir) = workdir {
        command.current_dir(dir);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        let error = command.exec();
        refuse(&format!("cannot run {program}: {error}"))
    }
    #[cfg(not(unix))]
    match command.status() {
        Ok(status) => ExitCode::from(status.code().unwrap_or(1) as u8),
        Err(error) => refuse(&format!("cannot run {program}: {error}")),
    }
}
