//! Command lines and environment values: split like a shell, never run
//! through one; environment references expanded from the test's
//! environment, strictly for the Rust API and with mcp-assert's meaning for
//! suite files (one scanner, two dialects).

use crate::error::Error;

/// Splits a command line into program and arguments, like a shell would
/// (quotes, escapes), without running one.
///
/// ```
/// use mcptest_core::__support::process::split_command;
/// let (program, args) = split_command("npx -y '@scope/server' --dir \"a b\"").unwrap();
/// assert_eq!(program, "npx");
/// assert_eq!(args, ["-y", "@scope/server", "--dir", "a b"]);
/// ```
pub fn split(input: &str) -> Result<(String, Vec<String>), Error> {
    let words = shell_words::split(input).map_err(|e| Error::InvalidCommand {
        input: input.to_owned(),
        reason: match e {
            shell_words::ParseError => "a quote is not closed".to_owned(),
        },
    })?;
    let mut words = words.into_iter();
    match words.next() {
        Some(program) if !program.is_empty() => Ok((program, words.collect())),
        _ => Err(Error::InvalidCommand {
            input: input.to_owned(),
            reason: "it names no program".to_owned(),
        }),
    }
}

/// How environment references in a value are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EnvDialect {
    /// The Rust API ([`Server::env`](crate::Server::env), headers): `${VAR}`
    /// and `${VAR:-default}`; an unset variable without a default, an
    /// unclosed `${` or a bad name is an error; `$VAR` stays as written.
    Strict,
    /// Suite files, with mcp-assert's meaning (Go's `os.ExpandEnv` plus
    /// `${VAR:-default}`): `$VAR` expands too, an unset variable becomes "",
    /// a malformed `${...}` is dropped, a `$` that starts no name stays.
    Lenient,
}

/// Expands `${VAR}` and `${VAR:-default}` in `value` using `lookup`, strictly:
/// a variable that is unset (or, for `${VAR}`, empty counts as set) and has no
/// default is an error naming it, rather than silently becoming "".
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) fn expand_env(
    value: &str,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<String, String> {
    expand(value, lookup, EnvDialect::Strict)
}

/// Expands environment references in `value` as `dialect` reads them. In
/// both, `:-` also replaces an empty value, as in a shell. Only
/// [`EnvDialect::Strict`] returns errors.
pub(crate) fn expand(
    value: &str,
    lookup: impl Fn(&str) -> Option<String>,
    dialect: EnvDialect,
) -> Result<String, String> {
    let strict = dialect == EnvDialect::Strict;
    let is_name = |name: &str| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let Some(inner) = after.strip_prefix('{') else {
            // `$NAME`: a reference in the lenient dialect only.
            let len = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            if strict || len == 0 {
                out.push('$');
                rest = after;
            } else {
                out.push_str(&lookup(&after[..len]).unwrap_or_default());
                rest = &after[len..];
            }
            continue;
        };
        let Some(end) = inner.find('}') else {
            if strict {
                return Err(format!("`${{` without a closing `}}` in {value:?}"));
            }
            // Dropped, like the rest of a malformed reference.
            rest = "";
            break;
        };
        let expr = &inner[..end];
        rest = &inner[end + 1..];
        let (name, default) = match expr.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (expr, None),
        };
        if !is_name(name) {
            if strict {
                return Err(format!(
                    "`${{{expr}}}` is not a variable reference in {value:?}"
                ));
            }
            continue;
        }
        match (lookup(name), default) {
            (Some(v), Some(default)) if v.is_empty() => out.push_str(default),
            (Some(v), _) => out.push_str(&v),
            (None, Some(default)) => out.push_str(default),
            (None, None) if strict => {
                return Err(format!(
                    "environment variable {name} is not set (used in {value:?}); \
                     set it, or give a default with ${{{name}:-default}}"
                ));
            }
            (None, None) => {}
        }
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "HOME" => Some("/home/ada".into()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn splits_like_a_shell() {
        let (program, args) = split("npx -y pkg --flag 'two words' \"and three words\"").unwrap();
        assert_eq!(program, "npx");
        assert_eq!(
            args,
            ["-y", "pkg", "--flag", "two words", "and three words"]
        );
    }

    #[test]
    fn rejects_unbalanced_quotes_and_empty_input() {
        let err = split("server --name 'oops").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid server command \"server --name 'oops\": a quote is not closed"
        );
        let err = split("   ").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid server command \"   \": it names no program"
        );
        assert!(split("''").is_err());
    }

    #[test]
    fn expands_variables_and_defaults() {
        assert_eq!(expand_env("${HOME}/x", env).unwrap(), "/home/ada/x");
        assert_eq!(expand_env("${NOPE:-fallback}", env).unwrap(), "fallback");
        assert_eq!(expand_env("${EMPTY:-fallback}", env).unwrap(), "fallback");
        assert_eq!(expand_env("${EMPTY}", env).unwrap(), "");
        assert_eq!(
            expand_env("a${HOME}b${NOPE:-}c", env).unwrap(),
            "a/home/adabc"
        );
        assert_eq!(
            expand_env("no vars, $HOME stays", env).unwrap(),
            "no vars, $HOME stays"
        );
    }

    #[test]
    fn an_unset_variable_without_default_is_an_error() {
        let err = expand_env("Bearer ${TOKEN}", env).unwrap_err();
        assert!(
            err.contains("environment variable TOKEN is not set"),
            "{err}"
        );
        assert!(expand_env("${unclosed", env).is_err());
        assert!(expand_env("${bad name}", env).is_err());
    }

    fn lenient(value: &str) -> String {
        expand(value, env, EnvDialect::Lenient).expect("the lenient dialect has no errors")
    }

    #[test]
    fn the_lenient_dialect_reads_both_forms_and_defaults() {
        assert_eq!(lenient("$HOME/x"), "/home/ada/x");
        assert_eq!(lenient("${HOME}x"), "/home/adax");
        assert_eq!(lenient("${NOPE:-fallback}"), "fallback");
        assert_eq!(lenient("${EMPTY:-fallback}"), "fallback");
        assert_eq!(lenient("${HOME:-fallback}"), "/home/ada");
        assert_eq!(lenient("${NOPE:-}"), "");
    }

    #[test]
    fn in_the_lenient_dialect_an_unset_variable_is_empty() {
        assert_eq!(lenient("a${NOPE}b$NOPE.c"), "ab.c");
        assert_eq!(lenient("cost: 5$"), "cost: 5$");
        assert_eq!(lenient("$ $-x"), "$ $-x");
        assert_eq!(lenient("${bad name}x"), "x");
        assert_eq!(lenient("x${unclosed"), "x");
    }
}
