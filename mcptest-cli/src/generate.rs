//! `mcptest generate`: one starter mcp-assert file per tool, with the input
//! the audit's generator builds from the tool's schema and an expectation
//! from what the tool answered to it.

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use mcptest::{
    McpClient, Server, ToolCall, ToolOutcome, rmcp::model::Tool, scan::audit::valid_input,
};
use serde_json::Value;

use crate::{Exit, args::GenerateArgs};

pub fn generate(args: GenerateArgs) -> Exit {
    if let Err(e) = crate::connect::check_server(&args.server) {
        eprintln!("mcptest: {e}");
        return Exit::Usage;
    }
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        eprintln!("mcptest: cannot create {}: {e}", args.out.display());
        return Exit::Usage;
    }
    let runtime = match crate::runtime(2) {
        Ok(rt) => rt,
        Err(exit) => return exit,
    };
    runtime.block_on(write_all(&args, usize::MAX))
}

/// Writes the files of the first `limit` tools the server lists.
pub async fn write_all(args: &GenerateArgs, limit: usize) -> Exit {
    let server = Server::command(&args.server);
    let timeout = args.timeout.unwrap_or(Duration::from_secs(30));
    let mut mcp = match server.connect().await {
        Ok(mcp) => Some(mcp),
        Err(e) => {
            eprintln!("mcptest: the server did not start: {e}");
            return Exit::Usage;
        }
    };
    let tools = match mcp.as_ref().expect("connected").list_tools().await {
        Ok(tools) => tools.into_inner(),
        Err(e) => {
            eprintln!("mcptest: tools/list failed: {e}");
            close(mcp).await;
            return Exit::Usage;
        }
    };
    if tools.is_empty() {
        eprintln!("mcptest: the server lists no tools; nothing to generate");
        close(mcp).await;
        return Exit::Failures;
    }
    let mut exit = Exit::Pass;
    for tool in tools.iter().take(limit) {
        let path = args.out.join(file_name(&tool.name));
        if path.exists() && !args.force {
            println!("kept      {} (exists; --force overwrites)", path.display());
            continue;
        }
        let input = valid_input(&Value::Object((*tool.input_schema).clone()));
        let destructive = tool
            .annotations
            .as_ref()
            .and_then(|a| a.destructive_hint)
            .unwrap_or(false);
        let answer = if destructive && !args.include_destructive {
            Answer::NotCalled
        } else {
            if mcp.is_none() {
                match server.connect().await {
                    Ok(client) => mcp = Some(client),
                    Err(e) => {
                        eprintln!("mcptest: the server did not start again: {e}");
                        return Exit::Failures;
                    }
                }
            }
            let client = mcp.as_ref().expect("connected above");
            let call = client
                .call_tool_with_timeout(&tool.name, input.clone(), timeout)
                .await;
            let answer = Answer::of(&call);
            if matches!(call.outcome(), ToolOutcome::Failed(_)) {
                close(mcp.take()).await;
            }
            answer
        };
        if matches!(answer, Answer::Broken(_)) {
            exit = Exit::Failures;
        }
        let text = starter_file(tool, &input, &answer, &args.server, &args.out);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("mcptest: cannot write {}: {e}", path.display());
            close(mcp).await;
            return Exit::Usage;
        }
        println!("{:<9} {}", answer.word(), path.display());
        if let Answer::Broken(why) = &answer {
            // The file says it too; the terminal should not need opening it.
            let first = why.lines().next().unwrap_or_default();
            println!("          the call with the generated input failed: {first}");
        }
    }
    close(mcp).await;
    exit
}

async fn close(mcp: Option<McpClient>) {
    if let Some(mcp) = mcp {
        mcp.close().await;
    }
}

/// What the tool answered to the generated input.
enum Answer {
    Success(String),
    ToolError(String),
    Broken(String),
    NotCalled,
}

impl Answer {
    fn of(call: &ToolCall) -> Answer {
        match call.outcome() {
            ToolOutcome::Success(_) => Answer::Success(call.text()),
            ToolOutcome::ToolError(_) => Answer::ToolError(call.text()),
            ToolOutcome::RpcError(e) => Answer::Broken(e.to_string()),
            ToolOutcome::Failed(e) => Answer::Broken(e.to_string()),
        }
    }

    fn word(&self) -> &'static str {
        match self {
            Answer::Success(_) => "wrote",
            Answer::ToolError(_) => "wrote",
            Answer::Broken(_) => "BROKEN",
            Answer::NotCalled => "skipped",
        }
    }
}

/// `add.yaml`; characters that do not belong in a file name become `_`.
fn file_name(tool: &str) -> PathBuf {
    PathBuf::from(format!(
        "{}.yaml",
        mcptest_core::__support::file_name_part(tool)
    ))
}

/// The first line of `text`, at most 60 characters.
fn excerpt(text: &str) -> String {
    text.lines().next().unwrap_or("").chars().take(60).collect()
}

fn starter_file(tool: &Tool, input: &Value, answer: &Answer, server: &str, out: &Path) -> String {
    // JSON strings and objects are valid YAML scalars and flow mappings, so
    // names and arguments need no YAML quoting rules of their own.
    let quoted = |s: &str| Value::String(s.to_owned()).to_string();
    let mut text = format!(
        "# A starter test for tool {name}, written by `mcptest generate` with an input\n\
         # built from its inputSchema. Edit the args and the expectations.\n\
         # Run it: mcptest run {dir} --server {server}\n",
        name = quoted(&tool.name),
        dir = out.display(),
        server = shell_words::quote(server),
    );
    let expect = match answer {
        Answer::Success(reply) => {
            text.push_str(&format!("# It answered: {}\n", quoted(&excerpt(reply))));
            "    not_error: true\n".to_owned()
        }
        Answer::ToolError(reply) => {
            text.push_str(&format!(
                "# It answered isError: true: {}\n# Adjust the args and expect not_error: true instead.\n",
                quoted(&excerpt(reply))
            ));
            "    is_error: true\n".to_owned()
        }
        Answer::Broken(why) => {
            text.push_str(&format!("# The call failed: {}\n", quoted(&excerpt(why))));
            "    not_error: true\n".to_owned()
        }
        Answer::NotCalled => {
            text.push_str(
                "# Not called: the tool is destructive (destructiveHint: true). Remove\n\
                 # `skip` once the args are safe to send.\n",
            );
            "    not_error: true\n".to_owned()
        }
    };
    text.push_str(&format!(
        "name: {}\n",
        quoted(&format!("{} answers", tool.name))
    ));
    if matches!(answer, Answer::NotCalled) {
        text.push_str("skip: true\n");
    }
    text.push_str(&format!(
        "assert:\n  tool: {}\n  args: {input}\n  expect:\n{expect}",
        quoted(&tool.name)
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe() {
        assert_eq!(file_name("add"), PathBuf::from("add.yaml"));
        assert_eq!(file_name("a/b c"), PathBuf::from("a_b_c.yaml"));
    }
}
