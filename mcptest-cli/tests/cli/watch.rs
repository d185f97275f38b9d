use std::{
    io::{BufRead, BufReader},
    process::Stdio,
    time::{Duration, Instant},
};

use super::*;

/// Starts `mcptest watch` (two runs at most), waits for the first run,
/// breaks the file, and reads what the second run says.
#[test]
fn a_change_reruns_and_names_what_flipped() {
    let ws = Workspace::new(&[("evals/adds.yaml", PASSING)]);
    let mut child = std::process::Command::new(MCPTEST)
        .current_dir(ws.dir.path())
        .args(["watch", "evals", "--max-runs", "2", "--server", &server()])
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (lines, seen) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut transcript = Vec::new();
    let mut wait_for = |needle: &str, transcript: &mut Vec<String>| loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match seen.recv_timeout(left) {
            Ok(line) => {
                let found = line.contains(needle);
                transcript.push(line);
                if found {
                    return;
                }
            }
            Err(_) => {
                let _ = child.kill();
                panic!("no {needle:?} within 60 s:\n{}", transcript.join("\n"));
            }
        }
    };
    wait_for("watching evals for changes", &mut transcript);
    ws.write("evals/adds.yaml", &PASSING.replace("\"5\"", "\"6\""));
    wait_for(
        "flipped: evals/adds.yaml: adds PASS -> FAIL",
        &mut transcript,
    );
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{}", transcript.join("\n"));
}
