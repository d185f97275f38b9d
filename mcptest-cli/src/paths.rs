//! From the PATH arguments to suite files: files as given, directories to
//! every `.yaml` / `.yml` file below them, globs to what they match.

use std::path::{Path, PathBuf};

use mcptest::suite::Suite;

use crate::Exit;

/// Every test of the files the arguments name. Each argument that names
/// nothing and each file that cannot be loaded is reported on stderr; then
/// the result is a usage error (exit 2).
pub fn load_suite(args: &[String]) -> Result<Suite, Exit> {
    let files = expand(args).map_err(|errors| {
        for e in errors {
            eprintln!("mcptest: {e}");
        }
        Exit::Usage
    })?;
    let mut suite = Suite::default();
    let mut failed = false;
    for file in &files {
        match Suite::load(file) {
            Ok(loaded) => suite.extend(loaded),
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
        }
    }
    if failed { Err(Exit::Usage) } else { Ok(suite) }
}

/// The suite files the arguments name, in order (each directory's and
/// glob's files sorted), without repeats; or a message per argument that
/// names nothing.
pub fn expand(args: &[String]) -> Result<Vec<PathBuf>, Vec<String>> {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for arg in args {
        match expand_one(arg) {
            Ok(found) => {
                for file in found {
                    if !files.contains(&file) {
                        files.push(file);
                    }
                }
            }
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(files)
    } else {
        Err(errors)
    }
}

fn expand_one(arg: &str) -> Result<Vec<PathBuf>, String> {
    let path = Path::new(arg);
    if path.is_dir() {
        let mut files = Vec::new();
        for pattern in ["**/*.yaml", "**/*.yml"] {
            files.extend(glob_files(&format!(
                "{}/{pattern}",
                glob::Pattern::escape(arg.trim_end_matches('/'))
            ))?);
        }
        files.sort();
        if files.is_empty() {
            return Err(format!("{arg}: no .yaml or .yml files in this directory"));
        }
        return Ok(files);
    }
    if path.exists() {
        return Ok(vec![path.to_path_buf()]);
    }
    if arg.contains(['*', '?', '[']) {
        let mut files = glob_files(arg)?;
        files.sort();
        if files.is_empty() {
            return Err(format!("{arg}: the pattern matches no file"));
        }
        return Ok(files);
    }
    Err(format!("{arg}: no such file or directory"))
}

fn glob_files(pattern: &str) -> Result<Vec<PathBuf>, String> {
    let paths = glob::glob(pattern).map_err(|e| format!("{pattern}: not a valid pattern: {e}"))?;
    let mut files = Vec::new();
    for entry in paths {
        let path = entry.map_err(|e| format!("{pattern}: {e}"))?;
        if path.is_file() {
            files.push(path);
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::expand;

    #[test]
    fn directories_globs_and_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("sub")).unwrap();
        for name in ["b.yaml", "a.yml", "sub/c.yaml", "notes.txt"] {
            std::fs::write(root.join(name), "x").unwrap();
        }
        let shown = |files: Vec<std::path::PathBuf>| -> Vec<String> {
            files
                .iter()
                .map(|f| f.strip_prefix(root).unwrap().display().to_string())
                .collect()
        };
        let all = expand(&[root.display().to_string()]).unwrap();
        assert_eq!(shown(all), ["a.yml", "b.yaml", "sub/c.yaml"]);
        let globbed = expand(&[format!("{}/*.yaml", root.display())]).unwrap();
        assert_eq!(shown(globbed), ["b.yaml"]);
        let errors = expand(&[
            format!("{}/missing.yaml", root.display()),
            format!("{}/*.json", root.display()),
        ])
        .unwrap_err();
        assert!(errors[0].ends_with("missing.yaml: no such file or directory"));
        assert!(errors[1].ends_with("*.json: the pattern matches no file"));
    }
}
