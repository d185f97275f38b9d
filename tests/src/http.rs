//! Starting a fixture server in Streamable HTTP mode for a test.

use std::{
    io::{BufRead, BufReader},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc,
    time::Duration,
};

/// A fixture server serving Streamable HTTP on 127.0.0.1, stopped (stdin
/// closed, then killed and reaped) when dropped.
pub struct HttpFixture {
    /// `http://127.0.0.1:<port>/mcp`
    pub url: String,
    child: Child,
    stdin: Option<ChildStdin>,
}

impl HttpFixture {
    /// Runs `program args..` and waits (up to 30 s) for the line
    /// `listening on <url>` on its stdout.
    pub fn start(program: &str, args: &[&str]) -> HttpFixture {
        HttpFixture::start_with_env(program, args, &[])
    }

    /// [`start`](Self::start) with these environment variables set.
    pub fn start_with_env(program: &str, args: &[&str], env: &[(&str, &str)]) -> HttpFixture {
        let mut child = Command::new(program)
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(line)) = lines.next() {
                let _ = tx.send(line);
            }
            // Keep draining so the server never blocks on a full pipe.
            for _ in lines {}
        });
        let line = match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{program} did not print its URL within 30 s");
            }
        };
        let url = line
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line from {program}: {line:?}"))
            .to_owned();
        let stdin = child.stdin.take();
        HttpFixture { url, child, stdin }
    }
}

impl Drop for HttpFixture {
    fn drop(&mut self) {
        self.stdin.take();
        for _ in 0..200 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Serves `app` on 127.0.0.1 (a free port), announces
/// `listening on http://127.0.0.1:<port>/mcp` on stdout, and runs until
/// stdin ends: closing stdin is how [`HttpFixture`] stops a server without
/// signals, and it also stops orphans when the test process dies.
pub async fn serve_on_loopback(app: axum::Router) -> Result<(), String> {
    serve_on_loopback_at(|_| app).await
}

/// [`serve_on_loopback`] with the router built from the server's base URL
/// (`http://127.0.0.1:<port>`), for documents that name their own address.
pub async fn serve_on_loopback_at(app: impl FnOnce(&str) -> axum::Router) -> Result<(), String> {
    serve_path_on_loopback("/mcp", |base, _| app(base)).await
}

/// [`serve_on_loopback_at`] announcing `path` (e.g. `/sse`) as the address,
/// with the router built from the base URL and the port.
pub async fn serve_path_on_loopback(
    path: &str,
    app: impl FnOnce(&str, u16) -> axum::Router,
) -> Result<(), String> {
    use std::io::{Read as _, Write as _};

    let listener = tokio::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0))
        .await
        .map_err(|e| format!("cannot bind 127.0.0.1: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?
        .port();
    let app = app(&format!("http://127.0.0.1:{port}"), port);
    {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "listening on http://127.0.0.1:{port}{path}")
            .and_then(|()| stdout.flush())
            .map_err(|e| format!("cannot announce the address: {e}"))?;
    }
    // A plain thread: tokio's stdin reads on a blocking thread that cannot be
    // cancelled and would hold up the runtime's shutdown.
    let (eof_tx, eof_rx) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let mut sink = [0u8; 4096];
        let mut stdin = std::io::stdin().lock();
        while matches!(stdin.read(&mut sink), Ok(n) if n > 0) {}
        let _ = eof_tx.send(());
    });
    tokio::select! {
        result = axum::serve(listener, app) => result.map_err(|e| format!("HTTP server failed: {e}")),
        _ = eof_rx => Ok(()),
    }
}
