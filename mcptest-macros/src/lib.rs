//! Procedural macros for [`mcptest`](https://docs.rs/mcptest).
//!
//! Use them through the `mcptest` crate, which re-exports them; this crate's
//! API is not meant to be depended on directly.

#[cfg(feature = "suite")]
mod suite;

/// One `#[test]` per suite file or case; see `mcptest::suite!`.
#[cfg(feature = "suite")]
#[proc_macro]
pub fn suite(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    suite::expand(input.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

mod errors;
mod mcp_test;
mod options;
mod values;

/// Runs an async function as a test against a fresh MCP server; documented
/// at `mcptest::mcp_test`.
#[proc_macro_attribute]
pub fn mcp_test(
    args: proc_macro::TokenStream,
    item: proc_macro::TokenStream,
) -> proc_macro::TokenStream {
    let item = proc_macro2::TokenStream::from(item);
    mcp_test::expand(args.into(), item.clone())
        .unwrap_or_else(|errors| mcp_test::recover(errors, item))
        .into()
}
