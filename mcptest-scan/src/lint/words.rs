//! The words of identifiers and of prose, as the rules compare them:
//! `filePath`, `file_path` and `file-path` are all `file`, `path`, so a rule
//! that looks for a word finds it in any naming style and never inside
//! another word (`set` is not in `settings`, `put` is not in `input`).

/// The lowercase words of `text`: split at every character that is not a
/// letter or digit, and between a lowercase letter (or digit) and an
/// uppercase one.
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// Whether `needle` (words) occurs in `haystack` (words) as consecutive
/// words: `["dry", "run"]` is in "a dry run first", `["path"]` in "the
/// path", not in "the paths".
pub(crate) fn contains_words(haystack: &[String], needle: &[String]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

/// The forms of the verb `verb` a description uses: `read`, `reads`,
/// `reading`; `fetch`, `fetches`; `write`, `writes`, `writing`; `set`,
/// `sets`, `setting`; `copy`, `copies`.
pub(crate) fn is_verb_form(word: &str, verb: &str) -> bool {
    if word == verb {
        return true;
    }
    let Some(rest) = word.strip_prefix(verb) else {
        return verb_stem_form(word, verb);
    };
    match rest {
        "s" | "es" | "ing" | "ed" | "d" => true,
        _ => {
            // setting, dropping: a doubled final consonant.
            let last = verb.chars().last().unwrap_or(' ');
            rest.len() == 4 && rest.starts_with(last) && matches!(&rest[1..], "ing")
                || rest.len() == 3 && rest.starts_with(last) && &rest[1..] == "ed"
        }
    }
}

/// writing (write), copies (copy): forms that drop or change the verb's
/// last letter.
fn verb_stem_form(word: &str, verb: &str) -> bool {
    if let Some(rest) = verb
        .strip_suffix('e')
        .and_then(|stem| word.strip_prefix(stem))
    {
        return rest == "ing";
    }
    verb.strip_suffix('y')
        .and_then(|stem| word.strip_prefix(stem))
        .is_some_and(|rest| matches!(rest, "ies" | "ied"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Vec<String> {
        words(text)
    }

    #[test]
    fn identifiers_split_into_the_same_words_in_any_style() {
        assert_eq!(w("filePath"), ["file", "path"]);
        assert_eq!(w("file_path"), ["file", "path"]);
        assert_eq!(w("file-path"), ["file", "path"]);
        assert_eq!(
            w("Reads a file, then writes it."),
            ["reads", "a", "file", "then", "writes", "it"]
        );
        assert_eq!(w("get_settings"), ["get", "settings"]);
    }

    #[test]
    fn consecutive_words_are_found_and_partial_words_are_not() {
        assert!(contains_words(&w("Do a dry run first"), &w("dryRun")));
        assert!(contains_words(&w("in a specified path"), &w("path")));
        assert!(!contains_words(&w("match paths"), &w("path")));
        assert!(!contains_words(&w("anything"), &[]));
    }

    #[test]
    fn verb_forms() {
        for (word, verb) in [
            ("reads", "read"),
            ("fetches", "fetch"),
            ("writing", "write"),
            ("setting", "set"),
            ("copies", "copy"),
            ("created", "create"),
            ("dropped", "drop"),
            ("list", "list"),
        ] {
            assert!(is_verb_form(word, verb), "{word} is a form of {verb}");
        }
        for (word, verb) in [("settings", "set"), ("input", "put"), ("address", "add")] {
            assert!(!is_verb_form(word, verb), "{word} is not a form of {verb}");
        }
    }
}
