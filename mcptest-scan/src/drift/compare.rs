//! The comparison behind [`diff`](super::diff): two surfaces walked item by
//! item (matched by name or URI) and field by field, each difference given
//! to the rule that orders it. Schemas are compared in a direction: what a
//! tool accepts (its inputSchema, a prompt's arguments) may widen, what it
//! promises (its outputSchema) may narrow.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{Change, Side, rules::rule};
use crate::surface::{Address, List};

/// Which way a schema may change without breaking its clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// What callers send: accepting more is compatible.
    Input,
    /// What callers receive: promising more is compatible.
    Output,
}

/// Where the walk is: the address, and the pointer on each side that has it.
#[derive(Debug, Clone)]
struct Place {
    address: Address,
    old: Option<String>,
    new: Option<String>,
}

impl Place {
    fn key(&self, key: &str) -> Place {
        let escaped = key.replace('~', "~0").replace('/', "~1");
        Place {
            address: self.address.clone().field([key]),
            old: self.old.as_ref().map(|p| format!("{p}/{escaped}")),
            new: self.new.as_ref().map(|p| format!("{p}/{escaped}")),
        }
    }

    /// A named member of a list (a prompt argument), at its index on each side.
    fn member(&self, name: &str, old: Option<usize>, new: Option<usize>) -> Place {
        Place {
            address: self.address.clone().field([name]),
            old: old.and_then(|i| Some(format!("{}/{i}", self.old.as_ref()?))),
            new: new.and_then(|i| Some(format!("{}/{i}", self.new.as_ref()?))),
        }
    }
}

/// Keywords whose changes cannot be ordered without the values.
const UNORDERED: &[&str] = &[
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "definitions",
    "prefixItems",
    "contains",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
];

/// Lower bounds (raising one narrows) and upper bounds (lowering one narrows).
const LOWER_BOUNDS: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
];
const UPPER_BOUNDS: &[&str] = &[
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
];

/// Constraints that narrow when added or changed, and widen when removed.
const RESTRICTIONS: &[&str] = &["pattern", "format", "multipleOf"];

const ALL_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

#[derive(Default)]
pub(super) struct Differ {
    pub(super) changes: Vec<Change>,
}

impl Differ {
    fn push(
        &mut self,
        name: &str,
        at: &Place,
        old: Option<&Value>,
        new: Option<&Value>,
        detail: impl Into<String>,
    ) {
        let (pointer, side) = match (&at.new, &at.old) {
            (Some(p), _) if new.is_some() || at.old.is_none() => (p.clone(), Side::New),
            (_, Some(p)) => (p.clone(), Side::Old),
            (Some(p), None) => (p.clone(), Side::New),
            (None, None) => (String::new(), Side::New),
        };
        self.changes.push(Change {
            rule: rule(name),
            address: at.address.clone(),
            pointer,
            side,
            old: old.cloned(),
            new: new.cloned(),
            detail: detail.into(),
        });
    }

    pub(super) fn surfaces(&mut self, old: &Value, new: &Value) {
        for list in List::ALL {
            self.list(list, old, new);
        }
    }

    fn list(&mut self, list: List, old: &Value, new: &Value) {
        let items = |surface: &Value| -> BTreeMap<String, (usize, Value)> {
            surface
                .get(list.key())
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
                .map(|(i, item)| {
                    let id = item.get(list.id_field()).and_then(Value::as_str);
                    (id.unwrap_or_default().to_owned(), (i, item.clone()))
                })
                .collect()
        };
        let (old_items, new_items) = (items(old), items(new));
        for (name, (i, before)) in &old_items {
            let mut at = Place {
                address: Address::item(list, name.clone()),
                old: Some(format!("/{}/{i}", list.key())),
                new: None,
            };
            match new_items.get(name) {
                None => self.push(
                    "item-removed",
                    &at,
                    Some(before),
                    None,
                    format!("{} {name:?} is gone", list.noun()),
                ),
                Some((j, after)) => {
                    at.new = Some(format!("/{}/{j}", list.key()));
                    self.item(list, &at, before, after);
                }
            }
        }
        for (name, (j, after)) in &new_items {
            if !old_items.contains_key(name) {
                let at = Place {
                    address: Address::item(list, name.clone()),
                    old: None,
                    new: Some(format!("/{}/{j}", list.key())),
                };
                self.push(
                    "item-added",
                    &at,
                    None,
                    Some(after),
                    format!("{} {name:?} is new", list.noun()),
                );
            }
        }
    }

