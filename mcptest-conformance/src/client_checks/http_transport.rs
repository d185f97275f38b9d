//! Client checks of the Streamable HTTP transport's request headers
//! (SEP-2243): `Mcp-Method` and `Mcp-Name` on every POST, `Mcp-Param-*`
//! mirroring the arguments a tool marks `x-mcp-header` (encoded as the
//! rules say), and no call of a tool whose annotations are invalid.

use serde_json::{Value, json};

use super::{listed_tools, posts};
use crate::model::{Exchange, Observed, Problems, Transport};
use crate::support::transcript::Sent;

pub(crate) fn standard_headers(sent: &[Sent]) -> (Observed, Vec<Exchange>) {
    let posts = posts(sent);
    if posts.is_empty() {
        return (
            Observed::NotApplicable("the client sent no request over HTTP".into()),
            Vec::new(),
        );
    }
    let mut problems = Problems::default();
    let mut offending = Vec::new();
    for post in &posts {
        let method = post.method();
        let mut wrong = Vec::new();
        match post.header("mcp-method") {
            Some(header) if header == method => {}
            Some(header) => wrong.push(format!("Mcp-Method {header:?}")),
            None => wrong.push("no Mcp-Method".to_owned()),
        }
        let field = match method {
            "tools/call" | "prompts/get" => Some("name"),
            "resources/read" => Some("uri"),
            _ => None,
        };
        if let Some(field) = field {
            let expected = post.message["params"][field].as_str();
            match post.header("mcp-name") {
                Some(header) if Some(header) == expected => {}
                Some(header) => wrong.push(format!(
                    "Mcp-Name {header:?} but params.{field} {}",
                    json!(expected)
                )),
                None => wrong.push("no Mcp-Name".to_owned()),
            }
        }
        if !wrong.is_empty() {
            problems.push(format!("{method}: {}", wrong.join(", ")));
            offending.push(post.exchange());
        }
    }
    if problems.is_empty() {
        let named = ["tools/call", "prompts/get", "resources/read"];
        let unsent: Vec<&str> = named
            .iter()
            .copied()
            .filter(|m| !posts.iter().any(|p| p.method() == *m))
            .collect();
        let note = match unsent.as_slice() {
            [] => None,
            unsent => Some(format!(
                "Mcp-Name not exercised for {} (the client sent none)",
                unsent.join(", ")
            )),
        };
        (
            Observed::Holds(note),
            posts.iter().map(|s| s.exchange()).collect(),
        )
    } else {
        (problems.into_finding(), offending)
    }
}

/// A property marked `x-mcp-header` in a tool's input schema, reached from
/// the root through `properties` alone.
#[derive(Debug, Clone)]
struct Marked {
    /// The property names from the root to it.
    path: Vec<String>,
    /// The header's name: `Mcp-Param-` and the annotation.
    header: String,
}

