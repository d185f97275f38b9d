//! What an audit and a fuzz run share: the server they scan, how long a
//! call may take, whether destructive tools are called; how the server is
//! started and its tools listed, and how one tool is called. Their builder
//! methods for these are written once, in [`target_methods`].

use std::time::Duration;

use rmcp::model::Tool;
use serde_json::Value;

use mcptest_core::report::{Outcome, TestResult};
use mcptest_core::{Error, McpClient, Server, ToolCall};

use crate::failure::failure_of_error;

/// The server a scan calls, and how.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    pub(crate) server: Server,
    /// How long each call may take; `None`: the server's timeout.
    pub(crate) timeout: Option<Duration>,
    /// Whether tools annotated `destructiveHint: true` are called.
    pub(crate) include_destructive: bool,
}

/// The builder methods of [`Target`], for a scan type with a `target`
/// field; their docs (whose examples show the scan type) are the caller's.
macro_rules! target_methods {
    (
        timeout: $(#[$timeout:meta])*
        include_destructive: $(#[$destructive:meta])*
    ) => {
        $(#[$timeout])*
        pub fn timeout(mut self, timeout: std::time::Duration) -> Self {
            self.target.timeout = Some(timeout);
            self
        }

        $(#[$destructive])*
        pub fn include_destructive(mut self, include: bool) -> Self {
            self.target.include_destructive = include;
            self
        }
    };
}
pub(crate) use target_methods;

impl Target {
    /// `server`, with the server's timeout, destructive tools left alone.
    pub(crate) fn new(server: Server) -> Target {
        Target {
            server,
            timeout: None,
            include_destructive: false,
        }
    }

    /// Whether `tool` is to be left alone: it says it is destructive, and
    /// destructive tools were not included.
    pub(crate) fn spares(&self, tool: &Tool) -> bool {
        is_destructive(tool) && !self.include_destructive
    }

    /// Starts the server and lists its tools (every page); the connection
    /// is closed again when the listing fails.
    pub(crate) async fn connect_and_list(&self) -> Result<(McpClient, Vec<Tool>), Error> {
        let mcp = self.server.connect().await?;
        match mcp.list_tools().await {
            Ok(tools) => Ok((mcp, tools.into_inner())),
            Err(error) => {
                mcp.close().await;
                Err(error)
            }
        }
    }

    /// Calls `tool` with `arguments` within the scan's timeout.
    pub(crate) async fn call(&self, mcp: &McpClient, tool: &Tool, arguments: Value) -> ToolCall {
        match self.timeout {
            Some(timeout) => {
                mcp.call_tool_with_timeout(&tool.name, arguments, timeout)
                    .await
            }
            None => mcp.call_tool(&tool.name, arguments).await,
        }
        .with_tool(tool.clone())
    }
}

/// The one result that stands for a run whose server did not start or
/// could not list its tools.
pub(crate) fn listing_failed(error: &Error, group: &str) -> TestResult {
    TestResult::new(
        "tools/list",
        Outcome::fail(failure_of_error(
            Some("tools/list".into()),
            "the server starts and lists its tools",
            error,
        )),
    )
    .group(group)
}

/// Whether the tool says it is destructive (`annotations.destructiveHint`).
pub(crate) fn is_destructive(tool: &Tool) -> bool {
    tool.annotations
        .as_ref()
        .and_then(|a| a.destructive_hint)
        .unwrap_or(false)
}
