//! How a scan shows an error of the server (it exited, timed out, broke
//! the protocol) as a failure: its words, its exit status, and the server's
//! output in a block of its own.

use mcptest_core::Error;
use mcptest_core::expect::{Evidence, Failure, Miss, Shown};

/// A failure whose evidence is `error` (its words, without the server output
/// it carries, which the failure shows in its own block).
pub(crate) fn failure_of_error(call: Option<String>, expected: &str, error: &Error) -> Failure {
    let output = error.server_output().cloned().unwrap_or_default();
    let mut words = error.to_string();
    let tail = output.to_string();
    if !tail.is_empty()
        && let Some(head) = words.strip_suffix(&tail)
    {
        words = head.to_owned();
    }
    let mut evidence = Evidence::new().note(words.trim_end().to_owned());
    if let Error::ServerExited { status, .. } = error {
        let status = match status {
            Some(status) => status
                .code()
                .map_or_else(|| status.to_string(), |code| code.to_string()),
            None => "unknown".to_owned(),
        };
        evidence = evidence.actual(Shown::plain("exit status", status));
    }
    Failure::new(call, vec![Miss::new(expected, evidence)], output)
}
