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

use crate::{errors::Errors, options::Keys, values};

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
        ("name", "name = evals"),
        ("ignore", r#"ignore = "needs a database""#),
        ("crate", "crate = mcptest"),
    ],
};

/// What the suite's path looks like, for errors about it.
const PATH_EXAMPLE: &str = r#"suite!("tests/evals")"#;

/// Where the server of files that name none comes from.
pub(crate) enum Source {
    /// A [`Server`] or a command line (`IntoServer`); a literal is checked here.
    Server(Expr),
    Bin(LitStr),
    Handler(Expr),
}

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
    pub(crate) source: Option<Source>,
    pub(crate) fixture: Option<LitStr>,
    pub(crate) timeout: Option<Timeout>,
    /// `wire_schema = "warn"`: checked to be fail, warn or off.
    pub(crate) wire_schema: Option<LitStr>,
    /// `shared`: files that name the same server share one process.
    pub(crate) shared: bool,
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

/// One slot per key; the key's ident is kept to point errors at it.
#[derive(Default)]
struct Builder {
    path: Option<LitStr>,
    sources: Vec<(Ident, Source)>,
    fixture: Option<LitStr>,
    timeout: Option<Timeout>,
    wire_schema: Option<LitStr>,
    shared: Option<Ident>,
    /// The `fixture` key, to point a conflict with `shared` at.
    fixture_key: Option<Ident>,
    name: Option<Ident>,
    ignore: Option<LitStr>,
    krate: Option<Path>,
    /// Keys seen so far, to report repeats.
    seen: Vec<String>,
}

impl Builder {
    fn read(&mut self, meta: Meta, errors: &mut Errors) {
        let Some(key) = KEYS.key(&meta, &mut self.seen, errors) else {
            return;
        };
        let name = key.to_string();
        if name == "shared" {
            match meta {
                Meta::Path(_) => self.shared = Some(key),
                other => errors.at(
                    &other,
                    format!(
                        "`shared` takes no value; write it alone: {}",
                        example("shared")
                    ),
                ),
            }
            return;
        }
        let Some(value) = KEYS.value(&name, meta, errors) else {
            return;
        };
        let read = match name.as_str() {
            "server" => match &value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(lit), ..
                }) => values::check_command(lit),
                Expr::Lit(other) => Err(syn::Error::new_spanned(
                    other,
                    format!(
                        "`server` takes a command line or a `Server`: {}",
                        example("server")
                    ),
                )),
                _ => Ok(()),
            }
            .map(|()| self.sources.push((key, Source::Server(value)))),
            "bin" => KEYS.string(&name, &value).and_then(|bin| {
                values::check_bin(&bin)?;
                self.sources.push((key, Source::Bin(bin)));
                Ok(())
            }),
            "handler" => {
                self.sources.push((key, Source::Handler(value)));
                Ok(())
            }
            "fixture" => KEYS.string(&name, &value).and_then(|dir| {
                values::check_fixture(&dir)?;
                self.fixture = Some(dir);
                self.fixture_key = Some(key);
                Ok(())
            }),
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
            "wire_schema" => KEYS.string(&name, &value).and_then(|mode| {
                values::check_wire_schema(&mode)?;
                self.wire_schema = Some(mode);
                Ok(())
            }),
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
            "crate" => KEYS.crate_path(&value).map(|path| self.krate = Some(path)),
            _ => unreachable!("every key in KEYS is handled"),
        };
        if let Err(error) = read {
            errors.push(error);
        }
    }

    fn build(self, errors: &mut Errors) -> Option<Config> {
        let mut sources = self.sources.into_iter();
        let source = sources.next();
        if let Some((first, _)) = &source {
            for (key, _) in sources {
                errors.at(
                    &key,
                    format!(
                        "`{key}` conflicts with `{first}`: the suite has one default server; keep one of them"
                    ),
                );
            }
        }
        let Some(path) = self.path else {
            if !self.seen.is_empty() {
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
        if let (Some(shared), Some(fixture)) = (&self.shared, &self.fixture_key) {
            errors.at(
                fixture,
                format!(
                    "`fixture` conflicts with `{shared}`: one shared server serves every test, so \
                     it cannot be pointed at each test's own fixture copy; drop `shared` (a fresh \
                     server per test) or the fixture"
                ),
            );
        }
        Some(Config {
            path,
            source: source.map(|(_, s)| s),
            fixture: self.fixture,
            timeout: self.timeout,
            wire_schema: self.wire_schema,
            shared: self.shared.is_some(),
            name: self.name,
            ignore: self.ignore,
            krate: self.krate,
        })
    }
}
