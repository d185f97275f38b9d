//! Starting what a [`Server`] describes: a child process or an in-process
//! handler (both give a pair of byte streams), or an HTTP endpoint to dial.

use std::sync::Arc;

use tokio::{
    io::{AsyncRead, AsyncWrite},
    task::JoinHandle,
};

use super::{HttpSpec, LaunchOptions, Server, Target};
use crate::command::expand;
use crate::{
    cassette::{self, Plan},
    error::Error,
    server_messages::ServerMessages,
    transport::{
        inbound::Inbound,
        process::{ChildProcess, Launch},
        stderr::StderrTail,
    },
};

/// Stands for the fixture directory in server args, env, cwd and url.
pub(crate) const FIXTURE_PLACEHOLDER: &str = "{{fixture}}";

/// Size of the in-memory pipe to an in-process server; each direction.
const PIPE_BYTES: usize = 256 * 1024;

pub(crate) enum Started {
    /// Newline-delimited JSON-RPC over a pair of byte streams.
    Stream(Streams),
    /// Streamable HTTP at this (substituted) address.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Http(HttpSpec, Arc<Inbound>),
}

pub(crate) struct Streams {
    pub(crate) read: Box<dyn AsyncRead + Send + Unpin>,
    pub(crate) write: Box<dyn AsyncWrite + Send + Unpin>,
    pub(crate) inbound: Arc<Inbound>,
    pub(crate) in_process: Option<JoinHandle<()>>,
}

/// Starts the server (spawns the process, or the in-process task); for HTTP,
/// only resolves the address. A cassette in replay starts no server at all,
/// and one that records taps the connection's streams.
pub(crate) fn start(server: &Server, notifications: ServerMessages) -> Result<Started, Error> {
    let plan = match &server.options.cassette {
        Some(spec) => spec.plan()?,
        None => Plan::Off,
    };
    match plan {
        Plan::Off => start_server(server, notifications),
        Plan::Replay(tape) => {
            let (client_io, server_io) = tokio::io::duplex(PIPE_BYTES);
            let log = Arc::new(StderrTail::default());
            let task = tokio::spawn(cassette::replay(server_io, tape, log.clone()));
            let (read, write) = tokio::io::split(client_io);
            Ok(Started::Stream(Streams {
                read: Box::new(read),
                write: Box::new(write),
                inbound: Arc::new(Inbound::new(notifications, None, Some(log))),
                in_process: Some(task),
            }))
        }
        Plan::Record(recorder) => {
            if server.is_http() {
                return Err(Error::InvalidConfig {
                    message: "a cassette records a command, an in-process server (stdio) or \
                              an HTTP+SSE server, not a Streamable HTTP connection"
                        .into(),
                });
            }
            match start_server(server, notifications)? {
                Started::Stream(streams) => {
                    let (read, write) = recorder.wrap(streams.read, streams.write);
                    Ok(Started::Stream(Streams {
                        read,
                        write,
                        ..streams
                    }))
                }
                http => Ok(http),
            }
        }
    }
}

fn start_server(server: &Server, notifications: ServerMessages) -> Result<Started, Error> {
    let options = &server.options;
    if !matches!(server.target, Target::BadCommand { .. }) {
        server.check_options_apply()?;
    }
    match &server.target {
        Target::BadCommand { input, reason } => Err(Error::InvalidCommand {
            input: input.clone(),
            reason: reason.clone(),
        }),
        Target::Command(spec) => start_command(spec, options, notifications),
        Target::InProcess(start, _) => {
            let (client_io, server_io) = tokio::io::duplex(PIPE_BYTES);
            // The in-process server has no stderr; its task reports failures here.
            let log = Arc::new(StderrTail::default());
            let task = start(server_io, log.clone());
            let (read, write) = tokio::io::split(client_io);
            Ok(Started::Stream(Streams {
                read: Box::new(read),
                write: Box::new(write),
                inbound: Arc::new(Inbound::new(notifications, None, Some(log))),
                in_process: Some(task),
            }))
        }
        #[cfg(feature = "http")]
        Target::Url(spec) if spec.legacy_sse => start_sse(server, spec, notifications),
        Target::Url(spec) => {
            let spec = HttpSpec {
                url: substitute_fixture(&spec.url, options),
                ..spec.clone()
            };
            Ok(Started::Http(
                spec,
                Arc::new(Inbound::new(notifications, None, None)),
            ))
        }
    }
}

