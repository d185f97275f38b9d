//! Shrinking a failing fuzz input to a minimal one that fails the same way.
//!
//! The input becomes a tree of proptest value trees ([`ValueTree`]): each
//! number a [`BinarySearch`](proptest::num::i64::BinarySearch) towards 0,
//! each string and array a binary search on its length (keeping the
//! front), each object key a removal to try, each `true` a `false` to try.
//! The tree is walked the way proptest's own shrinking walks one:
//! `simplify` while the server still fails the same way, `complicate` when
//! a simpler input no longer does, until nothing simpler is left or the
//! budget of calls or time is spent. Nothing random is involved, so the same
//! failure shrinks to the same input every time.

use std::time::Duration;

use proptest::{num, strategy::ValueTree};
use serde_json::{Map, Number, Value};

/// How much shrinking each failing input may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ShrinkBudget {
    pub(super) calls: usize,
    pub(super) time: Duration,
}

/// Calls the shrinking of one failing input may make by default; each is a
/// call to the server, and a crash costs a restart.
pub const DEFAULT_SHRINK_CALLS: usize = 100;

/// How long the shrinking of one failing input may take by default.
pub const DEFAULT_SHRINK_TIME: Duration = Duration::from_secs(60);

impl Default for ShrinkBudget {
    fn default() -> Self {
        ShrinkBudget {
            calls: DEFAULT_SHRINK_CALLS,
            time: DEFAULT_SHRINK_TIME,
        }
    }
}

/// A JSON value as a tree of value trees: what can be made simpler in it.
#[derive(Debug, Clone)]
enum Tree {
    Fixed(Value),
    Bool(Flip),
    Int(num::i64::BinarySearch),
    UInt(num::u64::BinarySearch),
    Float(num::f64::BinarySearch),
    Text {
        chars: Vec<char>,
        len: num::usize::BinarySearch,
    },
    Array {
        len: num::usize::BinarySearch,
        items: Vec<Tree>,
        steps: Steps,
    },
    Object {
        entries: Vec<(String, Flip, Tree)>,
        steps: Steps,
    },
}

/// A step that can be taken once and taken back: `true` to `false`, a key
/// removed. (Which way is "simpler" is the caller's.)
#[derive(Debug, Clone, Copy)]
struct Flip {
    flipped: bool,
    tried: bool,
}

impl Flip {
    fn new() -> Flip {
        Flip {
            flipped: false,
            tried: false,
        }
    }

    fn simplify(&mut self) -> bool {
        if self.flipped || self.tried {
            return false;
        }
        self.flipped = true;
        self.tried = true;
        true
    }

    fn complicate(&mut self) -> bool {
        std::mem::replace(&mut self.flipped, false)
    }
}

/// Which part of a composite shrinks now, and which shrank last (to take
/// back): proptest's tuple trees keep the same two indexes.
#[derive(Debug, Clone, Copy, Default)]
struct Steps {
    current: usize,
    last: Option<usize>,
}

