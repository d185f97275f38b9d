//! What a server's definitions cost in a model's context, in tokens of a
//! real tokenizer: OpenAI's `o200k_base` byte-pair encoding (the GPT-4o,
//! GPT-4.1 and o-series vocabulary), which `tiktoken-rs` ships. A client
//! sends the tool list with every request, so these are per-turn costs.
//!
//! A definition is counted as the compact JSON a client receives (clients
//! render tools into their own prompt formats, which differ by a few tokens
//! per tool; the JSON is the measure every client starts from).

use serde::Serialize;
use serde_json::Value;

use mcptest_core::Definitions;

/// The tokenizer's name, as reports give it.
pub const ENCODING: &str = "o200k_base";

/// How many `o200k_base` tokens `text` is.
///
/// ```
/// use mcptest::scan::lint::count_tokens;
/// assert_eq!(count_tokens("hello world"), 2);
/// assert_eq!(count_tokens(""), 0);
/// ```
pub fn count_tokens(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    tiktoken_rs::o200k_base_singleton().count_ordinary(text)
}

/// The tokens of one tool's definition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ToolTokens {
    /// The tool's name.
    pub tool: String,
    /// Where it is: `/tools/3`.
    pub pointer: String,
    /// Its definition's tokens.
    pub tokens: usize,
}

/// What the definitions cost, per tool and in all: `o200k_base` tokens of
/// the compact JSON a client receives.
///
/// ```
/// use mcptest::scan::lint::{Definitions, token_cost};
/// use serde_json::json;
///
/// let defs = Definitions::from_json(json!({"tools": [
///     {"name": "add", "description": "Adds two numbers.", "inputSchema": {"type": "object"}}
/// ]})).unwrap();
/// let cost = token_cost(&defs);
/// assert_eq!(cost.tools.len(), 1);
/// assert!(cost.tools[0].tokens > 10 && cost.tools_list > cost.tools[0].tokens);
/// assert!(cost.surface >= cost.tools_list);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TokenCost {
    /// The tokenizer: [`ENCODING`].
    pub encoding: &'static str,
    /// The `tools/list` result, `{"tools": [...]}`.
    pub tools_list: usize,
    /// Everything listed: the instructions, tools, prompts, resources and
    /// resource templates.
    pub surface: usize,
    /// Each tool, in listing order.
    pub tools: Vec<ToolTokens>,
}

/// The token cost of `definitions`.
pub fn token_cost(definitions: &Definitions) -> TokenCost {
    of_document(&definitions.to_json())
}

/// The token cost of the definitions document (see
/// [`Definitions::to_json`]).
pub(crate) fn of_document(doc: &Value) -> TokenCost {
    let tools: Vec<Value> = doc
        .get("tools")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let per_tool = tools
        .iter()
        .enumerate()
        .map(|(index, tool)| ToolTokens {
            tool: tool
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            pointer: format!("/tools/{index}"),
            tokens: count_tokens(&tool.to_string()),
        })
        .collect();
    let tools_list = count_tokens(&serde_json::json!({ "tools": tools }).to_string());
    // Lists the server does not have cost nothing: leave them out.
    let mut listed = serde_json::Map::new();
    if let Some(map) = doc.as_object() {
        for (key, value) in map {
            let empty = value.as_array().is_some_and(Vec::is_empty);
            if !empty {
                listed.insert(key.clone(), value.clone());
            }
        }
    }
    TokenCost {
        encoding: ENCODING,
        tools_list,
        surface: count_tokens(&Value::Object(listed).to_string()),
        tools: per_tool,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_the_tokenizers_not_a_character_ratio() {
        // Known o200k_base counts.
        assert_eq!(count_tokens("hello world"), 2);
        let json = r#"{"name":"read_file","description":"Read a file."}"#;
        let tokens = count_tokens(json);
        assert!(tokens > 0 && tokens != json.len() / 4, "{tokens}");
        // A repeated word is cheap, random-looking text is not: a ratio
        // of characters cannot tell them apart.
        let repeated = count_tokens(&"token ".repeat(100));
        let noisy = count_tokens(&"q8Zx!7Rk#pW2".repeat(50));
        assert!(repeated < noisy, "{repeated} vs {noisy}");
    }

    #[test]
    fn the_tool_list_costs_at_least_its_tools_and_empty_lists_cost_nothing() {
        let doc = serde_json::json!({
            "tools": [{"name": "a", "inputSchema": {"type": "object"}},
                      {"name": "b", "inputSchema": {"type": "object"}}],
            "prompts": [], "resources": [], "resourceTemplates": []
        });
        let cost = of_document(&doc);
        let sum: usize = cost.tools.iter().map(|t| t.tokens).sum();
        assert!(cost.tools_list >= sum, "{cost:?}");
        assert_eq!(cost.surface, cost.tools_list, "{cost:?}");
        assert_eq!(cost.tools[1].tool, "b");
        assert_eq!(cost.tools[1].pointer, "/tools/1");
    }
}
