//! JSON text checked by hand as `serde_json` checks it, over borrowed text: the cursor the
//! one-pass readers of large inputs share (`get-metric-data` pages, request log lines), so
//! that serde never reads millions of values only to check them before they are split.
//! Every check declines — `None`, and the caller has serde read the text instead, so errors
//! stay serde's, with its line and column — what it is not sure to read as serde does: an
//! escape or a control character in a string, nesting past `DEEPEST`, anything that is not
//! JSON. The tests below hold the check to serde's own.

/// Deeper nesting than this is left to serde (which refuses past 128).
pub(crate) const DEEPEST: u32 = 100;

/// A cursor over a JSON text.
pub(crate) struct Scan<'a> {
    pub(crate) text: &'a str,
    pub(crate) at: usize,
}

impl<'a> Scan<'a> {
    pub(crate) fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Moves past one byte (one that `peek` saw: never past the end).
    pub(crate) fn step(&mut self) {
        self.at = self.at.saturating_add(1);
    }

    pub(crate) fn blank(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.step();
        }
    }

    /// The opening `c` of a container, after blanks.
    pub(crate) fn open(&mut self, c: u8) -> Option<()> {
        self.blank();
        (self.peek()? == c).then(|| self.step())
    }

    /// Whether the container just opened closes with `c` at once (it is empty).
    pub(crate) fn close(&mut self, c: u8) -> Option<bool> {
        self.blank();
        let closes = self.peek()? == c;
        if closes {
            self.step();
        }
        Some(closes)
    }

    /// After an element: `true` at a comma (another follows), `false` at the closing `c`.
    pub(crate) fn more(&mut self, c: u8) -> Option<bool> {
        self.blank();
        match self.peek()? {
            b',' => {
                self.step();
                Some(true)
            }
            x if x == c => {
                self.step();
                Some(false)
            }
            _ => None,
        }
    }

    /// An object's key and its colon.
    pub(crate) fn key(&mut self) -> Option<&'a str> {
        let key = self.string()?;
        self.blank();
        (self.peek()? == b':').then(|| self.step())?;
        Some(key)
    }

    /// A string without escapes or control characters, after blanks: its text.
    pub(crate) fn string(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        if bytes.get(self.at) != Some(&b'"') {
            self.blank();
            (self.peek()? == b'"').then_some(())?;
        }
        // Offsets within the text: far from `usize::MAX`.
        let from = self.at.wrapping_add(1);
        let end = from.wrapping_add(stop(bytes.get(from..)?)?);
        if bytes.get(end) != Some(&b'"') {
            return None;
        }
        self.at = end.wrapping_add(1);
        self.text.get(from..end)
    }

    /// Whether the next value (after blanks) is `null`, read past it if so.
    pub(crate) fn null(&mut self) -> Option<bool> {
        self.blank();
        if self.peek()? != b'n' {
            return Some(false);
        }
        self.literal("null").map(|()| true)
    }

    /// `null` (`None`), or a string.
    #[expect(
        clippy::option_option,
        reason = "the outer `None` declines the page (serde reads it), the inner one is JSON's `null`"
    )]
    pub(crate) fn optional_string(&mut self) -> Option<Option<&'a str>> {
        if self.null()? {
            return Some(None);
        }
        self.string().map(Some)
    }

    /// `null` (`None`), or any value: its text.
    #[expect(
        clippy::option_option,
        reason = "the outer `None` declines the page (serde reads it), the inner one is JSON's `null`"
    )]
    pub(crate) fn optional_value(&mut self) -> Option<Option<&'a str>> {
        if self.null()? {
            return Some(None);
        }
        let from = self.at;
        self.value(0)?;
        self.text.get(from..self.at).map(Some)
    }

    pub(crate) fn literal(&mut self, word: &str) -> Option<()> {
        let end = self.at.checked_add(word.len())?;
        (self.text.get(self.at..end)? == word).then(|| self.at = end)
    }

    /// Any JSON value, after blanks, checked as serde checks it (or declined).
    pub(crate) fn value(&mut self, depth: u32) -> Option<()> {
        self.blank();
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'-' | b'0'..=b'9' => self.number(),
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            b'n' => self.literal("null"),
            b'[' | b'{' if depth >= DEEPEST => None,
            b'[' => {
                self.step();
                if self.close(b']')? {
                    return Some(());
                }
                loop {
                    self.value(depth.checked_add(1)?)?;
                    if !self.more(b']')? {
                        return Some(());
                    }
                }
            }
            b'{' => {
                self.step();
                if self.close(b'}')? {
                    return Some(());
                }
                loop {
                    self.key()?;
                    self.value(depth.checked_add(1)?)?;
                    if !self.more(b'}')? {
                        return Some(());
                    }
                }
            }
            _ => None,
        }
    }

    /// A number in JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    pub(crate) fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.step();
        }
        match self.peek()? {
            b'0' => self.step(),
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.step();
            self.peek().filter(u8::is_ascii_digit)?;
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.step();
            if let Some(b'+' | b'-') = self.peek() {
                self.step();
            }
            self.peek().filter(u8::is_ascii_digit)?;
            self.digits();
        }
        Some(())
    }

    pub(crate) fn digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.step();
        }
    }
}

