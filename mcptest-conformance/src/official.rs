//! Which checks of the official conformance suite
//! (`@modelcontextprotocol/conformance`, 0.2.0-alpha.12) judge the same
//! requirement as one of ours, so a user can set the two reports side by
//! side status by status.
//!
//! A mapping is listed only where both checks pass and fail on the same
//! server behaviour. Several of ours may share one official check when the
//! official suite judges one HTTP status for several probes (its
//! `sep-2575-http-server-meta-invalid-400` covers the three `_meta` rules),
//! and one of ours may stand for several official ones when we judge a
//! rule in one check that the official suite splits (the JSON-RPC code and
//! the HTTP status).
//!
//! Official checks that need the official suite's own fixture tools
//! (`test_image_content`, ...) have no counterpart here: our checks find
//! what a server offers instead.

/// Our check id → the official suite's check ids for the same requirement.
const OFFICIAL: &[(&str, &[&str])] = &[
    ("classic-initialize-result", &["server-initialize"]),
    ("classic-ping", &["ping"]),
    ("mcp-wire-schema-valid", &["wire-schema-valid"]),
    ("classic-tool-names", &["tools-name-format"]),
    (
        "sep-2575-discover",
        &[
            "sep-2575-server-implements-discover",
            "sep-2575-server-identifies-in-result-meta",
        ],
    ),
    (
        "sep-2575-meta-required",
        &[
            "sep-2575-request-meta-invalid-missing-meta",
            "sep-2575-http-server-meta-invalid-400",
        ],
    ),
    (
        "sep-2575-meta-protocol-version-required",
        &[
            "sep-2575-request-meta-invalid-missing-protocol-version",
            "sep-2575-http-server-meta-invalid-400",
        ],
    ),
    (
        "sep-2575-meta-client-capabilities-required",
        &[
            "sep-2575-request-meta-invalid-missing-client-capabilities",
            "sep-2575-http-server-meta-invalid-400",
        ],
    ),
    (
        "sep-2575-meta-client-info-optional",
        &["sep-2575-request-meta-client-info-optional"],
    ),
    (
        "sep-2575-unsupported-version",
        &[
            "sep-2575-server-unsupported-version-error",
            "sep-2575-http-server-unsupported-version-400",
        ],
    ),
    (
        "sep-2575-http-header-mismatch",
        &["sep-2575-http-server-header-mismatch-400"],
    ),
    (
        "sep-2575-missing-client-capability",
        &[
            "sep-2575-server-rejects-undeclared-capability",
            "sep-2575-missing-capability-http-400",
        ],
    ),
    (
        "sep-2575-removed-methods",
        &[
            "sep-2575-http-server-method-not-found-404-initialize",
            "sep-2575-http-server-method-not-found-404-ping",
            "sep-2575-http-server-method-not-found-404-logging-setlevel",
            "sep-2575-http-server-method-not-found-404-resources-subscribe",
            "sep-2575-http-server-method-not-found-404-resources-unsubscribe",
        ],
    ),
    (
        "sep-2575-unknown-method",
        &["sep-2575-http-server-method-not-found-404"],
    ),
    (
        "sep-2575-capabilities-honored",
        &["sep-2575-discover-capabilities-match-handlers"],
    ),
    (
        "sep-2575-no-log-without-level",
        &["sep-2575-server-no-log-without-loglevel"],
    ),
    (
        "sep-2575-error-id",
        &["sep-2575-http-server-error-jsonrpc-id"],
    ),
    // ---- HTTP transport (issue 14) ----
    // The official suite also reports `sep-2243-server-reject-error-code`
    // (-32020 on those rejections) as a warning; ours notes a missing -32020
    // on a pass, since HTTP 400 is what the rule fixes, so the two are not
    // paired.
    (
        "sep-2243-method-header",
        &["sep-2243-server-reject-invalid-headers"],
    ),
    (
        "sep-2243-name-header",
        &["sep-2243-server-reject-invalid-headers"],
    ),
    (
        "sep-2243-custom-headers",
        &[
            "sep-2243-server-decode-base64",
            "sep-2243-server-validate-param-match",
            "sep-2243-server-reject-param-mismatch",
        ],
    ),
    (
        "classic-http-dns-rebinding",
        &["localhost-host-rebinding-rejected"],
    ),
    (
        "classic-http-session-terminated",
        &[
            "server-session-delete-accepted",
            "server-session-terminated-returns-404",
        ],
    ),
    (
        "classic-http-session-id-visible-ascii",
        &["server-session-id-visible-ascii"],
    ),
    (
        "classic-http-multiple-streams",
        &["server-accepts-multiple-post-streams"],
    ),
    // Both ask for the same order on three calls; with fewer than two tools
    // the official suite reports INFO and ours skips, and a set of tools
    // that changes between the calls is its "not testable" warning and our
    // skip.
    (
        "mcp-tools-list-deterministic-order",
        &["tools-list-deterministic-order"],
    ),
    // ---- skills extension (SEP-2640): the official
    // `sep-2640-skills-enumeration` scenario, an extension scenario outside
    // `--requirements 2026-07-28` ----
    (
        "sep-2640-capability",
        &[
            "sep-2640-capability-empty-object",
            "sep-2640-capability-requires-resources",
        ],
    ),
    (
        "sep-2640-skills-list",
        &[
            "sep-2640-skills-list-implemented",
            "sep-2640-skills-list-pagination",
        ],
    ),
    (
        "sep-2640-skill-entries",
        &[
            "sep-2640-entry-uri-required",
            "sep-2640-entry-frontmatter-required",
            "sep-2640-entry-uri-matches-frontmatter-name",
            "sep-2640-entry-resources-required",
            "sep-2640-resources-digest-format",
            "sep-2640-resources-size-required",
            "sep-2640-name-naming-rules",
        ],
    ),
    (
        "sep-2640-skills-get",
        &[
            "sep-2640-skills-get-implemented",
            "sep-2640-skills-get-entry-shape",
        ],
    ),
    (
        "sep-2640-skills-get-unknown-uri",
        &["sep-2640-skills-get-unknown-uri-invalid-params"],
    ),
    (
        "sep-2640-skill-md",
        &[
            "sep-2640-skillmd-required",
            "sep-2640-skillmd-frontmatter",
            "sep-2640-entry-frontmatter-identical",
        ],
    ),
    // ---- tasks extension (issue 14e) ----
    (
        "sep-2663-extension-declared",
        &["tasks-extension-advertised"],
    ),
    (
        "sep-2663-create-task-result",
        &[
            "sep-2663-result-type-task-on-create",
            "tasks-server-directed-creation-no-hint",
        ],
    ),
    (
        "sep-2663-wire-fields",
        &[
            "tasks-wire-field-renames",
            "tasks-create-result-no-request-state",
            "tasks-get-detailed-no-request-state",
        ],
    ),
    (
        "sep-2663-tasks-get",
        &[
            "sep-2663-durable-create-strong-consistency",
            "sep-2663-tasks-get-status-working",
        ],
    ),
    (
        "sep-2663-task-completes",
        &[
            "sep-2663-tasks-get-status-completed",
            "tasks-no-early-ttl-expiry",
        ],
    ),
    (
        "sep-2663-cancel",
        &[
            "sep-2663-cancel-ack-empty-result",
            "tasks-cancel-terminal-idempotent-ack",
        ],
    ),
    (
        "sep-2663-unknown-task",
        &["sep-2663-tasks-get-invalid-task-id-32602"],
    ),
    (
        "sep-2663-removed-methods",
        &[
            "sep-2663-tasks-result-removed-method-not-found",
            "tasks-removed-tasks-list",
        ],
    ),
    (
        "sep-2663-methods-need-extension",
        &["sep-2663-tasks-methods-non-declaring"],
    ),
    (
        "sep-2663-no-task-without-extension",
        &["sep-2663-server-rejects-undeclared-client"],
    ),
    (
        "sep-2663-required-task-error",
        &[
            "sep-2663-server-returns-missing-capability-when-required",
            "sep-2663-server-returns-missing-capability-data-shape",
        ],
    ),
    (
        "sep-2663-task-input-required",
        &[
            "sep-2663-tasks-get-status-input-required",
            "tasks-mrtr-tasks-update-resumes",
        ],
    ),
    (
        "sep-2663-routing-headers",
        &[
            "sep-2663-routing-headers-accepted-on-tasks-get",
            "sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get",
        ],
    ),
    (
        "sep-2663-tool-error-completed",
        &["sep-2663-tool-error-uses-completed-status"],
    ),
    // ---- client checks (issue 14f) ----
    // The official `request-metadata` scenario splits the version header
    // into presence and agreement with `_meta`, as ours does; its retry
    // check is a warning where ours, a MUST, fails; its capability checks
    // look at roots, sampling and elicitation, ours at every declared
    // member (each must be an object).
    (
        "sep-2575-client-request-meta",
        &["sep-2575-client-populates-meta"],
    ),
    (
        "sep-2575-client-info",
        &["sep-2575-client-sends-client-info"],
    ),
    (
        "sep-2575-client-version-retry",
        &["sep-2575-client-retry-supported-version"],
    ),
    (
        "sep-2575-client-http-version-header",
        &["sep-2575-http-version-header-matches-meta"],
    ),
    (
        "sep-2575-client-http-sends-version-header",
        &["sep-2575-http-client-sends-version-header"],
    ),
    (
        "sep-2575-client-capabilities-are-objects",
        &[
            "sep-2575-client-declares-roots-capability",
            "sep-2575-client-declares-sampling-capability",
            "sep-2575-client-declares-elicitation-capability",
        ],
    ),
    (
        "sep-2322-client-request-state-echoed",
        &["sep-2322-client-request-state-echoed"],
    ),
    (
        "sep-2322-client-jsonrpc-id-different",
        &["sep-2322-client-jsonrpc-id-different"],
    ),
    (
        "sep-2322-client-no-state-omitted",
        &["sep-2322-client-no-state-omitted"],
    ),
    (
        "sep-2322-client-parallel-isolation",
        &["sep-2322-client-parallel-isolation"],
    ),
    (
        "sep-2106-no-network-ref-deref",
        &["sep-2106-no-network-ref-deref"],
    ),
    (
        "sep-2243-client-includes-standard-headers",
        &["sep-2243-client-includes-standard-headers"],
    ),
    // The official suite fails a client that never calls its annotated
    // tool; ours skips the x-mcp-header checks then, saying so.
    (
        "sep-2243-client-mirrors-designated-params",
        &[
            "sep-2243-client-supports-custom-headers",
            "sep-2243-client-mirrors-designated-params",
        ],
    ),
    (
        "sep-2243-client-encode-values",
        &["sep-2243-client-encode-values"],
    ),
    (
        "sep-2243-client-base64-unsafe",
        &["sep-2243-client-base64-unsafe"],
    ),
    ("sep-2243-client-omit-null", &["sep-2243-client-omit-null"]),
    // Both suites learn what a client kept from the schema it passes back
    // through an echo tool; the official one fails a client that does not.
    (
        "sep-1613-client-schema-preserved",
        &[
            "json-schema-2020-12-client-$schema-preserved",
            "json-schema-2020-12-client-$defs-preserved",
            "json-schema-2020-12-client-additionalProperties-preserved",
        ],
    ),
    (
        "sep-2106-client-schema-vocabulary-preserved",
        &[
            "sep-2106-client-composition-keywords-preserved",
            "sep-2106-client-conditional-keywords-preserved",
            "sep-2106-client-anchor-keyword-preserved",
        ],
    ),
    // The official suite judges one invalid tool per constraint; ours one
    // check over the four the mock lists (`tag_empty`, `tag_spaced`,
    // `tag_twice`, `tag_object`).
    (
        "sep-2243-client-rejects-invalid-header-tools",
        &[
            "sep-2243-x-mcp-header-not-empty",
            "sep-2243-x-mcp-header-charset",
            "sep-2243-x-mcp-header-unique",
            "sep-2243-x-mcp-header-primitive-only",
        ],
    ),
    (
        "sep-2322-default-result-type-complete",
        &["sep-2322-default-result-type-complete"],
    ),
    // The client authorization scenarios (`auth/*`): the official suite
    // judges PKCE and `resource` once per request kind; ours judge every
    // authorization and token request, refresh included.
    (
        "mcp-client-auth-server-metadata-discovery",
        &["authorization-server-metadata"],
    ),
    // Their pre-registration scenario checks the pre-registered id and
    // secret by HTTP Basic at the token endpoint, their CIMD one only that
    // the client_id is the document's URL (they fetch no document); ours
    // judges the approach the mock offers, every request.
    (
        "mcp-client-auth-registration",
        &["pre-registration-auth", "cimd-client-id-used"],
    ),
    (
        "mcp-client-auth-pkce-s256",
        &[
            "pkce-code-challenge-sent",
            "pkce-s256-method-used",
            "pkce-code-verifier-sent",
            "pkce-verifier-matches-challenge",
        ],
    ),
    (
        "mcp-client-auth-resource-parameter",
        &[
            "resource-parameter-in-authorization",
            "resource-parameter-in-token",
            "resource-parameter-matches-prm",
        ],
    ),
    // The official `tools_call` scenario checks the arguments of one call
    // to its own tool against that tool's number types; ours checks every
    // call against the listed inputSchema, as a SHOULD (a warning).
    ("mcp-client-tool-call-arguments", &["tool-add-numbers"]),
];

