//! The rule table: every rule's id, name, family, severity, what a clean
//! definition does and why a finding matters. One table feeds the checks,
//! the report (a passing line per quiet rule), `--skip-rules` and the docs.

use super::finding::{Family, LintRule, Severity};

/// Every rule, in id order. Ids are stable: a rule that is retired keeps
/// its number unused.
///
/// The `E1xx`/`W1xx`/`E301` ids are mcp-assert's codes for the same
/// checks, so a `--skip-rules` line or a dashboard keyed by code carries
/// over; the `MCPT-L` ids are this project's security rules.
pub const RULES: &[LintRule] = &[
    LintRule {
        id: "E101",
        name: "missing-description",
        family: Family::Usability,
        severity: Severity::Error,
        calls: false,
        also: &[],
        expected: "a tool with a description",
        why: "a model chooses a tool by its description; without one it cannot tell when \
              to call it",
    },
    LintRule {
        id: "E102",
        name: "untyped-parameter",
        family: Family::Usability,
        severity: Severity::Error,
        calls: false,
        also: &[],
        expected: "a parameter with a type (or an enum, const, $ref or anyOf/oneOf/allOf of types)",
        why: "without a type a model guesses the kind of value, and the schema cannot \
              refuse a wrong one",
    },
    LintRule {
        id: "E103",
        name: "undescribed-required-parameter",
        family: Family::Usability,
        severity: Severity::Error,
        calls: false,
        also: &[],
        expected: "a required parameter described in its schema or named in the tool's description",
        why: "a model must fill a required parameter on every call; with nothing said about \
              it, it guesses what the value means",
    },
    LintRule {
        id: "E105",
        name: "free-text-flow",
        family: Family::Usability,
        severity: Severity::Error,
        calls: false,
        also: &[],
        expected: "a value one tool returns and another takes constrained by enum, pattern, format or const",
        why: "when one tool's output is another's input as free text, a model rewrites, \
              abbreviates or invents the value between the calls",
    },
    LintRule {
        id: "E107",
        name: "tool-cycle",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "no cycle of tools each returning what the next one takes",
        why: "a model can call such tools round and round, each call suggesting the next",
    },
    LintRule {
        id: "E112",
        name: "secret-parameter",
        family: Family::Security,
        severity: Severity::Error,
        calls: false,
        also: &[],
        expected: "a parameter that carries a secret marked writeOnly: true",
        why: "a model that is handed a secret to pass on writes it into its context, logs \
              and transcripts; writeOnly tells clients to keep it out of them",
    },
    LintRule {
        id: "E113",
        name: "duplicate-tool-name",
        family: Family::Security,
        severity: Severity::Error,
        calls: false,
        also: &[],
        expected: "each tool name listed once",
        why: "a client keys tools by name: the second definition shadows the first, and \
              which one a call reaches is up to the client",
    },
    LintRule {
        id: "E301",
        name: "oversized-response",
        family: Family::Usability,
        severity: Severity::Error,
        calls: true,
        also: &[],
        expected: "a response to a plain call within --max-response-kb",
        why: "a client puts the whole response into the model's context; a large one \
              crowds out the conversation or is cut",
    },
    LintRule {
        id: "MCPT-L001",
        name: "hidden-instructions",
        family: Family::Security,
        severity: Severity::Error,
        calls: false,
        also: &[],
        expected: "no instructions to the model hidden in definitions",
        why: "a client puts descriptions into the model's context, so text that tells the \
              model to ignore its instructions, keep something from the user or read \
              secrets is a prompt injection (tool poisoning)",
    },
    LintRule {
        id: "MCPT-L002",
        name: "invisible-unicode",
        family: Family::Security,
        severity: Severity::Error,
        calls: false,
        also: &[],
        expected: "no invisible, direction-changing or control characters",
        why: "zero-width, bidirectional and tag characters make the text a person reviews \
              differ from the text the model reads; control characters (ESC, BEL, NUL) \
              act on the terminal that shows them",
    },
    LintRule {
        id: "MCPT-L003",
        name: "confusable-tool-name",
        family: Family::Security,
        severity: Severity::Error,
        calls: false,
        also: &[],
        expected: "tool names a reader can tell apart",
        why: "two names that differ only by case, separators or lookalike letters let one \
              tool pass for another, and a person approving a call cannot see which one runs",
    },
    LintRule {
        id: "MCPT-L004",
        name: "well-known-tool-name",
        family: Family::Security,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a tool name that no other server commonly uses",
        why: "with several servers connected, a tool named like a well-known one can shadow \
              it, and calls meant for the other server reach this one; prefix the name",
    },
    LintRule {
        id: "MCPT-L005",
        name: "secret-in-definition",
        family: Family::Security,
        severity: Severity::Error,
        calls: false,
        also: &[],
        expected: "no credentials in definitions",
        why: "definitions are sent to every client and into the model's context; a key or \
              token there is published",
    },
    LintRule {
        id: "MCPT-L006",
        name: "unconstrained-parameter",
        family: Family::Security,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "command, path and URL parameters constrained by enum, const or pattern",
        why: "an injected model can pass any command, path or URL to a free-form string; \
              constrain it in the schema (and check it in the server)",
    },
    LintRule {
        id: "MCPT-L007",
        name: "permissive-schema",
        family: Family::Security,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "an input schema that says what it accepts",
        why: "a schema without types, or that admits any extra property, lets a client send \
              anything, and gives neither the model nor the server a contract to hold to",
    },
    LintRule {
        id: "MCPT-L008",
        name: "destructive-without-hint",
        family: Family::Security,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a destructive-sounding tool annotated destructiveHint: true",
        why: "clients ask the user before calling a destructive tool only when its \
              annotations say so",
    },
    LintRule {
        id: "MCPT-L009",
        name: "long-description",
        family: Family::Security,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a description of at most 1024 characters",
        why: "a very long description costs context on every request and is room to hide \
              instructions in that a reviewer skims past",
    },
    LintRule {
        id: "W101",
        name: "vague-description",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a description that says what the tool does (not \"utility\", not one short word)",
        why: "a generic description gives a model nothing to choose the tool by",
    },
    LintRule {
        id: "W102",
        name: "undescribed-optional-parameter",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "an optional parameter described in its schema or named in the tool's description",
        why: "a model leaves out, or misuses, an option nothing explains",
    },
    LintRule {
        id: "W103",
        name: "unconstrained-string",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a required string of a closed or structured kind with an enum, pattern, format, const, examples or default",
        why: "a model invents values for a string whose allowed values or shape nothing \
              shows (a status, a mode, a date); paths, ids and free text are left out, \
              since no enum or pattern could list them",
    },
    LintRule {
        id: "W104",
        name: "generic-parameter-name",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a parameter named for what it holds, or described (not an undescribed `data`, `value`, `input`)",
        why: "a name like `data` says nothing, and with no description a model cannot tell \
              what to pass",
    },
    LintRule {
        id: "W105",
        name: "similar-tools",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "tool descriptions less than 80% alike (bigram Dice similarity)",
        why: "a model picks between two tools described almost alike more or less at random",
    },
    LintRule {
        id: "W106",
        name: "tool-list-tokens",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a tools/list of at most 8000 tokens",
        why: "a client sends the whole tool list with every request; a large one costs \
              context and money on each turn",
    },
    LintRule {
        id: "W107",
        name: "nondeterministic-output",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: true,
        also: &[],
        expected: "the same answer to the same call, three times",
        why: "an answer that changes for the same input cannot be cached, compared or \
              tested, and a model that retries gets a different story",
    },
    LintRule {
        id: "W108",
        name: "hidden-side-effects",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a tool named for a change (create, update, send ...) that says so in its description or annotations",
        why: "a model retries a call that failed or timed out; if nothing says the tool \
              changes state, it does so twice",
    },
    LintRule {
        id: "W109",
        name: "missing-examples",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a user-facing parameter (query, email, url, name ...) with examples, an enum, a default or an example in its description",
        why: "models fill such values far more reliably when they are shown one",
    },
    LintRule {
        id: "W110",
        name: "description-drift",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a description that names at least half of the tool's parameters",
        why: "a description that mentions few of the parameters was usually written for an \
              older schema",
    },
    LintRule {
        id: "W111",
        name: "description-length",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a description of 20 to 500 characters",
        why: "a very short description cannot say when to use the tool; a very long one \
              costs context on every request",
    },
    LintRule {
        id: "W112",
        name: "too-many-tools",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "at most 20 tools",
        why: "models choose the right tool less often as the list grows",
    },
    LintRule {
        id: "W113",
        name: "overloaded-tool",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &["W103"],
        expected: "a description with at most 3 different actions (get, create, delete, convert ...)",
        why: "a tool that does many things is hard for a model to call right; split it",
    },
    LintRule {
        id: "W114",
        name: "deep-schema",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "an input schema nested at most 3 levels deep",
        why: "models build deeply nested arguments wrongly far more often than flat ones",
    },
    LintRule {
        id: "W115",
        name: "tool-tokens",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a tool definition of at most 1000 tokens",
        why: "every tool's definition is sent with every request; one large definition \
              costs context on each turn",
    },
    LintRule {
        id: "W116",
        name: "output-undescribed",
        family: Family::Usability,
        severity: Severity::Warning,
        calls: false,
        also: &[],
        expected: "a tool whose description says what it returns, or that has an outputSchema",
        why: "a model that does not know what comes back cannot plan the next step or \
              check the answer",
    },
];

/// The rule with id `id`.
///
/// # Panics
///
/// On an id that is not in [`RULES`]: the checks name their rules by
/// literal, so that is a bug caught by every test.
pub(crate) fn rule(id: &str) -> &'static LintRule {
    RULES
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("{id} is not a lint rule"))
}

/// The rules `spec` names: an id (`E107`, case ignored), a rule name
/// (`tool-cycle`), or a code a rule also answers to (`W103` names both
/// W103 and W113, as mcp-assert files its overloaded-tool check under
/// W103). A spec that names nothing is an error that lists the ids.
pub(crate) fn named(spec: &str) -> Result<Vec<&'static LintRule>, String> {
    let spec = spec.trim();
    let found: Vec<&'static LintRule> = RULES
        .iter()
        .filter(|r| {
            r.id.eq_ignore_ascii_case(spec)
                || r.name.eq_ignore_ascii_case(spec)
                || r.also.iter().any(|a| a.eq_ignore_ascii_case(spec))
        })
        .collect();
    if found.is_empty() {
        let ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
        return Err(format!(
            "{spec:?} is not a lint rule; the rules are {}",
            ids.join(", ")
        ));
    }
    Ok(found)
}
