//! A to-do list MCP server: the kind of ~150-line rmcp server a new mcptest
//! user starts from.

use std::sync::{Arc, Mutex};

use rmcp::{
    ServerHandler,
    handler::server::{
        router::tool::ToolRouter,
        wrapper::{Json, Parameters},
    },
    model::{
        CallToolResult, ContentBlock, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
        ListPromptsResult, PaginatedRequestParams, Prompt, PromptArgument, PromptMessage, Role,
        ServerCapabilities, ServerConfig,
    },
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData, RoleServer,
};
use serde::{Deserialize, Serialize};

/// What `stats` answers: its output schema is declared from this type.
#[derive(Debug, Serialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Stats {
    open: usize,
    done: usize,
}

#[derive(Debug, Clone, PartialEq)]
struct Todo {
    title: String,
    done: bool,
}

/// The server: the list is shared by the clones of one process.
#[derive(Clone)]
pub struct TodoServer {
    todos: Arc<Mutex<Vec<Todo>>>,
    tool_router: ToolRouter<TodoServer>,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct NewTodo {
    /// What there is to do.
    pub title: String,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Index {
    /// The position in the list, from 1.
    pub index: usize,
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

fn failure(text: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

impl Default for TodoServer {
    fn default() -> Self {
        Self::new()
    }
}

#[tool_router]
impl TodoServer {
    /// An empty list.
    pub fn new() -> Self {
        TodoServer {
            todos: Arc::default(),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Adds a to-do item.")]
    fn add_todo(&self, Parameters(NewTodo { title }): Parameters<NewTodo>) -> CallToolResult {
        if title.trim().is_empty() {
            return failure("a to-do needs a title");
        }
        let mut todos = self.todos.lock().unwrap();
        todos.push(Todo { title: title.clone(), done: false });
        text(format!("added #{}: {title}", todos.len()))
    }

    #[tool(description = "Marks the item at this position done.")]
    fn complete(&self, Parameters(Index { index }): Parameters<Index>) -> CallToolResult {
        let mut todos = self.todos.lock().unwrap();
        match index.checked_sub(1).and_then(|i| todos.get_mut(i)) {
            Some(todo) => {
                todo.done = true;
                text(format!("done: {}", todo.title))
            }
            None => failure(format!("no item #{index}")),
        }
    }

    #[tool(description = "Lists the items, one per line.")]
    fn list_todos(&self) -> CallToolResult {
        let todos = self.todos.lock().unwrap();
        let lines: Vec<String> = todos
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{}. [{}] {}", i + 1, if t.done { "x" } else { " " }, t.title))
            .collect();
        text(lines.join("\n"))
    }

    #[tool(description = "Counts open and done items.")]
    fn stats(&self) -> Json<Stats> {
        let todos = self.todos.lock().unwrap();
        let done = todos.iter().filter(|t| t.done).count();
        Json(Stats { open: todos.len() - done, done })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for TodoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_prompts().build())
            .with_instructions("A to-do list.")
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            "plan_day",
            Some("Plans the day around the open items."),
            Some(vec![PromptArgument::new("mood").with_description("How the day feels")]),
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != "plan_day" {
            return Err(ErrorData::invalid_params(format!("no prompt {}", request.name), None));
        }
        let open: Vec<String> = self
            .todos
            .lock()
            .unwrap()
            .iter()
            .filter(|t| !t.done)
            .map(|t| t.title.clone())
            .collect();
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("Plan my day. Open items: {}", open.join(", ")),
        )])
        .into())
    }
}
