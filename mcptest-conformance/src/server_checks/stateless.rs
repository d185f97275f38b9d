//! Server checks of the stateless revision (2026-07-28, SEP-2575): no
//! handshake; every request carries its protocol version, client identity
//! and capabilities in `_meta`; `server/discover` describes the server.
//!
//! Over stdio each check talks to fresh server processes: servers that speak
//! both revisions decide per connection, from its first request, which one
//! it uses.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::facts::{StatelessFacts, declares, supported_in};
use crate::model::{Checked, Observed, Problems};
use crate::support::message::{
    META_CAPABILITIES, META_CLIENT_INFO, META_SERVER_INFO, META_VERSION, client_info, meta,
    stateless,
};
use crate::support::probe::{Ch, Headers, Probe};
use crate::support::received::Received;
use crate::support::revision::{INITIALIZE_VERSIONS, STATELESS, UNSUPPORTED_VERSION};

/// `meta` without `key`.
fn meta_without(key: &str) -> Value {
    let mut meta = meta(STATELESS);
    if let Some(map) = meta.as_object_mut() {
        map.remove(key);
    }
    meta
}

/// Problems with a reply that should be error `code` (and HTTP `status`).
fn expect_error(problems: &mut Problems, what: &str, reply: &Received, code: i64, status: u16) {
    if reply.code() != Some(code) {
        problems.push(format!("{what} got {}, not error {code}", reply.describe()));
    } else if let Some(got) = reply.status
        && got != status
    {
        problems.push(format!("{what} got HTTP {got}, not {status}"));
    }
}

/// Problems with the `data` of -32022: `supported` a non-empty array of
/// strings, `requested` the version asked for.
fn check_version_error(problems: &mut Problems, what: &str, reply: &Received, requested: &str) {
    if reply.code() != Some(-32022) {
        return;
    }
    let data = reply.error().and_then(|e| e.get("data"));
    match supported_in(reply) {
        Some(supported) if !supported.is_empty() => {}
        _ => problems.push(format!(
            "the -32022 for {what} has no non-empty data.supported array of strings (data: {})",
            data.cloned().unwrap_or(Value::Null)
        )),
    }
    if data.and_then(|d| d.get("requested")) != Some(&json!(requested)) {
        problems.push(format!(
            "the -32022 for {what} does not give data.requested {requested:?} (data: {})",
            data.cloned().unwrap_or(Value::Null)
        ));
    }
}

/// A fresh channel and a stateless request on it that fixes its revision
/// (a server that speaks both decides from the first request).
async fn pinned_channel(p: &mut Probe, facts: &StatelessFacts) -> Result<Ch, Observed> {
    let (ch, reply) = p
        .open_call(
            |id| stateless(id, facts.list_method(), Value::Null, meta(STATELESS)),
            Headers::Quietly,
        )
        .await?;
    if reply.response.is_none() {
        return Err(Observed::Broken(format!(
            "a valid {} got {}",
            facts.list_method(),
            reply.describe()
        )));
    }
    Ok(ch)
}

pub(crate) async fn discover(p: &mut Probe) -> Checked {
    let (_, reply) = p
        .open_call(
            |id| stateless(id, "server/discover", Value::Null, meta(STATELESS)),
            Headers::Derived,
        )
        .await?;
    let Some(result) = reply.result() else {
        return Ok(Observed::Broken(format!(
            "server/discover got {}",
            reply.describe()
        )));
    };
    let mut problems = Problems::default();
    if let Some(status) = reply.status
        && status != 200
    {
        problems.push(format!("server/discover got HTTP {status}, not 200"));
    }
    match result.get("supportedVersions").and_then(Value::as_array) {
        Some(versions) if !versions.is_empty() && versions.iter().all(Value::is_string) => {}
        Some(versions) if versions.is_empty() => problems.push("supportedVersions is empty"),
        _ => problems.push("supportedVersions is missing or not an array of strings"),
    }
    if !result.get("capabilities").is_some_and(Value::is_object) {
        problems.push("capabilities is missing or not an object");
    }
    match result.get("_meta").and_then(|m| m.get(META_SERVER_INFO)) {
        Some(info) if info.is_object() => {
            for field in ["name", "version"] {
                if !info.get(field).is_some_and(Value::is_string) {
                    problems.push(format!(
                        "_meta[\"{META_SERVER_INFO}\"].{field} is missing or not a string"
                    ));
                }
            }
        }
        _ => problems.push(format!(
            "the server's identity is missing: no _meta[\"{META_SERVER_INFO}\"] object"
        )),
    }
    Ok(problems.into_finding())
}

