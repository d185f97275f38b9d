//! `#[mcp_test]`: turns `async fn name(mcp: McpClient, ..)` into a plain
//! `#[test]` that starts a fresh server, copies the fixture, runs the body and
//! tears everything down. The generated code calls `mcptest::__private`.

mod config;
mod signature;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::{ItemFn, ReturnType, spanned::Spanned};

use crate::errors::Errors;
use config::{Config, Source};
use signature::TestFn;

/// Expands the attribute, or returns every error found (spanned on the
/// offending tokens).
pub(crate) fn expand(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let function = match syn::parse2::<syn::Item>(item)? {
        syn::Item::Fn(function) => function,
        other => {
            return Err(syn::Error::new_spanned(
                other,
                "`#[mcp_test]` goes on an `async fn`, like `async fn name(mcp: McpClient) { .. }`",
            ));
        }
    };
    let mut errors = Errors::default();
    // With no arguments there is nothing to point at but the function's name.
    let anchor = if args.is_empty() {
        function.sig.ident.to_token_stream()
    } else {
        args.clone()
    };
    let config = config::parse(args, anchor, &mut errors);
    let test = signature::check(&function, &mut errors);
    if let (Some(shared), Some(fixture)) = (
        config.as_ref().and_then(|c| c.shared.as_ref()),
        function.sig.inputs.iter().nth(1),
    ) {
        errors.at(
            fixture,
            format!(
                "a test with `{shared}` cannot take a `Fixture`: one shared server serves every \
                 test, so it cannot be pointed at each test's own fixture copy; drop `shared` \
                 (a fresh server per test) or this parameter"
            ),
        );
    }
    errors.finish()?;
    let config = config.expect("a config is built whenever no error was reported");
    Ok(generate(config, test, function))
}

