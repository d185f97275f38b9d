//! What a run learns before its checks: whether the server speaks the
//! `initialize` handshake (2025-11-25 and earlier), whether it speaks
//! 2026-07-28 (`server/discover`), and so which revisions it speaks. Each
//! check is gated on the revision its rule belongs to, and reads what the
//! gates learned (the capabilities each era declares).

use serde_json::Value;

use crate::model::{CannotApply, Observed};
use crate::support::message::{initialize_params, meta, request, stateless};
use crate::support::probe::Probe;
use crate::support::received::Received;
use crate::support::revision::{CLASSIC, STATELESS};

/// What the two gates found.
pub(crate) struct Facts {
    /// The handshake's facts, or the finding every classic check gets.
    classic: Result<ClassicFacts, Observed>,
    /// The facts of `server/discover`, or why the server does not speak
    /// 2026-07-28.
    stateless: Result<StatelessFacts, String>,
}

impl Facts {
    /// Runs both gates, each on a channel of its own.
    pub(crate) async fn learn(probe: &mut Probe) -> Result<Facts, mcptest_core::Error> {
        let classic = classic_gate(probe).await?;
        let stateless = stateless_gate(probe).await?;
        Ok(Facts { classic, stateless })
    }

    /// The handshake's facts, or the finding of a check that needs them.
    pub(crate) fn classic(&self) -> Result<&ClassicFacts, Observed> {
        self.classic.as_ref().map_err(Clone::clone)
    }

    /// The facts of `server/discover`, or the finding of a check that needs
    /// them: the server does not speak 2026-07-28.
    pub(crate) fn stateless(&self) -> Result<&StatelessFacts, Observed> {
        self.stateless
            .as_ref()
            .map_err(|reason| Observed::CannotApply(CannotApply::Revision, reason.clone()))
    }

    /// Whether the server answers `initialize` with a result: a server
    /// that speaks 2026-07-28 too is a dual-era server.
    pub(crate) fn speaks_classic(&self) -> bool {
        self.classic.is_ok()
    }

    /// The revisions the server was found to speak, oldest first: the one
    /// `initialize` (offering 2025-11-25) agreed on, and those
    /// `server/discover` lists in `supportedVersions` (2026-07-28 alone
    /// when discover itself was refused with a -32022 that lists it).
    pub(crate) fn revisions(&self) -> Vec<String> {
        let mut revisions = Vec::new();
        if let Ok(classic) = &self.classic
            && let Some(version) = &classic.version
        {
            revisions.push(version.clone());
        }
        if let Ok(stateless) = &self.stateless {
            let listed = stateless
                .discover
                .as_ref()
                .and_then(|d| d.get("supportedVersions"))
                .and_then(Value::as_array);
            match listed {
                Some(versions) => {
                    revisions.extend(versions.iter().filter_map(Value::as_str).map(str::to_owned))
                }
                None => revisions.push(STATELESS.to_owned()),
            }
        }
        revisions.sort();
        revisions.dedup();
        revisions
    }
}

/// What the classic gate learned from `initialize`.
pub(crate) struct ClassicFacts {
    pub(crate) capabilities: Value,
    /// The `protocolVersion` the server answered with.
    pub(crate) version: Option<String>,
}

/// Whether `capabilities` declares `name`.
pub(crate) fn declares(capabilities: &Value, name: &str) -> bool {
    capabilities.get(name).is_some_and(|v| !v.is_null())
}

/// Opens a channel and answers whether the server speaks the handshake: the
/// facts, or the finding every classic check gets instead — skipped when
/// `initialize` was refused with an error, failed when it got no answer at
/// all (a server must answer every request).
async fn classic_gate(
    probe: &mut Probe,
) -> Result<Result<ClassicFacts, Observed>, mcptest_core::Error> {
    let ch = probe.open_raw().await?;
    let id = probe.id();
    let reply = probe
        .call_quietly(ch, request(id, "initialize", initialize_params(CLASSIC)))
        .await;
    probe.close_all().await;
    Ok(match reply.result() {
        Some(result) => Ok(ClassicFacts {
            capabilities: result.get("capabilities").cloned().unwrap_or(Value::Null),
            version: result
                .get("protocolVersion")
                .and_then(Value::as_str)
                .map(str::to_owned),
        }),
        None if reply.response.is_some() => Err(Observed::CannotApply(
            CannotApply::Revision,
            format!(
                "the server does not speak the initialize handshake (2025-11-25): initialize got {}",
                reply.describe()
            ),
        )),
        None => Err(Observed::Crashed(format!(
            "initialize (2025-11-25) failed: {}",
            reply.describe()
        ))),
    })
}

/// What the stateless gate learned from `server/discover`.
pub(crate) struct StatelessFacts {
    /// The discover result; `None` when discover was answered with -32022
    /// although its error lists 2026-07-28 as supported.
    pub(crate) discover: Option<Value>,
}

impl StatelessFacts {
    /// The capabilities `server/discover` declared (`null` without them).
    pub(crate) fn capabilities(&self) -> Value {
        self.discover
            .as_ref()
            .and_then(|d| d.get("capabilities"))
            .cloned()
            .unwrap_or(Value::Null)
    }

    /// A list request the server should answer: the first declared list.
    pub(crate) fn list_method(&self) -> &'static str {
        let capabilities = self.capabilities();
        ["tools", "prompts", "resources"]
            .into_iter()
            .find(|c| declares(&capabilities, c))
            .map(|c| match c {
                "prompts" => "prompts/list",
                "resources" => "resources/list",
                _ => "tools/list",
            })
            .unwrap_or("tools/list")
    }
}

/// Asks `server/discover` whether the server speaks 2026-07-28.
async fn stateless_gate(
    probe: &mut Probe,
) -> Result<Result<StatelessFacts, String>, mcptest_core::Error> {
    let ch = probe.open_raw().await?;
    let id = probe.id();
    let reply = probe
        .call_quietly(
            ch,
            stateless(id, "server/discover", Value::Null, meta(STATELESS)),
        )
        .await;
    probe.close_all().await;
    if let Some(result) = reply.result() {
        return Ok(Ok(StatelessFacts {
            discover: Some(result.clone()),
        }));
    }
    let claims_support = reply.code() == Some(-32022)
        && supported_in(&reply).is_some_and(|s| s.contains(&STATELESS.to_owned()));
    Ok(if claims_support {
        Ok(StatelessFacts { discover: None })
    } else {
        Err(format!(
            "the server does not speak 2026-07-28: server/discover got {}",
            reply.describe()
        ))
    })
}

/// `data.supported` of an error, when it is an array of strings.
pub(crate) fn supported_in(reply: &Received) -> Option<Vec<String>> {
    reply
        .error()?
        .get("data")?
        .get("supported")?
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect()
}
