//! The one way server text is made safe to show: every character a terminal
//! would act on or XML 1.0 cannot carry becomes visible as `\u{1b}`. Kept:
//! tab and newline. Escaped: the other C0 controls (ESC, BEL, NUL, CR), DEL,
//! the C1 controls, U+FFFE and U+FFFF. Used by the terminal, Markdown and
//! JUnit renderings alike, and so by every front end that prints a report.

use std::{borrow::Cow, fmt::Write};

/// True for a character [`safe_text`] escapes.
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || c == '\u{fffe}' || c == '\u{ffff}'
}

/// `text` with every unsafe character written as `\u{..}`; borrowed when
/// there is none.
pub fn safe_text(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_noncharacters_become_visible() {
        assert_eq!(safe_text("a\tb\nc"), "a\tb\nc");
        assert_eq!(
            safe_text("\u{1b}[2J\u{7}\u{0}\r\u{9b}\u{fffe}\u{ffff}"),
            "\\u{1b}[2J\\u{7}\\u{0}\\u{d}\\u{9b}\\u{fffe}\\u{ffff}"
        );
    }
}