impl Tree {
    fn new(value: &Value) -> Tree {
        match value {
            Value::Bool(true) => Tree::Bool(Flip::new()),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Tree::Int(num::i64::BinarySearch::new(i))
                } else if let Some(u) = n.as_u64() {
                    Tree::UInt(num::u64::BinarySearch::new(u))
                } else {
                    Tree::Float(num::f64::BinarySearch::new(n.as_f64().unwrap_or(0.0)))
                }
            }
            Value::String(s) => {
                let chars: Vec<char> = s.chars().collect();
                let len = num::usize::BinarySearch::new(chars.len());
                Tree::Text { chars, len }
            }
            Value::Array(items) => Tree::Array {
                len: num::usize::BinarySearch::new(items.len()),
                items: items.iter().map(Tree::new).collect(),
                steps: Steps::default(),
            },
            Value::Object(map) => Tree::Object {
                entries: map
                    .iter()
                    .map(|(k, v)| (k.clone(), Flip::new(), Tree::new(v)))
                    .collect(),
                steps: Steps::default(),
            },
            other => Tree::Fixed(other.clone()),
        }
    }

    fn current(&self) -> Value {
        match self {
            Tree::Fixed(value) => value.clone(),
            Tree::Bool(flip) => Value::Bool(!flip.flipped),
            Tree::Int(search) => Value::from(search.current()),
            Tree::UInt(search) => Value::from(search.current()),
            Tree::Float(search) => Number::from_f64(search.current())
                .map(Value::Number)
                .unwrap_or(Value::from(0)),
            Tree::Text { chars, len } => Value::String(chars[..len.current()].iter().collect()),
            Tree::Array { len, items, .. } => {
                Value::Array(items[..len.current()].iter().map(Tree::current).collect())
            }
            Tree::Object { entries, .. } => Value::Object(
                entries
                    .iter()
                    .filter(|(_, removed, _)| !removed.flipped)
                    .map(|(k, _, v)| (k.clone(), v.current()))
                    .collect::<Map<String, Value>>(),
            ),
        }
    }

    fn simplify(&mut self) -> bool {
        match self {
            Tree::Fixed(_) => false,
            Tree::Bool(flip) => flip.simplify(),
            Tree::Int(search) => search.simplify(),
            Tree::UInt(search) => search.simplify(),
            Tree::Float(search) => search.simplify(),
            Tree::Text { len, .. } => len.simplify(),
            // Part 0 is the length; part i + 1 is item i, while it is kept.
            Tree::Array { len, items, steps } => {
                while steps.current <= items.len() {
                    let shrank = match steps.current {
                        0 => len.simplify(),
                        i if i <= len.current() => items[i - 1].simplify(),
                        _ => false,
                    };
                    if shrank {
                        steps.last = Some(steps.current);
                        return true;
                    }
                    steps.current += 1;
                }
                false
            }
            // Part 2i removes entry i; part 2i + 1 shrinks its value, if kept.
            Tree::Object { entries, steps } => {
                while steps.current < entries.len() * 2 {
                    let (_, removed, value) = &mut entries[steps.current / 2];
                    let shrank = if steps.current % 2 == 0 {
                        removed.simplify()
                    } else {
                        !removed.flipped && value.simplify()
                    };
                    if shrank {
                        steps.last = Some(steps.current);
                        return true;
                    }
                    steps.current += 1;
                }
                false
            }
        }
    }

    fn complicate(&mut self) -> bool {
        match self {
            Tree::Fixed(_) => false,
            Tree::Bool(flip) => flip.complicate(),
            Tree::Int(search) => search.complicate(),
            Tree::UInt(search) => search.complicate(),
            Tree::Float(search) => search.complicate(),
            Tree::Text { len, .. } => len.complicate(),
            Tree::Array { len, items, steps } => {
                let Some(last) = steps.last else { return false };
                let done = match last {
                    0 => len.complicate(),
                    i => items[i - 1].complicate(),
                };
                if !done {
                    steps.last = None;
                }
                done
            }
            Tree::Object { entries, steps } => {
                let Some(last) = steps.last else { return false };
                let (_, removed, value) = &mut entries[last / 2];
                let done = if last % 2 == 0 {
                    removed.complicate()
                } else {
                    value.complicate()
                };
                if !done {
                    steps.last = None;
                }
                done
            }
        }
    }
}

/// The shrinking of one failing input, one candidate at a time: try
/// [`candidate`](Shrinker::candidate), say whether it still fails with
/// [`record`](Shrinker::record), until there is none.
///
/// ```
/// use mcptest::scan::fuzz::Shrinker;
/// use serde_json::json;
///
/// // "Fails" whenever the list has more than 3 items and the text is not empty.
/// let fails = |v: &serde_json::Value| v["tags"].as_array().map_or(0, Vec::len) > 3
///     && v["title"].as_str().is_some_and(|t| !t.is_empty());
/// let start = json!({"title": "a long title", "tags": vec!["x"; 1000], "count": 42});
/// let mut shrinker = Shrinker::new(&start);
/// while let Some(candidate) = shrinker.candidate() {
///     let failed = fails(&candidate);
///     shrinker.record(failed);
/// }
/// assert_eq!(shrinker.minimal(), &json!({"title": "a", "tags": ["", "", "", ""]}));
/// ```
#[derive(Debug, Clone)]
pub struct Shrinker {
    tree: Tree,
    minimal: Value,
    candidate: Option<Value>,
    tries: usize,
}

impl Shrinker {
    /// Starts from `failing`, an input known to fail.
    pub fn new(failing: &Value) -> Shrinker {
        let mut tree = Tree::new(failing);
        let candidate = tree.simplify().then(|| tree.current());
        Shrinker {
            tree,
            minimal: failing.clone(),
            candidate,
            tries: 0,
        }
    }