fn marked_properties(schema: &Value) -> Vec<Marked> {
    fn walk(schema: &Value, path: &mut Vec<String>, out: &mut Vec<Marked>) {
        let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
            return;
        };
        for (name, property) in properties {
            path.push(name.clone());
            if let Some(suffix) = property.get("x-mcp-header").and_then(Value::as_str)
                && !suffix.is_empty()
            {
                out.push(Marked {
                    path: path.clone(),
                    header: format!("Mcp-Param-{suffix}"),
                });
            }
            walk(property, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(schema, &mut Vec::new(), &mut out);
    out
}

/// One argument marked `x-mcp-header` in one `tools/call` over HTTP.
struct MarkedArgument<'a> {
    call: &'a Sent,
    /// The property's dotted path.
    property: String,
    header: String,
    /// The argument; `None` when it is left out or null.
    value: Option<&'a Value>,
    /// The header's value as sent, if it was.
    sent: Option<&'a str>,
}

/// The `tools/call`s over HTTP of tools with arguments marked
/// `x-mcp-header`, and those arguments; the reason there is nothing to
/// judge when the client made no such call.
fn marked_calls<'a>(
    requests: &[&'a Sent],
) -> Result<(Vec<&'a Sent>, Vec<MarkedArgument<'a>>), Observed> {
    let listed = listed_tools(requests);
    let mut calls = Vec::new();
    let mut arguments = Vec::new();
    for call in requests.iter().copied() {
        let Some(name) = call.tool() else { continue };
        if call.transport != Transport::Http {
            continue;
        }
        let Some(tool) = listed.iter().find(|t| t["name"] == name) else {
            continue;
        };
        // A tool with invalid annotations is not to be called at all
        // (`sep-2243-client-rejects-invalid-header-tools`).
        if invalid_annotation(&tool["inputSchema"]).is_some() {
            continue;
        }
        let marked = marked_properties(&tool["inputSchema"]);
        if marked.is_empty() {
            continue;
        }
        calls.push(call);
        for property in marked {
            let value = property
                .path
                .iter()
                .try_fold(&call.message["params"]["arguments"], |v, key| v.get(key))
                .filter(|v| !v.is_null());
            arguments.push(MarkedArgument {
                call,
                property: property.path.join("."),
                sent: call.header(&property.header),
                header: property.header,
                value,
            });
        }
    }
    if calls.is_empty() {
        return Err(Observed::NotApplicable(
            "the client never called, over HTTP, a listed tool with arguments marked \
             x-mcp-header (the mock's `forecast`)"
                .into(),
        ));
    }
    Ok((calls, arguments))
}

/// Whether a string must travel Base64-wrapped in a header: non-ASCII or
/// control characters, or whitespace at either end.
fn needs_base64(text: &str) -> bool {
    text.chars().any(|c| !(' '..='~').contains(&c))
        || text.starts_with([' ', '\t'])
        || text.ends_with([' ', '\t'])
}

const BASE64_PREFIX: &str = "=?base64?";
const BASE64_SUFFIX: &str = "?=";

/// A header value as the text it stands for: the decoded form of
/// `=?base64?...?=`, else the value itself.
fn decode_param(raw: &str) -> Result<String, String> {
    use base64::Engine as _;
    let Some(inner) = raw
        .strip_prefix(BASE64_PREFIX)
        .and_then(|r| r.strip_suffix(BASE64_SUFFIX))
    else {
        return Ok(raw.to_owned());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(inner)
        .map_err(|e| format!("{raw:?} is not valid Base64: {e}"))?;
    String::from_utf8(bytes).map_err(|_| format!("{raw:?} does not decode to UTF-8"))
}

/// Judges the marked arguments `judge` picks (`Some(problem)` or
/// `Some(None)`; `None`: not this check's business).
fn judge_marked(
    requests: &[&Sent],
    nothing: &str,
    judge: impl Fn(&MarkedArgument) -> Option<Option<String>>,
) -> (Observed, Vec<Exchange>) {
    let (calls, arguments) = match marked_calls(requests) {
        Ok(found) => found,
        Err(finding) => return (finding, Vec::new()),
    };
    let mut judged = 0;
    let mut problems = Problems::default();
    let mut offending: Vec<&Sent> = Vec::new();
    for argument in &arguments {
        let Some(status) = judge(argument) else {
            continue;
        };
        judged += 1;
        if let Some(problem) = status {
            problems.push(format!(
                "tools/call (id {}) `{}`: {problem}",
                argument.call.message["id"], argument.property
            ));
            if !offending.iter().any(|c| std::ptr::eq(*c, argument.call)) {
                offending.push(argument.call);
            }
        }
    }
    let evidence = |calls: &[&Sent]| calls.iter().map(|c| c.exchange()).collect();
    if judged == 0 {
        return (
            Observed::NotApplicable(nothing.to_owned()),
            evidence(&calls),
        );
    }
    if problems.is_empty() {
        (Observed::holds(), evidence(&calls))
    } else {
        (problems.into_finding(), evidence(&offending))
    }
}

pub(crate) fn param_headers_mirrored<'a>(requests: &[&'a Sent]) -> (Observed, Vec<Exchange>) {
    let (calls, arguments) = match marked_calls(requests) {
        Ok(found) => found,
        Err(finding) => return (finding, Vec::new()),
    };
    let mut problems = Problems::default();
    let mut offending: Vec<&Sent> = Vec::new();
    let mut note = |call: &'a Sent, problem: String| {
        problems.push(format!("tools/call (id {}): {problem}", call.message["id"]));
        offending.push(call);
    };
    for argument in &arguments {
        let Some(value) = argument.value else {
            continue;
        };
        let problem = match (argument.sent, value) {
            (None, _) => Some(format!(
                "`{}` has a value but no {} header",
                argument.property, argument.header
            )),
            // Plain strings are compared here; the text of numbers, booleans
            // and strings that need Base64 is judged by their own checks.
            (Some(raw), Value::String(text)) if !needs_base64(text) => match decode_param(raw) {
                Ok(decoded) if decoded == *text => None,
                Ok(decoded) => Some(format!(
                    "{} {decoded:?} but `{}` is {text:?}",
                    argument.header, argument.property
                )),
                Err(why) => Some(format!("{}: {why}", argument.header)),
            },
            (Some(_), _) => None,
        };
        if let Some(problem) = problem {
            note(argument.call, problem);
        }
    }
    // No Mcp-Param header for an argument that is not marked.
    for call in &calls {
        for (name, value) in &call.headers {
            let is_param = name
                .get(..10)
                .is_some_and(|p| p.eq_ignore_ascii_case("mcp-param-"));
            let marked = arguments
                .iter()
                .any(|a| std::ptr::eq(a.call, *call) && a.header.eq_ignore_ascii_case(name));
            if is_param && !marked {
                note(
                    call,
                    format!(
                        "{name} {value:?} sent, but no argument of {:?} is marked \
                         x-mcp-header with that name",
                        call.tool().unwrap_or_default()
                    ),
                );
            }
        }
    }
    offending.dedup_by(|a, b| std::ptr::eq(*a, *b));
    let shown = if problems.is_empty() {
        &calls
    } else {
        &offending
    };
    let evidence = shown.iter().map(|c| c.exchange()).collect();
    (problems.into_finding(), evidence)
}

