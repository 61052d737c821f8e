//! One line of a request log, skimmed: the fields `log` sums, borrowed from the line and typed
//! as they are read — `operation`, `pattern`, the tenant (from `Key`, `Item` or the
//! expression values: only the tenancy's attribute is looked at), and `ConsumedCapacity`'s
//! levels with their units as the digits written (exact decimals, never through a float).
//! The rest of the line is checked as JSON and skipped, never built; a batch's or
//! transaction's items are kept as raw text and read only for the table that needs them.
//! A line is read by hand in one pass (`super::hand`); serde reads it here, into the same
//! types, where the hand reader declines it.

use std::borrow::Cow;
use std::fmt;
use std::rc::Rc;

use rust_decimal::Decimal;
use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::log::Tenancy;
use super::skim;

/// The units of one level of `ConsumedCapacity` (the whole, `Table`, or an index), as
/// written.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
pub(crate) struct Level<'a> {
    #[serde(rename = "CapacityUnits", borrow, default, deserialize_with = "raw")]
    pub(super) capacity: Option<&'a str>,
    #[serde(
        rename = "ReadCapacityUnits",
        borrow,
        default,
        deserialize_with = "raw"
    )]
    pub(super) read: Option<&'a str>,
    #[serde(
        rename = "WriteCapacityUnits",
        borrow,
        default,
        deserialize_with = "raw"
    )]
    pub(super) write: Option<&'a str>,
}

/// A value's text as written (`null`: none), as serde checks it.
fn raw<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de str>, D::Error> {
    Option::<&'de RawValue>::deserialize(d).map(|v| v.map(RawValue::get))
}

/// A `T` read from a JSON object only: serde reads a struct from a list too, by position
/// (`"Table": [1]` would be a level of one capacity unit), which no log means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Object<T>(pub(super) T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = T;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: MapAccess<'de>>(self, m: M) -> Result<T, M::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(m))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData)).map(Object)
    }
}

/// Indexes by name, in the order written.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Indexes<'a>(pub(crate) Vec<(Cow<'a, str>, Level<'a>)>);

impl<'de: 'a, 'a> Deserialize<'de> for Indexes<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Indexes<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("indexes by name")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<Self::Value, M::Error> {
                let mut out = Vec::new();
                while let Some((name, level)) =
                    m.next_entry::<Cow<'de, str>, Object<Level<'de>>>()?
                {
                    out.push((name, level.0));
                }
                Ok(Indexes(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// One entry of `ConsumedCapacity` (one per table of the request).
#[derive(Debug, Default, PartialEq, Eq, Deserialize)]
pub(crate) struct Consumed<'a> {
    #[serde(rename = "TableName", borrow, default)]
    pub(crate) table: Option<Cow<'a, str>>,
    #[serde(rename = "CapacityUnits", borrow, default, deserialize_with = "raw")]
    pub(super) capacity: Option<&'a str>,
    #[serde(
        rename = "ReadCapacityUnits",
        borrow,
        default,
        deserialize_with = "raw"
    )]
    pub(super) read: Option<&'a str>,
    #[serde(
        rename = "WriteCapacityUnits",
        borrow,
        default,
        deserialize_with = "raw"
    )]
    pub(super) write: Option<&'a str>,
    #[serde(rename = "Table", borrow, default)]
    pub(super) own: Option<Object<Level<'a>>>,
    #[serde(rename = "GlobalSecondaryIndexes", borrow, default)]
    pub(crate) global: Option<Indexes<'a>>,
    #[serde(rename = "LocalSecondaryIndexes", borrow, default)]
    pub(crate) local: Option<Indexes<'a>>,
}

impl<'a> Consumed<'a> {
    /// The table's own level: `Table` where broken out, else the whole.
    pub(crate) fn own(&self) -> Level<'a> {
        self.own.map_or(
            Level {
                capacity: self.capacity,
                read: self.read,
                write: self.write,
            },
            |o| o.0,
        )
    }
}

/// `ConsumedCapacity`: one entry, or a list.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Entries<'a>(pub(crate) Vec<Consumed<'a>>);

