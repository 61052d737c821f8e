//! A `get-metric-data` page read by hand in one pass over its bytes, the shape the AWS CLI
//! writes: `{"MetricDataResults": [{Id, Label, Timestamps, Values, StatusCode, Messages}],
//! "NextToken", "Messages"}`. The whole text is checked as JSON here, on the shared cursor
//! of `crate::json_scan` (strings, numbers, literals, nesting, what follows the document),
//! each result's fields found as spans of it and its lists read as they are checked, so
//! serde never reads the millions of timestamps and values a month holds only to check them
//! before they are split. It declines — `None`, and serde reads the page as before —
//! anything it is not sure to read as serde does: an escape or a control character in any
//! string, text that is not UTF-8, a field of an unexpected type or given twice, deep
//! nesting, `get-metric-statistics` output, and any text that is not JSON (so an error
//! names its line and column as serde finds them). The tests of `metric_data` check that a
//! page read here and a page read by serde give the same reading or the same error.

use rust_decimal::Decimal;

use super::metric_data::Message;
use super::{Times, value};
use crate::json_scan::Scan;

/// One result of `MetricDataResults`, its fields as spans of the page.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Result<'a> {
    pub(super) id: &'a str,
    pub(super) label: Option<&'a str>,
    /// The text of the lists (`null` read as absent, as serde reads an `Option`).
    pub(super) timestamps: Option<&'a str>,
    pub(super) values: Option<&'a str>,
    pub(super) status: Option<&'a str>,
    pub(super) messages: Vec<Message>,
    /// The lists read while they were checked, where every timestamp and value reads as
    /// `Times::parse` and `value` read them (else `None`, and the spans are read as serde's
    /// are, errors named).
    pub(super) times: Option<Vec<i64>>,
    pub(super) amounts: Option<Vec<Decimal>>,
}

/// What the page says, in the order it says it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Part<'a> {
    Results(Vec<Result<'a>>),
    /// The page's own `Messages`.
    Messages(Vec<Message>),
    /// `NextToken`: whether one is given (a non-empty string).
    NextToken(bool),
}

/// The page's parts, or `None` where serde must read it.
pub(super) fn read(bytes: &[u8]) -> Option<Vec<Part<'_>>> {
    let text = simdutf8::basic::from_utf8(bytes).ok()?;
    let mut s = Scan { text, at: 0 };
    let mut parts = Vec::new();
    let mut seen = [false; 3];
    s.open(b'{')?;
    if !s.close(b'}')? {
        loop {
            let key = s.key()?;
            let part = match key {
                "MetricDataResults" => Part::Results(results(&mut s)?),
                "Messages" => Part::Messages(messages(&mut s)?.unwrap_or_default()),
                "NextToken" => Part::NextToken(s.optional_string()?.is_some_and(|t| !t.is_empty())),
                "Label" | "Datapoints" => return None,
                _ => {
                    s.value(0)?;
                    if !s.more(b'}')? {
                        break;
                    }
                    continue;
                }
            };
            let slot = match part {
                Part::Results(_) => 0,
                Part::Messages(_) => 1,
                Part::NextToken(_) => 2,
            };
            if std::mem::replace(seen.get_mut(slot)?, true) {
                return None;
            }
            parts.push(part);
            if !s.more(b'}')? {
                break;
            }
        }
    }
    s.blank();
    (s.at == s.text.len()).then_some(parts)
}

/// `MetricDataResults`: a list of objects.
fn results<'a>(s: &mut Scan<'a>) -> Option<Vec<Result<'a>>> {
    let mut out = Vec::new();
    s.open(b'[')?;
    if s.close(b']')? {
        return Some(out);
    }
    loop {
        out.push(result(s)?);
        if !s.more(b']')? {
            return Some(out);
        }
    }
}

