//! Server checks of the skills extension (SEP-2640,
//! `io.modelcontextprotocol/skills`): the declaration, `skills/list` and
//! the entries it lists, `skills/get`, and each skill's `SKILL.md` read
//! through `resources/read`.
//!
//! Every check but the declaration's runs only when `server/discover`
//! declares the extension under `capabilities.extensions`; otherwise it
//! cannot apply and is folded into one line of the table.
//!
//! What SEP-2640 fixes and the checks hold a server to: the declaration is
//! an object (`{}` is valid, `directoryRead` is optional) and needs the
//! `resources` capability; `skills/list` answers `{skills: [...]}`, paged
//! by `nextCursor`; an entry has a `uri` of the form
//! `skill://<name>/SKILL.md` whose last segment before `SKILL.md` is
//! `frontmatter.name`, a `frontmatter` with string `name` and
//! `description`, and `resources`: `"dynamic"` or a list of
//! `{uri, digest: "sha256:<64 hex>", size: <non-negative integer>}`; a
//! name has 1 to 64 of `a-z 0-9 -`, starts and ends with a letter or
//! digit, and has no `--`; `skills/get {uri}` answers `{skill: <entry>}`
//! without `nextCursor`, and an unknown uri with -32602; the entry's
//! `SKILL.md` is readable with `resources/read` and opens with a YAML
//! frontmatter equal to the entry's.

use serde_json::{Value, json};

use super::facts::{StatelessFacts, declares};
use super::listing::list_all;
use crate::model::{CannotApply, Checked, Observed, Problems};
use crate::support::message::{meta, stateless};
use crate::support::probe::{Ch, Headers, Probe};
use crate::support::revision::STATELESS;

/// The extension's identifier, a key of `capabilities.extensions`.
pub(crate) const EXTENSION: &str = "io.modelcontextprotocol/skills";
/// The most entries `skills/get` and `resources/read` are asked about.
const MAX_PROBED: usize = 5;
/// A skill URI no server serves.
const UNKNOWN_SKILL: &str = "skill://mcptest-no-such-skill/SKILL.md";

fn declaration(facts: &StatelessFacts) -> Option<Value> {
    let capabilities = facts.capabilities();
    capabilities
        .get("extensions")?
        .get(EXTENSION)
        .filter(|v| !v.is_null())
        .cloned()
}

/// The facts of a server that declares the extension; otherwise the
/// finding of a check that cannot apply.
pub(crate) fn gate(facts: &StatelessFacts) -> Result<&StatelessFacts, Observed> {
    match declaration(facts) {
        Some(_) => Ok(facts),
        None => Err(Observed::CannotApply(
            CannotApply::Extension,
            format!(
                "server/discover does not declare the skills extension \
                 (capabilities.extensions[\"{EXTENSION}\"])"
            ),
        )),
    }
}

/// `sep-2640-capability`: the declaration is an object (with a boolean
/// `directoryRead`, if any) and comes with the `resources` capability, as
/// a fresh `server/discover` (the evidence) says.
pub(crate) async fn capability(p: &mut Probe, facts: &StatelessFacts) -> Checked {
    gate(facts)?;
    let discover = |id| stateless(id, "server/discover", Value::Null, meta(STATELESS));
    let (_, reply) = p.open_call(discover, Headers::Derived).await?;
    let Some(capabilities) = reply.result().and_then(|r| r.get("capabilities")) else {
        return Ok(Observed::Broken(format!(
            "server/discover gave no capabilities: it got {}",
            reply.describe()
        )));
    };
    let declared = capabilities
        .get("extensions")
        .and_then(|e| e.get(EXTENSION))
        .cloned();
    let mut problems = Problems::default();
    match declared {
        Some(Value::Object(settings)) => {
            if let Some(read) = settings.get("directoryRead")
                && !read.is_boolean()
            {
                problems.push(format!("directoryRead is {read}, not a boolean"));
            }
        }
        other => problems.push(format!(
            "capabilities.extensions[\"{EXTENSION}\"] is {}, not an object",
            other.unwrap_or(Value::Null)
        )),
    }
    if !declares(capabilities, "resources") {
        problems
            .push("the skills extension is declared without the resources capability it rides on");
    }
    Ok(problems.into_finding())
}

