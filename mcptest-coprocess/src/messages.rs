//! What the server sent on its own, as v3 reports it: in the verdict of the
//! `mcp.call` it arrived during, or else by the next `mcp.messages`. Each
//! message is reported once. The connection's notification log keeps them;
//! the inbox only remembers how far it has been read.

use serde_json::{Map, Value, json};

use mcptest_core::{LogMessage, ServerMessage, ServerMessages};

/// How far the connection's log has been read, and the messages read but
/// not reported yet (they arrived outside any call).
#[derive(Debug, Default)]
pub(crate) struct Inbox {
    /// The sequence number of the first message not read yet.
    next: usize,
    /// Read, arrived outside a call, waiting for `mcp.messages`.
    waiting: Vec<ServerMessage>,
}

impl Inbox {
    /// The messages that arrived since the last read, oldest first.
    pub(crate) fn read(&mut self, log: &ServerMessages) -> Vec<ServerMessage> {
        let next = self.next;
        let new = log.filter(|m| m.seq >= next);
        if let Some(last) = new.last() {
            self.next = last.seq + 1;
        }
        new
    }

    /// Keeps messages for the next `mcp.messages`.
    pub(crate) fn keep(&mut self, messages: Vec<ServerMessage>) {
        self.waiting.extend(messages);
    }

    /// The messages kept, forgotten here.
    pub(crate) fn take_kept(&mut self) -> Vec<ServerMessage> {
        std::mem::take(&mut self.waiting)
    }

    /// A new connection: its log numbers from 0 again.
    pub(crate) fn reconnected(&mut self) {
        self.next = 0;
    }
}

/// `messages` and `logs` as the verdict and `mcp.messages` carry them.
pub(crate) fn render(messages: &[ServerMessage]) -> (Value, Value) {
    let items = messages.iter().map(item).collect();
    let logs = messages
        .iter()
        .filter(|m| m.method == "notifications/message")
        .filter_map(|m| m.params_as::<LogMessage>())
        .map(|log| {
            let mut entry = Map::new();
            entry.insert("level".into(), json!(log.level));
            if let Some(logger) = log.logger {
                entry.insert("logger".into(), logger.into());
            }
            entry.insert("data".into(), log.data);
            Value::Object(entry)
        })
        .collect();
    (Value::Array(items), Value::Array(logs))
}

fn item(message: &ServerMessage) -> Value {
    let mut item = Map::new();
    item.insert("method".into(), message.method.clone().into());
    item.insert("params".into(), message.params.clone());
    if let Some(id) = &message.id {
        item.insert("id".into(), id.clone());
        item.insert("reply".into(), message.reply.clone().unwrap_or(Value::Null));
    }
    Value::Object(item)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_message_is_read_once_and_logs_are_picked_out() {
        let log = ServerMessages::from_messages([
            json!({"method": "notifications/progress", "params": {"progress": 1}}),
            json!({"method": "notifications/message", "params": {"level": "info", "logger": "calc", "data": "adding"}}),
        ]);
        let mut inbox = Inbox::default();
        let first = inbox.read(&log);
        assert_eq!(first.len(), 2);
        assert!(inbox.read(&log).is_empty(), "read once");
        let (items, logs) = render(&first);
        assert_eq!(
            items,
            json!([
                {"method": "notifications/progress", "params": {"progress": 1}},
                {"method": "notifications/message", "params": {"level": "info", "logger": "calc", "data": "adding"}},
            ])
        );
        assert_eq!(
            logs,
            json!([{"level": "info", "logger": "calc", "data": "adding"}])
        );
        inbox.keep(first);
        assert_eq!(inbox.take_kept().len(), 2);
        assert!(inbox.take_kept().is_empty());
    }

    #[test]
    fn a_request_carries_its_id_and_the_reply_or_null() {
        let log = ServerMessages::from_messages([
            json!({"id": 7, "method": "roots/list"}),
            json!({"method": "notifications/message", "params": {"level": "loud", "data": 1}}),
        ]);
        let (items, logs) = render(&Inbox::default().read(&log));
        assert_eq!(
            items[0],
            json!({"method": "roots/list", "params": null, "id": 7, "reply": null})
        );
        assert_eq!(
            logs,
            json!([]),
            "a log message of no known level is only a message"
        );
    }
}
