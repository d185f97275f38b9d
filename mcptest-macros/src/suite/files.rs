//! The suite's files, found at compile time: a directory walked or a glob
//! matched; and the names their tests get.

use std::{
    collections::HashSet,
    path::{Path, PathBuf},
};

use proc_macro2::Span;
use syn::Ident;

/// The files a path or glob names, sorted, and the directory test names
/// are relative to.
pub(crate) fn find_files(
    manifest: &Path,
    pattern: &str,
) -> Result<(PathBuf, Vec<PathBuf>), String> {
    let full = manifest.join(pattern);
    let is_glob = pattern.contains(['*', '?', '[']);
    let (base, mut files) = if is_glob {
        let base: PathBuf = Path::new(pattern)
            .components()
            .take_while(|c| !c.as_os_str().to_string_lossy().contains(['*', '?', '[']))
            .collect();
        let entries = glob::glob(&full.to_string_lossy())
            .map_err(|e| format!("invalid glob {pattern:?}: {e}"))?;
        let mut files = Vec::new();
        for entry in entries {
            let path =
                entry.map_err(|e| format!("cannot read {}: {}", e.path().display(), e.error()))?;
            if path.is_file() {
                files.push(path);
            }
        }
        (manifest.join(base), files)
    } else if full.is_dir() {
        let mut files = Vec::new();
        walk(&full, &mut files).map_err(|e| format!("cannot list {pattern}: {e}"))?;
        (full, files)
    } else if full.is_file() {
        let base = full.parent().map(Path::to_path_buf).unwrap_or_default();
        (base, vec![full.clone()])
    } else {
        return Err(format!(
            "{pattern:?} does not exist; the suite's path is relative to the crate's root (the directory of its Cargo.toml)"
        ));
    };
    files.sort();
    if files.is_empty() {
        return Err(format!("{pattern:?} matches no .yaml or .yml files"));
    }
    Ok((base, files))
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) {
            out.push(path);
        }
    }
    Ok(())
}

/// A test name from a path or case name: `tools/Echo says hi!` → `tools_echo_says_hi`.
pub(crate) fn sanitize(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_matches('_').to_owned();
    if out.is_empty() {
        "unnamed".into()
    } else if out.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{out}")
    } else {
        out
    }
}

pub(crate) fn unique(name: &str, used: &mut HashSet<String>) -> Ident {
    let mut name = name.to_owned();
    if syn::parse_str::<Ident>(&name).is_err() {
        name.push('_');
    }
    let mut candidate = name.clone();
    let mut n = 2;
    while !used.insert(candidate.clone()) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    Ident::new(&candidate, Span::call_site())
}
