use super::*;

/// The server, started through `sh` so each start leaves a line in
/// `starts.txt` (then `exec` makes the shell the server itself).
fn counting_server() -> String {
    format!("sh -c 'echo $$ >> starts.txt; exec \"$0\" mock contract.yaml' '{MCPTEST}'")
}

#[test]
fn shared_runs_every_file_on_one_server() {
    let ws = Workspace::new(&[
        ("a.yaml", PASSING),
        ("b.yaml", PASSING),
        ("c.yaml", PASSING),
    ]);
    let server = counting_server();
    for (flag, starts) in [(Some("--shared"), 1), (None, 3)] {
        let _ = std::fs::remove_file(ws.path("starts.txt"));
        let mut args = vec!["run", "a.yaml", "b.yaml", "c.yaml", "--server", &server];
        args.extend(flag);
        let out = output(ws.mcptest(&args));
        assert_eq!(out.code, Some(0), "{flag:?}: {out:?}");
        assert!(out.stdout.contains("3 passed"), "{out:?}");
        let starts_seen = ws.read("starts.txt").lines().count();
        assert_eq!(starts_seen, starts, "{flag:?}: {out:?}");
        for pid in ws.read("starts.txt").lines() {
            assert_stopped(pid);
        }
    }
}

/// The process `pid` is gone (or a zombie awaiting its new parent) within 10 s.
fn assert_stopped(pid: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.trim().chars().next());
        if state.is_none_or(|s| s == 'Z') {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "server {pid} outlived `mcptest run`: {stat}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// A test's server is stopped after its verdict, beside the next test;
/// still, none outlives the run, and `--jobs 1` keeps one at a time.
/// These servers linger after their input closes (the shell sleeps on),
/// so each needs the grace period and a kill. Each start notes in
/// `overlaps.txt` any earlier server still there.
#[test]
fn servers_stopped_beside_the_next_test_are_all_gone_when_the_run_ends() {
    let ws = Workspace::new(&[
        ("a.yaml", PASSING),
        ("b.yaml", PASSING),
        ("c.yaml", PASSING),
        ("d.yaml", PASSING),
    ]);
    let server = format!(
        "sh -c 'for p in $(cat starts.txt); do kill -0 $p 2>/dev/null && echo $p >> overlaps.txt; done; \
             echo $$ >> starts.txt; \"$0\" mock contract.yaml; sleep 30' '{MCPTEST}'"
    );
    // (--jobs, --trials, server starts)
    for (jobs, trials, starts) in [("1", "1", 4), ("2", "1", 4), ("1", "2", 8)] {
        ws.write("starts.txt", "");
        ws.write("overlaps.txt", "");
        let out = output(ws.mcptest(&[
            "run", "a.yaml", "b.yaml", "c.yaml", "d.yaml", "--jobs", jobs, "--trials", trials,
            "--server", &server,
        ]));
        assert_eq!(out.code, Some(0), "--jobs {jobs}: {out:?}");
        assert!(out.stdout.contains("4 passed"), "{out:?}");
        let pids = ws.read("starts.txt");
        assert_eq!(pids.lines().count(), starts, "{out:?}");
        for pid in pids.lines() {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"));
            assert!(
                stat.is_err(),
                "--jobs {jobs}: server {pid} outlived `mcptest run`: {stat:?}"
            );
        }
        if jobs == "1" {
            assert_eq!(
                ws.read("overlaps.txt"),
                "",
                "--jobs 1 --trials {trials}: one server at a time"
            );
        }
    }
}

/// A cancelled CI job (SIGTERM) or Ctrl-C (SIGINT) stops the run, and
/// its servers with it, though they are in process groups of their own.
/// These servers never answer the handshake and ignore their input
/// closing: only a kill stops them.
#[test]
fn a_signal_kills_every_server_before_the_command_exits() {
    for (signal, code) in [("TERM", 143), ("INT", 130)] {
        let ws = Workspace::new(&[
            ("a.yaml", PASSING),
            ("b.yaml", PASSING),
            ("fixture/x.txt", "x"),
        ]);
        ws.write("starts.txt", "");
        std::fs::create_dir(ws.path("temp")).unwrap();
        let mut child = std::process::Command::new(MCPTEST)
            .current_dir(ws.path(""))
            .args(["run", "a.yaml", "b.yaml", "--jobs", "2", "--timeout", "5m"])
            .args(["--fixture", "fixture"])
            .args(["--server", "sh -c 'echo $$ >> starts.txt; exec sleep 600'"])
            .env("NO_COLOR", "1")
            .env("TMPDIR", ws.path("temp"))
            .env("MCPTEST_KEPT_DIR", ws.path("kept"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while ws.read("starts.txt").lines().count() < 2 {
            assert!(
                std::time::Instant::now() < deadline,
                "the servers did not start"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let sent = std::process::Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = crate::bounded_child::exit_within(
            &mut child,
            std::time::Duration::from_secs(30),
            &format!("mcptest's exit on SIG{signal}"),
        );
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert_eq!(status.code(), Some(code), "SIG{signal}: {stderr}");
        assert!(
            stderr.contains("interrupted; killed 2 servers, removed 2 fixture copies"),
            "SIG{signal}: {stderr}"
        );
        let left: Vec<_> = std::fs::read_dir(ws.path("temp")).unwrap().collect();
        assert!(left.is_empty(), "SIG{signal}: copies left: {left:?}");
        assert!(
            !ws.path("kept").exists(),
            "SIG{signal}: nothing failed, nothing kept"
        );
        for pid in ws.read("starts.txt").lines() {
            assert_stopped(pid);
        }
    }
}

#[test]
fn shared_with_a_fixture_is_a_usage_error() {
    let ws = Workspace::new(&[("a.yaml", PASSING), ("fixture/x.txt", "x")]);
    let out = output(ws.run(&["a.yaml", "--shared", "--fixture", "fixture"]));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("--fixture"), "{out:?}");
}