/// Every entry of `skills/list`, following `nextCursor` (recorded).
async fn entries(p: &mut Probe) -> Result<(Ch, Vec<Value>), Observed> {
    let ch = p.open().await?;
    let (skills, _) =
        list_all(p, ch, "skills/list", "skills", Some(&meta(STATELESS)), true).await?;
    Ok((ch, skills))
}

/// `sep-2640-skills-list`: `skills/list` answers with a `skills` array on
/// every page, to the end of its cursors.
pub(crate) async fn skills_list(p: &mut Probe) -> Checked {
    let (_, skills) = entries(p).await?;
    Ok(Observed::Holds(Some(format!(
        "{} skill{} listed",
        skills.len(),
        if skills.len() == 1 { "" } else { "s" }
    ))))
}

/// Whether `name` follows the naming rule: 1 to 64 of `a-z 0-9 -`,
/// starting and ending with a letter or digit, without `--`.
fn valid_name(name: &str) -> bool {
    let alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let bytes = name.as_bytes();
    (1..=64).contains(&bytes.len())
        && bytes.iter().all(|&b| alnum(b) || b == b'-')
        && bytes.first().copied().is_some_and(alnum)
        && bytes.last().copied().is_some_and(alnum)
        && !name.contains("--")
}

/// `sha256:` and 64 lower- or upper-case hex digits.
fn valid_digest(digest: &str) -> bool {
    digest
        .strip_prefix("sha256:")
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The `<name>` of `skill://.../<name>/SKILL.md`.
fn name_in_uri(uri: &str) -> Option<&str> {
    let path = uri.strip_prefix("skill://")?.strip_suffix("/SKILL.md")?;
    path.rsplit('/').next().filter(|n| !n.is_empty())
}

/// What is wrong with one listed entry, each problem prefixed by `label`.
fn entry_problems(entry: &Value, label: &str, problems: &mut Problems) {
    let uri = entry.get("uri").and_then(Value::as_str);
    if uri.is_none() {
        problems.push(format!("{label} has no uri string"));
    }
    let frontmatter = entry.get("frontmatter").filter(|f| f.is_object());
    let name = frontmatter
        .and_then(|f| f.get("name"))
        .and_then(Value::as_str);
    match frontmatter {
        None => problems.push(format!("{label} has no frontmatter object")),
        Some(f) => {
            if name.is_none() {
                problems.push(format!(
                    "{label}: frontmatter.name is missing or not a string"
                ));
            }
            if !f.get("description").is_some_and(Value::is_string) {
                problems.push(format!(
                    "{label}: frontmatter.description is missing or not a string"
                ));
            }
        }
    }
    if let Some(name) = name
        && !valid_name(name)
    {
        problems.push(format!(
            "{label}: the name {name:?} breaks the naming rules (1 to 64 of a-z, 0-9 and -, \
             starting and ending with a letter or digit, no --)"
        ));
    }
    if let (Some(uri), Some(name)) = (uri, name) {
        match name_in_uri(uri) {
            Some(segment) if segment == name => {}
            Some(segment) => problems.push(format!(
                "{label}: the uri {uri:?} names {segment:?}, but frontmatter.name is {name:?}"
            )),
            None => problems.push(format!(
                "{label}: the uri {uri:?} is not of the form skill://<name>/SKILL.md"
            )),
        }
    }
    match entry.get("resources") {
        Some(Value::String(dynamic)) if dynamic == "dynamic" => {}
        Some(Value::Array(files)) => {
            for (i, file) in files.iter().enumerate() {
                let which = file
                    .get("uri")
                    .and_then(Value::as_str)
                    .map(|u| format!("resource {u:?}"))
                    .unwrap_or_else(|| format!("resource {i} (no uri string)"));
                if file.get("uri").and_then(Value::as_str).is_none() {
                    problems.push(format!("{label}: {which}"));
                }
                match file.get("digest").and_then(Value::as_str) {
                    Some(digest) if valid_digest(digest) => {}
                    other => problems.push(format!(
                        "{label}: {which} has digest {}, not sha256:<64 hex digits>",
                        other.map(|d| format!("{d:?}")).unwrap_or("none".into())
                    )),
                }
                if file.get("size").and_then(Value::as_u64).is_none() {
                    problems.push(format!(
                        "{label}: {which} has size {}, not a non-negative integer",
                        file.get("size").cloned().unwrap_or(Value::Null)
                    ));
                }
            }
        }
        other => problems.push(format!(
            "{label}: resources is {}, neither \"dynamic\" nor a list of files",
            other.cloned().unwrap_or(Value::Null)
        )),
    }
}

fn label(entry: &Value, i: usize) -> String {
    match entry.get("uri").and_then(Value::as_str) {
        Some(uri) => format!("the entry {uri:?}"),
        None => format!("entry {i}"),
    }
}

/// `sep-2640-skill-entries`: every listed entry is well formed.
pub(crate) async fn skill_entries(p: &mut Probe) -> Checked {
    let (_, skills) = entries(p).await?;
    if skills.is_empty() {
        return Ok(Observed::NotApplicable(
            "skills/list lists no skill to look at".into(),
        ));
    }
    let mut problems = Problems::default();
    for (i, entry) in skills.iter().enumerate() {
        entry_problems(entry, &label(entry, i), &mut problems);
    }
    Ok(problems.into_finding())
}

/// The first few listed entries that have a uri, or the finding when none.
async fn listed_uris(p: &mut Probe) -> Result<(Ch, Vec<(String, Value)>), Observed> {
    let (ch, skills) = entries(p).await?;
    let listed: Vec<(String, Value)> = skills
        .into_iter()
        .filter_map(|e| Some((e.get("uri")?.as_str()?.to_owned(), e)))
        .take(MAX_PROBED)
        .collect();
    if listed.is_empty() {
        return Err(Observed::NotApplicable(
            "skills/list lists no skill with a uri to ask about".into(),
        ));
    }
    Ok((ch, listed))
}

/// `sep-2640-skills-get`: `skills/get` of a listed uri answers
/// `{skill: <the listed entry>}`, without `nextCursor`.
pub(crate) async fn skills_get(p: &mut Probe) -> Checked {
    let (ch, listed) = listed_uris(p).await?;
    let mut problems = Problems::default();
    for (uri, entry) in listed {
        let reply = p
            .call_stateless(ch, "skills/get", json!({ "uri": uri }), meta(STATELESS))
            .await;
        let Some(result) = reply.result() else {
            problems.push(format!("skills/get of {uri:?} got {}", reply.describe()));
            continue;
        };
        if result.get("nextCursor").is_some() {
            problems.push(format!("skills/get of {uri:?} has a nextCursor"));
        }
        match result.get("skill") {
            Some(skill)
                if skill.get("uri") == entry.get("uri")
                    && skill.get("frontmatter") == entry.get("frontmatter")
                    && skill.get("resources") == entry.get("resources") => {}
            Some(skill) => problems.push(format!(
                "skills/get of {uri:?} answered the entry {skill}, but skills/list lists {entry}"
            )),
            None => problems.push(format!("skills/get of {uri:?} has no skill object")),
        }
    }
    Ok(problems.into_finding())
}

/// `sep-2640-skills-get-unknown-uri`: a uri the server does not serve is
/// -32602.
pub(crate) async fn skills_get_unknown_uri(p: &mut Probe) -> Checked {
    let ch = p.open().await?;
    let reply = p
        .call_stateless(
            ch,
            "skills/get",
            json!({ "uri": UNKNOWN_SKILL }),
            meta(STATELESS),
        )
        .await;
    Ok(match reply.code() {
        Some(-32602) => Observed::holds(),
        _ => Observed::Broken(format!(
            "skills/get of the unknown {UNKNOWN_SKILL:?} got {}, not error -32602",
            reply.describe()
        )),
    })
}

/// The YAML frontmatter at the top of a `SKILL.md`, as JSON.
fn frontmatter_of(text: &str) -> Result<Value, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or("it does not open with a --- line (YAML frontmatter)")?;
    let end = rest
        .lines()
        .scan(0usize, |offset, line| {
            let start = *offset;
            *offset += line.len() + 1;
            Some((start, line))
        })
        .find(|(_, line)| line.trim_end() == "---")
        .map(|(start, _)| start)
        .ok_or("its frontmatter has no closing --- line")?;
    serde_saphyr::from_str::<Value>(&rest[..end])
        .map_err(|e| format!("its frontmatter is not YAML: {e}"))
}