/// A server process: its command, in a container when one is asked for.
fn start_command(
    spec: &super::CommandSpec,
    options: &LaunchOptions,
    notifications: ServerMessages,
) -> Result<Started, Error> {
    let fixture = |value: &str| substitute_fixture(value, options);
    let expand = |value: &str, dialect| {
        expand(&fixture(value), |name| std::env::var(name).ok(), dialect)
            .map_err(|message| Error::InvalidConfig { message })
    };
    let env = spec
        .env
        .iter()
        .map(|(k, v, dialect)| Ok((k.clone(), expand(v, *dialect)?)))
        .collect::<Result<Vec<_>, Error>>()?;
    let program = fixture(&spec.program);
    let args: Vec<String> = spec.args.iter().map(|a| fixture(a)).collect();
    let current_dir = spec
        .current_dir
        .as_ref()
        .map(|d| std::path::PathBuf::from(fixture(&d.to_string_lossy())));
    let launch = match &spec.container {
        None => Launch {
            program,
            args,
            env,
            current_dir,
        },
        // The environment and the working directory are the
        // container's; the runtime itself runs as mcptest does.
        Some(container) => Launch {
            program: super::container::runtime(container)?,
            args: super::container::run_args(
                &container.image,
                &program,
                &args,
                &env,
                options.fixture_dir.as_deref(),
                current_dir.as_deref(),
            ),
            env: Vec::new(),
            current_dir: None,
        },
    };
    // Tied to the spawning thread (a shared server's is the
    // registry's, which lives as long as the test binary).
    let spawned = ChildProcess::spawn(&launch)?;
    let process = Arc::new(spawned.process);
    let stderr = StderrTail::spawn_reader(spawned.stderr);
    Ok(Started::Stream(Streams {
        read: Box::new(spawned.stdout),
        write: Box::new(spawned.stdin),
        inbound: Arc::new(Inbound::new(notifications, Some(process), Some(stderr))),
        in_process: None,
    }))
}

/// A session with an HTTP+SSE server, through the bridge that makes it a
/// pair of line streams.
#[cfg(feature = "http")]
fn start_sse(
    server: &Server,
    spec: &HttpSpec,
    notifications: ServerMessages,
) -> Result<Started, Error> {
    let spec = HttpSpec {
        url: substitute_fixture(&spec.url, &server.options),
        ..spec.clone()
    };
    // What the bridge has to say (refused POSTs) stands in for the
    // server's stderr, as an in-process server's log does.
    let log = Arc::new(StderrTail::default());
    let inbound = Arc::new(Inbound::new(notifications, None, Some(log.clone())));
    let (client_io, task) = super::sse::start(
        &spec,
        super::sse::Bounds {
            connect_timeout: server.client.connect_timeout,
            request_timeout: server.client.request_timeout,
            max_message: server.options.max_message_size,
        },
        inbound.clone(),
        log,
        PIPE_BYTES,
    )?;
    let (read, write) = tokio::io::split(client_io);
    Ok(Started::Stream(Streams {
        read: Box::new(read),
        write: Box::new(write),
        inbound,
        in_process: Some(task),
    }))
}

/// Replaces `{{fixture}}` with the fixture directory, when there is one.
pub(crate) fn substitute_fixture(value: &str, options: &LaunchOptions) -> String {
    match &options.fixture_dir {
        Some(dir) if value.contains(FIXTURE_PLACEHOLDER) => {
            value.replace(FIXTURE_PLACEHOLDER, &dir.to_string_lossy())
        }
        _ => value.to_owned(),
    }
}
