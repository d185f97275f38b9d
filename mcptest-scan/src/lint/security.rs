//! The rules: each a pure function from the listed definitions (as one JSON
//! document, so that every finding can point at its field) to findings.

use std::{collections::BTreeMap, sync::LazyLock};

use regex::Regex;
use serde_json::{Map, Value};

use super::{
    Finding, LintRule, Severity,
    confusables::{invisible, lookalikes, skeleton},
};

/// Every rule, in id order. Ids are stable: a rule that is retired keeps
/// its number unused.
pub const RULES: &[LintRule] = &[
    LintRule {
        id: "MCPT-L001",
        name: "hidden-instructions",
        severity: Severity::Error,
        expected: "no instructions to the model hidden in definitions",
        why: "a client puts descriptions into the model's context, so text that tells the \
              model to ignore its instructions, keep something from the user or read \
              secrets is a prompt injection (tool poisoning)",
    },
    LintRule {
        id: "MCPT-L002",
        name: "invisible-unicode",
        severity: Severity::Error,
        expected: "no invisible, direction-changing or control characters",
        why: "zero-width, bidirectional and tag characters make the text a person reviews \
              differ from the text the model reads; control characters (ESC, BEL, NUL) \
              act on the terminal that shows them",
    },
    LintRule {
        id: "MCPT-L003",
        name: "confusable-tool-name",
        severity: Severity::Error,
        expected: "tool names a reader can tell apart",
        why: "two names that differ only by case, separators or lookalike letters let one \
              tool pass for another, and a person approving a call cannot see which one runs",
    },
    LintRule {
        id: "MCPT-L004",
        name: "well-known-tool-name",
        severity: Severity::Warning,
        expected: "a tool name that no other server commonly uses",
        why: "with several servers connected, a tool named like a well-known one can shadow \
              it, and calls meant for the other server reach this one; prefix the name",
    },
    LintRule {
        id: "MCPT-L005",
        name: "secret-in-definition",
        severity: Severity::Error,
        expected: "no credentials in definitions",
        why: "definitions are sent to every client and into the model's context; a key or \
              token there is published",
    },
    LintRule {
        id: "MCPT-L006",
        name: "unconstrained-parameter",
        severity: Severity::Warning,
        expected: "command, path and URL parameters constrained by enum, const or pattern",
        why: "an injected model can pass any command, path or URL to a free-form string; \
              constrain it in the schema (and check it in the server)",
    },
    LintRule {
        id: "MCPT-L007",
        name: "permissive-schema",
        severity: Severity::Warning,
        expected: "an input schema that says what it accepts",
        why: "a schema without types, or that admits any extra property, lets a client send \
              anything, and gives neither the model nor the server a contract to hold to",
    },
    LintRule {
        id: "MCPT-L008",
        name: "destructive-without-hint",
        severity: Severity::Warning,
        expected: "a destructive-sounding tool annotated destructiveHint: true",
        why: "clients ask the user before calling a destructive tool only when its \
              annotations say so",
    },
    LintRule {
        id: "MCPT-L009",
        name: "long-description",
        severity: Severity::Warning,
        expected: "a description of at most 1024 characters",
        why: "a very long description costs context on every request and is room to hide \
              instructions in that a reviewer skims past",
    },
];

/// Descriptions longer than this many characters are flagged (MCPT-L009).
pub const LONG_DESCRIPTION: usize = 1024;

fn rule(id: &str) -> &'static LintRule {
    RULES.iter().find(|r| r.id == id).expect("a known rule id")
}