    fn item(&mut self, list: List, at: &Place, old: &Value, new: &Value) {
        if old == new {
            return;
        }
        for key in keys(old, new) {
            let (before, after) = (old.get(&key), new.get(&key));
            if before == after {
                continue;
            }
            let here = at.key(&key);
            match (list, key.as_str()) {
                (_, "description" | "title") => self.text(&here, before, after),
                (List::Tools, "inputSchema") => self.schema(
                    &here,
                    before.unwrap_or(&Value::Null),
                    after.unwrap_or(&Value::Null),
                    Direction::Input,
                ),
                (List::Tools, "outputSchema") => match (before, after) {
                    (Some(_), None) => self.push(
                        "output-weakened",
                        &here,
                        before,
                        None,
                        "the outputSchema is gone",
                    ),
                    (None, Some(_)) => self.push(
                        "output-extended",
                        &here,
                        None,
                        after,
                        "an outputSchema is declared",
                    ),
                    _ => self.schema(
                        &here,
                        before.unwrap_or(&Value::Null),
                        after.unwrap_or(&Value::Null),
                        Direction::Output,
                    ),
                },
                (List::Tools, "annotations") => self.annotations(&here, before, after),
                (List::Prompts, "arguments") => self.arguments(&here, before, after),
                (List::Resources | List::ResourceTemplates, "mimeType") if before.is_some() => self
                    .push(
                        "mime-type-changed",
                        &here,
                        before,
                        after,
                        format!("mimeType {} is now {}", shown(before), shown(after)),
                    ),
                _ => self.other(&here, before, after),
            }
        }
    }

    fn other(&mut self, at: &Place, old: Option<&Value>, new: Option<&Value>) {
        let what = at.address.path.last().cloned().unwrap_or_default();
        self.push(
            "other-change",
            at,
            old,
            new,
            format!("`{what}` was {} and is {}", shown(old), shown(new)),
        );
    }

    /// A description, title or examples list.
    fn text(&mut self, at: &Place, old: Option<&Value>, new: Option<&Value>) {
        let size = |v: &Value| match v {
            Value::String(s) => s.trim().chars().count(),
            Value::Array(items) => items.len(),
            Value::Null => 0,
            _ => 1,
        };
        let what = at.address.path.last().cloned().unwrap_or_default();
        match (old.map(size), new.map(size)) {
            (Some(0) | None, Some(0) | None) => self.other(at, old, new),
            (Some(_), None) => self.push(
                "description-weakened",
                at,
                old,
                new,
                format!("the {what} is gone"),
            ),
            (Some(_), Some(0)) => self.push(
                "description-weakened",
                at,
                old,
                new,
                format!("the {what} is empty"),
            ),
            (Some(before), Some(after)) if after * 2 < before => self.push(
                "description-weakened",
                at,
                old,
                new,
                format!("the {what} shrank from {before} to {after}"),
            ),
            (None | Some(0), Some(_)) => self.push(
                "description-changed",
                at,
                old,
                new,
                format!("a {what} is added"),
            ),
            (Some(_), Some(_)) => self.push(
                "description-changed",
                at,
                old,
                new,
                format!("the {what} is reworded"),
            ),
        }
    }

