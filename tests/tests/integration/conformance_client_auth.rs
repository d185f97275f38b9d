//! Client conformance of MCP authorization: `fixture-client --auth` gets
//! and uses its token from the protected recording server
//! (`ClientConformance::authorization`) and passes every check; each of its
//! `--broken-*` flags fails the check of the rule it breaks and no other; a
//! client without authorization fails discovery with the reason; an
//! unprotected run skips every authorization check as unprotected.

use mcptest::{
    conformance::{ClientConformance, ConformanceReport, Level, Role, catalogue},
    report::Status,
};

const CLIENT: &str = env!("CARGO_BIN_EXE_fixture-client");
const AUTH: &str = "mcp-client-auth-";

fn auth_ids() -> Vec<&'static str> {
    catalogue()
        .iter()
        .filter(|c| c.role == Role::Client && c.id.starts_with(AUTH))
        .map(|c| c.id)
        .collect()
}

async fn protected(flags: &str) -> ConformanceReport {
    ClientConformance::http()
        .authorization(true)
        .run_command(&format!("{CLIENT} --url {{{{url}}}} --auth {flags}"))
        .await
        .unwrap()
}

#[tokio::test]
async fn an_authorizing_client_passes_every_check() {
    let report = protected("--start-unsupported").await;
    assert_eq!(auth_ids().len(), 11);
    let wrong: Vec<String> = report
        .results
        .iter()
        .filter(|r| r.rule.applies != mcptest::conformance::Applies::Stdio)
        .filter(|r| r.status != Status::Pass)
        .map(|r| format!("{}: {} {:?}", r.rule.id, r.status, r.reason))
        .collect();
    assert!(wrong.is_empty(), "{wrong:?}\n{report}");
    report.assert_conforms();
    // The refresh and the step-up happened (judged, not skipped).
    for id in ["mcp-client-auth-refresh", "mcp-client-auth-step-up"] {
        assert!(!report.result(id).unwrap().evidence.is_empty(), "{id}");
    }
}

/// Each flag fails the check it names, and every other authorization
/// check still passes.
#[tokio::test]
async fn each_broken_flag_fails_its_check_and_only_it() {
    let cases = [
        (
            "--broken-resource-metadata",
            "mcp-client-auth-resource-metadata-discovery",
        ),
        (
            "--broken-server-metadata",
            "mcp-client-auth-server-metadata-discovery",
        ),
        ("--broken-registration", "mcp-client-auth-registration"),
        ("--broken-pkce", "mcp-client-auth-pkce-s256"),
        ("--broken-resource", "mcp-client-auth-resource-parameter"),
        ("--broken-state", "mcp-client-auth-state"),
        ("--broken-redirect", "mcp-client-auth-registered-redirect"),
        ("--broken-token-in-query", "mcp-client-auth-bearer-header"),
        ("--broken-refresh", "mcp-client-auth-refresh"),
        ("--broken-step-up", "mcp-client-auth-step-up"),
        ("--broken-audience", "mcp-client-auth-token-audience"),
    ];
    assert_eq!(cases.len(), auth_ids().len());
    for (flag, broken) in cases {
        let report = protected(flag).await;
        for id in auth_ids() {
            let result = report.result(id).unwrap();
            let expected = match (id == broken, result.rule.level) {
                (false, _) => Status::Pass,
                (true, Level::Must) => Status::Fail,
                (true, Level::Should) => Status::Warn,
            };
            assert_eq!(
                result.status, expected,
                "{flag}: {id} {:?}\n{report}",
                result.reason
            );
            if id == broken {
                assert!(!result.evidence.is_empty(), "{flag}: {report}");
            }
        }
    }
}

#[tokio::test]
async fn a_client_without_authorization_fails_discovery_with_the_reason() {
    let report = ClientConformance::http()
        .authorization(true)
        .only([format!("{AUTH}*")])
        .run_command(&format!("{CLIENT} --url {{{{url}}}}"))
        .await
        .unwrap();
    let discovery = report
        .result("mcp-client-auth-resource-metadata-discovery")
        .unwrap();
    assert_eq!(discovery.status, Status::Fail, "{report}");
    let reason = discovery.reason.clone().unwrap_or_default();
    assert!(
        reason.contains("met a 401 but never fetched the Protected Resource Metadata"),
        "{reason}"
    );
    // Nothing is passed vacuously: every check fails, each with its reason.
    for id in auth_ids() {
        let result = report.result(id).unwrap();
        if id == "mcp-client-auth-step-up" {
            // It never got far enough to call a tool.
            assert_eq!(result.status, Status::Skip, "{id}\n{report}");
            continue;
        }
        assert_ne!(result.status, Status::Pass, "{id}\n{report}");
        assert!(result.reason.is_some(), "{id}");
    }
}

#[tokio::test]
async fn an_unprotected_run_skips_every_authorization_check() {
    let report = ClientConformance::http()
        .only([format!("{AUTH}*")])
        .run_command(&format!("{CLIENT} --url {{{{url}}}} --auth"))
        .await
        .unwrap();
    for id in auth_ids() {
        let result = report.result(id).unwrap();
        assert_eq!(result.status, Status::Skip, "{id}\n{report}");
        assert!(
            result
                .reason
                .as_deref()
                .unwrap_or_default()
                .contains("never met a 401"),
            "{id}: {:?}",
            result.reason
        );
    }
}

#[tokio::test]
async fn authorization_over_stdio_is_a_clear_error() {
    let err = ClientConformance::stdio()
        .authorization(true)
        .run_command(CLIENT)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("needs Streamable HTTP"), "{err}");
}

/// `mcptest conformance --client-http CMD --protected`: the same checks
/// from the command line, the run failing on the one rule a flag breaks;
/// `--protected` without `--client-http` is a usage error.
#[test]
fn the_command_judges_a_client_s_authorization() {
    let client = |flags: &str| format!("{CLIENT} --url {{{{url}}}} --auth {flags}");
    let only = ["--protected", "--only", "mcp-client-auth-*"];

    let passing = client("");
    let (code, text) = crate::mcptest(
        &[&["conformance", "--client-http", &passing], &only[..]].concat(),
        &[],
    );
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("11 checks, 11 passed, 0 failed"), "{text}");

    let broken = client("--broken-pkce");
    let (code, text) = crate::mcptest(
        &[&["conformance", "--client-http", &broken], &only[..]].concat(),
        &[],
    );
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("11 checks, 10 passed, 1 failed"), "{text}");
    assert!(
        text.contains("FAIL  MUST    mcp-client-auth-pkce-s256"),
        "{text}"
    );

    let (code, text) = crate::mcptest(&["conformance", "--client", CLIENT, "--protected"], &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("--protected is for a client checked with --client-http"),
        "{text}"
    );
}
