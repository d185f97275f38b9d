//! `suite!("tests/evals", ..)`: one `#[test]` per mcp-assert file and per
//! MCP Cases document, found at compile time and embedded in the test binary.
//!
//! Built like `#[mcp_test]`: the arguments go through a config builder
//! ([`config`]) that collects every problem, each spanned on its tokens;
//! the files are found ([`files`]), parsed and checked here by the loader
//! the tests run with (`mcptest-suite-format`), so a missing directory, an
//! empty match, an unreadable file, a YAML syntax error, an unknown or
//! misspelled key, a value of the wrong type or an unknown log level is a
//! compile error on the path literal, with file:line:column and the words
//! the loader uses at run time (the nearest key included). Each
//! file is embedded as its parsed tree: a generated test loads its file from
//! that constant and parses no YAML when it runs. Generated code
//! reaches mcptest through `crate = path` (default `::mcptest`) and std
//! through `::core`.
//!
//! Each generated test runs through the suite runner, after taking its turn
//! among the suite's tests (one at a time, in file order where it can, in
//! threads or a process each), unless the suite is `independent`: their
//! servers may share state, as `mcptest run` assumes until its replay says
//! otherwise.

mod config;
mod files;
mod tree;

use std::{
    collections::HashSet,
    path::{Path, PathBuf},
};

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::errors::Errors;
use config::{Config, Source, Timeout};
use mcptest_suite_format::Loaded;

/// One generated test.
struct Test {
    name: syn::Ident,
    file: usize,
    index: usize,
    /// `#[ignore = ..]` from the file's `skip: true`.
    skip: Option<String>,
}

/// One file, read and parsed.
struct File {
    /// The path relative to the crate, for messages.
    shown: String,
    absolute: String,
    is_cases: bool,
    docs: Vec<mcptest_suite_format::Node>,
}

pub(crate) fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_default();
    expand_in(&manifest, input)
}

fn expand_in(manifest: &Path, input: TokenStream) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let config = config::parse(input, &mut errors);
    let read = config
        .as_ref()
        .and_then(|config| read_files(manifest, config, &mut errors));
    errors.finish()?;
    let config = config.expect("a config is built whenever no error was reported");
    let (files, tests, module) = read.expect("the files are read whenever no error was reported");
    Ok(generate(&config, &files, &tests, &module))
}

/// Finds and reads the suite's files: every problem goes to `errors`, on
/// the path literal.
fn read_files(
    manifest: &Path,
    config: &Config,
    errors: &mut Errors,
) -> Option<(Vec<File>, Vec<Test>, syn::Ident)> {
    let lit = &config.path;
    let (base, paths) = match files::find_files(manifest, &lit.value()) {
        Ok(found) => found,
        Err(message) => {
            errors.at(lit, message);
            return None;
        }
    };
    let module = match &config.name {
        Some(name) => name.clone(),
        None => {
            let last = base
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "suite".into());
            files::unique(&files::sanitize(&last), &mut HashSet::new())
        }
    };
    let mut read = Vec::new();
    let mut tests = Vec::new();
    let mut used = HashSet::new();
    let mut ok = true;
    for path in &paths {
        let shown = path
            .strip_prefix(manifest)
            .unwrap_or(path)
            .display()
            .to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                errors.at(lit, format!("cannot read {shown}: {e}"));
                ok = false;
                continue;
            }
        };
        // The loader the tests run with checks the file now, so a misspelled
        // key, a value of the wrong type or an unknown log level is this
        // macro's error, in the words the loader would use at run time.
        let loaded = mcptest_suite_format::parse_documents(&shown, &text).and_then(|docs| {
            let loaded = mcptest_suite_format::load(&shown, &docs, None)?;
            Ok((docs, loaded))
        });
        let (docs, loaded) = match loaded {
            Ok(loaded) => loaded,
            Err(e) => {
                errors.at(lit, e.to_string());
                ok = false;
                continue;
            }
        };
        let relative = path.strip_prefix(&base).unwrap_or(path).with_extension("");
        let stem = files::sanitize(&relative.to_string_lossy());
        let file = read.len();
        let is_cases = match loaded {
            Loaded::Cases(cases) => {
                for (index, case) in cases.iter().enumerate() {
                    let case = match &case.name {
                        Some(name) => files::sanitize(name),
                        None => format!("case_{}", case.number),
                    };
                    tests.push(Test {
                        name: files::unique(&format!("{stem}__{case}"), &mut used),
                        file,
                        index,
                        skip: None,
                    });
                }
                true
            }
            Loaded::Assertion(assertion) => {
                tests.push(Test {
                    name: files::unique(&stem, &mut used),
                    file,
                    index: 0,
                    skip: assertion.skip.then(|| format!("skip: true in {shown}")),
                });
                false
            }
        };
        read.push(File {
            shown,
            absolute: path.display().to_string(),
            is_cases,
            docs,
        });
    }
    ok.then_some((read, tests, module))
}

