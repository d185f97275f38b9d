//! `fixture-everything`: one server that exercises every MCP feature mcptest handles.
//!
//! Names, texts and error codes here are a contract: integration tests assert on them
//! verbatim, so change them only together with those tests.
//!
//! Session state (the `bonus` toggle, the log level, resource subscriptions) lives
//! behind an `Arc`, so clones of one [`Everything`] share it. Construct a new value per
//! connection when connections must not see each other's state.

// Sampling, roots, elicitation and logging are deprecated by SEP-2577 in rmcp, but
// they are still part of the protocol versions that mcptest tests, and this fixture
// exists precisely to exercise them.
#![allow(deprecated)]

mod content;
mod prompts;
mod resources;
mod tools;

use std::{
    collections::BTreeSet,
    fmt,
    path::PathBuf,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
};

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    handler::server::{
        prompt::PromptContext, router::prompt::PromptRouter, router::tool::ToolRouter,
        tool::ToolCallContext,
    },
    model::{
        CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
        GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult,
        ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, LoggingLevel,
        PaginatedRequestParams, Prompt, ReadResourceRequestParams, ReadResourceResponse,
        ServerCapabilities, ServerConfig, SetLevelRequestParams, SubscribeRequestParams, Tool,
        UnsubscribeRequestParams,
    },
    service::RequestContext,
};

/// Server name reported in `initialize`.
pub const SERVER_NAME: &str = "fixture-everything";
/// Instructions reported in `initialize`.
pub const INSTRUCTIONS: &str = "Fixture server for mcptest integration tests.";
/// Tool that `toggle_tool` adds and removes.
pub const BONUS_TOOL: &str = "bonus";

/// How an [`Everything`] server is set up.
#[derive(Debug, Clone)]
pub struct EverythingConfig {
    /// Directory that `write_file` and `read_file` work in; `None` means the process's
    /// current directory at the time of each call.
    pub root: Option<PathBuf>,
    /// Items per page of every `*/list` result (values below 1 are treated as 1).
    pub page_size: usize,
}

impl Default for EverythingConfig {
    fn default() -> Self {
        Self {
            root: None,
            page_size: 5,
        }
    }
}

/// The fixture server: an rmcp [`ServerHandler`] usable in-process or behind any transport.
#[derive(Clone)]
pub struct Everything {
    config: Arc<EverythingConfig>,
    state: Arc<SessionState>,
    tool_router: Arc<ToolRouter<Everything>>,
    prompt_router: Arc<PromptRouter<Everything>>,
}

struct SessionState {
    bonus_enabled: AtomicBool,
    log_level: Mutex<LoggingLevel>,
    subscriptions: Mutex<BTreeSet<String>>,
}

impl Everything {
    /// A server with the given configuration and fresh session state.
    pub fn new(config: EverythingConfig) -> Self {
        Self {
            config: Arc::new(config),
            state: Arc::new(SessionState {
                bonus_enabled: AtomicBool::new(false),
                // The spec lets servers pick a default; debug means a test sees every
                // message until it narrows the level itself.
                log_level: Mutex::new(LoggingLevel::Debug),
                subscriptions: Mutex::new(BTreeSet::new()),
            }),
            tool_router: Arc::new(Self::tool_router()),
            prompt_router: Arc::new(Self::prompt_router()),
        }
    }

    /// The configuration this server was built with.
    pub fn config(&self) -> &EverythingConfig {
        &self.config
    }

    fn page_size(&self) -> usize {
        self.config.page_size.max(1)
    }

    fn root(&self) -> PathBuf {
        self.config
            .root
            .clone()
            .unwrap_or_else(|| PathBuf::from("."))
    }

    fn bonus_enabled(&self) -> bool {
        self.state.bonus_enabled.load(Ordering::SeqCst)
    }

    /// Flips the `bonus` tool and returns whether it is now listed.
    fn toggle_bonus(&self) -> bool {
        !self.state.bonus_enabled.fetch_xor(true, Ordering::SeqCst)
    }

