use super::*;

#[test]
fn trials_give_pass_at_k_and_pass_hat_k_in_every_report() {
    let ws = Workspace::new(&[("suite/add.yaml", PASSING), ("suite/bad.yaml", FAILING)]);
    let out = output(ws.run(&[
        "suite",
        "--trials",
        "3",
        "--json",
        "r.json",
        "--junit",
        "r.xml",
        "--markdown",
        "r.md",
    ]));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout
            .contains("(3 trials each: pass@3 50%, pass^3 50%)"),
        "{out:?}"
    );
    let json: serde_json::Value = serde_json::from_str(&ws.read("r.json")).unwrap();
    assert_eq!(
        json["results"][0]["properties"],
        serde_json::json!({"trials": "3", "passed trials": "3", "pass@3": "true", "pass^3": "true"})
    );
    assert_eq!(json["results"][1]["properties"]["pass@3"], "false");
    assert!(
        ws.read("r.xml")
            .contains(r#"<property name="pass^3" value="true"/>"#)
    );
    let md = ws.read("r.md");
    assert!(md.contains("| adds | 3/3 | ✅ | ✅ |"), "{md}");
    assert!(md.contains("| adds wrong | 0/3 | ❌ | ❌ |"), "{md}");
    let out = output(ws.run(&["suite", "--trials", "0"]));
    assert_eq!(out.code, Some(2), "{out:?}");
}

#[test]
fn only_pass_to_non_pass_is_a_regression() {
    let ws = Workspace::new(&[("suite/add.yaml", PASSING), ("suite/bad.yaml", FAILING)]);
    let out = output(ws.run(&["suite", "--save-baseline", "baseline.json"]));
    assert_eq!(out.code, Some(1), "{out:?}");
    let saved: serde_json::Value = serde_json::from_str(&ws.read("baseline.json")).unwrap();
    assert_eq!(
        saved,
        serde_json::json!({"tests": {"suite/add.yaml::adds": "pass", "suite/bad.yaml::adds wrong": "fail"}})
    );

    // The same failures again: known, so the run passes against the baseline.
    let out = output(ws.run(&["suite", "--baseline", "baseline.json"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout
            .contains("baseline: 0 regressions, 1 known failure, 0 new failures, 0 missing"),
        "{out:?}"
    );

    // A test that passed breaks: a regression, exit 3.
    ws.write("suite/add.yaml", &PASSING.replace("[\"5\"]", "[\"7\"]"));
    let out = output(ws.run(&["suite", "--baseline", "baseline.json"]));
    assert_eq!(out.code, Some(3), "{out:?}");
    assert!(
        out.stdout
            .contains("regression: suite/add.yaml::adds passed in the baseline"),
        "{out:?}"
    );

    // A new failing test is a failure, not a regression.
    ws.write("suite/add.yaml", PASSING);
    ws.write(
        "suite/new.yaml",
        &FAILING.replace("adds wrong", "new and wrong"),
    );
    let out = output(ws.run(&["suite", "--baseline", "baseline.json"]));
    assert_eq!(out.code, Some(1), "{out:?}");

    ws.write("broken.json", "[1, 2");
    let out = output(ws.run(&["suite", "--baseline", "broken.json"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("broken.json:1:"), "{out:?}");
}
