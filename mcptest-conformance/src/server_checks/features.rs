//! Server checks of the 2026-07-28 features beyond SEP-2575: input-required
//! results (SEP-2322, in [`mrtr`](super::mrtr)), caching hints (SEP-2549),
//! unknown resources (SEP-2164), `subscriptions/listen` (in
//! [`listen`](super::listen)) and completions.

use serde_json::{Value, json};

use super::facts::{StatelessFacts, declares};
use super::listing::list_items;
use crate::model::{Checked, Observed, Problems};
use crate::support::input_answers::is_input_required;
use crate::support::message::meta;
use crate::support::probe::{Ch, Probe};
use crate::support::received::Received;
use crate::support::revision::STATELESS;

/// The cacheable results of the server's declared features, as
/// `(method, result)`; results that did not come are problems.
async fn cacheable_results(
    p: &mut Probe,
    facts: &StatelessFacts,
    problems: &mut Problems,
) -> Result<Vec<(&'static str, Value)>, Observed> {
    let capabilities = facts.capabilities();
    let mut methods = Vec::new();
    if declares(&capabilities, "tools") {
        methods.push("tools/list");
    }
    if declares(&capabilities, "prompts") {
        methods.push("prompts/list");
    }
    if declares(&capabilities, "resources") {
        methods.extend(["resources/list", "resources/templates/list"]);
    }
    if methods.is_empty() {
        return Err(Observed::NotApplicable(
            "server/discover declares none of tools, prompts and resources".into(),
        ));
    }
    let ch = p.open().await?;
    let mut results = Vec::new();
    for method in methods {
        let reply = p
            .call_stateless(ch, method, Value::Null, meta(STATELESS))
            .await;
        match reply.result() {
            Some(result) => results.push((method, result.clone())),
            None => problems.push(format!("{method} got {}", reply.describe())),
        }
    }
    let first_uri = results
        .iter()
        .find(|(m, _)| *m == "resources/list")
        .and_then(|(_, r)| r.get("resources"))
        .and_then(Value::as_array)
        .and_then(|r| r.first())
        .and_then(|r| r.get("uri"))
        .cloned();
    if let Some(uri) = first_uri {
        let reply = p
            .call_stateless(ch, "resources/read", json!({ "uri": uri }), meta(STATELESS))
            .await;
        match reply.result() {
            // An input-required result is not the resource's content.
            Some(result) if !is_input_required(result) => {
                results.push(("resources/read", result.clone()));
            }
            Some(_) => {}
            None => problems.push(format!("resources/read of {uri} got {}", reply.describe())),
        }
    }
    Ok(results)
}

pub(crate) async fn caching_hints(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let mut problems = Problems::default();
    let results = cacheable_results(p, facts, &mut problems).await?;
    for (method, result) in &results {
        let missing: Vec<&str> = ["ttlMs", "cacheScope"]
            .into_iter()
            .filter(|field| result.get(*field).is_none())
            .collect();
        if !missing.is_empty() {
            problems.push(format!(
                "the {method} result has no {}",
                missing.join(" and ")
            ));
        }
    }
    Ok(problems.into_finding())
}

