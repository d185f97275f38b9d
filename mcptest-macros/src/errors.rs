//! Errors collected while a macro reads its input, reported together (and
//! the item still emitted, so IDEs keep working): every macro of this crate
//! and the option tables below them use it.

use quote::ToTokens;

/// Errors collected while reading a macro's input, reported together.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    /// Records an error spanned on `tokens`.
    pub(crate) fn at(&mut self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error.
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(errors) => errors.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub(crate) fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}
