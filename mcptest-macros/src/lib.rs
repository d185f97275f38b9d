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