/// Phrasings of prompt injection in tool poisoning, case-insensitive.
static INJECTION: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        (
            r"\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(instructions?|prompts?|rules|guidelines|directions)\b",
            "tells the model to drop its instructions",
        ),
        (
            r"<\s*/?\s*(important|system|instructions?|secret|hidden|admin)\s*>",
            "a pseudo-tag that addresses the model",
        ),
        (
            r"\b(do not|don't|never)\s+(tell|inform|mention|reveal|show|alert|notify|let)\b[^.\n]{0,40}\buser",
            "tells the model to keep something from the user",
        ),
        (
            r"\bwithout\s+(telling|informing|asking|notifying|alerting)\b[^.\n]{0,20}\buser",
            "tells the model to act behind the user's back",
        ),
        (
            r"\b(before|prior to)\s+(using|calling|invoking)\s+(this|any|the)\s+tool\b[^.\n]{0,80}\b(read|call|send|pass|include|fetch|upload)\b",
            "makes the call depend on a side task",
        ),
        (
            r"(~|\$home|%userprofile%)/\.(ssh|aws|gnupg|kube|docker|netrc)|\bid_(rsa|ed25519|ecdsa)\b|/etc/(passwd|shadow)|\bmcp\.json\b",
            "names a credentials file",
        ),
        (
            r"\b(system prompt|new instructions|you are now)\b",
            "addresses the model's instructions",
        ),
        (
            r"\b(secretly|covertly|silently|quietly)\s+(send|forward|copy|include|add|call|upload|read)\b",
            "tells the model to do something unseen",
        ),
    ]
    .into_iter()
    .map(|(pattern, what)| {
        let regex = Regex::new(&format!("(?i){pattern}")).expect("a valid injection pattern");
        (regex, what)
    })
    .collect()
});

/// Credentials by their published shapes.
static SECRETS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        (r"\bAKIA[0-9A-Z]{16}\b", "an AWS access key id"),
        (
            r"\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{22,}",
            "a GitHub token",
        ),
        (r"\bxox[abprs]-[A-Za-z0-9-]{10,}", "a Slack token"),
        (r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}", "an API secret key"),
        (r"\bAIza[0-9A-Za-z_-]{35}\b", "a Google API key"),
        (
            r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
            "a private key",
        ),
        (
            r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
            "a JSON Web Token",
        ),
        (
            r#"(?i)\b(api[_-]?key|access[_-]?token|secret|password|passwd|bearer)\b["']?\s*[:=]\s*["']?[A-Za-z0-9_\-/+.]{12,}"#,
            "a credential assignment",
        ),
    ]
    .into_iter()
    .map(|(pattern, what)| (Regex::new(pattern).expect("a valid secret pattern"), what))
    .collect()
});

/// Names of tools that many servers and clients ship (filesystem, shell,
/// web): another server's tool of the same name is shadowed.
const WELL_KNOWN: &[&str] = &[
    "read_file",
    "read_multiple_files",
    "write_file",
    "edit_file",
    "create_directory",
    "list_directory",
    "directory_tree",
    "move_file",
    "search_files",
    "get_file_info",
    "delete_file",
    "execute_command",
    "run_command",
    "run_terminal_cmd",
    "shell",
    "bash",
    "exec",
    "fetch",
    "web_search",
    "browser_navigate",
    "send_email",
    "git_commit",
    "git_push",
];

/// Words in a parameter's name that make it a command, a path or a URL.
const SENSITIVE_PARAMETER: &[&str] = &[
    "command",
    "cmd",
    "shell",
    "script",
    "exec",
    "path",
    "file",
    "filename",
    "filepath",
    "dir",
    "directory",
    "folder",
    "url",
    "uri",
    "endpoint",
    "href",
    "host",
    "sql",
];

/// Verbs in a tool's name that make it sound destructive.
const DESTRUCTIVE_VERBS: &[&str] = &[
    "delete",
    "remove",
    "rm",
    "drop",
    "destroy",
    "erase",
    "wipe",
    "purge",
    "truncate",
    "kill",
    "terminate",
    "overwrite",
    "reset",
    "uninstall",
    "revoke",
    "unlink",
    "shutdown",
    "clear",
];

