//! Feature checks that adapt to the server: content types, progress and
//! logging are judged on the tools that offer them — one named by the user,
//! or one whose description says it does — and skipped with the reason
//! when the server has none.

use base64::Engine as _;
use serde_json::{Value, json};

use super::facts::StatelessFacts;
use super::listing::tools_mentioning;
use crate::model::{Checked, Observed, Problems};
use crate::support::message::{META_LOG_LEVEL, meta};
use crate::support::probe::Probe;
use crate::support::revision::STATELESS;
use mcptest_core::LogLevel;

/// Whether `level` names a log level (RFC 5424, as the core's
/// [`LogLevel`] reads them).
fn is_log_level(level: &str) -> bool {
    serde_json::from_value::<LogLevel>(Value::from(level)).is_ok()
}

fn call(name: &str, arguments: &Value) -> Value {
    json!({ "name": name, "arguments": arguments })
}

fn is_base64(data: &str) -> bool {
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .is_ok()
}

/// Problems with one content block of a tool result.
fn content_problems(problems: &mut Problems, tool: &str, index: usize, block: &Value) {
    let kind = block
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let at = format!("tool {tool:?} content[{index}] ({kind})");
    match kind {
        "image" | "audio" => {
            match block.get("data").and_then(Value::as_str) {
                Some(data) if is_base64(data) => {}
                Some(_) => problems.push(format!("{at}: data is not base64")),
                None => problems.push(format!("{at}: no data string")),
            }
            match block.get("mimeType").and_then(Value::as_str) {
                Some(mime) if mime.starts_with(&format!("{kind}/")) => {}
                Some(mime) => problems.push(format!("{at}: mimeType {mime:?} is not {kind}/*")),
                None => problems.push(format!("{at}: no mimeType")),
            }
        }
        "resource" => {
            let resource = block.get("resource");
            if !resource
                .and_then(|r| r.get("uri"))
                .is_some_and(Value::is_string)
            {
                problems.push(format!("{at}: resource has no uri"));
            }
            let text = resource
                .and_then(|r| r.get("text"))
                .is_some_and(Value::is_string);
            let blob = resource.and_then(|r| r.get("blob")).and_then(Value::as_str);
            match (text, blob) {
                (true, None) => {}
                (false, Some(blob)) if is_base64(blob) => {}
                (false, Some(_)) => problems.push(format!("{at}: resource blob is not base64")),
                _ => problems.push(format!("{at}: resource needs exactly one of text and blob")),
            }
        }
        "resource_link" => {
            for field in ["uri", "name"] {
                if !block.get(field).is_some_and(Value::is_string) {
                    problems.push(format!("{at}: no {field} string"));
                }
            }
        }
        _ => {}
    }
}

