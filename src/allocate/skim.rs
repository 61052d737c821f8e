//! Spans inside JSON text serde_json has already checked (a `RawValue` of a request line, or
//! a span of one): an object's fields, a list's elements, a string's text — found by skipping
//! strings and counting brackets, never validated a second time and never built. The serde
//! readings they replace are kept in the tests below, which check both agree on generated
//! JSON.

use std::borrow::Cow;

/// The offset of the first byte of `b` at or after `at` that is not JSON whitespace.
fn ws(b: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(at) {
        // `at` stays within `b`, far from `usize::MAX`.
        at = at.wrapping_add(1);
    }
    at
}

/// The length of the string token that starts `b` (its quotes included; all of `b` when it
/// does not end, which checked JSON never does).
fn string_len(b: &[u8]) -> usize {
    let mut at = 1usize;
    while let Some(k) = b
        .get(at..)
        .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
    {
        // Offsets within `b`: far from `usize::MAX`.
        let found = at.wrapping_add(k);
        if b.get(found) == Some(&b'"') {
            return found.wrapping_add(1);
        }
        // A backslash: it and the byte it escapes.
        at = found.wrapping_add(2);
    }
    b.len()
}

/// The length of the JSON value that starts `b`.
fn value_len(b: &[u8]) -> usize {
    match b.first() {
        Some(b'"') => string_len(b),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut at = 0usize;
            while let Some(&c) = b.get(at) {
                // Offsets within `b` and a depth below its length: far from `usize::MAX`.
                match c {
                    b'"' => {
                        at = at.wrapping_add(b.get(at..).map_or(1, string_len));
                        continue;
                    }
                    b'{' | b'[' => depth = depth.wrapping_add(1),
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return at.wrapping_add(1);
                        }
                    }
                    _ => {}
                }
                at = at.wrapping_add(1);
            }
            b.len()
        }
        // A number, `true`, `false` or `null`: up to the next delimiter.
        _ => b
            .iter()
            .position(|c| matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
            .unwrap_or(b.len()),
    }
}

/// The members of a JSON object or the elements of a list, in order: each a key's string
/// token (quotes included; `None` for a list) and the value's text.
pub(crate) struct Members<'a> {
    text: &'a str,
    at: usize,
    object: bool,
}

impl<'a> Members<'a> {
    /// The members of `text` when it is an object (`object`) or a list; none otherwise.
    fn of(text: &'a str, object: bool) -> Members<'a> {
        let open = if object { b'{' } else { b'[' };
        let at = if text.as_bytes().first() == Some(&open) {
            1
        } else {
            text.len()
        };
        Members { text, at, object }
    }
}

impl<'a> Iterator for Members<'a> {
    type Item = (Option<&'a str>, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.text.as_bytes();
        let mut at = ws(b, self.at);
        // The end of the object or list (or of text that is neither).
        if matches!(b.get(at), None | Some(b'}' | b']')) {
            self.at = self.text.len();
            return None;
        }
        // Offsets within `text` (every one found by a length within it): far from
        // `usize::MAX`. Every slice starts and ends at an ASCII byte, so on a char boundary.
        let key = if self.object {
            let len = string_len(b.get(at..)?);
            let key = self.text.get(at..at.wrapping_add(len))?;
            // The key, whitespace, `:` and whitespace.
            at = ws(b, ws(b, at.wrapping_add(len)).wrapping_add(1));
            Some(key)
        } else {
            None
        };
        let len = value_len(b.get(at..)?);
        let value = self.text.get(at..at.wrapping_add(len))?;
        // Past the value, whitespace and the `,` (or the closing bracket).
        self.at = ws(b, at.wrapping_add(len)).wrapping_add(1);
        Some((key, value))
    }
}

/// The text of a JSON string token (quotes included): borrowed when it holds no escape.
pub(crate) fn string(token: &str) -> Option<Cow<'_, str>> {
    let inner = token.strip_prefix('"')?.strip_suffix('"')?;
    if inner.contains('\\') {
        serde_json::from_str::<String>(token).ok().map(Cow::Owned)
    } else {
        Some(Cow::Borrowed(inner))
    }
}

/// The value of field `name` of the JSON object `text`, the first one of that name (`None`
/// when absent, null, or `text` is not an object).
pub(crate) fn field<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    Members::of(text, true)
        .find(|(key, _)| key.and_then(string).as_deref() == Some(name))
        .map(|(_, v)| v)
        .filter(|v| *v != "null")
}

/// Every value of the JSON object `text`, in order (none when it is not an object).
pub(crate) fn values(text: &str) -> impl Iterator<Item = &str> {
    Members::of(text, true).map(|(_, v)| v)
}