impl<'de: 'a, 'a> Deserialize<'de> for Entries<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Entries<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a `ConsumedCapacity` object or a list of them")
            }
            fn visit_map<M: MapAccess<'de>>(self, m: M) -> Result<Self::Value, M::Error> {
                let one = Consumed::deserialize(serde::de::value::MapAccessDeserializer::new(m))?;
                Ok(Entries(vec![one]))
            }
            fn visit_seq<S: serde::de::SeqAccess<'de>>(
                self,
                mut s: S,
            ) -> Result<Self::Value, S::Error> {
                let mut out = Vec::new();
                while let Some(c) = s.next_element::<Object<Consumed<'de>>>()? {
                    out.push(c.0);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// A line, skimmed.
#[derive(Debug, Default, PartialEq, Eq, Deserialize)]
pub(crate) struct Request<'a> {
    #[serde(borrow, default)]
    pub(crate) operation: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(crate) pattern: Option<Cow<'a, str>>,
    #[serde(rename = "Key", borrow, default, deserialize_with = "raw")]
    pub(super) key: Option<&'a str>,
    #[serde(rename = "Item", borrow, default, deserialize_with = "raw")]
    pub(super) item: Option<&'a str>,
    #[serde(
        rename = "ExpressionAttributeValues",
        borrow,
        default,
        deserialize_with = "raw"
    )]
    pub(super) values: Option<&'a str>,
    #[serde(rename = "RequestItems", borrow, default, deserialize_with = "raw")]
    pub(super) batch: Option<&'a str>,
    #[serde(rename = "TransactItems", borrow, default, deserialize_with = "raw")]
    pub(super) transact_items: Option<&'a str>,
    #[serde(rename = "ConsumedCapacity", borrow, default)]
    pub(crate) consumed: Option<Entries<'a>>,
}

/// Reads `line`: by hand in one pass (`super::hand`), or by serde where the hand reader
/// declines it (and for every error, so each is serde's).
///
/// # Errors
/// Not JSON, or fields not of their type.
pub(crate) fn parse(line: &str) -> Result<Request<'_>, serde_json::Error> {
    super::hand::read(line).map_or_else(|| serde_json::from_str(line), Ok)
}

/// How `line` reads, as text: through `parse` (`by_hand`), or by serde alone.
pub(crate) fn reading_of(line: &str, by_hand: bool) -> String {
    let read = if by_hand {
        parse(line)
    } else {
        serde_json::from_str::<Request<'_>>(line)
    };
    format!("{read:?}")
}

/// A key value as text: a plain string or number, or DynamoDB JSON (`{"S": "ORG#42"}`).
fn text(raw: &str) -> Option<Cow<'_, str>> {
    match raw.as_bytes().first()? {
        b'"' => skim::string(raw),
        b'{' => skim::field(raw, "S")
            .or_else(|| skim::field(raw, "N"))
            .and_then(text),
        b'-' | b'0'..=b'9' => Some(Cow::Borrowed(raw)),
        _ => None,
    }
}

/// Tenants by the key values that name them, remembered while a log is read: the pattern
/// runs once for each distinct value (up to `TENANTS_HELD` of them; then it starts again).
#[derive(Default)]
pub(crate) struct Tenants {
    by_value: hashbrown::HashMap<Box<str>, Option<Rc<str>>>,
}

/// Distinct key values `Tenants` remembers at once.
const TENANTS_HELD: usize = 1 << 16;

impl Tenants {
    /// The tenant `value` names under `tenancy`.
    fn of(&mut self, value: &str, tenancy: &Tenancy) -> Option<Rc<str>> {
        if let Some(t) = self.by_value.get(value) {
            return t.clone();
        }
        if self.by_value.len() >= TENANTS_HELD {
            self.by_value.clear();
        }
        let t: Option<Rc<str>> = tenancy.of(value).map(Rc::from);
        self.by_value.insert(Box::from(value), t.clone());
        t
    }

    /// The tenant a key or item (`raw`) names through the tenancy's attribute.
    fn of_key(&mut self, raw: Option<&str>, tenancy: &Tenancy) -> Option<Rc<str>> {
        let v = skim::field(raw?, &tenancy.attribute)?;
        self.of(&text(v)?, tenancy)
    }
}

