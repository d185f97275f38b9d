//! The choices a server run ([`Conformance`](crate::Conformance)) and a
//! client run ([`ClientConformance`](crate::ClientConformance)) share: which
//! checks to include, which are known to fail, how the report names what
//! was checked; and how both turn findings into results and a report.
//! Their builder methods are written once, in [`selection_methods`].

use std::time::{Duration, Instant};

use crate::catalogue::{CheckId, catalogue};
use crate::model::{CheckResult, Exchange, Observed, Role, Transport};
use crate::official::official_ids;
use crate::report::ConformanceReport;
use mcptest_core::Error;

/// Which checks a run includes, which it expects to fail, and its label.
#[derive(Debug, Clone, Default)]
pub(crate) struct Selection {
    pub(crate) only: Vec<String>,
    pub(crate) except: Vec<String>,
    pub(crate) expected_failures: Vec<String>,
    pub(crate) label: Option<String>,
}

/// The builder methods of [`Selection`], for a run type with a `selection`
/// field; the docs of `expected_failures` (which show the run type) are
/// the caller's.
macro_rules! selection_methods {
    ($(#[$expected_failures:meta])*) => {
        /// Runs only the checks whose id matches one of `patterns`: an
        /// exact id, or a prefix ending in `*` (`"sep-2575-*"`).
        pub fn only<I, S>(mut self, patterns: I) -> Self
        where
            I: IntoIterator<Item = S>,
            S: Into<String>,
        {
            self.selection
                .only
                .extend(patterns.into_iter().map(Into::into));
            self
        }

        /// Leaves out the checks whose id matches one of `patterns` (as in
        /// [`only`](Self::only)).
        pub fn except<I, S>(mut self, patterns: I) -> Self
        where
            I: IntoIterator<Item = S>,
            S: Into<String>,
        {
            self.selection
                .except
                .extend(patterns.into_iter().map(Into::into));
            self
        }

        $(#[$expected_failures])*
        pub fn expected_failures<I, S>(mut self, ids: I) -> Self
        where
            I: IntoIterator<Item = S>,
            S: Into<String>,
        {
            self.selection
                .expected_failures
                .extend(ids.into_iter().map(Into::into));
            self
        }

        /// How the report names what was checked (default: the server's
        /// command line or URL, the client's command line).
        pub fn label(mut self, label: impl Into<String>) -> Self {
            self.selection.label = Some(label.into());
            self
        }
    };
}
pub(crate) use selection_methods;

impl Selection {
    fn matches(pattern: &str, id: &str) -> bool {
        match pattern.strip_suffix('*') {
            Some(prefix) => id.starts_with(prefix),
            None => pattern == id,
        }
    }

    /// The checks of `role` the selection lets through, in catalogue order.
    /// A pattern that matches no check at all, or an expected failure that
    /// is no check's id, is an error: it is a typo.
    pub(crate) fn select(&self, role: Role) -> Result<Vec<CheckId>, Error> {
        for pattern in self.only.iter().chain(&self.except) {
            if !catalogue().iter().any(|c| Self::matches(pattern, c.id)) {
                return Err(Error::InvalidConfig {
                    message: format!(
                        "no conformance check matches {pattern:?}; ids look like \
                         \"classic-ping\" or \"sep-2575-unknown-method\", and a pattern may \
                         end in * (\"sep-2575-*\")"
                    ),
                });
            }
        }
        for id in &self.expected_failures {
            if !catalogue().iter().any(|rule| rule.id == id) {
                return Err(Error::InvalidConfig {
                    message: format!(
                        "{id:?} is not a conformance check id (expected failures are listed by \
                         exact id, e.g. \"classic-invalid-json\")"
                    ),
                });
            }
        }
        Ok(CheckId::ALL
            .iter()
            .copied()
            .filter(|id| id.check().role == role)
            .filter(|id| {
                let check_id = id.check().id;
                (self.only.is_empty() || self.only.iter().any(|p| Self::matches(p, check_id)))
                    && !self.except.iter().any(|p| Self::matches(p, check_id))
            })
            .collect())
    }

    /// The report of a run: `target` unless a label was given, the
    /// expected failures applied.
    pub(crate) fn report(
        &self,
        target: String,
        role: Role,
        transport: Transport,
        revisions: Vec<String>,
        results: Vec<CheckResult>,
        started: Instant,
    ) -> ConformanceReport {
        let mut report = ConformanceReport {
            target: self.label.clone().unwrap_or(target),
            role,
            transport,
            revisions,
            results,
            elapsed: started.elapsed(),
        };
        report.apply_expected_failures(&self.expected_failures);
        report
    }
}

/// The result of check `id`: its finding turned into a status by the
/// rule's level, with its evidence.
pub(crate) fn result(
    id: CheckId,
    transport: Transport,
    finding: &Observed,
    evidence: Vec<Exchange>,
    elapsed: Duration,
) -> CheckResult {
    let check = id.check();
    let (status, reason) = finding.status(check.level);
    CheckResult {
        rule: *check,
        transport,
        status,
        reason,
        cannot_apply: finding.cannot_apply(),
        evidence,
        official: official_ids(check.id),
        expected_failure: false,
        elapsed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selections_take_exact_ids_and_prefixes() {
        let selection = Selection {
            only: vec!["sep-2575-*".into(), "classic-ping".into()],
            except: vec!["sep-2575-http-*".into()],
            ..Selection::default()
        };
        let ids: Vec<&str> = selection
            .select(Role::Server)
            .unwrap()
            .iter()
            .map(|id| id.check().id)
            .collect();
        assert!(ids.contains(&"classic-ping"));
        assert!(ids.contains(&"sep-2575-unknown-method"));
        assert!(!ids.contains(&"sep-2575-http-header-mismatch"));
        assert!(!ids.contains(&"classic-ping-x"));
        assert!(!ids.iter().any(|id| id.starts_with("sep-2575-client-")));
    }

    #[test]
    fn a_pattern_that_matches_nothing_is_an_error() {
        let selection = Selection {
            only: vec!["clasic-ping".into()],
            ..Selection::default()
        };
        let err = selection.select(Role::Server).unwrap_err();
        assert!(
            err.to_string()
                .contains("no conformance check matches \"clasic-ping\""),
            "{err}"
        );
    }

    #[test]
    fn an_expected_failure_that_is_no_check_is_an_error() {
        let selection = Selection {
            expected_failures: vec!["classic-pong".into()],
            ..Selection::default()
        };
        let err = selection.select(Role::Client).unwrap_err();
        assert!(
            err.to_string()
                .contains("\"classic-pong\" is not a conformance check id"),
            "{err}"
        );
        let listed = Selection {
            expected_failures: vec!["classic-ping".into()],
            ..Selection::default()
        };
        listed.select(Role::Server).unwrap();
    }
}
