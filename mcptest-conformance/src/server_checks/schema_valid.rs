//! `mcp-wire-schema-valid`: every message the server sent during the run
//! fits the official schema of the revision it was sent under. The
//! [`SchemaLedger`](crate::support::schema_ledger::SchemaLedger) has held
//! each exchange as it happened, so the check, which runs after every other
//! server check, judges the whole run.

use serde_json::Value;

use super::facts::Facts;
use crate::model::{CannotApply, Checked, Exchange, Observed};
use crate::support::message::{meta, request, stateless};
use crate::support::probe::Probe;
use crate::support::revision::STATELESS;
use mcptest_core::WireSchema;

/// The lists every check starts from; the check reads them itself so that
/// it judges something even when it runs alone (`--only`).
const LISTS: &[&str] = &[
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
];

/// The check: every judged message fits its revision's schema. It first
/// reads the four lists in each era the server speaks (an undeclared one
/// is answered with an error, which the schema judges too), then judges
/// everything the run has seen.
pub(crate) async fn wire_schema_valid(p: &mut Probe, f: &Facts) -> Checked {
    if f.classic().is_ok()
        && let Ok((ch, _)) = p.classic_session().await
    {
        for method in LISTS {
            let id = p.id();
            let _ = p.call_quietly(ch, request(id, method, Value::Null)).await;
        }
    }
    if f.stateless().is_ok() {
        let ch = p.open().await?;
        for method in LISTS {
            let id = p.id();
            let message = stateless(id, method, Value::Null, meta(STATELESS));
            let _ = p.call_quietly(ch, message).await;
        }
    }
    judge(p)
}

/// The finding from everything the ledger holds.
fn judge(p: &mut Probe) -> Checked {
    let ledger = &p.schema;
    if ledger.checked == 0 {
        return Err(Observed::CannotApply(
            CannotApply::Revision,
            format!(
                "no message of the run was sent under a revision the official schema covers ({})",
                WireSchema::REVISIONS.join(", ")
            ),
        ));
    }
    let revisions = ledger
        .revisions
        .iter()
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if ledger.found.is_empty() {
        return Ok(Observed::Holds(Some(format!(
            "{} message(s) fit the schema of {revisions}",
            ledger.checked
        ))));
    }
    let broken = ledger.found.len() + ledger.more;
    let mut reason = format!(
        "{broken} of {} message(s) break the official schema:",
        ledger.checked
    );
    for (violation, _) in &ledger.found {
        reason.push_str(&format!("\n- {violation}"));
    }
    if ledger.more > 0 {
        reason.push_str(&format!("\n… and {} more", ledger.more));
    }
    let evidence: Vec<Exchange> = ledger.found.iter().map(|(_, e)| e.clone()).collect();
    for exchange in evidence {
        p.cite(exchange);
    }
    Ok(Observed::Broken(reason))
}
