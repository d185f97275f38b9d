//! A server as a new user writes it on the workspace's rmcp with its
//! defaults: tools from `#[tool_router]`, a prompt, a resource, and rmcp's
//! own answers for everything else — the 2025-11-25 handshake and
//! 2026-07-28 (`server/discover`, per-request `_meta`) side by side, as
//! rmcp serves them out of the box. Nothing here bends a rule, so the
//! conformance checks see what rmcp itself does.
//!
//! ```text
//! fixture-rmcp           # stdio
//! fixture-rmcp --http    # Streamable HTTP on 127.0.0.1 with rmcp's default
//!                        # server config, announcing `listening on <url>`
//! ```

use std::{process::ExitCode, sync::Arc, time::Duration};

use rmcp::{
    ErrorData, RoleServer, ServerHandler, ServiceExt,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolResult, ContentBlock, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
        Implementation, ListPromptsResult, ListResourcesResult, PaginatedRequestParams, Prompt,
        PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
        ResourceContents, Role, ServerCapabilities, ServerConfig,
    },
    service::RequestContext,
    tool, tool_handler, tool_router,
    transport::{
        stdio,
        streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
        },
    },
};
use serde::{Deserialize, de::DeserializeOwned};
use serde_json::{Value, json};

/// An rmcp type from its JSON form.
fn typed<T: DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).expect("the JSON matches the rmcp model")
}

const NOTE_URI: &str = "note://welcome";

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct EchoArgs {
    /// Text to send back.
    message: String,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct AddArgs {
    /// First addend.
    a: i64,
    /// Second addend.
    b: i64,
}

#[derive(Clone)]
struct Notes {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Notes {
    fn new() -> Self {
        Notes {
            tool_router: Self::tool_router(),
        }
    }

    /// Returns `message`.
    #[tool(description = "Returns `message`.")]
    fn echo(&self, Parameters(args): Parameters<EchoArgs>) -> String {
        args.message
    }

    /// Adds two integers.
    #[tool(description = "Adds `a` and `b`.")]
    fn add(&self, Parameters(args): Parameters<AddArgs>) -> String {
        (args.a + args.b).to_string()
    }

    /// Always reports failure, as a tool result.
    #[tool(description = "Always reports failure.")]
    fn fail(&self) -> CallToolResult {
        CallToolResult::error(vec![ContentBlock::text("failed on purpose")])
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Notes {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .enable_resources()
            .build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new(
            "fixture-rmcp",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            "welcome",
            Some("Welcomes the user."),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        match request.name.as_str() {
            "welcome" => Ok(GetPromptResponse::Complete(GetPromptResult::new(vec![
                PromptMessage::new_text(Role::User, "Welcome!"),
            ]))),
            other => Err(ErrorData::invalid_params(
                format!("unknown prompt {other:?}"),
                None,
            )),
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![typed(json!({
            "uri": NOTE_URI,
            "name": "welcome",
            "mimeType": "text/plain",
        }))]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != NOTE_URI {
            return Err(ErrorData::resource_not_found(
                format!("no resource {}", request.uri),
                None,
            ));
        }
        Ok(ReadResourceResponse::Complete(ReadResourceResult::new(
            vec![ResourceContents::text("Welcome to the notes.", NOTE_URI)],
        )))
    }
}

fn main() -> ExitCode {
    let http = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--http") => true,
        Some(other) => {
            eprintln!("fixture-rmcp: unknown argument {other:?}\nusage: fixture-rmcp [--http]");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("fixture-rmcp: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        if http {
            let service = StreamableHttpService::new(
                || Ok(Notes::new()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            );
            mcptest_tests::http::serve_on_loopback(
                axum::Router::new().nest_service("/mcp", service),
            )
            .await
        } else {
            let running = Notes::new()
                .serve(stdio())
                .await
                .map_err(|e| format!("initialization failed: {e}"))?;
            running
                .waiting()
                .await
                .map(|_| ())
                .map_err(|e| format!("server task failed: {e}"))
        }
    });
    runtime.shutdown_timeout(Duration::from_millis(100));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("fixture-rmcp: {message}");
            ExitCode::FAILURE
        }
    }
}