pub(crate) async fn caching_types(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let mut problems = Problems::default();
    let results = cacheable_results(p, facts, &mut problems).await?;
    let mut seen = 0;
    for (method, result) in &results {
        if let Some(ttl) = result.get("ttlMs") {
            seen += 1;
            if ttl.as_u64().is_none() {
                problems.push(format!(
                    "{method} has ttlMs {ttl}, not a non-negative integer"
                ));
            }
        }
        if let Some(scope) = result.get("cacheScope") {
            seen += 1;
            if scope != "public" && scope != "private" {
                problems.push(format!(
                    "{method} has cacheScope {scope}, not \"public\" or \"private\""
                ));
            }
        }
    }
    if seen == 0 && problems.is_empty() {
        return Ok(Observed::Broken(format!(
            "no result carried ttlMs or cacheScope to check (asked: {})",
            results
                .iter()
                .map(|(m, _)| *m)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(problems.into_finding())
}

/// A URI no server has.
const UNKNOWN_URI: &str = "mcptest://no-such-resource/conformance";

/// Reads [`UNKNOWN_URI`] (recorded).
async fn read_unknown(p: &mut Probe) -> Result<Received, Observed> {
    let ch = p.open().await?;
    Ok(p.call_stateless(
        ch,
        "resources/read",
        json!({ "uri": UNKNOWN_URI }),
        meta(STATELESS),
    )
    .await)
}

pub(crate) async fn not_found_no_empty_contents(p: &mut Probe) -> Checked {
    let reply = read_unknown(p).await?;
    if let Some(result) = reply.result() {
        let empty = result
            .get("contents")
            .and_then(Value::as_array)
            .is_none_or(Vec::is_empty);
        if empty && !is_input_required(result) {
            return Ok(Observed::Broken(format!(
                "reading {UNKNOWN_URI} got a result with {}",
                match result.get("contents") {
                    Some(_) => "an empty contents array",
                    None => "no contents",
                }
            )));
        }
    } else if reply.error().is_none() {
        return Ok(Observed::Broken(format!(
            "reading {UNKNOWN_URI} got {}",
            reply.describe()
        )));
    }
    Ok(Observed::holds())
}

pub(crate) async fn not_found_error_code(p: &mut Probe) -> Checked {
    let reply = read_unknown(p).await?;
    Ok(match reply.code() {
        Some(-32602) => Observed::holds(),
        Some(-32002) => Observed::Broken(format!(
            "reading {UNKNOWN_URI} got {}: -32002 is the code of earlier revisions, \
             2026-07-28 uses -32602",
            reply.describe()
        )),
        _ => Observed::Broken(format!(
            "reading {UNKNOWN_URI} got {}, not error -32602",
            reply.describe()
        )),
    })
}

pub(crate) async fn not_found_data_uri(p: &mut Probe) -> Checked {
    let reply = read_unknown(p).await?;
    let Some(error) = reply.error() else {
        return Ok(Observed::Broken(format!(
            "reading {UNKNOWN_URI} got {}, not a JSON-RPC error whose data could name the URI",
            reply.describe()
        )));
    };
    let uri = error.get("data").and_then(|d| d.get("uri"));
    Ok(if uri == Some(&json!(UNKNOWN_URI)) {
        Observed::holds()
    } else {
        Observed::Broken(format!(
            "the error for {UNKNOWN_URI} has data.uri {}, not the requested URI",
            uri.cloned().unwrap_or(Value::Null)
        ))
    })
}

/// The most values a completion may list.
const MAX_COMPLETION_VALUES: usize = 100;

/// The first variable of a URI template (`{id}`, `{+path}`, `{?q,r}` → `id`,
/// `path`, `q`).
fn template_variable(template: &str) -> Option<String> {
    let start = template.find('{')?;
    let rest = &template[start + 1..];
    let inner = &rest[..rest.find('}')?];
    let inner = inner.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
    let name = inner.split([',', ':', '*']).next()?.trim();
    (!name.is_empty()).then(|| name.to_owned())
}

/// What a completion check can ask about: the first listed prompt with an
/// argument and the first resource template with a variable, as
/// `(label, params)`.
async fn completion_subjects(p: &mut Probe, ch: Ch, capabilities: &Value) -> Vec<(String, Value)> {
    let mut subjects = Vec::new();
    if declares(capabilities, "prompts") {
        let prompts = list_items(p, ch, "prompts/list", "prompts").await;
        let found = prompts.iter().find_map(|prompt| {
            let name = prompt.get("name")?.as_str()?;
            let argument = prompt
                .get("arguments")?
                .as_array()?
                .iter()
                .find_map(|a| a.get("name")?.as_str())?;
            Some((name.to_owned(), argument.to_owned()))
        });
        if let Some((name, argument)) = found {
            subjects.push((
                format!("argument {argument:?} of prompt {name:?}"),
                json!({
                    "ref": { "type": "ref/prompt", "name": name },
                    "argument": { "name": argument, "value": "" },
                }),
            ));
        }
    }
    if declares(capabilities, "resources") {
        let templates = list_items(p, ch, "resources/templates/list", "resourceTemplates").await;
        let found = templates.iter().find_map(|template| {
            let uri = template.get("uriTemplate")?.as_str()?;
            Some((uri.to_owned(), template_variable(uri)?))
        });
        if let Some((uri, variable)) = found {
            subjects.push((
                format!("variable {variable:?} of resource template {uri:?}"),
                json!({
                    "ref": { "type": "ref/resource", "uri": uri },
                    "argument": { "name": variable, "value": "" },
                }),
            ));
        }
    }
    subjects
}

/// Problems with the `completion` of one `completion/complete` result.
fn completion_problems(problems: &mut Problems, label: &str, result: &Value) {
    let Some(completion) = result.get("completion").filter(|c| c.is_object()) else {
        problems.push(format!(
            "completing the {label} got a result without a completion object"
        ));
        return;
    };
    match completion.get("values") {
        Some(Value::Array(values)) => {
            if values.len() > MAX_COMPLETION_VALUES {
                problems.push(format!(
                    "completing the {label} listed {} values, more than {MAX_COMPLETION_VALUES}",
                    values.len()
                ));
            }
            if let Some((index, value)) = values.iter().enumerate().find(|(_, v)| !v.is_string()) {
                problems.push(format!(
                    "completing the {label}: values[{index}] is {value}, not a string"
                ));
            }
            if let Some(total) = completion.get("total") {
                match total.as_u64() {
                    Some(total) if (total as usize) < values.len() => problems.push(format!(
                        "completing the {label}: total {total} is less than the {} values listed",
                        values.len()
                    )),
                    Some(_) => {}
                    None => problems.push(format!(
                        "completing the {label}: total is {total}, not a non-negative integer"
                    )),
                }
            }
        }
        Some(other) => problems.push(format!(
            "completing the {label}: completion.values is {other}, not an array"
        )),
        None => problems.push(format!(
            "completing the {label} got a completion without values"
        )),
    }
    if let Some(more) = completion.get("hasMore")
        && !more.is_boolean()
    {
        problems.push(format!(
            "completing the {label}: hasMore is {more}, not a boolean"
        ));
    }
}

pub(crate) async fn completion(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let capabilities = facts.capabilities();
    if !declares(&capabilities, "completions") {
        return Ok(Observed::NotApplicable(
            "server/discover does not declare completions".into(),
        ));
    }
    let ch = p.open().await?;
    let subjects = completion_subjects(p, ch, &capabilities).await;
    if subjects.is_empty() {
        return Ok(Observed::NotApplicable(
            "completions are declared, but no listed prompt has an argument and no listed \
             resource template has a variable to complete"
                .into(),
        ));
    }
    let mut problems = Problems::default();
    for (label, params) in &subjects {
        let reply = p
            .call_stateless(ch, "completion/complete", params.clone(), meta(STATELESS))
            .await;
        match reply.result() {
            Some(result) => completion_problems(&mut problems, label, result),
            None => problems.push(format!("completing the {label} got {}", reply.describe())),
        }
    }
    Ok(match problems.into_finding() {
        Observed::Holds(_) => Observed::Holds(Some(format!(
            "completed the {}",
            subjects
                .iter()
                .map(|(label, _)| label.as_str())
                .collect::<Vec<_>>()
                .join(" and the ")
        ))),
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_variables_are_found_whatever_the_operator() {
        assert_eq!(template_variable("a://items/{id}").as_deref(), Some("id"));
        assert_eq!(template_variable("a://{+path}/x").as_deref(), Some("path"));
        assert_eq!(template_variable("a://s{?q,r}").as_deref(), Some("q"));
        assert_eq!(template_variable("a://plain"), None);
    }

    #[test]
    fn completions_are_judged_by_shape() {
        let mut problems = Problems::default();
        let good = json!({ "completion": { "values": ["a", "b"], "total": 2, "hasMore": false } });
        completion_problems(&mut problems, "x", &good);
        assert!(problems.is_empty());
        let bad = json!({ "completion": { "values": [1, "b"], "total": "2", "hasMore": "no" } });
        completion_problems(&mut problems, "x", &bad);
        assert!(matches!(problems.into_finding(), Observed::Broken(_)));
    }
}
