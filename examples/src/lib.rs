//! `notes`: a small MCP server written with rmcp — the server whose tests
//! (in `tests/`, one file per mcptest capability) show what testing with
//! mcptest looks like.
//!
//! Tools: `add_note`, `get_note`, `list_notes`, `search`, `delete_note`, and
//! three that ask the client something: `summarize_note` (sampling),
//! `shared_folders` (roots) and `delete_all` (elicitation, to confirm).
//! Resources: every note as `note://<title>`. Prompt: `summarize`.
//!
//! Notes live in memory, or, with [`Notes::in_dir`] (`notes-server --dir DIR`),
//! in `DIR/<title>.txt`, so that tests can give it a fixture directory.

// rmcp marks sampling and roots deprecated (SEP-2577), but every protocol
// revision clients speak today has them, so the example server uses them.
#![allow(deprecated)]

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, ClientResult, ContentBlock, CreateMessageRequestParams, ElicitRequest,
        ElicitRequestParams, ElicitationAction, ElicitationSchema, GetPromptRequestParams,
        GetPromptResponse, GetPromptResult, ListPromptsResult, ListResourcesResult,
        PaginatedRequestParams, Prompt, PromptArgument, PromptMessage, ReadResourceRequestParams,
        ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, Role,
        SamplingMessage, ServerCapabilities, ServerConfig, ServerRequest,
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
    /// Where each note is also written as `<title>.txt`, if anywhere.
    dir: Option<PathBuf>,
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

/// What a failed request to the client said, for the tool's error text.
fn peer_error(error: rmcp::ServiceError) -> String {
    match error {
        rmcp::ServiceError::McpError(error) => error.message.into_owned(),
        other => other.to_string(),
    }
}

/// A title names a file in the notes directory, so it must not leave it.
fn valid_title(title: &str) -> Result<(), String> {
    if title.trim().is_empty() {
        Err("a note needs a title".into())
    } else if title.contains(['/', '\\']) || title.starts_with('.') {
        Err(format!(
            "a title cannot contain a slash or start with a dot: {title:?}"
        ))
    } else {
        Ok(())
    }
}

#[tool_router]
impl Notes {
    /// A server with no notes, kept in memory.
    pub fn new() -> Self {
        Notes {
            notes: Arc::default(),
            dir: None,
            tool_router: Self::tool_router(),
        }
    }

    /// A server whose notes are the `*.txt` files of `dir` (the file stem
    /// is the title); added and deleted notes are written there too.
    pub fn in_dir(dir: impl Into<PathBuf>) -> std::io::Result<Self> {
        let dir = dir.into();
        let mut notes = BTreeMap::new();
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "txt")
                && let Some(title) = path.file_stem().and_then(|s| s.to_str())
            {
                notes.insert(title.to_owned(), std::fs::read_to_string(&path)?);
            }
        }
        Ok(Notes {
            notes: Arc::new(Mutex::new(notes)),
            dir: Some(dir),
            tool_router: Self::tool_router(),
        })
    }

    fn notes(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, String>> {
        self.notes.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn file(&self, title: &str) -> Option<PathBuf> {
        self.dir
            .as_deref()
            .map(|dir: &Path| dir.join(format!("{title}.txt")))
    }

    #[tool(description = "Stores a note under a unique title.")]
    fn add_note(&self, Parameters(note): Parameters<NewNote>) -> CallToolResult {
        if let Err(why) = valid_title(&note.title) {
            return failure(why);
        }
        let mut notes = self.notes();
        if notes.contains_key(&note.title) {
            return failure(format!("a note titled {:?} already exists", note.title));
        }
        if let Some(file) = self.file(&note.title)
            && let Err(e) = std::fs::write(&file, &note.body)
        {
            return failure(format!("cannot write {}: {e}", file.display()));
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
            Some(_) => {
                self.remove_file(&title);
                text(format!("deleted {title:?}"))
            }
            None => failure(format!("no note titled {title:?}")),
        }
    }

    #[tool(description = "Asks the client's model (sampling) for a one-line summary of a note.")]
    async fn summarize_note(
        &self,
        Parameters(Title { title }): Parameters<Title>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let Some(body) = self.notes().get(&title).cloned() else {
            return failure(format!("no note titled {title:?}"));
        };
        let request = CreateMessageRequestParams::new(
            vec![SamplingMessage::user_text(format!(
                "Summarize this note in one line:\n\n{body}"
            ))],
            100,
        );
        match context.peer.create_message(request).await {
            Ok(reply) => {
                let summary: String = reply
                    .message
                    .content
                    .iter()
                    .filter_map(|block| block.as_text())
                    .map(|block| block.text.as_str())
                    .collect();
                text(format!("{title}: {summary}"))
            }
            Err(error) => failure(format!(
                "the client could not sample: {}",
                peer_error(error)
            )),
        }
    }

    #[tool(description = "Lists the folders the client shares (its roots), one URI per line.")]
    async fn shared_folders(&self, context: RequestContext<RoleServer>) -> CallToolResult {
        match context.peer.list_roots().await {
            Ok(reply) => {
                let uris: Vec<&str> = reply.roots.iter().map(|root| root.uri.as_str()).collect();
                text(uris.join("\n"))
            }
            Err(error) => failure(format!("the client has no roots: {}", peer_error(error))),
        }
    }

    #[tool(description = "Deletes every note, once the user confirms (elicitation).")]
    async fn delete_all(&self, context: RequestContext<RoleServer>) -> CallToolResult {
        let count = self.notes().len();
        let schema = match ElicitationSchema::builder()
            .required_bool("confirm")
            .build()
        {
            Ok(schema) => schema,
            Err(e) => return failure(format!("cannot build the form: {e}")),
        };
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: format!("Delete all {count} notes?"),
            requested_schema: schema,
        };
        // A form needs nothing but the raw request (rmcp's `create_elicitation`
        // needs its `elicitation` feature, which adds a URL parser).
        let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
        let confirmed = match context.peer.send_request(request).await {
            Ok(ClientResult::ElicitResult(reply)) => {
                reply.action == ElicitationAction::Accept
                    && reply
                        .content
                        .as_ref()
                        .and_then(|c| c.get("confirm"))
                        .and_then(serde_json::Value::as_bool)
                        == Some(true)
            }
            Ok(_) => return failure("the client answered elicitation/create with another result"),
            Err(error) => return failure(format!("could not ask: {}", peer_error(error))),
        };
        if !confirmed {
            return text(format!("kept {count} notes"));
        }
        let titles: Vec<String> = std::mem::take(&mut *self.notes()).into_keys().collect();
        for title in &titles {
            self.remove_file(title);
        }
        text(format!("deleted {count} notes"))
    }

    fn remove_file(&self, title: &str) {
        if let Some(file) = self.file(title) {
            // Already gone is as good as removed.
            let _ = std::fs::remove_file(file);
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

/// The README's code blocks, compiled (and, where they can, run) as this
/// crate's doctests by `cargo test`, so that the README cannot drift from
/// the API. Its YAML blocks are loaded by `tests/suite.rs`.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