/// A list request with `meta` (HTTP: `MCP-Protocol-Version: 2026-07-28`)
/// that must be rejected with -32602 and HTTP 400.
async fn rejected_meta(p: &mut Probe, facts: &StatelessFacts, meta: Value, what: &str) -> Checked {
    let build = |id| stateless(id, facts.list_method(), Value::Null, meta);
    let (_, reply) = p
        .open_call(build, Headers::Version(Some(STATELESS)))
        .await?;
    let mut problems = Problems::default();
    expect_error(&mut problems, what, &reply, -32602, 400);
    Ok(problems.into_finding())
}

pub(crate) async fn meta_required(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    rejected_meta(p, facts, Value::Null, "a request without _meta").await
}

pub(crate) async fn meta_protocol_version_required(
    p: &mut Probe,
    facts: &StatelessFacts,
) -> Checked {
    rejected_meta(
        p,
        facts,
        meta_without(META_VERSION),
        "a request whose _meta lacks the protocol version",
    )
    .await
}

pub(crate) async fn meta_client_capabilities_required(
    p: &mut Probe,
    facts: &StatelessFacts,
) -> Checked {
    rejected_meta(
        p,
        facts,
        meta_without(META_CAPABILITIES),
        "a request whose _meta lacks the client capabilities",
    )
    .await
}

pub(crate) async fn meta_client_info_optional(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let method = facts.list_method();
    let build = |id| stateless(id, method, Value::Null, meta_without(META_CLIENT_INFO));
    let (_, reply) = p.open_call(build, Headers::Derived).await?;
    Ok(match (reply.result(), reply.status) {
        (Some(_), None | Some(200)) => Observed::holds(),
        (Some(_), Some(status)) => Observed::Broken(format!(
            "{method} without clientInfo got HTTP {status}, not 200"
        )),
        (None, _) => Observed::Broken(format!(
            "{method} without clientInfo got {}",
            reply.describe()
        )),
    })
}

/// Sends `method` with an unsupported version in `_meta` and in the header.
async fn unsupported_call(p: &mut Probe, method: &str) -> Result<Received, Observed> {
    let build = |id| stateless(id, method, Value::Null, meta_version(UNSUPPORTED_VERSION));
    Ok(p.open_call(build, Headers::Derived).await?.1)
}

fn meta_version(version: &str) -> Value {
    let mut meta = meta(STATELESS);
    meta[META_VERSION] = json!(version);
    meta
}

pub(crate) async fn unsupported_version(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let method = facts.list_method();
    let reply = unsupported_call(p, method).await?;
    let what = format!("{method} with version {UNSUPPORTED_VERSION:?}");
    let mut problems = Problems::default();
    expect_error(&mut problems, &what, &reply, -32022, 400);
    check_version_error(&mut problems, &what, &reply, UNSUPPORTED_VERSION);
    Ok(problems.into_finding())
}

