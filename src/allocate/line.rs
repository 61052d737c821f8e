//! One line of a request log, skimmed: the fields `log` sums, borrowed from the line and typed
//! as they are read — `operation`, `pattern`, the tenant (from `Key`, `Item` or the
//! expression values: only the tenancy's attribute is looked at), and `ConsumedCapacity`'s
//! levels with their units as the digits written (exact decimals, never through a float).
//! The rest of the line is checked as JSON and skipped, never built; a batch's or
//! transaction's items are kept as raw text and read only for the table that needs them.

use std::borrow::Cow;
use std::fmt;

use rust_decimal::Decimal;
use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::log::Tenancy;

/// The units of one level of `ConsumedCapacity` (the whole, `Table`, or an index), as
/// written.
#[derive(Debug, Default, Clone, Copy, Deserialize)]
pub(crate) struct Level<'a> {
    #[serde(rename = "CapacityUnits", borrow, default)]
    capacity: Option<&'a RawValue>,
    #[serde(rename = "ReadCapacityUnits", borrow, default)]
    read: Option<&'a RawValue>,
    #[serde(rename = "WriteCapacityUnits", borrow, default)]
    write: Option<&'a RawValue>,
}

/// Indexes by name, in the order written.
#[derive(Debug, Default)]
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
                while let Some((name, level)) = m.next_entry::<Cow<'de, str>, Level<'de>>()? {
                    out.push((name, level));
                }
                Ok(Indexes(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// One entry of `ConsumedCapacity` (one per table of the request).
#[derive(Debug, Deserialize)]
pub(crate) struct Consumed<'a> {
    #[serde(rename = "TableName", borrow, default)]
    pub(crate) table: Option<Cow<'a, str>>,
    #[serde(rename = "CapacityUnits", borrow, default)]
    capacity: Option<&'a RawValue>,
    #[serde(rename = "ReadCapacityUnits", borrow, default)]
    read: Option<&'a RawValue>,
    #[serde(rename = "WriteCapacityUnits", borrow, default)]
    write: Option<&'a RawValue>,
    #[serde(rename = "Table", borrow, default)]
    own: Option<Level<'a>>,
    #[serde(rename = "GlobalSecondaryIndexes", borrow, default)]
    pub(crate) global: Option<Indexes<'a>>,
    #[serde(rename = "LocalSecondaryIndexes", borrow, default)]
    pub(crate) local: Option<Indexes<'a>>,
}

impl<'a> Consumed<'a> {
    /// The table's own level: `Table` where broken out, else the whole.
    pub(crate) fn own(&self) -> Level<'a> {
        self.own.unwrap_or(Level {
            capacity: self.capacity,
            read: self.read,
            write: self.write,
        })
    }
}

/// `ConsumedCapacity`: one entry, or a list.
#[derive(Debug)]
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
                while let Some(c) = s.next_element::<Consumed<'de>>()? {
                    out.push(c);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// A line, skimmed.
#[derive(Debug, Deserialize)]
pub(crate) struct Request<'a> {
    #[serde(borrow, default)]
    pub(crate) operation: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(crate) pattern: Option<Cow<'a, str>>,
    #[serde(rename = "Key", borrow, default)]
    key: Option<&'a RawValue>,
    #[serde(rename = "Item", borrow, default)]
    item: Option<&'a RawValue>,
    #[serde(rename = "ExpressionAttributeValues", borrow, default)]
    values: Option<&'a RawValue>,
    #[serde(rename = "RequestItems", borrow, default)]
    batch: Option<&'a RawValue>,
    #[serde(rename = "TransactItems", borrow, default)]
    transact_items: Option<&'a RawValue>,
    #[serde(rename = "ConsumedCapacity", borrow, default)]
    pub(crate) consumed: Option<Entries<'a>>,
}

/// Reads `line`.
///
/// # Errors
/// Not JSON, or fields not of their type.
pub(crate) fn parse(line: &str) -> Result<Request<'_>, serde_json::Error> {
    serde_json::from_str(line)
}