/// One result: its known fields each at most once, of the type serde reads, others skipped.
fn result<'a>(s: &mut Scan<'a>) -> Option<Result<'a>> {
    let mut r = Result::default();
    let mut seen = [false; 6];
    s.open(b'{')?;
    if s.close(b'}')? {
        return Some(r);
    }
    loop {
        let key = s.key()?;
        let slot = match key {
            "Id" => {
                r.id = s.string()?;
                0
            }
            "Label" => {
                r.label = s.optional_string()?;
                1
            }
            "Timestamps" => {
                let other = r.amounts.as_ref().map_or(0, Vec::len);
                (r.timestamps, r.times) = s.list(|s| s.times(other))?;
                2
            }
            "Values" => {
                let other = r.times.as_ref().map_or(0, Vec::len);
                (r.values, r.amounts) = s.list(|s| s.amounts(other))?;
                3
            }
            "StatusCode" => {
                r.status = s.optional_string()?;
                4
            }
            "Messages" => {
                // `Vec` with a default: `null` is refused by serde, so left to it.
                r.messages = messages(s)??;
                5
            }
            _ => {
                s.value(0)?;
                usize::MAX
            }
        };
        if let Some(seen) = seen.get_mut(slot)
            && std::mem::replace(seen, true)
        {
            return None;
        }
        if !s.more(b'}')? {
            return Some(r);
        }
    }
}

/// A `Messages` list, read by serde from its span (a few at most, rarely any): `Some(None)`
/// for `null`.
#[expect(
    clippy::option_option,
    reason = "the outer `None` declines the page (serde reads it), the inner one is JSON's `null`"
)]
fn messages(s: &mut Scan<'_>) -> Option<Option<Vec<Message>>> {
    match s.optional_value()? {
        None => Some(None),
        Some(span) => serde_json::from_str(span).ok().map(Some),
    }
}

