//! Drift with an impact: every change between two surfaces of a server
//! (a stored snapshot, a live server, or one of each), each classified by
//! what it does to the clients written for the old one.
//!
//! - **breaking**: something that worked stops working;
//! - **degrading**: it still works, but a model or a client knows less
//!   (a weaker description, a lost annotation);
//! - **compatible**: nothing that worked changes.
//!
//! Items are matched by name (tools, prompts), `uri` (resources) or
//! `uriTemplate` (templates), so a renamed item is one removal and one
//! addition. An input schema may widen and an output schema may narrow:
//! the same change to a type is breaking in one and compatible in the other.
//!
//! | id | rule | impact | when |
//! |----|------|--------|------|
//! | `MCPT-D001` | `item-removed` | breaking | a tool, prompt, resource or resource template is removed |
//! | `MCPT-D002` | `required-input-added` | breaking | a required parameter or prompt argument is added, or an optional one becomes required |
//! | `MCPT-D003` | `input-removed` | breaking | a parameter or prompt argument is removed |
//! | `MCPT-D004` | `input-type-narrowed` | breaking | a parameter accepts fewer types (a type dropped, `number` to `integer`, a `type` where there was none) |
//! | `MCPT-D005` | `input-enum-narrowed` | breaking | an `enum` loses values, or an `enum` or `const` appears |
//! | `MCPT-D006` | `input-constraint-tightened` | breaking | a bound tightened (`minimum`, `maxLength`, `minItems`, ...), `pattern`, `format` or `multipleOf` added or changed, `additionalProperties` or `items` closed, `uniqueItems: true` |
//! | `MCPT-D007` | `output-weakened` | breaking | the `outputSchema` removed, an output property removed or no longer required, an output type, enum or bound widened |
//! | `MCPT-D008` | `mime-type-changed` | breaking | a resource's or template's `mimeType` changed or removed |
//! | `MCPT-D009` | `schema-changed` | degrading | a part of a schema that cannot be ordered changed (`anyOf`, `oneOf`, `allOf`, `not`, `if`/`then`/`else`, `$ref`, `$defs`) |
//! | `MCPT-D010` | `description-weakened` | degrading | a description, title or `examples` removed or emptied, or a description shrunk to less than half |
//! | `MCPT-D011` | `annotation-lost` | degrading | `readOnlyHint` or `idempotentHint` no longer true, `destructiveHint` or `openWorldHint` no longer false (absent means true), the annotations removed |
//! | `MCPT-D012` | `default-changed` | degrading | a parameter's `default` changed, added or removed |
//! | `MCPT-D013` | `item-added` | compatible | a tool, prompt, resource or resource template is added |
//! | `MCPT-D014` | `optional-input-added` | compatible | an optional parameter or prompt argument is added |
//! | `MCPT-D015` | `input-widened` | compatible | a type or enum value added, a bound loosened, a constraint removed, a required parameter made optional |
//! | `MCPT-D016` | `output-extended` | compatible | an `outputSchema` added, an output property added or made required, an output type, enum or bound narrowed |
//! | `MCPT-D017` | `description-changed` | compatible | a description, title or `examples` added or reworded |
//! | `MCPT-D018` | `annotation-added` | compatible | a hint says more than before (`readOnlyHint: true`, `destructiveHint: false`, ...) |
//! | `MCPT-D019` | `other-change` | compatible | anything else (icons, a resource's name, vendor fields): shown, so that no change is silent |
//!
//! ```
//! use mcptest::scan::{drift::{self, Impact}, surface::Surface};
//! use serde_json::json;
//!
//! let old = Surface::from_value(&json!({"tools": [
//!     {"name": "search", "description": "Finds notes by text.", "inputSchema": {
//!         "type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}},
//!     {"name": "purge", "inputSchema": {"type": "object"}}
//! ]}));
//! let new = Surface::from_value(&json!({"tools": [
//!     {"name": "search", "description": "Finds notes by text.", "inputSchema": {
//!         "type": "object",
//!         "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
//!         "required": ["query"]}}
//! ]}));
//! let changes = drift::diff(&old, &new);
//! let rules: Vec<&str> = changes.iter().map(|c| c.rule.name).collect();
//! assert_eq!(rules, ["item-removed", "optional-input-added"]);
//! assert_eq!(drift::worst(&changes), Some(Impact::Breaking));
//! assert_eq!(changes[1].address.to_string(), "tools/search/inputSchema/properties/limit");
//! ```

