//! The legacy HTTP+SSE transport (`Server::sse`) against the fixture's SSE
//! server, well-behaved and misbehaving one way at a time (`--sse-quirk`):
//! every failure ends the connection with what the server did, within the
//! bounds the other transports keep; and servers run in a container
//! (`Server::container`) through the stand-in `docker` of this package.

use std::time::{Duration, Instant};

use mcptest::{Error, Server};
use mcptest_tests::http::HttpFixture;
use serde_json::json;

const EVERYTHING: &str = env!("CARGO_BIN_EXE_fixture-everything");
const AUTH: &str = env!("CARGO_BIN_EXE_fixture-auth");
const CONTAINER: &str = env!("CARGO_BIN_EXE_fixture-container");

fn quirky(quirk: &str) -> HttpFixture {
    HttpFixture::start(EVERYTHING, &["--sse", "--sse-quirk", quirk])
}

/// The error of connecting to `server`, which must fail.
async fn refused(server: Server) -> Error {
    match server.connect().await {
        Ok(mcp) => {
            mcp.close().await;
            panic!("connected, but the server misbehaves")
        }
        Err(e) => e,
    }
}

#[tokio::test]
async fn a_session_calls_tools_and_is_told_apart_from_streamable_http() {
    let fixture = HttpFixture::start(EVERYTHING, &["--sse"]);
    assert!(fixture.url.ends_with("/sse"), "{}", fixture.url);
    let server = Server::sse(&fixture.url);
    assert!(server.is_sse() && !server.is_http() && !server.is_process());
    assert_eq!(
        format!("{server:?}"),
        format!("Server::sse({:?})", fixture.url)
    );
    let mcp = server.connect().await.expect("connect over HTTP+SSE");
    assert_eq!(mcp.server_info().name, "fixture-everything");
    mcp.call_tool("echo", json!({"message": "over sse"}))
        .await
        .assert_success()
        .text_contains("over sse");
    mcp.ping().await.expect("ping");
    mcp.close().await;
}

#[tokio::test]
async fn a_streamable_http_endpoint_is_not_taken_for_an_sse_stream() {
    let fixture = HttpFixture::start(EVERYTHING, &["--http"]);
    let err = refused(Server::sse(&fixture.url)).await.to_string();
    assert!(
        err.contains("not text/event-stream") || err.contains("answered HTTP"),
        "{err}"
    );
    assert!(err.contains(&fixture.url), "{err}");
}

#[tokio::test]
async fn a_server_that_never_names_its_endpoint_fails_at_the_connect_timeout() {
    let fixture = quirky("no-endpoint");
    let started = Instant::now();
    let err = refused(Server::sse(&fixture.url).connect_timeout(Duration::from_secs(3)))
        .await
        .to_string();
    assert!(started.elapsed() < Duration::from_secs(20), "bounded");
    assert!(err.contains("`endpoint`"), "{err}");
}

#[tokio::test]
async fn each_broken_opening_is_named() {
    for (quirk, says) in [
        ("message-first", "not `endpoint`"),
        ("foreign-endpoint", "on another origin"),
        ("not-sse", "not text/event-stream"),
    ] {
        let fixture = quirky(quirk);
        let err = refused(Server::sse(&fixture.url).connect_timeout(Duration::from_secs(10)))
            .await
            .to_string();
        assert!(err.contains(says), "{quirk}: {err}");
    }
}

#[tokio::test]
async fn an_event_over_the_size_limit_ends_the_connection_saying_so() {
    let fixture = quirky("huge-event");
    let err = refused(
        Server::sse(&fixture.url)
            .max_message_size(64 * 1024)
            .connect_timeout(Duration::from_secs(10)),
    )
    .await
    .to_string();
    assert!(err.contains("SSE event of more than"), "{err}");
}

#[tokio::test]
async fn a_line_that_breaks_the_event_stream_format_is_named() {
    let fixture = quirky("bad-line");
    let err = refused(Server::sse(&fixture.url).connect_timeout(Duration::from_secs(10)))
        .await
        .to_string();
    assert!(err.contains("event-stream format"), "{err}");
}

#[tokio::test]
async fn a_stream_that_ends_fails_the_next_request_with_the_reason() {
    let fixture = quirky("drop-after-handshake");
    let mcp = Server::sse(&fixture.url)
        .timeout(Duration::from_secs(10))
        .connect()
        .await
        .expect("the handshake completes");
    tokio::time::sleep(Duration::from_millis(400)).await;
    let err = mcp
        .ping()
        .await
        .expect_err("the stream is gone")
        .to_string();
    assert!(err.contains("ended the SSE stream"), "{err}");
}

