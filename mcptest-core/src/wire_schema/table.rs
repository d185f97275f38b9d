//! The one table of the wire-schema check: the revisions (each with the
//! feature that compiles its schema in), and each definition a message is
//! read as, with a column per revision saying whether that revision defines
//! it (`x`) or not (`-`).
//!
//! Each revision's generated types come from a crate of their own (one
//! `rust-mcp-schema` version compiles one revision) behind a feature of
//! this crate: a revision whose feature is off is known but not compiled
//! in, and the watch says so instead of passing its messages unchecked.

use serde_json::Value;

use super::fits::{Broken, fits};

/// What a message is, for the lookup of its definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// The `result` of an answer to a request of this method.
    Result,
    /// A notification (the whole message).
    Notification,
    /// A request of the server to the client (the whole message).
    Request,
    /// The JSON-RPC frame of a `notification`, a `request` or an `error`
    /// answer (the whole message).
    Envelope,
    /// A result a request may answer besides its own: `input_required`
    /// (2026-07-28), `task` (a 2025-11-25 task created by `tools/call`).
    Other,
}

/// Reads a message as one definition of one revision.
type Read = fn(&'static str, &Value) -> Result<(), Broken>;

/// One row of the table.
pub(super) struct Definition {
    kind: Kind,
    method: &'static str,
    name: &'static str,
    /// By revision, in [`Revision::ALL`]'s order: how to read the message,
    /// when the revision defines it and is compiled in.
    reads: [Option<Read>; Revision::COUNT],
}

/// The table: the revisions, then the definitions.
macro_rules! schema_table {
    (
        revisions: $revisions:tt,
        definitions: [$($kind:ident $method:literal => $def:ident $marks:tt),* $(,)?] $(,)?
    ) => {
        schema_table!(@revisions $revisions);

        static DEFINITIONS: &[Definition] = &[
            $(schema_table!(@row $revisions $kind $method $def $marks)),*
        ];
    };
    (@revisions [$($rev:ident $version:literal $feature:literal $krate:ident::$module:ident),* $(,)?]) => {
        /// The revisions whose schema is known (compiled in or not).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum Revision {
            $($rev),*
        }

        impl Revision {
            /// Every known revision, oldest first.
            pub(crate) const ALL: &'static [Revision] = &[$(Revision::$rev),*];
            const COUNT: usize = [$($version),*].len();
            const VERSIONS: [&'static str; Revision::COUNT] = [$($version),*];
            const FEATURES: [&'static str; Revision::COUNT] = [$($feature),*];
            const COMPILED: [bool; Revision::COUNT] = [$(cfg!(feature = $feature)),*];
        }
    };
    (@row [$($rev:ident $version:literal $feature:literal $krate:ident::$module:ident),* $(,)?] $kind:ident $method:literal $def:ident [$($mark:tt)*]) => {
        Definition {
            kind: Kind::$kind,
            method: $method,
            name: stringify!($def),
            reads: [$(schema_table!(@cell $mark $feature $krate::$module::$def)),*],
        }
    };
    (@cell - $feature:literal $type:ty) => { None };
    (@cell x $feature:literal $type:ty) => {{
        #[cfg(feature = $feature)]
        let read: Option<Read> = Some(fits::<$type>);
        #[cfg(not(feature = $feature))]
        let read: Option<Read> = None;
        read
    }};
}

schema_table! {
    revisions: [
        V2024_11_05 "2024-11-05" "wire-schema-2024-11-05" rms_2024_11_05::mcp_2024_11_05,
        V2025_03_26 "2025-03-26" "wire-schema-2025-03-26" rms_2025_03_26::mcp_2025_03_26,
        V2025_06_18 "2025-06-18" "wire-schema-2025-06-18" rms_2025_06_18::mcp_2025_06_18,
        V2025_11_25 "2025-11-25" "wire-schema-2025-11-25" rms_2025_11_25::mcp_2025_11_25,
        V2026_07_28 "2026-07-28" "wire-schema-2026-07-28" rms_2026_07_28::mcp_2026_07_28,
    ],
    //                                                                  2024-11-05 ... 2026-07-28
    definitions: [
        Result "initialize" => InitializeResult                                     [x x x x -],
        Result "ping" => EmptyResult                                                [x x x x -],
        Result "server/discover" => DiscoverResult                                  [- - - - x],
        Result "subscriptions/listen" => SubscriptionsListenResult                  [- - - - x],
        Result "tools/list" => ListToolsResult                                      [x x x x x],
        Result "tools/call" => CallToolResult                                       [x x x x x],
        Result "prompts/list" => ListPromptsResult                                  [x x x x x],
        Result "prompts/get" => GetPromptResult                                     [x x x x x],
        Result "resources/list" => ListResourcesResult                              [x x x x x],
        Result "resources/templates/list" => ListResourceTemplatesResult            [x x x x x],
        Result "resources/read" => ReadResourceResult                               [x x x x x],
        Result "resources/subscribe" => EmptyResult                                 [x x x x -],
        Result "resources/unsubscribe" => EmptyResult                               [x x x x -],
        Result "completion/complete" => CompleteResult                              [x x x x x],
        Result "logging/setLevel" => EmptyResult                                    [x x x x -],
        Result "tasks/get" => GetTaskResult                                         [- - - x -],
        Result "tasks/result" => GetTaskPayloadResult                               [- - - x -],
        Result "tasks/list" => ListTasksResult                                      [- - - x -],
        Result "tasks/cancel" => CancelTaskResult                                   [- - - x -],
        Other "input_required" => InputRequiredResult                               [- - - - x],
        Other "task" => CreateTaskResult                                            [- - - x -],
        Notification "notifications/progress" => ProgressNotification               [x x x x x],
        Notification "notifications/message" => LoggingMessageNotification          [x x x x x],
        Notification "notifications/resources/updated" => ResourceUpdatedNotification [x x x x x],
        Notification "notifications/resources/list_changed" => ResourceListChangedNotification [x x x x x],
        Notification "notifications/tools/list_changed" => ToolListChangedNotification [x x x x x],
        Notification "notifications/prompts/list_changed" => PromptListChangedNotification [x x x x x],
        Notification "notifications/cancelled" => CancelledNotification             [x x x x x],
        Notification "notifications/elicitation/complete" => ElicitationCompleteNotification [- - - x -],
        Notification "notifications/tasks/status" => TaskStatusNotification         [- - - x -],
        Notification "notifications/subscriptions/acknowledged" => SubscriptionsAcknowledgedNotification [- - - - x],
        Request "sampling/createMessage" => CreateMessageRequest                    [x x x x -],
        Request "roots/list" => ListRootsRequest                                    [x x x x -],
        Request "elicitation/create" => ElicitRequest                               [- - x x -],
        Request "ping" => PingRequest                                               [x x x x -],
        Envelope "notification" => JsonrpcNotification                              [x x x x x],
        Envelope "request" => JsonrpcRequest                                        [x x x x x],
        Envelope "error" => JsonrpcError                                            [x x x - -],
        Envelope "error" => JsonrpcErrorResponse                                    [- - - x x],
    ],
}

impl Revision {
    /// The revision a negotiated protocol version names, if its schema is
    /// known (compiled in or not).
    pub(crate) fn of(version: &str) -> Option<Revision> {
        let at = Revision::VERSIONS.iter().position(|v| *v == version)?;
        Some(Revision::ALL[at])
    }

    pub(crate) fn as_str(self) -> &'static str {
        Revision::VERSIONS[self as usize]
    }

    /// The feature of this crate (and of `mcptest`) that compiles the
    /// revision's schema in.
    pub(crate) fn feature(self) -> &'static str {
        Revision::FEATURES[self as usize]
    }

    /// Whether this build holds the revision's schema.
    pub(crate) fn compiled(self) -> bool {
        Revision::COMPILED[self as usize]
    }

    /// The versions whose schema this build holds, oldest first.
    pub(crate) const COMPILED_VERSIONS: &'static [&'static str] = &{
        const N: usize = {
            let mut n = 0;
            let mut i = 0;
            while i < Revision::COUNT {
                n += Revision::COMPILED[i] as usize;
                i += 1;
            }
            n
        };
        let mut out = [""; N];
        let (mut i, mut at) = (0, 0);
        while i < Revision::COUNT {
            if Revision::COMPILED[i] {
                out[at] = Revision::VERSIONS[i];
                at += 1;
            }
            i += 1;
        }
        out
    };
}

