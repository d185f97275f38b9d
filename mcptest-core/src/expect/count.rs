//! [`Count`]: how many of something a check expects, an exact number or a
//! range.

use std::{
    fmt,
    ops::{Bound, RangeBounds},
};

use super::check::Polarity;

/// How many of something: an exact number or a range.
///
/// Made from a `usize` (`3`) or any range (`1..`, `..=5`, `2..4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    min: usize,
    /// Inclusive upper bound.
    max: Option<usize>,
}

impl Count {
    /// True when `n` is within the bounds.
    pub fn contains(&self, n: usize) -> bool {
        n >= self.min && self.max.is_none_or(|max| n <= max)
    }

    /// `exactly 1 message`, `at least 2 messages`: the bound and `noun`,
    /// plural unless the number is one.
    pub fn of(&self, noun: &str) -> String {
        let one = match (self.min, self.max) {
            (_, Some(max)) if max == self.min => max == 1,
            (0, Some(max)) => max == 1,
            (min, None) => min == 1,
            _ => false,
        };
        format!("{self} {noun}{}", if one { "" } else { "s" })
    }

    /// The opposite of [`of`](Count::of), as `not(..)` says it: `no
    /// messages`, `fewer than 2 messages`, `more than 5 messages`, `not
    /// exactly 3 messages`, `fewer than 2 or more than 4 messages`.
    pub fn not_of(&self, noun: &str) -> String {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        match (self.min, self.max) {
            (min, Some(max)) if min == max => format!("not exactly {min} {noun}{}", plural(min)),
            (1, None) => format!("no {noun}s"),
            (min, None) => format!("fewer than {min} {noun}s"),
            (0, Some(max)) => format!("more than {max} {noun}{}", plural(max)),
            (min, Some(max)) => format!("fewer than {min} or more than {max} {noun}s"),
        }
    }

    /// [`of`](Count::of) or [`not_of`](Count::not_of), as `polarity` asks.
    pub(crate) fn words(&self, noun: &str, polarity: Polarity) -> String {
        match polarity {
            Polarity::Positive => self.of(noun),
            Polarity::Negative => self.not_of(noun),
        }
    }

    fn from_bounds(range: impl RangeBounds<usize>) -> Self {
        let min = match range.start_bound() {
            Bound::Included(&n) => n,
            Bound::Excluded(&n) => n.saturating_add(1),
            Bound::Unbounded => 0,
        };
        let max = match range.end_bound() {
            Bound::Included(&n) => Some(n),
            Bound::Excluded(&n) => Some(n.saturating_sub(1)),
            Bound::Unbounded => None,
        };
        Count { min, max }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (min, Some(max)) if min == max => write!(f, "exactly {min}"),
            (0, Some(max)) => write!(f, "at most {max}"),
            (min, None) => write!(f, "at least {min}"),
            (min, Some(max)) => write!(f, "between {min} and {max}"),
        }
    }
}

impl From<usize> for Count {
    fn from(n: usize) -> Self {
        Count {
            min: n,
            max: Some(n),
        }
    }
}

macro_rules! count_from_range {
    ($($range:ty),*) => {$(
        impl From<$range> for Count {
            fn from(range: $range) -> Self {
                Count::from_bounds(range)
            }
        }
    )*};
}
count_from_range!(
    std::ops::Range<usize>,
    std::ops::RangeInclusive<usize>,
    std::ops::RangeFrom<usize>,
    std::ops::RangeTo<usize>,
    std::ops::RangeToInclusive<usize>,
    std::ops::RangeFull
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_describe_themselves() {
        assert_eq!(Count::from(3).to_string(), "exactly 3");
        assert_eq!(Count::from(1..).to_string(), "at least 1");
        assert_eq!(Count::from(..=5).to_string(), "at most 5");
        assert_eq!(Count::from(..5).to_string(), "at most 4");
        assert_eq!(Count::from(2..4).to_string(), "between 2 and 3");
        assert_eq!(Count::from(..).to_string(), "at least 0");
        assert!(Count::from(2..=4).contains(4));
        assert!(!Count::from(2..4).contains(4));
        assert_eq!(Count::from(1).of("message"), "exactly 1 message");
        assert_eq!(Count::from(1..).of("message"), "at least 1 message");
        assert_eq!(Count::from(..=1).of("message"), "at most 1 message");
        assert_eq!(Count::from(2).of("message"), "exactly 2 messages");
        assert_eq!(Count::from(0..=1).of("message"), "at most 1 message");
        assert_eq!(Count::from(1..=3).of("message"), "between 1 and 3 messages");
        assert_eq!(Count::from(1..).not_of("message"), "no messages");
        assert_eq!(Count::from(2..).not_of("message"), "fewer than 2 messages");
        assert_eq!(Count::from(..=1).not_of("message"), "more than 1 message");
        assert_eq!(Count::from(3).not_of("message"), "not exactly 3 messages");
        assert_eq!(
            Count::from(2..=4).not_of("message"),
            "fewer than 2 or more than 4 messages"
        );
    }
}
