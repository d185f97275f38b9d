//! A suite file into tests ready to run: the format's loader checks it
//! (`mcptest-suite-format`, shared with `suite!`), this module names and
//! places its tests and checks what only the runner knows (how a plugin's
//! command line splits). Below the runner: nothing here starts a server.

use mcptest_core::report::Location;
use mcptest_suite_format::{Format, LoadError, Loaded, Node, Pos, assertion::Block};

use crate::suite_test::{SuiteTest, TestKind};

fn location(file: &str, pos: Pos) -> Location {
    let narrow = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    Location::new(file, narrow(pos.line), narrow(pos.column))
}

/// The tests of one file's text. `format` is the format already told apart
/// (by `suite!` at compile time); `None` tells it from the content.
pub(super) fn parse(
    file: &str,
    text: &str,
    format: Option<Format>,
) -> Result<Vec<SuiteTest>, LoadError> {
    tests(file, mcptest_suite_format::parse(file, text, format)?)
}

/// The tests of one file's documents, parsed already (by `suite!` at
/// compile time).
pub(super) fn load(
    file: &str,
    docs: &[Node],
    format: Option<Format>,
) -> Result<Vec<SuiteTest>, LoadError> {
    tests(file, mcptest_suite_format::load(file, docs, format)?)
}

fn tests(file: &str, loaded: Loaded) -> Result<Vec<SuiteTest>, LoadError> {
    Ok(match loaded {
        Loaded::Assertion(a) => {
            plugin_commands_split(file, &a.block)?;
            vec![SuiteTest {
                name: a.name.clone(),
                file: file.to_owned(),
                format: Format::McpAssert,
                location: location(file, a.pos),
                kind: TestKind::Assertion(a),
            }]
        }
        Loaded::Cases(cases) => cases
            .into_iter()
            .map(|c| SuiteTest {
                name: c
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("case {}", c.number)),
                file: file.to_owned(),
                format: Format::McpCases,
                location: location(file, c.pos),
                kind: TestKind::Case(Box::new(c)),
            })
            .collect(),
    })
}

/// A plugin's command line must split like a shell would (the plugin host
/// splits it so); refused at load, where the file can point at it.
fn plugin_commands_split(file: &str, block: &Block) -> Result<(), LoadError> {
    for entry in block.expect().into_iter().flat_map(|e| &e.plugin) {
        if let Err(error) = mcptest_core::__support::process::split_command(&entry.command) {
            return Err(LoadError::at(
                file,
                entry.command_pos,
                format!("`command`: {error}"),
            ));
        }
    }
    Ok(())
}
