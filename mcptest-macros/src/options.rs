//! Reading `key = value` options, shared by `#[mcp_test]` and `suite!`: each
//! macro has its table of keys with an example each; these read one key and
//! its literal values, with errors on the offending tokens.

use syn::{Expr, ExprLit, Ident, Lit, LitStr, Meta, Path, spanned::Spanned};

use crate::mcp_test::Errors;

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

    fn unknown(&self, key: &str) -> String {
        let keys: Vec<&str> = self.keys.iter().map(|(name, _)| *name).collect();
        format!(
            "unknown option `{key}` for `{}`; the options are: {}",
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
