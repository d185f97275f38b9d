//! The server the benchmarks start: `fixture-everything`'s handler over
//! stdio, built as a binary of this package so benches can reach it through
//! `CARGO_BIN_EXE_bench-server`.
//!
//! usage: bench-server [--root DIR]

use std::{path::PathBuf, process::ExitCode};

use mcptest_tests::everything::{Everything, EverythingConfig};
use rmcp::{ServiceExt, transport::stdio};

fn main() -> ExitCode {
    let mut config = EverythingConfig::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--root", Some(dir)) => config.root = Some(PathBuf::from(dir)),
            _ => {
                eprintln!(
                    "bench-server: unexpected argument {arg:?}\nusage: bench-server [--root DIR]"
                );
                return ExitCode::from(2);
            }
        }
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
        let running = Everything::new(config).serve(stdio()).await?;
        running.waiting().await?;
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