/// The page's own reading of its lists, on the shared cursor.
impl<'a> Scan<'a> {
    /// A list's text (`None` for `null`) and, where `read` reads all of it, what it read;
    /// else the list is checked as any value is.
    fn list<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Option<Vec<T>>,
    ) -> Option<(Option<&'a str>, Option<Vec<T>>)> {
        self.blank();
        let from = self.at;
        if let Some(items) = read(self) {
            return Some((Some(self.text.get(from..self.at)?), Some(items)));
        }
        self.at = from;
        Some((self.optional_value()?, None))
    }

    /// The elements of a list, each read by `item` (`None` as soon as one is not), room made
    /// for as many as the result's other list holds (`expected`).
    fn elements<T>(
        &mut self,
        expected: usize,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        self.open(b'[')?;
        let mut out = Vec::with_capacity(expected);
        if self.close(b']')? {
            return Some(out);
        }
        loop {
            self.blank();
            out.push(item(self)?);
            if !self.more(b']')? {
                return Some(out);
            }
        }
    }

    /// `Timestamps`: strings read as times.
    fn times(&mut self, expected: usize) -> Option<Vec<i64>> {
        let mut clock = Times::default();
        self.elements(expected, |s| {
            // The AWS CLI's shape, `"YYYY-MM-DDTHH:MM:SSZ"`: its reading checks every byte
            // (a digit or a separator, never a quote, a backslash or a control character).
            let b = s.text.as_bytes();
            let end = s.at.checked_add(21)?;
            if b.get(s.at) == Some(&b'"') && b.get(end) == Some(&b'"') {
                let body = b.get(s.at.checked_add(1)?..end)?;
                if let Some(t) = clock.canonical(body) {
                    s.at = end.checked_add(1)?;
                    return Some(t);
                }
            }
            s.string().and_then(|t| clock.parse(t))
        })
    }

    /// `Values`: numbers read as amounts.
    fn amounts(&mut self, expected: usize) -> Option<Vec<Decimal>> {
        self.elements(expected, |s| {
            let from = s.at;
            if let Some(d) = s.plain_amount() {
                return Some(d);
            }
            s.at = from;
            s.number()?;
            value(s.text.get(from..s.at)?).ok()
        })
    }

    /// A number written `digits` or `digits.digits` (at most 18 digits, no needless leading
    /// zero): what CloudWatch writes, read as it is checked, into the `Decimal` `value` reads
    /// (property-tested); `None` for any other number (read by `value` instead).
    fn plain_amount(&mut self) -> Option<Decimal> {
        let (mut mantissa, mut digits, mut scale) = (0i64, 0u32, None::<u32>);
        let first = self.peek()?;
        loop {
            match self.peek() {
                Some(c @ b'0'..=b'9') => {
                    mantissa = mantissa
                        .checked_mul(10)?
                        .checked_add(i64::from(c.wrapping_sub(b'0')))?;
                    digits = digits.checked_add(1)?;
                    scale = scale.map(|k| k.saturating_add(1));
                }
                Some(b'.') if scale.is_none() => scale = Some(0),
                Some(b'e' | b'E' | b'-' | b'+' | b'.') => return None,
                _ => break,
            }
            self.step();
        }
        // JSON's grammar: no leading zero before a digit, a digit after the point.
        let whole = digits.checked_sub(scale.unwrap_or(0))?;
        if digits > 18 || whole == 0 || (first == b'0' && whole > 1) || scale == Some(0) {
            return None;
        }
        Decimal::try_from_i128_with_scale(i128::from(mantissa), scale.unwrap_or(0)).ok()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn a_page_as_the_cli_writes_it_is_read_by_hand() {
        let page = r#"{
    "MetricDataResults": [
        {
            "Id": "m0",
            "Label": "ddbcost:t::ConsumedReadCapacityUnits:Sum:60",
            "Timestamps": ["2026-11-01T00:01:00+00:00", "2026-11-01T00:00:00+00:00"],
            "Values": [12.5, 0.0],
            "StatusCode": "Complete"
        }
    ],
    "NextToken": "abc",
    "Messages": []
}
"#;
        let parts = read(page.as_bytes()).expect("read by hand");
        let [
            Part::Results(results),
            Part::NextToken(true),
            Part::Messages(m),
        ] = parts.as_slice()
        else {
            panic!("parts: {parts:?}");
        };
        assert!(m.is_empty());
        assert_eq!(results.len(), 1);
        assert_eq!(
            results[0].timestamps,
            Some(r#"["2026-11-01T00:01:00+00:00", "2026-11-01T00:00:00+00:00"]"#)
        );
        assert_eq!(results[0].values, Some("[12.5, 0.0]"));
        assert_eq!(results[0].status, Some("Complete"));
    }

    #[test]
    fn what_serde_must_read_is_declined() {
        for page in [
            // An escape, a control character, a key twice, statistics output, not JSON.
            r#"{"MetricDataResults": [{"Id": "m\u0030"}]}"#,
            "{\"MetricDataResults\": [{\"Id\": \"m\t0\"}]}",
            r#"{"MetricDataResults": [{"Id": "a", "Id": "b"}]}"#,
            r#"{"MetricDataResults": [], "MetricDataResults": []}"#,
            r#"{"Label": "x", "Datapoints": []}"#,
            r#"{"MetricDataResults": [{"Id": 1}]}"#,
            r#"{"MetricDataResults": [{"Messages": null}]}"#,
            r#"{"MetricDataResults": [{"Values": [01]}]}"#,
            r#"{"MetricDataResults": [{"Values": [1.]}]}"#,
            r#"{"MetricDataResults": [{"Values": [1,]}]}"#,
            r#"{"MetricDataResults": []} x"#,
            r#"{"MetricDataResults": [}"#,
            "",
        ] {
            assert_eq!(read(page.as_bytes()), None, "{page}");
        }
        let deep = format!("{{\"x\": {}{}}}", "[".repeat(200), "]".repeat(200));
        assert_eq!(read(deep.as_bytes()), None);
    }

    proptest! {
        /// An amount read as it is checked is the `Decimal` `value` reads from its text, and
        /// the text it reads is the whole number the grammar reads.
        #[test]
        fn plain_amounts_read_as_value_reads_them(
            text in "-?[0-9]{1,20}(\\.[0-9]{0,6})?([eE][-+]?[0-9]{1,2})?|[0.]{1,4}",
        ) {
            let line = format!("{text},");
            let mut fast = Scan { text: &line, at: 0 };
            if let Some(d) = fast.plain_amount() {
                let mut checked = Scan { text: &line, at: 0 };
                prop_assert!(checked.number().is_some(), "read a number JSON refuses: {}", text);
                prop_assert_eq!(checked.at, text.len());
                prop_assert_eq!(fast.at, text.len());
                let plain = value(&text).ok();
                prop_assert_eq!(Some(d), plain);
                prop_assert_eq!(d.scale(), plain.map_or(0, |p| p.scale()));
            }
        }
    }
}
