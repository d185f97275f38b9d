//! A server command run in a container ([`Server::container`](super::Server::container)):
//! the `docker run` command line that stands in for it, and which runtime
//! runs it.
//!
//! The command line is mcp-assert's (`docker:` in a suite file, `--docker
//! IMAGE` on its command line): `run --rm -i`, the fixture directory mounted
//! at its own path so that paths in arguments mean the same inside, each
//! environment variable as `-e KEY=VALUE` sorted by name, then the image,
//! the program and its arguments.

use std::path::Path;

use crate::error::Error;

/// The image to run a command in, and the runtime chosen for it (if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ContainerSpec {
    pub(crate) image: String,
    pub(crate) runtime: Option<String>,
}

/// The runtimes tried, in order, when none is chosen.
const RUNTIMES: [&str; 2] = ["docker", "podman"];

/// The runtime to run: the one chosen, else the first of `docker`,
/// `podman` found on `PATH`.
pub(crate) fn runtime(spec: &ContainerSpec) -> Result<String, Error> {
    if let Some(chosen) = &spec.runtime {
        return Ok(chosen.clone());
    }
    found_runtime()
        .map(str::to_owned)
        .ok_or_else(|| Error::InvalidConfig {
            message: format!(
                "the server is to run in a container of {}, but neither docker nor podman \
                 is on PATH; install one, or name the runtime with Server::container_runtime",
                spec.image
            ),
        })
}

/// The first of `docker`, `podman` found on `PATH` (the runtime a
/// container runs in when none is chosen), looked up as a spawn would.
pub fn found_runtime() -> Option<&'static str> {
    RUNTIMES
        .into_iter()
        .find(|name| crate::transport::on_path(name))
}

/// The arguments of `RUNTIME run` for `program args` in `image`, with
/// `env` (already expanded), the fixture directory mounted at its own
/// (absolute) path, and `workdir` as the container's working directory.
pub(crate) fn run_args(
    image: &str,
    program: &str,
    args: &[String],
    env: &[(String, String)],
    fixture: Option<&Path>,
    workdir: Option<&Path>,
) -> Vec<String> {
    let mut argv: Vec<String> = ["run", "--rm", "-i"].map(str::to_owned).to_vec();
    if let Some(fixture) = fixture {
        let fixture = std::path::absolute(fixture).unwrap_or_else(|_| fixture.to_path_buf());
        let fixture = fixture.to_string_lossy();
        argv.extend(["-v".to_owned(), format!("{fixture}:{fixture}")]);
    }
    let mut env: Vec<&(String, String)> = env.iter().collect();
    // Stable: of a variable given twice, the last still wins, as it would
    // without the container.
    env.sort_by(|a, b| a.0.cmp(&b.0));
    for (key, value) in env {
        argv.extend(["-e".to_owned(), format!("{key}={value}")]);
    }
    if let Some(dir) = workdir {
        argv.extend(["-w".to_owned(), dir.to_string_lossy().into_owned()]);
    }
    argv.push(image.to_owned());
    argv.push(program.to_owned());
    argv.extend(args.iter().cloned());
    argv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_the_peers() {
        let argv = run_args(
            "ghcr.io/me/srv:1",
            "srv",
            &["--root".into(), "/tmp/fx".into()],
            &[("ZED".into(), "z".into()), ("ALPHA".into(), "a b".into())],
            Some(Path::new("/tmp/fx")),
            None,
        );
        assert_eq!(
            argv,
            [
                "run",
                "--rm",
                "-i",
                "-v",
                "/tmp/fx:/tmp/fx",
                "-e",
                "ALPHA=a b",
                "-e",
                "ZED=z",
                "ghcr.io/me/srv:1",
                "srv",
                "--root",
                "/tmp/fx"
            ]
        );
    }

    #[test]
    fn no_fixture_no_mount_and_a_workdir_goes_last_before_the_image() {
        let argv = run_args("img", "srv", &[], &[], None, Some(Path::new("/work")));
        assert_eq!(argv, ["run", "--rm", "-i", "-w", "/work", "img", "srv"]);
    }

    #[test]
    fn a_chosen_runtime_is_used_as_given() {
        let spec = ContainerSpec {
            image: "img".into(),
            runtime: Some("/opt/bin/podman".into()),
        };
        assert_eq!(runtime(&spec).unwrap(), "/opt/bin/podman");
    }
}
