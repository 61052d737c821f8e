//! Text from a user's files on its way to a terminal or a report: which characters act on
//! the screen instead of being shown — control characters (an escape sequence recolours,
//! moves the cursor or rewrites the title; a carriage return writes over what was printed),
//! bidirectional overrides and isolates (they reorder what a reader sees, the "Trojan
//! source" trick) and the Unicode line and paragraph separators — and how such a character
//! is shown instead: as its escape, `\u{1b}`. A name also may not hold an invisible
//! character (a zero-width space): two names would look alike. The loader refuses them in
//! the documents it reads (`check`, from `load::yaml::tree` and `scenario`); errors,
//! warnings and reports show the data of other files (key values, a bill's names,
//! CloudWatch's) through `shown` and `one_line`.

use std::borrow::Cow;

/// Whether `c` acts on a terminal or on the order of the text around it, rather than being
/// shown. Tab and line feed lay text out and are not counted here.
#[must_use]
pub(crate) fn acts(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n') || is_layout_control(c)
}

/// Bidirectional embeddings, overrides and isolates, and the line and paragraph separators.
fn is_layout_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// Characters that show nothing at all (a zero-width space, a soft hyphen, a word joiner, a
/// byte-order mark inside the text): two names that differ only by one look the same.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{AD}' | '\u{180E}' | '\u{200B}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
    )
}

/// Whether `c` may not stand in a name (a table's, a pattern's, an index's, a scenario's):
/// every character that `acts`, tab and line feed, which would break the name's line, and
/// the invisible ones, which would make two names look alike.
#[must_use]
pub(crate) fn unfit_for_name(c: char) -> bool {
    c.is_control() || is_layout_control(c) || is_invisible(c)
}

/// What kind of character `c` is, for a refusal: `a control character (U+001B)`.
#[must_use]
pub(crate) fn describe(c: char) -> String {
    let kind = match c {
        '\u{202A}'..='\u{202E}' => "a bidirectional override",
        '\u{2066}'..='\u{2069}' => "a bidirectional isolate",
        '\u{2028}' => "a line separator",
        '\u{2029}' => "a paragraph separator",
        '\t' => "a tab",
        '\n' | '\r' => "a line break",
        c if is_invisible(c) => "an invisible character",
        _ => "a control character",
    };
    format!("{kind} (U+{:04X})", u32::from(c))
}

/// Why to take such a character out, for a refusal.
pub(crate) const HELP: &str = "Consider removing it: names and text are printed on terminals and in reports, where a control character or a bidirectional override would act (recolour, move the cursor, reorder the line) and an invisible character would make two names look alike. In a double-quoted YAML string an escape such as `\\e` or `\\u202E` writes one.";

/// `text` as a file may state it: a name (`name`) holds no character `unfit_for_name`, other
/// text none that `acts`. The refusal names the first one and where it is:
/// `the name "orders\u{1b}[31m" holds a control character (U+001B) at character 7`.
///
/// # Errors
/// The refusal's message.
pub(crate) fn check(text: &str, name: bool) -> Result<(), String> {
    let unfit = if name { unfit_for_name } else { acts };
    let Some((n, c)) = text.chars().enumerate().find(|&(_, c)| unfit(c)) else {
        return Ok(());
    };
    let what = if name { "the name" } else { "the text" };
    let shown: String = one_line(text).chars().take(80).collect();
    Err(format!(
        "{what} \"{shown}\" holds {} at character {}",
        describe(c),
        n.saturating_add(1)
    ))
}

/// `text` with every character that `acts` written as its escape (`\u{1b}`); tab and line
/// feed are kept. Borrowed when nothing needed escaping.
#[must_use]
pub(crate) fn shown(text: &str) -> Cow<'_, str> {
    escaped(text, acts)
}

/// `text` on one line: as `shown`, and tab and line feed escaped too (a table cell, a name).
#[must_use]
pub(crate) fn one_line(text: &str) -> Cow<'_, str> {
    escaped(text, unfit_for_name)
}

fn escaped(text: &str, escape: fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().saturating_add(8));
    for c in text.chars() {
        if escape(c) {
            out.extend(c.escape_unicode());
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
    fn escape_sequences_and_overrides_are_shown_not_obeyed() {
        assert_eq!(shown("orders\u{1b}[31m"), "orders\\u{1b}[31m");
        assert_eq!(shown("a\u{202E}b"), "a\\u{202e}b");
        assert_eq!(shown("over\rwrite"), "over\\u{d}write");
        // C1 controls: U+009B is a one-character escape sequence introducer on some terminals.
        assert_eq!(shown("\u{9b}31m"), "\\u{9b}31m");
    }

    #[test]
    fn layout_is_kept_by_shown_and_escaped_on_one_line() {
        assert!(matches!(shown("two\nlines\tand a tab"), Cow::Borrowed(_)));
        assert_eq!(one_line("two\nlines\tx"), "two\\u{a}lines\\u{9}x");
        assert!(matches!(
            one_line("plain — text, ünïcode 😀"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn refusals_name_the_kind_and_code_point() {
        assert_eq!(describe('\u{1b}'), "a control character (U+001B)");
        assert_eq!(describe('\u{202E}'), "a bidirectional override (U+202E)");
        assert_eq!(describe('\n'), "a line break (U+000A)");
        assert_eq!(describe('\u{200B}'), "an invisible character (U+200B)");
        // `orders` and `orders` + a zero-width space would look alike: the name is refused,
        // and shown on one line the space is seen; in a description it is text.
        assert!(unfit_for_name('\u{200B}') && !acts('\u{200B}'));
        assert_eq!(one_line("orders\u{200B}"), "orders\\u{200b}");
        // Joiners and marks that scripts need are ordinary text.
        assert!(!acts('\u{200D}') && !unfit_for_name('\u{200C}') && !acts('\u{200F}'));
    }

    proptest::proptest! {
        /// Any text at all: what `shown` writes holds nothing that acts, what `one_line`
        /// writes no control character; text with nothing to escape is passed as it is, and
        /// every escape reads back to its character.
        #[test]
        fn nothing_that_acts_gets_through(text in "(\\PC|\\pC|[\u{202A}-\u{202E}\u{2066}-\u{2069}\u{2028}\u{2029}\u{200B}\u{FEFF}\t\n\r])*") {
            let shown = shown(&text);
            let line = one_line(&text);
            proptest::prop_assert!(!shown.chars().any(acts));
            proptest::prop_assert!(!line.chars().any(unfit_for_name));
            if !text.chars().any(unfit_for_name) {
                proptest::prop_assert_eq!(&*line, &*text);
            }
            if !text.contains('\\') {
                proptest::prop_assert_eq!(unescape(&line), text);
            }
        }
    }

    /// `\u{…}` escapes back to their characters (the test's own reading of the format, for
    /// text that held no backslash of its own).
    fn unescape(text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some((head, tail)) = rest.split_once("\\u{") {
            out.push_str(head);
            let (code, after) = tail.split_once('}').unwrap();
            out.push(char::from_u32(u32::from_str_radix(code, 16).unwrap()).unwrap());
            rest = after;
        }
        out.push_str(rest);
        out
    }
}
