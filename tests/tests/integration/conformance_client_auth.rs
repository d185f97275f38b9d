//! Client conformance of MCP authorization: `fixture-client --auth` gets
//! and uses its token from the protected recording server
//! (`ClientConformance::authorization`) and passes every check; each of its
//! `--broken-*` flags fails the check of the rule it breaks and no other; a
//! client without authorization fails discovery with the reason; an
//! unprotected run skips every authorization check as unprotected. The
//! registration check follows the approach the authorization server
//! offers (`ClientConformance::registration`): each passes with a client
//! that registers that way, and each `--broken-*` flag of a registration
//! rule fails the registration check and no other.

use mcptest::{
    conformance::{
        ClientConformance, ClientRegistration, ConformanceReport, Level, Role, catalogue,
    },
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

const REGISTRATION: &str = "mcp-client-auth-registration";

async fn registering(registration: ClientRegistration, flags: &str) -> ConformanceReport {
    ClientConformance::http()
        .authorization(true)
        .registration(registration)
        .only([format!("{AUTH}*")])
        .run_command(&format!("{CLIENT} --url {{{{url}}}} --auth {flags}"))
        .await
        .unwrap()
}

/// Every authorization check passes but `broken`, which fails (with
/// evidence and a reason that says `reason`).
fn only_broken(report: &ConformanceReport, case: &str, broken: Option<(&str, &str)>) {
    for id in auth_ids() {
        let result = report.result(id).unwrap();
        let expected = match broken {
            Some((b, _)) if b == id => Status::Fail,
            _ => Status::Pass,
        };
        assert_eq!(
            result.status, expected,
            "{case}: {id} {:?}\n{report}",
            result.reason
        );
        if let Some((b, reason)) = broken
            && b == id
        {
            assert!(!result.evidence.is_empty(), "{case}: {report}");
            let said = result.reason.as_deref().unwrap_or_default();
            assert!(said.contains(reason), "{case}: {said}");
        }
    }
}

fn pre_registered() -> ClientRegistration {
    ClientRegistration::pre_registered("fixture-client-known")
}

fn confidential() -> ClientRegistration {
    pre_registered().with_secret("s3cret:+/ x")
}

const PRE_REGISTERED: &str = "--client-id fixture-client-known";
const CONFIDENTIAL: &str = "--client-id fixture-client-known --client-secret 's3cret:+/ x'";

#[tokio::test]
async fn each_registration_approach_passes_with_a_client_that_uses_it() {
    let cases = [
        ("dynamic", ClientRegistration::Dynamic, ""),
        ("pre-registered", pre_registered(), PRE_REGISTERED),
        ("confidential", confidential(), CONFIDENTIAL),
        (
            "metadata document",
            ClientRegistration::MetadataDocument,
            "--metadata-document",
        ),
    ];
    let reports = futures::future::join_all(
        cases
            .iter()
            .map(|(_, registration, flags)| registering(registration.clone(), flags)),
    )
    .await;
    for ((case, registration, _), report) in cases.iter().zip(reports) {
        only_broken(&report, case, None);
        let note = report.result(REGISTRATION).unwrap().reason.clone();
        let (approach, document_fetched) = match registration {
            ClientRegistration::Dynamic => ("dynamic client registration", false),
            ClientRegistration::MetadataDocument => ("Client ID Metadata Documents", true),
            _ => ("pre-registration", false),
        };
        assert!(
            note.as_deref().unwrap_or_default().contains(approach),
            "{case}: {note:?}"
        );
        // The document's fetch is evidence of the registration.
        let evidence = &report.result(REGISTRATION).unwrap().evidence;
        let fetched = evidence
            .iter()
            .any(|e| e.request.headers.iter().any(|(n, _)| n == ":url"));
        assert_eq!(fetched, document_fetched, "{case}: {report}");
    }
}

/// Each flag breaks one rule of the approach in force: the registration
/// check fails with the reason, every other authorization check passes.
#[tokio::test]
async fn each_broken_registration_fails_the_registration_check_only() {
    let cases = [
        (
            pre_registered(),
            format!("{PRE_REGISTERED} --broken-pre-registered-id"),
            "/authorize: client_id \"fixture-client-not-pre-registered\", not the pre-registered \"fixture-client-known\"",
        ),
        (
            pre_registered(),
            format!("{PRE_REGISTERED} --broken-registers-anyway"),
            "registered dynamically, but this authorization server offers only pre-registration",
        ),
        (
            confidential(),
            format!("{CONFIDENTIAL} --broken-client-secret"),
            "no client secret",
        ),
        (
            confidential(),
            format!("{PRE_REGISTERED} --client-secret wrong"),
            "the client secret presented by client_secret_basic is not the pre-registered one",
        ),
        (
            ClientRegistration::MetadataDocument,
            "--metadata-document --broken-registers-anyway".to_owned(),
            "offers only Client ID Metadata Documents",
        ),
        (
            ClientRegistration::MetadataDocument,
            "--metadata-document --broken-document-id".to_owned(),
            "is not its URL",
        ),
        (
            ClientRegistration::MetadataDocument,
            "--metadata-document --broken-document-redirect".to_owned(),
            "do not hold the redirect_uri",
        ),
        (
            ClientRegistration::MetadataDocument,
            PRE_REGISTERED.to_owned(),
            "is no URL",
        ),
        (
            pre_registered(),
            "--metadata-document".to_owned(),
            "/token: client_id \"http://127.0.0.1:",
        ),
    ];
    let reports = futures::future::join_all(
        cases
            .iter()
            .map(|(registration, flags, _)| registering(registration.clone(), flags)),
    )
    .await;
    for ((_, flags, reason), report) in cases.iter().zip(reports) {
        only_broken(&report, flags, Some((REGISTRATION, reason)));
    }
}

/// A client that only knows dynamic registration meets a server that
/// offers none: it never authorizes, and the registration check fails
/// with that reason rather than passing for want of a request to judge.
#[tokio::test]
async fn a_dynamic_only_client_fails_registration_with_the_reason() {
    for registration in [pre_registered(), ClientRegistration::MetadataDocument] {
        let report = registering(registration.clone(), "").await;
        let result = report.result(REGISTRATION).unwrap();
        assert_eq!(result.status, Status::Fail, "{registration:?}\n{report}");
        let reason = result.reason.as_deref().unwrap_or_default();
        assert!(
            reason.contains("never sent an authorization request"),
            "{reason}"
        );
    }
}

#[tokio::test]
async fn a_registration_approach_without_protection_is_a_clear_error() {
    let err = ClientConformance::http()
        .registration(ClientRegistration::MetadataDocument)
        .run_command(&format!("{CLIENT} --url {{{{url}}}}"))
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("needs authorization(true)"),
        "{err}"
    );
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

    // The registration approach, from the command line.
    let (code, text) = crate::mcptest(
        &[
            &[
                "conformance",
                "--client-http",
                &client("--metadata-document"),
                "--client-metadata-document",
            ],
            &only[..],
        ]
        .concat(),
        &[],
    );
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("11 checks, 11 passed, 0 failed"), "{text}");
    let (code, text) = crate::mcptest(
        &[
            &[
                "conformance",
                "--client-http",
                &client("--client-id other"),
                "--pre-registered-client-id",
                "known",
            ],
            &only[..],
        ]
        .concat(),
        &[],
    );
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("11 checks, 10 passed, 1 failed"), "{text}");
    assert!(
        text.contains("FAIL  MUST    mcp-client-auth-registration"),
        "{text}"
    );

    let (code, text) = crate::mcptest(&["conformance", "--client", CLIENT, "--protected"], &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("--protected is for a client checked with --client-http"),
        "{text}"
    );
}
