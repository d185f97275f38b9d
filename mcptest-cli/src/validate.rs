//! `mcptest validate`: loads every file without running it and reports each
//! file that cannot be used, as `file:line:column: message`.

use mcptest::suite::Suite;

use crate::{Exit, args::ValidateArgs, paths};

pub fn validate(args: ValidateArgs) -> Exit {
    let files = match paths::expand(&args.paths) {
        Ok(files) => files,
        Err(errors) => {
            for e in errors {
                eprintln!("mcptest: {e}");
            }
            return Exit::Usage;
        }
    };
    let mut problems = 0;
    let mut tests = 0;
    for file in &files {
        match Suite::load(file) {
            Ok(suite) => tests += suite.tests().len(),
            Err(e) => {
                println!("{e}");
                problems += 1;
            }
        }
    }
    println!(
        "{} file{}, {tests} test{}, {problems} problem{}",
        files.len(),
        plural(files.len()),
        plural(tests),
        plural(problems)
    );
    if problems == 0 {
        Exit::Pass
    } else {
        Exit::Failures
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
