//! The server end of one connection, and the one place that knows how to
//! stop it: close its input, give it a grace period, kill its process group,
//! reap it — from async code, or from `Drop` while a test unwinds.

use std::{
    process::ExitStatus,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use tokio::task::JoinHandle;

use super::{inbound::Inbound, lines::WriteHandle};

pub(crate) struct Endpoint {
    pub(crate) inbound: Arc<Inbound>,
    writer: Option<WriteHandle>,
    in_process: Option<JoinHandle<()>>,
    grace: Duration,
    closed: AtomicBool,
}

impl Endpoint {
    pub(crate) fn new(
        inbound: Arc<Inbound>,
        writer: Option<WriteHandle>,
        in_process: Option<JoinHandle<()>>,
        grace: Duration,
    ) -> Self {
        Endpoint {
            inbound,
            writer,
            in_process,
            grace,
            closed: AtomicBool::new(false),
        }
    }

    pub(crate) fn grace(&self) -> Duration {
        self.grace
    }

    /// Stops the server and returns its exit status when it ran as a process.
    pub(crate) async fn close(&self) -> Option<ExitStatus> {
        self.closed.store(true, Ordering::SeqCst);
        if let Some(writer) = &self.writer {
            // A write blocked on a server that stopped reading holds the
            // stream; the kill below ends it, so this wait is bounded.
            writer.close(self.grace).await;
        }
        let status = match &self.inbound.process {
            Some(process) => process.shutdown(self.grace).await,
            None => None,
        };
        if let Some(task) = &self.in_process {
            // An in-process server ends by itself on EOF; give it the same grace.
            let deadline = tokio::time::Instant::now() + self.grace;
            while !task.is_finished() && tokio::time::Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            task.abort();
        }
        status
    }
}

impl Endpoint {
    /// Stops the server without a runtime (from `Drop`, or at process exit).
    pub(crate) fn stop_blocking(&self) {
        if self.closed.swap(true, Ordering::SeqCst) {
            return;
        }
        if let Some(writer) = &self.writer {
            writer.close_now();
        }
        if let Some(process) = &self.inbound.process {
            process.shutdown_blocking(self.grace);
        }
        if let Some(task) = &self.in_process {
            task.abort();
        }
    }
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        self.stop_blocking();
    }
}
