//! Lets the README's examples compile as this crate's doctests.
//!
//! The README's tests name the example server with `#[mcp_test(bin =
//! "notes-server")]` and `env!("CARGO_BIN_EXE_notes-server")`, which Cargo
//! sets for integration tests but not for doctests. This sets the same
//! variable to the same path (`<target>/<profile>/notes-server`, derived from
//! `OUT_DIR` = `<target>/<profile>/build/<package>-<hash>/out`), so that the
//! README's blocks compile as doctests exactly as written.

use std::path::Path;

fn main() {
    let out_dir = std::env::var("OUT_DIR").expect("Cargo sets OUT_DIR for build scripts");
    let profile_dir = Path::new(&out_dir)
        .ancestors()
        .nth(3)
        .expect("OUT_DIR is <target>/<profile>/build/<package>-<hash>/out");
    let exe = profile_dir.join(format!("notes-server{}", std::env::consts::EXE_SUFFIX));
    println!(
        "cargo::rustc-env=CARGO_BIN_EXE_notes-server={}",
        exe.display()
    );
    println!("cargo::rerun-if-changed=build.rs");
}
