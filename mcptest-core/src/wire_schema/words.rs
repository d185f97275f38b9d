//! What a schema violation requires, in the schema's words: the generated
//! types report a misfit in Rust's (`Expected field `type_` in struct
//! `ToolInputSchema` as const value 'object'`, `expected f64`, `struct
//! Tool`); a tester reads JSON, so the member is named as the message
//! spells it and each Rust type as the JSON it stands for.

/// The requirement broken at `path` (as `tools[0].inputSchema.type`, `.`
/// for the message itself), from the text the generated types gave.
pub(super) fn requirement(serde_text: &str, path: &str) -> String {
    let subject = subject(path);
    if let Some(field) = between(serde_text, "missing field `", "`") {
        return format!("the required member `{field}` is missing");
    }
    if let Some(field) = between(serde_text, "duplicate field `", "`") {
        return format!("the member `{field}` appears twice");
    }
    if let Some(rest) = serde_text.strip_prefix("unknown field `")
        && let Some((field, allowed)) = rest.split_once("`, expected ")
    {
        return format!(
            "the member `{field}` is not allowed here (the schema allows {})",
            allowed.replace("one of ", "")
        );
    }
    if let Some(rest) = serde_text.strip_prefix("unknown variant `")
        && let Some((found, allowed)) = rest.split_once("`, expected ")
    {
        let allowed = allowed.trim_start_matches("one of ").replace('`', "\"");
        return format!("{subject} must be one of {allowed}, not \"{found}\"");
    }
    if let Some(rest) = serde_text.strip_prefix("invalid type: ")
        && let Some((found, expected)) = rest.rsplit_once(", expected ")
    {
        return format!(
            "{subject} must be {}, not {}",
            json_kind(expected),
            found_value(found)
        );
    }
    if let Some(rest) = serde_text.strip_prefix("invalid value: ")
        && let Some((found, expected)) = rest.rsplit_once(", expected ")
    {
        return format!(
            "{subject} must be {}, not {}",
            json_kind(expected),
            found_value(found)
        );
    }
    if let Some(rest) = serde_text.strip_prefix("invalid length ")
        && let Some((length, expected)) = rest.split_once(", expected ")
    {
        return format!("{subject} must hold {expected}, not {length} item(s)");
    }
    if let Some(definition) =
        serde_text.strip_prefix("data did not match any variant of untagged enum ")
    {
        return format!("{subject} matches none of the forms the schema allows for {definition}");
    }
    // The generated types' own checks of a constant member.
    if let Some(rest) = serde_text.strip_prefix("Expected field `")
        && let Some((_, rest)) = rest.split_once("` as const value '")
        && let Some((expected, found)) = rest.split_once("', but got '")
    {
        let found = found.strip_suffix('\'').unwrap_or(found);
        return format!("{subject} must be \"{expected}\", not \"{found}\"");
    }
    if let Some(rest) = serde_text.strip_prefix("Expected field `")
        && let Some((_, rest)) = rest.split_once("` to be None or exactly \"")
        && let Some((expected, found)) = rest.split_once("\", but got Some(\"")
    {
        let found = found.strip_suffix("\")").unwrap_or(found);
        return format!("{subject}, when present, must be \"{expected}\", not \"{found}\"");
    }
    if let Some(rest) = serde_text.strip_prefix("Invalid ")
        && let Some((_, rest)) = rest.split_once(": expected ")
        && let Some((expected, found)) = rest.rsplit_once(", got ")
    {
        return format!("{subject} must be {expected}, not {found}");
    }
    serde_text.to_owned()
}

/// The member or item a path ends at, as the message spells it.
fn subject(path: &str) -> String {
    if path == "." || path.is_empty() {
        return "the message".to_owned();
    }
    let last = path.rsplit('.').next().unwrap_or(path);
    format!("`{last}`")
}

/// The text between `start` and the next `end`.
fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(start)?;
    rest.split_once(end).map(|(inside, _)| inside)
}

/// A Rust type (what serde expected) as the JSON it stands for.
fn json_kind(expected: &str) -> String {
    let kind = match expected {
        "f32" | "f64" => "a number",
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a non-negative integer",
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "an integer",
        "a string" | "a borrowed string" | "a char" => "a string",
        "a boolean" => "true or false",
        "a sequence" => "an array",
        "a map" => "an object",
        "unit" => "null",
        _ => {
            if let Some(name) = expected
                .strip_prefix("struct ")
                .or_else(|| expected.strip_prefix("tuple struct "))
            {
                return format!("an object ({name})");
            }
            if let Some(name) = expected
                .strip_prefix("internally tagged enum ")
                .or_else(|| expected.strip_prefix("adjacently tagged enum "))
                .or_else(|| expected.strip_prefix("enum "))
            {
                return format!("one of the forms the schema allows for {name}");
            }
            return expected.to_owned();
        }
    };
    kind.to_owned()
}

/// What serde found, as JSON.
fn found_value(found: &str) -> String {
    let quoted = |s: &str| s.trim_matches('`').to_owned();
    if let Some(text) = found.strip_prefix("string ") {
        return format!("the string {text}");
    }
    if let Some(n) = found.strip_prefix("integer ") {
        return format!("the number {}", quoted(n));
    }
    if let Some(n) = found.strip_prefix("floating point ") {
        return format!("the number {}", quoted(n));
    }
    if let Some(b) = found.strip_prefix("boolean ") {
        return quoted(b);
    }
    match found {
        "map" => "an object".to_owned(),
        "sequence" => "an array".to_owned(),
        "unit value" | "null" => "null".to_owned(),
        other => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::requirement;

    #[test]
    fn the_generated_types_rust_is_said_in_the_schema_s_words() {
        let cases = [
            (
                "Expected field `type_` in struct `ToolInputSchema` as const value 'object', but got 'array'",
                "tools[0].inputSchema.type",
                "`type` must be \"object\", not \"array\"",
            ),
            (
                "invalid type: string \"50\", expected f64",
                "params.progress",
                "`progress` must be a number, not the string \"50\"",
            ),
            (
                "missing field `serverInfo`",
                ".",
                "the required member `serverInfo` is missing",
            ),
            (
                "invalid type: string \"not a list\", expected a sequence",
                "tools",
                "`tools` must be an array, not the string \"not a list\"",
            ),
            (
                "invalid type: integer `5`, expected struct Tool",
                "tools[0]",
                "`tools[0]` must be an object (Tool), not the number 5",
            ),
            (
                "unknown variant `loud`, expected one of `debug`, `info`",
                "params.level",
                "`level` must be one of \"debug\", \"info\", not \"loud\"",
            ),
            (
                "invalid type: null, expected a string",
                "name",
                "`name` must be a string, not null",
            ),
            (
                "Expected field `method` in struct `X` to be None or exactly \"a\", but got Some(\"b\")",
                "params.method",
                "`method`, when present, must be \"a\", not \"b\"",
            ),
            ("something new", "a", "something new"),
        ];
        for (serde_text, path, said) in cases {
            assert_eq!(requirement(serde_text, path), said, "{serde_text}");
        }
    }
}
