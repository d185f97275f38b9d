//! `mcptest init`: a starter suite to edit. Without a server it is a
//! commented template; with `--server` it is the `generate` file of the
//! server's first tool.

use std::io::Write;

use crate::{
    Exit,
    args::{GenerateArgs, InitArgs},
};

/// The template: every line a user has to change says so.
const TEMPLATE: &str = r#"# A starter mcp-assert file, written by `mcptest init`.
# Run it:  mcptest run DIR
# Each file is one test: start the server, call one tool, check the answer.
# Every key is documented in mcptest's suite format reference.
name: "echo answers with its input"
server:
  # The command that starts your server over stdio (edit this).
  command: my-mcp-server
  args: ["--stdio"]
  # Variables for the server; $VAR and ${VAR:-default} are expanded.
  env:
    LOG_LEVEL: "${LOG_LEVEL:-info}"
assert:
  # A tool your server lists, and its arguments (edit these).
  tool: echo
  args: {text: "hello"}
  expect:
    not_error: true
    contains: ["hello"]
"#;

pub fn init(args: InitArgs) -> Exit {
    if let Err(e) = std::fs::create_dir_all(&args.dir) {
        eprintln!("mcptest: cannot create {}: {e}", args.dir.display());
        return Exit::Usage;
    }
    if let Some(server) = args.server {
        if let Err(e) = crate::connect::check_server(&server) {
            eprintln!("mcptest: {e}");
            return Exit::Usage;
        }
        let generate = GenerateArgs {
            server,
            out: args.dir.clone(),
            timeout: None,
            include_destructive: false,
            force: false,
        };
        let runtime = match crate::runtime(2) {
            Ok(rt) => rt,
            Err(exit) => return exit,
        };
        let exit = runtime.block_on(crate::generate::write_all(&generate, 1));
        if exit == Exit::Pass {
            println!(
                "next: mcptest run {} --server {}",
                args.dir.display(),
                shell_words::quote(&generate.server)
            );
        }
        return exit;
    }
    let path = args.dir.join("example.yaml");
    let text = TEMPLATE.replace("DIR", &args.dir.display().to_string());
    // `create_new`: an existing file is never overwritten.
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .and_then(|mut file| file.write_all(text.as_bytes()));
    match written {
        Ok(()) => {
            println!("wrote     {}", path.display());
            println!(
                "next: edit the server and the tool in it, then: mcptest run {}",
                args.dir.display()
            );
            Exit::Pass
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            eprintln!("mcptest: {} exists; not overwritten", path.display());
            Exit::Usage
        }
        Err(e) => {
            eprintln!("mcptest: cannot write {}: {e}", path.display());
            Exit::Usage
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_template_loads() {
        let suite = mcptest::suite::Suite::parse("example.yaml", super::TEMPLATE)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(suite.tests().len(), 1);
    }
}
