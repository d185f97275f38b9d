//! The fluent checks, one table: for each result type, each method and the
//! check it runs. A method is `#[track_caller]` and panics with the failure
//! (so the panic points at the test's line); `check(..)` and `assert(..)`
//! run any check value, the first returning the failure instead.
//!
//! A row is `fn name(args) => check;`: most run the `expect` function of
//! the same name; a negation is the positive check under `not` (the fluent
//! `text_not_contains` is `not(text_contains(..))`), so it says what it
//! expects in the check's own words.

use rmcp::model::{CompleteResult, GetPromptResult, ReadResourceResult, Role, Tool};
use serde_json::Value;

use super::{ContentKind, Count, FileSnapshot, Listed, not};
use crate::{
    client::Reply, client::ToolCall, server_messages::LogLevel, server_messages::ServerMessages,
};

/// `check` and `assert`: any check (or tuple of checks) on a result type.
macro_rules! subject_methods {
    ([$($gen:tt)*] $subject:ty) => {
        impl<$($gen)*> $subject {
            /// Runs a check (or a tuple of checks) and returns the failure
            /// instead of panicking. See [`expect`](crate::expect).
            pub fn check<C: $crate::expect::Check<Self>>(
                &self,
                check: C,
            ) -> Result<&Self, $crate::expect::Failure> {
                $crate::expect::run(self, &check).map(|()| self)
            }

            /// Runs a check (or a tuple of checks, reporting every failure)
            /// and panics with the failure message if it does not hold.
            #[track_caller]
            pub fn assert<C: $crate::expect::Check<Self>>(&self, check: C) -> &Self {
                if let Err(failure) = $crate::expect::run(self, &check) {
                    failure.panic();
                }
                self
            }
        }
    };
}

