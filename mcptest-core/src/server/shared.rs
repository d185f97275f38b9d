//! Shared servers: one server per configuration for a whole test binary,
//! chosen with [`Server::shared`](crate::Server::shared) (or `shared` in
//! `#[mcp_test]` and `suite!`).
//!
//! # Lifetime
//! The first test that connects starts the server on a runtime of the
//! registry's own: one thread, started on first use, that runs until the
//! process exits, so the connection outlives each test's `#[tokio::test]`
//! runtime. When the test binary exits (after the last test, also when tests
//! panicked) an exit hook closes each server's stdin, gives it its
//! [`shutdown_grace`](crate::Server::shutdown_grace), then kills its process
//! group and reaps it. On Linux the kernel also kills each server when the
//! registry's thread ends (`PR_SET_PDEATHSIG`): the backstop for a binary
//! that dies without running exit hooks (an abort, a signal); that reaches
//! the server process itself, not what it started in turn.
//!
//! A server found dead when a test connects (it crashed, exited, or closed
//! its output) is replaced by a fresh one; the test that was using it when it
//! died fails with [`Error::ServerExited`] (exit status and stderr tail), as
//! with a server of its own.
//!
//! What counts as the same configuration, and what is and is not isolated
//! between the tests on one server, is the contract documented on
//! [`Server::shared`].
//!
//! Views: each test's [`McpClient`] is a view of the registry's connection
//! (`McpClient::view`), with a [`ServerMessages`](crate::ServerMessages) view
//! that claims the progress tokens of the requests it sends.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, OnceLock},
};

use super::{Server, Target};
use crate::{
    client::{McpClient, answers::share_key},
    error::Error,
};

/// The servers of this process, by configuration.
struct Registry {
    runtime: tokio::runtime::Handle,
    slots: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Option<McpClient>>>>>,
    /// Every server started and not yet stopped, for the exit hook.
    running: Mutex<Vec<McpClient>>,
}

static REGISTRY: OnceLock<Result<Registry, String>> = OnceLock::new();

fn registry() -> Result<&'static Registry, Error> {
    REGISTRY
        .get_or_init(start_registry)
        .as_ref()
        .map_err(|reason| Error::InvalidConfig {
            message: format!("cannot start the runtime for shared servers: {reason}"),
        })
}

fn start_registry() -> Result<Registry, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("mcptest-shared-servers".into())
        .spawn(move || {
            // One thread runs every shared connection, and every shared server
            // is spawned from it: it never ends, so PR_SET_PDEATHSIG fires
            // only when the process does.
            match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => {
                    let _ = tx.send(Ok(runtime.handle().clone()));
                    runtime.block_on(std::future::pending::<()>());
                }
                Err(error) => {
                    let _ = tx.send(Err(error.to_string()));
                }
            }
        })
        .map_err(|e| e.to_string())?;
    let runtime = rx
        .recv()
        .map_err(|_| "its thread ended at start".to_owned())??;
    #[cfg(unix)]
    // SAFETY: registers a plain `extern "C"` function; it never unwinds.
    unsafe {
        libc::atexit(stop_all_at_exit);
    }
    Ok(Registry {
        runtime,
        slots: Mutex::default(),
        running: Mutex::default(),
    })
}

/// The exit hook: stops every shared server that is still running.
#[cfg(unix)]
extern "C" fn stop_all_at_exit() {
    let _ = std::panic::catch_unwind(stop_all);
}

/// Stops every shared server of this process: stdin closed, the grace
/// period, the process group killed and reaped.
fn stop_all() {
    let Some(Ok(registry)) = REGISTRY.get() else {
        return;
    };
    let running = std::mem::take(&mut *registry.running.lock().unwrap_or_else(|p| p.into_inner()));
    for client in &running {
        client.stop_blocking();
    }
    for slot in registry
        .slots
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .values()
    {
        if let Ok(mut guard) = slot.try_lock() {
            guard.take();
        }
    }
}