/// Every finding over `doc` (`{instructions, tools, prompts, resources,
/// resourceTemplates}`), rule by rule.
pub(crate) fn check(doc: &Value) -> Vec<Finding> {
    let mut findings = Vec::new();
    walk_strings(doc, &mut String::new(), &mut |pointer, text, is_key| {
        let subject = subject_of(doc, pointer);
        if !is_key {
            hidden_instructions(&subject, pointer, text, &mut findings);
            secrets(&subject, pointer, text, &mut findings);
            if pointer.ends_with("/description") && text.chars().count() > LONG_DESCRIPTION {
                findings.push(Finding::new(
                    rule("MCPT-L009"),
                    &subject,
                    pointer,
                    format!(
                        "{} characters, more than {LONG_DESCRIPTION}",
                        text.chars().count()
                    ),
                    None,
                ));
            }
        }
        invisible_unicode(&subject, pointer, text, is_key, &mut findings);
    });
    let tools = doc
        .get("tools")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    tool_names(&tools, &mut findings);
    for (index, tool) in tools.iter().enumerate() {
        let subject = subject_of(doc, &format!("/tools/{index}"));
        let base = format!("/tools/{index}");
        destructive_without_hint(tool, &subject, &base, &mut findings);
        if let Some(schema) = tool.get("inputSchema") {
            let at = format!("{base}/inputSchema");
            permissive_schema(schema, &subject, &at, &mut findings);
            unconstrained_parameters(schema, &subject, &at, &mut findings);
        }
    }
    findings.sort_by(|a, b| (a.rule.id, &a.pointer).cmp(&(b.rule.id, &b.pointer)));
    findings
}

/// Calls `f(pointer, text, is_key)` for every string and every object key
/// in `value`.
fn walk_strings(value: &Value, pointer: &mut String, f: &mut impl FnMut(&str, &str, bool)) {
    match value {
        Value::String(text) => f(pointer, text, false),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                let len = pointer.len();
                pointer.push_str(&format!("/{index}"));
                walk_strings(item, pointer, f);
                pointer.truncate(len);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                f(pointer, key, true);
                walk_strings(item, pointer, f);
                pointer.truncate(len);
            }
        }
        _ => {}
    }
}

/// What a pointer belongs to: `tool "add"`, `prompt "greet"`, `resource
/// "file:///a"`, `server instructions`.
fn subject_of(doc: &Value, pointer: &str) -> String {
    let mut parts = pointer.trim_start_matches('/').splitn(3, '/');
    let (Some(list), Some(index)) = (parts.next(), parts.next()) else {
        return "server instructions".into();
    };
    let item = index
        .parse::<usize>()
        .ok()
        .and_then(|i| doc.get(list)?.get(i));
    let (kind, key) = match list {
        "tools" => ("tool", "name"),
        "prompts" => ("prompt", "name"),
        "resources" => ("resource", "uri"),
        "resourceTemplates" => ("resource template", "uriTemplate"),
        _ => return "server instructions".into(),
    };
    match item.and_then(|i| i.get(key)).and_then(Value::as_str) {
        Some(name) => format!("{kind} {}", Value::String(name.to_owned())),
        None => format!("{kind} #{index}"),
    }
}

/// Up to 160 characters of `text` around byte `at`, on one line.
fn excerpt(text: &str, at: usize) -> String {
    let start = text[..at]
        .char_indices()
        .rev()
        .nth(60)
        .map_or(0, |(i, _)| i);
    let mut out: String = text[start..].chars().take(160).collect();
    if start > 0 {
        out.insert(0, '…');
    }
    if text[start..].chars().count() > 160 {
        out.push('…');
    }
    out
}

fn hidden_instructions(subject: &str, pointer: &str, text: &str, out: &mut Vec<Finding>) {
    for (regex, what) in INJECTION.iter() {
        if let Some(m) = regex.find(text) {
            out.push(Finding::new(
                rule("MCPT-L001"),
                subject,
                pointer,
                format!("{what}: {:?}", m.as_str()),
                Some(excerpt(text, m.start())),
            ));
            return;
        }
    }
}

fn secrets(subject: &str, pointer: &str, text: &str, out: &mut Vec<Finding>) {
    for (regex, what) in SECRETS.iter() {
        if let Some(m) = regex.find(text) {
            // Never repeat the credential in the report.
            let shown: String = m.as_str().chars().take(6).collect();
            out.push(Finding::new(
                rule("MCPT-L005"),
                subject,
                pointer,
                format!(
                    "{what} ({shown}…, {} characters; redacted here)",
                    m.as_str().len()
                ),
                None,
            ));
            return;
        }
    }
}

