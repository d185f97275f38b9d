//! `Wide`: a server with as many tools as asked for (`tool_01` ..), each
//! with a schema of every common kind of parameter (a string, an integer
//! with bounds, an enum, a boolean, a nested object and an array), answering
//! every call with a short text. Sized workloads for the audit benchmark
//! (`bench-server --tools 25`); no tool misbehaves.

use std::sync::Arc;

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
        ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    },
    service::RequestContext,
};
use serde_json::json;

/// A server with `count` well-behaved tools.
#[derive(Debug, Clone)]
pub struct Wide {
    tools: Arc<Vec<Tool>>,
}

impl Wide {
    /// `count` tools named `tool_01`, `tool_02`, ...
    pub fn new(count: usize) -> Self {
        let tools = (1..=count).map(tool).collect();
        Wide {
            tools: Arc::new(tools),
        }
    }
}

fn tool(n: usize) -> Tool {
    let schema = json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "maxLength": 200},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
            "order": {"type": "string", "enum": ["asc", "desc"]},
            "exact": {"type": "boolean"},
            "filter": {
                "type": "object",
                "properties": {"tag": {"type": "string"}, "since": {"type": "string", "format": "date"}},
                "required": ["tag"]
            },
            "ids": {"type": "array", "items": {"type": "integer"}, "minItems": 1}
        },
        "required": ["query", "limit", "order", "filter", "ids"]
    });
    let schema = schema.as_object().cloned().unwrap_or_default();
    Tool::new(
        format!("tool_{n:02}"),
        format!("Wide fixture tool number {n}."),
        Arc::new(schema),
    )
}

impl ServerHandler for Wide {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("fixture-wide", env!("CARGO_PKG_VERSION")),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if self.get_tool(&request.name).is_none() {
            return Err(ErrorData::invalid_params("tool not found", None));
        }
        let keys = request.arguments.map_or(0, |a| a.len());
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "{}: {keys} arguments",
            request.name
        ))])
        .into())
    }
}
