//! The server under test: where it is and how to start it. How the client
//! behaves towards it (timeouts, protocol version, the sampling / roots /
//! elicitation mocks) belongs to [`crate::client`]; a [`Server`] carries both
//! so one builder configures a test, and [`Server::connect`] is launch, then
//! the client's handshake.

mod connect;
pub(crate) mod container;
#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod launch;
pub(crate) mod shared;
#[cfg(feature = "http")]
pub(crate) mod sse;

use std::{fmt, path::PathBuf, sync::Arc, time::Duration};

use rmcp::{
    ServerHandler,
    model::{ClientCapabilities, Implementation},
};
use tokio::{io::DuplexStream, task::JoinHandle};

use crate::{
    cassette::{CassetteMode, CassetteSpec},
    client::{
        McpClient,
        answers::{Elicitation, Roots, Sampling},
        options::ClientOptions,
    },
    error::Error,
    transport::stderr::StderrTail,
};

/// How to reach an MCP server, and how the test client behaves towards it.
///
/// Build one, adjust it with the chained options, then [`connect`](Server::connect).
/// Building never fails; a bad command line or option is reported by
/// `connect` as an [`Error`]. A `Server` is a recipe: cloning it and connecting
/// again starts a fresh server.
///
/// ```no_run
/// use std::time::Duration;
/// use mcptest::{Sampling, Server};
///
/// # async fn demo() -> Result<(), mcptest::Error> {
/// let mcp = Server::command("npx -y @modelcontextprotocol/server-everything")
///     .env("LOG_LEVEL", "${LOG_LEVEL:-info}")
///     .timeout(Duration::from_secs(10))
///     .sampling(Sampling::text("a mocked model reply"))
///     .connect()
///     .await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
#[must_use = "a Server only says how to reach the server under test: `.connect().await` it"]
pub struct Server {
    pub(crate) target: Target,
    pub(crate) options: LaunchOptions,
    /// How the client behaves towards it (timeouts, version, mocks).
    pub(crate) client: ClientOptions,
    /// Options given that do not apply to the target (`.env` on a URL, ...),
    /// reported by `connect` as [`Error::InvalidConfig`] rather than dropped.
    pub(crate) misapplied: Vec<&'static str>,
    /// Connect to one server per configuration for the whole test binary
    /// (see [`Server::shared`]).
    pub(crate) shared: bool,
}

#[derive(Clone)]
pub(crate) enum Target {
    Command(CommandSpec),
    /// A command line that could not be split; reported at connect time.
    BadCommand {
        input: String,
        reason: String,
    },
    /// Streamable HTTP, or the legacy HTTP+SSE transport (`legacy_sse`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Url(HttpSpec),
    /// How to serve one connection, and the handler's type (the shared-server
    /// key; `None` for a server known only by its start function).
    InProcess(StartInProcess, Option<&'static str>),
}

#[derive(Clone, Debug)]
pub(crate) struct CommandSpec {
    pub(crate) program: String,
    pub(crate) args: Vec<String>,
    /// Name, value as given, and how the value's references are read.
    pub(crate) env: Vec<(String, String, crate::command::EnvDialect)>,
    pub(crate) current_dir: Option<PathBuf>,
    /// Run the command in a container of this image instead.
    pub(crate) container: Option<container::ContainerSpec>,
}

#[derive(Clone)]
pub(crate) struct HttpSpec {
    pub(crate) url: String,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) bearer_env: Option<String>,
    /// The client-credentials grant to obtain a token with, when connecting.
    #[cfg(feature = "http")]
    pub(crate) credentials: Option<crate::oauth::ClientCredentials>,
    /// The legacy HTTP+SSE transport of 2024-11-05 (GET an event stream,
    /// POST to the endpoint it names) rather than Streamable HTTP.
    pub(crate) legacy_sse: bool,
}

/// Header values may be credentials (an `Authorization` header, an API
/// key, the token a client-credentials grant obtained): only their names
/// are shown.
impl fmt::Debug for HttpSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("HttpSpec");
        d.field("url", &self.url)
            .field(
                "headers",
                &self
                    .headers
                    .iter()
                    .map(|(name, _)| format!("{name}: [redacted]"))
                    .collect::<Vec<_>>(),
            )
            .field("bearer_env", &self.bearer_env);
        #[cfg(feature = "http")]
        d.field("credentials", &self.credentials);
        d.field("legacy_sse", &self.legacy_sse).finish()
    }
}

