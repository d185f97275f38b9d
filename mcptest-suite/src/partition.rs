//! One shard of a suite, for runs spread over machines: nextest's
//! `count:K/N` and `hash:K/N`, with the same split on every machine.

use std::{fmt, str::FromStr};

use sha2::{Digest, Sha256};

use crate::suite_test::SuiteTest;

/// Which shard of the tests to run (`K` of `N`, 1-based).
///
/// - `count:K/N`: the tests sorted by file and name, then every N-th one
///   starting with the K-th, so the shards differ in size by one at most.
/// - `hash:K/N`: the tests whose SHA-256 of `file` and `name` is K-1 modulo
///   N, so adding or removing a file moves no other test to another shard.
///
/// ```
/// use mcptest::suite::{Partition, Suite};
///
/// let shard: Partition = "hash:2/4".parse().unwrap();
/// assert_eq!(shard.to_string(), "hash:2/4");
/// assert!("count:5/4".parse::<Partition>().unwrap_err().contains("between 1 and 4"));
/// let suite = Suite::default();
/// assert!(shard.select(suite.tests()).is_empty());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    kind: PartitionKind,
    shard: u64,
    total: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PartitionKind {
    Count,
    Hash,
}

impl Partition {
    /// Parses `count:K/N` or `hash:K/N`; the error says what is wrong and
    /// shows the form.
    pub fn parse(text: &str) -> Result<Partition, String> {
        let form = "write it as count:K/N or hash:K/N, e.g. hash:1/4";
        let (kind, rest) = text
            .split_once(':')
            .ok_or_else(|| format!("{text:?} has no kind; {form}"))?;
        let kind = match kind {
            "count" => PartitionKind::Count,
            "hash" => PartitionKind::Hash,
            other => return Err(format!("{other:?} is not a kind of partition; {form}")),
        };
        let (shard, total) = rest
            .split_once('/')
            .ok_or_else(|| format!("{text:?} has no /N; {form}"))?;
        let number = |what: &str, n: &str| {
            n.trim()
                .parse::<u64>()
                .map_err(|_| format!("{what} {n:?} in {text:?} is not a whole number; {form}"))
        };
        let (shard, total) = (number("K", shard)?, number("N", total)?);
        if total == 0 {
            return Err(format!("{text:?}: N must be at least 1"));
        }
        if !(1..=total).contains(&shard) {
            return Err(format!("{text:?}: K must be between 1 and {total}"));
        }
        Ok(Partition { kind, shard, total })
    }

    /// The tests of this shard, in the order given.
    pub fn select(&self, tests: &[SuiteTest]) -> Vec<SuiteTest> {
        match self.kind {
            PartitionKind::Count => {
                let mut order: Vec<usize> = (0..tests.len()).collect();
                order.sort_by(|&a, &b| key(&tests[a]).cmp(&key(&tests[b])).then(a.cmp(&b)));
                let mut chosen = vec![false; tests.len()];
                for (rank, &index) in order.iter().enumerate() {
                    chosen[index] = rank as u64 % self.total == self.shard - 1;
                }
                tests
                    .iter()
                    .zip(chosen)
                    .filter(|(_, chosen)| *chosen)
                    .map(|(t, _)| t.clone())
                    .collect()
            }
            PartitionKind::Hash => tests
                .iter()
                .filter(|t| stable_hash(t) % self.total == self.shard - 1)
                .cloned()
                .collect(),
        }
    }
}

fn key(test: &SuiteTest) -> (&str, &str) {
    (&test.file, &test.name)
}

/// The first 8 bytes of SHA-256 over the file, a NUL and the name: the
/// same on every machine and every build.
fn stable_hash(test: &SuiteTest) -> u64 {
    let mut hasher = Sha256::new();
    hasher.update(test.file.as_bytes());
    hasher.update([0]);
    hasher.update(test.name.as_bytes());
    let digest = hasher.finalize();
    u64::from_be_bytes(digest[..8].try_into().expect("SHA-256 has 32 bytes"))
}

impl FromStr for Partition {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Partition::parse(text)
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            PartitionKind::Count => "count",
            PartitionKind::Hash => "hash",
        };
        write!(f, "{kind}:{}/{}", self.shard, self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Suite;

    fn suite(names: &[&str]) -> Vec<SuiteTest> {
        let mut suite = Suite::default();
        for name in names {
            let text = format!(
                "name: {name}\nserver: {{command: x}}\nassert:\n  tool: t\n  expect: {{contains: [a]}}\n"
            );
            suite.extend(Suite::parse(&format!("{name}.yaml"), &text).unwrap());
        }
        suite.tests().to_vec()
    }

    fn names(tests: &[SuiteTest]) -> Vec<String> {
        tests.iter().map(|t| t.name.clone()).collect()
    }

    #[test]
    fn every_test_is_in_exactly_one_shard() {
        let tests = suite(&["e", "b", "a", "d", "c", "g", "f"]);
        for kind in ["count", "hash"] {
            let mut seen: Vec<String> = Vec::new();
            for k in 1..=3 {
                let shard: Partition = format!("{kind}:{k}/3").parse().unwrap();
                seen.extend(names(&shard.select(&tests)));
            }
            seen.sort();
            assert_eq!(seen, ["a", "b", "c", "d", "e", "f", "g"], "{kind}");
        }
    }

    #[test]
    fn count_deals_the_sorted_tests_round_robin() {
        let tests = suite(&["e", "b", "a", "d", "c"]);
        let one = Partition::parse("count:1/2").unwrap().select(&tests);
        // sorted: a b c d e; the first of every two: a c e (in given order)
        assert_eq!(names(&one), ["e", "a", "c"]);
        assert_eq!(
            names(&Partition::parse("count:2/2").unwrap().select(&tests)),
            ["b", "d"]
        );
    }

    #[test]
    fn hash_keeps_each_test_in_its_shard_as_files_are_added() {
        let before = suite(&["a", "b", "c", "d"]);
        let after = suite(&["a", "b", "new1", "c", "new2", "d"]);
        for k in 1..=4 {
            let shard = Partition::parse(&format!("hash:{k}/4")).unwrap();
            let old = names(&shard.select(&before));
            let new: Vec<String> = names(&shard.select(&after))
                .into_iter()
                .filter(|n| !n.starts_with("new"))
                .collect();
            assert_eq!(old, new, "shard {k}");
        }
    }

    #[test]
    fn bad_partitions_say_what_is_wrong() {
        for (text, says) in [
            ("3/4", "has no kind"),
            ("slice:1/4", "is not a kind"),
            ("hash:1", "has no /N"),
            ("hash:x/4", "is not a whole number"),
            ("hash:0/4", "between 1 and 4"),
            ("count:1/0", "at least 1"),
        ] {
            let error = Partition::parse(text).unwrap_err();
            assert!(error.contains(says), "{text}: {error}");
        }
        assert_eq!(
            Partition::parse("count:2/3").unwrap().to_string(),
            "count:2/3"
        );
    }
}
