//! Authorization of a protected server: the `auth-*` checks pass against
//! `fixture-auth` and each fails against `fixture-auth --broken <its id>`
//! (they apply over HTTP alone); the harness obtains its token by the
//! client-credentials grant and says clearly when the grant is refused.

use std::time::Duration;

use mcptest::{
    Server,
    conformance::{Conformance, Level},
    report::Status,
};
use mcptest_tests::http::HttpFixture;
use serde_json::json;

const AUTH: &str = env!("CARGO_BIN_EXE_fixture-auth");
const CLIENT_ID: &str = "mcptest-client";
const CLIENT_SECRET: &str = "mcptest-secret";

/// Every authorization check; `fixture-auth --broken <id>` breaks each.
pub(crate) const CASES: &[&str] = &[
    "classic-auth-401-www-authenticate",
    "classic-auth-protected-resource-metadata",
    "classic-auth-audience-rejected",
    "classic-auth-invalid-token",
    "classic-auth-insufficient-scope",
    "classic-auth-token-in-query-rejected",
];

fn checks(server: Server) -> Conformance {
    Conformance::new(server)
        .only(["classic-auth-*"])
        .timeout(Duration::from_secs(10))
}

fn protected(url: &str) -> Server {
    Server::url(url).client_credentials(CLIENT_ID, CLIENT_SECRET)
}

#[tokio::test]
async fn the_protected_fixture_passes_every_auth_check() {
    let fixture = HttpFixture::start(AUTH, &[]);
    let report = checks(protected(&fixture.url)).run().await.unwrap();
    assert_eq!(report.results.len(), CASES.len(), "{report}");
    assert_eq!(report.counts().passed, CASES.len(), "{report}");
    report.assert_conforms();
}

#[tokio::test]
async fn each_auth_check_fails_against_the_fixture_that_breaks_it() {
    for id in CASES {
        let fixture = HttpFixture::start(AUTH, &["--broken", id]);
        // With its metadata naming no authorization server, no token can
        // be obtained: that check needs none.
        let server = match *id {
            "classic-auth-protected-resource-metadata" => Server::url(&fixture.url),
            _ => protected(&fixture.url),
        };
        let report = checks(server).only([*id]).run().await.unwrap();
        let result = report.result(id).unwrap();
        let expected = match result.rule.level {
            Level::Must => Status::Fail,
            Level::Should => Status::Warn,
        };
        assert_eq!(result.status, expected, "--broken {id}\n{report}");
        assert!(result.reason.is_some(), "{report}");
    }
}

#[tokio::test]
async fn without_credentials_the_checks_that_need_tokens_say_so() {
    let fixture = HttpFixture::start(AUTH, &[]);
    let report = checks(Server::url(&fixture.url)).run().await.unwrap();
    for id in [
        "classic-auth-401-www-authenticate",
        "classic-auth-protected-resource-metadata",
        "classic-auth-invalid-token",
    ] {
        assert_eq!(report.status(id), Some(Status::Pass), "{report}");
    }
    for id in [
        "classic-auth-audience-rejected",
        "classic-auth-insufficient-scope",
        "classic-auth-token-in-query-rejected",
    ] {
        let result = report.result(id).unwrap();
        assert_eq!(result.status, Status::Skip, "{report}");
        assert!(
            result
                .reason
                .as_deref()
                .unwrap()
                .starts_with("no client credentials were given"),
            "{report}"
        );
    }
}

#[tokio::test]
async fn the_harness_obtains_its_token_by_client_credentials_and_calls_a_tool() {
    let fixture = HttpFixture::start(AUTH, &[]);
    let mcp = protected(&fixture.url).connect().await.unwrap();
    let echo = mcp.call_tool("echo", json!({"message": "let in"})).await;
    assert!(echo.is_success(), "{echo:?}");
    assert_eq!(echo.text(), "let in");
    mcp.close().await;
}

#[tokio::test]
async fn a_token_url_skips_discovery_and_a_wrong_one_is_named() {
    let fixture = HttpFixture::start(AUTH, &[]);
    let base = fixture.url.trim_end_matches("/mcp");
    let credentials = |token_url: String| {
        mcptest::ClientCredentials::new(CLIENT_ID, CLIENT_SECRET).token_url(token_url)
    };
    let mcp = Server::url(&fixture.url)
        .oauth_client(credentials(format!("{base}/token")))
        .connect()
        .await
        .expect("a token from the named endpoint");
    assert!(
        mcp.call_tool("echo", json!({"message": "in"}))
            .await
            .is_success()
    );
    mcp.close().await;

    let error = Server::url(&fixture.url)
        .oauth_client(credentials(format!("{base}/no-token-here")))
        .connect()
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("/no-token-here"), "{error}");
    assert!(!error.contains(CLIENT_SECRET), "{error}");
}

#[tokio::test]
async fn a_wrong_secret_is_a_clear_error_naming_the_refusal() {
    let fixture = HttpFixture::start(AUTH, &[]);
    let error = Server::url(&fixture.url)
        .client_credentials(CLIENT_ID, "not-the-secret")
        .connect()
        .await
        .unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("refused client \"mcptest-client\" with HTTP 401")
            && text.contains("invalid_client: unknown client or wrong secret")
            && text.contains("/token"),
        "{text}"
    );
    // Without credentials the server refuses the handshake itself.
    let error = Server::url(&fixture.url).connect().await.unwrap_err();
    assert!(
        error
            .to_string()
            .contains("authorization required: Bearer resource_metadata="),
        "{error}"
    );
}

/// The command line reaches the protected fixture with the credentials
/// flags; neither the secret nor a token appears in anything it writes.
mod command_line {
    use super::*;

