//! Serves the `Everything` fixture over stdio (default), Streamable HTTP, or
//! the legacy HTTP+SSE transport (`--sse`, optionally misbehaving with
//! `--sse-quirk NAME`, see [`mcptest_tests::sse::Quirk`]).
//!
//! In HTTP mode the bound address is announced as one stdout line, and the server runs
//! until it is killed or its stdin reaches EOF: closing stdin is how a test harness
//! stops it without signals, and it also stops orphans when the harness dies.

use std::{
    io::{Read as _, Write as _},
    net::Ipv4Addr,
    path::PathBuf,
    process::ExitCode,
    sync::Arc,
    time::Duration,
};

use axum::response::IntoResponse as _;
use mcptest_tests::everything::{Everything, EverythingConfig};
use rmcp::{
    ServiceExt,
    transport::{
        stdio,
        streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
        },
    },
};

const USAGE: &str = "\
usage: fixture-everything [--root DIR] [--page-size N] [--http | --stateless-http | --sse]
                          [--sse-quirk NAME] [--bearer TOKEN]

Serves the fixture-everything MCP server over stdio, or over Streamable HTTP on
127.0.0.1 (random port, announced on stdout) with --http / --stateless-http, or
the legacy HTTP+SSE transport (GET /sse, POST /messages) with --sse, which
--sse-quirk NAME makes misbehave (no-endpoint, message-first, foreign-endpoint,
not-sse, huge-event, drop-after-handshake, refuse-posts, slow-posts, bad-line,
named-replies).
With --bearer, HTTP requests without `Authorization: Bearer TOKEN` get 401.";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Stdio,
    Http,
    StatelessHttp,
    Sse,
}

struct Options {
    config: EverythingConfig,
    mode: Mode,
    bearer: Option<String>,
    quirk: Option<mcptest_tests::sse::Quirk>,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut config = EverythingConfig::default();
    let mut mode = Mode::Stdio;
    let mut bearer = None;
    let mut quirk = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bearer" => bearer = Some(args.next().ok_or("--bearer needs a token")?),
            "--sse-quirk" => {
                let name = args.next().ok_or("--sse-quirk needs a name")?;
                quirk = Some(
                    mcptest_tests::sse::Quirk::named(&name)
                        .ok_or_else(|| format!("--sse-quirk {name:?}: no such quirk"))?,
                );
            }
            "--root" => {
                let dir = args.next().ok_or("--root needs a directory")?;
                config.root = Some(PathBuf::from(dir));
            }
            "--page-size" => {
                let value = args.next().ok_or("--page-size needs a number")?;
                config.page_size = value
                    .parse()
                    .ok()
                    .filter(|&n: &usize| n > 0)
                    .ok_or_else(|| format!("--page-size needs a positive number, got {value:?}"))?;
            }
            "--http" | "--stateless-http" | "--sse" => {
                if mode != Mode::Stdio {
                    return Err("give at most one of --http, --stateless-http and --sse".into());
                }
                mode = match arg.as_str() {
                    "--http" => Mode::Http,
                    "--sse" => Mode::Sse,
                    _ => Mode::StatelessHttp,
                };
            }
            other => return Err(format!("unknown argument: {other}")),
        }
    }
    if bearer.is_some() && mode == Mode::Stdio {
        return Err("--bearer applies to --http, --stateless-http and --sse".into());
    }
    if quirk.is_some() && mode != Mode::Sse {
        return Err("--sse-quirk applies to --sse".into());
    }
    Ok(Options {
        config,
        mode,
        bearer,
        quirk,
    })
}

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("fixture-everything: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("fixture-everything: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        match options.mode {
            Mode::Stdio => serve_stdio(options.config).await,
            Mode::Http => serve_http(options.config, false, options.bearer).await,
            Mode::StatelessHttp => serve_http(options.config, true, options.bearer).await,
            Mode::Sse => serve_sse(options.config, options.quirk, options.bearer).await,
        }
    });
    // Session workers may still be mid-request; don't let them delay the exit.
    runtime.shutdown_timeout(Duration::from_millis(100));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("fixture-everything: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn serve_stdio(config: EverythingConfig) -> Result<(), String> {
    let running = Everything::new(config)
        .serve(stdio())
        .await
        .map_err(|e| format!("initialization failed: {e}"))?;
    running
        .waiting()
        .await
        .map_err(|e| format!("server task failed: {e}"))?;
    Ok(())
}

async fn serve_sse(
    config: EverythingConfig,
    quirk: Option<mcptest_tests::sse::Quirk>,
    bearer: Option<String>,
) -> Result<(), String> {
    mcptest_tests::http::serve_path_on_loopback("/sse", move |_, port| {
        let app = mcptest_tests::sse::router(move || Everything::new(config.clone()), quirk, port);
        match bearer {
            Some(token) => require_bearer(app, token),
            None => app,
        }
    })
    .await
}

/// `app` answering 401 to any request without `Authorization: Bearer TOKEN`.
fn require_bearer(app: axum::Router, token: String) -> axum::Router {
    let expected = format!("Bearer {token}");
    app.layer(axum::middleware::from_fn(
        move |request: axum::extract::Request, next: axum::middleware::Next| {
            let authorized = request
                .headers()
                .get(axum::http::header::AUTHORIZATION)
                .is_some_and(|value| value.as_bytes() == expected.as_bytes());
            async move {
                if authorized {
                    next.run(request).await
                } else {
                    axum::http::StatusCode::UNAUTHORIZED.into_response()
                }
            }
        },
    ))
}

async fn serve_http(
    config: EverythingConfig,
    stateless: bool,
    bearer: Option<String>,
) -> Result<(), String> {
    let http_config = StreamableHttpServerConfig::default()
        // Keep-alive pings would only add noise to the streams tests read.
        .with_sse_keep_alive(None)
        .with_legacy_session_mode(!stateless)
        .with_json_response(stateless);
    let service = if stateless {
        // Without sessions each request gets a handler from the factory; handing out
        // clones of one server keeps the log level and tool toggle from one request
        // to the next, as a real stateless deployment backed by shared state would.
        let shared = Everything::new(config);
        StreamableHttpService::new(
            move || Ok(shared.clone()),
            Arc::new(LocalSessionManager::default()),
            http_config,
        )
    } else {
        // One fresh server per session, so sessions never see each other's state.
        StreamableHttpService::new(
            move || Ok(Everything::new(config.clone())),
            Arc::new(LocalSessionManager::default()),
            http_config,
        )
    };
    let mut app = axum::Router::new().nest_service("/mcp", service);
    if let Some(token) = bearer {
        app = require_bearer(app, token);
    }

    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .map_err(|e| format!("cannot bind 127.0.0.1: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?
        .port();
    {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "listening on http://127.0.0.1:{port}/mcp")
            .and_then(|()| stdout.flush())
            .map_err(|e| format!("cannot announce the address: {e}"))?;
    }

    // A plain thread, not tokio's stdin: tokio reads stdin on a blocking thread that
    // cannot be cancelled, which would keep the runtime from shutting down.
    let (eof_tx, eof_rx) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let mut sink = [0u8; 4096];
        let mut stdin = std::io::stdin().lock();
        while matches!(stdin.read(&mut sink), Ok(n) if n > 0) {}
        let _ = eof_tx.send(());
    });

    // Not a graceful shutdown: that would wait for clients to close their SSE
    // streams, and a harness that closed stdin wants the server gone now.
    tokio::select! {
        result = axum::serve(listener, app) => result.map_err(|e| format!("HTTP server failed: {e}")),
        _ = eof_rx => Ok(()),
    }
}
