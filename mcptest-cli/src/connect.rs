//! How the commands that connect to one server name it and authorize:
//! `--server CMD`, `--url URL` (Streamable HTTP) or `--sse URL` (the legacy
//! HTTP+SSE transport), with the credentials flags every one of them takes.
//! The check that a `--server` names a program that exists, which every
//! command with `--server` makes, is here too.
//! A secret is never given on the command line itself: a bearer token and
//! a client secret are read from the environment variables the flags name,
//! and a `--header` value may say `${VAR}`.

use clap::Args;
use mcptest::{Server, suite::AuthSpec};

/// The server to connect to (exactly one of the three).
#[derive(Debug, Args)]
#[group(id = "target", required = true, multiple = false)]
pub struct TargetArgs {
    /// The server's command line (over stdio), split like a shell.
    #[arg(long, value_name = "CMD")]
    pub server: Option<String>,
    /// The server's Streamable HTTP URL.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// The URL of a server of the legacy HTTP+SSE transport (2024-11-05):
    /// its event stream, GET first.
    #[arg(long, value_name = "URL")]
    pub sse: Option<String>,
}

/// How to authorize with a server reached at a URL.
#[derive(Debug, Args, Default)]
pub struct AuthArgs {
    /// An HTTP header for every request, as `NAME: VALUE` (repeatable); the
    /// value may say `${VAR}`, read from the environment.
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub header: Vec<String>,
    /// The environment variable that holds a bearer token, sent as
    /// `Authorization: Bearer TOKEN`.
    #[arg(long, value_name = "VAR")]
    pub bearer_env: Option<String>,
    /// Obtain a token by the client-credentials grant, as this client: at
    /// the authorization server the server's Protected Resource Metadata
    /// names, or at --token-url.
    #[arg(long, value_name = "ID", requires = "client_secret_env")]
    pub client_id: Option<String>,
    /// The environment variable that holds the secret of --client-id.
    #[arg(long, value_name = "VAR", requires = "client_id")]
    pub client_secret_env: Option<String>,
    /// The token endpoint of the grant, instead of discovery.
    #[arg(long, value_name = "URL", requires = "client_id")]
    pub token_url: Option<String>,
}

impl TargetArgs {
    /// The server the flags name, authorized as `auth` says. A command is
    /// checked to exist, so a typo is a usage error and not an unhealthy
    /// server.
    pub fn server(&self, auth: &AuthArgs) -> Result<Server, String> {
        target(
            self.server.as_deref(),
            self.url.as_deref(),
            self.sse.as_deref(),
            auth,
        )
    }
}

/// The server of `--server CMD`, `--url URL` or `--sse URL`, with `auth`.
pub fn target(
    command: Option<&str>,
    url: Option<&str>,
    sse: Option<&str>,
    auth: &AuthArgs,
) -> Result<Server, String> {
    let server = match (command, url, sse) {
        (Some(command), _, _) => {
            check_server(command)?;
            if auth.given() {
                return Err(
                    "--header, --bearer-env and --client-id are for a server reached at a URL \
                     (--url or --sse); this one is a command (stdio)"
                        .into(),
                );
            }
            return Ok(Server::command(command));
        }
        (None, Some(url), _) => Server::url(check_url("--url", url)?),
        (None, None, Some(url)) => Server::sse(check_url("--sse", url)?),
        (None, None, None) => {
            return Err("give the server with --server CMD, --url URL or --sse URL".into());
        }
    };
    auth.apply(server)
}

fn check_url<'a>(flag: &str, url: &'a str) -> Result<&'a str, String> {
    if url.starts_with("http://") || url.starts_with("https://") {
        Ok(url)
    } else {
        Err(format!("{flag} {url:?}: not an http:// or https:// URL"))
    }
}

impl AuthArgs {
    /// Whether any credentials flag is given.
    pub fn given(&self) -> bool {
        !self.header.is_empty() || self.bearer_env.is_some() || self.client_id.is_some()
    }

    /// What the flags say, as the suite runner and every command read it.
    /// An error names a flag, never a value.
    pub fn spec(&self) -> Result<AuthSpec, String> {
        let mut headers = Vec::new();
        for header in &self.header {
            let Some((name, value)) = header.split_once(':') else {
                return Err(format!(
                    "--header {:?}: write it as `NAME: VALUE`",
                    header.split('=').next().unwrap_or_default()
                ));
            };
            let name = name.trim();
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(format!("--header: {name:?} is not a header name"));
            }
            headers.push((name.to_owned(), value.trim().to_owned()));
        }
        if let Some(url) = &self.token_url {
            check_url("--token-url", url)?;
        }
        let spec = AuthSpec {
            headers,
            bearer_env: self.bearer_env.clone(),
            client_id: self.client_id.clone(),
            client_secret_env: self.client_secret_env.clone(),
            token_url: self.token_url.clone(),
        };
        // A variable that is not set is a usage error before anything runs.
        if let Some((key, var)) = spec.unset_variable() {
            let flag = format!("--{}", key.replace('_', "-"));
            return Err(format!("{flag} {var}: the variable is not set (or empty)"));
        }
        Ok(spec)
    }

    /// `server` (reached at a URL) authorized as the flags say.
    pub fn apply(&self, server: Server) -> Result<Server, String> {
        mcptest::suite::authorize(server, &self.spec()?)
            .map_err(|e| format!("{e} (from --header, --bearer-env or --client-id)"))
    }
}

/// The server's program must exist before any test starts: a missing one
/// is a usage error, not a run of failures.
pub fn check_server(command: &str) -> Result<(), String> {
    check_command("--server", "server", command)
}

/// The program of `command`, given with `flag`, exists (a `what`: server,
/// client).
pub fn check_command(flag: &str, what: &str, command: &str) -> Result<(), String> {
    let words = shell_words::split(command)
        .map_err(|e| format!("{flag} {command:?}: not a command line: {e}"))?;
    let Some(program) = words.first() else {
        return Err(format!("{flag} is empty"));
    };
    let path = std::path::Path::new(program);
    if path.components().count() > 1 && path.exists() {
        if path.is_dir() {
            return Err(format!("{flag} {command:?}: {program} is a directory"));
        }
        return which::which(program).map(|_| ()).map_err(|_| {
            format!("{flag} {command:?}: {program} exists but is not executable (chmod +x?)")
        });
    }
    which::which(program)
        .map(|_| ())
        .map_err(|e| format!("{flag} {command:?}: {what} not found: {program}: {e}"))
}