/// The offset of the first `"`, `\\` or control character (below 0x20) in `bytes`, eight
/// bytes at a time: a byte equal to `c` is a zero byte of `word ^ c…c` and a byte below 0x20
/// borrows in `word - 0x20…20`, each flagged in its high bit with the borrow trick (only
/// bytes above a true match can be flagged falsely, so the lowest flag is always one); the
/// last bytes one by one.
pub(crate) fn stop(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let below = |v: u64, n: u8| v.wrapping_sub(ONES.wrapping_mul(u64::from(n))) & !v & HIGHS;
    let (words, tail) = bytes.as_chunks::<8>();
    // Offsets within `bytes`: far from `usize::MAX`.
    let mut at = 0usize;
    for word in words {
        let word = u64::from_le_bytes(*word);
        let flags = below(word ^ ONES.wrapping_mul(u64::from(b'"')), 1)
            | below(word ^ ONES.wrapping_mul(u64::from(b'\\')), 1)
            | below(word, 0x20);
        if flags != 0 {
            return Some(at.wrapping_add((flags.trailing_zeros() / 8) as usize));
        }
        at = at.wrapping_add(8);
    }
    at.checked_add(
        tail.iter()
            .position(|c| matches!(c, b'"' | b'\\') || *c < 0x20)?,
    )
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Whether `text` is one JSON value, blanks around it, as the scanner checks it.
    fn checked(text: &str) -> bool {
        let mut s = Scan { text, at: 0 };
        s.value(0).is_some() && {
            s.blank();
            s.at == text.len()
        }
    }

    #[test]
    fn what_serde_must_read_is_declined() {
        for text in [
            r#""m\u0030""#,
            "\"m\t0\"",
            "[01]",
            "[1.]",
            "[1,]",
            "{} x",
            "[}",
            "",
        ] {
            assert!(!checked(text), "{text}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(!checked(&deep));
        assert!(checked(
            r#" {"a": [1, -2.5e3, true, false, null, "x"], "b": {}} "#
        ));
    }

    proptest! {
        /// The first quote, backslash or control character found eight bytes at a time is
        /// the first found byte by byte.
        #[test]
        fn stops_are_found_as_byte_by_byte(text in prop::collection::vec(
            prop_oneof![Just(b'"'), Just(b'\\'), 0u8..0x20, 0x20u8..=0xff, Just(b'a')],
            0..40,
        )) {
            let plain = text.iter().position(|c| matches!(c, b'"' | b'\\') || *c < 0x20);
            prop_assert_eq!(stop(&text), plain);
        }

        /// Any value the scanner accepts is JSON serde accepts, and any JSON without escapes,
        /// control characters or deep nesting is accepted: the check is serde's own.
        #[test]
        fn values_are_checked_as_serde_checks_them(
            text in r#"[\[\]{}:, "a0-9.eE+\-tnulrsf\\]{0,24}"#,
        ) {
            let serde = serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok();
            let hand = checked(&text);
            if hand {
                prop_assert!(serde, "accepted what serde refuses: {}", text);
            } else if serde {
                prop_assert!(text.contains('\\'), "declined plain JSON: {}", text);
            }
        }
    }
}
