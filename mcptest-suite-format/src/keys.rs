//! The `expect` keys of an mcp-assert file, declared once.
//!
//! [`expect_keys!`](crate::expect_keys) is the table: each line is a key
//! (also the field of [`Expect`](crate::assertion::Expect) that holds its
//! value) and the [`ExpectValue`] that reads it. The loader, the key list
//! that unknown keys are matched against, the emptiness test and, in the
//! suite runner, the check compiler are all generated from it; the runner
//! names each key's check builder after the key, so a key without a check
//! does not compile. Adding a key is one line here and one builder there.

use regex::Regex;
use serde_json::Value;

use crate::{
    error::LoadError,
    fields::{self, Fields},
    json::ToJson,
    plugin::{self, PluginExpect},
    tree::Kind,
};

/// Calls `$then!` with every `expect` key, in the order the runner checks
/// them (mcp-assert's: the outcome first, then the text, then files), as
/// `key: Reader,` lines.
#[doc(hidden)]
#[macro_export]
macro_rules! expect_keys {
    ($then:path) => {
        $then! {
            not_error: Flag,
            is_error: Flag,
            not_empty: Flag,
            equals: Scalar,
            contains: NonEmptyStrings,
            contains_any: NonEmptyStrings,
            not_contains: Strings,
            matches_regex: Regexes,
            json_path: JsonPaths,
            min_results: NonNegativeInt,
            max_results: NonNegativeInt,
            net_delta: Int,
            file_contains: StringMap,
            file_not_contains: StringMap,
            file_not_exists: Strings,
            in_order: NonEmptyStrings,
            file_unchanged: Strings,
            min_progress: NonNegativeInt,
            plugin: Plugins,
        }
    };
}

// The table by its path in this module, for the crate's own modules: the
// exported name lives at the crate root, which re-exports what they define.
pub(crate) use expect_keys;