/// The elements of the JSON list `text`, in order (none when it is not a list).
pub(crate) fn elements(text: &str) -> impl Iterator<Item = &str> {
    Members::of(text, false).map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde::Deserializer;
    use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};
    use serde_json::value::RawValue;
    use std::fmt;

    /// The serde reading `field` replaces.
    fn serde_field<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
        struct Seed<'n>(&'n str);
        impl<'de> DeserializeSeed<'de> for Seed<'_> {
            type Value = Option<&'de RawValue>;
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                d.deserialize_map(self)
            }
        }
        impl<'de> Visitor<'de> for Seed<'_> {
            type Value = Option<&'de RawValue>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<Self::Value, M::Error> {
                let mut found = None;
                while let Some(k) = m.next_key::<Cow<'de, str>>()? {
                    if found.is_none() && k == self.0 {
                        found = Some(m.next_value::<&'de RawValue>()?);
                    } else {
                        m.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(found)
            }
        }
        if !raw.starts_with('{') {
            return None;
        }
        let mut d = serde_json::Deserializer::from_str(raw);
        Seed(name)
            .deserialize(&mut d)
            .ok()
            .flatten()
            .map(RawValue::get)
            .filter(|v| *v != "null")
    }

    /// The serde reading `values` replaces.
    fn serde_values(raw: &str) -> Vec<&str> {
        struct All;
        impl<'de> Visitor<'de> for All {
            type Value = Vec<&'de RawValue>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<Self::Value, M::Error> {
                let mut out = Vec::new();
                while let Some((_, v)) = m.next_entry::<IgnoredAny, &'de RawValue>()? {
                    out.push(v);
                }
                Ok(out)
            }
        }
        if !raw.starts_with('{') {
            return Vec::new();
        }
        let mut d = serde_json::Deserializer::from_str(raw);
        d.deserialize_map(All)
            .unwrap_or_default()
            .into_iter()
            .map(RawValue::get)
            .collect()
    }

    /// JSON values with strings that need escapes, nesting, and whitespace between tokens.
    fn json() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(serde_json::Value::from),
            (-1e6f64..1e6).prop_map(serde_json::Value::from),
            "[a-zA-Z\"\\\\/\n\t{}\\[\\],:é😀 ]{0,12}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                prop::collection::vec(("[a-cS\"\\\\]{0,3}", inner), 0..6)
                    .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    /// `value` as text, compact or spread over lines with indentation.
    fn text(value: &serde_json::Value, pretty: bool) -> String {
        if pretty {
            serde_json::to_string_pretty(value).unwrap()
        } else {
            serde_json::to_string(value).unwrap()
        }
    }

    proptest! {
        #[test]
        fn field_is_the_serde_reading(v in json(), pretty: bool, name in "[a-cS\"\\\\]{0,3}") {
            let t = text(&v, pretty);
            prop_assert_eq!(field(&t, &name), serde_field(&t, &name));
            // The first key too, whatever it is.
            if let Some(k) = v.as_object().and_then(|m| m.keys().next()) {
                prop_assert_eq!(field(&t, k), serde_field(&t, k));
            }
        }

        #[test]
        fn values_are_the_serde_reading(v in json(), pretty: bool) {
            let t = text(&v, pretty);
            prop_assert_eq!(values(&t).collect::<Vec<_>>(), serde_values(&t));
        }

        #[test]
        fn elements_are_the_serde_reading(v in json(), pretty: bool) {
            let t = text(&v, pretty);
            let serde: Vec<&str> = if t.starts_with('[') {
                serde_json::from_str::<Vec<&RawValue>>(&t).unwrap().into_iter().map(RawValue::get).collect()
            } else {
                Vec::new()
            };
            prop_assert_eq!(elements(&t).collect::<Vec<_>>(), serde);
        }

        #[test]
        fn strings_are_the_serde_reading(s in "[a-zA-Z\"\\\\/\n\u{1}é😀 ]{0,12}") {
            let token = serde_json::to_string(&s).unwrap();
            let read = string(&token);
            prop_assert_eq!(read.as_deref(), Some(s.as_str()));
        }
    }

    #[test]
    fn escaped_keys_and_nulls() {
        let t = r#"{"P\u004b": {"S": "ORG#1"}, "PK": 2, "n": null}"#;
        assert_eq!(field(t, "PK"), Some(r#"{"S": "ORG#1"}"#));
        assert_eq!(field(t, "n"), None);
        assert_eq!(field("[1]", "PK"), None);
        assert_eq!(
            values(t).collect::<Vec<_>>(),
            [r#"{"S": "ORG#1"}"#, "2", "null"]
        );
        assert_eq!(
            elements(" [ 1 , \"a\\\"]\" ]".trim()).collect::<Vec<_>>(),
            ["1", "\"a\\\"]\""]
        );
    }
}
