//! A suite file's YAML, read at compile time by the reader mcptest's loader
//! uses (`mcptest-suite-format`), and emitted as a constant: the generated
//! test loads its file from it without parsing YAML when it runs.

use mcptest_suite_format::{Kind, Node};
use proc_macro2::TokenStream;
use quote::quote;

/// The node as a constant `EmbeddedNode` of mcptest (`private` is the path
/// of its macro support module).
pub(crate) fn to_tokens(node: &Node, private: &TokenStream) -> TokenStream {
    let kind = match &node.kind {
        Kind::Null => quote!(Null),
        Kind::Bool(b) => quote!(Bool(#b)),
        Kind::Int(i) => quote!(Int(#i)),
        Kind::UInt(u) => quote!(UInt(#u)),
        Kind::Float(f) => {
            // Bit for bit, NaN and infinities included.
            let bits = f.to_bits();
            quote!(Float(::core::primitive::f64::from_bits(#bits)))
        }
        Kind::Str(s) => quote!(Str(#s)),
        Kind::Seq(items) => {
            let items = items.iter().map(|n| to_tokens(n, private));
            quote!(Seq(&[#(#items),*]))
        }
        Kind::Map(entries) => {
            let entries = entries.iter().map(|(k, v)| {
                let (k, v) = (to_tokens(k, private), to_tokens(v, private));
                quote!((#k, #v))
            });
            quote!(Map(&[#(#entries),*]))
        }
    };
    let tag = match &node.tag {
        Some(tag) => quote!(::core::option::Option::Some(#tag)),
        None => quote!(::core::option::Option::None),
    };
    let (line, column) = (node.pos.line, node.pos.column);
    quote! {
        #private::EmbeddedNode {
            kind: #private::EmbeddedKind::#kind,
            tag: #tag,
            line: #line,
            column: #column,
        }
    }
}