/// The value of field `name` of the JSON object `raw`, the others skipped; `None` when
/// absent, null, or `raw` is not an object.
fn field<'a>(raw: &'a RawValue, name: &str) -> Option<&'a RawValue> {
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
    if !raw.get().starts_with('{') {
        return None;
    }
    let mut d = serde_json::Deserializer::from_str(raw.get());
    Seed(name)
        .deserialize(&mut d)
        .ok()
        .flatten()
        .filter(|v| v.get() != "null")
}

/// Every value of the JSON object `raw`, in order (none when it is not an object).
fn values(raw: &RawValue) -> Vec<&RawValue> {
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
    if !raw.get().starts_with('{') {
        return Vec::new();
    }
    let mut d = serde_json::Deserializer::from_str(raw.get());
    d.deserialize_map(All).unwrap_or_default()
}

/// The elements of the JSON list `raw` (none when it is not a list).
fn elements(raw: &RawValue) -> Vec<&RawValue> {
    serde_json::from_str(raw.get()).unwrap_or_default()
}

/// A key value as text: a plain string or number, or DynamoDB JSON (`{"S": "ORG#42"}`).
fn text(raw: &RawValue) -> Option<Cow<'_, str>> {
    let t = raw.get();
    match t.as_bytes().first()? {
        b'"' => serde_json::from_str::<Cow<'_, str>>(t).ok(),
        b'{' => field(raw, "S").or_else(|| field(raw, "N")).and_then(text),
        b'-' | b'0'..=b'9' => Some(Cow::Borrowed(t)),
        _ => None,
    }
}

/// The tenant a key or item (`raw`) names through its tenancy attribute.
fn tenant_of_key(raw: Option<&RawValue>, tenancy: &Tenancy) -> Option<String> {
    let v = field(raw?, &tenancy.attribute)?;
    tenancy.of(&text(v)?)
}

impl Request<'_> {
    /// The tenant of the request: the tenancy's attribute in `Key` or `Item`, else the least
    /// tenant the expression values name.
    pub(crate) fn tenant(&self, tenancy: &Tenancy) -> Option<String> {
        tenant_of_key(self.key, tenancy)
            .or_else(|| tenant_of_key(self.item, tenancy))
            .or_else(|| {
                values(self.values?)
                    .into_iter()
                    .filter_map(|v| tenancy.of(&text(v)?))
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
    ) -> Vec<(Option<String>, u64)> {
        let mut found: std::collections::BTreeMap<Option<String>, u64> =
            std::collections::BTreeMap::new();
        let mut count = |key: Option<&RawValue>| {
            let n = found.entry(tenant_of_key(key, tenancy)).or_default();
            *n = n.saturating_add(1);
        };
        if let Some(list) = self.batch.and_then(|r| field(r, table)) {
            // BatchWriteItem: a list of requests; BatchGetItem: `{ Keys: [...] }`.
            let entries = if list.get().starts_with('[') {
                elements(list)
            } else {
                field(list, "Keys").map(elements).unwrap_or_default()
            };
            for e in entries {
                let key = field(e, "PutRequest")
                    .and_then(|p| field(p, "Item"))
                    .or_else(|| field(e, "DeleteRequest").and_then(|d| field(d, "Key")))
                    .or(Some(e));
                count(key);
            }
        }
        if let Some(list) = self.transact_items {
            for e in elements(list) {
                let inner = ["Put", "Update", "Delete", "ConditionCheck", "Get"]
                    .iter()
                    .find_map(|k| field(e, k));
                let Some(inner) = inner else { continue };
                if field(inner, "TableName").and_then(text).as_deref() != Some(table) {
                    continue;
                }
                count(field(inner, "Item").or_else(|| field(inner, "Key")));
            }
        }
        found.into_iter().collect()
    }
}

/// A count of units as an exact decimal from its digits (a number, or a string of one;
/// `1e-3` too); present but not a number of units at least 0 is refused, never read as none.
fn units(raw: Option<&RawValue>, name: &str) -> Result<Option<Decimal>, String> {
    let Some(raw) = raw else { return Ok(None) };
    let t = raw.get();
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
