//! `notes`: a small MCP server kept in memory, written with rmcp — the server
//! whose tests (in `tests/`) show what testing with mcptest looks like.
//!
//! Tools: `add_note`, `get_note`, `list_notes`, `search`, `delete_note`.
//! Resources: every note as `note://<title>`. Prompt: `summarize`.

use std::{
    collections::BTreeMap,
    sync::{Arc, Mutex},
};

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, ContentBlock, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
        ListPromptsResult, ListResourcesResult, PaginatedRequestParams, Prompt, PromptArgument,
        PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
        Resource, ResourceContents, Role, ServerCapabilities, ServerConfig,
    },
    service::RequestContext,
    tool, tool_handler, tool_router,
};
use serde::Deserialize;

/// The notes server. Cloning shares the notes, as each connection of one
/// process would.
#[derive(Clone)]
pub struct Notes {
    notes: Arc<Mutex<BTreeMap<String, String>>>,
    tool_router: ToolRouter<Notes>,
}

impl Default for Notes {
    fn default() -> Self {
        Notes::new()
    }
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct NewNote {
    /// A unique title.
    pub title: String,
    /// The note's text.
    pub body: String,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Title {
    /// The note's title.
    pub title: String,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Query {
    /// Text to look for, case-insensitively, in titles and bodies.
    pub query: String,
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

fn failure(text: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

#[tool_router]
impl Notes {
    /// A server with no notes.
    pub fn new() -> Self {
        Notes {
            notes: Arc::default(),
            tool_router: Self::tool_router(),
        }
    }

    fn notes(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, String>> {
        self.notes.lock().unwrap_or_else(|p| p.into_inner())
    }

    #[tool(description = "Stores a note under a unique title.")]
    fn add_note(&self, Parameters(note): Parameters<NewNote>) -> CallToolResult {
        if note.title.trim().is_empty() {
            return failure("a note needs a title");
        }
        let mut notes = self.notes();
        if notes.contains_key(&note.title) {
            return failure(format!("a note titled {:?} already exists", note.title));
        }
        notes.insert(note.title.clone(), note.body);
        text(format!("saved {:?}", note.title))
    }

    #[tool(description = "Returns the body of the note with this title.")]
    fn get_note(&self, Parameters(Title { title }): Parameters<Title>) -> CallToolResult {
        match self.notes().get(&title) {
            Some(body) => text(body.clone()),
            None => failure(format!("no note titled {title:?}")),
        }
    }

    #[tool(description = "Lists the titles of all notes, one per line.")]
    fn list_notes(&self) -> CallToolResult {
        let titles: Vec<String> = self.notes().keys().cloned().collect();
        text(titles.join("\n"))
    }

    #[tool(description = "Finds notes whose title or body contains the query.")]
    fn search(&self, Parameters(Query { query }): Parameters<Query>) -> CallToolResult {
        let needle = query.to_lowercase();
        let hits: Vec<String> = self
            .notes()
            .iter()
            .filter(|(title, body)| {
                title.to_lowercase().contains(&needle) || body.to_lowercase().contains(&needle)
            })
            .map(|(title, _)| title.clone())
            .collect();
        CallToolResult::structured(serde_json::json!({ "query": query, "matches": hits }))
    }

    #[tool(description = "Deletes the note with this title.")]
    fn delete_note(&self, Parameters(Title { title }): Parameters<Title>) -> CallToolResult {
        match self.notes().remove(&title) {
            Some(_) => text(format!("deleted {title:?}")),
            None => failure(format!("no note titled {title:?}")),
        }
    }
}

const SUMMARIZE: &str = "summarize";

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Notes {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(rmcp::model::Implementation::new(
            "notes",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions("Keeps short notes in memory. Add, find and read them.")
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resources = self
            .notes()
            .keys()
            .map(|title| {
                Resource::new(format!("note://{title}"), title.clone()).with_mime_type("text/plain")
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let title = request.uri.strip_prefix("note://").unwrap_or_default();
        match self.notes().get(title) {
            Some(body) => Ok(ReadResourceResult::new(vec![
                ResourceContents::text(body.clone(), request.uri.clone())
                    .with_mime_type("text/plain"),
            ])
            .into()),
            None => Err(ErrorData::resource_not_found(
                format!("no note at {}", request.uri),
                Some(serde_json::json!({ "uri": request.uri })),
            )),
        }
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            SUMMARIZE,
            Some("Asks for a summary of one note."),
            Some(vec![PromptArgument::new("title").with_required(true)]),
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != SUMMARIZE {
            return Err(ErrorData::invalid_params(
                format!("unknown prompt {:?}", request.name),
                None,
            ));
        }
        let title = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("title"))
            .and_then(|t| t.as_str())
            .ok_or_else(|| ErrorData::invalid_params("missing argument: title", None))?;
        let body =
            self.notes().get(title).cloned().ok_or_else(|| {
                ErrorData::invalid_params(format!("no note titled {title:?}"), None)
            })?;
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("Summarize this note in one sentence:\n\n{body}"),
        )])
        .into())
    }
}