    fn log_level(&self) -> LoggingLevel {
        *lock(&self.state.log_level)
    }

    fn is_subscribed(&self, uri: &str) -> bool {
        lock(&self.state.subscriptions).contains(uri)
    }

    fn visible_tools(&self) -> Vec<Tool> {
        let bonus = self.bonus_enabled();
        let mut tools: Vec<Tool> = self
            .tool_router
            .list_all()
            .into_iter()
            .filter(|tool| bonus || tool.name != BONUS_TOOL)
            .collect();
        tools.sort_by_key(|tool| listing_position(tools::TOOL_ORDER, &tool.name));
        tools
    }

    fn prompts(&self) -> Vec<Prompt> {
        let mut prompts = self.prompt_router.list_all();
        prompts.sort_by_key(|prompt| listing_position(prompts::PROMPT_ORDER, &prompt.name));
        prompts
    }
}

impl Default for Everything {
    fn default() -> Self {
        Self::new(EverythingConfig::default())
    }
}

impl fmt::Debug for Everything {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Everything")
            .field("config", &self.config)
            .field("bonus_enabled", &self.bonus_enabled())
            .finish_non_exhaustive()
    }
}

/// A poisoned lock only means another handler panicked; the data (a level, a set of
/// URIs) is still consistent, so keep serving rather than cascade the panic.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Where `name` goes in a listing; names missing from `order` go last (the sort is
/// stable, so they keep the router's alphabetical order among themselves).
fn listing_position(order: &[&str], name: &str) -> usize {
    order
        .iter()
        .position(|listed| *listed == name)
        .unwrap_or(order.len())
}

/// Severity rank of a level, lowest first (rmcp's enum does not implement `Ord`).
fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// One page of `items` and the cursor of the next page.
///
/// The cursor is the decimal offset of the next page's first item. Clients must treat
/// it as opaque, so anything that is not an offset this server could have issued is
/// rejected as invalid params rather than silently restarting from the top.
fn paginate<T>(
    items: Vec<T>,
    request: Option<PaginatedRequestParams>,
    page_size: usize,
) -> Result<(Vec<T>, Option<String>), ErrorData> {
    let len = items.len();
    let start = match request.and_then(|request| request.cursor) {
        None => 0,
        Some(cursor) => cursor
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| cursor.parse::<usize>().ok())
            .flatten()
            .filter(|&offset| offset <= len)
            .ok_or_else(|| {
                ErrorData::invalid_params(
                    format!("invalid cursor: {cursor:?}"),
                    Some(serde_json::json!({ "cursor": cursor })),
                )
            })?,
    };
    let end = start.saturating_add(page_size).min(len);
    let next_cursor = (end < len).then(|| end.to_string());
    let page = items.into_iter().skip(start).take(end - start).collect();
    Ok((page, next_cursor))
}