    /// A change that makes the schema accept fewer values (`narrowed`),
    /// more (`widened`), or both, given to the rule its direction calls for.
    fn ordered(
        &mut self,
        at: &Place,
        dir: Direction,
        (narrowed, widened): (bool, bool),
        breaking_input: &str,
        (old, new): (Option<&Value>, Option<&Value>),
        detail: String,
    ) {
        let name = match dir {
            Direction::Input if narrowed => breaking_input,
            Direction::Input if widened => "input-widened",
            Direction::Output if widened => "output-weakened",
            Direction::Output if narrowed => "output-extended",
            _ => "other-change",
        };
        self.push(name, at, old, new, detail);
    }

    fn schema(&mut self, at: &Place, old: &Value, new: &Value, dir: Direction) {
        if old == new {
            return;
        }
        let (Some(_), Some(_)) = (old.as_object(), new.as_object()) else {
            self.push(
                "schema-changed",
                at,
                Some(old),
                Some(new),
                format!(
                    "the schema was {} and is {}",
                    shown(Some(old)),
                    shown(Some(new))
                ),
            );
            return;
        };
        let mut handled: BTreeSet<&str> = BTreeSet::new();
        self.types(at, old, new, dir);
        self.allowed_values(at, old, new, dir);
        self.bounds(at, old, new, dir);
        self.properties(at, old, new, dir);
        handled.extend(["type", "enum", "const", "properties", "required"]);
        handled.extend(LOWER_BOUNDS.iter().chain(UPPER_BOUNDS).chain(RESTRICTIONS));
        handled.insert("uniqueItems");
        for key in keys(old, new) {
            let (before, after) = (old.get(&key), new.get(&key));
            if before == after || handled.contains(key.as_str()) {
                continue;
            }
            let here = at.key(&key);
            match key.as_str() {
                "description" | "title" | "examples" => self.text(&here, before, after),
                "default" if dir == Direction::Input => self.push(
                    "default-changed",
                    &here,
                    before,
                    after,
                    format!("the default was {} and is {}", shown(before), shown(after)),
                ),
                "items" | "additionalProperties" => {
                    self.subschema(&here, before, after, dir);
                }
                key if UNORDERED.contains(&key) => self.push(
                    "schema-changed",
                    &here,
                    before,
                    after,
                    format!("`{key}` changed"),
                ),
                _ => self.other(&here, before, after),
            }
        }
    }

    /// `items` or `additionalProperties`: absent or `true` accepts anything,
    /// `false` nothing, a schema what it says.
    fn subschema(&mut self, at: &Place, old: Option<&Value>, new: Option<&Value>, dir: Direction) {
        let openness = |v: Option<&Value>| match v {
            None | Some(Value::Bool(true)) => 2,
            Some(Value::Bool(false)) => 0,
            Some(_) => 1,
        };
        if let (Some(before @ Value::Object(_)), Some(after @ Value::Object(_))) = (old, new) {
            return self.schema(at, before, after, dir);
        }
        let (before, after) = (openness(old), openness(new));
        let what = at.address.path.last().cloned().unwrap_or_default();
        self.ordered(
            at,
            dir,
            (after < before, after > before),
            "input-constraint-tightened",
            (old, new),
            format!("`{what}` was {} and is {}", shown(old), shown(new)),
        );
    }

    fn types(&mut self, at: &Place, old: &Value, new: &Value, dir: Direction) {
        let types = |schema: &Value| -> Option<BTreeSet<String>> {
            match schema.get("type")? {
                Value::String(t) => Some([t.clone()].into()),
                Value::Array(ts) => Some(
                    ts.iter()
                        .filter_map(|t| t.as_str().map(str::to_owned))
                        .collect(),
                ),
                _ => None,
            }
        };
        let (before, after) = (types(old), types(new));
        if before == after {
            return;
        }
        let accepts = |set: &Option<BTreeSet<String>>, t: &str| match set {
            None => true,
            Some(set) => set.contains(t) || (t == "integer" && set.contains("number")),
        };
        let every = |set: &Option<BTreeSet<String>>| -> Vec<String> {
            match set {
                None => ALL_TYPES.iter().map(|t| (*t).to_owned()).collect(),
                Some(set) => set.iter().cloned().collect(),
            }
        };
        let narrowed = every(&before).iter().any(|t| !accepts(&after, t));
        let widened = every(&after).iter().any(|t| !accepts(&before, t));
        self.ordered(
            &at.key("type"),
            dir,
            (narrowed, widened),
            "input-type-narrowed",
            (old.get("type"), new.get("type")),
            format!(
                "the type was {} and is {}",
                shown(old.get("type")),
                shown(new.get("type"))
            ),
        );
    }

