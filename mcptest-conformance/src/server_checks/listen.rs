//! Server checks of `subscriptions/listen` (2026-07-28), the stream that
//! replaces the GET stream and `resources/subscribe`: acknowledged first,
//! every notification tagged with the subscription, the filter honoured,
//! list changes and resource updates delivered, no requests of the server's
//! own.
//!
//! A change of the tool list needs a tool that makes one: the one named with
//! [`Conformance::list_change_tool`](super::Conformance::list_change_tool),
//! or one whose description says it changes the list. A change of the prompt
//! list and an update of subscribed resources likewise come from a named tool
//! ([`Conformance::prompt_change_tool`](super::Conformance::prompt_change_tool),
//! [`Conformance::resource_update_tool`](super::Conformance::resource_update_tool))
//! or one whose description says it makes them. Checks that need a change are skipped
//! without one.

use serde_json::{Value, json};

use super::facts::{StatelessFacts, declares};
use super::listing::{callable_unnamed, list_items, mentions};
use crate::model::{Checked, Observed, Problems};
use crate::support::message::{meta, stateless};
use crate::support::probe::{Ch, Probe};
use crate::support::received::Received;
use crate::support::revision::STATELESS;

const METHOD: &str = "subscriptions/listen";
const ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";
const TOOLS_CHANGED: &str = "notifications/tools/list_changed";
const PROMPTS_CHANGED: &str = "notifications/prompts/list_changed";
const RESOURCE_UPDATED: &str = "notifications/resources/updated";
const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// Words in a tool's name or description that say it changes the list.
const CHANGE_WORDS: &[&str] = &["list_changed", "list changed", "tool list", "list of tools"];

/// Whether the server declares anything a listen stream delivers.
fn declares_subscriptions(capabilities: &Value) -> bool {
    ["tools", "prompts", "resources"].iter().any(|c| {
        capabilities
            .get(c)
            .and_then(|c| c.get("listChanged"))
            .is_some_and(|v| v == &json!(true))
    }) || capabilities
        .get("resources")
        .and_then(|r| r.get("subscribe"))
        .is_some_and(|v| v == &json!(true))
}

fn declares_tools_list_changed(capabilities: &Value) -> bool {
    capabilities.get("tools").and_then(|t| t.get("listChanged")) == Some(&json!(true))
}

fn declares_prompts_list_changed(capabilities: &Value) -> bool {
    capabilities
        .get("prompts")
        .and_then(|t| t.get("listChanged"))
        == Some(&json!(true))
}

fn declares_resource_subscriptions(capabilities: &Value) -> bool {
    capabilities
        .get("resources")
        .and_then(|r| r.get("subscribe"))
        == Some(&json!(true))
}

/// What a trigger tool changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    /// The tool list (`notifications/tools/list_changed`).
    Tools,
    /// The prompt list (`notifications/prompts/list_changed`).
    Prompts,
    /// The resources (`notifications/resources/updated`).
    Resources,
}

impl Change {
    /// Words in a tool's name or description that say it makes the change.
    fn words(self) -> &'static [&'static str] {
        match self {
            Change::Tools => CHANGE_WORDS,
            Change::Prompts => PROMPT_CHANGE_WORDS,
            Change::Resources => RESOURCE_UPDATE_WORDS,
        }
    }

    /// What the change is, in reasons.
    fn what(self) -> &'static str {
        match self {
            Change::Tools => "changes the tool list",
            Change::Prompts => "changes the prompt list",
            Change::Resources => "updates resources",
        }
    }
}

/// Words in a tool's name or description that say it changes the prompt list.
const PROMPT_CHANGE_WORDS: &[&str] = &["prompts/list_changed", "prompt list", "list of prompts"];
/// Words in a tool's name or description that say it updates resources.
const RESOURCE_UPDATE_WORDS: &[&str] = &[
    "resources/updated",
    "resource update",
    "updates every resource",
    "updates the resource",
    "updates resources",
];

/// The `tools/call` that makes `change`, if one is named or found.
async fn change_trigger(
    p: &mut Probe,
    ch: Ch,
    facts: &StatelessFacts,
    change: Change,
) -> Option<Value> {
    let named = match change {
        Change::Tools => p.settings.list_change_tool.clone(),
        Change::Prompts => p.settings.prompt_change_tool.clone(),
        Change::Resources => p.settings.resource_update_tool.clone(),
    };
    let (name, arguments) = match named {
        Some(named) => named,
        None => {
            if !declares(&facts.capabilities(), "tools") {
                return None;
            }
            let tools = list_items(p, ch, "tools/list", "tools").await;
            let tool = tools
                .iter()
                .find(|tool| callable_unnamed(tool) && mentions(tool, change.words()))?;
            (tool.get("name")?.as_str()?.to_owned(), json!({}))
        }
    };
    let id = p.id();
    Some(stateless(
        id,
        "tools/call",
        json!({ "name": name, "arguments": arguments }),
        meta(STATELESS),
    ))
}

const NO_TRIGGER: &str = "no tool that changes the tool list was named \
    (Conformance::list_change_tool) or found by its description";

