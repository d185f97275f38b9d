//! Recording: the connection's two byte streams pass through adapters that
//! cut them into lines and keep every JSON message, in arrival order.

use std::{
    path::{Path, PathBuf},
    pin::Pin,
    sync::{Arc, Mutex},
    task::{Context, Poll},
};

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::file::{CassetteFile, Entry, FORMAT, Side, redact};

pub(crate) struct Recorder {
    path: PathBuf,
    redact: Vec<String>,
    state: Mutex<State>,
    /// Held for a whole save (write, then rename): how many messages the
    /// file holds. Each side of the connection saves when it closes, from
    /// different threads; a save never replaces the file with fewer
    /// messages than it has.
    saved: Mutex<Option<usize>>,
}

#[derive(Default)]
struct State {
    client_partial: Vec<u8>,
    server_partial: Vec<u8>,
    messages: Vec<Entry>,
}

impl Recorder {
    pub(crate) fn new(path: &Path, redact: &[String]) -> Arc<Recorder> {
        Arc::new(Recorder {
            path: path.to_path_buf(),
            redact: redact.to_vec(),
            state: Mutex::new(State::default()),
            saved: Mutex::new(None),
        })
    }

    /// Wraps the connection's streams (client reads `read`, writes `write`).
    pub(crate) fn wrap(
        self: &Arc<Self>,
        read: Box<dyn AsyncRead + Send + Unpin>,
        write: Box<dyn AsyncWrite + Send + Unpin>,
    ) -> (
        Box<dyn AsyncRead + Send + Unpin>,
        Box<dyn AsyncWrite + Send + Unpin>,
    ) {
        (
            Box::new(Tap {
                inner: read,
                recorder: self.clone(),
            }),
            Box::new(Tap {
                inner: write,
                recorder: self.clone(),
            }),
        )
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn feed(&self, side: Side, bytes: &[u8]) {
        self.feed_locked(&mut self.lock(), side, bytes);
    }

    fn feed_locked(&self, state: &mut State, side: Side, bytes: &[u8]) {
        let State {
            client_partial,
            server_partial,
            messages,
        } = state;
        let partial = match side {
            Side::Client => client_partial,
            Side::Server => server_partial,
        };
        partial.extend_from_slice(bytes);
        while let Some(at) = partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = partial.drain(..=at).collect();
            // Lines that are not JSON (a server's stray output) are not
            // messages and are not replayed.
            if let Ok(mut message) = serde_json::from_slice::<Value>(&line) {
                redact(&mut message, &self.redact);
                messages.push(Entry {
                    from: side,
                    message,
                });
            }
        }
    }

    /// Writes everything recorded so far (through a temporary file, so a
    /// reader never sees half a cassette).
    fn save(&self) {
        let mut saved = self.saved.lock().unwrap_or_else(|p| p.into_inner());
        let messages = self
            .state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .messages
            .clone();
        if saved.is_some_and(|count| count >= messages.len()) {
            return;
        }
        let count = messages.len();
        let file = CassetteFile {
            mcptest_cassette: FORMAT,
            redacted_fields: self.redact.clone(),
            messages,
        };
        let result = (|| -> std::io::Result<()> {
            if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)?;
            }
            let mut text = serde_json::to_string_pretty(&file).map_err(std::io::Error::other)?;
            text.push('\n');
            let temp = self.path.with_extension("recording");
            std::fs::write(&temp, text)?;
            std::fs::rename(&temp, &self.path)
        })();
        if result.is_ok() {
            *saved = Some(count);
        }
        if let Err(error) = result {
            // Drop has no caller to report to; the replay of a missing or
            // stale cassette then fails with its path.
            eprintln!(
                "mcptest: could not write cassette {}: {error}",
                self.path.display()
            );
        }
    }
}

/// One direction of the connection, passing bytes through to the recorder.
/// Each end saves the cassette when it is dropped: the write end at
/// `close()`, the read end when the client lets go of the connection.
struct Tap<T> {
    inner: T,
    recorder: Arc<Recorder>,
}

impl<T> Drop for Tap<T> {
    fn drop(&mut self) {
        self.recorder.save();
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Tap<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            self.recorder.feed(Side::Server, &buf.filled()[before..]);
        }
        polled
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Tap<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        // The request is written down before the lock lets the read side
        // record anything: its answer can only come after the bytes are
        // sent, so the file keeps the order the messages really had.
        let recorder = self.recorder.clone();
        let mut state = recorder.lock();
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = polled {
            recorder.feed_locked(&mut state, Side::Client, &buf[..n]);
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
