//! The skills extension (SEP-2640): one skill, `greeting`, listed by
//! `skills/list`, returned by `skills/get` and read as a resource; and the
//! breakages that each fail one `sep-2640-*` check.

use rmcp::{ErrorData, model::ReadResourceResponse};
use serde_json::{Value, json};

use super::{
    Breakage::{self, *},
    Breakages, typed,
};

/// The skill's `SKILL.md`.
pub const SKILL_URI: &str = "skill://greeting/SKILL.md";
const SKILL_MD: &str = "---\nname: greeting\ndescription: Greets the user by name.\n---\n\n# Greeting\n\nSay hello to the user, by name when you know it.\n";
/// `sha256:` of [`SKILL_MD`]'s bytes, and their count.
const SKILL_MD_DIGEST: &str =
    "sha256:72a17777f280be89a4423f0e4b9c16522ab7eb5063939e25f63a4bfb709fe023";
const SKILL_MD_SIZE: u64 = 123;

/// The listed entry.
fn entry(breakages: &Breakages) -> Value {
    let digest = match breakages.has(SkillBadDigest) {
        true => "md5:0123456789abcdef0123456789abcdef",
        false => SKILL_MD_DIGEST,
    };
    json!({
        "uri": SKILL_URI,
        "frontmatter": { "name": "greeting", "description": "Greets the user by name." },
        "resources": [{ "uri": SKILL_URI, "digest": digest, "size": SKILL_MD_SIZE }],
    })
}

fn broken(breakages: &Breakages, breakage: Breakage) -> bool {
    breakages.has(breakage)
}

/// `skills/list`: one page with the one skill.
pub fn list(breakages: &Breakages) -> Result<rmcp::model::ListSkillsResult, ErrorData> {
    if broken(breakages, SkillsListMissing) {
        return Err(ErrorData::new(
            rmcp::model::ErrorCode::METHOD_NOT_FOUND,
            "skills/list is not served",
            None,
        ));
    }
    Ok(typed(json!({ "skills": [entry(breakages)] })))
}

/// `skills/get`: the entry, or -32602 for a uri that is no skill.
pub fn get(breakages: &Breakages, uri: &str) -> Result<rmcp::model::GetSkillResult, ErrorData> {
    if uri != SKILL_URI {
        if broken(breakages, SkillsGetUnknownSucceeds) {
            return Ok(typed(json!({ "skill": entry(breakages) })));
        }
        return Err(ErrorData::invalid_params(format!("no skill {uri}"), None));
    }
    let mut skill = entry(breakages);
    if broken(breakages, SkillsGetOtherEntry) {
        skill["frontmatter"]["description"] = json!("Something else.");
    }
    Ok(typed(json!({ "skill": skill })))
}

/// `resources/read` of the skill's `SKILL.md`, when `uri` is it.
pub fn read(breakages: &Breakages, uri: &str) -> Option<ReadResourceResponse> {
    if uri != SKILL_URI {
        return None;
    }
    let text = match broken(breakages, SkillMdFrontmatterDiffers) {
        true => SKILL_MD.replace("Greets the user by name.", "Waves."),
        false => SKILL_MD.to_owned(),
    };
    Some(ReadResourceResponse::Complete(typed(json!({
        "resultType": "complete",
        "contents": [{ "uri": uri, "mimeType": "text/markdown", "text": text }],
    }))))
}

/// `--skills-capability-not-object`: the declaration in a
/// `server/discover` result becomes `true`.
pub fn bend_discover(breakages: &Breakages, result: &mut Value) {
    if broken(breakages, SkillsCapabilityNotObject)
        && let Some(extensions) = result
            .get_mut("capabilities")
            .and_then(|c| c.get_mut("extensions"))
            .and_then(Value::as_object_mut)
    {
        extensions.insert(rmcp::model::SKILLS_EXTENSION_ID.into(), json!(true));
    }
}