pub(crate) fn param_header_values(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    judge_marked(
        requests,
        "no integer or boolean argument marked x-mcp-header was mirrored",
        |argument| {
            let raw = argument.sent?;
            let value = argument.value?;
            if !(value.is_number() || value.is_boolean()) {
                return None;
            }
            let decoded = match decode_param(raw) {
                Ok(decoded) => decoded,
                Err(why) => return Some(Some(format!("{}: {why}", argument.header))),
            };
            let right = match value {
                Value::Bool(b) => decoded == b.to_string(),
                _ => decoded
                    .parse::<f64>()
                    .ok()
                    .zip(value.as_f64())
                    .is_some_and(|(sent, wanted)| (sent - wanted).abs() <= 1e-9),
            };
            Some((!right).then(|| {
                format!(
                    "{} {raw:?} does not write the argument {value}",
                    argument.header
                )
            }))
        },
    )
}

pub(crate) fn param_header_base64(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    judge_marked(
        requests,
        "no string argument marked x-mcp-header needed Base64 (non-ASCII or control \
         characters, whitespace at either end)",
        |argument| {
            let raw = argument.sent?;
            let text = argument.value?.as_str().filter(|t| needs_base64(t))?;
            let wrapped = raw.starts_with(BASE64_PREFIX) && raw.ends_with(BASE64_SUFFIX);
            Some(match decode_param(raw) {
                _ if !wrapped => Some(format!(
                    "{} {raw:?} is not =?base64?...?=, though the argument {text:?} needs it",
                    argument.header
                )),
                Ok(decoded) if decoded == text => None,
                Ok(decoded) => Some(format!(
                    "{} decodes to {decoded:?}, not the argument {text:?}",
                    argument.header
                )),
                Err(why) => Some(format!("{}: {why}", argument.header)),
            })
        },
    )
}

pub(crate) fn param_header_omit_null(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    judge_marked(
        requests,
        "every argument marked x-mcp-header had a value in every call",
        |argument| {
            if argument.value.is_some() {
                return None;
            }
            Some(argument.sent.map(|raw| {
                format!(
                    "the argument is null or left out, yet {} {raw:?} was sent",
                    argument.header
                )
            }))
        },
    )
}

