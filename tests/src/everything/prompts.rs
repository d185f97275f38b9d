//! Prompts and argument completion.

use rmcp::{
    ErrorData,
    handler::server::wrapper::Parameters,
    model::{
        CompleteRequestParams, CompleteResult, CompletionInfo, PromptMessage, Reference, Role,
    },
    prompt, prompt_router,
};
use serde::Deserialize;

use super::{Everything, resources::ITEMS_TEMPLATE};

/// The order `prompts/list` presents prompts in: simplest first, as documented,
/// rather than the router's alphabetical order.
pub(super) const PROMPT_ORDER: &[&str] = &["simple", "greeting", "code_review"];

const STYLES: &[&str] = &["formal", "casual", "pirate"];
const LANGUAGES: &[&str] = &["rust", "python", "typescript", "go", "ruby"];
const ITEM_IDS: &[&str] = &["1", "2", "3", "10", "42"];

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct GreetingArgs {
    /// Who to greet.
    name: String,
    /// One of "formal", "casual" or "pirate"; anything else greets plainly.
    style: Option<String>,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(super) struct CodeReviewArgs {
    /// Language the code is written in.
    language: String,
    /// The code to review.
    code: String,
}

#[prompt_router(vis = "pub(super)")]
impl Everything {
    #[prompt(name = "simple", description = "A prompt without arguments.")]
    fn simple_prompt(&self) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(
            Role::User,
            "This is a simple prompt.",
        )]
    }

    #[prompt(name = "greeting", description = "Greets someone in a chosen style.")]
    fn greeting_prompt(&self, Parameters(args): Parameters<GreetingArgs>) -> Vec<PromptMessage> {
        let name = args.name;
        let text = match args.style.as_deref() {
            Some("formal") => format!("Good day, {name}."),
            Some("pirate") => format!("Ahoy, {name}!"),
            _ => format!("Hello, {name}!"),
        };
        vec![PromptMessage::new_text(Role::User, text)]
    }

    #[prompt(
        name = "code_review",
        description = "Asks for a review of a piece of code."
    )]
    fn code_review_prompt(
        &self,
        Parameters(args): Parameters<CodeReviewArgs>,
    ) -> Vec<PromptMessage> {
        vec![
            PromptMessage::new_text(
                Role::User,
                format!("Review this {} code:\n{}", args.language, args.code),
            ),
            PromptMessage::new_text(Role::Assistant, "I will review it."),
        ]
    }
}

/// `completion/complete`: prefix matches from a fixed list per (reference, argument);
/// anything else completes to nothing rather than failing, as the spec suggests.
pub(super) fn complete(request: &CompleteRequestParams) -> Result<CompleteResult, ErrorData> {
    let candidates: &[&str] = match (&request.r#ref, request.argument.name.as_str()) {
        (Reference::Prompt(prompt), "style") if prompt.name == "greeting" => STYLES,
        (Reference::Prompt(prompt), "language") if prompt.name == "code_review" => LANGUAGES,
        (Reference::Resource(resource), "id") if resource.uri == ITEMS_TEMPLATE => ITEM_IDS,
        _ => &[],
    };
    let prefix = request.argument.value.as_str();
    let values = candidates
        .iter()
        .filter(|candidate| candidate.starts_with(prefix))
        .map(|candidate| candidate.to_string())
        .collect();
    let completion =
        CompletionInfo::with_all_values(values).map_err(|e| ErrorData::internal_error(e, None))?;
    Ok(CompleteResult::new(completion))
}

#[cfg(test)]
mod tests {
    use rmcp::model::ArgumentInfo;

    use super::*;

    fn values(reference: Reference, name: &str, value: &str) -> Vec<String> {
        let request = CompleteRequestParams::new(reference, ArgumentInfo::new(name, value));
        let completion = complete(&request).unwrap().completion;
        assert_eq!(completion.total, Some(completion.values.len() as u32));
        assert_eq!(completion.has_more, Some(false));
        completion.values
    }

    #[test]
    fn completes_by_prefix() {
        assert_eq!(
            values(Reference::for_prompt("greeting"), "style", "f"),
            ["formal"]
        );
        assert_eq!(
            values(Reference::for_prompt("code_review"), "language", "r"),
            ["rust", "ruby"]
        );
        assert_eq!(
            values(Reference::for_resource(ITEMS_TEMPLATE), "id", "1"),
            ["1", "10"]
        );
        assert!(values(Reference::for_prompt("simple"), "x", "").is_empty());
    }
}