fn invisible_unicode(
    subject: &str,
    pointer: &str,
    text: &str,
    is_key: bool,
    out: &mut Vec<Finding>,
) {
    let found: Vec<String> = text
        .chars()
        .filter_map(|c| invisible(c).map(|name| format!("U+{:04X} {name}", c as u32)))
        .collect();
    if let Some(first) = found.first() {
        let more = match found.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        let what = if is_key { "the key" } else { "the text" };
        out.push(Finding::new(
            rule("MCPT-L002"),
            subject,
            pointer,
            format!("{what} contains {first}{more}"),
            Some(text.escape_unicode_invisible()),
        ));
    }
}

/// Shows invisible characters as `\u{..}` escapes so a report can be read.
trait EscapeInvisible {
    fn escape_unicode_invisible(&self) -> String;
}

impl EscapeInvisible for str {
    fn escape_unicode_invisible(&self) -> String {
        let mut out = String::new();
        for c in self.chars().take(200) {
            if invisible(c).is_some() {
                out.push_str(&format!("\\u{{{:X}}}", c as u32));
            } else {
                out.push(c);
            }
        }
        out
    }
}

fn tool_names(tools: &[Value], out: &mut Vec<Finding>) {
    let mut seen: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let well_known: BTreeMap<String, &str> = WELL_KNOWN.iter().map(|n| (skeleton(n), *n)).collect();
    for (index, tool) in tools.iter().enumerate() {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        let pointer = format!("/tools/{index}/name");
        let subject = format!("tool {}", Value::String(name.to_owned()));
        let shape = skeleton(name);
        if let Some((first, other)) = seen.get(&shape) {
            let how = if other == name {
                "listed twice".to_owned()
            } else {
                format!("reads like tool {other:?}")
            };
            out.push(Finding::new(
                rule("MCPT-L003"),
                &subject,
                &pointer,
                format!("{how} (at /tools/{first}/name)"),
                None,
            ));
        } else {
            seen.insert(shape.clone(), (index, name.to_owned()));
        }
        let imitated = lookalikes(name);
        if !imitated.is_empty() {
            let letters: Vec<String> = imitated
                .iter()
                .map(|c| format!("{c:?} U+{:04X}", *c as u32))
                .collect();
            out.push(Finding::new(
                rule("MCPT-L003"),
                &subject,
                &pointer,
                format!(
                    "lookalike letters {} make it read as {shape:?}",
                    letters.join(", ")
                ),
                None,
            ));
        }
        if let Some(known) = well_known.get(&shape)
            && imitated.is_empty()
        {
            out.push(Finding::new(
                rule("MCPT-L004"),
                &subject,
                &pointer,
                format!("{known:?} is a tool name many servers and clients use"),
                None,
            ));
        }
    }
}

/// The words of an identifier: `filePath` and `file_path` are `file`, `path`.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

fn destructive_without_hint(tool: &Value, subject: &str, base: &str, out: &mut Vec<Finding>) {
    let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
    let title = tool.get("title").and_then(Value::as_str).unwrap_or("");
    let Some(verb) = words(name)
        .into_iter()
        .chain(words(title))
        .find(|w| DESTRUCTIVE_VERBS.contains(&w.as_str()))
    else {
        return;
    };
    let annotations = tool.get("annotations");
    let hint = annotations.and_then(|a| a.get("destructiveHint"));
    if hint == Some(&Value::Bool(true)) {
        return;
    }
    let read_only = annotations.and_then(|a| a.get("readOnlyHint")) == Some(&Value::Bool(true));
    let detail = match (hint, read_only) {
        (_, true) => format!("its name says {verb:?}, yet it claims readOnlyHint: true"),
        (Some(Value::Bool(false)), _) => {
            format!("its name says {verb:?}, yet it claims destructiveHint: false")
        }
        _ => format!("its name says {verb:?}, and its annotations do not set destructiveHint"),
    };
    let pointer = match annotations {
        Some(_) => format!("{base}/annotations"),
        None => format!("{base}/name"),
    };
    out.push(Finding::new(
        rule("MCPT-L008"),
        subject,
        &pointer,
        detail,
        None,
    ));
}

/// Keywords that give a schema a shape even without `type`.
const SHAPING: &[&str] = &[
    "type",
    "enum",
    "const",
    "$ref",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "properties",
];