/// Why a tool's `x-mcp-header` annotations are invalid, if they are: each
/// must be a non-empty HTTP token (RFC 9110), unique ignoring case, on a
/// `string`, `integer` or `boolean` property.
fn invalid_annotation(schema: &Value) -> Option<String> {
    fn walk(schema: &Value, seen: &mut Vec<String>) -> Option<String> {
        let properties = schema.get("properties")?.as_object()?;
        for (name, property) in properties {
            if let Some(header) = property.get("x-mcp-header") {
                let Some(header) = header.as_str() else {
                    return Some(format!("`{name}`: x-mcp-header {header} is not a string"));
                };
                let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
                if header.is_empty() {
                    return Some(format!("`{name}`: x-mcp-header is empty"));
                }
                if !header.chars().all(token) {
                    return Some(format!(
                        "`{name}`: x-mcp-header {header:?} is not an HTTP token"
                    ));
                }
                let lower = header.to_ascii_lowercase();
                if seen.contains(&lower) {
                    return Some(format!(
                        "`{name}`: x-mcp-header {header:?} is used twice (ignoring case)"
                    ));
                }
                seen.push(lower);
                let kind = property.get("type").and_then(Value::as_str);
                if !matches!(kind, Some("string" | "integer" | "boolean")) {
                    return Some(format!(
                        "`{name}`: x-mcp-header on a property of type {}, not string, integer or \
                         boolean",
                        property.get("type").unwrap_or(&Value::Null)
                    ));
                }
            }
            if let Some(reason) = walk(property, seen) {
                return Some(reason);
            }
        }
        None
    }
    walk(schema, &mut Vec::new())
}