#[tokio::test]
async fn a_refused_post_fails_its_request_at_once() {
    let fixture = quirky("refuse-posts");
    let mcp = Server::sse(&fixture.url)
        .timeout(Duration::from_secs(20))
        .connect()
        .await
        .expect("the handshake completes");
    let started = Instant::now();
    let err = mcp.ping().await.expect_err("refused").to_string();
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "not the timeout"
    );
    assert!(err.contains("answered HTTP 404"), "{err}");
    assert!(err.contains("session expired"), "{err}");
}

#[tokio::test]
async fn an_unanswered_post_fails_at_the_request_timeout() {
    let fixture = quirky("slow-posts");
    let mcp = Server::sse(&fixture.url)
        .timeout(Duration::from_millis(800))
        .connect_timeout(Duration::from_secs(10))
        .connect()
        .await
        .expect("the handshake completes");
    let err = mcp.ping().await.expect_err("no answer").to_string();
    assert!(
        err.contains("within 800ms") || err.contains("timed out"),
        "{err}"
    );
}

#[tokio::test]
async fn a_bearer_token_goes_with_the_get_and_every_post_and_is_never_shown() {
    let token = "sse-bearer-token-4f1c";
    let fixture = HttpFixture::start(EVERYTHING, &["--sse", "--bearer", token]);
    let err = refused(Server::sse(&fixture.url)).await.to_string();
    assert!(err.contains("answered HTTP 401"), "{err}");

    let server = Server::sse(&fixture.url).header("Authorization", format!("Bearer {token}"));
    assert!(!format!("{server:?}").contains(token));
    let mcp = server.connect().await.expect("authorized");
    mcp.call_tool("echo", json!({"message": "with a token"}))
        .await
        .assert_success();
    mcp.close().await;

    // The command reads it from the variable `--bearer-env` names (set on
    // the child only: this process's environment is shared by its tests).
    let (code, all) = crate::mcptest(
        &[
            "audit",
            "--sse",
            &fixture.url,
            "--bearer-env",
            "MCPTEST_SSE_TOKEN",
        ],
        &[("MCPTEST_SSE_TOKEN", token)],
    );
    // The fixture's deliberately broken tools fail the audit (exit 1);
    // what matters here is that every call got through.
    assert_eq!(code, Some(1), "{all}");
    assert!(all.contains("PASS  echo"), "{all}");
    assert!(
        all.contains("(HTTP+SSE): FAILED: 21 passed, 2 failed"),
        "{all}"
    );
    assert!(!all.contains(token), "{all}");
}

