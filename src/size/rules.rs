//! DynamoDB's size rules for attribute values (DESIGN.md §3): strings are UTF-8 bytes,
//! binaries their decoded bytes, numbers 1 byte plus one per base-100 digit pair aligned at
//! the decimal point (+1 if negative), BOOL and NULL 1 byte; sets sum their elements; a list
//! is 3 + Σ(element + 1) and a map 3 + Σ(key + value + 1). Pure functions on text.

/// Largest item DynamoDB stores: 400 KB.
pub(crate) const MAX_ITEM_BYTES: u64 = 409_600;

/// Size of a number written as `text` (`-12.50`, `1E125`), or `None` if it is not a number.
#[must_use]
pub(crate) fn number_size(text: &str) -> Option<u64> {
    digits_size(text.trim().as_bytes())
}

/// `number_size` of text without surrounding whitespace.
fn digits_size(bytes: &[u8]) -> Option<u64> {
    let (negative, rest) = match bytes.first()? {
        b'-' => (true, bytes.get(1..)?),
        b'+' => (false, bytes.get(1..)?),
        _ => (false, bytes),
    };
    // Most numbers are digits and a point: one check over them (no branch a byte), then the
    // digits counted from where the point and the first and last non-zero digits sit.
    #[allow(
        clippy::needless_bitwise_bool,
        reason = "no branch a byte: the compiler turns the fold into vector compares"
    )]
    let plain = rest
        .iter()
        .fold(true, |ok, &b| ok & (b.is_ascii_digit() | (b == b'.')));
    let (mantissa, exponent) = if plain {
        (rest, None)
    } else {
        match rest.iter().position(|b| *b == b'e' || *b == b'E') {
            Some(i) => (rest.get(..i)?, Some(rest.get(i.checked_add(1)?..)?)),
            None => (rest, None),
        }
    };
    let exponent: i64 = match exponent {
        Some(e) => std::str::from_utf8(e).ok()?.parse().ok()?,
        None => 0,
    };
    let shape = if plain {
        plain_shape(mantissa)?
    } else {
        shape(mantissa)?
    };
    pairs(negative, shape, exponent)
}

/// Where a mantissa's digits sit: how many there are, where the decimal point falls among
/// them, and the first and last non-zero digits (counted in digits; `None`: all zeros).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    count: usize,
    point: Option<usize>,
    first: Option<usize>,
    last: usize,
}

/// `Shape` of a mantissa, byte by byte: the reference `plain_shape` is checked against.
fn shape(mantissa: &[u8]) -> Option<Shape> {
    let mut count = 0usize;
    let mut point: Option<usize> = None;
    let mut first: Option<usize> = None;
    let mut last = 0usize;
    for b in mantissa {
        match b {
            b'0'..=b'9' => {
                if *b != b'0' {
                    first.get_or_insert(count);
                    last = count;
                }
                count = count.checked_add(1)?;
            }
            b'.' if point.is_none() => point = Some(count),
            _ => return None,
        }
    }
    Some(Shape {
        count,
        point,
        first,
        last,
    })
}

/// `Shape` of a mantissa known to hold only digits and points: the point found once, the
/// first and last non-zero digits searched from either end (a second point is refused).
fn plain_shape(mantissa: &[u8]) -> Option<Shape> {
    // Numbers are short (a few digits): plain searches, no vector set-up.
    let point = mantissa.iter().position(|&b| b == b'.');
    let (count, after) = match point {
        Some(p) => {
            if mantissa.iter().rposition(|&b| b == b'.') != Some(p) {
                return None;
            }
            (mantissa.len().checked_sub(1)?, p)
        }
        None => (mantissa.len(), usize::MAX),
    };
    // A byte's place among the digits: one less past the point.
    let digit = |at: usize| if at > after { at.wrapping_sub(1) } else { at };
    let significant = |b: &u8| *b != b'0' && *b != b'.';
    let first = mantissa.iter().position(significant).map(digit);
    let last = mantissa.iter().rposition(significant).map_or(0, digit);
    Some(Shape {
        count,
        point,
        first,
        last,
    })
}

/// The size of a number of `shape` (and sign and exponent): 1 + its base-100 pairs (+ 1
/// when negative); `None` past what DynamoDB stores.
fn pairs(negative: bool, shape: Shape, exponent: i64) -> Option<u64> {
    let Shape {
        count,
        point,
        first,
        last,
    } = shape;
    if count == 0 || count > 38 + 200 {
        return None;
    }
    let point = i64::try_from(point.unwrap_or(count))
        .ok()?
        .checked_add(exponent)?;
    // Drop leading and trailing zeros: the value is 0.d1…dn × 10^e with d1 ≠ 0.
    let Some(first) = first else {
        return Some(1); // zero
    };
    let e = point.checked_sub(i64::try_from(first).ok()?)?;
    let n = i64::try_from(last.checked_sub(first)?.checked_add(1)?).ok()?;
    // DynamoDB refuses what it cannot store: more than 38 significant digits, or a magnitude
    // outside 1E-130 (= 0.1 × 10^-129) to 9.99…E+125 (< 10^126).
    if n > 38 || !(-129..=126).contains(&e) {
        return None;
    }
    // Significant digits sit at powers of ten e−1 down to e−n; base-100 pairs group powers
    // (2j, 2j+1), aligned at the decimal point.
    let pairs = e
        .checked_sub(1)?
        .div_euclid(2)
        .checked_sub(e.checked_sub(n)?.div_euclid(2))?
        .checked_add(1)?;
    let pairs = u64::try_from(pairs).ok()?;
    pairs.checked_add(1)?.checked_add(u64::from(negative))
}