fn permissive_schema(schema: &Value, subject: &str, at: &str, out: &mut Vec<Finding>) {
    let Some(map) = schema.as_object() else {
        return;
    };
    let mut push = |pointer: String, detail: String| {
        out.push(Finding::new(
            rule("MCPT-L007"),
            subject,
            &pointer,
            detail,
            None,
        ));
    };
    if !SHAPING.iter().any(|k| map.contains_key(*k)) {
        push(
            at.to_owned(),
            "no type, properties or enum: it accepts any JSON value".into(),
        );
        return;
    }
    if !map.contains_key("type") {
        push(
            at.to_owned(),
            "no \"type\": \"object\" at the top: it does not say the arguments are an object"
                .into(),
        );
    }
    match map.get("additionalProperties") {
        Some(Value::Bool(true)) => push(
            format!("{at}/additionalProperties"),
            "additionalProperties: true admits any extra argument".into(),
        ),
        Some(Value::Object(extra)) if extra.is_empty() => push(
            format!("{at}/additionalProperties"),
            "additionalProperties: {} admits any extra argument".into(),
        ),
        _ => {}
    }
    if let Some(properties) = map.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            if let Some(property) = property.as_object()
                && !SHAPING.iter().any(|k| property.contains_key(*k))
            {
                push(
                    format!("{at}/properties/{}", escape(name)),
                    format!("property {name:?} has no type or enum: it accepts any value"),
                );
            }
        }
        let required = map
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| !r.is_empty());
        let closed = map.get("additionalProperties") == Some(&Value::Bool(false));
        let untyped = properties.values().all(|p| {
            p.as_object()
                .is_some_and(|p| !SHAPING.iter().any(|k| p.contains_key(*k)))
        });
        if !properties.is_empty() && !required && !closed && untyped {
            push(
                at.to_owned(),
                "nothing required, nothing typed, extra properties allowed: any object passes"
                    .into(),
            );
        }
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn unconstrained_parameters(schema: &Value, subject: &str, at: &str, out: &mut Vec<Finding>) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, property) in properties {
        let pointer = format!("{at}/properties/{}", escape(name));
        let Some(map) = property.as_object() else {
            continue;
        };
        if map.get("type").and_then(Value::as_str) == Some("object") {
            unconstrained_parameters(property, subject, &pointer, out);
            continue;
        }
        if map.get("type").and_then(Value::as_str) == Some("array") {
            if let Some(items) = map.get("items")
                && items.get("type").and_then(Value::as_str) == Some("string")
                && let Some(word) = sensitive(name)
                && !constrained(items.as_object())
            {
                out.push(unconstrained(
                    subject,
                    &format!("{pointer}/items"),
                    name,
                    word,
                ));
            }
            continue;
        }
        if map.get("type").and_then(Value::as_str) != Some("string") {
            continue;
        }
        if let Some(word) = sensitive(name)
            && !constrained(Some(map))
        {
            out.push(unconstrained(subject, &pointer, name, word));
        }
    }
}

fn sensitive(name: &str) -> Option<&'static str> {
    let words = words(name);
    SENSITIVE_PARAMETER
        .iter()
        // `files` and `urls` are as free-form as `file` and `url`.
        .find(|w| {
            words
                .iter()
                .any(|x| x == *w || x.strip_suffix('s') == Some(*w))
        })
        .copied()
}

fn constrained(map: Option<&Map<String, Value>>) -> bool {
    map.is_some_and(|m| {
        ["enum", "const", "pattern"]
            .iter()
            .any(|k| m.contains_key(*k))
    })
}

fn unconstrained(subject: &str, pointer: &str, name: &str, word: &str) -> Finding {
    let kind = match word {
        "command" | "cmd" | "shell" | "script" | "exec" | "sql" => "a command",
        "url" | "uri" | "endpoint" | "href" | "host" => "a URL",
        _ => "a path",
    };
    Finding::new(
        rule("MCPT-L006"),
        subject,
        pointer,
        format!("string parameter {name:?} takes {kind} with no enum, const or pattern"),
        None,
    )
}
