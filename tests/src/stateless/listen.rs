//! `subscriptions/listen` in the fixture (2026-07-28): every listen stream
//! is registered process-wide while it is open, and the tool
//! [`LIST_CHANGE_TOOL`] announces a change of the tool list on each stream
//! that asked for it; [`PROMPTS_CHANGE_TOOL`] does the same for the prompt
//! list, and [`RESOURCE_UPDATE_TOOL`] announces an update of every resource
//! a stream subscribed to. Breakages bend the tagging, the filter, the
//! announcement and what else goes on the stream.

use std::{
    sync::{
        Mutex,
        atomic::{AtomicU64, AtomicUsize, Ordering},
    },
    time::Duration,
};

use rmcp::{
    ErrorData, Peer, RoleServer,
    model::{
        NotificationMetaObject, RequestId, ResourceUpdatedNotificationParam, ServerNotification,
        SubscriptionFilter, ToolListChangedNotification,
    },
    service::{SubscriptionContext, SubscriptionSink},
};

use super::breakage::{Breakage, Breakages};

/// The tool that announces a change of the tool list.
pub const LIST_CHANGE_TOOL: &str = "touch_tools";
/// The tool that announces a change of the prompt list.
pub const PROMPTS_CHANGE_TOOL: &str = "touch_prompts";
/// The tool that announces an update of every resource.
pub const RESOURCE_UPDATE_TOOL: &str = "touch_resources";

/// An open listen stream.
struct Listener {
    key: u64,
    id: RequestId,
    peer: Peer<RoleServer>,
    accepted: SubscriptionFilter,
    sink: SubscriptionSink,
}

static LISTENERS: Mutex<Vec<Listener>> = Mutex::new(Vec::new());
static NEXT_KEY: AtomicU64 = AtomicU64::new(0);
/// Streams accepted but not registered yet: rmcp acknowledges a stream
/// before it calls `listen`, and a change announced in between must still
/// reach it.
static PENDING: AtomicUsize = AtomicUsize::new(0);

fn listeners() -> std::sync::MutexGuard<'static, Vec<Listener>> {
    LISTENERS.lock().unwrap_or_else(|p| p.into_inner())
}

/// The filter the fixture accepts: what was asked for, of the list changes
/// it announces (tools and prompts) and of its resources (`known` says
/// which URIs are).
pub(super) fn accepted(
    requested: &SubscriptionFilter,
    known: impl Fn(&str) -> bool,
) -> SubscriptionFilter {
    PENDING.fetch_add(1, Ordering::SeqCst);
    let mut accepted = SubscriptionFilter::new();
    accepted.tools_list_changed = requested.tools_list_changed;
    accepted.prompts_list_changed = requested.prompts_list_changed;
    accepted.resource_subscriptions = requested
        .resource_subscriptions
        .as_ref()
        .map(|uris| uris.iter().filter(|uri| known(uri)).cloned().collect())
        .filter(|uris: &Vec<String>| !uris.is_empty());
    accepted
}

/// Runs one listen stream until the client goes away.
pub(super) async fn listen(
    _breakages: &Breakages,
    context: SubscriptionContext,
) -> Result<(), ErrorData> {
    let key = NEXT_KEY.fetch_add(1, Ordering::Relaxed);
    let request = context.request_context();
    listeners().push(Listener {
        key,
        id: request.id.clone(),
        peer: request.peer.clone(),
        accepted: context.accepted().clone(),
        sink: context.sink().clone(),
    });
    let _ = PENDING.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    context.cancelled().await;
    listeners().retain(|l| l.key != key);
    Ok(())
}

/// Waits until acknowledged streams are registered (a stream whose set-up
/// failed is not waited for beyond a second).
async fn settle() {
    for _ in 0..100 {
        if PENDING.load(Ordering::SeqCst) == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The peer and the sink of every open stream.
fn sinks() -> Vec<(Peer<RoleServer>, SubscriptionSink)> {
    listeners()
        .iter()
        .map(|l| (l.peer.clone(), l.sink.clone()))
        .collect()
}

/// `tools/call touch_prompts`: announces a change of the prompt list.
pub(super) async fn announce_prompt_change(breakages: &Breakages) -> usize {
    settle().await;
    if breakages.has(Breakage::ListenNoPromptsListChanged) {
        return 0;
    }
    let mut sent = 0;
    for (_, sink) in sinks() {
        if sink.accepted().prompts_list_changed == Some(true) {
            sent += usize::from(sink.notify_prompt_list_changed().await.is_ok());
        }
    }
    sent
}

/// `tools/call touch_resources`: announces an update of every resource a
/// stream subscribed to.
pub(super) async fn announce_resource_update(breakages: &Breakages) -> usize {
    settle().await;
    let mut sent = 0;
    for (peer, sink) in sinks() {
        let uris = sink
            .accepted()
            .resource_subscriptions
            .clone()
            .unwrap_or_default();
        for uri in uris {
            let delivered = if breakages.has(Breakage::ListenResourceUpdatedUntagged) {
                let param = ResourceUpdatedNotificationParam::new(uri);
                peer.notify_resource_updated(param).await.is_ok()
            } else {
                sink.notify_resource_updated(uri).await.is_ok()
            };
            sent += usize::from(delivered);
        }
    }
    sent
}

/// `tools/call touch_tools`: announces a change of the tool list.
pub(super) async fn announce_tool_change(breakages: &Breakages) -> usize {
    settle().await;
    let targets: Vec<_> = listeners()
        .iter()
        .map(|l| {
            (
                l.id.clone(),
                l.peer.clone(),
                l.accepted.clone(),
                l.sink.clone(),
            )
        })
        .collect();
    let mut sent = 0;
    for (id, peer, accepted, sink) in targets {
        if breakages.has(Breakage::ListenNoListChanged) {
            continue;
        }
        let wanted = accepted.tools_list_changed == Some(true);
        if breakages.has(Breakage::ListenIgnoresFilter) {
            let mut notification = ToolListChangedNotification {
                method: Default::default(),
                extensions: Default::default(),
            };
            let mut meta = NotificationMetaObject::new();
            meta.set_subscription_id(id);
            notification.extensions.insert(meta);
            let notification = ServerNotification::ToolListChangedNotification(notification);
            sent += usize::from(peer.send_notification(notification).await.is_ok());
        } else if wanted && breakages.has(Breakage::ListenUntagged) {
            sent += usize::from(peer.notify_tool_list_changed().await.is_ok());
        } else if wanted {
            sent += usize::from(sink.notify_tool_list_changed().await.is_ok());
        }
    }
    sent
}
