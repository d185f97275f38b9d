//! Everything mcptest keeps from a server is bounded, in count and in bytes,
//! so a flooding or hostile server cannot exhaust memory or time. What is
//! dropped past a bound is counted and said ("… and 99,950 more stray
//! answers"). The bounds are constants; a test that must see more reads
//! what it needs as it goes (e.g. [`ServerMessages::clear`](crate::ServerMessages::clear)
//! after each check).

/// Notifications and server-to-client requests kept per connection (the
/// oldest are dropped first, in O(1)).
pub const NOTIFICATIONS_KEPT: usize = 10_000;
/// Of those, server-to-client requests kept at once: a request that arrives
/// while this many are kept is still answered, and counted in
/// [`ServerMessages::dropped`](crate::ServerMessages::dropped) without being
/// stored.
pub const SERVER_REQUESTS_KEPT: usize = 1_000;
/// Answers to server-to-client requests that may wait at once for the
/// server to read its stdin. A request that arrives while this many wait is
/// not answered (the server is not reading its answers) and is counted in
/// [`ServerOutput::unanswered_requests`](crate::ServerOutput::unanswered_requests),
/// so a server that floods requests and stops reading cannot grow mcptest.
pub const SERVER_REQUESTS_IN_FLIGHT: usize = 1_000;
/// The same log's bound in bytes (the JSON of each message's `params`).
pub const NOTIFICATIONS_KEPT_BYTES: usize = 8 * 1024 * 1024;
/// Answers with an id mcptest never sent: the first this many are kept
/// (each cut to [`NOISE_LINE_CHARS`]), all are counted.
pub const STRAY_KEPT: usize = 50;
/// Non-JSON-RPC lines on stdout: the most recent this many are kept, all are
/// counted.
pub const NOISE_KEPT: usize = 50;
/// How many characters of each kept stray line or answer are shown.
pub const NOISE_LINE_CHARS: usize = 300;

/// Messages kept from a server, oldest first, within
/// [`NOTIFICATIONS_KEPT`] messages and [`NOTIFICATIONS_KEPT_BYTES`]: a
/// message that does not fit pushes out the oldest, in O(1). The one queue
/// behind the notification log and the raw connection's passed-over
/// messages.
pub(crate) struct Bounded<T> {
    items: std::collections::VecDeque<(T, usize)>,
    bytes: usize,
}

impl<T> Default for Bounded<T> {
    fn default() -> Self {
        Bounded {
            items: std::collections::VecDeque::new(),
            bytes: 0,
        }
    }
}

impl<T> Bounded<T> {
    /// Adds `item` of `size` bytes at the back; each item pushed out to
    /// make room goes to `evicted`.
    pub(crate) fn push(&mut self, item: T, size: usize, mut evicted: impl FnMut(T)) {
        while self.items.len() >= NOTIFICATIONS_KEPT
            || (!self.items.is_empty() && self.bytes + size > NOTIFICATIONS_KEPT_BYTES)
        {
            let Some((old, old_size)) = self.items.pop_front() else {
                break;
            };
            self.bytes -= old_size;
            evicted(old);
        }
        self.bytes += size;
        self.items.push_back((item, size));
    }

    /// Takes out the item at `at` (0 is the oldest).
    pub(crate) fn remove(&mut self, at: usize) -> Option<T> {
        let (item, size) = self.items.remove(at)?;
        self.bytes -= size;
        Some(item)
    }

    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = &T> {
        self.items.iter().map(|(item, _)| item)
    }

    pub(crate) fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut T> {
        self.items.iter_mut().map(|(item, _)| item)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub(crate) fn clear(&mut self) {
        self.items.clear();
        self.bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_make_room_by_count_and_by_bytes() {
        let mut queue = Bounded::default();
        let mut evicted = Vec::new();
        for i in 0..NOTIFICATIONS_KEPT + 2 {
            queue.push(i, 1, |old| evicted.push(old));
        }
        assert_eq!(evicted, [0, 1]);
        assert_eq!(queue.iter().next(), Some(&2));
        evicted.clear();
        queue.push(usize::MAX, NOTIFICATIONS_KEPT_BYTES, |old| {
            evicted.push(old)
        });
        assert_eq!(evicted.len(), NOTIFICATIONS_KEPT);
        assert_eq!(queue.iter().collect::<Vec<_>>(), [&usize::MAX]);
        assert_eq!(queue.remove(0), Some(usize::MAX));
        assert!(queue.is_empty());
    }
}
