//! `suite!("tests/evals", ..)`: one `#[test]` per mcp-assert file and per
//! MCP Cases document, found at compile time and embedded in the test binary.
//!
//! The files are read and their YAML parsed here, so a missing directory, an
//! empty match, an unreadable file or a YAML syntax error is a compile error
//! on the path literal. What the YAML says (keys, types) is checked by
//! mcptest's loader when the test runs, which reports file:line:column.

use std::{
    collections::HashSet,
    fmt,
    path::{Path, PathBuf},
};

use proc_macro2::{Span, TokenStream};
use quote::quote;
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use syn::{
    Expr, Ident, LitStr, Token,
    parse::{Parse, ParseStream},
};

const OPTIONS: &str = "server, bin, fixture, timeout, name, ignore";

/// The parsed arguments.
struct Args {
    path: LitStr,
    server: Option<TokenStream>,
    fixture: Option<LitStr>,
    timeout: Option<Expr>,
    name: Option<Ident>,
    ignore: Option<LitStr>,
}

impl Parse for Args {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let path: LitStr = input.parse().map_err(|e| {
            syn::Error::new(e.span(), "expected the suite's path: `suite!(\"tests/evals\")` (a directory or a glob, relative to the crate)")
        })?;
        let mut args = Args {
            path,
            server: None,
            fixture: None,
            timeout: None,
            name: None,
            ignore: None,
        };
        let mut server_key: Option<Ident> = None;
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            let twice = |key: &Ident| syn::Error::new(key.span(), format!("`{key}` given twice"));
            match key.to_string().as_str() {
                "server" | "bin" => {
                    if let Some(first) = &server_key {
                        return Err(if first == &key {
                            twice(&key)
                        } else {
                            syn::Error::new(
                                key.span(),
                                format!("`{key}` and `{first}` both name the server; give one"),
                            )
                        });
                    }
                    args.server = Some(if key == "bin" {
                        let bin: LitStr = input.parse()?;
                        let var = format!("CARGO_BIN_EXE_{}", bin.value());
                        quote!(::mcptest::Server::program(env!(#var)))
                    } else {
                        let expr: Expr = input.parse()?;
                        quote!(::mcptest::__private::suite::IntoServer::into_server(#expr))
                    });
                    server_key = Some(key);
                }
                "fixture" if args.fixture.is_some() => return Err(twice(&key)),
                "fixture" => args.fixture = Some(input.parse()?),
                "timeout" if args.timeout.is_some() => return Err(twice(&key)),
                "timeout" => args.timeout = Some(input.parse()?),
                "name" if args.name.is_some() => return Err(twice(&key)),
                "name" => args.name = Some(input.parse()?),
                "ignore" if args.ignore.is_some() => return Err(twice(&key)),
                "ignore" => args.ignore = Some(input.parse()?),
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("unknown option `{other}`; the options are {OPTIONS}"),
                    ));
                }
            }
        }
        Ok(args)
    }
}

/// One generated test.
struct Test {
    name: Ident,
    file: usize,
    index: usize,
    /// `#[ignore = ..]` from the file's `skip: true`.
    skip: Option<String>,
}

pub(crate) fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let args: Args = syn::parse2(input)?;
    let manifest = std::env::var("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .map_err(|_| {
            syn::Error::new(
                args.path.span(),
                "CARGO_MANIFEST_DIR is not set: build with cargo",
            )
        })?;
    expand_in(&manifest, args)
}