/// The connect of a shared server: a view of the running one, started first
/// if there is none or it died.
pub(crate) async fn connect(server: &Server) -> Result<McpClient, Error> {
    if server.options.fixture_dir.is_some() {
        return Err(Error::InvalidConfig {
            message: format!(
                "{server:?} is shared and has a fixture directory: one server cannot serve \
                 a fresh fixture copy to each test; drop `shared`, or drop the fixture"
            ),
        });
    }
    if server.options.cassette.is_some() {
        return Err(Error::InvalidConfig {
            message: format!(
                "{server:?} is shared and has a cassette: one connection cannot record or \
                 replay each test's session; drop `shared`, or drop the cassette"
            ),
        });
    }
    if matches!(server.target, Target::Url(_) | Target::BadCommand { .. }) {
        // A server at a URL (Streamable HTTP or HTTP+SSE) runs on its own:
        // each test opens its own session.
        return super::connect::connect(server).await;
    }
    server.check_options_apply()?;
    let registry = registry()?;
    let slot = registry
        .slots
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(key(server))
        .or_default()
        .clone();
    // Held while starting, so tests that arrive meanwhile wait for this
    // start, each no longer than its own connect timeout.
    let limit = server.client.connect_timeout;
    let Ok(mut current) = tokio::time::timeout(limit, slot.lock()).await else {
        return Err(Error::Timeout {
            method: format!("starting the shared server {server:?} (by another test)"),
            after: limit,
            output: Box::default(),
        });
    };
    let base = match current.as_ref() {
        Some(base) if base.is_alive() => base.clone(),
        _ => {
            if let Some(dead) = current.take() {
                retire(registry, dead);
            }
            let recipe = server.clone();
            let base = registry
                .runtime
                .spawn(async move { super::connect::connect(&recipe).await })
                .await
                .map_err(|e| Error::InvalidConfig {
                    message: format!("starting the shared server {server:?} failed: {e}"),
                })??;
            registry
                .running
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(base.clone());
            *current = Some(base.clone());
            base
        }
    };
    drop(current);
    Ok(base.view(
        server.client.request_timeout,
        server.client.fetch_tool_definitions,
        None,
    ))
}

/// Stops a server found dead, on the registry's runtime (it reaps it).
fn retire(registry: &Registry, dead: McpClient) {
    registry
        .running
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .retain(|c| !c.same_connection(&dead));
    registry.runtime.spawn(async move {
        dead.close().await;
    });
}

/// What makes two configurations one shared server (see the module docs).
fn key(server: &Server) -> String {
    let target = match &server.target {
        Target::Command(spec) => format!("command {spec:?}"),
        Target::InProcess(_, Some(handler)) => format!("in-process {handler}"),
        Target::InProcess(start, None) => format!("in-process {:p}", Arc::as_ptr(start)),
        Target::Url(spec) => format!("url {spec:?}"),
        Target::BadCommand { input, .. } => format!("bad {input:?}"),
    };
    let options = &server.options;
    let client = &server.client;
    format!(
        "{target} | grace {:?} max {} | version {:?} info {:?} caps {:?} | mocks {}",
        options.shutdown_grace,
        options.max_message_size,
        client.protocol_version,
        client.client_info,
        client
            .capabilities
            .as_ref()
            .map(|c| serde_json::to_string(c).unwrap_or_default()),
        share_key(
            client.sampling.as_ref(),
            client.roots.as_ref(),
            client.elicitation.as_ref()
        ),
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn client_only_options_do_not_change_the_key() {
        let base = Server::command("srv --flag");
        assert_eq!(
            key(&base),
            key(&base
                .clone()
                .timeout(Duration::from_secs(1))
                .connect_timeout(Duration::from_secs(2))
                .fetch_tool_definitions(false))
        );
        assert_ne!(key(&base), key(&base.clone().arg("--other")));
        assert_ne!(key(&base), key(&base.clone().env("A", "1")));
        assert_ne!(
            key(&base),
            key(&base.clone().protocol_version("2025-06-18"))
        );
        assert_ne!(
            key(&base),
            key(&base
                .clone()
                .sampling(crate::client::answers::Sampling::text("x")))
        );
    }

    #[test]
    fn handler_mocks_share_by_identity() {
        let mock = crate::client::answers::Roots::handler(|| async { Ok(Vec::new()) });
        let a = Server::command("srv").roots(mock.clone());
        let b = Server::command("srv").roots(mock);
        let c = Server::command("srv").roots(crate::client::answers::Roots::handler(|| async {
            Ok(Vec::new())
        }));
        assert_eq!(key(&a), key(&b));
        assert_ne!(key(&a), key(&c));
    }
}
