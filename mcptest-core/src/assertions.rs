//! `assert_eq!` and `assert_ne!` (exported at the crate root): std's
//! syntax, with a failure drawn by the checks' own renderer
//! ([`values_differ`](crate::expect::failure::values_differ)).

/// `assert_eq!` and `assert_ne!` with std's syntax, whose failure shows
/// the two values' pretty `Debug` forms as a line-by-line diff (`-` the
/// left value, `+` the right one), drawn as every check's failure draws
/// its diff — handy for a result's JSON.
///
/// They are imported by name, next to the prelude, because no glob import
/// can bring them: a macro from a glob import that has the name of one of
/// std's is ambiguous (E0659) wherever it is used. A named import shadows
/// std's cleanly:
///
/// ```should_panic
/// use mcptest::prelude::*;
/// use mcptest::{assert_eq, assert_ne};
///
/// let reply = json!({"city": "Paris", "conditions": "sunny"});
/// assert_ne!(reply, json!({}));
/// // panics with a diff: `-` the left value, `+` the right one
/// assert_eq!(reply, json!({"city": "Paris", "conditions": "rain"}));
/// ```
#[macro_export]
macro_rules! assert_eq {
    ($left:expr, $right:expr $(,)?) => {
        match (&$left, &$right) {
            (left, right) => {
                if !(*left == *right) {
                    $crate::__private::values_differ("==", left, right, ::core::option::Option::None)
                }
            }
        }
    };
    ($left:expr, $right:expr, $($message:tt)+) => {
        match (&$left, &$right) {
            (left, right) => {
                if !(*left == *right) {
                    $crate::__private::values_differ(
                        "==",
                        left,
                        right,
                        ::core::option::Option::Some(::core::format_args!($($message)+)),
                    )
                }
            }
        }
    };
}

/// `assert_ne!` with std's syntax, whose failure shows the one value both
/// sides are; see [`assert_eq!`](crate::assert_eq).
///
/// ```
/// use mcptest::assert_ne;
///
/// assert_ne!(1 + 1, 3, "arithmetic");
/// ```
#[macro_export]
macro_rules! assert_ne {
    ($left:expr, $right:expr $(,)?) => {
        match (&$left, &$right) {
            (left, right) => {
                if *left == *right {
                    $crate::__private::values_differ("!=", left, right, ::core::option::Option::None)
                }
            }
        }
    };
    ($left:expr, $right:expr, $($message:tt)+) => {
        match (&$left, &$right) {
            (left, right) => {
                if *left == *right {
                    $crate::__private::values_differ(
                        "!=",
                        left,
                        right,
                        ::core::option::Option::Some(::core::format_args!($($message)+)),
                    )
                }
            }
        }
    };
}
