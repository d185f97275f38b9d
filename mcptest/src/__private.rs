//! What macro-generated code calls. Not a public API: it changes without notice.

// ---- suite! ------------------------------------------------------------
/// Runtime support for `mcptest::suite!`.
#[cfg(feature = "suite")]
pub mod suite {
    pub use crate::suite::{
        RunOptions,
        generated::{EmbeddedFile, IntoServer, run_embedded, run_test},
    };
    pub use std::time::Duration;
}
// ---- end suite! ---------------------------------------------------------
