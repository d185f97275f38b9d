//! The attribute's arguments: read one key at a time into a builder whose
//! setters reject repeats, then checked as a whole.

use std::time::Duration;

use proc_macro2::TokenStream;
use syn::{
    Expr, ExprLit, Ident, Lit, LitStr, Meta, MetaList, Path, Token, ext::IdentExt, parse::Parser,
    punctuated::Punctuated,
};

use crate::errors::Errors;
pub(crate) use crate::options::Source;
use crate::options::{Common, Keys, Own, SHARED_WHY};
use crate::values;

/// Every key, with the example shown when it is misused.
const KEYS: Keys = Keys {
    macro_name: "#[mcp_test]",
    keys: &[
        ("server", r#"server = "my-server --stdio""#),
        ("bin", r#"bin = "my-server""#),
        ("url", r#"url = "http://127.0.0.1:3001/mcp""#),
        ("sse", r#"sse = "http://127.0.0.1:8000/sse""#),
        ("handler", "handler = MyServer::new()"),
        ("args", r#"args = ["--root", "{{fixture}}"]"#),
        ("env", r#"env(RUST_LOG = "debug")"#),
        ("cwd", r#"cwd = "tests/fixtures""#),
        ("fixture", r#"fixture = "tests/fixtures/notes""#),
        ("timeout", r#"timeout = "30s""#),
        ("protocol", r#"protocol = "2025-11-25""#),
        ("wire_schema", r#"wire_schema = "warn""#),
        ("cassette", r#"cassette = "tests/cassettes/session.json""#),
        ("setup", "setup = my_setup"),
        ("shared", r#"#[mcp_test(server = "my-server", shared)]"#),
        ("flavor", r#"flavor = "multi_thread""#),
        ("crate", "crate = mcptest"),
    ],
    flags: &["shared"],
    server_takes: "a string",
    one_server: "a test talks to exactly one server",
};

/// A checked attribute.
pub(crate) struct Config {
    pub(crate) source: Source,
    pub(crate) args: Vec<LitStr>,
    pub(crate) env: Vec<(LitStr, LitStr)>,
    pub(crate) cwd: Option<LitStr>,
    pub(crate) fixture: Option<LitStr>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) protocol: Option<LitStr>,
    /// `fail`, `warn` or `off` (checked here).
    pub(crate) wire_schema: Option<LitStr>,
    pub(crate) cassette: Option<LitStr>,
    pub(crate) setup: Option<Expr>,
    /// `shared`: one server for every test with the same configuration (the
    /// key, to point errors at).
    pub(crate) shared: Option<Ident>,
    pub(crate) multi_thread: bool,
    pub(crate) krate: Option<Path>,
}

/// Reads the attribute's arguments. `anchor` is what an error about the
/// attribute as a whole points at. Returns `None` when nothing usable came
/// out; every problem is in `errors`.
pub(crate) fn parse(args: TokenStream, anchor: TokenStream, errors: &mut Errors) -> Option<Config> {
    let metas = match Punctuated::<Meta, Token![,]>::parse_terminated.parse2(args) {
        Ok(metas) => metas,
        Err(error) => {
            errors.push(error);
            return None;
        }
    };
    let mut builder = Builder::default();
    for meta in metas {
        builder.read(meta, errors);
    }
    builder.build(anchor, errors)
}

/// One slot per key of the attribute's own; the key's ident is kept to
/// point errors at it.
#[derive(Default)]
struct Builder {
    common: Common,
    args: Option<(Ident, Vec<LitStr>)>,
    env: Option<(Ident, Vec<(LitStr, LitStr)>)>,
    cwd: Option<(Ident, LitStr)>,
    timeout: Option<(Ident, Duration)>,
    protocol: Option<(Ident, LitStr)>,
    cassette: Option<(Ident, LitStr)>,
    setup: Option<(Ident, Expr)>,
    flavor: Option<(Ident, bool)>,
}

fn example(key: &str) -> &'static str {
    KEYS.example(key)
}

impl Builder {
    fn read(&mut self, meta: Meta, errors: &mut Errors) {
        let Some(Own::Option(key, meta)) = KEYS.read(&mut self.common, meta, errors) else {
            return;
        };
        let meta = *meta;
        let name = key.to_string();
        if name == "env" {
            match meta {
                Meta::List(list) => {
                    self.env = read_env(&list, errors).map(|vars| (key, vars));
                }
                other => errors.at(&other, format!("write `env` as a list: {}", example("env"))),
            }
            return;
        }
        let Some(value) = KEYS.value(&name, meta, errors) else {
            return;
        };
        let read = match name.as_str() {
            "args" => read_args(&value).map(|args| self.args = Some((key, args))),
            "cwd" => string(&name, &value).map(|cwd| self.cwd = Some((key, cwd))),
            "timeout" => string(&name, &value).and_then(|text| {
                self.timeout = Some((key, values::duration(&text)?));
                Ok(())
            }),
            "protocol" => string(&name, &value).and_then(|version| {
                values::check_protocol(&version)?;
                self.protocol = Some((key, version));
                Ok(())
            }),
            "cassette" => string(&name, &value).and_then(|path| {
                if path.value().trim().is_empty() {
                    return Err(syn::Error::new(
                        path.span(),
                        format!(
                            "`cassette` is empty; name the file: {}",
                            example("cassette")
                        ),
                    ));
                }
                self.cassette = Some((key, path));
                Ok(())
            }),
            "setup" => {
                self.setup = Some((key, value));
                Ok(())
            }
            "flavor" => string(&name, &value).and_then(|flavor| {
                self.flavor = Some((key, values::flavor(&flavor)?));
                Ok(())
            }),
            _ => unreachable!("every key in KEYS is handled"),
        };
        if let Err(error) = read {
            errors.push(error);
        }
    }

    fn build(mut self, anchor: TokenStream, errors: &mut Errors) -> Option<Config> {
        let Some((_, source)) = self.common.source(&KEYS, errors) else {
            if !self
                .common
                .seen
                .iter()
                .any(|k| matches!(k.as_str(), "server" | "bin" | "url" | "sse" | "handler"))
            {
                errors.at(
                    anchor,
                    format!(
                        "`#[mcp_test]` needs to know where the server comes from; add one of: {}, {}, {}, {} or {}",
                        example("server"),
                        example("bin"),
                        example("url"),
                        example("sse"),
                        example("handler"),
                    ),
                );
            }
            return None;
        };
        let process = matches!(source, Source::Command(_) | Source::Bin(_));
        if !process {
            let kind = match source {
                Source::Url(_) => "a server reached by `url`",
                Source::Sse(_) => "a server reached by `sse`",
                _ => "an in-process `handler`",
            };
            let keys = [
                self.args.as_ref().map(|(k, _)| k),
                self.env.as_ref().map(|(k, _)| k),
                self.cwd.as_ref().map(|(k, _)| k),
            ];
            for key in keys.into_iter().flatten() {
                errors.at(
                    key,
                    format!(
                        "`{key}` applies to a server started as a process (`server` or `bin`), not to {kind}; \
                         use `setup` to configure it"
                    ),
                );
            }
        }
        self.common.check_shared_fixture(errors);
        if let (Some(shared), Some((key, _))) = (&self.common.shared, &self.cassette) {
            errors.at(
                key,
                format!(
                    "`cassette` conflicts with `{shared}`: {SHARED_WHY} cassette; drop `shared` \
                     or the cassette"
                ),
            );
        }
        Some(Config {
            source,
            args: self.args.map(|(_, v)| v).unwrap_or_default(),
            env: self.env.map(|(_, v)| v).unwrap_or_default(),
            cwd: self.cwd.map(|(_, v)| v),
            fixture: self.common.fixture.map(|(_, v)| v),
            timeout: self.timeout.map(|(_, v)| v),
            protocol: self.protocol.map(|(_, v)| v),
            wire_schema: self.common.wire_schema.map(|(_, v)| v),
            cassette: self.cassette.map(|(_, v)| v),
            setup: self.setup.map(|(_, v)| v),
            shared: self.common.shared,
            multi_thread: self.flavor.is_some_and(|(_, multi)| multi),
            krate: self.common.krate.map(|(_, v)| v),
        })
    }
}

/// The value as a string literal, or an error showing how to write it.
fn string(key: &str, value: &Expr) -> syn::Result<LitStr> {
    KEYS.string(key, value)
}

fn read_args(value: &Expr) -> syn::Result<Vec<LitStr>> {
    let Expr::Array(array) = value else {
        return Err(syn::Error::new_spanned(
            value,
            format!(
                "`args` takes an array of string literals: {}",
                example("args")
            ),
        ));
    };
    let mut args = Vec::new();
    let mut errors = Errors::default();
    for element in &array.elems {
        match element {
            Expr::Lit(ExprLit {
                lit: Lit::Str(lit), ..
            }) => args.push(lit.clone()),
            other => errors.at(
                other,
                "each of `args` is a string literal, like \"--stdio\"",
            ),
        }
    }
    errors.finish().map(|()| args)
}

/// `KEY = "value"` or `"KEY" = "value"` in `env(..)`.
struct EnvVar {
    key: LitStr,
    value: Expr,
}

impl syn::parse::Parse for EnvVar {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let key = if input.peek(LitStr) {
            input.parse::<LitStr>()?
        } else {
            let ident = input.call(Ident::parse_any).map_err(|e| {
                syn::Error::new(
                    e.span(),
                    format!("expected `NAME = \"value\"` in `env`: {}", example("env")),
                )
            })?;
            LitStr::new(&ident.unraw().to_string(), ident.span())
        };
        input.parse::<Token![=]>()?;
        let value = input.parse()?;
        Ok(EnvVar { key, value })
    }
}

fn read_env(list: &MetaList, errors: &mut Errors) -> Option<Vec<(LitStr, LitStr)>> {
    let vars = match list.parse_args_with(Punctuated::<EnvVar, Token![,]>::parse_terminated) {
        Ok(vars) => vars,
        Err(error) => {
            errors.push(error);
            return None;
        }
    };
    let mut out: Vec<(LitStr, LitStr)> = Vec::new();
    let mut ok = true;
    for var in vars {
        if out.iter().any(|(key, _)| key.value() == var.key.value()) {
            errors.at(
                &var.key,
                format!("`{}` is set twice in `env`; keep one", var.key.value()),
            );
            ok = false;
        }
        match string("env", &var.value) {
            Ok(value) => out.push((var.key, value)),
            Err(_) => {
                errors.at(
                    &var.value,
                    format!(
                        "`env` values are string literals (they may use ${{VAR}}); for a computed value use `setup`: {}",
                        example("env")
                    ),
                );
                ok = false;
            }
        }
    }
    ok.then_some(out)
}
