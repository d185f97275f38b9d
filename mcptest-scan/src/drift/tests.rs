//! One pair of surfaces per drift rule, each giving exactly that rule, and
//! the report and ordering built on them.

use serde_json::{Value, json};

use super::*;

fn tool(input: Value) -> Value {
    json!({"name": "t", "description": "Does the thing to a file.", "inputSchema": input})
}

fn surface(tools: Value) -> Surface {
    Surface::from_value(&json!({ "tools": tools }))
}

fn rules_of(old: Value, new: Value) -> Vec<&'static str> {
    diff(&surface(old), &surface(new))
        .iter()
        .map(|c| c.rule.name)
        .collect()
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

/// Each rule, with an old and a new tool list that trip it and nothing else.
#[allow(clippy::too_many_lines, reason = "a table: one entry per rule")]
fn pairs() -> Vec<(&'static str, Value, Value)> {
    let string = json!({"type": "string"});
    let path = object(json!({"path": string}), &["path"]);
    let with_output = |output: Value| {
        let mut t = tool(path.clone());
        t["outputSchema"] = output;
        t
    };
    let annotated = |hints: Value| {
        let mut t = tool(path.clone());
        t["annotations"] = hints;
        t
    };
    let one_of = json!({"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}]}}});
    let one_of_more = json!({"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "null"}]}}});
    vec![
        ("item-removed", json!([tool(path.clone())]), json!([])),
        (
            "required-input-added",
            json!([tool(path.clone())]),
            json!([tool(object(
                json!({"path": string, "mode": string}),
                &["path", "mode"]
            ))]),
        ),
        (
            "input-removed",
            json!([tool(object(
                json!({"path": string, "mode": string}),
                &["path"]
            ))]),
            json!([tool(path.clone())]),
        ),
        (
            "input-type-narrowed",
            json!([tool(object(json!({"n": {"type": "number"}}), &[]))]),
            json!([tool(object(json!({"n": {"type": "integer"}}), &[]))]),
        ),
        (
            "input-enum-narrowed",
            json!([tool(object(
                json!({"m": {"type": "string", "enum": ["a", "b"]}}),
                &[]
            ))]),
            json!([tool(object(
                json!({"m": {"type": "string", "enum": ["a"]}}),
                &[]
            ))]),
        ),
        (
            "input-constraint-tightened",
            json!([tool(object(
                json!({"s": {"type": "string", "maxLength": 100}}),
                &[]
            ))]),
            json!([tool(object(
                json!({"s": {"type": "string", "maxLength": 10}}),
                &[]
            ))]),
        ),
        (
            "output-weakened",
            json!([with_output(object(
                json!({"size": {"type": "integer"}}),
                &["size"]
            ))]),
            json!([with_output(object(
                json!({"size": {"type": "integer"}}),
                &[]
            ))]),
        ),
        (
            "schema-changed",
            json!([tool(one_of)]),
            json!([tool(one_of_more)]),
        ),
        (
            "description-weakened",
            json!([tool(path.clone())]),
            json!([{"name": "t", "description": "Does.", "inputSchema": path}]),
        ),
        (
            "annotation-lost",
            json!([annotated(json!({"readOnlyHint": true}))]),
            json!([annotated(json!({"readOnlyHint": false}))]),
        ),
        (
            "default-changed",
            json!([tool(object(
                json!({"n": {"type": "integer", "default": 10}}),
                &[]
            ))]),
            json!([tool(object(
                json!({"n": {"type": "integer", "default": 100}}),
                &[]
            ))]),
        ),
        ("item-added", json!([]), json!([tool(path.clone())])),
        (
            "optional-input-added",
            json!([tool(path.clone())]),
            json!([tool(object(
                json!({"path": string, "mode": string}),
                &["path"]
            ))]),
        ),
        (
            "input-widened",
            json!([tool(object(json!({"n": {"type": "integer"}}), &[]))]),
            json!([tool(object(
                json!({"n": {"type": ["integer", "string"]}}),
                &[]
            ))]),
        ),
        (
            "output-extended",
            json!([with_output(object(
                json!({"size": {"type": "integer"}}),
                &[]
            ))]),
            json!([with_output(object(
                json!({"size": {"type": "integer"}, "mtime": string}),
                &[]
            ))]),
        ),
        (
            "description-changed",
            json!([tool(path.clone())]),
            json!([{"name": "t", "description": "Does the same thing to a file.", "inputSchema": path}]),
        ),
        (
            "annotation-added",
            json!([tool(path.clone())]),
            json!([annotated(json!({"destructiveHint": false}))]),
        ),
        (
            "other-change",
            json!([tool(path.clone())]),
            json!([{"name": "t", "description": "Does the thing to a file.", "inputSchema": path,
                    "icons": [{"src": "data:,"}]}]),
        ),
    ]
}

#[test]
fn every_rule_has_a_pair_that_trips_it_alone() {
    let pairs = pairs();
    for (rule, old, new) in &pairs {
        assert_eq!(
            rules_of(old.clone(), new.clone()),
            [*rule],
            "{old}\n->\n{new}"
        );
    }
    // mime-type-changed is about resources.
    let resource =
        |mime: &str| json!({"resources": [{"uri": "a://b", "name": "b", "mimeType": mime}]});
    let changes = diff(
        &Surface::from_value(&resource("text/plain")),
        &Surface::from_value(&resource("application/json")),
    );
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].rule.name, "mime-type-changed");
    assert_eq!(changes[0].address.to_string(), "resources/a://b/mimeType");
    let covered: Vec<&str> = pairs
        .iter()
        .map(|(r, ..)| *r)
        .chain(["mime-type-changed"])
        .collect();
    for rule in RULES {
        assert!(covered.contains(&rule.name), "no pair for {}", rule.name);
    }
}

#[test]
fn every_impact_has_pairs_and_the_worst_wins() {
    for impact in [Impact::Breaking, Impact::Degrading, Impact::Compatible] {
        let pairs: Vec<_> = pairs()
            .into_iter()
            .filter(|(rule, ..)| rules::rule(rule).impact == impact)
            .collect();
        assert!(pairs.len() >= 3, "{impact}: {}", pairs.len());
        for (_, old, new) in pairs {
            assert_eq!(worst(&diff(&surface(old), &surface(new))), Some(impact));
        }
    }
    assert_eq!(worst(&[]), None);
}

#[test]
fn rule_ids_are_unique_in_order_and_grouped_by_impact() {
    let ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(ids, sorted);
    let impacts: Vec<Impact> = RULES.iter().map(|r| r.impact).collect();
    let mut descending = impacts.clone();
    descending.sort_by(|a, b| b.cmp(a));
    assert_eq!(impacts, descending);
}

#[test]
fn the_same_type_change_is_breaking_in_and_compatible_out() {
    let narrow = |schema: Value| object(json!({"n": schema}), &[]);
    let input = rules_of(
        json!([tool(narrow(json!({"type": ["integer", "null"]})))]),
        json!([tool(narrow(json!({"type": "integer"})))]),
    );
    assert_eq!(input, ["input-type-narrowed"]);
    let output = |schema: Value| {
        let mut t = tool(json!({"type": "object"}));
        t["outputSchema"] = narrow(schema);
        t
    };
    let out = rules_of(
        json!([output(json!({"type": ["integer", "null"]}))]),
        json!([output(json!({"type": "integer"}))]),
    );
    assert_eq!(out, ["output-extended"]);
    let out = rules_of(
        json!([output(json!({"type": "integer"}))]),
        json!([output(json!({"type": "number"}))]),
    );
    assert_eq!(out, ["output-weakened"]);
}

#[test]
fn nested_objects_and_items_are_compared_in_the_same_direction() {
    let nested = |inner: Value| {
        object(
            json!({"filter": {"type": "object", "properties": {"tags": {"type": "array", "items": inner}}}}),
            &[],
        )
    };
    let changes = diff(
        &surface(json!([tool(nested(json!({"type": "string"})))])),
        &surface(json!([tool(nested(
            json!({"type": "string", "pattern": "^[a-z]+$"})
        ))])),
    );
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0].rule.name, "input-constraint-tightened");
    assert_eq!(
        changes[0].address.to_string(),
        "tools/t/inputSchema/properties/filter/properties/tags/items/pattern"
    );
    assert_eq!(changes[0].address.parameter(), Some("filter"));
    assert_eq!(
        changes[0].pointer,
        "/tools/0/inputSchema/properties/filter/properties/tags/items/pattern"
    );
}