/// Starts an in-process server on one end of a pipe; returns its task.
pub(crate) type StartInProcess =
    Arc<dyn Fn(DuplexStream, Arc<StderrTail>) -> JoinHandle<()> + Send + Sync>;

/// How the server is started: what [`launch`] needs besides the target.
#[derive(Clone)]
pub(crate) struct LaunchOptions {
    pub(crate) shutdown_grace: Duration,
    pub(crate) max_message_size: usize,
    pub(crate) fixture_dir: Option<Arc<std::path::Path>>,
    pub(crate) cassette: Option<CassetteSpec>,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            shutdown_grace: Duration::from_secs(1),
            max_message_size: 16 * 1024 * 1024,
            fixture_dir: None,
            cassette: None,
        }
    }
}

impl Server {
    /// Kills the process group of every server process (and plugin) this
    /// program started and has not yet reaped, and says how many there were.
    ///
    /// For a program about to exit on a signal, whose destructors will not
    /// run: servers run in process groups of their own, so a terminal's
    /// Ctrl-C does not reach them, and without this they would outlive it.
    /// `mcptest` calls it on SIGINT and SIGTERM. A test binary has no need:
    /// its clients stop their servers when dropped.
    ///
    /// ```no_run
    /// # async fn demo() -> std::io::Result<()> {
    /// tokio::signal::ctrl_c().await?;
    /// let killed = mcptest::Server::kill_all();
    /// eprintln!("interrupted; killed {killed} servers");
    /// std::process::exit(130);
    /// # }
    /// ```
    pub fn kill_all() -> usize {
        crate::transport::process::kill_all()
    }

    fn with_target(target: Target) -> Self {
        Server {
            target,
            options: LaunchOptions::default(),
            client: ClientOptions::default(),
            misapplied: Vec::new(),
            shared: false,
        }
    }

    /// A server started from a command line, split into words like a shell
    /// does (quotes group words) but never run through a shell.
    ///
    /// An unbalanced quote or an empty command is reported by
    /// [`connect`](Server::connect) as [`Error::InvalidCommand`].
    pub fn command(command_line: &str) -> Self {
        match crate::command::split(command_line) {
            Ok((program, args)) => Server::with_target(Target::Command(CommandSpec {
                program,
                args,
                env: Vec::new(),
                current_dir: None,
                container: None,
            })),
            Err(Error::InvalidCommand { input, reason }) => {
                Server::with_target(Target::BadCommand { input, reason })
            }
            Err(other) => unreachable!("split only fails with InvalidCommand: {other}"),
        }
    }