    /// The next input to try, or `None` when nothing simpler is left.
    pub fn candidate(&self) -> Option<Value> {
        self.candidate.clone()
    }

    /// Whether the last candidate still failed the same way.
    pub fn record(&mut self, failed: bool) {
        let Some(candidate) = self.candidate.take() else {
            return;
        };
        self.tries += 1;
        let mut failed = failed;
        if failed {
            self.minimal = candidate;
        }
        loop {
            let moved = if failed {
                self.tree.simplify()
            } else {
                self.tree.complicate()
            };
            if !moved {
                self.candidate = None;
                return;
            }
            let next = self.tree.current();
            // Taking a step back can land on the input known to fail:
            // no need to ask the server again.
            if next == self.minimal {
                failed = true;
                continue;
            }
            self.candidate = Some(next);
            return;
        }
    }

    /// The simplest input seen to fail (the starting one, if none was).
    pub fn minimal(&self) -> &Value {
        &self.minimal
    }

    /// How many candidates were tried.
    pub fn tries(&self) -> usize {
        self.tries
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shrink(start: Value, fails: impl Fn(&Value) -> bool) -> (Value, usize) {
        let mut shrinker = Shrinker::new(&start);
        while let Some(candidate) = shrinker.candidate() {
            assert!(shrinker.tries() < 10_000, "shrinking ends");
            shrinker.record(fails(&candidate));
        }
        (shrinker.minimal().clone(), shrinker.tries())
    }

    #[test]
    fn a_long_string_shrinks_to_the_shortest_that_still_fails() {
        let (minimal, tries) = shrink(json!({"query": "q".repeat(10_240)}), |v| {
            v["query"].as_str().is_some_and(|q| q.len() > 1000)
        });
        assert_eq!(minimal, json!({"query": "q".repeat(1001)}));
        assert!(tries < 40, "a binary search: {tries}");
    }

    #[test]
    fn unrelated_keys_go_and_numbers_go_towards_zero() {
        let (minimal, _) = shrink(
            json!({"a": 1000, "b": "text", "unexpected": {"deep": [1, 2, 3]}, "flag": true, "f": 2.5}),
            |v| v["a"].as_i64().is_some_and(|a| a >= 17),
        );
        assert_eq!(minimal, json!({"a": 17}));
    }

    #[test]
    fn negative_numbers_and_large_unsigned_ones_shrink_too() {
        let (minimal, _) = shrink(json!({"n": i64::MIN}), |v| {
            v["n"].as_i64().is_some_and(|n| n < -5)
        });
        assert_eq!(minimal, json!({"n": -6}));
        let (minimal, _) = shrink(json!({"n": u64::MAX}), |v| {
            v["n"].as_u64().is_some_and(|n| n > 9)
        });
        assert_eq!(minimal, json!({"n": 10}));
    }

    #[test]
    fn items_shrink_inside_the_shortest_failing_array() {
        let (minimal, _) = shrink(
            json!({"rows": [{"id": 5, "name": "x"}, {"id": 900, "name": "y"}, {"id": 3}]}),
            |v| {
                v["rows"]
                    .as_array()
                    .is_some_and(|rows| rows.iter().any(|r| r["id"].as_i64() > Some(99)))
            },
        );
        assert_eq!(minimal, json!({"rows": [{}, {"id": 100}]}));
    }

    #[test]
    fn an_input_that_cannot_shrink_is_kept() {
        for start in [json!({}), Value::Null, json!({"flag": false})] {
            let mut shrinker = Shrinker::new(&start);
            if start == json!({"flag": false}) {
                // The key may go; nothing else, and the input known to
                // fail is not tried again.
                assert_eq!(shrinker.candidate(), Some(json!({})));
                shrinker.record(false);
            }
            assert_eq!(shrinker.candidate(), None, "{start}");
            assert_eq!(shrinker.minimal(), &start);
            assert!(shrinker.tries() <= 1);
        }
    }

    #[test]
    fn the_same_failure_shrinks_the_same_way() {
        let start = json!({"s": "a\u{0}b".repeat(50), "n": [1, 2, 3, 4, 5]});
        let fails = |v: &Value| v["s"].as_str().is_some_and(|s| s.contains('\u{0}'));
        assert_eq!(shrink(start.clone(), fails), shrink(start, fails));
    }
}
