//! `assert_eq!` and `assert_ne!` (re-exported at the crate root): std's
//! syntax, with a failure drawn by the checks' own renderer
//! ([`values_differ`](crate::expect::failure::values_differ)).

#[doc(hidden)]
#[macro_export]
macro_rules! __mcptest_assert_eq {
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

#[doc(hidden)]
#[macro_export]
macro_rules! __mcptest_assert_ne {
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