    /// A server started from a program path, with arguments added by
    /// [`arg`](Server::arg) / [`args`](Server::args).
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), mcptest::Error> {
    /// // in an integration test: env!("CARGO_BIN_EXE_my-server")
    /// let mcp = mcptest::Server::program("target/debug/my-server")
    ///     .args(["--stdio"])
    ///     .current_dir("tests/fixtures")
    ///     .connect()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn program(program: impl Into<PathBuf>) -> Self {
        Server::with_target(Target::Command(CommandSpec {
            program: program.into().to_string_lossy().into_owned(),
            args: Vec::new(),
            env: Vec::new(),
            current_dir: None,
            container: None,
        }))
    }

    /// A server already listening for Streamable HTTP at `url`.
    #[cfg(feature = "http")]
    pub fn url(url: impl Into<String>) -> Self {
        Server::with_target(Target::Url(HttpSpec {
            url: url.into(),
            headers: Vec::new(),
            bearer_env: None,
            credentials: None,
            legacy_sse: false,
        }))
    }

    /// A server already listening at `url` for the legacy HTTP+SSE
    /// transport of protocol 2024-11-05: the client opens an event stream
    /// with `GET url`, the server's first event (`endpoint`) names where to
    /// POST each message, and every message of the server arrives as a
    /// `message` event on the stream.
    ///
    /// It takes the options of [`Server::url`] ([`header`](Server::header),
    /// [`bearer_token_env`](Server::bearer_token_env),
    /// [`client_credentials`](Server::client_credentials)), sent with the
    /// GET and with every POST, and is bounded like every transport:
    /// [`connect_timeout`](Server::connect_timeout) covers the GET and the
    /// `endpoint` event, [`timeout`](Server::timeout) each POST, and
    /// [`max_message_size`](Server::max_message_size) each event. A stream
    /// that ends or breaks ends the connection with the reason: the
    /// transport has no way to resume a session, so nothing reconnects.
    /// The messages travel as over stdio, so [`RawConnection`](crate::RawConnection)
    /// and cassettes work on it too.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), mcptest::Error> {
    /// let mcp = mcptest::Server::sse("http://127.0.0.1:8000/sse")
    ///     .header("X-Tenant", "t1")
    ///     .connect()
    ///     .await?;
    /// mcp.ping().await?;
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "http")]
    pub fn sse(url: impl Into<String>) -> Self {
        Server::with_target(Target::Url(HttpSpec {
            url: url.into(),
            headers: Vec::new(),
            bearer_env: None,
            credentials: None,
            legacy_sse: true,
        }))
    }

    /// Without the `http` feature: a compile error that says to turn it on.
    #[cfg(not(feature = "http"))]
    #[doc(hidden)]
    pub fn url<'a>(_url: impl Into<String>) -> Self
    where
        &'a (): crate::needs::Http,
    {
        unreachable!("no type implements needs::Http without the `http` feature")
    }

    /// Without the `http` feature: a compile error that says to turn it on.
    #[cfg(not(feature = "http"))]
    #[doc(hidden)]
    pub fn sse<'a>(_url: impl Into<String>) -> Self
    where
        &'a (): crate::needs::Http,
    {
        unreachable!("no type implements needs::Http without the `http` feature")
    }

    /// Whether the server is reached over Streamable HTTP (made with
    /// [`Server::url`]) rather than started as a process, in-process, or
    /// over the legacy HTTP+SSE transport ([`Server::sse`]).
    ///
    /// ```
    /// assert!(!mcptest::Server::command("my-server").is_http());
    /// ```
    pub fn is_http(&self) -> bool {
        matches!(&self.target, Target::Url(spec) if !spec.legacy_sse)
    }

    /// Whether the server is started as a process of its own (made with
    /// [`Server::command`] or [`Server::program`]): the servers that
    /// [`container`](Server::container) applies to.
    ///
    /// ```
    /// assert!(mcptest::Server::command("my-server").is_process());
    /// ```
    pub fn is_process(&self) -> bool {
        matches!(&self.target, Target::Command(_) | Target::BadCommand { .. })
    }

    /// Whether the server is reached over the legacy HTTP+SSE transport
    /// (made with [`Server::sse`]).
    ///
    /// ```
    /// assert!(!mcptest::Server::command("my-server").is_sse());
    /// ```
    pub fn is_sse(&self) -> bool {
        matches!(&self.target, Target::Url(spec) if spec.legacy_sse)
    }

    /// Any rmcp [`ServerHandler`], hosted in this process over an in-memory
    /// pipe: no subprocess, so tests run in microseconds and under a debugger.
    /// Each [`connect`](Server::connect) serves a fresh clone of `handler`.
    ///
    /// ```
    /// use mcptest::Server;
    /// use mcptest::rmcp::{ServerHandler, model::ServerInfo};
    ///
    /// #[derive(Clone)]
    /// struct Quiet;
    /// impl ServerHandler for Quiet {}
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcptest::Error> {
    /// let mcp = Server::in_process(Quiet).connect().await?;
    /// mcp.ping().await?;
    /// # Ok(()) }
    /// ```
    pub fn in_process<H: ServerHandler + Clone>(handler: H) -> Self {
        Server::in_process_with(move || handler.clone())
    }

    /// Like [`in_process`](Server::in_process) for handlers that are not
    /// `Clone`: `factory` makes the handler for each connection.
    pub fn in_process_with<H, F>(factory: F) -> Self
    where
        H: ServerHandler,
        F: Fn() -> H + Send + Sync + 'static,
    {
        let start: StartInProcess = Arc::new(move |io, log| {
            let handler = factory();
            tokio::spawn(async move {
                match rmcp::serve_server(handler, io).await {
                    Ok(service) => {
                        if let Err(e) = service.waiting().await {
                            log.push(format!("in-process server task failed: {e}\n").as_bytes());
                        }
                    }
                    Err(e) => {
                        log.push(
                            format!("in-process server stopped during the handshake: {e}\n")
                                .as_bytes(),
                        );
                    }
                }
            })
        });
        Server::with_target(Target::InProcess(start, Some(std::any::type_name::<H>())))
    }

    /// A server hosted in this process that speaks newline-delimited
    /// JSON-RPC itself, without rmcp: `start` is called once per connection
    /// with one end of an in-memory pipe and the log that stands in for the
    /// server's stderr (shown in failure messages), and returns the task
    /// serving it.
    ///
    /// ```
    /// use mcptest::Server;
    /// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    ///
    /// // A server that only ever says "no such method".
    /// let server = Server::in_process_stream(|io, log| {
    ///     tokio::spawn(async move {
    ///         let (read, mut write) = tokio::io::split(io);
    ///         let mut lines = BufReader::new(read).lines();
    ///         while let Ok(Some(line)) = lines.next_line().await {
    ///             log.push(format!("got {line}\n").as_bytes());
    ///             let id = serde_json::from_str::<serde_json::Value>(&line).ok()
    ///                 .and_then(|m| m.get("id").cloned());
    ///             if let Some(id) = id {
    ///                 let answer = serde_json::json!({"jsonrpc": "2.0", "id": id,
    ///                     "error": {"code": -32601, "message": "no"}});
    ///                 let _ = write.write_all(format!("{answer}\n").as_bytes()).await;
    ///             }
    ///         }
    ///     })
    /// });
    /// # drop(server);
    /// ```
    pub fn in_process_stream<F>(start: F) -> Self
    where
        F: Fn(DuplexStream, Arc<StderrTail>) -> JoinHandle<()> + Send + Sync + 'static,
    {
        Server::with_target(Target::InProcess(Arc::new(start), None))
    }

    /// Adds one argument (for [`Server::program`] and [`Server::command`]).
    pub fn arg(mut self, arg: impl AsRef<std::ffi::OsStr>) -> Self {
        if let Target::Command(spec) = &mut self.target {
            spec.args.push(arg.as_ref().to_string_lossy().into_owned());
        } else {
            self.misapplied.push("arg");
        }
        self
    }

    /// Adds arguments (for [`Server::program`] and [`Server::command`]).
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        if let Target::Command(spec) = &mut self.target {
            spec.args.extend(
                args.into_iter()
                    .map(|a| a.as_ref().to_string_lossy().into_owned()),
            );
        } else {
            self.misapplied.push("args");
        }
        self
    }

    /// Sets an environment variable for the server process. The value may use
    /// `${VAR}` and `${VAR:-default}`, expanded from the test's environment when
    /// connecting; an unset variable without a default is an error.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        if let Target::Command(spec) = &mut self.target {
            spec.env
                .push((key.into(), value.into(), crate::command::EnvDialect::Strict));
        } else {
            self.misapplied.push("env");
        }
        self
    }

    /// Like [`Server::env`], but the value is read the way mcp-assert's
    /// suite files read it (Go's `os.ExpandEnv` plus `${VAR:-default}`):
    /// `$VAR` expands too, an unset variable becomes "", a malformed `${..}`
    /// is dropped. Expanded once, when the server starts.
    ///
    /// ```
    /// let server = mcptest::Server::command("my-server").env_lenient("HOME_DIR", "$HOME/x");
    /// # drop(server);
    /// ```
    pub fn env_lenient(mut self, key: &str, value: &str) -> Self {
        if let Target::Command(spec) = &mut self.target {
            spec.env.push((
                key.to_owned(),
                value.to_owned(),
                crate::command::EnvDialect::Lenient,
            ));
        } else {
            self.misapplied.push("env");
        }
        self
    }

    /// The server process's working directory.
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        if let Target::Command(spec) = &mut self.target {
            spec.current_dir = Some(dir.into());
        } else {
            self.misapplied.push("current_dir");
        }
        self
    }

    /// Runs the command in a fresh container of `image`, removed when it
    /// ends: `docker run --rm -i [-v FIXTURE:FIXTURE] [-e KEY=VALUE]… IMAGE
    /// PROGRAM ARGS…` — the fixture directory mounted at its own path,
    /// the [`env`](Server::env) variables passed with `-e` (sorted by name),
    /// the [`current_dir`](Server::current_dir), if any, as `-w`. The
    /// runtime is `docker`, or `podman` when `docker` is not on `PATH`
    /// (see [`container_runtime`](Server::container_runtime)).
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), mcptest::Error> {
    /// let mcp = mcptest::Server::command("my-server --root {{fixture}}")
    ///     .container("ghcr.io/me/my-server:1.2")
    ///     .fixture_dir("/tmp/copy-of-fixtures")
    ///     .connect()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn container(mut self, image: impl Into<String>) -> Self {
        if let Target::Command(spec) = &mut self.target {
            let runtime = spec.container.take().and_then(|c| c.runtime);
            spec.container = Some(container::ContainerSpec {
                image: image.into(),
                runtime,
            });
        } else {
            self.misapplied.push("container");
        }
        self
    }

    /// The program that runs the [`container`](Server::container) (a name
    /// looked up on `PATH`, or a path) instead of `docker`-else-`podman`:
    /// any program that takes `docker run`'s arguments.
    ///
    /// ```
    /// let server = mcptest::Server::command("my-server")
    ///     .container("my-image")
    ///     .container_runtime("podman");
    /// # drop(server);
    /// ```
    pub fn container_runtime(mut self, program: impl Into<String>) -> Self {
        match &mut self.target {
            Target::Command(CommandSpec {
                container: Some(container),
                ..
            }) => container.runtime = Some(program.into()),
            Target::Command(_) => self.misapplied.push("container_runtime without container"),
            _ => self.misapplied.push("container_runtime"),
        }
        self
    }

    /// Adds an HTTP header to every request (for [`Server::url`]). The value
    /// may use `${VAR}` like [`env`](Server::env) values.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        if let Target::Url(spec) = &mut self.target {
            spec.headers.push((name.into(), value.into()));
        } else {
            self.misapplied.push("header");
        }
        self
    }

    /// Sends `Authorization: Bearer <token>` with the token read from the
    /// environment variable `var` when connecting (for [`Server::url`]).
    pub fn bearer_token_env(mut self, var: impl Into<String>) -> Self {
        if let Target::Url(spec) = &mut self.target {
            spec.bearer_env = Some(var.into());
        } else {
            self.misapplied.push("bearer_token_env");
        }
        self
    }

    /// Obtains the bearer token itself when connecting (for [`Server::url`]):
    /// asks the server without a token, reads the Protected Resource
    /// Metadata its `WWW-Authenticate` names (RFC 9728), and runs the
    /// client-credentials grant at the first authorization server listed
    /// there, for this resource (RFC 8707). A refusal anywhere is an
    /// [`Error::InvalidConfig`](crate::Error::InvalidConfig) that names the
    /// step and the URL.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), mcptest::Error> {
    /// use mcptest::Server;
    ///
    /// let client = Server::url("http://127.0.0.1:3001/mcp")
    ///     .client_credentials("my-client", "my-secret")
    ///     .connect()
    ///     .await?;
    /// client.call_tool("echo", serde_json::json!({"message": "hi"})).await.assert_success();
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "http")]
    pub fn client_credentials(self, id: impl Into<String>, secret: impl Into<String>) -> Self {
        self.oauth_client(crate::oauth::ClientCredentials::new(id, secret))
    }

    /// Without the `http` feature: a compile error that says to turn it on.
    #[cfg(not(feature = "http"))]
    #[doc(hidden)]
    pub fn client_credentials<'a>(self, _id: impl Into<String>, _secret: impl Into<String>) -> Self
    where
        &'a (): crate::needs::Http,
    {
        unreachable!("no type implements needs::Http without the `http` feature")
    }

    /// [`client_credentials`](Self::client_credentials) with credentials
    /// built beforehand (to ask for a scope).
    #[cfg(feature = "http")]
    pub fn oauth_client(mut self, credentials: crate::oauth::ClientCredentials) -> Self {
        if let Target::Url(spec) = &mut self.target {
            spec.credentials = Some(credentials);
        } else {
            self.misapplied.push("client_credentials");
        }
        self
    }

    /// The client credentials given with
    /// [`client_credentials`](Self::client_credentials), if any.
    #[cfg(feature = "http")]
    pub fn credentials(&self) -> Option<&crate::oauth::ClientCredentials> {
        match &self.target {
            Target::Url(spec) => spec.credentials.as_ref(),
            _ => None,
        }
    }

    /// Runs the client-credentials grant now, when one was given: the
    /// server with the token as its `Authorization` header (and the grant
    /// dropped). [`connect`](Self::connect) does this itself; call it
    /// before [`RawHttp::open`](crate::RawHttp::open), which cannot wait.
    #[cfg(feature = "http")]
    pub fn authorize(mut self) -> impl Future<Output = Result<Server, crate::error::Error>> + Send {
        crate::future::boxed(async move {
            if let Target::Url(spec) = &mut self.target
                && let Some(credentials) = spec.credentials.take()
            {
                let url = launch::substitute_fixture(&spec.url, &self.options);
                let timeout = self.client.request_timeout;
                let token = if credentials.token_url.is_some() {
                    crate::oauth::token_at(&credentials, &url, timeout).await?
                } else {
                    let found = match spec.legacy_sse {
                        true => crate::oauth::Discovery::find_sse(&url, timeout).await?,
                        false => crate::oauth::Discovery::find(&url, timeout).await?,
                    };
                    found.token(&credentials, None, None).await?
                };
                spec.headers
                    .push(("Authorization".into(), format!("Bearer {token}")));
            }
            Ok(self)
        })
    }

    /// How long each request may take (default 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.client.request_timeout = timeout;
        self
    }

    /// How long starting the server and the handshake may take (default 30 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.client.connect_timeout = timeout;
        self
    }

    /// How long a server gets to exit after its stdin is closed before its
    /// process group is killed (default 1 s).
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.options.shutdown_grace = grace;
        self
    }

    /// The protocol version to speak (default [`DEFAULT_PROTOCOL_VERSION`](crate::DEFAULT_PROTOCOL_VERSION)).
    /// `"2026-07-28"` connects statelessly through `server/discover`; any other
    /// string is offered in `initialize` as is, so version negotiation can be
    /// tested.
    pub fn protocol_version(mut self, version: impl Into<String>) -> Self {
        self.client.protocol_version = version.into();
        self
    }

    /// The `clientInfo` the client presents (default `mcptest` and its version).
    pub fn client_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.client.client_info = Implementation::new(name, version);
        self
    }

    /// Declares exactly these client capabilities instead of the ones derived
    /// from the mocks (sampling, roots, elicitation).
    pub fn capabilities(mut self, capabilities: ClientCapabilities) -> Self {
        self.client.capabilities = Some(capabilities);
        self
    }

    /// Answers `sampling/createMessage` and declares the sampling capability.
    pub fn sampling(mut self, sampling: Sampling) -> Self {
        self.client.sampling = Some(sampling);
        self
    }

    /// Answers `roots/list` and declares the roots capability.
    pub fn roots(mut self, roots: Roots) -> Self {
        self.client.roots = Some(roots);
        self
    }

    /// Answers `elicitation/create` and declares the elicitation capability.
    pub fn elicitation(mut self, elicitation: Elicitation) -> Self {
        self.client.elicitation = Some(elicitation);
        self
    }

    /// The largest message accepted from the server (default 16 MiB); a larger
    /// one ends the connection with [`Error::Transport`].
    pub fn max_message_size(mut self, bytes: usize) -> Self {
        self.options.max_message_size = bytes;
        self
    }

    /// What happens when a message the server sends breaks the official MCP
    /// schema of the session's revision ([`WireSchema`](crate::WireSchema)):
    /// by default the test fails — the request the message answers fails with
    /// [`Error::SchemaViolation`](crate::Error::SchemaViolation), and a
    /// notification or request of the server that breaks it fails the test
    /// when the client is closed. `Warn` prints each violation and goes on;
    /// `Off` checks nothing.
    ///
    /// ```
    /// use mcptest::{Server, WireSchema};
    /// // A server whose messages are known to break the schema, while it gets fixed.
    /// let server = Server::command("legacy-server").wire_schema(WireSchema::Warn);
    /// # drop(server);
    /// ```
    pub fn wire_schema(mut self, mode: crate::wire_schema::WireSchema) -> Self {
        self.client.wire_schema = mode;
        self
    }

    /// Whether a [`ToolCall`](crate::ToolCall) may learn its tool's declared
    /// definition (for [`matches_output_schema`](crate::expect::matches_output_schema))
    /// by fetching `tools/list` (default true). The list is fetched lazily:
    /// only when a call is answered with `structuredContent` and this
    /// connection has no current list (none listed yet, or
    /// `tools/list_changed` since), at most once per change. A list the test
    /// fetched itself with [`McpClient::list_tools`] is reused. Turn it off
    /// when the test counts every request.
    pub fn fetch_tool_definitions(mut self, fetch: bool) -> Self {
        self.client.fetch_tool_definitions = fetch;
        self
    }

    /// The test's fixture directory (usually a fresh copy made for this test).
    /// `{{fixture}}` in the program, arguments, environment values, working
    /// directory and URL is replaced by its path when connecting, and results
    /// know it, so checks on files can resolve relative paths against it.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), mcptest::Error> {
    /// let mcp = mcptest::Server::command("my-fs-server --root {{fixture}}")
    ///     .fixture_dir("/tmp/copy-of-fixtures")
    ///     .connect()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn fixture_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.options.fixture_dir = Some(Arc::from(dir.into()));
        self
    }

    /// An error naming the options given that do not apply to this kind of
    /// server, e.g. `.env(..)` on a URL: silently ignoring them would let a
    /// test pass against a server configured otherwise than it says.
    /// Records the session to a cassette file, or replays one without
    /// starting the server; see [`cassette`](crate::cassette).
    ///
    /// ```no_run
    /// use mcptest::{CassetteMode, Server};
    /// # async fn demo() -> Result<(), mcptest::Error> {
    /// let mcp = Server::command("my-mcp-server --stdio")
    ///     .cassette("tests/cassettes/session.json", CassetteMode::Auto)
    ///     .connect()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn cassette(mut self, path: impl Into<PathBuf>, mode: CassetteMode) -> Self {
        let redact = self
            .options
            .cassette
            .take()
            .map(|c| c.redact)
            .unwrap_or_default();
        self.options.cassette = Some(CassetteSpec {
            path: path.into(),
            mode,
            redact,
        });
        self
    }

    /// Payload fields whose values never reach a cassette file: every
    /// object member with one of these names, at any depth, is written as
    /// `"[redacted]"`. Applies to [`cassette`](Self::cassette), in either order.
    pub fn cassette_redact<I, S>(mut self, fields: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let spec = self.options.cassette.get_or_insert_with(|| CassetteSpec {
            path: PathBuf::new(),
            mode: CassetteMode::Off,
            redact: Vec::new(),
        });
        spec.redact.extend(fields.into_iter().map(Into::into));
        self
    }

    pub(crate) fn check_options_apply(&self) -> Result<(), Error> {
        if self.misapplied.is_empty() {
            return Ok(());
        }
        let (kind, applies) = match &self.target {
            Target::Command(_) | Target::BadCommand { .. } => (
                "a command",
                "`header`, `bearer_token_env` and `client_credentials` apply to Server::url and Server::sse; \
                 `container_runtime` follows `container`",
            ),
            Target::Url(_) => (
                "a URL",
                "`arg`, `args`, `env`, `current_dir` and `container` apply to a server process (Server::command or Server::program)",
            ),
            Target::InProcess(..) => (
                "an in-process handler",
                "`arg`, `args`, `env`, `current_dir` and `container` apply to a server process, \
                 `header`, `bearer_token_env` and `client_credentials` to Server::url and Server::sse",
            ),
        };
        let mut named: Vec<&str> = Vec::new();
        for option in &self.misapplied {
            if !named.contains(option) {
                named.push(option);
            }
        }
        Err(Error::InvalidConfig {
            message: format!(
                "{} given for {kind} ({self:?}), where {} no effect; {applies}",
                named
                    .iter()
                    .map(|o| format!("`{o}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if named.len() == 1 {
                    "it has"
                } else {
                    "they have"
                },
            ),
        })
    }

    /// Shares one server among every test of this test binary that connects
    /// with the same configuration, instead of starting one per test.
    ///
    /// The first [`connect`](Server::connect) starts the server on a runtime
    /// of mcptest's own that outlives each test's runtime; later ones reuse
    /// it. The server is stopped and reaped when the test binary exits (also
    /// after panicking tests; on Linux the kernel also stops it if the binary
    /// dies without running exit hooks). A server that died is started afresh
    /// for the next test; the test that saw it die fails with
    /// [`Error::ServerExited`] as usual.
    ///
    /// **The same configuration** means: the same command line, environment
    /// (as written) and working directory, or for [`in_process`](Server::in_process)
    /// the same handler *type*; the same protocol version, client info,
    /// capabilities and mocks (a fixed answer by content, a `handler` mock by
    /// identity: clones of one share); the same shutdown grace and message
    /// size limit. [`timeout`](Server::timeout), [`connect_timeout`](Server::connect_timeout)
    /// (it bounds the start only for the test that starts the server) and
    /// [`fetch_tool_definitions`](Server::fetch_tool_definitions) may differ per test.
    ///
    /// **Isolated** per test over stdio and in-process, where the connection
    /// is shared and each test gets its own [`McpClient`] on it: the answers
    /// to its requests (by request id), the progress of its requests (by
    /// progress token, in the call and in [`McpClient::server_messages`]), its
    /// timeouts, its cached tool definitions, [`ServerMessages::clear`](crate::ServerMessages::clear),
    /// and [`McpClient::close`] (which closes only the test's view).
    /// **Not isolated**: the server's state (what one test changes, the next
    /// finds), log level and subscriptions; what the server sends on its own
    /// (log messages, `list_changed`, resource updates, requests to the client,
    /// answered by the mocks of the test that started it) — each test's
    /// notifications show these from the moment it connected, marked
    /// [`shared`](crate::ServerMessage::shared); the stderr tail in failures;
    /// the pid. Over Streamable HTTP ([`Server::url`]) each test opens a
    /// session of its own, so what the server keeps per session is isolated.
    ///
    /// A fixture directory or a cassette cannot be shared (a fresh copy or a
    /// tape per test, but one server): either with `shared` is an
    /// [`Error::InvalidConfig`] at connect. Under a runner that starts a
    /// process per test, each process starts its own server: correct, but
    /// nothing is saved.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), mcptest::Error> {
    /// // in every test that may share it:
    /// let mcp = mcptest::Server::command("python -m my_slow_server").shared().connect().await?;
    /// mcp.ping().await?;
    /// mcp.close().await; // closes this test's view; the server keeps running
    /// # Ok(()) }
    /// ```
    pub fn shared(mut self) -> Self {
        self.shared = true;
        self
    }

    /// Starts (or dials) the server and performs the handshake; for a
    /// [`shared`](Server::shared) server, reuses the running one.
    pub fn connect<'a>(&'a self) -> impl Future<Output = Result<McpClient, Error>> + Send + 'a {
        crate::future::boxed(async move {
            if self.shared {
                return shared::connect(self).await;
            }
            connect::connect(self).await
        })
    }
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.target {
            Target::Command(spec) => {
                let mut words = vec![spec.program.clone()];
                words.extend(spec.args.iter().cloned());
                write!(f, "Server::command({:?})", shell_words::join(words))?;
                match &spec.container {
                    Some(container) => write!(f, ".container({:?})", container.image),
                    None => Ok(()),
                }
            }
            Target::BadCommand { input, .. } => write!(f, "Server::command({input:?})"),
            Target::Url(spec) if spec.legacy_sse => write!(f, "Server::sse({:?})", spec.url),
            Target::Url(spec) => write!(f, "Server::url({:?})", spec.url),
            Target::InProcess(..) => f.write_str("Server::in_process(..)"),
        }
    }
}

impl fmt::Display for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.target {
            Target::Command(spec) => {
                let mut words = vec![spec.program.clone()];
                words.extend(spec.args.iter().cloned());
                f.write_str(&shell_words::join(words))?;
                match &spec.container {
                    Some(container) => write!(f, " (in a container of {})", container.image),
                    None => Ok(()),
                }
            }
            Target::BadCommand { input, .. } => f.write_str(input),
            Target::Url(spec) if spec.legacy_sse => write!(f, "{} (HTTP+SSE)", spec.url),
            Target::Url(spec) => f.write_str(&spec.url),
            Target::InProcess(..) => f.write_str("in-process server"),
        }
    }
}