impl Request<'_> {
    /// The tenant of the request: the tenancy's attribute in `Key` or `Item`, else the least
    /// tenant the expression values name.
    pub(crate) fn tenant(&self, tenancy: &Tenancy, tenants: &mut Tenants) -> Option<Rc<str>> {
        tenants
            .of_key(self.key, tenancy)
            .or_else(|| tenants.of_key(self.item, tenancy))
            .or_else(|| {
                skim::values(self.values?)
                    .filter_map(|v| tenants.of(&text(v)?, tenancy))
                    .min()
            })
    }

    /// The tenants of a batch's or transaction's items on `table`, with how many items each
    /// has (`RequestItems.TABLE[]` with `PutRequest.Item` / `DeleteRequest.Key` / `Keys[]`;
    /// `TransactItems[]` with `Put`, `Update`, `Delete`, `ConditionCheck` or `Get`), in the
    /// tenants' order (none first). Empty when the request lists no items.
    pub(crate) fn item_tenants(
        &self,
        table: &str,
        tenancy: &Tenancy,
        tenants: &mut Tenants,
    ) -> Vec<(Option<Rc<str>>, u64)> {
        let mut found: std::collections::BTreeMap<Option<Rc<str>>, u64> =
            std::collections::BTreeMap::new();
        let mut count = |key: Option<&str>| {
            let n = found.entry(tenants.of_key(key, tenancy)).or_default();
            *n = n.saturating_add(1);
        };
        if let Some(list) = self.batch.and_then(|r| skim::field(r, table)) {
            // BatchWriteItem: a list of requests; BatchGetItem: `{ Keys: [...] }`.
            let entries = if list.starts_with('[') {
                Some(list)
            } else {
                skim::field(list, "Keys")
            };
            for e in entries.into_iter().flat_map(skim::elements) {
                let key = skim::field(e, "PutRequest")
                    .and_then(|p| skim::field(p, "Item"))
                    .or_else(|| skim::field(e, "DeleteRequest").and_then(|d| skim::field(d, "Key")))
                    .or(Some(e));
                count(key);
            }
        }
        if let Some(list) = self.transact_items {
            for e in skim::elements(list) {
                let inner = ["Put", "Update", "Delete", "ConditionCheck", "Get"]
                    .iter()
                    .find_map(|k| skim::field(e, k));
                let Some(inner) = inner else { continue };
                if skim::field(inner, "TableName").and_then(text).as_deref() != Some(table) {
                    continue;
                }
                count(skim::field(inner, "Item").or_else(|| skim::field(inner, "Key")));
            }
        }
        found.into_iter().collect()
    }
}

/// A count of units as an exact decimal from its digits (a number, or a string of one;
/// `1e-3` too); present but not a number of units at least 0 is refused, never read as none.
fn units(raw: Option<&str>, name: &str) -> Result<Option<Decimal>, String> {
    let Some(t) = raw else { return Ok(None) };
    let digits: Option<Cow<'_, str>> = match t.as_bytes().first() {
        Some(b'"') => serde_json::from_str::<Cow<'_, str>>(t).ok(),
        Some(b'-' | b'0'..=b'9') => Some(Cow::Borrowed(t)),
        _ => None,
    };
    let parsed = digits.and_then(|d| {
        let d = d.trim();
        if d.contains(['e', 'E']) {
            Decimal::from_scientific(d).ok()
        } else {
            d.parse::<Decimal>().ok()
        }
    });
    match parsed {
        Some(d) if !d.is_sign_negative() || d.is_zero() => Ok(Some(d)),
        _ => Err(format!(
            "`{name}` is {t}, not a number of capacity units (0 or more)"
        )),
    }
}

impl Level<'_> {
    /// (read, write) units: `ReadCapacityUnits` and `WriteCapacityUnits` where given, else
    /// `CapacityUnits` as read units for a reading operation and write units otherwise.
    pub(crate) fn units(&self, reading: bool) -> Result<(Decimal, Decimal), String> {
        let r = units(self.read, "ReadCapacityUnits")?;
        let w = units(self.write, "WriteCapacityUnits")?;
        Ok(match (r, w) {
            (None, None) => {
                let c = units(self.capacity, "CapacityUnits")?.unwrap_or_default();
                if reading {
                    (c, Decimal::ZERO)
                } else {
                    (Decimal::ZERO, c)
                }
            }
            (r, w) => (r.unwrap_or_default(), w.unwrap_or_default()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Why `ConsumedCapacity` written as `text` is refused (`None`: it is read).
    fn refused(text: &str) -> Option<String> {
        parse(&format!(r#"{{"ConsumedCapacity":{text}}}"#))
            .err()
            .map(|e| e.to_string())
    }

    #[test]
    fn levels_and_entries_are_objects_never_lists() {
        assert_eq!(
            refused(r#"{"TableName":"t","Table":{"CapacityUnits":1}}"#),
            None
        );
        assert_eq!(refused(r#"[{"TableName":"t"}]"#), None);
        // Each would be read by position as a struct: refused instead.
        for text in [
            r#"{"TableName":"t","Table":[1]}"#,
            r#"{"TableName":"t","GlobalSecondaryIndexes":{"g":[1]}}"#,
            r#"[["t",1]]"#,
        ] {
            let why = refused(text).unwrap_or_default();
            assert!(
                why.starts_with("invalid type: sequence, expected an object"),
                "{text}: {why}"
            );
        }
    }
}
