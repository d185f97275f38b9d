//! Server checks of the classic revision (2025-11-25): the `initialize`
//! handshake and the behaviour of a server once initialized.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::facts::{ClassicFacts, declares};
use super::listing::{list_all, tools_declared};
use crate::model::{Checked, Observed, Problems};
use crate::support::message::{initialize_params, request};
use crate::support::probe::{Headers, Probe};
use crate::support::received::Received;
use crate::support::revision::{CLASSIC, INITIALIZE_VERSIONS, UNSUPPORTED_VERSION};

/// The lists a server may declare, with the key holding their items.
pub(crate) const LISTS: &[(&str, &str, &str)] = &[
    ("tools", "tools/list", "tools"),
    ("prompts", "prompts/list", "prompts"),
    ("resources", "resources/list", "resources"),
    ("resources", "resources/templates/list", "resourceTemplates"),
];

pub(crate) async fn initialize_result(p: &mut Probe) -> Checked {
    let (_, reply) = p
        .open_call(
            |id| request(id, "initialize", initialize_params(CLASSIC)),
            Headers::Derived,
        )
        .await?;
    let Some(result) = reply.result() else {
        return Ok(Observed::Broken(format!(
            "initialize got {}",
            reply.describe()
        )));
    };
    let mut problems = Problems::default();
    match result.get("protocolVersion").and_then(Value::as_str) {
        Some(v) if INITIALIZE_VERSIONS.contains(&v) => {}
        Some(v) => problems.push(format!(
            "protocolVersion {v:?} is not a revision with an initialize handshake"
        )),
        None => problems.push("protocolVersion is missing or not a string"),
    }
    if !result.get("capabilities").is_some_and(Value::is_object) {
        problems.push("capabilities is missing or not an object");
    }
    match result.get("serverInfo") {
        Some(info) if info.is_object() => {
            for field in ["name", "version"] {
                if !info.get(field).is_some_and(Value::is_string) {
                    problems.push(format!("serverInfo.{field} is missing or not a string"));
                }
            }
        }
        _ => problems.push("serverInfo is missing or not an object"),
    }
    Ok(problems.into_finding())
}

pub(crate) async fn version_negotiation(p: &mut Probe) -> Checked {
    let (_, reply) = p
        .open_call(
            |id| request(id, "initialize", initialize_params(UNSUPPORTED_VERSION)),
            Headers::Derived,
        )
        .await?;
    let Some(result) = reply.result() else {
        return Ok(Observed::Broken(format!(
            "initialize with protocolVersion {UNSUPPORTED_VERSION:?} got {} \
             instead of a counter-offer",
            reply.describe()
        )));
    };
    Ok(
        match result.get("protocolVersion").and_then(Value::as_str) {
            Some(v) if INITIALIZE_VERSIONS.contains(&v) => {
                Observed::Holds(Some(format!("counter-offered {v}")))
            }
            Some(UNSUPPORTED_VERSION) => Observed::Broken(format!(
                "the server echoed the unsupported version {UNSUPPORTED_VERSION:?} instead of \
             counter-offering one it supports"
            )),
            Some(v) => Observed::Broken(format!(
                "the server counter-offered {v:?}, which is not a revision with an initialize handshake"
            )),
            None => Observed::Broken("the result has no protocolVersion string".into()),
        },
    )
}

