//! A request line read by hand in one pass over its bytes, on the shared JSON cursor
//! (`crate::json_scan`): the whole line checked as JSON as serde checks it, the fields
//! `line::Request` holds found as spans of it (`Key`, `Item`, a batch's items: their text,
//! never built) and `ConsumedCapacity`'s levels read as they are checked. It declines —
//! `None`, and serde reads the line as before — whatever it is not sure to read as serde
//! does: an escape or a control character in any string, a known field of an unexpected
//! type or given twice, deep nesting, text that is not one JSON object. So every error is
//! still serde's; the tests below hold the two readings to one answer.

use std::borrow::Cow;

use super::line::{Consumed, Entries, Indexes, Level, Object, Request};
use crate::json_scan::Scan;

/// `line` read by hand, or `None` where serde must read it.
pub(super) fn read(line: &str) -> Option<Request<'_>> {
    let mut s = Scan { text: line, at: 0 };
    let mut r = Request::default();
    members(&mut s, |s, key| {
        Some(Some(match key {
            "operation" => {
                r.operation = s.optional_string()?.map(Cow::Borrowed);
                0
            }
            "pattern" => {
                r.pattern = s.optional_string()?.map(Cow::Borrowed);
                1
            }
            "Key" => {
                r.key = s.optional_value()?;
                2
            }
            "Item" => {
                r.item = s.optional_value()?;
                3
            }
            "ExpressionAttributeValues" => {
                r.values = s.optional_value()?;
                4
            }
            "RequestItems" => {
                r.batch = s.optional_value()?;
                5
            }
            "TransactItems" => {
                r.transact_items = s.optional_value()?;
                6
            }
            "ConsumedCapacity" => {
                r.consumed = entries(s)?;
                7
            }
            _ => return s.value(0).map(|()| None),
        }))
    })?;
    s.blank();
    (s.at == line.len()).then_some(r)
}

/// An object's members, after blanks: each key given to `member`, which reads its value and
/// names the known field it was (`None`: another, skipped). A known field given twice is
/// declined, as serde refuses it.
fn members<'a>(
    s: &mut Scan<'a>,
    mut member: impl FnMut(&mut Scan<'a>, &'a str) -> Option<Option<u32>>,
) -> Option<()> {
    let mut seen = 0u32;
    s.open(b'{')?;
    if s.close(b'}')? {
        return Some(());
    }
    loop {
        let key = s.key()?;
        if let Some(slot) = member(s, key)? {
            let bit = 1u32.checked_shl(slot)?;
            if seen & bit != 0 {
                return None;
            }
            seen |= bit;
        }
        if !s.more(b'}')? {
            return Some(());
        }
    }
}

/// `ConsumedCapacity`: `null`, one entry, or a list of them.
#[expect(
    clippy::option_option,
    reason = "the outer `None` declines the line (serde reads it), the inner one is JSON's `null`"
)]
fn entries<'a>(s: &mut Scan<'a>) -> Option<Option<Entries<'a>>> {
    if s.null()? {
        return Some(None);
    }
    if s.peek()? == b'{' {
        return Some(Some(Entries(vec![consumed(s)?])));
    }
    s.open(b'[')?;
    let mut out = Vec::new();
    if !s.close(b']')? {
        loop {
            out.push(consumed(s)?);
            if !s.more(b']')? {
                break;
            }
        }
    }
    Some(Some(Entries(out)))
}

/// One entry of `ConsumedCapacity`: an object.
fn consumed<'a>(s: &mut Scan<'a>) -> Option<Consumed<'a>> {
    let mut c = Consumed::default();
    members(s, |s, key| {
        Some(Some(match key {
            "TableName" => {
                c.table = s.optional_string()?.map(Cow::Borrowed);
                0
            }
            "CapacityUnits" => {
                c.capacity = s.optional_value()?;
                1
            }
            "ReadCapacityUnits" => {
                c.read = s.optional_value()?;
                2
            }
            "WriteCapacityUnits" => {
                c.write = s.optional_value()?;
                3
            }
            "Table" => {
                c.own = if s.null()? {
                    None
                } else {
                    Some(Object(level(s)?))
                };
                4
            }
            "GlobalSecondaryIndexes" => {
                c.global = indexes(s)?;
                5
            }
            "LocalSecondaryIndexes" => {
                c.local = indexes(s)?;
                6
            }
            _ => return s.value(0).map(|()| None),
        }))
    })?;
    Some(c)
}

/// A level of units: an object.
fn level<'a>(s: &mut Scan<'a>) -> Option<Level<'a>> {
    let mut l = Level::default();
    members(s, |s, key| {
        Some(Some(match key {
            "CapacityUnits" => {
                l.capacity = s.optional_value()?;
                0
            }
            "ReadCapacityUnits" => {
                l.read = s.optional_value()?;
                1
            }
            "WriteCapacityUnits" => {
                l.write = s.optional_value()?;
                2
            }
            _ => return s.value(0).map(|()| None),
        }))
    })?;
    Some(l)
}

