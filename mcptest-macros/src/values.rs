//! Checks on the macros' values that can be made at compile time (durations,
//! protocol versions, paths, ...), each failing with an error on the literal.

use std::{path::Path, time::Duration};

use syn::LitStr;

fn error(lit: &LitStr, message: impl std::fmt::Display) -> syn::Error {
    syn::Error::new(lit.span(), message)
}

/// `"500ms"`, `"30s"`, `"2m"`, `"1m 30s"`: a positive duration.
pub(crate) fn duration(lit: &LitStr) -> syn::Result<Duration> {
    let text = lit.value();
    let parsed = humantime::parse_duration(text.trim()).map_err(|e| {
        error(
            lit,
            format!(
                "invalid duration {text:?} ({e}); write a number and a unit, like \"500ms\", \"30s\" or \"2m\""
            ),
        )
    })?;
    if parsed.is_zero() {
        return Err(error(
            lit,
            format!("the timeout {text:?} is zero; every request would time out at once"),
        ));
    }
    Ok(parsed)
}

/// A protocol version is a date, `YYYY-MM-DD` (any date: servers may be
/// offered versions they do not know, to test negotiation).
/// `fail`, `warn` or `off`: what a message that breaks the MCP schema does.
pub(crate) fn check_wire_schema(lit: &LitStr) -> syn::Result<()> {
    match lit.value().as_str() {
        "fail" | "warn" | "off" => Ok(()),
        other => Err(syn::Error::new(
            lit.span(),
            format!(
                "`wire_schema` is {other:?}; write \"fail\" (the default: a message that breaks \
                 the MCP schema fails the test), \"warn\" or \"off\""
            ),
        )),
    }
}

pub(crate) fn check_protocol(lit: &LitStr) -> syn::Result<()> {
    let text = lit.value();
    let bytes = text.as_bytes();
    let shaped = bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        });
    let in_range = shaped && {
        let month: u32 = text[5..7].parse().unwrap_or(0);
        let day: u32 = text[8..10].parse().unwrap_or(0);
        (1..=12).contains(&month) && (1..=31).contains(&day)
    };
    if in_range {
        Ok(())
    } else {
        Err(error(
            lit,
            format!(
                "protocol version {text:?} is not a date: MCP versions are written YYYY-MM-DD, like \"2025-11-25\""
            ),
        ))
    }
}

/// The command line splits into words like a shell would, and is not empty.
pub(crate) fn check_command(lit: &LitStr) -> syn::Result<()> {
    match shell_words::split(&lit.value()) {
        Ok(words) if words.is_empty() => Err(error(
            lit,
            "the server command is empty; write the program and its arguments, like \"my-server --stdio\"",
        )),
        Ok(_) => Ok(()),
        Err(e) => Err(error(
            lit,
            format!("cannot split the server command into words: {e} (check the quotes)"),
        )),
    }
}

/// A binary name is a plain name, not a path.
pub(crate) fn check_bin(lit: &LitStr) -> syn::Result<()> {
    let name = lit.value();
    if name.is_empty() || name.contains(['/', '\\']) || name.trim() != name {
        return Err(error(
            lit,
            format!(
                "`bin` is the name of a [[bin]] target of this package, like \"my-server\", not {name:?}; \
                 for a program elsewhere use `server`"
            ),
        ));
    }
    Ok(())
}

/// Streamable HTTP needs an `http` or `https` URL.
pub(crate) fn check_url(lit: &LitStr) -> syn::Result<()> {
    check_http(lit, "Streamable HTTP servers", "http://127.0.0.1:3001/mcp")
}

/// So does the legacy HTTP+SSE transport.
pub(crate) fn check_sse_url(lit: &LitStr) -> syn::Result<()> {
    check_http(lit, "HTTP+SSE servers", "http://127.0.0.1:8000/sse")
}

fn check_http(lit: &LitStr, servers: &str, example: &str) -> syn::Result<()> {
    let url = lit.value();
    if url.starts_with("http://") || url.starts_with("https://") {
        Ok(())
    } else {
        Err(error(
            lit,
            format!(
                "{url:?} is not an http:// or https:// URL; {servers} are reached by URL, \
                 like {example:?}"
            ),
        ))
    }
}