pub(crate) async fn content_types(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let words = [
        "image",
        "audio",
        "picture",
        "screenshot",
        "embedded resource",
    ];
    let candidates = tools_mentioning(p, ch, facts, &words).await;
    if candidates.is_empty() {
        return Ok(Observed::NotApplicable(
            "no tool without required arguments mentions image, audio or embedded resource \
             content in its description"
                .into(),
        ));
    }
    let mut problems = Problems::default();
    let mut judged = 0;
    let mut tried = Vec::new();
    for (name, arguments) in &candidates {
        let reply = p
            .call_stateless(ch, "tools/call", call(name, arguments), meta(STATELESS))
            .await;
        let blocks = reply
            .result()
            .and_then(|r| r.get("content"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let media = blocks
            .iter()
            .filter(|b| {
                matches!(
                    b.get("type").and_then(Value::as_str),
                    Some("image" | "audio" | "resource" | "resource_link")
                )
            })
            .count();
        if media == 0 {
            tried.push(format!("tool {name:?} got {}", reply.describe_with_type()));
            continue;
        }
        judged += media;
        for (index, block) in blocks.iter().enumerate() {
            content_problems(&mut problems, name, index, block);
        }
    }
    if judged == 0 {
        return Ok(Observed::NotApplicable(format!(
            "no tool answered with image, audio or resource content: {}",
            tried.join("; ")
        )));
    }
    Ok(match problems.into_finding() {
        Observed::Holds(_) => Observed::Holds(Some(format!("{judged} content blocks judged"))),
        other => other,
    })
}

pub(crate) async fn progress(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let (named, candidates) = match p.settings.progress_tool.clone() {
        Some(named) => (true, vec![named]),
        None => (false, tools_mentioning(p, ch, facts, &["progress"]).await),
    };
    if candidates.is_empty() {
        return Ok(Observed::NotApplicable(
            "no tool that reports progress was named (Conformance::progress_tool) or found by \
             its description"
                .into(),
        ));
    }
    let token = "mcptest-progress-token";
    let mut tried = Vec::new();
    for (name, arguments) in &candidates {
        let mut request_meta = meta(STATELESS);
        request_meta["progressToken"] = json!(token);
        let reply = p
            .call_stateless(ch, "tools/call", call(name, arguments), request_meta)
            .await;
        let notifications: Vec<&Value> = reply
            .others
            .iter()
            .filter(|m| m.get("method") == Some(&json!("notifications/progress")))
            .collect();
        if notifications.is_empty() {
            tried.push(format!(
                "tool {name:?} got {} and no notifications/progress before it",
                reply.describe_with_type()
            ));
            continue;
        }
        let mut problems = Problems::default();
        let mut last: Option<f64> = None;
        for notification in notifications {
            let params = notification.get("params").cloned().unwrap_or(Value::Null);
            if params.get("progressToken") != Some(&json!(token)) {
                problems.push(format!(
                    "a progress notification of tool {name:?} names token {}, not {token:?}",
                    params.get("progressToken").cloned().unwrap_or(Value::Null)
                ));
            }
            match params.get("progress").and_then(Value::as_f64) {
                Some(progress) => {
                    if last.is_some_and(|l| progress <= l) {
                        problems.push(format!(
                            "tool {name:?}'s progress went from {} to {progress}: it must increase",
                            last.unwrap_or_default()
                        ));
                    }
                    if let Some(total) = params.get("total").and_then(Value::as_f64)
                        && progress > total
                    {
                        problems.push(format!(
                            "tool {name:?}'s progress {progress} is above its total {total}"
                        ));
                    }
                    last = Some(progress);
                }
                None => problems.push(format!(
                    "a progress notification of tool {name:?} has no number progress"
                )),
            }
        }
        return Ok(problems.into_finding());
    }
    Ok(if named {
        Observed::Broken(format!(
            "the progress tool (Conformance::progress_tool) sent no progress: {}",
            tried.join("; ")
        ))
    } else {
        Observed::NotApplicable(format!("no tool reported progress: {}", tried.join("; ")))
    })
}

pub(crate) async fn log_with_level(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let ch = p.open().await?;
    let (named, candidates) = match p.settings.log_tool.clone() {
        Some(named) => (true, vec![named]),
        None => (
            false,
            tools_mentioning(p, ch, facts, &["log message", "logs", "logging"]).await,
        ),
    };
    if candidates.is_empty() {
        return Ok(Observed::NotApplicable(
            "no tool that logs was named (Conformance::log_tool) or found by its description"
                .into(),
        ));
    }
    let mut tried = Vec::new();
    for (name, arguments) in &candidates {
        let mut request_meta = meta(STATELESS);
        request_meta[META_LOG_LEVEL] = json!(LogLevel::Debug);
        let reply = p
            .call_stateless(ch, "tools/call", call(name, arguments), request_meta)
            .await;
        let mut messages = reply.others.clone();
        let late = p.listen(ch).await;
        p.append_to_last(&late);
        messages.extend(late);
        let logs: Vec<&Value> = messages
            .iter()
            .filter(|m| m.get("method") == Some(&json!("notifications/message")))
            .collect();
        if logs.is_empty() {
            tried.push(format!(
                "tool {name:?} called with logLevel \"debug\" got {} and no notifications/message",
                reply.describe_with_type()
            ));
            continue;
        }
        let mut problems = Problems::default();
        for log in logs {
            let params = log.get("params").cloned().unwrap_or(Value::Null);
            match params.get("level").and_then(Value::as_str) {
                Some(level) if is_log_level(level) => {}
                other => problems.push(format!(
                    "a log message of tool {name:?} has level {}, not a syslog level",
                    other
                        .map(|l| format!("{l:?}"))
                        .unwrap_or_else(|| "none".into())
                )),
            }
            if params.get("data").is_none() {
                problems.push(format!("a log message of tool {name:?} has no data"));
            }
        }
        return Ok(problems.into_finding());
    }
    Ok(if named {
        Observed::Broken(tried.join("; "))
    } else {
        Observed::NotApplicable(format!("no tool logged: {}", tried.join("; ")))
    })
}
