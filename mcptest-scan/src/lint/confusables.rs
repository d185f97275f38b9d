//! Letters that pass for ASCII, and the characters a reader cannot see.
//!
//! A small table, not Unicode's whole confusables data: the Cyrillic, Greek,
//! fullwidth and symbol letters most used to imitate ASCII tool names, plus
//! the separators that read alike. A full table would pull in a large
//! dependency for names that the MCP specification already limits to
//! `[A-Za-z0-9_.-]`; anything outside that set is suspicious on its own, and
//! the table only has to say which ASCII name it imitates.

/// A letter that passes for an ASCII letter, and that letter.
const LOOKALIKES: &[(char, char)] = &[
    // Cyrillic
    ('а', 'a'),
    ('в', 'b'),
    ('е', 'e'),
    ('ё', 'e'),
    ('һ', 'h'),
    ('і', 'i'),
    ('ї', 'i'),
    ('ј', 'j'),
    ('к', 'k'),
    ('ӏ', 'l'),
    ('м', 'm'),
    ('н', 'h'),
    ('о', 'o'),
    ('р', 'p'),
    ('с', 'c'),
    ('ԛ', 'q'),
    ('ѕ', 's'),
    ('т', 't'),
    ('у', 'y'),
    ('ԝ', 'w'),
    ('х', 'x'),
    ('ԁ', 'd'),
    ('ɡ', 'g'),
    // Greek
    ('α', 'a'),
    ('β', 'b'),
    ('ε', 'e'),
    ('η', 'n'),
    ('ι', 'i'),
    ('κ', 'k'),
    ('ν', 'v'),
    ('ο', 'o'),
    ('ρ', 'p'),
    ('τ', 't'),
    ('υ', 'u'),
    ('χ', 'x'),
    ('ϲ', 'c'),
    ('ϳ', 'j'),
    // Latin and letterlike symbols
    ('ı', 'i'),
    ('ȷ', 'j'),
    ('ℓ', 'l'),
    ('ⅰ', 'i'),
    ('ⅼ', 'l'),
    ('ⅽ', 'c'),
    ('ⅾ', 'd'),
    ('ⅿ', 'm'),
    // Digits that read as letters
    ('0', 'o'),
    ('1', 'l'),
];

/// Separators that read alike: all become `_`.
const SEPARATORS: &[char] = &['-', '.', ' ', '‐', '‑', '‒', '–', '—', '＿', '﹍', '・'];

/// The form two names share when a reader cannot tell them apart: lower
/// case, lookalike letters replaced by the ASCII letter they imitate,
/// fullwidth letters by their ASCII twins, separators by `_`, invisible
/// characters dropped.
///
/// ```text
/// assert_eq!(skeleton("Read-File"), skeleton("read_file"));
/// assert_eq!(skeleton("reаd_file"), "read_file"); // Cyrillic а
/// ```
pub(crate) fn skeleton(name: &str) -> String {
    name.chars()
        .flat_map(char::to_lowercase)
        .filter(|c| invisible(*c).is_none())
        .map(|c| {
            if SEPARATORS.contains(&c) {
                return '_';
            }
            // Fullwidth ASCII (U+FF01..U+FF5E) sits 0xFEE0 above ASCII.
            if ('\u{FF01}'..='\u{FF5E}').contains(&c) {
                return char::from_u32(c as u32 - 0xFEE0).unwrap_or(c);
            }
            LOOKALIKES
                .iter()
                .find(|(from, _)| *from == c)
                .map_or(c, |(_, to)| *to)
        })
        .collect()
}

/// The non-ASCII characters of `name` that imitate an ASCII letter.
pub(crate) fn lookalikes(name: &str) -> Vec<char> {
    name.chars()
        .filter(|c| !c.is_ascii())
        .filter(|c| {
            let lower: String = c.to_lowercase().collect();
            let mapped = skeleton(&lower);
            mapped.is_ascii() && !mapped.is_empty()
        })
        .collect()
}

/// The name of `c` when it is an invisible or direction-changing character:
/// zero-width characters, bidirectional controls, tag characters, fillers.
pub(crate) fn invisible(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{00AD}' => "SOFT HYPHEN",
        '\u{034F}' => "COMBINING GRAPHEME JOINER",
        '\u{061C}' => "ARABIC LETTER MARK",
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' => "HANGUL FILLER",
        '\u{17B4}' | '\u{17B5}' => "KHMER INHERENT VOWEL",
        '\u{180E}' => "MONGOLIAN VOWEL SEPARATOR",
        '\u{200B}' => "ZERO WIDTH SPACE",
        '\u{200C}' => "ZERO WIDTH NON-JOINER",
        '\u{200D}' => "ZERO WIDTH JOINER",
        '\u{200E}' => "LEFT-TO-RIGHT MARK",
        '\u{200F}' => "RIGHT-TO-LEFT MARK",
        '\u{202A}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202B}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202C}' => "POP DIRECTIONAL FORMATTING",
        '\u{202D}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202E}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2060}' => "WORD JOINER",
        '\u{2061}'..='\u{2064}' => "INVISIBLE OPERATOR",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        '\u{2069}' => "POP DIRECTIONAL ISOLATE",
        '\u{206A}'..='\u{206F}' => "DEPRECATED FORMAT CHARACTER",
        '\u{FEFF}' => "ZERO WIDTH NO-BREAK SPACE",
        '\u{1D173}'..='\u{1D17A}' => "MUSICAL SYMBOL FORMAT CHARACTER",
        // Tag characters spell out ASCII text that no reader sees.
        '\u{E0000}'..='\u{E007F}' => "TAG CHARACTER",
        // Controls a terminal acts on: clearing the screen, hiding text,
        // ringing the bell, cutting a C string short. Tab and line breaks
        // are ordinary text.
        '\u{0}' => "NULL",
        '\u{7}' => "BELL",
        '\u{1B}' => "ESCAPE",
        '\u{9B}' => "CONTROL SEQUENCE INTRODUCER",
        c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => "CONTROL CHARACTER",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_a_reader_cannot_tell_apart_share_a_skeleton() {
        assert_eq!(skeleton("Read-File"), "read_file");
        assert_eq!(skeleton("reаd_fіle"), "read_file");
        assert_eq!(skeleton("ｒｅａｄ＿ｆｉｌｅ"), "read_file");
        assert_eq!(skeleton("read\u{200B}_file"), "read_file");
        assert_eq!(skeleton("t00l"), skeleton("tool"));
        assert_ne!(skeleton("read_file"), skeleton("write_file"));
    }

    #[test]
    fn lookalikes_are_the_non_ascii_letters_that_imitate_ascii() {
        assert_eq!(lookalikes("reаd_file"), vec!['а']);
        assert!(lookalikes("read_file").is_empty());
        assert!(
            lookalikes("天気").is_empty(),
            "other scripts are not imitations"
        );
    }

    #[test]
    fn invisible_characters_are_named() {
        assert_eq!(invisible('\u{202E}'), Some("RIGHT-TO-LEFT OVERRIDE"));
        assert_eq!(invisible('\u{E0041}'), Some("TAG CHARACTER"));
        assert_eq!(invisible('a'), None);
        assert_eq!(invisible('é'), None);
        assert_eq!(invisible('\u{1B}'), Some("ESCAPE"));
        assert_eq!(invisible('\u{7}'), Some("BELL"));
        assert_eq!(invisible('\u{0}'), Some("NULL"));
        assert_eq!(invisible('\u{8}'), Some("CONTROL CHARACTER"));
        assert_eq!(invisible('\n'), None);
        assert_eq!(invisible('\t'), None);
    }
}
