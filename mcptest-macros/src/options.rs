//! Reading `key = value` options, shared by `#[mcp_test]` and `suite!`: each
//! macro has its table of keys with an example each; these read one key and
//! its literal values, with errors on the offending tokens.

use syn::{Expr, ExprLit, Ident, Lit, LitStr, Meta, Path, spanned::Spanned};

use crate::errors::Errors;

/// A macro's options: each key with the example shown when it is misused.
pub(crate) struct Keys {
    /// How the macro is written in messages: `#[mcp_test]`, `suite!`.
    pub(crate) macro_name: &'static str,
    pub(crate) keys: &'static [(&'static str, &'static str)],
}

impl Keys {
    /// The example of `key` (empty for an unknown key).
    pub(crate) fn example(&self, key: &str) -> &'static str {
        self.keys
            .iter()
            .find(|(name, _)| *name == key)
            .map_or("", |(_, example)| example)
    }

    /// The key of `meta` when it is one of these and not in `seen` (which
    /// it is added to); otherwise the error is in `errors`.
    pub(crate) fn key(
        &self,
        meta: &Meta,
        seen: &mut Vec<String>,
        errors: &mut Errors,
    ) -> Option<Ident> {
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