    /// `enum` and `const`, as the set of values allowed.
    fn allowed_values(&mut self, at: &Place, old: &Value, new: &Value, dir: Direction) {
        let allowed = |schema: &Value| -> Option<Vec<Value>> {
            if let Some(Value::Array(values)) = schema.get("enum") {
                return Some(values.clone());
            }
            schema.get("const").map(|c| vec![c.clone()])
        };
        let (before, after) = (allowed(old), allowed(new));
        if before == after {
            return;
        }
        let key = if old.get("enum").is_some() || new.get("enum").is_some() {
            "enum"
        } else {
            "const"
        };
        let (narrowed, widened, detail) = match (&before, &after) {
            (None, Some(values)) => (true, false, format!("only {} now", shown_values(values))),
            (Some(values), None) => (
                false,
                true,
                format!("{} no longer limits it", shown_values(values)),
            ),
            (Some(b), Some(a)) => {
                let gone: Vec<Value> = b.iter().filter(|v| !a.contains(v)).cloned().collect();
                let added: Vec<Value> = a.iter().filter(|v| !b.contains(v)).cloned().collect();
                let mut said = Vec::new();
                if !gone.is_empty() {
                    said.push(format!("{} removed", shown_values(&gone)));
                }
                if !added.is_empty() {
                    said.push(format!("{} added", shown_values(&added)));
                }
                if said.is_empty() {
                    said.push("reordered".into());
                }
                (!gone.is_empty(), !added.is_empty(), said.join(", "))
            }
            (None, None) => return,
        };
        self.ordered(
            &at.key(key),
            dir,
            (narrowed, widened),
            "input-enum-narrowed",
            (old.get(key), new.get(key)),
            format!("{key}: {detail}"),
        );
    }

    fn bounds(&mut self, at: &Place, old: &Value, new: &Value, dir: Direction) {
        let number = |v: Option<&Value>| v.and_then(Value::as_f64);
        for (keys, lower) in [(LOWER_BOUNDS, true), (UPPER_BOUNDS, false)] {
            for key in keys.iter().copied() {
                let (before, after) = (old.get(key), new.get(key));
                if before == after {
                    continue;
                }
                let tighter = |a: f64, b: f64| if lower { a > b } else { a < b };
                let (narrowed, widened) = match (number(before), number(after)) {
                    (None, Some(_)) => (true, false),
                    (Some(_), None) => (false, true),
                    (Some(b), Some(a)) => (tighter(a, b), tighter(b, a)),
                    // Draft-4 boolean exclusive bounds: `true` is the tighter one.
                    (None, None) => (
                        after == Some(&Value::Bool(true)),
                        before == Some(&Value::Bool(true)),
                    ),
                };
                self.ordered(
                    &at.key(key),
                    dir,
                    (narrowed, widened),
                    "input-constraint-tightened",
                    (before, after),
                    format!("{key} was {} and is {}", shown(before), shown(after)),
                );
            }
        }
        for key in RESTRICTIONS.iter().copied().chain(["uniqueItems"]) {
            let (before, after) = (old.get(key), new.get(key));
            if before == after {
                continue;
            }
            let restricts = |v: Option<&Value>| match v {
                None | Some(Value::Bool(false)) => false,
                Some(_) => true,
            };
            let (narrowed, widened) = match (restricts(before), restricts(after)) {
                (_, true) => (true, false),
                (true, false) => (false, true),
                (false, false) => (false, false),
            };
            self.ordered(
                &at.key(key),
                dir,
                (narrowed, widened),
                "input-constraint-tightened",
                (before, after),
                format!("{key} was {} and is {}", shown(before), shown(after)),
            );
        }
    }