fn expand_in(manifest: &Path, args: Args) -> syn::Result<TokenStream> {
    let lit = &args.path;
    let fail = |message: String| syn::Error::new(lit.span(), message);
    let (base, files) = find_files(manifest, &lit.value()).map_err(fail)?;
    let module = match &args.name {
        Some(name) => name.clone(),
        None => {
            let last = base
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "suite".into());
            unique(&sanitize(&last), &mut HashSet::new())
        }
    };
    let mut embedded = Vec::new();
    let mut tests = Vec::new();
    let mut used = HashSet::new();
    for (file_index, file) in files.iter().enumerate() {
        let shown = file
            .strip_prefix(manifest)
            .unwrap_or(file)
            .display()
            .to_string();
        let text =
            std::fs::read_to_string(file).map_err(|e| fail(format!("cannot read {shown}: {e}")))?;
        let docs = parse(&text).map_err(|e| fail(format!("{shown}:{e}")))?;
        if docs.is_empty() {
            return Err(fail(format!(
                "{shown} is empty: expected an mcp-assert assertion or MCP Cases documents"
            )));
        }
        let relative = file.strip_prefix(&base).unwrap_or(file).with_extension("");
        let stem = sanitize(&relative.to_string_lossy());
        let is_cases = docs.len() > 1 || docs.iter().any(|d| d.is_cases());
        let format = if is_cases {
            quote!(::mcptest::__private::suite::Format::McpCases)
        } else {
            quote!(::mcptest::__private::suite::Format::McpAssert)
        };
        if is_cases {
            for (index, doc) in docs.iter().enumerate() {
                let case = match &doc.case {
                    Some(name) => sanitize(name),
                    None => format!("case_{}", index + 1),
                };
                tests.push(Test {
                    name: unique(&format!("{stem}__{case}"), &mut used),
                    file: file_index,
                    index,
                    skip: None,
                });
            }
        } else {
            tests.push(Test {
                name: unique(&stem, &mut used),
                file: file_index,
                index: 0,
                skip: docs[0].skip.then(|| format!("skip: true in {shown}")),
            });
        }
        let absolute = file.display().to_string();
        embedded.push(quote! {
            ::mcptest::__private::suite::EmbeddedFile {
                path: #shown,
                absolute: #absolute,
                text: include_str!(#absolute),
                format: #format,
            }
        });
    }
    let mut options = vec![quote!(let options = ::mcptest::__private::suite::RunOptions::new();)];
    if let Some(server) = &args.server {
        options.push(quote!(let options = options.server(#server);));
    }
    if let Some(fixture) = &args.fixture {
        let dir = manifest.join(fixture.value());
        if !dir.is_dir() {
            return Err(syn::Error::new(
                fixture.span(),
                format!("fixture directory {} does not exist", dir.display()),
            ));
        }
        let dir = dir.display().to_string();
        options.push(quote!(let options = options.fixture(#dir);));
    }
    if let Some(timeout) = &args.timeout {
        options.push(quote!(let options = options.timeout(#timeout);));
    }
    let ignore = args
        .ignore
        .as_ref()
        .map(|reason| quote!(#[ignore = #reason]));
    let table = tests.iter().map(|t| {
        let (name, file, index) = (t.name.to_string(), t.file, t.index);
        quote!((#name, #file, #index))
    });
    let functions = tests.iter().map(|t| {
        let (name, file, index) = (&t.name, t.file, t.index);
        // The macro's own `ignore` wins; otherwise a file's `skip: true`
        // shows as an ignored test with the reason.
        let ignore = match (&ignore, &t.skip) {
            (Some(ignore), _) => Some(ignore.clone()),
            (None, Some(reason)) => Some(quote!(#[ignore = #reason])),
            (None, None) => None,
        };
        quote! {
            #[::core::prelude::v1::test]
            #ignore
            fn #name() {
                ::mcptest::__private::suite::run_test(&FILES[#file], #index, options());
            }
        }
    });
    Ok(quote! {
        #[allow(non_snake_case)]
        mod #module {
            #[allow(unused_imports)]
            use super::*;

            /// The suite's files, embedded so that editing one rebuilds the tests.
            #[doc(hidden)]
            pub static FILES: &[::mcptest::__private::suite::EmbeddedFile] = &[#(#embedded),*];

            /// Every generated test: (name, file, test index within the file).
            #[doc(hidden)]
            pub static TESTS: &[(&str, usize, usize)] = &[#(#table),*];

            /// The options given to the macro.
            #[doc(hidden)]
            pub fn options() -> ::mcptest::__private::suite::RunOptions {
                #(#options)*
                options
            }

            #(#functions)*
        }
    })
}

/// The files a path or glob names, sorted, and the directory test names
/// are relative to.
fn find_files(manifest: &Path, pattern: &str) -> Result<(PathBuf, Vec<PathBuf>), String> {
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
            "{} does not exist (the path is relative to the crate: {})",
            pattern,
            manifest.display()
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
fn sanitize(text: &str) -> String {
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

fn unique(name: &str, used: &mut HashSet<String>) -> Ident {
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
struct Doc {
    keys: Vec<String>,
    case: Option<String>,
    skip: bool,
}

impl Doc {
    fn is_cases(&self) -> bool {
        self.keys
            .iter()
            .any(|k| k == "case" || k.starts_with("in") || k.starts_with("out"))
    }
}

struct ParseError {
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

fn parse(text: &str) -> Result<Vec<Doc>, ParseError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(manifest: &Path, tokens: &str) -> Result<String, String> {
        let args: Args = syn::parse_str(tokens).map_err(|e| e.to_string())?;
        expand_in(manifest, args)
            .map(|t| t.to_string())
            .map_err(|e| e.to_string())
    }

    /// A directory of its own for one test, removed when the test ends.
    fn scratch(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::Builder::new()
            .prefix("mcptest-macros-suite-")
            .tempdir()
            .unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn one_test_per_file_and_per_case_sorted_with_stable_names() {
        let dir = scratch(&[
            ("evals/b.yaml", "name: b\nassert: {tool: echo}\n"),
            ("evals/a/Echo Hi.yml", "assert: {tool: echo}\n"),
            (
                "evals/cases.yaml",
                "case: List tools\nin: {}\n---\nin: {}\n---\ncase: List tools\nin: {}\n",
            ),
            ("evals/notes.txt", "not yaml"),
        ]);
        let out = expand_str(dir.path(), r#""evals", server = "my-server""#).unwrap();
        assert!(
            out.starts_with("# [allow (non_snake_case)] mod evals"),
            "{out}"
        );
        let table = out
            .split("pub static TESTS")
            .nth(1)
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_owned();
        assert_eq!(
            table,
            r#" : & [(& str , usize , usize)] = & [("a_echo_hi" , 0usize , 0usize) , ("b" , 1usize , 0usize) , ("cases__list_tools" , 2usize , 0usize) , ("cases__case_2" , 2usize , 1usize) , ("cases__list_tools_2" , 2usize , 2usize)] "#
        );
        assert!(out.contains("include_str !"), "{out}");
    }

    #[test]
    fn a_skipped_file_becomes_an_ignored_test_with_the_reason() {
        let dir = scratch(&[
            ("skips/off.yaml", "skip: true\nassert: {tool: echo}\n"),
            ("skips/on.yaml", "skip: false\nassert: {tool: echo}\n"),
        ]);
        let out = expand_str(dir.path(), r#""skips""#).unwrap();
        assert_eq!(out.matches("# [ignore").count(), 1, "{out}");
        assert!(
            out.contains(r#"# [ignore = "skip: true in skips/off.yaml"] fn off"#),
            "{out}"
        );
    }

    #[test]
    fn errors_point_at_the_path_and_say_why() {
        let dir = scratch(&[
            ("bad/x.yaml", "a: [1, 2\n"),
            ("empty/e.yaml", "# nothing\n"),
        ]);
        let err = expand_str(dir.path(), r#""bad""#).unwrap_err();
        assert!(
            err.ends_with("x.yaml:2:1: invalid YAML: unclosed bracket '['")
                || err.contains("x.yaml:1:4: invalid YAML"),
            "{err}"
        );
        assert!(
            expand_str(dir.path(), r#""empty""#)
                .unwrap_err()
                .contains("e.yaml is empty")
        );
        assert!(
            expand_str(dir.path(), r#""nowhere""#)
                .unwrap_err()
                .starts_with("nowhere does not exist")
        );
        assert_eq!(
            expand_str(dir.path(), r#""bad/*.json""#).unwrap_err(),
            "\"bad/*.json\" matches no .yaml or .yml files"
        );
        assert_eq!(
            expand_str(dir.path(), r#""bad", servre = "x""#).unwrap_err(),
            format!("unknown option `servre`; the options are {OPTIONS}")
        );
        assert_eq!(
            expand_str(dir.path(), r#""bad", server = "x", bin = "y""#).unwrap_err(),
            "`bin` and `server` both name the server; give one"
        );
        assert_eq!(
            expand_str(dir.path(), r#""bad", fixture = "f", fixture = "g""#).unwrap_err(),
            "`fixture` given twice"
        );
    }

    #[test]
    fn names_are_identifiers() {
        assert_eq!(sanitize("tools/Echo says hi!"), "tools_echo_says_hi");
        assert_eq!(sanitize("2 fast"), "_2_fast");
        let mut used = HashSet::new();
        assert_eq!(unique("type", &mut used).to_string(), "type_");
        assert_eq!(unique("a", &mut used).to_string(), "a");
        assert_eq!(unique("a", &mut used).to_string(), "a_2");
    }
}
