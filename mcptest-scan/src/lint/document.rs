//! The lint of the definitions document without calls: every rule that
//! needs none, its findings located (tool, parameter) and put in order.

use serde_json::Value;

use super::{finding::Finding, flow, pointer, security, surface, tokens::TokenCost, usability};

/// [`check`](super::check) over the definitions document and its token
/// cost.
pub(crate) fn check(doc: &Value, tokens: &TokenCost) -> Vec<Finding> {
    let mut findings = security::check(doc);
    usability::check(doc, &mut findings);
    surface::check(doc, tokens, &mut findings);
    flow::check(doc, &mut findings);
    locate(doc, &mut findings);
    findings
}

/// Fills in each finding's tool and parameter from its pointer, and puts
/// the findings in order: by rule id, then field.
pub(crate) fn locate(doc: &Value, findings: &mut [Finding]) {
    for finding in findings.iter_mut() {
        finding.tool = pointer::tool_of(doc, &finding.pointer);
        finding.parameter = pointer::parameter_of(&finding.pointer);
    }
    findings.sort_by(|a, b| {
        a.rule
            .id
            .cmp(b.rule.id)
            .then_with(|| pointer::order(&a.pointer, &b.pointer))
    });
}
