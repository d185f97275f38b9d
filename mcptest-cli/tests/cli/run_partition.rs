//! `mcptest run --partition` and `mcptest report merge`: every test in
//! exactly one shard, and the shards' reports merged equal the unsharded
//! run's in every format, up to timings.

use super::*;

fn workspace() -> Workspace {
    let files: Vec<(String, String)> = (1..=7)
        .map(|i| {
            let text = if i == 3 { FAILING } else { PASSING };
            (
                format!("evals/t{i}.yaml"),
                text.replace("name: adds", &format!("name: t{i} adds")),
            )
        })
        .collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    Workspace::new(&refs)
}

/// The report without what changes run to run.
fn timeless(mut json: serde_json::Value) -> serde_json::Value {
    json["duration_ms"] = 0.into();
    for result in json["results"].as_array_mut().unwrap() {
        result["duration_ms"] = 0.into();
    }
    json
}

fn names(json: &serde_json::Value) -> Vec<String> {
    json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn shards_hold_every_test_once_and_merge_into_the_unsharded_report() {
    let ws = workspace();
    let out = output(ws.run(&[
        "evals",
        "--json",
        "all.json",
        "--junit",
        "all.xml",
        "--markdown",
        "all.md",
    ]));
    assert_eq!(out.code, Some(1), "{out:?}");
    let all: serde_json::Value = serde_json::from_str(&ws.read("all.json")).unwrap();
    let mut all_names = names(&all);
    all_names.sort();
    for kind in ["count", "hash"] {
        let mut seen = Vec::new();
        let mut files = Vec::new();
        for k in 1..=3 {
            let file = format!("{kind}-{k}.json");
            let out = output(ws.run(&[
                "evals",
                "--partition",
                &format!("{kind}:{k}/3"),
                "--json",
                &file,
            ]));
            assert!(out.code == Some(0) || out.code == Some(1), "{out:?}");
            assert!(
                out.stdout.contains(&format!("(partition {kind}:{k}/3: ")),
                "{out:?}"
            );
            let shard: serde_json::Value = serde_json::from_str(&ws.read(&file)).unwrap();
            seen.extend(names(&shard));
            files.push(file);
        }
        seen.sort();
        assert_eq!(seen, all_names, "{kind}: every test in exactly one shard");
        if kind == "count" {
            for file in &files {
                let shard: serde_json::Value = serde_json::from_str(&ws.read(file)).unwrap();
                let n = names(&shard).len();
                assert!(n == 2 || n == 3, "{file}: {n} tests");
            }
        }
        let mut args = vec!["report", "merge"];
        args.extend(files.iter().map(String::as_str));
        args.extend([
            "--json",
            "merged.json",
            "--junit",
            "merged.xml",
            "--markdown",
            "merged.md",
        ]);
        let out = output(ws.mcptest(&args));
        assert_eq!(
            out.code,
            Some(1),
            "the merged run failed as the whole did: {out:?}"
        );
        assert!(out.stdout.contains("6 passed, 1 failed"), "{out:?}");
        let merged: serde_json::Value = serde_json::from_str(&ws.read("merged.json")).unwrap();
        assert_eq!(timeless(merged), timeless(all.clone()), "{kind}");
        // Numbers are timings here, or counts and names the JSON compared.
        let no_times = |text: String| -> String {
            let mut out = String::new();
            for c in text.chars() {
                if c.is_ascii_digit() || c == '.' {
                    if !out.ends_with('N') {
                        out.push('N');
                    }
                } else {
                    out.push(c);
                }
            }
            out
        };
        assert_eq!(
            no_times(ws.read("merged.xml")),
            no_times(ws.read("all.xml")),
            "{kind}"
        );
        assert_eq!(
            no_times(ws.read("merged.md")),
            no_times(ws.read("all.md")),
            "{kind}"
        );
    }
}

#[test]
fn an_empty_shard_passes_and_bad_partitions_say_why() {
    let ws = Workspace::new(&[("evals/a.yaml", PASSING)]);
    let out = output(ws.run(&["evals", "--partition", "count:2/2"]));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("this shard holds none of the 1 tests"),
        "{out:?}"
    );
    let out = output(ws.run(&["evals", "--partition", "slice:1/2"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("write it as count:K/N or hash:K/N"),
        "{out:?}"
    );
}

#[test]
fn merge_refuses_overlapping_shards_and_other_runs() {
    let ws = Workspace::new(&[("evals/a.yaml", PASSING), ("other/b.yaml", PASSING)]);
    assert_eq!(output(ws.run(&["evals", "--json", "a.json"])).code, Some(0));
    assert_eq!(output(ws.run(&["other", "--json", "b.json"])).code, Some(0));
    let out = output(ws.mcptest(&["report", "merge", "a.json", "a.json"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("the shards overlap"), "{out:?}");
    let out = output(ws.mcptest(&["report", "merge", "a.json", "b.json"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("shards of one run only"), "{out:?}");
    ws.write("bad.json", "{\"title\": 3}");
    let out = output(ws.mcptest(&["report", "merge", "bad.json"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("bad.json: no \"title\""), "{out:?}");
}