/// `supportedVersions` of a fresh `server/discover` (recorded).
async fn discovered_versions(p: &mut Probe) -> Result<Vec<String>, Observed> {
    let (_, reply) = p
        .open_call(
            |id| stateless(id, "server/discover", Value::Null, meta(STATELESS)),
            Headers::Derived,
        )
        .await?;
    reply
        .result()
        .and_then(|r| r.get("supportedVersions"))
        .and_then(Value::as_array)
        .map(|versions| {
            versions
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .ok_or_else(|| {
            Observed::Broken(format!(
                "server/discover gave no supportedVersions: it got {}",
                reply.describe()
            ))
        })
}

pub(crate) async fn unsupported_version_no_drift(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let advertised = discovered_versions(p).await?;
    let method = facts.list_method();
    let reply = unsupported_call(p, method).await?;
    let Some(supported) = supported_in(&reply) else {
        return Ok(Observed::Broken(format!(
            "{method} with an unsupported version got {}, which lists no data.supported",
            reply.describe()
        )));
    };
    let advertised_set: BTreeSet<&String> = advertised.iter().collect();
    let supported_set: BTreeSet<&String> = supported.iter().collect();
    Ok(if advertised_set == supported_set {
        Observed::holds()
    } else {
        Observed::Broken(format!(
            "server/discover advertises {advertised:?} but -32022 lists data.supported {supported:?}"
        ))
    })
}

pub(crate) async fn supported_versions_accepted(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let advertised = discovered_versions(p).await?;
    let stateless_era: Vec<&String> = advertised
        .iter()
        .filter(|v| v.as_str() >= STATELESS)
        .collect();
    if stateless_era.is_empty() {
        return Ok(Observed::NotApplicable(format!(
            "server/discover advertises no 2026-07-28-era version ({advertised:?})"
        )));
    }
    let method = facts.list_method();
    let mut problems = Problems::default();
    for version in stateless_era {
        let (_, reply) = p
            .open_call(
                |id| stateless(id, method, Value::Null, meta_version(version)),
                Headers::Derived,
            )
            .await?;
        if reply.result().is_none() {
            problems.push(format!(
                "{method} with advertised version {version:?} got {}",
                reply.describe()
            ));
        }
    }
    Ok(problems.into_finding())
}

pub(crate) async fn discover_unsupported_version(p: &mut Probe) -> Checked {
    let reply = unsupported_call(p, "server/discover").await?;
    let what = format!("server/discover with version {UNSUPPORTED_VERSION:?}");
    let mut problems = Problems::default();
    expect_error(&mut problems, &what, &reply, -32022, 400);
    check_version_error(&mut problems, &what, &reply, UNSUPPORTED_VERSION);
    Ok(problems.into_finding())
}

pub(crate) async fn http_header_mismatch(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let method = facts.list_method();
    let mut problems = Problems::default();
    for (header, what) in [
        (None, "a request without the MCP-Protocol-Version header"),
        (
            Some("2025-11-25"),
            "a request with MCP-Protocol-Version 2025-11-25 and _meta 2026-07-28",
        ),
    ] {
        let build = |id| stateless(id, method, Value::Null, meta(STATELESS));
        let (_, reply) = p.open_call(build, Headers::Version(header)).await?;
        expect_error(&mut problems, what, &reply, -32020, 400);
    }
    Ok(problems.into_finding())
}

pub(crate) async fn missing_client_capability(p: &mut Probe) -> Checked {
    let Some((tool, arguments)) = p.settings.capability_tool.clone() else {
        return Ok(Observed::NotApplicable(
            "no tool that needs a client capability was named (Conformance::capability_tool)"
                .into(),
        ));
    };
    let call = |id| {
        stateless(
            id,
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
            meta(STATELESS),
        )
    };
    let (_, reply) = p.open_call(call, Headers::Derived).await?;
    let what = format!("tool {tool:?} called without client capabilities");
    let mut problems = Problems::default();
    expect_error(&mut problems, &what, &reply, -32021, 400);
    if reply.code() == Some(-32021) {
        let required = reply
            .error()
            .and_then(|e| e.get("data"))
            .and_then(|d| d.get("requiredCapabilities"));
        match required {
            Some(Value::Object(map)) if !map.is_empty() => {}
            other => problems.push(format!(
                "the -32021 has no data.requiredCapabilities object naming a capability (got {})",
                other.cloned().unwrap_or(Value::Null)
            )),
        }
    }
    Ok(problems.into_finding())
}

/// `sep-2575-removed-methods`: 2026-07-28 removed `initialize`, `ping`,
/// `logging/setLevel`, `resources/subscribe` and `resources/unsubscribe`
/// (changelog), and "if the server does not implement the requested RPC
/// method, it MUST respond with 404 Not Found and a JSON-RPC error with code
/// -32601" (Streamable HTTP). Each is sent with 2026-07-28 `_meta` (and,
/// over HTTP, `MCP-Protocol-Version: 2026-07-28`).
///
/// A server that also speaks the older revisions is a dual-era server
/// (basic/versioning): "A server that wishes to support both legacy
/// clients (which expect an `initialize` handshake) and modern clients
/// (which use per-request metadata) MAY implement both behaviors", and it
/// "selects its behavior from how the client opens: A request carrying
/// modern per-request `_meta` is served statelessly according to this
/// revision. An `initialize` request selects legacy semantics". So for it
/// `ping`, `logging/setLevel` and `resources/(un)subscribe` carrying
/// modern `_meta` are still -32601 (served statelessly, where they do not
/// exist), but `initialize` selects legacy semantics whatever else it
/// carries: answering it with an `InitializeResult` that names a revision
/// with the handshake (a version counter-offer) is what the compatibility
/// matrix asks of it ("The server answers `initialize` and serves the
/// client according to the negotiated legacy revision"). `dual_era` says
/// whether the server answered the classic gate's `initialize`; a server
/// that speaks only 2026-07-28 must refuse it. An `initialize` result
/// naming 2026-07-28 itself is wrong either way: that revision has no
/// handshake.
pub(crate) async fn removed_methods(
    p: &mut Probe,
    facts: &StatelessFacts,
    dual_era: bool,
) -> Checked {
    let ch = pinned_channel(p, facts).await?;
    let removed = [
        (
            "initialize",
            // Well-formed for the revision its _meta names: only the method
            // is wrong.
            json!({
                "protocolVersion": STATELESS,
                "capabilities": {},
                "clientInfo": client_info(),
            }),
        ),
        ("ping", Value::Null),
        ("logging/setLevel", json!({ "level": "info" })),
        ("resources/subscribe", json!({ "uri": "mcptest://probe" })),
        ("resources/unsubscribe", json!({ "uri": "mcptest://probe" })),
    ];
    let mut problems = Problems::default();
    let mut notes = Vec::new();
    for (method, params) in removed {
        let id = p.id();
        let reply = p
            .call(ch, stateless(id, method, params, meta(STATELESS)))
            .await;
        if method == "initialize"
            && let Some(result) = reply.result()
        {
            let version = result.get("protocolVersion").and_then(Value::as_str);
            match version {
                Some(v) if dual_era && INITIALIZE_VERSIONS.contains(&v) => notes.push(format!(
                    "initialize was answered with legacy semantics (protocolVersion {v}), \
                     as a dual-era server may"
                )),
                Some(v) if dual_era => problems.push(format!(
                    "initialize got a result naming protocolVersion {v:?}, which is no \
                     revision with an initialize handshake"
                )),
                None if dual_era => problems
                    .push("initialize got a result without a protocolVersion string".to_owned()),
                _ => problems.push(format!(
                    "initialize got {}, not error -32601: the server does not answer the \
                     initialize handshake otherwise, so it speaks only 2026-07-28, which has none",
                    reply.describe()
                )),
            }
            continue;
        }
        expect_error(&mut problems, method, &reply, -32601, 404);
    }
    Ok(match problems.into_finding() {
        Observed::Holds(_) if !notes.is_empty() => Observed::Holds(Some(notes.join("; "))),
        other => other,
    })
}

pub(crate) async fn unknown_method(p: &mut Probe) -> Checked {
    let (_, reply) = p
        .open_call(
            |id| stateless(id, "mcptest/no-such-method", Value::Null, meta(STATELESS)),
            Headers::Derived,
        )
        .await?;
    let mut problems = Problems::default();
    expect_error(&mut problems, "mcptest/no-such-method", &reply, -32601, 404);
    Ok(problems.into_finding())
}

pub(crate) async fn capabilities_honored(p: &mut Probe) -> Checked {
    let (ch, reply) = p
        .open_call(
            |id| stateless(id, "server/discover", Value::Null, meta(STATELESS)),
            Headers::Derived,
        )
        .await?;
    let Some(capabilities) = reply.result().and_then(|r| r.get("capabilities")).cloned() else {
        return Ok(Observed::Broken(format!(
            "server/discover gave no capabilities: it got {}",
            reply.describe()
        )));
    };
    let probes = [
        ("tools", "tools/list", Value::Null),
        ("prompts", "prompts/list", Value::Null),
        ("resources", "resources/list", Value::Null),
        (
            "completions",
            "completion/complete",
            json!({
                "ref": { "type": "ref/prompt", "name": "mcptest-probe" },
                "argument": { "name": "mcptest-probe", "value": "" },
            }),
        ),
    ];
    let mut problems = Problems::default();
    for (capability, method, params) in probes {
        let id = p.id();
        let reply = p
            .call(ch, stateless(id, method, params, meta(STATELESS)))
            .await;
        let not_found = reply.code() == Some(-32601);
        if declares(&capabilities, capability) {
            if not_found || reply.response.is_none() {
                problems.push(format!(
                    "{capability} is declared but {method} got {}",
                    reply.describe()
                ));
            }
        } else if !not_found {
            problems.push(format!(
                "{capability} is not declared but {method} got {}",
                reply.describe()
            ));
        }
    }
    Ok(problems.into_finding())
}

pub(crate) async fn no_log_without_level(p: &mut Probe) -> Checked {
    let Some((tool, arguments)) = p.settings.log_tool.clone() else {
        return Ok(Observed::NotApplicable(
            "no tool that logs was named (Conformance::log_tool)".into(),
        ));
    };
    let call = |id| {
        stateless(
            id,
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
            meta(STATELESS),
        )
    };
    let (ch, reply) = p.open_call(call, Headers::Derived).await?;
    if reply.result().is_none() {
        return Ok(Observed::Broken(format!(
            "the log tool {tool:?} got {}",
            reply.describe()
        )));
    }
    let mut messages = reply.others.clone();
    let late = p.listen(ch).await;
    p.append_to_last(&late);
    messages.extend(late);
    let logs = messages
        .iter()
        .filter(|m| m.get("method") == Some(&json!("notifications/message")))
        .count();
    Ok(if logs == 0 {
        Observed::holds()
    } else {
        Observed::Broken(format!(
            "tool {tool:?} called without a logLevel in _meta sent {logs} notifications/message"
        ))
    })
}

pub(crate) async fn error_id(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let method = facts.list_method();
    let requests = [
        stateless(9101, method, Value::Null, Value::Null),
        stateless(
            "mcptest-error-id",
            "mcptest/no-such-method",
            Value::Null,
            meta(STATELESS),
        ),
        stateless(9103, method, Value::Null, meta_version(UNSUPPORTED_VERSION)),
    ];
    let mut problems = Problems::default();
    for message in requests {
        let id = message["id"].clone();
        let sent_method = message["method"].as_str().unwrap_or_default().to_owned();
        let header = message["params"]["_meta"][META_VERSION]
            .as_str()
            .unwrap_or(STATELESS)
            .to_owned();
        let reply = p.call_with_version_header(ch, message, Some(&header)).await;
        match reply.id() {
            None => problems.push(format!("{sent_method} (id {id}) got {}", reply.describe())),
            Some(got) if *got != id => problems.push(format!(
                "{sent_method} (id {id}) was answered with id {got}"
            )),
            Some(_) => {}
        }
    }
    Ok(problems.into_finding())
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;

    #[test]
    fn metas_can_lack_one_key_or_name_another_version() {
        let without = meta_without(META_VERSION);
        assert!(without.get(META_VERSION).is_none());
        assert!(without.get(META_CAPABILITIES).is_some());
        assert_eq!(meta_version("2099-12-31")[META_VERSION], "2099-12-31");
        let _: &Map<String, Value> = without.as_object().unwrap();
    }

    #[test]
    fn the_list_method_follows_declared_capabilities() {
        let facts = StatelessFacts {
            discover: Some(json!({"capabilities": {"prompts": {}}})),
        };
        assert_eq!(facts.list_method(), "prompts/list");
        assert_eq!(
            StatelessFacts { discover: None }.list_method(),
            "tools/list"
        );
    }
}
