//! Checks on results, with failures that explain themselves.
//!
//! Every result the harness returns — a [`ToolCall`](crate::ToolCall), a
//! [`Reply`](crate::Reply) of a prompt, a resource, a list or a completion,
//! the [`ServerMessages`](crate::ServerMessages) log — has fluent
//! check methods that read like the sentence they test and panic with
//! `#[track_caller]`, so the failure points at the test's line:
//!
//! ```
//! # use mcptest::{ToolCall, ToolOutcome, rmcp::model::{CallToolResult, ContentBlock}};
//! # use serde_json::json;
//! # let call = ToolCall::from_parts("add", json!({"a": 2, "b": 3}),
//! #     ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text("5")])));
//! // call = mcp.call_tool("add", json!({"a": 2, "b": 3})).await;
//! call.assert_success().text_eq("5");
//! ```
//!
//! # One convention, two forms
//!
//! Each check is a function in this module that returns a value
//! implementing [`Check`] — `expect::text_eq("5")`. The fluent method of the
//! same name (`call.text_eq("5")`) runs that value and panics when it fails;
//! `.check(value)` runs it and returns `Result<&Self, Failure>` instead, for
//! composing or for tests that return `Result`. The outcome checks are the
//! one exception to "same name": their fluent forms are `assert_success()`,
//! `assert_tool_error()` and `assert_rpc_error(code)`, because `is_success()`
//! and friends are already the plain boolean getters.
//!
//! ```
//! # use mcptest::{ToolCall, ToolOutcome, rmcp::model::{CallToolResult, ContentBlock}};
//! # use serde_json::json;
//! use mcptest::expect;
//! # let call = ToolCall::from_parts("add", json!({"a": 2, "b": 3}),
//! #     ToolOutcome::Success(CallToolResult::success(vec![ContentBlock::text("5")])));
//!
//! let failure = call.check(expect::text_eq("6")).unwrap_err();
//! assert!(failure.to_string().contains(r#"expected: text equals "6""#));
//! ```
//!
//! # Negation
//!
//! [`not`] turns any check over, and every check says in its own words what
//! the opposite expects: `not(text_contains("error"))` fails with `expected:
//! text does not contain "error"`. The fluent negations are that and nothing
//! else: `text_not_contains`, `file_not_contains`, `file_not_exists`, `lacks`
//! and `not_seen`. A check that cannot look at what it judges (a text check
//! on a call that got a JSON-RPC error, a file check without a fixture
//! directory) fails under `not` too, saying why: nothing passes vacuously.
//!
//! ```
//! # let call = mcptest::expect::samples::rpc_error_call();
//! use mcptest::expect::{not, text_contains};
//!
//! let failure = call.check(not(text_contains("error"))).unwrap_err();
//! assert!(failure.to_string().contains("actual:   JSON-RPC error -32602"));
//! ```
//!
//! # Several checks, every failure at once
//!
//! A tuple of checks is a check that runs all of them and reports every one
//! that failed, not just the first: `call.assert((expect::success(),
//! expect::text_eq("5"), expect::duration_under(Duration::from_secs(1))))`.
//! [`any_of`] passes when one of several does, and [`SoftChecks`] collects
//! failures across different results.
//!
//! # The failure message
//!
//! Every failure has the same layout: the call (method and arguments), the
//! expectation in words, the actual value (pretty-printed past 60 characters;
//! long values are cut with a note of how much was cut), a line diff for
//! equality checks on values that span lines, and the tail of the server's
//! stderr when there is any. Color is used only when stderr is a terminal and
//! `NO_COLOR` is not set; [`Failure`]'s `Display` never has color.

mod check;
mod combinators;
mod completions;
mod count;
pub(crate) mod failure;
mod files;
mod fluent;
pub(crate) mod json;
mod lists;
mod outcome;
mod plugin;
mod prompts;
mod request;
mod resources;
#[cfg(feature = "doc-samples")]
#[doc(hidden)]
pub mod samples;
#[cfg(feature = "json-schema")]
mod schema;
#[cfg(not(feature = "json-schema"))]
mod schema_needs_feature;
mod server_messages;
mod text;
mod tool_call;

pub use check::{Check, Polarity, Subject, run};
pub use combinators::{AnyOf, CheckGroup, Not, SoftChecks, any_of, not};
pub use completions::{has_more, values_contain, values_eq};
pub use count::Count;
pub use failure::{Evidence, Failure, Miss, Shown, Verdict};
pub use files::{FileSnapshot, file_contains, file_exists, files_unchanged};
pub use json::{
    array_len, json_path_count, json_path_eq, json_path_exists, structured_contains, structured_eq,
};
pub use lists::{Listed, annotations_contain, has, has_exactly};
pub use plugin::{PluginSubject, plugin};
pub use prompts::{message_count, roles_eq};
pub(crate) use request::describe_request;
pub use resources::{blob_only, contents_count, mime_type_eq, text_only};
#[cfg(feature = "json-schema")]
pub use schema::{input_schemas_valid, matches_output_schema, matches_schema, validate_schema};
#[cfg(not(feature = "json-schema"))]
pub use schema_needs_feature::{
    input_schemas_valid, matches_output_schema, matches_schema, validate_schema,
};
pub use server_messages::{
    any_params_contain, log_level_seen, notification_count, params_contain, progress_count, seen,
};
pub use text::{
    HasText, LabelledText, TextCheck, not_empty, text_contains, text_contains_any, text_eq,
    text_in_order, text_matches,
};
pub use tool_call::{
    ContentKind, duration_under, failed, has_content, rpc_error, success, tool_error,
};
