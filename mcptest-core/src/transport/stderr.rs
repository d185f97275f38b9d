//! The last 64 KiB of a server's stderr, kept for error messages.

use std::{
    collections::VecDeque,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use tokio::io::{AsyncRead, AsyncReadExt};

/// How much of stderr is kept.
pub(crate) const STDERR_KEPT: usize = 64 * 1024;

/// The last 64 KiB a child wrote to stderr, read on a background task.
#[derive(Default)]
pub struct StderrTail {
    bytes: Mutex<VecDeque<u8>>,
    /// Set when the reader reached EOF (the process closed stderr).
    closed: AtomicBool,
    closed_now: tokio::sync::Notify,
}

impl StderrTail {
    /// Drains `stream` until EOF on a background task, so the child never
    /// blocks on a full pipe however much it writes.
    pub fn spawn_reader(stream: impl AsyncRead + Send + Unpin + 'static) -> Arc<Self> {
        let tail = Arc::new(StderrTail::default());
        let writer = tail.clone();
        tokio::spawn(async move {
            let mut stream = stream;
            let mut buf = vec![0u8; 8192];
            loop {
                match stream.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => writer.push(&buf[..n]),
                }
            }
            writer.closed.store(true, Ordering::SeqCst);
            writer.closed_now.notify_waiters();
        });
        tail
    }

    /// Waits (at most `timeout`) until everything the process wrote to
    /// stderr has been read: after it exited, so its last words are in the
    /// error that reports the exit.
    pub async fn wait_closed(&self, timeout: Duration) {
        let closed = self.closed_now.notified();
        tokio::pin!(closed);
        closed.as_mut().enable();
        if !self.closed.load(Ordering::SeqCst) {
            let _ = tokio::time::timeout(timeout, closed).await;
        }
    }

    /// Appends bytes as if the process had written them to stderr (an
    /// in-process server's log).
    pub fn push(&self, chunk: &[u8]) {
        let mut bytes = self.bytes.lock().unwrap_or_else(|p| p.into_inner());
        let chunk = &chunk[chunk.len().saturating_sub(STDERR_KEPT)..];
        let overflow = (bytes.len() + chunk.len()).saturating_sub(STDERR_KEPT);
        bytes.drain(..overflow);
        bytes.extend(chunk);
    }

    /// The kept tail as text (lossy UTF-8). When the buffer has wrapped, the
    /// first, partial line is dropped so the text starts at a line boundary.
    pub fn text(&self) -> String {
        let bytes = self.bytes.lock().unwrap_or_else(|p| p.into_inner());
        let (a, b) = bytes.as_slices();
        let mut all = Vec::with_capacity(a.len() + b.len());
        all.extend_from_slice(a);
        all.extend_from_slice(b);
        let start = if all.len() >= STDERR_KEPT {
            all.iter().position(|&c| c == b'\n').map_or(0, |i| i + 1)
        } else {
            0
        };
        String::from_utf8_lossy(&all[start..]).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn wait_closed_returns_once_everything_is_read() {
        use tokio::io::AsyncWriteExt;
        let (mut write, read) = tokio::io::duplex(64);
        let tail = StderrTail::spawn_reader(read);
        write.write_all(b"last words\n").await.unwrap();
        // Still open: the wait ends at its timeout.
        tail.wait_closed(Duration::from_millis(20)).await;
        drop(write);
        tail.wait_closed(Duration::from_secs(10)).await;
        assert!(tail.closed.load(Ordering::SeqCst));
        assert_eq!(tail.text(), "last words\n");
    }

    #[test]
    fn keeps_only_the_last_64_kib() {
        let tail = StderrTail::default();
        for i in 0..20_000 {
            tail.push(format!("line {i}\n").as_bytes());
        }
        let text = tail.text();
        assert!(text.len() <= STDERR_KEPT);
        assert!(text.ends_with("line 19999\n"));
        assert!(
            text.starts_with("line "),
            "starts at a line boundary: {:?}",
            &text[..20]
        );
        assert!(!text.contains("line 0\n"));
    }

    #[test]
    fn one_huge_chunk_keeps_its_end() {
        let tail = StderrTail::default();
        let mut chunk = vec![b'a'; 200 * 1024];
        chunk.extend_from_slice(b"\nthe end\n");
        tail.push(&chunk);
        assert!(tail.text().ends_with("the end\n"));
    }
}