pub(crate) async fn request_before_initialize(p: &mut Probe) -> Checked {
    let ch = p.open().await?;
    let early_id = json!("mcptest-early");
    let early = p
        .call(ch, request(early_id.clone(), "tools/list", Value::Null))
        .await;
    // Over HTTP a request without a session may be refused with 400 before
    // any JSON-RPC is read (Streamable HTTP: session management).
    let refused_over_http = early.status == Some(400) && early.result().is_none();
    if early.response.is_none() && !refused_over_http {
        return Ok(Observed::Broken(format!(
            "tools/list sent before initialize got {}",
            early.describe()
        )));
    }
    if early.response.is_some() && !refused_over_http && early.id() != Some(&early_id) {
        return Ok(Observed::Broken(format!(
            "tools/list sent before initialize was answered with id {}, not {early_id}",
            early.id().cloned().unwrap_or(Value::Null)
        )));
    }
    let id = p.id();
    let init = p
        .call(ch, request(id, "initialize", initialize_params(CLASSIC)))
        .await;
    if init.result().is_none() {
        return Ok(Observed::Broken(format!(
            "after the early request, initialize got {}",
            init.describe()
        )));
    }
    Ok(Observed::Holds(Some(format!(
        "the early request got {}",
        early.describe()
    ))))
}

pub(crate) async fn ping(p: &mut Probe) -> Checked {
    let (ch, _) = p.classic_session().await?;
    let id = p.id();
    let reply = p.call(ch, request(id, "ping", Value::Null)).await;
    Ok(match reply.result() {
        Some(Value::Object(map)) if map.keys().all(|k| k == "_meta") => Observed::holds(),
        Some(other) => {
            Observed::Broken(format!("ping was answered with a non-empty result {other}"))
        }
        None => Observed::Broken(format!("ping got {}", reply.describe())),
    })
}

pub(crate) async fn tool_names(p: &mut Probe, facts: &ClassicFacts) -> Checked {
    tools_declared(facts)?;
    let (ch, _) = p.classic_session().await?;
    let (tools, _) = list_all(p, ch, "tools/list", "tools", None, true).await?;
    if tools.is_empty() {
        return Ok(Observed::NotApplicable("the server lists no tools".into()));
    }
    let mut problems = Problems::default();
    let mut seen = HashSet::new();
    for tool in &tools {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            problems.push(format!("a tool has no name string: {tool}"));
            continue;
        };
        let valid_chars = name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        if name.is_empty() || name.chars().count() > 128 || !valid_chars {
            problems.push(format!(
                "tool name {name:?} is not 1-128 of A-Z a-z 0-9 _ - ."
            ));
        }
        if !seen.insert(name) {
            problems.push(format!("tool name {name:?} is listed twice"));
        }
    }
    Ok(problems.into_finding())
}

pub(crate) async fn tool_input_schemas(p: &mut Probe, facts: &ClassicFacts) -> Checked {
    tools_declared(facts)?;
    let (ch, _) = p.classic_session().await?;
    let (tools, _) = list_all(p, ch, "tools/list", "tools", None, true).await?;
    if tools.is_empty() {
        return Ok(Observed::NotApplicable("the server lists no tools".into()));
    }
    let mut problems = Problems::default();
    for tool in &tools {
        let name = tool
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("(unnamed)");
        match tool.get("inputSchema") {
            Some(schema @ Value::Object(map)) => {
                if map.get("type") != Some(&json!("object")) {
                    problems.push(format!(
                        "tool {name:?}: inputSchema type is {}, not \"object\"",
                        map.get("type").cloned().unwrap_or(Value::Null)
                    ));
                }
                if let Err(error) = jsonschema::meta::validate(schema) {
                    problems.push(format!(
                        "tool {name:?}: inputSchema is not a valid JSON Schema: {error} (at {})",
                        error.instance_path()
                    ));
                }
            }
            Some(other) => problems.push(format!(
                "tool {name:?}: inputSchema is {other}, not an object"
            )),
            None => problems.push(format!("tool {name:?} has no inputSchema")),
        }
    }
    Ok(problems.into_finding())
}

/// One request per capability that shows whether it is implemented.
fn capability_probes(first_prompt: Option<&str>) -> Vec<(&'static str, &'static str, Value)> {
    vec![
        ("tools", "tools/list", Value::Null),
        ("prompts", "prompts/list", Value::Null),
        ("resources", "resources/list", Value::Null),
        ("logging", "logging/setLevel", json!({ "level": "info" })),
        (
            "completions",
            "completion/complete",
            json!({
                "ref": { "type": "ref/prompt", "name": first_prompt.unwrap_or("mcptest-probe") },
                "argument": { "name": "mcptest-probe", "value": "" },
            }),
        ),
    ]
}

