//! The report properties a fuzz run sets on a failing case, which the
//! shrinking and the written tests read back.

/// The report property that holds a failing case's
/// [`repro_line`](super::repro_line).
pub const REPRO: &str = "repro";

/// The report property that holds a failing case's arguments (JSON).
pub const INPUT: &str = "input";

/// The report property that holds a failing case's shrunk arguments (JSON).
pub const MINIMAL: &str = "minimal";

/// The report property that holds the seed of the run a failing case came from.
pub const SEED: &str = "seed";
