//! Reading `key = value` options, shared by `#[mcp_test]` and `suite!`: each
//! macro has its table of keys with an example each; the keys both macros
//! have (where the server comes from, `fixture`, `wire_schema`, `shared`,
//! `crate`) are read here, once, into [`Common`]; each macro reads only its
//! own keys. Errors are on the offending tokens.

use syn::{Expr, ExprLit, Ident, Lit, LitStr, Meta, Path, spanned::Spanned};

use crate::{errors::Errors, values};

/// A macro's options: each key with the example shown when it is misused.
pub(crate) struct Keys {
    /// How the macro is written in messages: `#[mcp_test]`, `suite!`.
    pub(crate) macro_name: &'static str,
    pub(crate) keys: &'static [(&'static str, &'static str)],
    /// The keys written alone, without a value (`shared`).
    pub(crate) flags: &'static [&'static str],
    /// What `server` takes, for the error on another literal.
    pub(crate) server_takes: &'static str,
    /// Why two sources conflict: "a test talks to exactly one server".
    pub(crate) one_server: &'static str,
}

/// Where the server under test comes from.
pub(crate) enum Source {
    /// `server`: a command line (a string literal, checked here, or an
    /// expression that gives one; for `suite!`, a `Server` too).
    Command(Expr),
    /// `bin`: a binary of the package.
    Bin(LitStr),
    /// `url`: a string literal (checked here) or an expression.
    Url(Expr),
    /// `sse`: the URL of a legacy HTTP+SSE server, like `url`.
    Sse(Expr),
    /// `handler`: an rmcp handler served in process.
    Handler(Expr),
}

/// What both macros read alike, one slot per key; each key's ident is kept
/// to point errors at it.
#[derive(Default)]
pub(crate) struct Common {
    pub(crate) sources: Vec<(Ident, Source)>,
    pub(crate) fixture: Option<(Ident, LitStr)>,
    /// `fail`, `warn` or `off` (checked here).
    pub(crate) wire_schema: Option<(Ident, LitStr)>,
    /// `shared`: one server for every test with the same configuration.
    pub(crate) shared: Option<Ident>,
    pub(crate) krate: Option<(Ident, Path)>,
    /// Keys seen so far, to report repeats.
    pub(crate) seen: Vec<String>,
}

/// An option that is the macro's own, for the macro to read.
pub(crate) enum Own {
    /// A flag of [`Keys::flags`] other than `shared`, written alone (only
    /// `suite!` has such flags).
    #[cfg_attr(not(feature = "suite"), allow(dead_code))]
    Flag(Ident),
    /// Any other key, with the option as written.
    Option(Ident, Box<Meta>),
}

impl Common {
    /// The one source, the others reported as conflicting with it; `None`
    /// when none was given.
    pub(crate) fn source(&mut self, keys: &Keys, errors: &mut Errors) -> Option<(Ident, Source)> {
        let mut sources = std::mem::take(&mut self.sources).into_iter();
        let first = sources.next()?;
        for (key, _) in sources {
            errors.at(
                &key,
                format!(
                    "`{key}` conflicts with `{}`: {}; keep one of them",
                    first.0, keys.one_server
                ),
            );
        }
        Some(first)
    }

    /// `fixture` beside `shared` is an error on `fixture`.
    pub(crate) fn check_shared_fixture(&self, errors: &mut Errors) {
        if let (Some(shared), Some((fixture, _))) = (&self.shared, &self.fixture) {
            errors.at(
                fixture,
                format!(
                    "`fixture` conflicts with `{shared}`: {SHARED_WHY} fixture copy; drop `shared` \
                     (a fresh server per test) or the fixture"
                ),
            );
        }
    }
}

/// Why a shared server rules out what each test has of its own.
pub(crate) const SHARED_WHY: &str =
    "one shared server serves every test, so it cannot be pointed at each test's own";

