//! The server the benchmarks start: `fixture-everything`'s handler over
//! stdio, built as a binary of this package so benches can reach it through
//! `CARGO_BIN_EXE_bench-server`. With `--tools N` it serves the `wide`
//! fixture instead: N well-behaved tools, for the audit benchmark. With
//! `--start-delay MS` it sleeps that long before reading stdin, like a server
//! that is slow to start (Python, JVM), for the shared-server benchmark.
//!
//! usage: bench-server [--root DIR | --tools N] [--start-delay MS]

use std::{path::PathBuf, process::ExitCode};

use mcptest_tests::{
    everything::{Everything, EverythingConfig},
    wide::Wide,
};
use rmcp::{ServiceExt, transport::stdio};

fn main() -> ExitCode {
    let mut config = EverythingConfig::default();
    let mut wide = None;
    let mut start_delay = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--root", Some(dir)) => config.root = Some(PathBuf::from(dir)),
            ("--tools", Some(n)) if n.parse::<usize>().is_ok_and(|n| n > 0) => {
                wide = n.parse().ok();
            }
            ("--start-delay", Some(ms)) if ms.parse::<u64>().is_ok() => {
                start_delay = ms.parse().ok().map(std::time::Duration::from_millis);
            }
            _ => {
                eprintln!(
                    "bench-server: unexpected argument {arg:?}\n\
                     usage: bench-server [--root DIR | --tools N] [--start-delay MS]"
                );
                return ExitCode::from(2);
            }
        }
    }
    if let Some(delay) = start_delay {
        std::thread::sleep(delay);
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("bench-server: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(async {
        match wide {
            Some(count) => {
                Wide::new(count).serve(stdio()).await?.waiting().await?;
            }
            None => {
                Everything::new(config)
                    .serve(stdio())
                    .await?
                    .waiting()
                    .await?;
            }
        }
        Ok::<(), Box<dyn std::error::Error>>(())
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("bench-server: {error}");
            ExitCode::FAILURE
        }
    }
}