pub(crate) async fn declared_capabilities_answer(p: &mut Probe, facts: &ClassicFacts) -> Checked {
    let (ch, _) = p.classic_session().await?;
    let mut problems = Problems::default();
    let mut probed = 0;
    for (capability, method, params) in capability_probes(None) {
        if !declares(&facts.capabilities, capability) {
            continue;
        }
        probed += 1;
        let id = p.id();
        let reply = p.call(ch, request(id, method, params)).await;
        if reply.response.is_none() || reply.code() == Some(-32601) {
            problems.push(format!(
                "{capability} is declared but {method} got {}",
                reply.describe()
            ));
        }
    }
    if probed == 0 {
        return Ok(Observed::NotApplicable(
            "the server declares none of tools, prompts, resources, logging, completions".into(),
        ));
    }
    Ok(problems.into_finding())
}

pub(crate) async fn undeclared_capabilities_rejected(
    p: &mut Probe,
    facts: &ClassicFacts,
) -> Checked {
    let caps = &facts.capabilities;
    let mut probes: Vec<(String, &str, Value)> = capability_probes(None)
        .into_iter()
        .filter(|(capability, _, _)| !declares(caps, capability))
        .map(|(capability, method, params)| (capability.to_owned(), method, params))
        .collect();
    let subscribe = caps
        .get("resources")
        .and_then(|r| r.get("subscribe"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if declares(caps, "resources") && !subscribe {
        probes.push((
            "resources.subscribe".into(),
            "resources/subscribe",
            json!({ "uri": "mcptest://probe" }),
        ));
    }
    if probes.is_empty() {
        return Ok(Observed::NotApplicable(
            "the server declares every capability mcptest can probe".into(),
        ));
    }
    let (ch, _) = p.classic_session().await?;
    let mut problems = Problems::default();
    for (capability, method, params) in probes {
        let id = p.id();
        let reply = p.call(ch, request(id, method, params)).await;
        if reply.code() != Some(-32601) {
            problems.push(format!(
                "{capability} is not declared but {method} got {}",
                reply.describe()
            ));
        }
    }
    Ok(problems.into_finding())
}

async fn call_unknown_tool(p: &mut Probe, facts: &ClassicFacts) -> Result<Received, Observed> {
    tools_declared(facts)?;
    let (ch, _) = p.classic_session().await?;
    let id = p.id();
    Ok(p.call(
        ch,
        request(
            id,
            "tools/call",
            json!({ "name": "mcptest-no-such-tool", "arguments": {} }),
        ),
    )
    .await)
}

pub(crate) async fn unknown_tool_rejected(p: &mut Probe, facts: &ClassicFacts) -> Checked {
    let reply = call_unknown_tool(p, facts).await?;
    Ok(if reply.error().is_some() {
        Observed::Holds(Some(format!("answered with {}", reply.describe())))
    } else if let Some(result) = reply.result() {
        if result.get("isError") == Some(&Value::Bool(true)) {
            Observed::Holds(Some("answered with a result with isError: true".into()))
        } else {
            Observed::Broken("calling an unknown tool succeeded".into())
        }
    } else {
        Observed::Broken(format!("calling an unknown tool got {}", reply.describe()))
    })
}

pub(crate) async fn unknown_tool_protocol_error(p: &mut Probe, facts: &ClassicFacts) -> Checked {
    let reply = call_unknown_tool(p, facts).await?;
    Ok(match reply.code() {
        Some(-32602) => Observed::holds(),
        _ => Observed::Broken(format!(
            "calling an unknown tool got {}, not error -32602",
            reply.describe()
        )),
    })
}

pub(crate) async fn unknown_resource(p: &mut Probe, facts: &ClassicFacts) -> Checked {
    if !declares(&facts.capabilities, "resources") {
        return Ok(Observed::NotApplicable(
            "the server does not declare the resources capability".into(),
        ));
    }
    let (ch, _) = p.classic_session().await?;
    let id = p.id();
    let reply = p
        .call(
            ch,
            request(
                id,
                "resources/read",
                json!({ "uri": "mcptest://no-such-resource" }),
            ),
        )
        .await;
    Ok(if reply.error().is_some() {
        Observed::Holds(Some(format!("answered with {}", reply.describe())))
    } else {
        Observed::Broken(format!(
            "reading an unknown resource got {}",
            reply.describe()
        ))
    })
}

pub(crate) async fn missing_prompt_argument(p: &mut Probe, facts: &ClassicFacts) -> Checked {
    if !declares(&facts.capabilities, "prompts") {
        return Ok(Observed::NotApplicable(
            "the server does not declare the prompts capability".into(),
        ));
    }
    let (ch, _) = p.classic_session().await?;
    let (prompts, _) = list_all(p, ch, "prompts/list", "prompts", None, false).await?;
    let with_required = prompts.iter().find_map(|prompt| {
        let required = prompt
            .get("arguments")?
            .as_array()?
            .iter()
            .any(|a| a.get("required") == Some(&Value::Bool(true)));
        required.then(|| prompt.get("name")?.as_str().map(str::to_owned))?
    });
    let Some(name) = with_required else {
        return Ok(Observed::NotApplicable(
            "no prompt has a required argument".into(),
        ));
    };
    let id = p.id();
    let reply = p
        .call(ch, request(id, "prompts/get", json!({ "name": name })))
        .await;
    Ok(if reply.error().is_some() {
        Observed::Holds(Some(format!("prompt {name:?}: {}", reply.describe())))
    } else {
        Observed::Broken(format!(
            "prompts/get {name:?} without its required argument got {}",
            reply.describe()
        ))
    })
}

pub(crate) async fn tool_input_error_is_tool_result(
    p: &mut Probe,
    facts: &ClassicFacts,
) -> Checked {
    tools_declared(facts)?;
    let (ch, _) = p.classic_session().await?;
    let (tools, _) = list_all(p, ch, "tools/list", "tools", None, false).await?;
    let with_required = tools.iter().find_map(|tool| {
        let required = tool.get("inputSchema")?.get("required")?.as_array()?;
        (!required.is_empty()).then(|| tool.get("name")?.as_str().map(str::to_owned))?
    });
    let Some(name) = with_required else {
        return Ok(Observed::NotApplicable(
            "no tool has a required argument".into(),
        ));
    };
    let id = p.id();
    let reply = p
        .call(
            ch,
            request(id, "tools/call", json!({ "name": name, "arguments": {} })),
        )
        .await;
    Ok(match reply.result() {
        Some(result) if result.get("isError") == Some(&Value::Bool(true)) => Observed::holds(),
        Some(_) => Observed::Broken(format!(
            "tool {name:?} succeeded without its required arguments"
        )),
        None => Observed::Broken(format!(
            "tool {name:?} called without its required arguments got {}, \
             not a result with isError: true",
            reply.describe()
        )),
    })
}

pub(crate) async fn error_id(p: &mut Probe) -> Checked {
    let (ch, _) = p.classic_session().await?;
    let requests = [
        request(9001, "mcptest/no-such-method", Value::Null),
        request("mcptest-error-id", "mcptest/no-such-method", Value::Null),
        request("mcptest-bad-params", "resources/read", json!({})),
    ];
    let mut problems = Problems::default();
    for message in requests {
        let id = message["id"].clone();
        let method = message["method"].as_str().unwrap_or_default().to_owned();
        let reply = p.call(ch, message).await;
        match reply.id() {
            None => problems.push(format!("{method} (id {id}) got {}", reply.describe())),
            Some(got) if *got != id => {
                problems.push(format!("{method} (id {id}) was answered with id {got}"))
            }
            Some(_) => {}
        }
    }
    Ok(problems.into_finding())
}

/// Checks a reply to a malformed message: error `code` with a null id (or
/// `id` when the server could read it); over HTTP a 400 status.
fn malformed_answer(reply: &Received, what: &str, code: i64, id: Option<&Value>) -> Observed {
    let mut problems = Problems::default();
    match reply.status {
        Some(status) => {
            if status != 400 {
                problems.push(format!("{what} got HTTP status {status}, not 400"));
            }
            if reply.response.is_some() && reply.code() != Some(code) {
                problems.push(format!("{what} got {}, not error {code}", reply.describe()));
            }
        }
        None => {
            if reply.code() != Some(code) {
                problems.push(format!("{what} got {}, not error {code}", reply.describe()));
            }
        }
    }
    if let Some(got) = reply.id()
        && reply.code() == Some(code)
        && !got.is_null()
        && Some(got) != id
    {
        problems.push(format!("the error carries id {got}, not null"));
    }
    problems.into_finding()
}

pub(crate) async fn invalid_json(p: &mut Probe) -> Checked {
    let (ch, _) = p.classic_session().await?;
    let sentinel_id = p.id();
    let sentinel = request(sentinel_id, "ping", Value::Null);
    let reply = p
        .send_raw(ch, r#"{"jsonrpc": "2.0", "id": 1, "method": "#, sentinel)
        .await;
    Ok(malformed_answer(
        &reply,
        "a truncated JSON message",
        -32700,
        None,
    ))
}

pub(crate) async fn invalid_request(p: &mut Probe) -> Checked {
    let (ch, _) = p.classic_session().await?;
    let sentinel_id = p.id();
    let sentinel = request(sentinel_id, "ping", Value::Null);
    let id = json!("mcptest-invalid");
    let reply = p
        .send_raw(
            ch,
            r#"{"jsonrpc": "2.0", "id": "mcptest-invalid", "method": 42}"#,
            sentinel,
        )
        .await;
    Ok(malformed_answer(
        &reply,
        "a request whose method is a number",
        -32600,
        Some(&id),
    ))
}

pub(crate) async fn pagination(p: &mut Probe, facts: &ClassicFacts) -> Checked {
    let lists: Vec<_> = LISTS
        .iter()
        .filter(|(capability, _, _)| declares(&facts.capabilities, capability))
        .collect();
    if lists.is_empty() {
        return Ok(Observed::NotApplicable(
            "the server declares no capability with a list".into(),
        ));
    }
    let (ch, _) = p.classic_session().await?;
    let mut paged = Vec::new();
    for (_, method, key) in lists {
        let (items, pages) = list_all(p, ch, method, key, None, true).await?;
        if pages > 1 {
            paged.push(format!("{method}: {} items in {pages} pages", items.len()));
        }
    }
    Ok(if paged.is_empty() {
        Observed::NotApplicable("no list returned a nextCursor".into())
    } else {
        Observed::Holds(Some(paged.join(", ")))
    })
}

pub(crate) async fn invalid_cursor(p: &mut Probe, facts: &ClassicFacts) -> Checked {
    let Some((_, method, _)) = LISTS
        .iter()
        .find(|(capability, _, _)| declares(&facts.capabilities, capability))
    else {
        return Ok(Observed::NotApplicable(
            "the server declares no capability with a list".into(),
        ));
    };
    let (ch, _) = p.classic_session().await?;
    let id = p.id();
    let reply = p
        .call(
            ch,
            request(id, method, json!({ "cursor": "mcptest-invalid-cursor" })),
        )
        .await;
    Ok(match reply.code() {
        Some(-32602) => Observed::holds(),
        _ if reply.result().is_some() => Observed::Broken(format!(
            "{method} accepted a cursor the server never issued"
        )),
        _ => Observed::Broken(format!(
            "{method} with a cursor the server never issued got {}, not error -32602",
            reply.describe()
        )),
    })
}