pub(crate) fn invalid_header_tools_unused(requests: &[&Sent]) -> (Observed, Vec<Exchange>) {
    let listed = listed_tools(requests);
    let invalid: Vec<(&str, String)> = listed
        .iter()
        .filter_map(|t| Some((t["name"].as_str()?, invalid_annotation(&t["inputSchema"])?)))
        .collect();
    if invalid.is_empty() {
        return (
            Observed::NotApplicable(
                "the client never listed a tool with invalid x-mcp-header annotations (the \
                 mock's `tag_*`)"
                    .into(),
            ),
            Vec::new(),
        );
    }
    let mut problems = Problems::default();
    let mut offending = Vec::new();
    for call in requests.iter().filter(|r| r.transport == Transport::Http) {
        let Some(name) = call.tool() else { continue };
        if let Some((_, why)) = invalid.iter().find(|(n, _)| *n == name) {
            problems.push(format!(
                "tools/call (id {}) of {name:?}, whose annotations are invalid: {why}",
                call.message["id"]
            ));
            offending.push(call.exchange());
        }
    }
    if !problems.is_empty() {
        return (problems.into_finding(), offending);
    }
    let names: Vec<&str> = invalid.iter().map(|(n, _)| *n).collect();
    match marked_calls(requests) {
        Ok((calls, _)) => (
            Observed::Holds(Some(format!(
                "the client called tools with valid x-mcp-header annotations and none of {}",
                names.join(", ")
            ))),
            calls.iter().map(|c| c.exchange()).collect(),
        ),
        Err(_) => (
            Observed::NotApplicable(format!(
                "the client called no tool with arguments marked x-mcp-header, so leaving {} \
                 alone shows nothing",
                names.join(", ")
            )),
            Vec::new(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_header_values_are_the_ones_that_need_base64() {
        for plain in ["us-west1", "us west 1", "", "42", "=x"] {
            assert!(!needs_base64(plain), "{plain:?}");
        }
        for unsafe_ in [
            " padded",
            "trailing ",
            "\tindented",
            "line1\nline2",
            "Zürich",
            "世界",
        ] {
            assert!(needs_base64(unsafe_), "{unsafe_:?}");
        }
        assert_eq!(decode_param("=?base64?WsO8cmljaA==?=").unwrap(), "Zürich");
        assert_eq!(decode_param("plain").unwrap(), "plain");
        assert!(decode_param("=?base64?***?=").is_err());
    }

    /// over HTTP with `arguments` and `headers`.
    fn forecast_call(arguments: Value, headers: &[(&str, &str)]) -> Vec<Sent> {
        let sent = |message: Value, answer: Option<Value>, headers: &[(&str, &str)]| Sent {
            transport: Transport::Http,
            raw: message.to_string(),
            message,
            headers: headers
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
            answer,
            http: None,
        };
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "days": {"type": "integer", "x-mcp-header": "Days"},
            "metric": {"type": "boolean", "x-mcp-header": "Metric"},
            "label": {"type": "string", "x-mcp-header": "Label"},
        }});
        vec![
            sent(
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
                Some(json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
                    {"name": "forecast", "inputSchema": schema},
                ]}})),
                &[],
            ),
            sent(
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "forecast", "arguments": arguments}}),
                None,
                headers,
            ),
        ]
    }

    fn statuses(sent: &[Sent]) -> Vec<bool> {
        let requests: Vec<&Sent> = sent.iter().collect();
        [
            param_headers_mirrored(&requests),
            param_header_values(&requests),
            param_header_base64(&requests),
            param_header_omit_null(&requests),
        ]
        .into_iter()
        .map(|(finding, _)| !matches!(finding, Observed::Broken(_)))
        .collect()
    }

    #[test]
    fn param_headers_are_judged_by_the_encoding_rules() {
        let arguments = json!({"region": "", "days": 3, "metric": true, "label": "é", "x": 1});
        // An empty string is an empty value; 3.0 is the number 3.
        let good = [
            ("mcp-param-region", ""),
            ("mcp-param-days", "3.0"),
            ("mcp-param-metric", "true"),
            ("mcp-param-label", "=?base64?w6k=?="),
        ];
        assert_eq!(
            statuses(&forecast_call(arguments.clone(), &good)),
            [true; 4]
        );
        let mut wrong = good;
        wrong[1] = ("mcp-param-days", "4");
        wrong[3] = ("mcp-param-label", "é");
        assert_eq!(
            statuses(&forecast_call(arguments.clone(), &wrong)),
            [true, false, false, true]
        );
        // A null argument has no header; a header for it breaks the rule.
        let null = json!({"region": "r", "metric": null});
        assert_eq!(
            statuses(&forecast_call(null.clone(), &[("mcp-param-region", "r")])),
            [true, true, true, true]
        );
        let (finding, _) = param_header_omit_null(
            &forecast_call(null, &[("mcp-param-region", "r"), ("Mcp-Param-Metric", "")])
                .iter()
                .collect::<Vec<_>>(),
        );
        assert!(
            matches!(&finding, Observed::Broken(r) if r.contains("`metric`")),
            "{finding:?}"
        );
    }

    #[test]
    fn invalid_annotations_say_why() {
        let schema = |properties: Value| json!({"type": "object", "properties": properties});
        let why = |properties: Value| invalid_annotation(&schema(properties)).unwrap_or_default();
        assert_eq!(
            invalid_annotation(&schema(json!({
                "a": {"type": "string", "x-mcp-header": "Region"},
                "b": {"type": "integer", "x-mcp-header": "X-Count_2"},
            }))),
            None
        );
        assert!(why(json!({"a": {"type": "string", "x-mcp-header": ""}})).contains("empty"));
        assert!(why(json!({"a": {"type": "string", "x-mcp-header": "A:B"}})).contains("token"));
        assert!(why(json!({"a": {"type": "string", "x-mcp-header": "Région"}})).contains("token"));
        assert!(
            why(json!({
                "a": {"type": "string", "x-mcp-header": "Tag"},
                "b": {"type": "string", "x-mcp-header": "TAG"},
            }))
            .contains("twice")
        );
        assert!(why(json!({"a": {"type": "array", "x-mcp-header": "A"}})).contains("\"array\""));
        assert!(why(json!({"a": {"type": "number", "x-mcp-header": "A"}})).contains("number"));
    }

    #[test]
    fn marked_properties_follow_properties_only() {
        let schema = json!({
            "type": "object",
            "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "empty": {"type": "string", "x-mcp-header": ""},
                "nested": {"type": "object", "properties": {
                    "zone": {"type": "string", "x-mcp-header": "Zone"},
                }},
                "plain": {"type": "string"},
            },
            "$defs": {"x": {"type": "string", "x-mcp-header": "Defs"}},
        });
        let mut headers: Vec<(String, String)> = marked_properties(&schema)
            .into_iter()
            .map(|m| (m.path.join("."), m.header))
            .collect();
        headers.sort();
        assert_eq!(
            headers,
            [
                ("nested.zone".to_owned(), "Mcp-Param-Zone".to_owned()),
                ("region".to_owned(), "Mcp-Param-Region".to_owned()),
            ]
        );
    }
}