/// `sep-2640-skill-md`: each listed skill's `SKILL.md` is readable with
/// `resources/read` and opens with a YAML frontmatter equal to the entry's.
pub(crate) async fn skill_md(p: &mut Probe) -> Checked {
    let (ch, listed) = listed_uris(p).await?;
    let mut problems = Problems::default();
    for (uri, entry) in listed {
        let reply = p
            .call_stateless(ch, "resources/read", json!({ "uri": uri }), meta(STATELESS))
            .await;
        let text = reply
            .result()
            .and_then(|r| r.get("contents"))
            .and_then(Value::as_array)
            .and_then(|c| c.iter().find_map(|c| c.get("text").and_then(Value::as_str)));
        let Some(text) = text else {
            problems.push(format!(
                "resources/read of {uri:?} got {}, with no text contents",
                reply.describe()
            ));
            continue;
        };
        match frontmatter_of(text) {
            Err(why) => problems.push(format!("the SKILL.md of {uri:?}: {why}")),
            Ok(frontmatter) if Some(&frontmatter) != entry.get("frontmatter") => {
                problems.push(format!(
                    "the SKILL.md of {uri:?} has the frontmatter {frontmatter}, but skills/list \
                     lists {}",
                    entry.get("frontmatter").cloned().unwrap_or(Value::Null)
                ))
            }
            Ok(_) => {}
        }
    }
    Ok(problems.into_finding())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_naming_rules() {
        for good in ["a", "pdf-tools", "x2", &"a".repeat(64)] {
            assert!(valid_name(good), "{good}");
        }
        for bad in ["", "-a", "a-", "a--b", "A", "a_b", &"a".repeat(65)] {
            assert!(!valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn digests_are_sha256_hex_and_uris_name_the_skill() {
        assert!(valid_digest(&format!("sha256:{}", "0f".repeat(32))));
        assert!(!valid_digest(&format!("md5:{}", "0f".repeat(16))));
        assert!(!valid_digest("sha256:xyz"));
        assert_eq!(name_in_uri("skill://greeting/SKILL.md"), Some("greeting"));
        assert_eq!(
            name_in_uri("skill://a/b/greeting/SKILL.md"),
            Some("greeting")
        );
        assert_eq!(name_in_uri("file://greeting/SKILL.md"), None);
    }

    #[test]
    fn the_frontmatter_is_read_as_yaml() {
        let text = "---\nname: greeting\ndescription: Says hi.\n---\n# Greeting\n";
        assert_eq!(
            frontmatter_of(text).unwrap(),
            json!({"name": "greeting", "description": "Says hi."})
        );
        assert!(frontmatter_of("# no frontmatter").is_err());
        assert!(frontmatter_of("---\nname: x\n").is_err());
    }
}