/// How one `expect` key's value is read from its node, and when it says
/// nothing (the key is absent).
pub trait ExpectValue {
    /// The value as loaded.
    type Value: Default + std::fmt::Debug + Clone;
    /// Reads `key` of `f` (absent: the default).
    fn read(f: &Fields<'_>, key: &str) -> Result<Self::Value, LoadError>;
    /// True when the value checks nothing.
    fn is_unset(value: &Self::Value) -> bool;
}

/// `true` or `false`; `false` checks nothing.
pub struct Flag;
/// A string, or a number or boolean written without quotes.
pub struct Scalar;
/// A list of strings.
pub struct Strings;
/// A list of strings none of which is empty (an empty string is in every
/// text, so it would check nothing).
pub struct NonEmptyStrings;
/// A list of regular expressions, each compiled.
pub struct Regexes;
/// A mapping of JSONPath expressions (starting with `$`) to values.
pub struct JsonPaths;
/// A whole number of 0 or more.
pub struct NonNegativeInt;
/// A whole number.
pub struct Int;
/// A mapping of strings to strings.
pub struct StringMap;
/// mcptest's `plugin:` entries.
pub struct Plugins;

impl ExpectValue for Flag {
    type Value = bool;
    fn read(f: &Fields<'_>, key: &str) -> Result<bool, LoadError> {
        Ok(f.bool(key)?.unwrap_or(false))
    }
    fn is_unset(value: &bool) -> bool {
        !value
    }
}

impl ExpectValue for Scalar {
    type Value = Option<String>;
    fn read(f: &Fields<'_>, key: &str) -> Result<Option<String>, LoadError> {
        let Some(n) = f.get(key) else {
            return Ok(None);
        };
        Ok(Some(match &n.kind {
            Kind::Str(s) => s.clone(),
            Kind::Int(i) => i.to_string(),
            Kind::Float(x) => x.to_string(),
            Kind::Bool(b) => b.to_string(),
            _ => {
                return Err(fields::expected(
                    f.file,
                    n,
                    &format!("`{key}` to be a string"),
                ));
            }
        }))
    }
    fn is_unset(value: &Option<String>) -> bool {
        value.is_none()
    }
}

impl ExpectValue for Strings {
    type Value = Vec<String>;
    fn read(f: &Fields<'_>, key: &str) -> Result<Vec<String>, LoadError> {
        f.strings(key)
    }
    fn is_unset(value: &Vec<String>) -> bool {
        value.is_empty()
    }
}

impl ExpectValue for NonEmptyStrings {
    type Value = Vec<String>;
    fn read(f: &Fields<'_>, key: &str) -> Result<Vec<String>, LoadError> {
        if let Some(list) = f.get(key)
            && let Kind::Seq(items) = &list.kind
            && let Some(empty) = items.iter().find(|i| i.as_str() == Some(""))
        {
            return Err(f.error(
                empty,
                format!("`{key}`: an empty string is in every text, so it would check nothing"),
            ));
        }
        f.strings(key)
    }
    fn is_unset(value: &Vec<String>) -> bool {
        value.is_empty()
    }
}

impl ExpectValue for Regexes {
    type Value = Vec<(String, Regex)>;
    fn read(f: &Fields<'_>, key: &str) -> Result<Vec<(String, Regex)>, LoadError> {
        let Some(list) = f.get(key) else {
            return Ok(Vec::new());
        };
        let Kind::Seq(items) = &list.kind else {
            return Err(fields::expected(
                f.file,
                list,
                &format!("`{key}` to be a list of patterns"),
            ));
        };
        items
            .iter()
            .map(|item| {
                let pattern = fields::string(f.file, item, &format!("each pattern of `{key}`"))?;
                let regex = Regex::new(&pattern).map_err(|e| {
                    f.error(
                        item,
                        format!(
                            "`{key}`: invalid pattern {pattern:?}: {}",
                            first_line(&e.to_string())
                        ),
                    )
                })?;
                Ok((pattern, regex))
            })
            .collect()
    }
    fn is_unset(value: &Vec<(String, Regex)>) -> bool {
        value.is_empty()
    }
}

impl ExpectValue for JsonPaths {
    type Value = Vec<(String, Value)>;
    fn read(f: &Fields<'_>, key: &str) -> Result<Vec<(String, Value)>, LoadError> {
        let Some(n) = f.get(key) else {
            return Ok(Vec::new());
        };
        let Some(entries) = n.as_map() else {
            return Err(fields::expected(
                f.file,
                n,
                &format!("`{key}` to be a mapping of paths like `$.a.b[0]` to values"),
            ));
        };
        entries
            .iter()
            .map(|(k, v)| {
                let path = fields::string(f.file, k, &format!("a `{key}` key"))?;
                if !path.starts_with('$') {
                    return Err(f.error(
                        k,
                        format!("`{key}`: {path:?} must start with `$`, like `$.items[0].name`"),
                    ));
                }
                Ok((path, v.to_json(f.file, &format!("`{key}`"))?))
            })
            .collect()
    }
    fn is_unset(value: &Vec<(String, Value)>) -> bool {
        value.is_empty()
    }
}

impl ExpectValue for NonNegativeInt {
    type Value = Option<usize>;
    fn read(f: &Fields<'_>, key: &str) -> Result<Option<usize>, LoadError> {
        f.count(key)
    }
    fn is_unset(value: &Option<usize>) -> bool {
        value.is_none()
    }
}

impl ExpectValue for Int {
    type Value = Option<i64>;
    fn read(f: &Fields<'_>, key: &str) -> Result<Option<i64>, LoadError> {
        f.int(key)
    }
    fn is_unset(value: &Option<i64>) -> bool {
        value.is_none()
    }
}

impl ExpectValue for StringMap {
    type Value = Vec<(String, String)>;
    fn read(f: &Fields<'_>, key: &str) -> Result<Vec<(String, String)>, LoadError> {
        f.string_map(key)
    }
    fn is_unset(value: &Vec<(String, String)>) -> bool {
        value.is_empty()
    }
}

impl ExpectValue for Plugins {
    type Value = Vec<PluginExpect>;
    fn read(f: &Fields<'_>, key: &str) -> Result<Vec<PluginExpect>, LoadError> {
        plugin::load(f.file, f.get(key))
    }
    fn is_unset(value: &Vec<PluginExpect>) -> bool {
        value.is_empty()
    }
}

/// The last line of a regex error, without its `error: ` prefix.
fn first_line(text: &str) -> String {
    let line = text
        .lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or(text)
        .trim();
    line.strip_prefix("error: ").unwrap_or(line).to_owned()
}

/// Generates, from the table, [`Expect`](crate::assertion::Expect), its
/// emptiness test, the key list and its loader.
macro_rules! define_expect {
    ($($key:ident: $reader:ident,)*) => {
        /// mcp-assert's expectations (and mcptest's `plugin`), one field per
        /// key of [`expect_keys!`](crate::expect_keys).
        #[derive(Debug, Clone, Default)]
        pub struct Expect {
            $(
                #[doc = concat!("`", stringify!($key), "` (read as [`", stringify!($reader), "`](crate::keys::", stringify!($reader), "))")]
                pub $key: <$crate::keys::$reader as $crate::keys::ExpectValue>::Value,
            )*
        }

        /// The keys an `expect` block may hold.
        pub const EXPECT_KEYS: &[&str] = &[$(stringify!($key)),*];

        impl Expect {
            /// True when no expectation is given: checking it would pass
            /// whatever the server does.
            pub fn is_empty(&self) -> bool {
                true $(&& <$crate::keys::$reader as $crate::keys::ExpectValue>::is_unset(&self.$key))*
            }

            /// Reads an `expect` block (`what` names it in messages).
            pub(crate) fn load(
                file: &str,
                node: &$crate::tree::Node,
                what: &str,
            ) -> Result<Expect, $crate::error::LoadError> {
                let f = $crate::fields::Fields::new(file, node, what, EXPECT_KEYS)?;
                Ok(Expect {
                    $($key: <$crate::keys::$reader as $crate::keys::ExpectValue>::read(&f, stringify!($key))?,)*
                })
            }
        }
    };
}

pub(crate) use define_expect;
