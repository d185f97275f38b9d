//! Tour, part 5: data-driven suites — tests written as YAML files.
//!
//! `mcptest::suite!` reads `tests/evals` at compile time and generates one
//! `#[test]` per mcp-assert file and per MCP Cases document, in a module
//! named after the directory (`evals::read_back`, `evals::protocol__...`).
//! The files are embedded, so editing one rebuilds the tests; a broken file
//! is a compile error that names its line.

mcptest::suite!("tests/evals", bin = "notes-server");

/// The YAML shown in the README is checked too, so it cannot drift: each
/// ```` ```yaml ```` block must load as a suite file, and a block marked
/// ```` ```yaml <path of a .snap file> ```` must be that snapshot's body.
#[test]
fn every_yaml_block_of_the_readme_loads() {
    let readme_path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let readme = std::fs::read_to_string(readme_path).expect("README.md is readable");
    let blocks = yaml_blocks(&readme);
    assert!(!blocks.is_empty(), "README.md has no ```yaml block");
    let mut problems = Vec::new();
    for block in &blocks {
        let shown = format!("README.md:{}", block.first_line);
        match &block.snapshot {
            None => {
                if let Err(e) = mcptest::suite::Suite::parse(&shown, &block.text) {
                    // `e.line` counts from the block's first line.
                    let line = block.first_line + e.line.saturating_sub(1) as usize;
                    problems.push(format!(
                        "README.md:{line}:{}: {} (in the block at line {})",
                        e.column, e.message, block.first_line
                    ));
                }
            }
            Some(path) => {
                let file = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
                match std::fs::read_to_string(&file) {
                    Ok(snap) if snapshot_body(&snap) == block.text => {}
                    Ok(snap) => problems.push(format!(
                        "{shown}: the block differs from the snapshot {path}; it reads:\n{}",
                        snapshot_body(&snap)
                    )),
                    Err(e) => problems.push(format!("{shown}: cannot read {file}: {e}")),
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

struct YamlBlock {
    /// 1-based line of the block's first line of YAML.
    first_line: usize,
    text: String,
    /// For ```` ```yaml path ````: the snapshot file it shows.
    snapshot: Option<String>,
}

fn yaml_blocks(markdown: &str) -> Vec<YamlBlock> {
    let mut blocks = Vec::new();
    let mut open: Option<YamlBlock> = None;
    let mut in_other_block = false;
    for (index, line) in markdown.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (Some(_), Some(_)) => blocks.extend(open.take()),
            (Some(block), None) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            (None, Some(_)) if in_other_block => in_other_block = false,
            (None, Some(info)) => {
                let mut words = info.split_whitespace();
                if words.next() == Some("yaml") {
                    open = Some(YamlBlock {
                        first_line: index + 2,
                        text: String::new(),
                        snapshot: words.next().map(str::to_owned),
                    });
                } else {
                    in_other_block = true;
                }
            }
            (None, None) => {}
        }
    }
    blocks
}

/// What follows insta's `---` header.
fn snapshot_body(snap: &str) -> &str {
    snap.splitn(3, "---\n").nth(2).unwrap_or(snap)
}
