//! A child process waited for with a deadline: the `cargo build` that some
//! tests start before they can run (a cold one takes minutes), the command
//! under test asked to exit. Included by path wherever a test needs it (the
//! e2e binary here, the command's own tests), so that there is one such
//! wait.

use std::{
    io::Read as _,
    process::{Child, ExitStatus},
    time::{Duration, Instant},
};

/// Waits for `child`, started with its stderr piped, for at most `limit`,
/// and returns its exit status and all it wrote to stderr (read on a thread
/// meanwhile, so that a full pipe never stalls it). Past `limit` the child
/// is killed and reaped, and the test panics saying that `what` ran over.
pub(crate) fn wait_bounded(mut child: Child, limit: Duration, what: &str) -> (ExitStatus, String) {
    let mut stderr = child
        .stderr
        .take()
        .expect("the child's stderr is piped (Stdio::piped())");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let status = exit_within(&mut child, limit, what);
    (status, reader.join().unwrap_or_default())
}

/// Waits for `child` to exit for at most `limit`, polling; past it the
/// child is killed and reaped, and the test panics saying that `what` ran
/// over.
pub(crate) fn exit_within(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} took over {} s", limit.as_secs());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