    const MCPTEST: &str = env!("CARGO_BIN_EXE_mcptest-command");
    /// The variable this module's runs read the secret from (set on the
    /// child process only).
    const SECRET_VAR: &str = "MCPTEST_TEST_CLIENT_SECRET";

    /// Runs `mcptest ARGS` with the secret in its environment; returns the
    /// exit code and everything it printed and wrote under `dir`.
    fn run(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
        let out = std::process::Command::new(MCPTEST)
            .args(args)
            .current_dir(dir)
            .env(SECRET_VAR, CLIENT_SECRET)
            .env("NO_COLOR", "1")
            .output()
            .expect("mcptest runs");
        let mut all = String::from_utf8_lossy(&out.stdout).into_owned();
        all.push_str(&String::from_utf8_lossy(&out.stderr));
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                all.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
            }
        }
        (out.status.code(), all)
    }

    fn assert_nothing_secret(all: &str) {
        assert!(!all.contains(CLIENT_SECRET), "the secret was shown:\n{all}");
        // The fixture's tokens are JWTs, which start `eyJ`.
        assert!(!all.contains("eyJ"), "a token was shown:\n{all}");
    }

    #[test]
    fn conformance_and_audit_reach_the_protected_server_and_show_no_secret() {
        let fixture = HttpFixture::start(AUTH, &[]);
        let sse = fixture.url.replace("/mcp", "/sse");
        let credentials = ["--client-id", CLIENT_ID, "--client-secret-env", SECRET_VAR];
        let dir = tempfile::tempdir().unwrap();
        let mut args = vec![
            "conformance",
            "--url",
            fixture.url.as_str(),
            "--only",
            "classic-auth-*",
        ];
        args.extend(credentials);
        args.extend(["--json", "c.json", "--junit", "c.xml", "--markdown", "c.md"]);
        let (code, all) = run(dir.path(), &args);
        assert_eq!(code, Some(0), "{all}");
        assert!(all.contains("classic-auth-insufficient-scope"), "{all}");
        assert_nothing_secret(&all);

        for target in [["--url", fixture.url.as_str()], ["--sse", sse.as_str()]] {
            let dir = tempfile::tempdir().unwrap();
            let mut args = vec!["audit"];
            args.extend(target);
            args.extend(credentials);
            args.extend(["--json", "a.json", "--junit", "a.xml"]);
            let (code, all) = run(dir.path(), &args);
            assert_eq!(code, Some(0), "{target:?}: {all}");
            assert!(all.contains("PASS  echo"), "{target:?}: {all}");
            assert_nothing_secret(&all);
        }
    }

    #[test]
    fn a_refused_grant_says_so_without_the_secret() {
        let fixture = HttpFixture::start(AUTH, &[]);
        let dir = tempfile::tempdir().unwrap();
        let (code, all) = run(
            dir.path(),
            &[
                "audit",
                "--url",
                &fixture.url,
                "--client-id",
                "not-a-client",
                "--client-secret-env",
                SECRET_VAR,
                "--json",
                "a.json",
            ],
        );
        assert_ne!(code, Some(0), "{all}");
        assert!(all.contains("not-a-client"), "the client is named: {all}");
        assert_nothing_secret(&all);
    }

    #[test]
    fn run_authorizes_with_a_files_auth_block_or_the_runs_flags() {
        let fixture = HttpFixture::start(AUTH, &[]);
        let sse = fixture.url.replace("/mcp", "/sse");
        let dir = tempfile::tempdir().unwrap();
        let suite = dir.path().join("suite");
        std::fs::create_dir(&suite).unwrap();
        let file = |name: &str, server: String| {
            let text = format!(
                "name: {name}\nserver:\n{server}assert:\n  tool: echo\n  args: {{message: \"let me in\"}}\n  expect:\n    contains: [\"let me in\"]\n"
            );
            std::fs::write(suite.join(format!("{name}.yaml")), text).unwrap();
        };
        file(
            "own_block",
            format!(
                "  url: {}\n  auth:\n    client_id: {CLIENT_ID}\n    client_secret_env: {SECRET_VAR}\n",
                fixture.url
            ),
        );
        file("run_flags", format!("  url: {}\n", fixture.url));
        file("run_flags_sse", format!("  transport: sse\n  url: {sse}\n"));
        let suite = suite.to_string_lossy().into_owned();

        // Without the run's credentials, only the file with its own block
        // gets in; the others are refused with the server's 401.
        let (code, all) = run(dir.path(), &["run", &suite, "--json", "plain.json"]);
        assert_eq!(code, Some(1), "{all}");
        assert!(all.contains("1 passed, 2 failed"), "{all}");
        assert!(all.contains("401"), "{all}");
        assert_nothing_secret(&all);

        let (code, all) = run(
            dir.path(),
            &[
                "run",
                &suite,
                "--client-id",
                CLIENT_ID,
                "--client-secret-env",
                SECRET_VAR,
                "--json",
                "flags.json",
                "--junit",
                "flags.xml",
            ],
        );
        assert_eq!(code, Some(0), "{all}");
        assert!(all.contains("3 passed"), "{all}");
        assert_nothing_secret(&all);
    }

    #[test]
    fn an_unset_secret_variable_is_a_usage_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let (code, all) = run(
            dir.path(),
            &[
                "conformance",
                "--url",
                "http://127.0.0.1:9/mcp",
                "--client-id",
                CLIENT_ID,
                "--client-secret-env",
                "MCPTEST_TEST_NO_SUCH_SECRET",
            ],
        );
        assert_eq!(code, Some(2), "{all}");
        assert!(
            all.contains(
                "--client-secret-env MCPTEST_TEST_NO_SUCH_SECRET: the variable is not set"
            ),
            "{all}"
        );
    }
}
