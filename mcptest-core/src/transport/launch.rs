//! What to run as a server's child process, resolved and ready to spawn.

use std::path::PathBuf;

use crate::error::Error;

/// What to run: everything already resolved (env expanded, `{{fixture}}`
/// substituted). The environment is the parent's plus `env`.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The program: a path, or a name looked up on `PATH`.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Variables added to (or replacing those of) the parent's environment.
    pub env: Vec<(String, String)>,
    /// The working directory; the parent's when `None`.
    pub current_dir: Option<PathBuf>,
}

impl Launch {
    /// A command line split like a shell (never run through one), with no
    /// extra environment, in the parent's working directory.
    ///
    /// ```
    /// use mcptest_core::__support::process::Launch;
    /// let launch = Launch::command("node server.js --port '3 001'").unwrap();
    /// assert_eq!(launch.program, "node");
    /// assert_eq!(launch.args, ["server.js", "--port", "3 001"]);
    /// assert!(Launch::command("'unclosed").is_err());
    /// ```
    pub fn command(command_line: &str) -> Result<Launch, Error> {
        let (program, args) = crate::command::split(command_line)?;
        Ok(Launch {
            program,
            args,
            env: Vec::new(),
            current_dir: None,
        })
    }
}
