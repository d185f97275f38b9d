//! The drift rules: one per kind of change, each with its impact and the
//! reason for it. The table in the [module](super) docs is this table.

use std::fmt;

/// What a change does to the clients of the old surface, from least to most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Impact {
    /// Nothing that worked changes.
    Compatible,
    /// It still works; a model or client knows less.
    Degrading,
    /// Something that worked stops working.
    Breaking,
}

impl Impact {
    /// `compatible`, `degrading`, `breaking`.
    ///
    /// ```
    /// use mcptest::scan::drift::Impact;
    /// assert_eq!(Impact::Breaking.as_str(), "breaking");
    /// assert_eq!(Impact::parse("degrading"), Some(Impact::Degrading));
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Impact::Compatible => "compatible",
            Impact::Degrading => "degrading",
            Impact::Breaking => "breaking",
        }
    }

    /// The impact named `text` (as [`as_str`](Impact::as_str) writes it).
    pub fn parse(text: &str) -> Option<Impact> {
        [Impact::Compatible, Impact::Degrading, Impact::Breaking]
            .into_iter()
            .find(|i| i.as_str() == text)
    }
}

impl fmt::Display for Impact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One drift rule: a kind of change and its impact. See [`RULES`].
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DriftRule {
    /// `MCPT-D001`; never reused.
    pub id: &'static str,
    /// `item-removed`.
    pub name: &'static str,
    /// What it does to clients.
    pub impact: Impact,
    /// The changes it covers.
    pub what: &'static str,
    /// Why it has its impact.
    pub why: &'static str,
}

/// Every drift rule, by id.
pub static RULES: &[DriftRule] = &[
    DriftRule {
        id: "MCPT-D001",
        name: "item-removed",
        impact: Impact::Breaking,
        what: "a tool, prompt, resource or resource template is removed",
        why: "a client or agent that calls or reads it by name gets an error",
    },
    DriftRule {
        id: "MCPT-D002",
        name: "required-input-added",
        impact: Impact::Breaking,
        what: "a required parameter (or prompt argument) is added, or an optional one becomes required",
        why: "calls written for the old surface leave it out and are refused",
    },
    DriftRule {
        id: "MCPT-D003",
        name: "input-removed",
        impact: Impact::Breaking,
        what: "a parameter (or prompt argument) is removed",
        why: "calls that send it are refused, or its meaning is silently dropped",
    },
    DriftRule {
        id: "MCPT-D004",
        name: "input-type-narrowed",
        impact: Impact::Breaking,
        what: "a parameter accepts fewer types (a type dropped, number to integer, a type where there was none)",
        why: "values that were valid before are refused",
    },
    DriftRule {
        id: "MCPT-D005",
        name: "input-enum-narrowed",
        impact: Impact::Breaking,
        what: "an enum loses values, or an enum or const is added where any value went",
        why: "values that were valid before are refused",
    },
    DriftRule {
        id: "MCPT-D006",
        name: "input-constraint-tightened",
        impact: Impact::Breaking,
        what: "a bound is tightened (minimum, maximum, minLength, maxLength, minItems, maxItems, \
               minProperties, maxProperties), a pattern, format or multipleOf is added or changed, \
               additionalProperties becomes false, or uniqueItems becomes true",
        why: "values that were valid before are refused",
    },
    DriftRule {
        id: "MCPT-D007",
        name: "output-weakened",
        impact: Impact::Breaking,
        what: "an outputSchema is removed, an output property is removed or no longer required, \
               or an output type, enum or bound is widened",
        why: "clients that read structuredContent rely on what it promised",
    },
    DriftRule {
        id: "MCPT-D008",
        name: "mime-type-changed",
        impact: Impact::Breaking,
        what: "a resource's or template's mimeType changes or is removed",
        why: "clients decode the content by its type",
    },
    DriftRule {
        id: "MCPT-D009",
        name: "schema-changed",
        impact: Impact::Degrading,
        what: "a part of a schema that cannot be ordered changed (anyOf, oneOf, allOf, not, \
               if/then/else, $ref, $defs)",
        why: "whether old values are still valid cannot be told without the values: review it",
    },
    DriftRule {
        id: "MCPT-D010",
        name: "description-weakened",
        impact: Impact::Degrading,
        what: "a description, title or examples list is removed or emptied, or a description \
               shrinks to less than half its length",
        why: "a model picks tools and fills in arguments from these texts",
    },
    DriftRule {
        id: "MCPT-D011",
        name: "annotation-lost",
        impact: Impact::Degrading,
        what: "a tool annotation says less than before: readOnlyHint or idempotentHint no \
               longer true, destructiveHint or openWorldHint no longer false (absent means \
               true for both), or the annotations removed",
        why: "clients decide what to run without asking from these hints",
    },
    DriftRule {
        id: "MCPT-D012",
        name: "default-changed",
        impact: Impact::Degrading,
        what: "a parameter's default value changes, appears or disappears",
        why: "calls that leave the parameter out now mean something else",
    },
    DriftRule {
        id: "MCPT-D013",
        name: "item-added",
        impact: Impact::Compatible,
        what: "a tool, prompt, resource or resource template is added",
        why: "nothing that worked stops working",
    },
    DriftRule {
        id: "MCPT-D014",
        name: "optional-input-added",
        impact: Impact::Compatible,
        what: "an optional parameter (or prompt argument) is added",
        why: "old calls leave it out and still work",
    },
    DriftRule {
        id: "MCPT-D015",
        name: "input-widened",
        impact: Impact::Compatible,
        what: "a parameter accepts more: a type or enum value added, a bound loosened, a \
               pattern removed, a required parameter made optional",
        why: "every value that was valid still is",
    },
    DriftRule {
        id: "MCPT-D016",
        name: "output-extended",
        impact: Impact::Compatible,
        what: "an outputSchema is added, an output property added or made required, or an \
               output type, enum or bound narrowed",
        why: "what the tool promised still holds",
    },
    DriftRule {
        id: "MCPT-D017",
        name: "description-changed",
        impact: Impact::Compatible,
        what: "a description, title or examples list is added or reworded",
        why: "the text still says as much",
    },
    DriftRule {
        id: "MCPT-D018",
        name: "annotation-added",
        impact: Impact::Compatible,
        what: "a tool annotation says more than before (readOnlyHint true, destructiveHint \
               false, ...)",
        why: "clients learn more about the tool",
    },
    DriftRule {
        id: "MCPT-D019",
        name: "other-change",
        impact: Impact::Compatible,
        what: "any other field changes (icons, a resource's name or annotations, vendor fields)",
        why: "no client contract rests on it; shown so that no change is silent",
    },
];

/// The rule named `name` (a typo here is a bug: it panics in every test).
pub(super) fn rule(name: &str) -> &'static DriftRule {
    RULES
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no drift rule named {name:?}"))
}
