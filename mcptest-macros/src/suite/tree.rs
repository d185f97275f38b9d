//! A suite file's YAML, read at compile time by the reader mcptest's loader
//! uses (`mcptest-yaml`), and emitted as a constant: the generated test
//! loads its file from it without parsing YAML when it runs.

use mcptest_yaml::{Kind, Node};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) use mcptest_yaml::parse_documents as parse;

/// The case's name, if it has one.
pub(crate) fn case(doc: &Node) -> Option<&str> {
    doc.get("case").and_then(Node::as_str)
}

/// `skip: true`.
pub(crate) fn skip(doc: &Node) -> bool {
    matches!(doc.get("skip").map(|n| &n.kind), Some(Kind::Bool(true)))
}

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