/// What to emit when [`expand`] failed: the errors, and the user's function
/// as written (minus any test attribute), so that the rest of the file still
/// type-checks and an IDE keeps working on the body.
pub(crate) fn recover(errors: syn::Error, item: TokenStream) -> TokenStream {
    let mut out = errors.to_compile_error();
    match syn::parse2::<ItemFn>(item.clone()) {
        Ok(mut function) => {
            function
                .attrs
                .retain(|attr| !signature::is_test_attribute(attr));
            out.extend(quote!(#[allow(dead_code)] #function));
        }
        Err(_) => out.extend(item),
    }
    out
}

fn generate(config: Config, test: TestFn, function: ItemFn) -> TokenStream {
    let krate = config
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::mcptest));
    let ItemFn {
        attrs,
        vis,
        sig,
        block,
    } = function;
    let name = &sig.ident;

    let mut spec = quote! {
        #krate::__private::TestSpec::new(
            ::core::concat!(::core::module_path!(), "::", ::core::stringify!(#name))
        )
    };
    if config.multi_thread {
        spec.extend(quote!(.flavor(#krate::__private::Flavor::MultiThread)));
    }
    if let Some(fixture) = &config.fixture {
        let span = fixture.span();
        spec.extend(if std::path::Path::new(&fixture.value()).is_absolute() {
            quote_spanned!(span=> .fixture(#fixture))
        } else {
            quote_spanned! {span=>
                .fixture(::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), "/", #fixture))
            }
        });
    }
    if test.expect_panic {
        spec.extend(quote!(.expect_panic()));
    }

    let server = server_builder(&config, &krate);
    // Through a typed `let`, so that a function of the wrong type is one
    // error on `setup`'s value.
    let setup = config.setup.as_ref().map(|setup| {
        quote_spanned! {setup.span()=>
            let setup: fn(#krate::Server) -> #krate::Server = #setup;
            let server = setup(server);
        }
    });

    // Turns what the function returned into pass or fail; spanned on the
    // return type, so an unsupported one is reported there, once.
    let report = match &sig.output {
        ReturnType::Default => {
            quote!(|output: ()| #krate::__private::TestOutput::into_result(output))
        }
        ReturnType::Type(_, ty) if !mentions_impl_trait(ty) => quote_spanned! {ty.span()=>
            |output: #ty| #krate::__private::TestOutput::into_result(output)
        },
        ReturnType::Type(_, ty) => quote_spanned! {ty.span()=>
            #krate::__private::TestOutput::into_result
        },
    };

    // Outside test builds (doctests, binaries, trybuild) the function stays a
    // plain function that can be called, instead of disappearing.
    quote! {
        #(#attrs)*
        #[cfg_attr(test, ::core::prelude::v1::test)]
        #[cfg_attr(not(test), allow(dead_code))]
        #vis fn #name() {
            // Keeps the user's name, so that snapshot macros that read the
            // enclosing function's name see the test's.
            #sig #block
            #krate::__private::run(
                #spec,
                || {
                    let server = #server;
                    #setup
                    server
                },
                #name,
                #report,
            )
        }
    }
}

/// `Server::...` with every option the attribute spells.
fn server_builder(config: &Config, krate: &syn::Path) -> TokenStream {
    let mut server = match &config.source {
        Source::Command(line) => quote_spanned! {line.span()=>
            #krate::Server::command(::core::convert::AsRef::<str>::as_ref(&(#line)))
        },
        Source::Bin(bin) => crate::options::bin_program(bin, &quote!(#krate)),
        Source::Url(url) => quote_spanned!(url.span()=> #krate::Server::url(#url)),
        Source::Sse(url) => quote_spanned!(url.span()=> #krate::Server::sse(#url)),
        Source::Handler(handler) => {
            quote_spanned!(handler.span()=> #krate::Server::in_process(#handler))
        }
    };
    if !config.args.is_empty() {
        let args = &config.args;
        server.extend(quote!(.args([#(#args),*])));
    }
    for (key, value) in &config.env {
        server.extend(quote!(.env(#key, #value)));
    }
    if let Some(cwd) = &config.cwd {
        server.extend(quote!(.current_dir(#cwd)));
    }
    if let Some(timeout) = config.timeout {
        let (secs, nanos) = (timeout.as_secs(), timeout.subsec_nanos());
        // One bound for every wait of the test: each request and the
        // start-up with its handshake.
        server.extend(quote!(
            .timeout(#krate::__private::Duration::new(#secs, #nanos))
            .connect_timeout(#krate::__private::Duration::new(#secs, #nanos))
        ));
    }
    if let Some(mode) = &config.wire_schema {
        let mode = match mode.value().as_str() {
            "warn" => quote!(Warn),
            "off" => quote!(Off),
            _ => quote!(Fail),
        };
        server.extend(quote!(.wire_schema(#krate::WireSchema::#mode)));
    }
    if let Some(protocol) = &config.protocol {
        server.extend(quote!(.protocol_version(#protocol)));
    }
    if let Some(cassette) = &config.cassette {
        let span = cassette.span();
        let path = if std::path::Path::new(&cassette.value()).is_absolute() {
            quote_spanned!(span=> #cassette)
        } else {
            quote_spanned!(span=> ::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), "/", #cassette))
        };
        server.extend(quote!(.cassette(#path, #krate::CassetteMode::Auto)));
    }
    if config.shared.is_some() {
        server.extend(quote!(.shared()));
    }
    server
}

fn mentions_impl_trait(ty: &syn::Type) -> bool {
    ty.to_token_stream()
        .into_iter()
        .any(|token| matches!(token, proc_macro2::TokenTree::Ident(ident) if ident == "impl"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(args: &str, item: &str) -> syn::Result<String> {
        expand(args.parse().unwrap(), item.parse().unwrap()).map(|tokens| tokens.to_string())
    }

    fn messages(args: &str, item: &str) -> Vec<String> {
        expand_str(args, item)
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect()
    }

    const BODY: &str = "async fn t(mcp: McpClient) {}";

    #[test]
    fn a_valid_attribute_expands_to_a_test_around_the_users_fn() {
        let out = expand_str(
            r#"server = "my-server --stdio", env(A = "1", "b.c" = "2"), cwd = "x", timeout = "1m 30s", protocol = "2025-03-26", setup = my::setup, flavor = "multi_thread""#,
            "/// docs\n#[ignore] async fn t(mcp: McpClient, fixture: Fixture) -> Result<(), String> { Ok(()) }",
        )
        .unwrap();
        for expected in [
            "# [doc = \" docs\"]",
            "# [ignore]",
            "# [cfg_attr (test , :: core :: prelude :: v1 :: test)]",
            "fn t ()",
            "async fn t (mcp : McpClient , fixture : Fixture) -> Result < () , String >",
            ":: mcptest :: Server :: command (:: core :: convert :: AsRef :: < str > :: as_ref (& (\"my-server --stdio\")))",
            ". env (\"A\" , \"1\") . env (\"b.c\" , \"2\")",
            ". current_dir (\"x\")",
            ". timeout (:: mcptest :: __private :: Duration :: new (90u64 , 0u32)) . connect_timeout (:: mcptest :: __private :: Duration :: new (90u64 , 0u32))",
            ". protocol_version (\"2025-03-26\")",
            "let setup : fn (:: mcptest :: Server) -> :: mcptest :: Server = my :: setup ;",
            ". flavor (:: mcptest :: __private :: Flavor :: MultiThread)",
            "| output : Result < () , String > | :: mcptest :: __private :: TestOutput :: into_result (output)",
        ] {
            assert!(out.contains(expected), "missing {expected:?} in\n{out}");
        }
        assert!(!out.contains("expect_panic"), "{out}");
    }

    #[test]
    fn bin_args_fixture_and_crate() {
        let out = expand_str(
            r#"bin = "srv", args = ["--root", "{{fixture}}"], fixture = "src", crate = my_mcptest"#,
            "#[should_panic] async fn t(mcp: McpClient) {}",
        )
        .unwrap();
        for expected in [
            "my_mcptest :: Server :: program (:: core :: env ! (\"CARGO_BIN_EXE_srv\"",
            ". args ([\"--root\" , \"{{fixture}}\"])",
            ". fixture (:: core :: concat ! (:: core :: env ! (\"CARGO_MANIFEST_DIR\") , \"/\" , \"src\"))",
            ". expect_panic ()",
            "my_mcptest :: __private :: run",
        ] {
            assert!(out.contains(expected), "missing {expected:?} in\n{out}");
        }
        assert!(
            !out.contains(":: mcptest ::"),
            "`crate` replaces every path: {out}"
        );
    }

    #[test]
    fn a_cassette_is_found_beside_the_manifest_and_replayed_or_recorded() {
        let out = expand_str(r#"bin = "srv", cassette = "tests/cassettes/a.json""#, BODY).unwrap();
        let expected = ". cassette (:: core :: concat ! (:: core :: env ! (\"CARGO_MANIFEST_DIR\") , \"/\" , \"tests/cassettes/a.json\") , :: mcptest :: CassetteMode :: Auto)";
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
        let errors = messages(r#"bin = "srv", cassette = " ""#, BODY);
        assert!(errors[0].starts_with("`cassette` is empty"), "{errors:?}");
    }

    #[test]
    fn shared_asks_for_a_shared_server_and_refuses_a_fixture() {
        let out = expand_str(r#"bin = "srv", shared"#, BODY).unwrap();
        assert!(out.contains(". shared ()"), "{out}");
        let errors = messages(
            r#"bin = "srv", shared, fixture = "src", cassette = "a.json""#,
            BODY,
        );
        assert!(
            errors[0].starts_with("`fixture` conflicts with `shared`"),
            "{errors:?}"
        );
        assert!(
            errors[1].starts_with("`cassette` conflicts with `shared`"),
            "{errors:?}"
        );
        let errors = messages(
            r#"bin = "srv", shared"#,
            "async fn t(mcp: McpClient, fixture: Fixture) {}",
        );
        assert!(errors[0].contains("cannot take a `Fixture`"), "{errors:?}");
        let errors = messages(r#"bin = "srv", shared = true"#, BODY);
        assert!(
            errors[0].starts_with("`shared` takes no value"),
            "{errors:?}"
        );
    }

    #[test]
    fn url_and_handler_sources() {
        let out = expand_str(r#"url = "http://127.0.0.1:1/mcp""#, BODY).unwrap();
        assert!(
            out.contains("Server :: url (\"http://127.0.0.1:1/mcp\")"),
            "{out}"
        );
        let out = expand_str(r#"handler = Everything::new(Default::default())"#, BODY).unwrap();
        assert!(
            out.contains("Server :: in_process (Everything :: new (Default :: default ()))"),
            "{out}"
        );
        let out = expand_str(r#"server = concat!(env!("BIN"), " --stdio")"#, BODY).unwrap();
        assert!(
            out.contains("as_ref (& (concat ! (env ! (\"BIN\") , \" --stdio\")))"),
            "{out}"
        );
        let out = expand_str(r#"url = my_url()"#, BODY).unwrap();
        assert!(out.contains("Server :: url (my_url ())"), "{out}");
        let out = expand_str(r#"crate = "renamed::inner", handler = H"#, BODY).unwrap();
        assert!(
            out.contains("renamed :: inner :: Server :: in_process (H)"),
            "{out}"
        );
    }

    #[test]
    fn every_error_is_reported_at_once() {
        let errors = messages(
            r#"bogus = 1, server = "a", url = "http://x", timeout = "soon", timeout = "1s", protocol = "v2""#,
            "#[tokio::test] fn t(mcp: String) {}",
        );
        let expected = [
            "unknown option `bogus` for `#[mcp_test]`; the options are: server, bin, url, sse, handler, args, env, cwd, fixture, timeout, protocol, wire_schema, cassette, setup, shared, flavor, crate",
            "invalid duration \"soon\"",
            "`timeout` is given twice",
            "protocol version \"v2\"",
            "`url` conflicts with `server`",
            "`#[mcp_test]` already makes this function a test",
            "`#[mcp_test]` functions must be `async`",
            "the first parameter of an `#[mcp_test]` function is the client",
        ];
        assert_eq!(errors.len(), expected.len(), "{errors:#?}");
        for (error, expected) in errors.iter().zip(expected) {
            assert!(
                error.contains(expected),
                "{error:?} should contain {expected:?}"
            );
        }
    }

    #[test]
    fn a_missing_source_is_reported() {
        let errors = messages("", BODY);
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].contains("needs to know where the server comes from"),
            "{errors:?}"
        );
        let errors = messages(r#"timeout = "1s""#, BODY);
        assert!(
            errors[0].contains("needs to know where the server comes from"),
            "{errors:?}"
        );
    }

    #[test]
    fn not_a_function() {
        let error = expand_str(r#"server = "x""#, "struct S;").unwrap_err();
        assert!(
            error.to_string().contains("goes on an `async fn`"),
            "{error}"
        );
    }

    #[test]
    fn recovery_keeps_the_function_without_test_attributes() {
        let item: TokenStream = "#[tokio::test] #[ignore] async fn t(mcp: McpClient) { body() }"
            .parse()
            .unwrap();
        let out = recover(
            syn::Error::new(proc_macro2::Span::call_site(), "boom"),
            item,
        )
        .to_string();
        assert!(out.contains("compile_error"), "{out}");
        assert!(
            out.contains("# [allow (dead_code)] # [ignore] async fn t"),
            "{out}"
        );
        assert!(!out.contains("tokio"), "{out}");
    }
}
