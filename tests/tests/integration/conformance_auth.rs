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