/// Why a check that needs `change` is skipped without a trigger.
fn no_trigger(change: Change) -> String {
    let setting = match change {
        Change::Tools => return NO_TRIGGER.into(),
        Change::Prompts => "Conformance::prompt_change_tool",
        Change::Resources => "Conformance::resource_update_tool",
    };
    format!(
        "no tool that {} was named ({setting}) or found by its description (no required \
         arguments, not destructive, mentioning one of: {})",
        change.what(),
        change.words().join(", ")
    )
}

/// What one listen stream carried.
struct Listened {
    /// The id of the listen request.
    id: Value,
    /// Everything that arrived on it.
    messages: Vec<Value>,
    /// The trigger's answer, when one was sent.
    trigger: Option<Received>,
}

impl Listened {
    /// The answer to the listen request itself, when the stream ended with one.
    fn answer(&self) -> Option<&Value> {
        self.messages
            .iter()
            .find(|m| m.get("id") == Some(&self.id) && m.get("method").is_none())
    }

    /// The notifications that belong to the stream: the acknowledgement,
    /// list changes, resource updates.
    fn notifications(&self) -> impl Iterator<Item = &Value> {
        self.messages.iter().filter(|m| {
            m.get("id").is_none()
                && m.get("method")
                    .and_then(Value::as_str)
                    .is_some_and(|method| {
                        method == ACKNOWLEDGED
                            || method.ends_with("/list_changed")
                            || method == "notifications/resources/updated"
                    })
        })
    }

    fn has(&self, method: &str) -> bool {
        self.messages
            .iter()
            .any(|m| m.get("method").and_then(Value::as_str) == Some(method))
    }
}

/// Opens a listen stream with `filter` on a fresh channel, calling the
/// tool that makes `change` once it is acknowledged.
async fn listen(
    p: &mut Probe,
    facts: &StatelessFacts,
    filter: Value,
    change: Option<Change>,
) -> Result<Listened, Observed> {
    let ch = p.open().await?;
    let id = p.id();
    let trigger = match change {
        Some(change) => Some(
            change_trigger(p, ch, facts, change)
                .await
                .ok_or_else(|| Observed::NotApplicable(no_trigger(change)))?,
        ),
        None => None,
    };
    let message = stateless(
        id.clone(),
        METHOD,
        json!({ "notifications": filter }),
        meta(STATELESS),
    );
    let (messages, trigger) = p.stream(ch, message, trigger).await;
    let listened = Listened {
        id,
        messages,
        trigger,
    };
    if let Some(error) = listened.answer().and_then(|a| a.get("error")) {
        let code = error.get("code").and_then(Value::as_i64);
        let capabilities = facts.capabilities();
        return Err(
            if code == Some(-32601) && !declares_subscriptions(&capabilities) {
                Observed::NotApplicable(
                    "the server declares no listChanged or subscribe capability and answers \
                     subscriptions/listen with -32601"
                        .into(),
                )
            } else {
                Observed::Broken(format!("{METHOD} was answered with error {error}"))
            },
        );
    }
    if let Some(trigger) = &listened.trigger
        && trigger.result().is_none()
    {
        return Err(Observed::Broken(format!(
            "the tool that {} got {}",
            change.map_or("changes the tool list", Change::what),
            trigger.describe()
        )));
    }
    Ok(listened)
}

pub(crate) async fn acknowledged(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let listened = listen(p, facts, json!({ "toolsListChanged": true }), None).await?;
    Ok(match listened.messages.first() {
        None => Observed::Broken(format!(
            "nothing arrived on the {METHOD} stream within {}",
            mcptest_core::__support::fmt_duration(p.settings.timeout)
        )),
        Some(first) if first.get("method").and_then(Value::as_str) == Some(ACKNOWLEDGED) => {
            Observed::holds()
        }
        Some(first) => Observed::Broken(format!(
            "the first message on the stream is {}, not {ACKNOWLEDGED}",
            first
                .get("method")
                .and_then(Value::as_str)
                .map(|m| format!("{m:?}"))
                .unwrap_or_else(|| first.to_string())
        )),
    })
}

pub(crate) async fn subscription_id(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let with_trigger =
        p.settings.list_change_tool.is_some() || declares_tools_list_changed(&facts.capabilities());
    let change = with_trigger.then_some(Change::Tools);
    let listened = match listen(p, facts, json!({ "toolsListChanged": true }), change).await {
        // Without a way to change the list, the acknowledgement alone is judged.
        Err(Observed::NotApplicable(reason)) if reason == NO_TRIGGER => {
            listen(p, facts, json!({ "toolsListChanged": true }), None).await?
        }
        other => other?,
    };
    let notifications: Vec<&Value> = listened.notifications().collect();
    if notifications.is_empty() {
        return Ok(Observed::Broken(format!(
            "no notification arrived on the {METHOD} stream to look at"
        )));
    }
    let mut problems = Problems::default();
    for notification in notifications {
        let method = notification["method"].as_str().unwrap_or_default();
        match notification
            .get("params")
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(SUBSCRIPTION_ID))
        {
            Some(id) if *id == listened.id => {}
            Some(id) => problems.push(format!(
                "{method} carries subscriptionId {id}, not the listen request's id {}",
                listened.id
            )),
            None => problems.push(format!("{method} has no _meta[\"{SUBSCRIPTION_ID}\"]")),
        }
    }
    Ok(problems.into_finding())
}

