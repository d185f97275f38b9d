//! What the test function looks like: `async`, no generics, parameters
//! `(McpClient)` or `(McpClient, Fixture)`, no other test attribute.

use syn::{Attribute, FnArg, ItemFn, Type};

use crate::errors::Errors;

/// What the generated code needs to know about the function.
pub(crate) struct TestFn {
    /// `#[should_panic]`: a panic is the passing outcome.
    pub(crate) expect_panic: bool,
}

const SIGNATURE: &str =
    "`async fn name(mcp: McpClient)` or `async fn name(mcp: McpClient, fixture: Fixture)`";

/// An attribute that makes a test by itself: `#[test]`, `#[tokio::test]`,
/// `#[mcp_test]`, ...
pub(crate) fn is_test_attribute(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|segment| segment.ident == "test" || segment.ident == "mcp_test")
}

pub(crate) fn check(function: &ItemFn, errors: &mut Errors) -> TestFn {
    for attr in function.attrs.iter().filter(|a| is_test_attribute(a)) {
        let path = attr
            .path()
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect::<Vec<_>>()
            .join("::");
        errors.at(
            attr,
            format!("`#[mcp_test]` already makes this function a test; remove `#[{path}]`"),
        );
    }
    let sig = &function.sig;
    if sig.asyncness.is_none() {
        errors.at(
            sig.fn_token,
            format!("`#[mcp_test]` functions must be `async`: {SIGNATURE}"),
        );
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.at(
            &sig.generics,
            "`#[mcp_test]` functions cannot be generic: the test runner calls them with a concrete client",
        );
    }
    if let Some(variadic) = &sig.variadic {
        errors.at(variadic, format!("`#[mcp_test]` functions are {SIGNATURE}"));
    }
    check_inputs(function, errors);
    TestFn {
        expect_panic: function
            .attrs
            .iter()
            .any(|attr| attr.path().is_ident("should_panic")),
    }
}

fn check_inputs(function: &ItemFn, errors: &mut Errors) {
    let sig = &function.sig;
    if sig.inputs.is_empty() {
        errors.push(syn::Error::new(
            sig.paren_token.span.join(),
            format!("an `#[mcp_test]` function takes the client: {SIGNATURE}"),
        ));
        return;
    }
    for (position, input) in sig.inputs.iter().enumerate() {
        let ty = match input {
            FnArg::Receiver(receiver) => {
                errors.at(
                    receiver,
                    format!(
                        "an `#[mcp_test]` function is a free function, without `self`: {SIGNATURE}"
                    ),
                );
                continue;
            }
            FnArg::Typed(typed) => &*typed.ty,
        };
        match (position, type_name(ty).as_deref()) {
            (0, Some("McpClient")) | (1, Some("Fixture")) => {}
            (0, Some("Fixture")) => errors.at(
                ty,
                "the client comes first: `async fn name(mcp: McpClient, fixture: Fixture)`",
            ),
            (1, Some("McpClient")) => errors.at(
                ty,
                "the test gets one client, first; the second parameter is the fixture: `fixture: Fixture`",
            ),
            (0, _) if is_reference_to_client(ty) => errors.at(
                ty,
                "the test owns its client: take it by value, `mcp: McpClient` (it is cheap to clone)",
            ),
            (0, _) => errors.at(
                ty,
                format!(
                    "the first parameter of an `#[mcp_test]` function is the client, `mcp: McpClient`; \
                     found `{}`",
                    tokens(ty)
                ),
            ),
            (1, _) => errors.at(
                ty,
                format!(
                    "the second parameter of an `#[mcp_test]` function is the fixture copy, \
                     `fixture: Fixture`; found `{}`",
                    tokens(ty)
                ),
            ),
            _ => errors.at(
                input,
                format!("an `#[mcp_test]` function takes at most two parameters: {SIGNATURE}"),
            ),
        }
    }
}

/// The last segment of a plain path type without generic arguments
/// (`McpClient`, `mcptest::McpClient`).
fn type_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) if path.qself.is_none() => {
            let last = path.path.segments.last()?;
            last.arguments.is_none().then(|| last.ident.to_string())
        }
        Type::Group(group) => type_name(&group.elem),
        Type::Paren(paren) => type_name(&paren.elem),
        _ => None,
    }
}

fn is_reference_to_client(ty: &Type) -> bool {
    matches!(ty, Type::Reference(reference) if type_name(&reference.elem).as_deref() == Some("McpClient"))
}

/// The type as written, without the spaces token streams put around `::`.
fn tokens(ty: &Type) -> String {
    quote::quote!(#ty)
        .to_string()
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace("& ", "&")
}