impl ServerHandler for Everything {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_prompts()
            .enable_prompts_list_changed()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_resources_list_changed()
            .enable_logging()
            .enable_completions()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let (tools, next_cursor) = paginate(self.visible_tools(), request, self.page_size())?;
        let mut result = ListToolsResult::with_all_items(tools);
        result.next_cursor = next_cursor;
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        if name == BONUS_TOOL && !self.bonus_enabled() {
            return None;
        }
        self.tool_router.get(name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A hidden `bonus` must be indistinguishable from a tool that never existed,
        // so answer exactly as the router does for unknown names.
        if request.name == BONUS_TOOL && !self.bonus_enabled() {
            return Err(ErrorData::invalid_params("tool not found", None));
        }
        let tool_context = ToolCallContext::new(self, request, context);
        self.tool_router.call(tool_context).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let (prompts, next_cursor) = paginate(self.prompts(), request, self.page_size())?;
        let mut result = ListPromptsResult::with_all_items(prompts);
        result.next_cursor = next_cursor;
        Ok(result)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let prompt_context = PromptContext::new(self, request.name, request.arguments, context);
        self.prompt_router.get_prompt(prompt_context).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        prompts::complete(&request)
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        *lock(&self.state.log_level) = request.level;
        Ok(())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let (resources, next_cursor) =
            paginate(resources::all_resources(), request, self.page_size())?;
        let mut result = ListResourcesResult::with_all_items(resources);
        result.next_cursor = next_cursor;
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let (templates, next_cursor) =
            paginate(resources::all_templates(), request, self.page_size())?;
        let mut result = ListResourceTemplatesResult::with_all_items(templates);
        result.next_cursor = next_cursor;
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        resources::read(&request.uri).map(Into::into)
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        lock(&self.state.subscriptions).insert(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        lock(&self.state.subscriptions).remove(&request.uri);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cursor(value: &str) -> Option<PaginatedRequestParams> {
        Some(PaginatedRequestParams::default().with_cursor(Some(value.to_string())))
    }

    #[test]
    fn pages_follow_offsets_to_the_end() {
        let items: Vec<u32> = (0..12).collect();
        let (first, next) = paginate(items.clone(), None, 5).unwrap();
        assert_eq!(first, vec![0, 1, 2, 3, 4]);
        assert_eq!(next.as_deref(), Some("5"));
        let (last, next) = paginate(items, cursor("10"), 5).unwrap();
        assert_eq!(last, vec![10, 11]);
        assert_eq!(next, None);
    }

    #[test]
    fn foreign_cursors_are_invalid_params() {
        let items: Vec<u32> = (0..3).collect();
        for bad in ["", "abc", "-1", "+1", "4", "99999999999999999999999"] {
            let error = paginate(items.clone(), cursor(bad), 5).unwrap_err();
            assert_eq!(
                error.code,
                rmcp::model::ErrorCode::INVALID_PARAMS,
                "{bad:?}"
            );
        }
    }

    /// Hosting the server on an in-memory pipe is what in-process tests do.
    #[tokio::test]
    async fn serves_as_a_library_value() {
        use rmcp::ServiceExt;
        use serde_json::{Value, json};
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let server = tokio::spawn(async move {
            let running = Everything::default().serve(server_io).await.unwrap();
            running.waiting().await.unwrap();
        });
        let (read, mut write) = tokio::io::split(client_io);
        let mut lines = BufReader::new(read).lines();
        let messages = [
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "unit", "version": "0"}}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "echo", "arguments": {"message": "in-process"}}}),
        ];
        for message in messages {
            write
                .write_all(format!("{message}\n").as_bytes())
                .await
                .unwrap();
        }
        let reply = loop {
            let line = lines.next_line().await.unwrap().expect("server hung up");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == 2 {
                break message;
            }
        };
        assert_eq!(reply["result"]["content"][0]["text"], "in-process");
        // Dropping one half of a split stream closes nothing; shut down the write
        // direction so the server sees EOF and stops.
        write.shutdown().await.unwrap();
        server.await.unwrap();
    }

    #[test]
    fn listings_follow_the_documented_order() {
        let server = Everything::default();
        let prompts: Vec<String> = server.prompts().into_iter().map(|p| p.name).collect();
        assert_eq!(prompts, prompts::PROMPT_ORDER);
        server.toggle_bonus();
        let tools = server.visible_tools();
        let tools: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(tools, tools::TOOL_ORDER);
    }

    #[test]
    fn toggle_flips_bonus_visibility() {
        let server = Everything::default();
        assert!(!server.visible_tools().iter().any(|t| t.name == BONUS_TOOL));
        assert!(server.toggle_bonus());
        assert!(server.visible_tools().iter().any(|t| t.name == BONUS_TOOL));
        assert!(!server.toggle_bonus());
        assert!(server.get_tool(BONUS_TOOL).is_none());
    }
}
