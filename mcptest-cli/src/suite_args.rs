//! The arguments every command that runs suites shares (`run`, `watch`,
//! `snapshot`), checked and turned into what the suite runner takes: the
//! tests, the run options, the runtime.

use mcptest::{
    Server,
    suite::{RunOptions, SuiteTest},
};

use crate::{Exit, args::SuiteArgs, paths};

impl SuiteArgs {
    /// The run options of `--server`, `--docker`, `--fixture`, `--timeout`,
    /// `--wire-schema` and `--jobs`, each checked.
    pub fn options(&self) -> Result<RunOptions, Exit> {
        let mut options = RunOptions::new();
        if let Some(image) = &self.docker {
            if image.trim().is_empty() {
                eprintln!("mcptest: --docker names no image");
                return Err(Exit::Usage);
            }
            // The runtime the server will be started with, found as its
            // spawn will find it.
            if mcptest_core::__support::process::container_runtime().is_none() {
                eprintln!("mcptest: --docker {image}: neither docker nor podman is on PATH");
                return Err(Exit::Usage);
            }
            options = options.container(image);
        }
        if let Some(command) = &self.server {
            // In a container, the program is the image's, not this machine's.
            if self.docker.is_none()
                && let Err(e) = crate::connect::check_server(command)
            {
                eprintln!("mcptest: {e}");
                return Err(Exit::Usage);
            }
            options = options
                .server(Server::command(command))
                .replace_servers(true);
        }
        if self.auth.given() {
            match self.auth.spec() {
                Ok(spec) => options = options.auth(spec),
                Err(e) => {
                    eprintln!("mcptest: {e}");
                    return Err(Exit::Usage);
                }
            }
        }
        if let Some(fixture) = &self.fixture {
            if !fixture.is_dir() {
                eprintln!("mcptest: --fixture {}: not a directory", fixture.display());
                return Err(Exit::Usage);
            }
            options = options.fixture(fixture);
        }
        if let Some(timeout) = self.timeout {
            options = options.timeout(timeout);
        }
        if let Some(mode) = self.wire_schema {
            options = options.wire_schema(mode);
        }
        // Without --jobs the runner picks twice the cores, and more while
        // cores sit idle.
        if let Some(jobs) = self.jobs {
            options = options.jobs(usize::from(jobs));
        }
        Ok(options)
    }

    /// The runtime the tests run on: a thread per job, at most one per
    /// core (the runner's default is twice the cores).
    pub fn runtime(&self) -> Result<tokio::runtime::Runtime, Exit> {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let jobs = self.jobs.map_or(2 * cores, usize::from);
        crate::runtime(jobs.min(cores))
    }

    /// Every test of every file the paths name, filtered by `--filter`;
    /// each file that cannot be loaded is reported (exit 2).
    pub fn load(&self) -> Result<Vec<SuiteTest>, Exit> {
        let suite = paths::load_suite(&self.all_paths())?;
        let filter = self.filter.as_deref();
        let tests: Vec<SuiteTest> = suite
            .tests()
            .iter()
            .filter(|t| filter.is_none_or(|f| t.name.contains(f) || t.file.contains(f)))
            .cloned()
            .collect();
        if tests.is_empty() {
            match filter {
                Some(filter) => eprintln!(
                    "mcptest: no test matches --filter {filter:?} ({} test{} loaded)",
                    suite.tests().len(),
                    plural(suite.tests().len())
                ),
                None => eprintln!("mcptest: the files hold no test"),
            }
            return Err(Exit::Usage);
        }
        Ok(tests)
    }

    /// The paths and the `--suite` directories, in that order.
    pub fn all_paths(&self) -> Vec<String> {
        self.paths.iter().chain(&self.suite).cloned().collect()
    }
}

/// `s` after a count other than one.
pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
