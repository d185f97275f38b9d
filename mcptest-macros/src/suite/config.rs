//! `suite!`'s arguments: the path first, then `key = value` options read
//! one at a time into a builder whose setters reject repeats, then checked
//! as a whole. Every problem is collected, each on its own tokens.

use std::time::Duration;

use proc_macro2::{Span, TokenStream};
use syn::{
    Expr, ExprLit, Ident, Lit, LitStr, Meta, Path, Token,
    parse::{Parse, ParseStream, Parser},
    punctuated::Punctuated,
};

pub(crate) use crate::options::Source;
use crate::{
    errors::Errors,
    options::{Common, Keys, Own},
    values,
};

/// Every option, with the example shown when it is misused.
const KEYS: Keys = Keys {
    macro_name: "suite!",
    keys: &[
        ("server", r#"server = "my-server --stdio""#),
        ("bin", r#"bin = "my-server""#),
        ("handler", "handler = MyServer::new()"),
        ("fixture", r#"fixture = "tests/fixtures""#),
        ("timeout", r#"timeout = "10s""#),
        ("wire_schema", r#"wire_schema = "warn""#),
        (
            "shared",
            r#"suite!("tests/evals", bin = "my-server", shared)"#,
        ),
        (
            "independent",
            r#"suite!("tests/evals", bin = "my-server", independent)"#,
        ),
        (
            "replace_servers",
            r#"suite!("tests/evals", server = "my-server --stdio", replace_servers)"#,
        ),
        ("name", "name = evals"),
        ("ignore", r#"ignore = "needs a database""#),
        ("crate", "crate = mcptest"),
    ],
    flags: &["shared", "independent", "replace_servers"],
    server_takes: "a command line or a `Server`",
    one_server: "the suite has one default server",
};

/// What the suite's path looks like, for errors about it.
const PATH_EXAMPLE: &str = r#"suite!("tests/evals")"#;

/// How long each request may take.
pub(crate) enum Timeout {
    /// A string literal, read here.
    Literal(Duration),
    /// An expression giving a `Duration`.
    Expr(Expr),
}

/// Checked arguments.
pub(crate) struct Config {
    pub(crate) path: LitStr,
    /// The server of files that name none (`server`, `bin` or `handler`).
    pub(crate) source: Option<Source>,
    pub(crate) fixture: Option<LitStr>,
    pub(crate) timeout: Option<Timeout>,
    /// `wire_schema = "warn"`: checked to be fail, warn or off.
    pub(crate) wire_schema: Option<LitStr>,
    /// `shared`: files that name the same server share one process.
    pub(crate) shared: bool,
    /// `independent`: the tests' servers share no state; they run at once
    /// and need no turns.
    pub(crate) independent: bool,
    /// `replace_servers`: the suite's server replaces the one a file names.
    pub(crate) replace_servers: bool,
    pub(crate) name: Option<Ident>,
    pub(crate) ignore: Option<LitStr>,
    pub(crate) krate: Option<Path>,
}

/// One argument: the path (a string literal alone) or an option.
enum Arg {
    Path(LitStr),
    Option(Box<Meta>),
}

impl Parse for Arg {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.peek(LitStr) {
            Ok(Arg::Path(input.parse()?))
        } else {
            Ok(Arg::Option(Box::new(input.parse()?)))
        }
    }
}

/// Reads the macro's input. `None` when nothing usable came out; every
/// problem is in `errors`.
pub(crate) fn parse(input: TokenStream, errors: &mut Errors) -> Option<Config> {
    let args = match Punctuated::<Arg, Token![,]>::parse_terminated.parse2(input) {
        Ok(args) => args,
        Err(error) => {
            errors.push(error);
            return None;
        }
    };
    let mut builder = Builder::default();
    for (i, arg) in args.into_iter().enumerate() {
        match arg {
            Arg::Path(lit) if i == 0 => builder.path = Some(lit),
            Arg::Path(lit) => errors.at(
                &lit,
                format!(
                    "the suite's path comes first and only once; options are `key = value`, like {}",
                    example("fixture")
                ),
            ),
            Arg::Option(meta) => {
                if i == 0 {
                    errors.at(
                        meta.path(),
                        format!("`suite!` starts with the suite's path: {PATH_EXAMPLE} (a directory or a glob, relative to the crate)"),
                    );
                }
                builder.read(*meta, errors);
            }
        }
    }
    builder.build(errors)
}

fn example(key: &str) -> &'static str {
    KEYS.example(key)
}

/// One slot per key of the macro's own; the key's ident is kept to point
/// errors at it.
#[derive(Default)]
struct Builder {
    path: Option<LitStr>,
    common: Common,
    timeout: Option<Timeout>,
    independent: Option<Ident>,
    replace_servers: Option<Ident>,
    name: Option<Ident>,
    ignore: Option<LitStr>,
}

impl Builder {
    fn read(&mut self, meta: Meta, errors: &mut Errors) {
        let (key, meta) = match KEYS.read(&mut self.common, meta, errors) {
            None => return,
            Some(Own::Flag(key)) if key == "independent" => {
                self.independent = Some(key);
                return;
            }
            Some(Own::Flag(key)) => {
                self.replace_servers = Some(key);
                return;
            }
            Some(Own::Option(key, meta)) => (key, *meta),
        };
        let name = key.to_string();
        let Some(value) = KEYS.value(&name, meta, errors) else {
            return;
        };
        let read = match name.as_str() {
            "timeout" => match &value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(lit), ..
                }) => values::duration(lit).map(|d| self.timeout = Some(Timeout::Literal(d))),
                Expr::Lit(other) => Err(syn::Error::new_spanned(
                    other,
                    format!(
                        "`timeout` takes a duration: {}, or a `Duration` expression",
                        example("timeout")
                    ),
                )),
                _ => {
                    self.timeout = Some(Timeout::Expr(value));
                    Ok(())
                }
            },
            "name" => match &value {
                Expr::Path(path) if path.qself.is_none() && path.path.get_ident().is_some() => {
                    self.name = path.path.get_ident().cloned();
                    Ok(())
                }
                other => Err(syn::Error::new_spanned(
                    other,
                    format!(
                        "`name` takes the generated module's name, an identifier: {}",
                        example("name")
                    ),
                )),
            },
            "ignore" => KEYS
                .string(&name, &value)
                .map(|reason| self.ignore = Some(reason)),
            _ => unreachable!("every key in KEYS is handled"),
        };
        if let Err(error) = read {
            errors.push(error);
        }
    }

    fn build(mut self, errors: &mut Errors) -> Option<Config> {
        let source = self.common.source(&KEYS, errors).map(|(_, s)| s);
        let Some(path) = self.path else {
            if !self.common.seen.is_empty() {
                // Already reported on the first option.
                return None;
            }
            errors.push(syn::Error::new(
                Span::call_site(),
                format!(
                    "`suite!` needs the suite's path: {PATH_EXAMPLE} (a directory or a glob, relative to the crate)"
                ),
            ));
            return None;
        };
        self.common.check_shared_fixture(errors);
        if let (Some(key), None) = (&self.replace_servers, &source) {
            errors.at(
                key,
                format!(
                    "`replace_servers` replaces the server each file names with the suite's; \
                     give that server too: {}",
                    example("replace_servers")
                ),
            );
        }
        Some(Config {
            path,
            source,
            fixture: self.common.fixture.map(|(_, v)| v),
            timeout: self.timeout,
            wire_schema: self.common.wire_schema.map(|(_, v)| v),
            shared: self.common.shared.is_some(),
            independent: self.independent.is_some(),
            replace_servers: self.replace_servers.is_some(),
            name: self.name,
            ignore: self.ignore,
            krate: self.common.krate.map(|(_, v)| v),
        })
    }
}