/// Reads `value` as the definition `revision` gives `method` of this kind.
/// `None` when the revision defines nothing for it (or is not compiled in:
/// the caller asks [`Revision::compiled`] first).
pub(super) fn lookup(
    revision: Revision,
    kind: Kind,
    method: &str,
    value: &Value,
) -> Option<Result<(), Broken>> {
    DEFINITIONS
        .iter()
        .filter(|d| d.kind == kind && d.method == method)
        .find_map(|d| d.reads[revision as usize].map(|read| read(d.name, value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_has_at_most_one_definition_per_revision() {
        for d in DEFINITIONS {
            let defined = DEFINITIONS
                .iter()
                .filter(|o| o.kind == d.kind && o.method == d.method);
            for revision in Revision::ALL {
                let readers = defined
                    .clone()
                    .filter(|o| o.reads[*revision as usize].is_some())
                    .count();
                assert!(
                    readers <= 1,
                    "{} {} twice in {revision:?}",
                    d.name,
                    d.method
                );
            }
        }
    }

    #[test]
    fn the_compiled_versions_are_those_whose_feature_is_on() {
        let compiled: Vec<_> = Revision::ALL
            .iter()
            .filter(|r| r.compiled())
            .map(|r| r.as_str())
            .collect();
        assert_eq!(Revision::COMPILED_VERSIONS, compiled.as_slice());
        for revision in Revision::ALL {
            assert_eq!(Revision::of(revision.as_str()), Some(*revision));
            assert!(revision.feature().ends_with(revision.as_str()));
        }
    }
}
