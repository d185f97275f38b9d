//! The snapshot macros: `assert_snapshot!`, `assert_json_snapshot!`,
//! `assert_tool_surface_snapshot!` and the hidden macros they expand to.
//! Exported at the crate root, they reach everything through `$crate`.

/// Compares a result with its stored YAML snapshot, named after the test.
///
/// See [the `snapshot` module](crate::snapshot) for what is stored and the
/// forms it takes.
///
/// ```
/// # let read = mcptest::expect::samples::resource_reply();
/// // let read = mcp.read_resource("fixture://static/text").await?;
/// mcptest::assert_snapshot!(read, @r#"
/// contents:
///   - mimeType: text/plain
///     text: Hello from fixture-everything.
///     uri: "fixture://static/text"
/// "#);
/// ```
#[macro_export]
macro_rules! assert_snapshot {
    ($($args:tt)*) => {
        $crate::__private::snapshot!(assert_yaml_snapshot; $($args)*)
    };
}

/// Compares a result with its stored JSON snapshot, named after the test.
///
/// The same forms as [`assert_snapshot!`](crate::assert_snapshot).
///
/// ```
/// # let done = mcptest::expect::samples::completion_reply();
/// mcptest::assert_json_snapshot!(done, @r#"
/// {
///   "completion": {
///     "hasMore": false,
///     "total": 2,
///     "values": [
///       "rust",
///       "ruby"
///     ]
///   }
/// }
/// "#);
/// ```
#[macro_export]
macro_rules! assert_json_snapshot {
    ($($args:tt)*) => {
        $crate::__private::snapshot!(assert_json_snapshot; $($args)*)
    };
}

/// Pins the server's tool surface — tools, prompts, resources and resource
/// templates, with their names, descriptions, schemas and annotations — as
/// a YAML snapshot, so that a changed schema or description is a diff to
/// review in `cargo insta review` instead of a silent drift.
///
/// The lists are sorted and the fields that change from run to run left out
/// (see [`Definitions::surface`](crate::Definitions::surface)); only
/// what the server declares a capability for is listed. It awaits the
/// listings, so it is written in an async test; a listing that fails panics
/// with the error.
///
/// ```no_run
/// use mcptest::prelude::*;
///
/// #[mcp_test(server = "my-server --stdio")]
/// async fn the_tool_surface_is_unchanged(mcp: McpClient) {
///     mcptest::assert_tool_surface_snapshot!(mcp);
///     // or named: mcptest::assert_tool_surface_snapshot!("surface", mcp);
/// }
/// ```
#[macro_export]
macro_rules! assert_tool_surface_snapshot {
    ($name:literal, $mcp:expr $(,)?) => {{
        let __mcptest_surface = $crate::__private::tool_surface!($mcp);
        $crate::assert_snapshot!($name, __mcptest_surface);
    }};
    ($mcp:expr $(,)?) => {{
        let __mcptest_surface = $crate::__private::tool_surface!($mcp);
        $crate::assert_snapshot!(__mcptest_surface);
    }};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __tool_surface {
    ($mcp:expr) => {
        match $crate::Definitions::list(&$mcp).await {
            ::core::result::Result::Ok(definitions) => definitions.surface(),
            ::core::result::Result::Err((method, error)) => {
                ::core::panic!("the tool surface could not be listed: {method} failed: {error}")
            }
        }
    };
}

/// One insta selector redaction (`{ ".id" => "[id]" }` in the macros).
#[cfg(feature = "redactions")]
#[doc(hidden)]
#[macro_export]
macro_rules! __mcptest_redact {
    ($settings:ident, $selector:expr, $replacement:expr) => {
        $settings.add_redaction($selector, $replacement);
    };
}

/// Without the `redactions` feature, a selector redaction says what to turn on.
#[cfg(not(feature = "redactions"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __mcptest_redact {
    ($settings:ident, $selector:expr, $replacement:expr) => {
        ::core::compile_error!(
            "insta redactions in braces (`{ \".id\" => \"[id]\" }`) need mcptest's `redactions` \
             feature (the named redactions, `timestamps`, `uuids`, ..., need nothing): turn it on \
             in Cargo.toml: mcptest = { ..., features = [\"redactions\"] }"
        )
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __mcptest_snapshot {
    // Every form: the value, its settings (the call in the header, the
    // default and opt-in redactions, insta redactions), then insta's macro
    // with the name or the inline snapshot, if any.
    (@run $insta:ident [$($name:literal)?] [$($inline:literal)?] $value:expr
        $(, $opt:ident)* $(, { $($selector:expr => $replacement:expr),* $(,)? })?) => {{
        let __mcptest_value = &$value;
        let __mcptest_json = $crate::snapshot::Snapshot::snapshot_value(__mcptest_value);
        #[allow(unused_mut)]
        let mut __mcptest_settings = $crate::__private::snapshot_settings(
            __mcptest_value,
            &[$($crate::snapshot::redact::$opt()),*],
        );
        $($( $crate::__private::redact!(__mcptest_settings, $selector, $replacement); )*)?
        __mcptest_settings.bind(|| {
            $crate::__private::insta::$insta!($($name,)? __mcptest_json $(, @$inline)?);
        });
    }};
    ($insta:ident; $value:expr
        $(, $opt:ident)* $(, { $($selector:expr => $replacement:expr),* $(,)? })?,
        @$inline:literal $(,)?) => {
        $crate::__private::snapshot!(@run $insta [] [$inline] $value
            $(, $opt)* $(, { $($selector => $replacement),* })?)
    };
    ($insta:ident; $name:literal, $value:expr
        $(, $opt:ident)* $(, { $($selector:expr => $replacement:expr),* $(,)? })? $(,)?) => {
        $crate::__private::snapshot!(@run $insta [$name] [] $value
            $(, $opt)* $(, { $($selector => $replacement),* })?)
    };
    ($insta:ident; $value:expr
        $(, $opt:ident)* $(, { $($selector:expr => $replacement:expr),* $(,)? })? $(,)?) => {
        $crate::__private::snapshot!(@run $insta [] [] $value
            $(, $opt)* $(, { $($selector => $replacement),* })?)
    };
}