/// `number_size` of UTF-8 bytes (`None` when they are not UTF-8).
#[must_use]
pub(crate) fn number_size_bytes(text: &[u8]) -> Option<u64> {
    // Text that starts with a sign, a digit or a point and ends with a digit or a point has
    // nothing to trim: size it as ASCII without the UTF-8 check.
    let plain = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_digit() || *b == b'.');
    let sign = text.first().is_some_and(|b| *b == b'-' || *b == b'+');
    if (sign || plain(text.first())) && plain(text.last()) {
        return digits_size(text);
    }
    number_size(std::str::from_utf8(text).ok()?)
}

/// Decoded length of standard base64 `text`, or `None` if it is not valid base64.
#[must_use]
pub(crate) fn base64_len(text: &str) -> Option<u64> {
    base64_len_bytes(text.as_bytes())
}

/// The standard base64 alphabet, by byte.
const BASE64: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        #[allow(clippy::cast_possible_truncation, reason = "c < 256")]
        let b = c as u8;
        table[c] = b.is_ascii_alphanumeric() || b == b'+' || b == b'/';
        c += 1;
    }
    table
};

/// `base64_len` of bytes.
#[must_use]
pub(crate) fn base64_len_bytes(b: &[u8]) -> Option<u64> {
    if !b.len().is_multiple_of(4) {
        return None;
    }
    let padding = b.iter().rev().take_while(|c| **c == b'=').count();
    if padding > 2 {
        return None;
    }
    let body = b.get(..b.len().checked_sub(padding)?)?;
    // One check over the body with no branch a byte (binaries are long).
    if !body.iter().fold(true, |ok, c| ok & BASE64[usize::from(*c)]) {
        return None;
    }
    let decoded = (b.len() / 4).checked_mul(3)?.checked_sub(padding)?;
    u64::try_from(decoded).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn n(text: &str, size: u64) {
        assert_eq!(number_size(text), Some(size), "{text}");
    }

    #[test]
    fn numbers_count_base_100_pairs_aligned_at_the_point() {
        // DESIGN.md §3: 100 → 2, 1010 → 3, 0.15 → 2, -42 → 3, 1100000 → 3, 1E125 → 2, 0 → 1.
        n("100", 2); // 1|00 → one pair "01" (00 trailing dropped)
        n("1010", 3); // 10|10 → two pairs
        n("0.15", 2); // .15 → one pair
        n("-42", 3); // 42 → one pair, + 1 negative
        n("1100000", 3); // 1|10|00|00 → pairs "01","10" → 2
        n("1E125", 2); // 10^125 → one pair
        n("0", 1);
        n("0.000", 1);
        n("-0", 1);
        // Trimming digit by digit instead of pair by pair gets these wrong:
        n("10", 2); // one pair "10"
        n("1000", 2); // 10|00 → "10" → 1 pair
        n("12345", 4); // 1|23|45 → 3 pairs
        n("1.5", 3); // 1|.50 → pairs "01" and "50"
        n("123.456", 5); // 1|23|.45|60 → 4 pairs
        n("0.001", 2); // .00|10 → one pair "10" (the zero pair before it is dropped)
        n("9.99e2", 3); // 999 → 9|99 → 2 pairs
        n("+7", 2);
        n("00042.500", 3); // 42.5 → 42|.50 → 2 pairs
    }

    #[test]
    fn malformed_numbers_are_refused() {
        for bad in [
            "", "-", "abc", "1.2.3", "1e", "1e2.5", "NaN", "inf", "1,000",
        ] {
            assert_eq!(number_size(bad), None, "{bad}");
        }
    }

    #[test]
    fn numbers_dynamodb_cannot_store_are_refused() {
        // 38 significant digits and the range 1E-130 .. 9.99…E+125 are DynamoDB's limits.
        let digits38 = "1".repeat(38);
        n(&digits38, 20); // 38 digits = 19 pairs + 1
        // Digits at powers 10^125 … 10^88: pairs (124,125) … (88,89) = 19 pairs, + 1.
        n("9.9999999999999999999999999999999999999E+125", 20);
        n("1E-130", 2);
        n("-1E-130", 3);
        for bad in [
            "1".repeat(39),
            "1E126".to_string(),
            "1e-131".to_string(),
            "1e-400".to_string(),
            "1.00000000000000000000000000000000000001".to_string(), // 39 significant
        ] {
            assert_eq!(number_size(&bad), None, "{bad}");
        }
        // Trailing zeros are not significant: 1 followed by 50 zeros is 1E50.
        n(&format!("1{}", "0".repeat(50)), 2);
    }

    proptest::proptest! {
        /// The fast shape of a plain mantissa is the byte-by-byte one, wherever the point,
        /// the zeros and the other digits fall (a second point refused by both).
        #[test]
        fn plain_shape_is_the_byte_by_byte_shape(text in "[0.]{0,4}[0-9.]{0,44}[0.]{0,4}") {
            proptest::prop_assert_eq!(plain_shape(text.as_bytes()), shape(text.as_bytes()), "{}", text);
        }
    }

    #[test]
    fn base64_decodes_to_its_byte_length() {
        assert_eq!(base64_len(""), Some(0));
        assert_eq!(base64_len("YQ=="), Some(1)); // "a"
        assert_eq!(base64_len("YWI="), Some(2)); // "ab"
        assert_eq!(base64_len("YWJj"), Some(3)); // "abc"
        assert_eq!(base64_len("YWJj!!=="), None);
        assert_eq!(base64_len("YWJ"), None);
        assert_eq!(base64_len("Y==="), None);
    }
}
