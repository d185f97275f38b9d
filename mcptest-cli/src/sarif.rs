//! `--sarif FILE` of `lint`, `lint-security`, `audit` and `drift`: where the
//! results point (`--sarif-anchor`, or the snapshot a drift side was read
//! from), and the file written.

use std::path::Path;

use mcptest::scan::{sarif::SarifLog, surface::SurfaceFile};

use crate::args::SarifArgs;

/// The file SARIF results point into: `--sarif-anchor`, else `fallback`
/// (a drift side read from a file). `Err` with what to write when
/// `--sarif` is given and there is neither.
pub fn anchor(args: &SarifArgs, fallback: Option<&str>) -> Result<Option<SurfaceFile>, String> {
    if args.sarif.is_none() {
        return Ok(None);
    }
    match (&args.sarif_anchor, fallback) {
        (Some(path), _) => {
            if !path.is_file() {
                return Err(format!(
                    "--sarif-anchor {}: no such file; give a file of the repository, such as the \
                     server's stored tool-surface snapshot",
                    path.display()
                ));
            }
            Ok(Some(SurfaceFile::read(path)))
        }
        (None, Some(path)) => Ok(Some(SurfaceFile::read(path))),
        (None, None) => Err(
            "--sarif needs --sarif-anchor FILE: GitHub code scanning refuses a SARIF file whose \
             results have no file to point at; give the server's stored tool-surface snapshot \
             (the .snap that assert_tool_surface_snapshot! writes; results point at the line \
             they are about) or any file of the repository"
                .into(),
        ),
    }
}

/// Writes `log` to `--sarif`'s file (its directory created first), with
/// its results pointing into `anchor`; says what was written on stdout.
pub fn write(args: &SarifArgs, log: SarifLog, anchor: Option<SurfaceFile>) {
    write_to(args, log, anchor, &mut std::io::stdout());
}

/// [`write`], saying what was written to `out` (stderr when stdout
/// carries a JSON report).
pub fn write_to(
    args: &SarifArgs,
    log: SarifLog,
    anchor: Option<SurfaceFile>,
    out: &mut dyn std::io::Write,
) {
    let Some(path) = &args.sarif else { return };
    let log = match anchor {
        Some(anchor) => {
            if !anchor.has_surface() {
                eprintln!(
                    "mcptest: {} holds no tool surface: every SARIF result points at its first line",
                    anchor.path
                );
            }
            log.anchor(anchor)
        }
        None => log,
    };
    let written = match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(dir) => std::fs::create_dir_all(dir),
        None => Ok(()),
    }
    .and_then(|()| std::fs::write(path, log.to_pretty_string()));
    match written {
        Ok(()) => {
            let _ = writeln!(
                out,
                "wrote {} SARIF result{} to {}",
                log.len(),
                if log.len() == 1 { "" } else { "s" },
                Path::new(path).display()
            );
        }
        Err(e) => eprintln!(
            "mcptest: cannot write the SARIF log to {}: {e}",
            path.display()
        ),
    }
}