/// `"current_thread"` (false) or `"multi_thread"` (true).
pub(crate) fn flavor(lit: &LitStr) -> syn::Result<bool> {
    match lit.value().as_str() {
        "current_thread" => Ok(false),
        "multi_thread" => Ok(true),
        other => Err(error(
            lit,
            format!(
                "unknown flavor {other:?}; use \"current_thread\" (the default) or \"multi_thread\""
            ),
        )),
    }
}

/// The fixture directory exists, relative to the crate being compiled.
pub(crate) fn check_fixture(lit: &LitStr) -> syn::Result<()> {
    let value = lit.value();
    if value.is_empty() {
        return Err(error(
            lit,
            "the fixture path is empty; name a directory relative to the crate, like \"tests/fixtures/notes\"",
        ));
    }
    let path = Path::new(&value);
    let full = if path.is_absolute() {
        path.to_path_buf()
    } else {
        // Cargo sets this for every crate it compiles; without Cargo, paths
        // are relative to wherever the compiler runs.
        std::env::var_os("CARGO_MANIFEST_DIR")
            .map(std::path::PathBuf::from)
            .unwrap_or_default()
            .join(path)
    };
    match std::fs::metadata(&full) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(error(
            lit,
            format!(
                "the fixture {value:?} is a file; `fixture` names a directory to copy for each test"
            ),
        )),
        Err(_) => Err(error(
            lit,
            format!(
                "fixture directory {value:?} does not exist; `fixture` paths are relative to the crate's \
                 root (the directory of its Cargo.toml)"
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(text: &str) -> LitStr {
        LitStr::new(text, proc_macro2::Span::call_site())
    }

    #[test]
    fn durations() {
        assert_eq!(duration(&lit("500ms")).unwrap(), Duration::from_millis(500));
        assert_eq!(duration(&lit("30s")).unwrap(), Duration::from_secs(30));
        assert_eq!(duration(&lit("2m")).unwrap(), Duration::from_secs(120));
        assert_eq!(duration(&lit("1m 30s")).unwrap(), Duration::from_secs(90));
        for bad in ["30", "soon", "", "3 parsecs", "-1s"] {
            let e = duration(&lit(bad)).unwrap_err().to_string();
            assert!(e.contains("invalid duration"), "{bad}: {e}");
        }
        let e = duration(&lit("0s")).unwrap_err().to_string();
        assert!(e.contains("is zero"), "{e}");
    }

    #[test]
    fn protocol_versions() {
        for good in ["2024-11-05", "2025-11-25", "2026-07-28", "2099-01-31"] {
            check_protocol(&lit(good)).unwrap();
        }
        for bad in [
            "2025-13-01",
            "2025-11-32",
            "2025-11-00",
            "25-11-25",
            "2025/11/25",
            "latest",
            "",
        ] {
            let e = check_protocol(&lit(bad)).unwrap_err().to_string();
            assert!(e.contains("YYYY-MM-DD"), "{bad}: {e}");
        }
    }

    #[test]
    fn commands_urls_bins_flavors() {
        check_command(&lit("npx -y \"a b\"")).unwrap();
        assert!(
            check_command(&lit("broken \"quote"))
                .unwrap_err()
                .to_string()
                .contains("quotes")
        );
        assert!(
            check_command(&lit("  "))
                .unwrap_err()
                .to_string()
                .contains("empty")
        );
        check_url(&lit("http://127.0.0.1:1/mcp")).unwrap();
        check_url(&lit("https://example.test/mcp")).unwrap();
        assert!(check_url(&lit("127.0.0.1:1")).is_err());
        check_bin(&lit("my-server")).unwrap();
        assert!(check_bin(&lit("target/debug/x")).is_err());
        assert!(check_bin(&lit("")).is_err());
        assert!(!flavor(&lit("current_thread")).unwrap());
        assert!(flavor(&lit("multi_thread")).unwrap());
        assert!(
            flavor(&lit("multi"))
                .unwrap_err()
                .to_string()
                .contains("multi_thread")
        );
    }

    #[test]
    fn fixture_paths_are_relative_to_the_crate() {
        check_fixture(&lit("src")).unwrap();
        check_fixture(&lit(env!("CARGO_MANIFEST_DIR"))).unwrap();
        let e = check_fixture(&lit("tests/fixtures/nope"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not exist"), "{e}");
        let e = check_fixture(&lit("Cargo.toml")).unwrap_err().to_string();
        assert!(e.contains("is a file"), "{e}");
    }
}