impl Keys {
    /// Reads one option: a key both macros have goes into `common`; the
    /// macro's own keys come back as [`Own`]. `None` when there is nothing
    /// more to do (read, or the error is in `errors`).
    pub(crate) fn read(&self, common: &mut Common, meta: Meta, errors: &mut Errors) -> Option<Own> {
        let key = self.key(&meta, &mut common.seen, errors)?;
        let name = key.to_string();
        if self.flags.contains(&name.as_str()) {
            if !matches!(meta, Meta::Path(_)) {
                let example = self.example(&name);
                errors.at(
                    &meta,
                    format!("`{name}` takes no value; write it alone: {example}"),
                );
                return None;
            }
            if name == "shared" {
                common.shared = Some(key);
                return None;
            }
            return Some(Own::Flag(key));
        }
        if !matches!(
            name.as_str(),
            "server" | "bin" | "url" | "sse" | "handler" | "fixture" | "wire_schema" | "crate"
        ) {
            return Some(Own::Option(key, Box::new(meta)));
        }
        let value = self.value(&name, meta, errors)?;
        if let Err(error) = self.read_common(common, key, &name, value) {
            errors.push(error);
        }
        None
    }

    fn read_common(
        &self,
        common: &mut Common,
        key: Ident,
        name: &str,
        value: Expr,
    ) -> syn::Result<()> {
        match name {
            "server" => {
                self.string_or_expression(name, &value, self.server_takes, values::check_command)?;
                common.sources.push((key, Source::Command(value)));
            }
            "url" => {
                self.string_or_expression(name, &value, "a string", values::check_url)?;
                common.sources.push((key, Source::Url(value)));
            }
            "sse" => {
                self.string_or_expression(name, &value, "a string", values::check_sse_url)?;
                common.sources.push((key, Source::Sse(value)));
            }
            "bin" => {
                let bin = self.string(name, &value)?;
                values::check_bin(&bin)?;
                common.sources.push((key, Source::Bin(bin)));
            }
            "handler" => common.sources.push((key, Source::Handler(value))),
            "fixture" => {
                let dir = self.string(name, &value)?;
                values::check_fixture(&dir)?;
                common.fixture = Some((key, dir));
            }
            "wire_schema" => {
                let mode = self.string(name, &value)?;
                values::check_wire_schema(&mode)?;
                common.wire_schema = Some((key, mode));
            }
            _ => common.krate = Some((key, self.crate_path(&value)?)),
        }
        Ok(())
    }