/// One block of the table: each row becomes a `#[track_caller]` method that
/// asserts its check.
macro_rules! fluent {
    ($(
        $(#[$impl_attr:meta])*
        impl [$($gen:tt)*] $subject:ty {
            $(
                $(#[$attr:meta])*
                fn $name:ident($($arg:ident: $ty:ty),*) => $check:expr;
            )*
        }
    )*) => {$(
        $(#[$impl_attr])*
        impl<$($gen)*> $subject {
            $(
                $(#[$attr])*
                #[track_caller]
                pub fn $name(&self, $($arg: $ty),*) -> &Self {
                    self.assert($check)
                }
            )*
        }
    )*};
}

/// Rows that need a feature: with it they are ordinary rows; without it
/// each method still exists, and calling it is a compile error that names
/// the feature and the line to add (see [`needs`](crate::needs)).
macro_rules! fluent_needs {
    (feature = $feature:literal, needs = $needs:ident; $(
        $(#[$impl_attr:meta])*
        impl [$($gen:tt)*] $subject:ty {
            $(
                $(#[$attr:meta])*
                fn $name:ident($($arg:ident: $ty:ty),*) => $check:expr;
            )*
        }
    )*) => {
        #[cfg(feature = $feature)]
        fluent! {$(
            $(#[$impl_attr])*
            impl [$($gen)*] $subject {
                $(
                    $(#[$attr])*
                    fn $name($($arg: $ty),*) => $check;
                )*
            }
        )*}
        $(
            #[cfg(not(feature = $feature))]
            impl<$($gen)*> $subject {
                $(
                    #[doc(hidden)]
                    pub fn $name<'needs>(&self, $(_: $ty),*) -> &Self
                    where
                        &'needs (): $crate::needs::$needs,
                    {
                        unreachable!(concat!("no type meets this bound without the `", $feature, "` feature"))
                    }
                )*
            }
        )*
    };
}

/// The text checks, the same on every result that has text.
macro_rules! text_checks {
    ($($subject:ty),*) => {$(
        fluent! {
            /// The fluent text checks; each panics with the failure message.
            impl [] $subject {
                /// Checks the text equals `expected` (trimmed). See
                /// [`expect::text_eq`](crate::expect::text_eq).
                fn text_eq(expected: impl Into<String>) => super::text_eq(expected);
                /// Checks the text contains `needle`. See
                /// [`expect::text_contains`](crate::expect::text_contains).
                fn text_contains(needle: impl Into<String>) => super::text_contains(needle);
                /// Checks the text contains one of `needles`. See
                /// [`expect::text_contains_any`](crate::expect::text_contains_any).
                fn text_contains_any(needles: impl IntoIterator<Item = impl Into<String>>) =>
                    super::text_contains_any(needles);
                /// Checks the text does not contain `needle`:
                /// `not(`[`expect::text_contains`](crate::expect::text_contains)`(needle))`.
                fn text_not_contains(needle: impl Into<String>) =>
                    not(super::text_contains(needle));
                /// Checks the text matches a regular expression. See
                /// [`expect::text_matches`](crate::expect::text_matches).
                fn text_matches(pattern: impl Into<String>) => super::text_matches(pattern);
                /// Checks the text contains `parts` in order. See
                /// [`expect::text_in_order`](crate::expect::text_in_order).
                fn text_in_order(parts: impl IntoIterator<Item = impl Into<String>>) =>
                    super::text_in_order(parts);
                /// Checks the result is not empty. See
                /// [`expect::not_empty`](crate::expect::not_empty).
                fn not_empty() => super::not_empty();
            }
        }
    )*};
}

subject_methods!([] ToolCall);
subject_methods!([T] Reply<T>);
subject_methods!([] ServerMessages);

text_checks!(ToolCall, Reply<GetPromptResult>, Reply<ReadResourceResult>);

fluent! {
    /// The fluent checks on a tool call; each panics with the failure
    /// message. See [`expect`](crate::expect) for the `Result`-returning form.
    impl [] ToolCall {
        /// Checks that the tool succeeded. See [`expect::success`](crate::expect::success).
        fn assert_success() => super::success();
        /// Checks that the tool reported `isError: true`. See
        /// [`expect::tool_error`](crate::expect::tool_error).
        fn assert_tool_error() => super::tool_error();
        /// Checks that the server answered with a JSON-RPC error (with `code`,
        /// when given). See [`expect::rpc_error`](crate::expect::rpc_error).
        fn assert_rpc_error(code: impl Into<Option<i32>>) => super::rpc_error(code);
        /// Checks that the call got no answer: a timeout, the server exited, the
        /// connection broke. The way to say a test expects that; see
        /// [`expect::failed`](crate::expect::failed).
        fn assert_failed() => super::failed();
        /// Checks for a content block of `kind`. See
        /// [`expect::has_content`](crate::expect::has_content).
        fn has_content(kind: ContentKind) => super::has_content(kind);
        /// Checks the call's duration. See
        /// [`expect::duration_under`](crate::expect::duration_under).
        fn duration_under(limit: std::time::Duration) => super::duration_under(limit);
        /// Checks how many progress notifications came for this call. See
        /// [`expect::progress_count`](crate::expect::progress_count).
        fn progress_count(count: impl Into<Count>) => super::progress_count(count);
        /// Checks `structuredContent` equals `expected`. See
        /// [`expect::structured_eq`](crate::expect::structured_eq).
        fn structured_eq(expected: Value) => super::structured_eq(expected);
        /// Checks `structuredContent` contains `expected`. See
        /// [`expect::structured_contains`](crate::expect::structured_contains).
        fn structured_contains(expected: Value) => super::structured_contains(expected);
        /// Checks a JSONPath matches something. See
        /// [`expect::json_path_exists`](crate::expect::json_path_exists).
        fn json_path_exists(path: &str) => super::json_path_exists(path);
        /// Checks the value at a JSONPath. See
        /// [`expect::json_path_eq`](crate::expect::json_path_eq).
        fn json_path_eq(path: &str, expected: Value) => super::json_path_eq(path, expected);
        /// Checks how many nodes a JSONPath matches. See
        /// [`expect::json_path_count`](crate::expect::json_path_count).
        fn json_path_count(path: &str, count: impl Into<Count>) =>
            super::json_path_count(path, count);
        /// Checks the result's JSON array length. See
        /// [`expect::array_len`](crate::expect::array_len).
        fn array_len(count: impl Into<Count>) => super::array_len(count);
        /// Checks a file in the fixture directory contains `text`. See
        /// [`expect::file_contains`](crate::expect::file_contains).
        fn file_contains(path: &str, text: &str) => super::file_contains(path, text);
        /// Checks a file in the fixture directory does not contain `text`:
        /// `not(`[`expect::file_contains`](crate::expect::file_contains)`(path, text))`.
        fn file_not_contains(path: &str, text: &str) => not(super::file_contains(path, text));
        /// Checks something exists at `path` in the fixture directory. See
        /// [`expect::file_exists`](crate::expect::file_exists).
        fn file_exists(path: &str) => super::file_exists(path);
        /// Checks nothing exists at `path` in the fixture directory:
        /// `not(`[`expect::file_exists`](crate::expect::file_exists)`(path))`.
        fn file_not_exists(path: &str) => not(super::file_exists(path));
        /// Checks files are as they were before the call. See
        /// [`expect::files_unchanged`](crate::expect::files_unchanged).
        fn files_unchanged(before: &FileSnapshot) => super::files_unchanged(before);
    }

    /// The fluent list checks; each panics with the failure message.
    impl [T: Listed] Reply<Vec<T>> {
        /// Checks the list has an item. See [`expect::has`](crate::expect::has).
        fn has(key: impl Into<String>) => super::has(key);
        /// Checks the list lacks an item:
        /// `not(`[`expect::has`](crate::expect::has)`(key))`.
        fn lacks(key: impl Into<String>) => not(super::has(key));
        /// Checks the list has exactly these items. See
        /// [`expect::has_exactly`](crate::expect::has_exactly).
        fn has_exactly(keys: impl IntoIterator<Item = impl Into<String>>) =>
            super::has_exactly(keys);
        /// Checks an item's annotations. See
        /// [`expect::annotations_contain`](crate::expect::annotations_contain).
        fn annotations_contain(key: impl Into<String>, expected: Value) =>
            super::annotations_contain(key, expected);
    }

    /// The fluent checks on what the server sent on its own; each panics
    /// with the failure message.
    impl [] ServerMessages {
        /// Checks the number of notifications. See
        /// [`expect::notification_count`](crate::expect::notification_count).
        fn notification_count(count: impl Into<Count>) => super::notification_count(count);
        /// Checks a method was seen. See [`expect::seen`](crate::expect::seen).
        fn seen(method: impl Into<String>) => super::seen(method);
        /// Checks a method was not seen:
        /// `not(`[`expect::seen`](crate::expect::seen)`(method))`.
        fn not_seen(method: impl Into<String>) => not(super::seen(method));
        /// Checks some message's params contain a substring. See
        /// [`expect::params_contain`](crate::expect::params_contain).
        fn params_contain(method: impl Into<String>, needle: impl Into<String>) =>
            super::params_contain(method, needle);
        /// Checks the number of progress notifications. See
        /// [`expect::progress_count`](crate::expect::progress_count).
        fn progress_count(count: impl Into<Count>) => super::progress_count(count);
        /// Checks a log level was seen. See
        /// [`expect::log_level_seen`](crate::expect::log_level_seen).
        fn log_level_seen(level: LogLevel) => super::log_level_seen(level);
    }

    /// The fluent completion checks; each panics with the failure message.
    impl [] Reply<CompleteResult> {
        /// Checks the values. See [`expect::values_eq`](crate::expect::values_eq).
        fn values_eq(values: impl IntoIterator<Item = impl Into<String>>) =>
            super::values_eq(values);
        /// Checks a value is offered. See
        /// [`expect::values_contain`](crate::expect::values_contain).
        fn values_contain(value: impl Into<String>) => super::values_contain(value);
        /// Checks `hasMore`. See [`expect::has_more`](crate::expect::has_more).
        fn has_more(more: bool) => super::has_more(more);
    }

    /// The fluent prompt checks; each panics with the failure message.
    impl [] Reply<GetPromptResult> {
        /// Checks the number of messages. See
        /// [`expect::message_count`](crate::expect::message_count).
        fn message_count(count: impl Into<Count>) => super::message_count(count);
        /// Checks the messages' roles. See [`expect::roles_eq`](crate::expect::roles_eq).
        fn roles_eq(roles: impl IntoIterator<Item = Role>) => super::roles_eq(roles);
    }

    /// The fluent resource checks; each panics with the failure message.
    impl [] Reply<ReadResourceResult> {
        /// Checks the number of content items. See
        /// [`expect::contents_count`](crate::expect::contents_count).
        fn contents_count(count: impl Into<Count>) => super::contents_count(count);
        /// Checks every item's MIME type. See
        /// [`expect::mime_type_eq`](crate::expect::mime_type_eq).
        fn mime_type_eq(mime_type: impl Into<String>) => super::mime_type_eq(mime_type);
        /// Checks the contents are text. See [`expect::text_only`](crate::expect::text_only).
        fn text_only() => super::text_only();
        /// Checks the contents are blobs. See [`expect::blob_only`](crate::expect::blob_only).
        fn blob_only() => super::blob_only();
    }
}

fluent_needs! {
    feature = "json-schema", needs = JsonSchemaChecks;

    /// The fluent checks against a schema.
    impl [] ToolCall {
        /// Checks `structuredContent` against the tool's declared
        /// `outputSchema`. See
        /// [`expect::matches_output_schema`](crate::expect::matches_output_schema).
        fn matches_output_schema() => super::matches_output_schema();
        /// Checks the result's JSON against a JSON Schema. See
        /// [`expect::matches_schema`](crate::expect::matches_schema).
        fn matches_schema(schema: Value) => super::matches_schema(schema);
    }

    /// The fluent check on tool schemas.
    impl [] Reply<Vec<Tool>> {
        /// Checks every tool's schemas. See
        /// [`expect::input_schemas_valid`](crate::expect::input_schemas_valid).
        fn input_schemas_valid() => super::input_schemas_valid();
    }
}
