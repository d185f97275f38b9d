//! `mcptest::scan::drift` on the stored tool-surface snapshot of
//! `fixture-everything` and the live server: no drift between the two, and
//! an edited copy of the snapshot that drifts once per impact, with SARIF
//! results at the edited lines.

use mcptest::{
    Server,
    scan::{
        drift::{self, Impact},
        sarif::SarifLog,
        surface::Surface,
    },
};
use mcptest_tests::everything::Everything;

use crate::sarif::{assert_valid_sarif, line_of};

const SNAPSHOT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/integration/snapshots/integration__snapshot__the_tool_surface_is_pinned_sorted_and_without_volatile_fields.snap"
);

#[tokio::test]
async fn the_stored_snapshot_and_the_live_server_do_not_drift() {
    let stored = Surface::load(SNAPSHOT).unwrap();
    let live = Surface::list(&Server::in_process(Everything::default()))
        .await
        .unwrap();
    assert!(stored.value()["tools"].as_array().unwrap().len() > 10);
    assert_eq!(drift::diff(&stored, &live), []);
}

/// Replaces the first `from` of `text`, which must be there.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} is not in the snapshot");
    text.replacen(from, to, 1)
}

#[tokio::test]
async fn an_edited_snapshot_drifts_once_per_impact_and_sarif_points_at_the_edits() {
    let old_text = std::fs::read_to_string(SNAPSHOT).unwrap();
    // Breaking: `weather`'s city gets a maxLength. Degrading: `read_file`
    // loses readOnlyHint. Compatible: `fail` says more.
    let new_text = edit(
        &old_text,
        "        city:\n          description: City to report on.\n          type: string\n",
        "        city:\n          description: City to report on.\n          maxLength: 20\n          type: string\n",
    );
    let new_text = edit(
        &new_text,
        "  - annotations:\n      readOnlyHint: true\n    description: \"Reads a text file",
        "  - description: \"Reads a text file",
    );
    let new_text = edit(
        &new_text,
        "description: \"Always returns a tool error (isError: true).\"",
        "description: \"Always returns a tool error (isError: true), whatever it is sent.\"",
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("surface.snap");
    std::fs::write(&path, &new_text).unwrap();
    let old = Surface::load(SNAPSHOT).unwrap();
    let new = Surface::load(&path).unwrap();
    let changes = drift::diff(&old, &new);
    let found: Vec<(&str, String, Impact)> = changes
        .iter()
        .map(|c| (c.rule.name, c.address.to_string(), c.impact()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "description-changed",
                "tools/fail/description".into(),
                Impact::Compatible
            ),
            (
                "annotation-lost",
                "tools/read_file/annotations".into(),
                Impact::Degrading
            ),
            (
                "input-constraint-tightened",
                "tools/weather/inputSchema/properties/city/maxLength".into(),
                Impact::Breaking
            ),
        ]
    );
    assert_eq!(drift::worst(&changes), Some(Impact::Breaking));
    assert!(!drift::report("drift", &changes, Impact::Breaking).passed());

    let log = SarifLog::drift(&changes)
        .anchor(new.file().unwrap().clone())
        .to_json();
    let results = assert_valid_sarif(&log);
    let lines: Vec<(&str, i64)> = results
        .iter()
        .map(|r| {
            (
                r["level"].as_str().unwrap(),
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                    .as_i64()
                    .unwrap(),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            ("note", line_of(&new_text, "whatever it is sent")),
            // The annotation is gone from the new file: the tool's line.
            ("warning", line_of(&new_text, "Reads a text file")),
            ("error", line_of(&new_text, "maxLength: 20")),
        ]
    );
}
