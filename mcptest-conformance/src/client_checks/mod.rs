//! Client checks, by topic as the server checks are: each is judged from
//! the [`Transcript`](crate::support::transcript::Transcript) of what the
//! client under test sent the recording server, and returns its finding
//! with the exchanges it rests on.

#[cfg(feature = "http-mock")]
pub(crate) mod authorization;
pub(crate) mod http_transport;
pub(crate) mod input_required;
pub(crate) mod stateless;
pub(crate) mod tools;

use serde_json::Value;

use crate::model::{Exchange, Observed, Problems, Transport};
use crate::support::transcript::Sent;

pub(crate) fn all(requests: &[&Sent]) -> Vec<Exchange> {
    requests.iter().map(|s| s.exchange()).collect()
}

/// A client check's finding, built case by case: the skeleton every check
/// that judges a series of cases (requests, rounds, rejections, calls)
/// shares. Each case brings its evidence and the problems found in it.
#[derive(Default)]
pub(crate) struct Judgement {
    judged: usize,
    problems: Problems,
    /// The evidence of every case judged, in order.
    seen: Vec<Exchange>,
    /// The evidence of the cases with a problem, in order.
    offending: Vec<Exchange>,
    /// The evidence of cases set aside, shown only when none was judged.
    aside: Vec<Exchange>,
}

impl Judgement {
    /// One case judged, shown by `evidence`, with the problems found in it.
    pub(crate) fn case(
        &mut self,
        evidence: impl IntoIterator<Item = Exchange>,
        problems: impl IntoIterator<Item = String>,
    ) {
        let evidence: Vec<Exchange> = evidence.into_iter().collect();
        let mut offends = false;
        for problem in problems {
            self.problems.push(problem);
            offends = true;
        }
        if offends {
            self.offending.extend(evidence.iter().cloned());
        }
        self.judged += 1;
        self.seen.extend(evidence);
    }

    /// A case not judged, shown by `evidence` only if no case is.
    pub(crate) fn set_aside(&mut self, evidence: Exchange) {
        self.aside.push(evidence);
    }

    /// Whether no case was judged.
    pub(crate) fn is_empty(&self) -> bool {
        self.judged == 0
    }

    /// `nothing` (shown by the cases set aside) when no case was judged;
    /// otherwise the rule holds, or is broken with every problem, shown by
    /// every case.
    pub(crate) fn finding(self, nothing: impl FnOnce() -> Observed) -> (Observed, Vec<Exchange>) {
        if self.is_empty() {
            return (nothing(), self.aside);
        }
        (self.problems.into_finding(), self.seen)
    }

    /// As [`finding`](Self::finding), but a broken rule is shown by the
    /// offending cases alone.
    pub(crate) fn finding_by_offenders(
        self,
        nothing: impl FnOnce() -> Observed,
    ) -> (Observed, Vec<Exchange>) {
        if self.is_empty() {
            return (nothing(), self.aside);
        }
        if self.problems.is_empty() {
            (Observed::holds(), self.seen)
        } else {
            (self.problems.into_finding(), self.offending)
        }
    }
}

/// Checks every request with `problem`; evidence is the offending requests,
/// or all of them when none offends.
pub(crate) fn every_request(
    requests: &[&Sent],
    problem: impl Fn(&Sent) -> Option<String>,
) -> (Observed, Vec<Exchange>) {
    let mut judgement = Judgement::default();
    for request in requests {
        let problem = problem(request).map(|text| {
            format!(
                "{} (id {}): {text}",
                request.method(),
                request.message["id"]
            )
        });
        judgement.case([request.exchange()], problem);
    }
    judgement.finding_by_offenders(|| Observed::NotApplicable("the client sent no request".into()))
}

/// The tools the recording server listed to the client, from its `tools/list` answers.
pub(crate) fn listed_tools(requests: &[&Sent]) -> Vec<Value> {
    requests
        .iter()
        .filter(|r| r.method() == "tools/list")
        .filter_map(|r| {
            r.answer
                .as_ref()?
                .get("result")?
                .get("tools")?
                .as_array()
                .cloned()
        })
        .flatten()
        .collect()
}

/// The client's HTTP POSTs of JSON-RPC requests and notifications.
pub(crate) fn posts(sent: &[Sent]) -> Vec<&Sent> {
    sent.iter()
        .filter(|s| s.transport == Transport::Http && s.message.get("method").is_some())
        .collect()
}