    /// A string literal, checked with `check`, or an expression (a
    /// `concat!`, a constant, a call) whose value is only known when the
    /// test runs; another literal is an error saying what the key `takes`.
    pub(crate) fn string_or_expression(
        &self,
        key: &str,
        value: &Expr,
        takes: &str,
        check: fn(&LitStr) -> syn::Result<()>,
    ) -> syn::Result<()> {
        match value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(lit), ..
            }) => check(lit),
            Expr::Lit(other) => Err(syn::Error::new_spanned(
                other,
                format!("`{key}` takes {takes}: {}", self.example(key)),
            )),
            _ => Ok(()),
        }
    }

    /// The example of `key` (empty for an unknown key).
    pub(crate) fn example(&self, key: &str) -> &'static str {
        self.keys
            .iter()
            .find(|(name, _)| *name == key)
            .map_or("", |(_, example)| example)
    }

    /// The key of `meta` when it is one of these and not in `seen` (which
    /// it is added to); otherwise the error is in `errors`.
    fn key(&self, meta: &Meta, seen: &mut Vec<String>, errors: &mut Errors) -> Option<Ident> {
        let Some(key) = meta.path().get_ident().cloned() else {
            errors.at(meta.path(), self.unknown(&path_string(meta.path())));
            return None;
        };
        let name = key.to_string();
        if !self.keys.iter().any(|(known, _)| *known == name) {
            errors.at(&key, self.unknown(&name));
            return None;
        }
        if seen.contains(&name) {
            errors.at(&key, format!("`{name}` is given twice; keep one"));
            return None;
        }
        seen.push(name);
        Some(key)
    }

    /// The value of `key = value`, or an error showing how to write it.
    pub(crate) fn value(&self, key: &str, meta: Meta, errors: &mut Errors) -> Option<Expr> {
        match meta {
            Meta::NameValue(pair) => Some(pair.value),
            other => {
                errors.at(
                    &other,
                    format!("`{key}` needs a value: {}", self.example(key)),
                );
                None
            }
        }
    }

    /// "unknown option `servre` for `suite!`; did you mean `server`? the
    /// options are: ..." — the same did-you-mean as suite files' keys.
    fn unknown(&self, key: &str) -> String {
        let keys: Vec<&str> = self.keys.iter().map(|(name, _)| *name).collect();
        let near = match mcptest_suite_format::nearest(key, &keys) {
            Some(near) => format!("did you mean `{near}`? "),
            None => String::new(),
        };
        format!(
            "unknown option `{key}` for `{}`; {near}the options are: {}",
            self.macro_name,
            keys.join(", ")
        )
    }

    /// The value as a string literal, or an error showing how to write it.
    pub(crate) fn string(&self, key: &str, value: &Expr) -> syn::Result<LitStr> {
        match value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(lit), ..
            }) => Ok(lit.clone()),
            other => Err(syn::Error::new_spanned(
                other,
                format!("`{key}` takes a string literal: {}", self.example(key)),
            )),
        }
    }

    /// `crate = path` or `crate = "path"`.
    pub(crate) fn crate_path(&self, value: &Expr) -> syn::Result<Path> {
        let error = |span| {
            syn::Error::new(
                span,
                format!("`crate` takes a path: {}", self.example("crate")),
            )
        };
        match value {
            Expr::Path(path) if path.qself.is_none() => Ok(path.path.clone()),
            Expr::Lit(ExprLit {
                lit: Lit::Str(lit), ..
            }) => lit.parse::<Path>().map_err(|_| error(lit.span())),
            other => Err(error(other.span())),
        }
    }
}

fn path_string(path: &Path) -> String {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    segments.join("::")
}

/// `Server::program` of the package's binary `bin`, its path read from
/// `CARGO_BIN_EXE_<bin>` where the test is compiled; a binary the package
/// does not have is a compile error on `bin` that lists the ones it has.
pub(crate) fn bin_program(
    bin: &LitStr,
    krate: &proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    let name = bin.value();
    let var = format!("CARGO_BIN_EXE_{name}");
    let message = missing_bin(&name, &package_bins());
    quote::quote_spanned!(bin.span()=> #krate::Server::program(::core::env!(#var, #message)))
}

/// The binaries cargo tells an integration test (or bench) about.
fn package_bins() -> Vec<String> {
    let mut bins: Vec<String> = std::env::vars()
        .filter_map(|(key, _)| key.strip_prefix("CARGO_BIN_EXE_").map(str::to_owned))
        .collect();
    bins.sort();
    bins
}

/// What to say when `bin` names none of `bins`.
fn missing_bin(bin: &str, bins: &[String]) -> String {
    let has = match bins {
        [] => "this package has no [[bin]] target its integration tests (or benches) can use"
            .to_owned(),
        _ => {
            let names: Vec<&str> = bins.iter().map(String::as_str).collect();
            let near = match mcptest_suite_format::nearest(bin, &names) {
                Some(near) => format!("did you mean `{near}`? "),
                None => String::new(),
            };
            format!("{near}its binaries are: {}", names.join(", "))
        }
    };
    format!(
        "no binary named `{bin}` in this package: `bin` names a [[bin]] target of the \
         package whose integration tests (or benches) use it; {has}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_binary_lists_the_package_s_binaries() {
        let bins = ["notes-server".to_owned(), "other".to_owned()];
        assert_eq!(
            missing_bin("notes-sever", &bins),
            "no binary named `notes-sever` in this package: `bin` names a [[bin]] target of \
             the package whose integration tests (or benches) use it; did you mean \
             `notes-server`? its binaries are: notes-server, other"
        );
        assert!(missing_bin("x", &[]).ends_with(
            "this package has no [[bin]] target its integration tests (or benches) can use"
        ));
    }
}
