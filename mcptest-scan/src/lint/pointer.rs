//! JSON pointers (RFC 6901) into the definitions document
//! `{instructions, tools, prompts, resources, resourceTemplates}`: how a key
//! is escaped, and what a pointer belongs to (the subject a person reads,
//! the tool and the parameter a machine reads).

use serde_json::Value;

/// `key` escaped as one reference token: `~` is `~0`, `/` is `~1`.
pub(crate) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Pointers in document order: tokens compared as numbers where both are
/// array indexes (`/tools/2` before `/tools/10`).
pub(crate) fn order(a: &str, b: &str) -> std::cmp::Ordering {
    let mut a_tokens = a.split('/');
    let mut b_tokens = b.split('/');
    loop {
        match (a_tokens.next(), b_tokens.next()) {
            (None, None) => return std::cmp::Ordering::Equal,
            (None, Some(_)) => return std::cmp::Ordering::Less,
            (Some(_), None) => return std::cmp::Ordering::Greater,
            (Some(x), Some(y)) => {
                let by = match (x.parse::<usize>(), y.parse::<usize>()) {
                    (Ok(m), Ok(n)) => m.cmp(&n),
                    _ => x.cmp(y),
                };
                if by.is_ne() {
                    return by;
                }
            }
        }
    }
}

/// One reference token back to its key.
fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// What a pointer belongs to: `tool "add"`, `prompt "greet"`, `resource
/// "file:///a"`, `server instructions`, or `the tool list` for `/tools`
/// itself.
pub(crate) fn subject_of(doc: &Value, pointer: &str) -> String {
    let mut parts = pointer.trim_start_matches('/').splitn(3, '/');
    let list = parts.next().unwrap_or_default();
    let kind_key = match list {
        "tools" => ("tool", "name"),
        "prompts" => ("prompt", "name"),
        "resources" => ("resource", "uri"),
        "resourceTemplates" => ("resource template", "uriTemplate"),
        _ => return "server instructions".into(),
    };
    let Some(index) = parts.next() else {
        return format!("the {} list", kind_key.0);
    };
    let item = index
        .parse::<usize>()
        .ok()
        .and_then(|i| doc.get(list)?.get(i));
    match item.and_then(|i| i.get(kind_key.1)).and_then(Value::as_str) {
        Some(name) => format!("{} {}", kind_key.0, Value::String(name.to_owned())),
        None => format!("{} #{index}", kind_key.0),
    }
}

/// The name of the tool a pointer is in (`/tools/3/...`), if it is in one.
pub(crate) fn tool_of(doc: &Value, pointer: &str) -> Option<String> {
    let rest = pointer.strip_prefix("/tools/")?;
    let index: usize = rest.split('/').next()?.parse().ok()?;
    doc.get("tools")?
        .get(index)?
        .get("name")?
        .as_str()
        .map(str::to_owned)
}

/// The parameter a pointer is in: `path` for
/// `/tools/0/inputSchema/properties/path/description`, `edits[].oldText`
/// for `.../properties/edits/items/properties/oldText`; none outside an
/// input schema's properties.
pub(crate) fn parameter_of(pointer: &str) -> Option<String> {
    let (_, rest) = pointer.split_once("/inputSchema/properties/")?;
    let mut out = String::new();
    let mut tokens = rest.split('/').peekable();
    let mut expect_name = true;
    while let Some(token) = tokens.next() {
        if expect_name {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&unescape(token));
            expect_name = false;
            continue;
        }
        match token {
            "items" => {
                out.push_str("[]");
                if tokens.peek() != Some(&"properties") {
                    break;
                }
            }
            "properties" => expect_name = true,
            _ => break,
        }
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn subjects_tools_and_parameters() {
        let doc = json!({"tools": [{"name": "edit"}], "prompts": [{}]});
        assert_eq!(subject_of(&doc, "/tools/0/name"), "tool \"edit\"");
        assert_eq!(subject_of(&doc, "/tools"), "the tool list");
        assert_eq!(subject_of(&doc, "/prompts/0"), "prompt #0");
        assert_eq!(subject_of(&doc, "/instructions"), "server instructions");
        assert_eq!(
            tool_of(&doc, "/tools/0/description").as_deref(),
            Some("edit")
        );
        assert_eq!(tool_of(&doc, "/tools"), None);
        assert_eq!(
            parameter_of("/tools/0/inputSchema/properties/path/description").as_deref(),
            Some("path")
        );
        assert_eq!(
            parameter_of("/tools/0/inputSchema/properties/edits/items/properties/old~1text")
                .as_deref(),
            Some("edits[].old/text")
        );
        assert_eq!(
            parameter_of("/tools/0/inputSchema/properties/a/properties/b").as_deref(),
            Some("a.b")
        );
        assert_eq!(parameter_of("/tools/0/inputSchema"), None);
        assert_eq!(escape("a/b~c"), "a~1b~0c");
        let mut pointers = ["/tools/10/name", "/tools/2/name", "/tools/2", "/prompts/0"];
        pointers.sort_by(|a, b| order(a, b));
        assert_eq!(
            pointers,
            ["/prompts/0", "/tools/2", "/tools/2/name", "/tools/10/name"]
        );
    }
}