    fn properties(&mut self, at: &Place, old: &Value, new: &Value, dir: Direction) {
        let props = |schema: &Value| schema.get("properties").and_then(Value::as_object).cloned();
        let required = |schema: &Value| -> BTreeSet<String> {
            schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|r| r.as_str().map(str::to_owned))
                .collect()
        };
        let (before, after) = (
            props(old).unwrap_or_default(),
            props(new).unwrap_or_default(),
        );
        let (req_before, req_after) = (required(old), required(new));
        let names: BTreeSet<&String> = before
            .keys()
            .chain(after.keys())
            .chain(&req_before)
            .chain(&req_after)
            .collect();
        let word = if dir == Direction::Input {
            "parameter"
        } else {
            "output property"
        };
        for name in names {
            let here = at.key("properties").key(name);
            let (was, is) = (before.get(name), after.get(name));
            let (was_required, is_required) = (req_before.contains(name), req_after.contains(name));
            match (was.is_some(), is.is_some(), dir) {
                (true, false, Direction::Input) => self.push(
                    "input-removed",
                    &here,
                    was,
                    None,
                    format!("{word} {name:?} is gone"),
                ),
                (true, false, Direction::Output) => self.push(
                    "output-weakened",
                    &here,
                    was,
                    None,
                    format!("{word} {name:?} is gone"),
                ),
                (false, true, Direction::Input) if is_required => self.push(
                    "required-input-added",
                    &here,
                    None,
                    is,
                    format!("required {word} {name:?} is new"),
                ),
                (false, true, Direction::Input) => self.push(
                    "optional-input-added",
                    &here,
                    None,
                    is,
                    format!("optional {word} {name:?} is new"),
                ),
                (false, true, Direction::Output) => self.push(
                    "output-extended",
                    &here,
                    None,
                    is,
                    format!("{word} {name:?} is new"),
                ),
                (true, true, _) => {
                    self.schema(
                        &here,
                        was.unwrap_or(&Value::Null),
                        is.unwrap_or(&Value::Null),
                        dir,
                    );
                    self.requiredness(&here, name, (was_required, is_required), dir, word);
                }
                (false, false, _) => {
                    self.requiredness(&here, name, (was_required, is_required), dir, word);
                }
            }
        }
    }

    fn requiredness(
        &mut self,
        at: &Place,
        name: &str,
        (was, is): (bool, bool),
        dir: Direction,
        word: &str,
    ) {
        let (rule, detail) = match (was, is, dir) {
            (false, true, Direction::Input) => ("required-input-added", "is now required"),
            (true, false, Direction::Input) => ("input-widened", "is now optional"),
            (true, false, Direction::Output) => ("output-weakened", "is no longer required"),
            (false, true, Direction::Output) => ("output-extended", "is now required"),
            _ => return,
        };
        self.push(
            rule,
            at,
            Some(&Value::Bool(was)),
            Some(&Value::Bool(is)),
            format!("{word} {name:?} {detail}"),
        );
    }

    fn annotations(&mut self, at: &Place, old: Option<&Value>, new: Option<&Value>) {
        let hint =
            |v: Option<&Value>, key: &str| v.and_then(|a| a.get(key)).and_then(Value::as_bool);
        if old.is_some_and(|o| o.as_object().is_some_and(|m| !m.is_empty())) && new.is_none() {
            return self.push("annotation-lost", at, old, new, "the annotations are gone");
        }
        // (hint, what absent means)
        for (key, default) in [
            ("readOnlyHint", false),
            ("idempotentHint", false),
            ("destructiveHint", true),
            ("openWorldHint", true),
        ] {
            let (before, after) = (hint(old, key), hint(new, key));
            let (raw_before, raw_after) =
                (old.and_then(|a| a.get(key)), new.and_then(|a| a.get(key)));
            if raw_before == raw_after {
                continue;
            }
            let here = at.key(key);
            let (b, a) = (before.unwrap_or(default), after.unwrap_or(default));
            // The informative value is the one that is not the default.
            let says = |v: bool| v != default;
            let detail = format!(
                "{key} was {} and is {}",
                shown(raw_before),
                shown(raw_after)
            );
            match (says(b), says(a)) {
                (true, false) => self.push("annotation-lost", &here, raw_before, raw_after, detail),
                (false, true) => {
                    self.push("annotation-added", &here, raw_before, raw_after, detail)
                }
                _ => self.push(
                    "other-change",
                    &here,
                    raw_before,
                    raw_after,
                    format!("{detail} (the same meaning: absent means {default})"),
                ),
            }
        }
        let (empty, hints) = (
            Value::Null,
            [
                "readOnlyHint",
                "idempotentHint",
                "destructiveHint",
                "openWorldHint",
            ],
        );
        for key in keys(old.unwrap_or(&empty), new.unwrap_or(&empty)) {
            if hints.contains(&key.as_str()) {
                continue;
            }
            let (before, after) = (old.and_then(|a| a.get(&key)), new.and_then(|a| a.get(&key)));
            if before == after {
                continue;
            }
            let here = at.key(&key);
            match key.as_str() {
                "title" => self.text(&here, before, after),
                _ => self.other(&here, before, after),
            }
        }
    }

    /// A prompt's `arguments`: a list of named parameters.
    fn arguments(&mut self, at: &Place, old: Option<&Value>, new: Option<&Value>) {
        let named = |v: Option<&Value>| -> BTreeMap<String, (usize, Value)> {
            v.and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
                .filter_map(|(i, a)| Some((a.get("name")?.as_str()?.to_owned(), (i, a.clone()))))
                .collect()
        };
        let (before, after) = (named(old), named(new));
        let required = |a: &Value| a.get("required").and_then(Value::as_bool).unwrap_or(false);
        let names: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
        for name in names {
            let (was, is) = (before.get(name), after.get(name));
            let here = at.member(name, was.map(|w| w.0), is.map(|i| i.0));
            match (was, is) {
                (Some((_, w)), None) => self.push(
                    "input-removed",
                    &here,
                    Some(w),
                    None,
                    format!("argument {name:?} is gone"),
                ),
                (None, Some((_, i))) if required(i) => self.push(
                    "required-input-added",
                    &here,
                    None,
                    Some(i),
                    format!("required argument {name:?} is new"),
                ),
                (None, Some((_, i))) => self.push(
                    "optional-input-added",
                    &here,
                    None,
                    Some(i),
                    format!("optional argument {name:?} is new"),
                ),
                (Some((_, w)), Some((_, i))) if w != i => {
                    self.requiredness(
                        &here.key("required"),
                        name,
                        (required(w), required(i)),
                        Direction::Input,
                        "argument",
                    );
                    for key in keys(w, i) {
                        let (b, a) = (w.get(&key), i.get(&key));
                        if b == a || key == "required" || key == "name" {
                            continue;
                        }
                        match key.as_str() {
                            "description" | "title" => self.text(&here.key(&key), b, a),
                            _ => self.other(&here.key(&key), b, a),
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// The keys of two objects, in order, once each.
fn keys(old: &Value, new: &Value) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for value in [old, new] {
        if let Some(map) = value.as_object() {
            for key in map.keys() {
                if !keys.contains(key) {
                    keys.push(key.clone());
                }
            }
        }
    }
    keys
}

/// A value in a message: short JSON, or `absent`.
fn shown(value: Option<&Value>) -> String {
    match value {
        None => "absent".into(),
        Some(value) => {
            let text = value.to_string();
            if text.chars().count() > 60 {
                format!("{}…", text.chars().take(59).collect::<String>())
            } else {
                text
            }
        }
    }
}

fn shown_values(values: &[Value]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