mod compare;
mod rules;

use std::fmt;

use mcptest_core::{
    expect::{Evidence, Failure, Miss},
    report::{Outcome, Report, TestResult},
};
use serde_json::Value;

pub use rules::{DriftRule, Impact, RULES};

use crate::surface::{Address, Surface};

/// Which surface a change's pointer indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The old one (what is gone is only there).
    Old,
    /// The new one.
    New,
}

/// One change between two surfaces.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Change {
    /// The rule that classifies it.
    pub rule: &'static DriftRule,
    /// What changed, by name.
    pub address: Address,
    /// A JSON pointer to it in the surface [`side`](Change::side) names.
    pub pointer: String,
    /// The surface `pointer` indexes: the new one, or the old one for what is gone.
    pub side: Side,
    /// The value before (absent: `None`).
    pub old: Option<Value>,
    /// The value after (absent: `None`).
    pub new: Option<Value>,
    /// What changed, in words.
    pub detail: String,
}

impl Change {
    /// The change's impact (its rule's).
    pub fn impact(&self) -> Impact {
        self.rule.impact
    }

    /// The change as a report result: failed when its impact is at least
    /// `fail_on`, warned when degrading, passed otherwise; named
    /// `<id> <subject>: <detail>`.
    pub fn to_result(&self, fail_on: Impact) -> TestResult {
        let pretty = |v: &Option<Value>| match v {
            Some(v) => serde_json::to_string_pretty(v).expect("JSON values serialise"),
            None => "(absent)".into(),
        };
        let failure = || {
            Failure::new(
                Some(self.address.subject()),
                vec![Miss::new(
                    format!(
                        "no {} change ({} {}: {})",
                        self.rule.impact, self.rule.id, self.rule.name, self.rule.what
                    ),
                    Evidence::new()
                        .diff(pretty(&self.old), pretty(&self.new))
                        .note(format!(
                            "{}. Why it matters: {}",
                            self.detail, self.rule.why
                        )),
                )],
                Default::default(),
            )
        };
        let outcome = if self.impact() >= fail_on {
            Outcome::fail(failure())
        } else if self.impact() == Impact::Degrading {
            Outcome::warn(failure())
        } else {
            Outcome::Pass
        };
        TestResult::new(
            format!(
                "{} {}: {}",
                self.rule.id,
                self.address.subject(),
                self.detail
            ),
            outcome,
        )
        .group(self.rule.name)
        .property("rule", self.rule.id)
        .property("impact", self.rule.impact.as_str())
        .property("address", self.address.to_string())
        .property("pointer", self.pointer.clone())
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}: {}",
            self.rule.impact.as_str().to_uppercase(),
            self.rule.id,
            self.rule.name,
            self.address.subject(),
            self.detail
        )
    }
}

/// Every change from `old` to `new`, item by item (in the order of the
/// surface's lists and names), then by field.
pub fn diff(old: &Surface, new: &Surface) -> Vec<Change> {
    let mut differ = compare::Differ::default();
    differ.surfaces(old.value(), new.value());
    let mut changes = differ.changes;
    changes
        .sort_by(|a, b| (a.address.list, &a.address.name).cmp(&(b.address.list, &b.address.name)));
    changes
}

/// The highest impact among `changes`; `None` when there are none.
pub fn worst(changes: &[Change]) -> Option<Impact> {
    changes.iter().map(Change::impact).max()
}

/// The report of `changes`: one result per change (see
/// [`Change::to_result`]), or one passing result when there is none.
///
/// ```
/// use mcptest::scan::{drift::{self, Impact}, surface::Surface};
/// use serde_json::json;
///
/// let old = Surface::from_value(&json!({"tools": [{"name": "a", "description": "Adds two numbers."}]}));
/// let new = Surface::from_value(&json!({"tools": [{"name": "a"}]}));
/// let changes = drift::diff(&old, &new);
/// assert!(drift::report("drift", &changes, Impact::Breaking).passed(), "degrading only warns");
/// assert!(!drift::report("drift", &changes, Impact::Degrading).passed());
/// ```
pub fn report(title: impl Into<String>, changes: &[Change], fail_on: Impact) -> Report {
    let mut report = Report::new(title);
    if changes.is_empty() {
        report.push(TestResult::new("no change", Outcome::Pass).group("drift"));
    }
    for change in changes {
        report.push(change.to_result(fail_on));
    }
    report
}

#[cfg(test)]
mod tests;