/// The official suite's check ids for the requirement our check `id`
/// judges; empty when it has none.
///
/// ```
/// use mcptest::conformance::official_ids;
///
/// assert_eq!(official_ids("classic-ping"), ["ping"]);
/// assert!(official_ids("classic-pagination").is_empty());
/// ```
pub fn official_ids(id: &str) -> &'static [&'static str] {
    OFFICIAL
        .iter()
        .find(|(ours, _)| *ours == id)
        .map(|(_, theirs)| *theirs)
        .unwrap_or(&[])
}

/// Our checks that judge the same requirement as the official check
/// `official`, in catalogue order.
///
/// ```
/// use mcptest::conformance::ours_for_official;
///
/// assert_eq!(
///     ours_for_official("sep-2575-http-server-method-not-found-404"),
///     ["sep-2575-unknown-method"]
/// );
/// ```
pub fn ours_for_official(official: &str) -> Vec<&'static str> {
    crate::catalogue::catalogue()
        .iter()
        .map(|rule| rule.id)
        .filter(|id| official_ids(id).contains(&official))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn every_mapped_id_is_one_of_ours_and_listed_once() {
        let ours: HashSet<&str> = crate::catalogue::catalogue().iter().map(|r| r.id).collect();
        let mut seen = HashSet::new();
        for (id, theirs) in OFFICIAL {
            assert!(ours.contains(id), "{id} is not a check");
            assert!(seen.insert(*id), "{id} is listed twice");
            assert!(!theirs.is_empty(), "{id} maps to nothing");
        }
    }

    #[test]
    fn one_official_check_can_stand_for_several_of_ours() {
        assert_eq!(
            ours_for_official("sep-2575-http-server-meta-invalid-400"),
            [
                "sep-2575-meta-required",
                "sep-2575-meta-protocol-version-required",
                "sep-2575-meta-client-capabilities-required",
            ]
        );
        assert!(ours_for_official("tools-call-image").is_empty());
    }
}
