//! What a run learns before its checks: whether the server speaks the
//! `initialize` handshake (2025-11-25 and earlier), whether it speaks
//! 2026-07-28 (`server/discover`), and so which revisions it speaks. Each
//! check is gated on the revision its rule belongs to.

use serde_json::Value;

use super::{
    check::{CannotApply, Observed},
    classic::{self, ClassicFacts},
    probe::Probe,
    stateless::{self, StatelessFacts},
};

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
        let classic = classic::gate(probe).await?;
        let stateless = stateless::gate(probe).await?;
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
                None => revisions.push(stateless::VERSION.to_owned()),
            }
        }
        revisions.sort();
        revisions.dedup();
        revisions
    }
}