fn generate(config: &Config, files: &[File], tests: &[Test], module: &syn::Ident) -> TokenStream {
    let krate = config
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::mcptest));
    let private = quote!(#krate::__private::suite);
    let embedded = embedded_files(files, &private);
    let options = run_options(config, &krate, &private);
    let table = tests.iter().map(|t| {
        let (name, file, index) = (t.name.to_string(), t.file, t.index);
        quote!((#name, #file, #index))
    });
    let functions = test_functions(config, tests, &private);
    quote! {
        #[allow(non_snake_case)]
        mod #module {
            #[allow(unused_imports)]
            use super::*;

            /// The suite's files, embedded so that editing one rebuilds the tests.
            #[doc(hidden)]
            pub static FILES: &[#private::EmbeddedFile] = &[#(#embedded),*];

            /// Every generated test: (name, file, test index within the file).
            #[doc(hidden)]
            pub static TESTS: &[(&str, usize, usize)] = &[#(#table),*];

            /// The suite the tests run from, with their turns (one at a
            /// time, unless the suite is `independent`), keyed by package
            /// and module.
            #[doc(hidden)]
            pub static SUITE: #private::EmbeddedSuite = #private::EmbeddedSuite::new(
                FILES,
                TESTS,
                ::core::concat!(::core::env!("CARGO_PKG_NAME"), "::", ::core::module_path!()),
                ::core::option_env!("CARGO_TARGET_TMPDIR"),
            );

            /// The options given to the macro.
            #[doc(hidden)]
            pub fn options() -> #private::RunOptions {
                #(#options)*
                options
            }

            #(#functions)*
        }
    }
}

/// Each file as the `EmbeddedFile` constant its tests load from.
fn embedded_files(files: &[File], private: &TokenStream) -> Vec<TokenStream> {
    files
        .iter()
        .map(|file| {
            let File {
                shown,
                absolute,
                is_cases,
                docs,
            } = file;
            let docs = docs.iter().map(|doc| tree::to_tokens(doc, private));
            let format = if *is_cases {
                quote!(#private::Format::McpCases)
            } else {
                quote!(#private::Format::McpAssert)
            };
            quote! {
                #private::EmbeddedFile {
                    path: #shown,
                    absolute: #absolute,
                    text: ::core::include_str!(#absolute),
                    format: #format,
                    docs: &[#(#docs),*],
                }
            }
        })
        .collect()
}

/// The statements that build the `RunOptions` the macro's arguments give.
fn run_options(config: &Config, krate: &syn::Path, private: &TokenStream) -> Vec<TokenStream> {
    let mut options = vec![quote!(let options = #private::RunOptions::new();)];
    if let Some(source) = &config.source {
        let server = match source {
            Source::Command(expr) | Source::Url(expr) => quote_spanned! {expr.span()=>
                #private::IntoServer::into_server(#expr)
            },
            Source::Sse(expr) => quote_spanned! {expr.span()=>
                #krate::Server::sse(#expr)
            },
            Source::Bin(bin) => crate::options::bin_program(bin, &quote!(#krate)),
            Source::Handler(handler) => {
                quote_spanned!(handler.span()=> #krate::Server::in_process(#handler))
            }
        };
        options.push(quote!(let options = options.server(#server);));
    }
    if let Some(fixture) = &config.fixture {
        let span = fixture.span();
        options.push(if Path::new(&fixture.value()).is_absolute() {
            quote_spanned!(span=> let options = options.fixture(#fixture);)
        } else {
            quote_spanned! {span=>
                let options = options.fixture(
                    ::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), "/", #fixture)
                );
            }
        });
    }
    match &config.timeout {
        Some(Timeout::Literal(timeout)) => {
            let (secs, nanos) = (timeout.as_secs(), timeout.subsec_nanos());
            options.push(
                quote!(let options = options.timeout(#private::Duration::new(#secs, #nanos));),
            );
        }
        Some(Timeout::Expr(expr)) => {
            options.push(quote_spanned!(expr.span()=> let options = options.timeout(#expr);));
        }
        None => {}
    }
    if let Some(mode) = &config.wire_schema {
        let mode = match mode.value().as_str() {
            "warn" => quote!(Warn),
            "off" => quote!(Off),
            _ => quote!(Fail),
        };
        options.push(quote!(let options = options.wire_schema(#krate::WireSchema::#mode);));
    }
    if config.shared {
        options.push(quote!(let options = options.shared(true);));
    }
    if config.independent {
        options.push(quote!(let options = options.independent(true);));
    }
    if config.replace_servers {
        options.push(quote!(let options = options.replace_servers(true);));
    }
    options
}

/// One `#[test]` per test, each running its position of the suite.
fn test_functions(config: &Config, tests: &[Test], private: &TokenStream) -> Vec<TokenStream> {
    let ignore = config
        .ignore
        .as_ref()
        .map(|reason| quote!(#[ignore = #reason]));
    tests
        .iter()
        .enumerate()
        .map(|(position, t)| {
            let name = &t.name;
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
                    #private::run_test(&SUITE, #position, options());
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use files::{sanitize, unique};

    fn expand_str(manifest: &Path, tokens: &str) -> Result<String, String> {
        expand_in(manifest, tokens.parse().unwrap())
            .map(|t| t.to_string())
            .map_err(|e| e.to_string())
    }

    /// Every error, in the order reported.
    fn messages(manifest: &Path, tokens: &str) -> Vec<String> {
        expand_in(manifest, tokens.parse().unwrap())
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect()
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
    fn the_loader_refuses_a_file_at_compile_time_in_its_run_time_words() {
        let dir = scratch(&[
            (
                "typo/a.yaml",
                "assert:\n  tool: echo\n  expect:\n    contians: [\"x\"]\n",
            ),
            (
                "types/b.yaml",
                "assert:\n  tool: echo\n  expect:\n    min_results: lots\n",
            ),
            (
                "levels/c.yaml",
                "assert_logging:\n  set_level: loud\n  expect: {min_messages: 1}\n",
            ),
        ]);
        let err = expand_str(dir.path(), r#""typo""#).unwrap_err();
        assert!(
            err.starts_with(
                "typo/a.yaml:4:5: unknown key `contians` in `expect`; did you mean `contains`?"
            ),
            "{err}"
        );
        let err = expand_str(dir.path(), r#""types""#).unwrap_err();
        assert_eq!(
            err,
            "types/b.yaml:4:18: expected `min_results` to be a whole number of 0 or more, found a string"
        );
        let err = expand_str(dir.path(), r#""levels""#).unwrap_err();
        assert!(
            err.starts_with("levels/c.yaml:2:14: `set_level`: \"loud\" is not a log level"),
            "{err}"
        );
        // The same words the runtime loader prints.
        for (pattern, file) in [("typo", "typo/a.yaml"), ("types", "types/b.yaml")] {
            let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
            let runtime = mcptest_suite_format::parse(file, &text, None).unwrap_err();
            assert_eq!(
                expand_str(dir.path(), &format!("{pattern:?}")).unwrap_err(),
                runtime.to_string()
            );
        }
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
        assert_eq!(
            expand_str(dir.path(), r#""empty""#).unwrap_err(),
            "empty/e.yaml: the file is empty: expected an mcp-assert assertion or MCP Cases documents"
        );
        assert!(
            expand_str(dir.path(), r#""nowhere""#)
                .unwrap_err()
                .starts_with(
                    "\"nowhere\" does not exist; the suite's path is relative to the crate's root"
                )
        );
        assert_eq!(
            expand_str(dir.path(), r#""bad/*.json""#).unwrap_err(),
            "\"bad/*.json\" matches no .yaml or .yml files"
        );
    }

    #[test]
    fn every_argument_error_is_reported_at_once() {
        let dir = scratch(&[("ok/a.yaml", "assert: {tool: echo}\n")]);
        let errors = messages(
            dir.path(),
            r#""ok", servre = "x", server = "x", bin = "y", timeout = "soon", name = "n", ignore = 1, fixture = "f", fixture = "g", crate = 1"#,
        );
        let expected = [
            "unknown option `servre` for `suite!`; did you mean `server`? the options are: server, bin, handler, fixture, timeout, wire_schema, shared, independent, replace_servers, name, ignore, crate",
            "invalid duration \"soon\"",
            "`name` takes the generated module's name, an identifier: name = evals",
            "`ignore` takes a string literal",
            "fixture directory \"f\" does not exist",
            "`fixture` is given twice; keep one",
            "`crate` takes a path: crate = mcptest",
            "`bin` conflicts with `server`: the suite has one default server; keep one of them",
        ];
        assert_eq!(errors.len(), expected.len(), "{errors:#?}");
        for (error, expected) in errors.iter().zip(expected) {
            assert!(
                error.contains(expected),
                "{error:?} should contain {expected:?}"
            );
        }
        assert_eq!(
            messages(dir.path(), r#"server = "x""#),
            [
                "`suite!` starts with the suite's path: suite!(\"tests/evals\") (a directory or a glob, relative to the crate)"
            ]
        );
        assert_eq!(
            messages(dir.path(), r#""ok", "again""#),
            [
                "the suite's path comes first and only once; options are `key = value`, like fixture = \"tests/fixtures\""
            ]
        );
    }

    #[test]
    fn crate_paths_and_core_paths() {
        let dir = scratch(&[("ok/a.yaml", "assert: {tool: echo}\n")]);
        let out = expand_str(
            dir.path(),
            r#""ok", crate = my_mcptest, handler = H::default(), timeout = "1m 30s""#,
        )
        .unwrap();
        assert!(
            !out.contains(":: mcptest ::"),
            "`crate` replaces every path: {out}"
        );
        for expected in [
            "my_mcptest :: Server :: in_process (H :: default ())",
            ". timeout (my_mcptest :: __private :: suite :: Duration :: new (90u64 , 0u32))",
            "# [:: core :: prelude :: v1 :: test]",
            ":: core :: include_str !",
        ] {
            assert!(out.contains(expected), "missing {expected:?} in\n{out}");
        }
        let out = expand_str(dir.path(), r#""ok", timeout = Duration::from_secs(5)"#).unwrap();
        assert!(
            out.contains(". timeout (Duration :: from_secs (5))"),
            "{out}"
        );
    }

    #[test]
    fn tests_take_turns_unless_the_suite_is_independent() {
        let dir = scratch(&[
            ("ok/a.yaml", "assert: {tool: echo}\n"),
            ("ok/b.yaml", "assert: {tool: echo}\n"),
        ]);
        let out = expand_str(dir.path(), r#""ok""#).unwrap();
        for expected in [
            "fn b () { :: mcptest :: __private :: suite :: run_test (& SUITE , 1usize , options ()) ; }",
            "pub static SUITE : :: mcptest :: __private :: suite :: EmbeddedSuite = :: mcptest :: __private :: suite :: EmbeddedSuite :: new (FILES , TESTS , :: core :: concat ! (:: core :: env ! (\"CARGO_PKG_NAME\") , \"::\" , :: core :: module_path ! ()) , :: core :: option_env ! (\"CARGO_TARGET_TMPDIR\") ,)",
        ] {
            assert!(out.contains(expected), "missing {expected:?} in\n{out}");
        }
        assert!(!out.contains(". independent (true)"), "{out}");
        let out = expand_str(
            dir.path(),
            r#""ok", server = "x", independent, replace_servers"#,
        )
        .unwrap();
        assert!(
            out.contains("let options = options . independent (true) ;"),
            "{out}"
        );
        assert!(
            out.contains("let options = options . replace_servers (true) ;"),
            "{out}"
        );
        assert_eq!(
            messages(dir.path(), r#""ok", independent = true, replace_servers"#),
            [
                "`independent` takes no value; write it alone: suite!(\"tests/evals\", bin = \"my-server\", independent)",
                "`replace_servers` replaces the server each file names with the suite's; give that server too: suite!(\"tests/evals\", server = \"my-server --stdio\", replace_servers)",
            ]
        );
    }

    #[test]
    fn each_file_is_embedded_as_a_parsed_tree() {
        let dir = scratch(&[(
            "cases/a.yaml",
            "case: x\nin: {jsonrpc: '2.0', id: 1, method: ping}\nout: {id: !!re \"[0-9]+\", n: 2.5, big: 18446744073709551615}\n",
        )]);
        let out = expand_str(dir.path(), r#""cases""#).unwrap();
        for expected in [
            "docs : & [:: mcptest :: __private :: suite :: EmbeddedNode { kind : :: mcptest :: __private :: suite :: EmbeddedKind :: Map (& [(",
            "EmbeddedKind :: Str (\"case\")",
            "tag : :: core :: option :: Option :: Some (\"!!re\") , line : 3u64 , column : 16u64",
            "EmbeddedKind :: Float (:: core :: primitive :: f64 :: from_bits (4612811918334230528u64))",
            "EmbeddedKind :: UInt (18446744073709551615u64)",
            "format : :: mcptest :: __private :: suite :: Format :: McpCases",
        ] {
            assert!(out.contains(expected), "missing {expected:?} in\n{out}");
        }
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