/// Indexes by name: `null`, or an object of levels (a name may come twice, as serde keeps it).
#[expect(
    clippy::option_option,
    reason = "the outer `None` declines the line (serde reads it), the inner one is JSON's `null`"
)]
fn indexes<'a>(s: &mut Scan<'a>) -> Option<Option<Indexes<'a>>> {
    if s.null()? {
        return Some(None);
    }
    let mut out = Vec::new();
    members(s, |s, name| {
        out.push((Cow::Borrowed(name), level(s)?));
        Some(None)
    })?;
    Some(Some(Indexes(out)))
}

#[cfg(test)]
#[allow(
    clippy::arithmetic_side_effects,
    reason = "test generators: small counters over short tapes"
)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Choices read from a random tape (zeros once it runs out).
    struct Tape<'t>(&'t [u8], usize);

    impl Tape<'_> {
        fn pick<'s>(&mut self, from: &[&'s str]) -> &'s str {
            let v = self.0.get(self.1).copied().unwrap_or(0);
            self.1 += 1;
            from[usize::from(v) % from.len()]
        }

        fn chance(&mut self) -> bool {
            self.pick(&["", "y"]).is_empty()
        }

        /// Blanks, as a writer of JSON might put them.
        fn ws(&mut self) -> &'static str {
            self.pick(&["", "", " ", "\n  ", "\t", "\r\n"])
        }

        /// An object of the `fields` the tape keeps, in its order, with blanks.
        fn object(&mut self, fields: Vec<(&str, String)>) -> String {
            let mut kept: Vec<(&str, String)> =
                fields.into_iter().filter(|_| self.chance()).collect();
            if !kept.is_empty() && self.chance() {
                kept.rotate_left(1);
            }
            let body: Vec<String> = kept
                .into_iter()
                .map(|(k, v)| format!("{}\"{k}\"{}:{}{v}", self.ws(), self.ws(), self.ws()))
                .collect();
            format!("{{{}{}}}", body.join(","), self.ws())
        }

        fn units(&mut self) -> String {
            self.pick(&[
                "0",
                "1",
                "0.5",
                "128.5",
                "1e-3",
                "2E+2",
                "-1",
                "\"2.5\"",
                "null",
                "true",
                "12345678901234567890.5",
                "[1]",
            ])
            .to_string()
        }

        fn key(&mut self) -> String {
            self.pick(&[
                r#"{"PK":{"S":"ORG#o1"},"SK":{"S":"T#1"}}"#,
                r#"{"PK":"ORG#o2"}"#,
                r#"{ "PK" : { "N" : "42" } }"#,
                "null",
                r#"{"Other":[1,2,{"x":true}],"PK":{"S":"ORG#o3#x"}}"#,
                "[]",
            ])
            .to_string()
        }

        fn level(&mut self) -> String {
            let fields = vec![
                ("CapacityUnits", self.units()),
                ("ReadCapacityUnits", self.units()),
                ("WriteCapacityUnits", self.units()),
                ("Extra", "[{\"a\":null}]".to_string()),
            ];
            self.object(fields)
        }

        fn indexes(&mut self) -> String {
            if self.chance() {
                return "null".to_string();
            }
            let (a, b) = (self.level(), self.level());
            let second = self.pick(&["g1", "g2"]);
            format!("{{\"g1\":{a},{}\"{second}\":{b}}}", self.ws())
        }

        fn consumed(&mut self) -> String {
            let fields = vec![
                (
                    "TableName",
                    self.pick(&["\"app-0\"", "\"t\"", "null"]).to_string(),
                ),
                ("CapacityUnits", self.units()),
                ("ReadCapacityUnits", self.units()),
                ("WriteCapacityUnits", self.units()),
                (
                    "Table",
                    if self.chance() {
                        self.level()
                    } else {
                        "null".into()
                    },
                ),
                ("GlobalSecondaryIndexes", self.indexes()),
                ("LocalSecondaryIndexes", self.indexes()),
                ("Unknown", "{\"deep\":[[[\"x\"]]]}".to_string()),
            ];
            self.object(fields)
        }

        fn line(&mut self) -> String {
            let consumed = match self.pick(&["one", "list", "null", "empty"]) {
                "one" => self.consumed(),
                "list" => format!("[{},{}{}]", self.consumed(), self.ws(), self.consumed()),
                "null" => "null".to_string(),
                _ => "[]".to_string(),
            };
            let fields = vec![
                ("timestamp", "\"2026-11-02T09:00:00Z\"".to_string()),
                (
                    "operation",
                    self.pick(&["\"GetItem\"", "\"BatchWriteItem\"", "null"])
                        .to_string(),
                ),
                (
                    "pattern",
                    self.pick(&["\"get-order\"", "\"\"", "null"]).to_string(),
                ),
                ("Key", self.key()),
                ("Item", self.key()),
                (
                    "ExpressionAttributeValues",
                    r#"{":p":{"S":"ORG#o4"},":n":{"N":"1"}}"#.to_string(),
                ),
                (
                    "RequestItems",
                    format!(
                        r#"{{"app-0":[{{"PutRequest":{{"Item":{}}}}}]}}"#,
                        self.key()
                    ),
                ),
                (
                    "TransactItems",
                    format!(r#"[{{"Put":{{"TableName":"t","Item":{}}}}}]"#, self.key()),
                ),
                ("ConsumedCapacity", consumed),
                ("n", "-0.0e+0".to_string()),
            ];
            format!("{}{}{}", self.ws(), self.object(fields), self.ws())
        }
    }

    /// A damage to a line's text: each one makes it something the hand reader must decline
    /// or read as serde does (`None`: no damage).
    fn damage(line: &str, which: u8, at: usize) -> Option<String> {
        let inner = line.find('{').map_or(0, |i| i + 1);
        let insert = |what: &str| format!("{}{what}{}", &line[..inner], &line[inner..]);
        Some(match which % 16 {
            0 => return None,
            1 => line[..at % (line.len() + 1)].to_string(),
            2 => insert(r#""operation":1,"#),
            3 => insert(r#""pattern":{},"#),
            4 => insert(r#""ConsumedCapacity":"x","#),
            5 => insert(r#""ConsumedCapacity":[null],"#),
            6 => insert(r#""ConsumedCapacity":{"Table":[1]},"#),
            7 => insert(r#""ConsumedCapacity":{"GlobalSecondaryIndexes":{"g":null}},"#),
            8 => insert(r#""ConsumedCapacity":{"TableName":"a","TableName":"b"},"#),
            9 => insert(&format!(r#""x":{}{},"#, "[".repeat(130), "]".repeat(130))),
            10 => insert(r#""x":01,"#),
            11 => line.replacen("ORG#", "\\u004fRG#", 1),
            12 => line.replacen("ORG#", "ORG\t#", 1),
            13 => format!("{line} x"),
            14 => format!("[{line}]"),
            _ => insert(r#""Key":null,"Key":null,"#),
        })
    }

    proptest! {
        /// A line read by hand reads as serde reads it; an undamaged line is always read by
        /// hand (so the test never compares serde with itself), a damaged one by hand only
        /// where serde reads it to the same request.
        #[test]
        fn a_line_read_by_hand_reads_as_serde_reads_it(
            tape in prop::collection::vec(any::<u8>(), 0..160),
            which in any::<u8>(),
            at in any::<usize>(),
        ) {
            let line = Tape(&tape, 0).line();
            let damaged = damage(&line, which, at);
            let text = damaged.as_deref().unwrap_or(&line);
            let serde = serde_json::from_str::<Request<'_>>(text).ok();
            match read(text) {
                Some(hand) => prop_assert_eq!(Some(hand), serde, "{}", text),
                None => prop_assert!(damaged.is_some(), "declined an undamaged line: {}", text),
            }
        }
    }

    #[test]
    fn a_logged_request_is_read_by_hand() {
        let line = r#"{"operation":"BatchWriteItem","pattern":"import","RequestItems":{"app-0":[{"PutRequest":{"Item":{"PK":{"S":"ORG#o592"}}}}]},"ConsumedCapacity":[{"TableName":"app-0","CapacityUnits":2.0,"Table":{"CapacityUnits":1.0},"GlobalSecondaryIndexes":{"by-status":{"CapacityUnits":1.0}}}]}"#;
        let r = read(line).expect("read by hand");
        assert_eq!(r.operation.as_deref(), Some("BatchWriteItem"));
        assert_eq!(
            r.batch,
            Some(r#"{"app-0":[{"PutRequest":{"Item":{"PK":{"S":"ORG#o592"}}}}]}"#)
        );
        let entries = r.consumed.as_ref().expect("consumed");
        let [c] = entries.0.as_slice() else {
            panic!("one entry: {entries:?}")
        };
        assert_eq!(c.capacity, Some("2.0"));
        assert_eq!(c.own.map(|o| o.0.capacity), Some(Some("1.0")));
        let g = c.global.as_ref().expect("indexes");
        assert_eq!(g.0.len(), 1);
        assert_eq!(g.0[0].0, "by-status");
        assert_eq!(Some(r), serde_json::from_str::<Request<'_>>(line).ok());
    }
}