pub(crate) async fn filter(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let listened = listen(
        p,
        facts,
        json!({ "promptsListChanged": true }),
        Some(Change::Tools),
    )
    .await?;
    Ok(if listened.has(TOOLS_CHANGED) {
        Observed::Broken(format!(
            "{TOOLS_CHANGED} arrived on a stream whose filter asked only for promptsListChanged"
        ))
    } else {
        Observed::holds()
    })
}

pub(crate) async fn list_changed(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    if !declares_tools_list_changed(&facts.capabilities()) {
        return Ok(Observed::NotApplicable(
            "server/discover does not declare tools.listChanged".into(),
        ));
    }
    let listened = listen(
        p,
        facts,
        json!({ "toolsListChanged": true }),
        Some(Change::Tools),
    )
    .await?;
    Ok(if listened.has(TOOLS_CHANGED) {
        Observed::holds()
    } else {
        Observed::Broken(format!(
            "the tool list was changed but no {TOOLS_CHANGED} arrived on the listen stream \
             that asked for it (within {} after the change)",
            mcptest_core::__support::fmt_duration(p.settings.quiet)
        ))
    })
}

pub(crate) async fn no_requests(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    let listened = listen(p, facts, json!({ "toolsListChanged": true }), None).await?;
    let requests: Vec<&str> = listened
        .messages
        .iter()
        .filter(|m| m.get("id").is_some() && m.get("method").is_some())
        .filter_map(|m| m["method"].as_str())
        .collect();
    Ok(if requests.is_empty() {
        Observed::holds()
    } else {
        Observed::Broken(format!(
            "the server sent requests on the listen stream: {}",
            requests.join(", ")
        ))
    })
}

pub(crate) async fn prompts_list_changed(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    if !declares_prompts_list_changed(&facts.capabilities()) {
        return Ok(Observed::NotApplicable(
            "server/discover does not declare prompts.listChanged".into(),
        ));
    }
    let listened = listen(
        p,
        facts,
        json!({ "promptsListChanged": true }),
        Some(Change::Prompts),
    )
    .await?;
    Ok(if listened.has(PROMPTS_CHANGED) {
        Observed::holds()
    } else {
        Observed::Broken(format!(
            "the prompt list was changed but no {PROMPTS_CHANGED} arrived on the listen stream \
             that asked for it (within {} after the change)",
            mcptest_core::__support::fmt_duration(p.settings.quiet)
        ))
    })
}

/// The most listed resources a stream subscribes to.
const MAX_SUBSCRIBED: usize = 3;

pub(crate) async fn resource_updated(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    if !declares_resource_subscriptions(&facts.capabilities()) {
        return Ok(Observed::NotApplicable(
            "server/discover does not declare resources.subscribe".into(),
        ));
    }
    let ch = p.open().await?;
    let uris: Vec<Value> = list_items(p, ch, "resources/list", "resources")
        .await
        .iter()
        .filter_map(|r| r.get("uri").filter(|u| u.is_string()).cloned())
        .take(MAX_SUBSCRIBED)
        .collect();
    if uris.is_empty() {
        return Ok(Observed::NotApplicable(
            "resources.subscribe is declared but resources/list lists no resource to subscribe to"
                .into(),
        ));
    }
    let listened = listen(
        p,
        facts,
        json!({ "resourceSubscriptions": uris }),
        Some(Change::Resources),
    )
    .await?;
    let updates: Vec<&Value> = listened
        .notifications()
        .filter(|m| m.get("method").and_then(Value::as_str) == Some(RESOURCE_UPDATED))
        .collect();
    if updates.is_empty() {
        return Ok(Observed::Broken(format!(
            "the resources were updated but no {RESOURCE_UPDATED} arrived on the listen stream \
             subscribed to {} (within {} after the update)",
            Value::Array(uris),
            mcptest_core::__support::fmt_duration(p.settings.quiet)
        )));
    }
    let mut problems = Problems::default();
    for update in updates {
        let params = update.get("params").cloned().unwrap_or(Value::Null);
        let uri = params.get("uri").cloned().unwrap_or(Value::Null);
        if !uris.contains(&uri) {
            problems.push(format!(
                "{RESOURCE_UPDATED} for {uri} arrived, a URI the stream did not subscribe to"
            ));
        }
        match params.get("_meta").and_then(|m| m.get(SUBSCRIPTION_ID)) {
            Some(id) if *id == listened.id => {}
            Some(id) => problems.push(format!(
                "{RESOURCE_UPDATED} for {uri} carries subscriptionId {id}, not the listen \
                 request's id {}",
                listened.id
            )),
            None => problems.push(format!(
                "{RESOURCE_UPDATED} for {uri} has no _meta[\"{SUBSCRIPTION_ID}\"]"
            )),
        }
    }
    Ok(problems.into_finding())
}
