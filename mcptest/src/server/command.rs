//! Command lines and environment values: split like a shell, never run
//! through one; `${VAR}` and `${VAR:-default}` expanded from the test's
//! environment.

use crate::Error;

/// Splits a command line into program and arguments.
pub(crate) fn split(input: &str) -> Result<(String, Vec<String>), Error> {
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

/// Expands `${VAR}` and `${VAR:-default}` in `value` using `lookup`.
/// A variable that is unset (or, for `${VAR}`, empty counts as set) and has no
/// default is an error naming it, rather than silently becoming "".
pub(crate) fn expand_env(
    value: &str,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            return Err(format!("`${{` without a closing `}}` in {value:?}"));
        };
        let expr = &after[..end];
        let (name, default) = match expr.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (expr, None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "`${{{expr}}}` is not a variable reference in {value:?}"
            ));
        }
        match (lookup(name), default) {
            // `:-` also replaces an empty value, as in a shell.
            (Some(v), Some(default)) if v.is_empty() => out.push_str(default),
            (Some(v), _) => out.push_str(&v),
            (None, Some(default)) => out.push_str(default),
            (None, None) => {
                return Err(format!(
                    "environment variable {name} is not set (used in {value:?}); \
                     set it, or give a default with ${{{name}:-default}}"
                ));
            }
        }
        rest = &after[end + 1..];
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
}
