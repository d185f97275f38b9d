//! The suite's files, found and read at compile time: a directory walked or
//! a glob matched, each file's YAML parsed far enough to name its tests.

use std::{
    collections::HashSet,
    fmt,
    path::{Path, PathBuf},
};

use proc_macro2::Span;
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
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

/// What the macro needs to know of a document: its keys, its `case`, and
/// whether it says `skip: true`.
#[derive(Default)]
pub(crate) struct Doc {
    keys: Vec<String>,
    pub(crate) case: Option<String>,
    pub(crate) skip: bool,
}

impl Doc {
    pub(crate) fn is_cases(&self) -> bool {
        self.keys
            .iter()
            .any(|k| k == "case" || k.starts_with("in") || k.starts_with("out"))
    }
}

pub(crate) struct ParseError {
    line: u64,
    column: u64,
    message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: invalid YAML: {}",
            self.line, self.column, self.message
        )
    }
}

pub(crate) fn parse(text: &str) -> Result<Vec<Doc>, ParseError> {
    let options = serde_saphyr::options! { strict_booleans: true, with_snippet: false };
    serde_saphyr::from_multiple_with_options::<Doc>(text, options).map_err(|e| {
        let (line, column) = e
            .location()
            .map(|l| (l.line(), l.column()))
            .unwrap_or((0, 0));
        let text = e.to_string();
        let first = text.lines().next().unwrap_or_default().to_owned();
        let message = first
            .split_once(": ")
            .filter(|(h, _)| h.starts_with("line "))
            .map(|(_, m)| m.to_owned())
            .unwrap_or(first);
        ParseError {
            line,
            column,
            message,
        }
    })
}

impl<'de> Deserialize<'de> for Doc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AnyDoc)
    }
}

/// Any document: a mapping is looked into, anything else has no keys.
struct AnyDoc;

impl<'de> Visitor<'de> for AnyDoc {
    type Value = Doc;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML document")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Doc, A::Error> {
        let mut doc = Doc::default();
        while let Some(Key(key, _)) = map.next_key::<Key>()? {
            match key {
                Some(k) if k == "case" => {
                    doc.case = map.next_value::<Key>()?.0;
                    doc.keys.push(k);
                }
                Some(k) if k == "skip" => {
                    doc.skip = map.next_value::<Key>()?.1;
                    doc.keys.push(k);
                }
                Some(k) => {
                    map.next_value::<IgnoredAny>()?;
                    doc.keys.push(k);
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(doc)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Doc, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Doc::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<Doc, E> {
        Ok(Doc::default())
    }
    fn visit_bool<E>(self, _: bool) -> Result<Doc, E> {
        Ok(Doc::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<Doc, E> {
        Ok(Doc::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<Doc, E> {
        Ok(Doc::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<Doc, E> {
        Ok(Doc::default())
    }
    fn visit_unit<E>(self) -> Result<Doc, E> {
        Ok(Doc::default())
    }
}

/// A string (a key, or the `case` name); anything else reads as `None`.
/// The flag is true for the boolean `true` (the value of `skip`).
struct Key(Option<String>, bool);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a YAML value")
            }
            fn visit_str<E>(self, v: &str) -> Result<Key, E> {
                Ok(Key(Some(v.to_owned()), false))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Key, E> {
                Ok(Key(None, v))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Key, E> {
                Ok(Key(None, false))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Key, E> {
                Ok(Key(None, false))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Key, E> {
                Ok(Key(None, false))
            }
            fn visit_unit<E>(self) -> Result<Key, E> {
                Ok(Key(None, false))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Key, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Key(None, false))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Key, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Key(None, false))
            }
        }
        d.deserialize_any(KeyVisitor)
    }
}