#[test]
fn closing_additional_properties_and_absent_hint_defaults() {
    let open = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let mut closed = open.clone();
    closed["additionalProperties"] = json!(false);
    assert_eq!(
        rules_of(json!([tool(open.clone())]), json!([tool(closed.clone())])),
        ["input-constraint-tightened"]
    );
    assert_eq!(
        rules_of(json!([tool(closed)]), json!([tool(open.clone())])),
        ["input-widened"]
    );
    let hinted = |hints: Value| {
        let mut t = tool(open.clone());
        t["annotations"] = hints;
        t
    };
    // destructiveHint: absent means true, so false -> absent loses the hint.
    assert_eq!(
        rules_of(
            json!([hinted(json!({"destructiveHint": false}))]),
            json!([hinted(json!({}))])
        ),
        ["annotation-lost"]
    );
    assert_eq!(
        rules_of(
            json!([hinted(json!({"destructiveHint": true}))]),
            json!([hinted(json!({}))])
        ),
        ["other-change"],
        "the same meaning"
    );
    assert_eq!(
        rules_of(
            json!([hinted(json!({"readOnlyHint": true}))]),
            json!([tool(open)])
        ),
        ["annotation-lost"]
    );
}

#[test]
fn prompt_arguments_are_parameters_by_name() {
    let prompt = |args: Value| json!({"prompts": [{"name": "p", "description": "Reviews code.", "arguments": args}]});
    let changes = diff(
        &Surface::from_value(&prompt(
            json!([{"name": "code", "required": true}, {"name": "lang"}]),
        )),
        &Surface::from_value(&prompt(
            json!([{"name": "lang", "required": true}, {"name": "style"}]),
        )),
    );
    let found: Vec<(&str, String)> = changes
        .iter()
        .map(|c| (c.rule.name, c.address.to_string()))
        .collect();
    assert_eq!(
        found,
        [
            ("input-removed", "prompts/p/arguments/code".into()),
            (
                "required-input-added",
                "prompts/p/arguments/lang/required".into()
            ),
            ("optional-input-added", "prompts/p/arguments/style".into()),
        ]
    );
    assert_eq!(changes[0].side, Side::Old);
    assert_eq!(changes[0].pointer, "/prompts/0/arguments/0");
    assert_eq!(changes[1].pointer, "/prompts/0/arguments/0/required");
    assert_eq!(
        changes[1].address.subject(),
        "prompt \"p\" argument \"lang\""
    );
}

#[test]
fn the_report_fails_at_the_threshold_warns_degrading_and_passes_the_rest() {
    let changes = diff(
        &surface(json!([tool(json!({"type": "object"})), {"name": "gone"}])),
        &surface(json!([{"name": "t", "inputSchema": {"type": "object"}}, {"name": "new"}])),
    );
    let impacts: Vec<Impact> = changes.iter().map(Change::impact).collect();
    assert_eq!(
        impacts,
        [Impact::Breaking, Impact::Compatible, Impact::Degrading]
    );
    let report = report("drift", &changes, Impact::Breaking);
    let statuses: Vec<&str> = report.results.iter().map(|r| r.status().as_str()).collect();
    assert_eq!(statuses, ["FAIL", "PASS", "WARN"]);
    let failure = report.results[0].outcome.failure().unwrap().to_string();
    assert!(
        failure.contains("no breaking change (MCPT-D001 item-removed: a tool, prompt"),
        "{failure}"
    );
    assert!(failure.contains("Why it matters"), "{failure}");
    assert_eq!(
        report.results[2].property_value("address"),
        Some("tools/t/description")
    );
    let none = super::report("drift", &[], Impact::Breaking);
    assert!(none.passed());
    assert_eq!(none.results[0].name, "no change");
}