/// The coprocess (`mcptest exec`, what every SDK drives) reaches a
/// protected SSE server with the token read from the variable it names.
#[tokio::test]
async fn the_coprocess_reaches_a_protected_sse_server_with_a_token_from_the_environment() {
    use tokio::io::AsyncWriteExt;

    let token = "exec-sse-token-77d2";
    let fixture = HttpFixture::start(EVERYTHING, &["--sse", "--bearer", token]);
    let frames = concat!(
        r#"{"jsonrpc": "2.0", "id": 1, "method": "coprocess/handshake", "params": {"protocol_version": 3}}"#,
        "\n",
        r#"{"jsonrpc": "2.0", "id": 2, "method": "mcp.call", "params": {"tool": "echo", "arguments": {"message": "over the bridge"}}}"#,
        "\n",
    );
    let exec = |bearer: Option<&str>| {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcptest-command"));
        command
            .args(["exec", "--connection-server", "--server-sse", &fixture.url])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        if let Some(value) = bearer {
            command
                .args(["--bearer-env", "MCPTEST_EXEC_TOKEN"])
                .env("MCPTEST_EXEC_TOKEN", value);
        }
        command
    };
    let run = |mut command: tokio::process::Command| async move {
        let mut child = command.spawn().expect("mcptest runs");
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(frames.as_bytes()).await.unwrap();
        drop(stdin);
        let out = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
            .await
            .expect("the coprocess ends at EOF")
            .unwrap();
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };

    let all = run(exec(Some(token))).await;
    assert!(all.contains(r#""success":true"#), "{all}");
    assert!(all.contains("over the bridge"), "{all}");
    assert!(!all.contains(token), "{all}");

    let all = run(exec(None)).await;
    assert!(all.contains("answered HTTP 401"), "{all}");
}

/// `mcptest drift sse:URL CMD`: a protected SSE server and the same server
/// over stdio list the same surface; credentials need a side at a URL.
#[test]
fn drift_compares_an_sse_server_with_the_same_server_over_stdio() {
    let token = "drift-sse-token-0b3e";
    let fixture = HttpFixture::start(EVERYTHING, &["--sse", "--bearer", token]);
    let drift = |args: &[&str]| {
        let (code, text) = crate::mcptest(
            &[&["drift"], args].concat(),
            &[("MCPTEST_DRIFT_TOKEN", token)],
        );
        assert!(!text.contains(token), "{text}");
        (code, text)
    };
    // A command line, not the path alone (which drift would read as a file).
    let stdio = format!("env {EVERYTHING}");
    let sse = format!("sse:{}", fixture.url);
    let (code, text) = drift(&[&sse, &stdio, "--bearer-env", "MCPTEST_DRIFT_TOKEN"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("no change"), "{text}");

    let (code, text) = drift(&[&sse, &stdio]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("HTTP 401"), "{text}");

    let (code, text) = drift(&[
        EVERYTHING,
        EVERYTHING,
        "--bearer-env",
        "MCPTEST_DRIFT_TOKEN",
    ]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("the credentials flags are for a side reached at a URL"),
        "{text}"
    );
}

#[tokio::test]
async fn client_credentials_find_the_authorization_server_of_an_sse_server() {
    let fixture = HttpFixture::start(AUTH, &[]);
    let sse = fixture.url.replace("/mcp", "/sse");
    let mcp = Server::sse(&sse)
        .client_credentials("mcptest-client", "mcptest-secret")
        .connect()
        .await
        .expect("a token, then the session");
    mcp.call_tool("echo", json!({"message": "protected"}))
        .await
        .assert_success();
    mcp.close().await;

    let err = refused(Server::sse(&sse).client_credentials("mcptest-client", "wrong-secret"))
        .await
        .to_string();
    assert!(
        !err.contains("wrong-secret"),
        "the secret is never shown: {err}"
    );
}

#[tokio::test]
async fn conformance_judges_an_sse_server_as_the_same_handler_over_stdio() {
    use mcptest::conformance::Conformance;

    let fixture = HttpFixture::start(EVERYTHING, &["--sse"]);
    let verdicts = |report: mcptest::conformance::ConformanceReport| {
        report
            .results
            .iter()
            .map(|r| (r.rule.id.to_string(), r.status, r.cannot_apply.is_some()))
            .collect::<Vec<_>>()
    };
    let checks = |server: Server| {
        Conformance::new(server)
            .only(["classic-*"])
            .timeout(Duration::from_secs(10))
    };
    let over_sse = checks(Server::sse(&fixture.url)).run().await.unwrap();
    // The Streamable HTTP checks fold, naming the transport it is reached over.
    let transport_skip = over_sse
        .results
        .iter()
        .filter_map(|r| r.reason.as_deref())
        .find(|reason| reason.contains("this server is reached over"))
        .unwrap_or_else(|| panic!("no check folded for the transport:\n{over_sse}"));
    assert!(
        transport_skip.contains("the legacy HTTP+SSE transport"),
        "{transport_skip}"
    );
    let over_stdio = checks(Server::program(EVERYTHING)).run().await.unwrap();
    assert!(!over_sse.results.is_empty());
    assert_eq!(verdicts(over_sse), verdicts(over_stdio));
}

/// Each quirk that breaks one of the transport's own rules: the check it
/// fails, the checks it leaves without a session, and words of the reason.
pub(super) const RULE_QUIRKS: [(&str, &str, &[&str], &str); 4] = [
    (
        "message-first",
        "sse-endpoint-event",
        &["sse-post-accepted", "sse-message-events"],
        "not `endpoint`",
    ),
    (
        "foreign-endpoint",
        "sse-endpoint-event",
        &["sse-post-accepted", "sse-message-events"],
        "on another origin",
    ),
    (
        "refuse-posts",
        "sse-post-accepted",
        &[],
        "answered with HTTP 404",
    ),
    (
        "named-replies",
        "sse-message-events",
        &[],
        "an event named `reply`, not `message`",
    ),
];

/// The transport's own rules, each reported by its check with what the
/// server sent: one quirk breaks one rule and leaves the others.
#[tokio::test]
async fn conformance_checks_the_transports_own_rules() {
    use mcptest::conformance::{Conformance, ConformanceReport};
    use mcptest::report::Status;

    async fn sse_checks(server: Server) -> ConformanceReport {
        Conformance::new(server)
            .only(["sse-*"])
            .timeout(Duration::from_secs(5))
            .run()
            .await
            .unwrap()
    }
    let reason = |report: &ConformanceReport, id: &str| {
        let result = report.results.iter().find(|r| r.rule.id == id).unwrap();
        (result.status, result.reason.clone().unwrap_or_default())
    };
    let ids = [
        "sse-endpoint-event",
        "sse-post-accepted",
        "sse-message-events",
    ];

    let fixture = HttpFixture::start(EVERYTHING, &["--sse"]);
    let good = sse_checks(Server::sse(&fixture.url)).await;
    assert_eq!(good.results.len(), 3, "{good}");
    for id in ids {
        assert_eq!(good.status(id), Some(Status::Pass), "{id}:\n{good}");
    }
    let json = good.to_json().to_string();
    assert!(json.contains(r#""transport":"sse""#), "{json}");

    for (quirk, broken, without_session, words) in RULE_QUIRKS {
        let fixture = quirky(quirk);
        let report = sse_checks(Server::sse(&fixture.url)).await;
        let (status, why) = reason(&report, broken);
        assert_eq!(status, Status::Fail, "{quirk}:\n{report}");
        assert!(why.contains(words), "{quirk}: {why}");
        for id in ids.iter().filter(|id| **id != broken) {
            let (status, why) = reason(&report, id);
            if without_session.contains(id) {
                assert_eq!(status, Status::Fail, "{quirk} {id}:\n{report}");
                assert!(
                    why.contains("no session could be opened"),
                    "{quirk} {id}: {why}"
                );
            } else {
                assert_eq!(status, Status::Pass, "{quirk} {id}:\n{report}");
            }
        }
    }

    // Nothing listening is no verdict on a server: the run fails.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let nothing = Conformance::new(Server::sse(format!("http://127.0.0.1:{port}/sse")))
        .only(["sse-*"])
        .run()
        .await
        .unwrap_err()
        .to_string();
    assert!(nothing.contains("refused"), "{nothing}");

    // Over any other transport the rules fold, naming it.
    let over_stdio = sse_checks(Server::program(EVERYTHING)).await;
    for result in &over_stdio.results {
        assert!(result.cannot_apply.is_some(), "{over_stdio}");
        let why = result.reason.as_deref().unwrap_or_default();
        assert!(why.contains("the legacy HTTP+SSE transport"), "{why}");
    }
}

mod container {
    use super::*;

    /// The argv the stand-in recorded, from the server's stderr.
    fn recorded(stderr: &str) -> Vec<String> {
        let line = stderr
            .lines()
            .find_map(|l| l.strip_prefix("fixture-container: "))
            .unwrap_or_else(|| panic!("the stand-in ran: {stderr}"));
        let json = line
            .split_once(' ')
            .map(|(_, argv)| argv)
            .unwrap_or_default();
        serde_json::from_str(json).expect("a JSON argv")
    }

    #[tokio::test]
    async fn the_command_runs_in_the_image_with_the_fixture_and_env_passed_in() {
        let fixture = tempfile::tempdir().unwrap();
        std::fs::write(fixture.path().join("note.txt"), "kept").unwrap();
        let server = Server::program(EVERYTHING)
            .args(["--root", "{{fixture}}"])
            .env("ZED", "z")
            .env("ALPHA", "a b")
            .container("ghcr.io/example/everything:1")
            .container_runtime(CONTAINER)
            .fixture_dir(fixture.path());
        assert!(format!("{server:?}").contains(".container(\"ghcr.io/example/everything:1\")"));
        let mcp = server
            .connect()
            .await
            .expect("the server runs in the stand-in");
        let dir = std::path::absolute(fixture.path()).unwrap();
        let dir = dir.to_string_lossy().into_owned();
        let argv = recorded(&mcp.stderr());
        assert_eq!(
            argv[1..],
            [
                "run".to_owned(),
                "--rm".into(),
                "-i".into(),
                "-v".into(),
                format!("{dir}:{dir}"),
                "-e".into(),
                "ALPHA=a b".into(),
                "-e".into(),
                "ZED=z".into(),
                "ghcr.io/example/everything:1".into(),
                EVERYTHING.into(),
                "--root".into(),
                dir.clone(),
            ]
        );
        mcp.call_tool("echo", json!({"message": "from the container"}))
            .await
            .assert_success();
        mcp.close().await;
    }

    #[tokio::test]
    async fn a_runtime_that_refuses_fails_the_connection_with_its_words() {
        // The stand-in refuses a mount of a directory that does not exist.
        let err = refused(
            Server::program(EVERYTHING)
                .container("img")
                .container_runtime(CONTAINER)
                .fixture_dir("/nonexistent/mcptest-fixture")
                .connect_timeout(Duration::from_secs(10)),
        )
        .await
        .to_string();
        assert!(
            err.contains("this stand-in mounts an existing directory"),
            "{err}"
        );
    }

    #[tokio::test]
    async fn container_applies_to_a_server_process_only() {
        let err = refused(Server::sse("http://127.0.0.1:9/sse").container("img"))
            .await
            .to_string();
        assert!(err.contains("container"), "{err}");
    }
}

/// mcp-assert files that say `transport: sse` and `docker:`, and the
/// command's `--docker`, run by `mcptest run` with the peer's meaning.
mod suite_files {
    use super::*;

    const MCPTEST: &str = env!("CARGO_BIN_EXE_mcptest-command");

    fn echo_file(name: &str, server: &str) -> String {
        format!(
            "name: {name}\nserver:\n{server}assert:\n  tool: echo\n  args: {{message: \"hi there\"}}\n  expect:\n    contains: [\"hi there\"]\n"
        )
    }

    #[test]
    fn sse_and_docker_files_run_and_the_run_s_image_serves_the_rest() {
        let sse = HttpFixture::start(EVERYTHING, &["--sse"]);
        let dir = tempfile::tempdir().unwrap();
        let suite = dir.path().join("suite");
        std::fs::create_dir(&suite).unwrap();
        let files = [
            (
                "own_image.yaml",
                echo_file(
                    "own image",
                    &format!("  command: {EVERYTHING}\n  docker: file-image:1\n"),
                ),
            ),
            (
                "run_image.yaml",
                echo_file("run image", &format!("  command: {EVERYTHING}\n")),
            ),
            (
                "over_sse.yaml",
                echo_file(
                    "over sse",
                    &format!("  transport: sse\n  url: {}\n", sse.url),
                ),
            ),
        ];
        for (name, text) in &files {
            std::fs::write(suite.join(name), text).unwrap();
        }
        // `docker` on PATH is the stand-in, which logs each argv it gets.
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        std::os::unix::fs::symlink(CONTAINER, bin.join("docker")).unwrap();
        let log = dir.path().join("runs.jsonl");
        let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )))
        .unwrap();
        let out = std::process::Command::new(MCPTEST)
            .args(["run", "--timeout", "20s", "--docker", "run-image:2"])
            .arg(&suite)
            .env("PATH", path)
            .env("MCPTEST_STANDIN_LOG", &log)
            .env("NO_COLOR", "1")
            .output()
            .expect("mcptest runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stdout}\n{stderr}");
        assert!(stdout.contains("3 passed"), "{stdout}");
        let runs: Vec<Vec<String>> = std::fs::read_to_string(&log)
            .expect("the stand-in ran")
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let mut images: Vec<&str> = runs
            .iter()
            .map(|argv| {
                let at = argv
                    .iter()
                    .position(|a| a == EVERYTHING)
                    .expect("the command");
                argv[at - 1].as_str()
            })
            .collect();
        images.sort();
        // The file's own image wins; the run's serves the file without
        // one; the SSE file runs no container.
        assert_eq!(images, ["file-image:1", "run-image:2"], "{runs:?}");
    }

    #[test]
    fn docker_without_a_runtime_on_path_is_a_usage_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.yaml"),
            echo_file("a", &format!("  command: {EVERYTHING}\n")),
        )
        .unwrap();
        let out = std::process::Command::new(MCPTEST)
            .args(["run", "--docker", "img"])
            .arg(dir.path())
            .env("PATH", dir.path())
            .output()
            .expect("mcptest runs");
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("--docker img: neither docker nor podman is on PATH"),
            "{stderr}"
        );
    }
}
