//! Application logs of DynamoDB requests with their `ConsumedCapacity` (DESIGN §9): JSON
//! Lines, one request a line, each with its `operation`, the request's key (`Key`, `Item`, or
//! the values of `ExpressionAttributeValues`), an optional `pattern` label, and
//! `ConsumedCapacity` exactly as the API returns it with `ReturnConsumedCapacity: INDEXES` —
//! one object, or a list (batch and transaction calls: one per table) — with `Table`,
//! `GlobalSecondaryIndexes` and `LocalSecondaryIndexes` broken out. Read as a stream (plain
//! or gzip, within the run's decompressed budgets), into exact units per table, index,
//! tenant and pattern: the drivers `allocate` splits a bill by.
//!
//! The tenant is found by `Tenancy`: the first key value (of `Key`, then `Item`, then the
//! expression values) that the pattern matches, its first capture group (or the whole
//! match). A request with no such value is untenanted: its units are kept, under no tenant.

use std::collections::BTreeMap;
use std::io::BufRead;

use regex::Regex;
use rust_decimal::Decimal;
use serde_json::Value;

use crate::error::Error;

/// How a tenant is read from a request's key: `ATTR=REGEX` (`PK=ORG#([^#]+)`).
#[derive(Debug, Clone)]
pub struct Tenancy {
    pub attribute: String,
    pub pattern: Regex,
}

impl Tenancy {
    /// `ATTR=REGEX`.
    ///
    /// # Errors
    /// No `=`, an empty attribute, or a pattern that does not compile.
    pub fn parse(spec: &str) -> Result<Tenancy, Error> {
        let (attribute, pattern) = spec.split_once('=').filter(|(a, _)| !a.is_empty()).ok_or_else(|| {
            Error::usage(format!("--tenant `{spec}`: expected ATTR=REGEX"))
                .help("Consider `--tenant 'PK=ORG#([^#]+)'`: the key attribute, and a pattern whose first group is the tenant.")
        })?;
        let pattern = Regex::new(pattern).map_err(|e| {
            Error::usage(format!(
                "--tenant `{spec}`: the pattern does not compile ({e})"
            ))
            .help("Consider a regular expression such as `ORG#([^#]+)`.")
        })?;
        Ok(Tenancy {
            attribute: attribute.to_string(),
            pattern,
        })
    }

    /// The tenant a value names, if the pattern matches it.
    pub(crate) fn of(&self, value: &str) -> Option<String> {
        let caps = self.pattern.captures(value)?;
        caps.get(1)
            .or_else(|| caps.get(0))
            .map(|m| m.as_str().to_string())
    }
}

/// Where units were consumed: a table, one of its indexes (`None`: the table itself), a
/// tenant (`None`: untenanted) and a pattern label (`None`: unlabelled).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    pub table: String,
    pub index: Option<String>,
    pub tenant: Option<String>,
    pub pattern: Option<String>,
}

/// A place by borrowed names: hashed as `Place` is, so that it finds one without building it.
#[derive(Hash)]
struct PlaceRef<'a> {
    table: &'a str,
    index: Option<&'a str>,
    tenant: Option<&'a str>,
    pattern: Option<&'a str>,
}

impl PlaceRef<'_> {
    fn owned(&self) -> Place {
        Place {
            table: self.table.to_string(),
            index: self.index.map(str::to_string),
            tenant: self.tenant.map(str::to_string),
            pattern: self.pattern.map(str::to_string),
        }
    }
}

impl hashbrown::Equivalent<Place> for PlaceRef<'_> {
    fn equivalent(&self, k: &Place) -> bool {
        self.table == k.table
            && self.index == k.index.as_deref()
            && self.tenant == k.tenant.as_deref()
            && self.pattern == k.pattern.as_deref()
    }
}

/// Units consumed at a place, and the requests that consumed them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Units {
    pub read: Decimal,
    pub write: Decimal,
    pub requests: u64,
}

/// Everything a log held, summed by place.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogUsage {
    pub by_place: BTreeMap<Place, Units>,
    pub lines: u64,
    /// Places being summed while a log is read (found by borrowed key: no allocation for a
    /// place seen before), moved into `by_place` when it ends.
    pending: hashbrown::HashMap<Place, Units>,
    /// Requests per table and pattern label: each `ConsumedCapacity` entry once.
    pub requests: BTreeMap<(String, Option<String>), u64>,
}

fn bad(file: &str, line: u64, why: &str) -> Error {
    Error::input(format!("line {line}: {why}"))
        .file(file)
        .help("Consider JSON Lines with `operation`, the request's `Key` (or `Item`), and `ConsumedCapacity` as DynamoDB returns it with `ReturnConsumedCapacity: INDEXES`.")
}

/// Whether an operation reads (its units are read units when only `CapacityUnits` is given).
fn reads(operation: &str) -> bool {
    matches!(
        operation,
        "GetItem" | "BatchGetItem" | "Query" | "Scan" | "TransactGetItems" | "ExecuteStatement"
    )
}

/// A count of units as an exact decimal (its digits as written, never through a float);
/// present but not a number of units at least 0 is refused, never read as none.
fn units(v: Option<&Value>, field: &str) -> Result<Option<Decimal>, String> {
    let Some(v) = v else { return Ok(None) };
    let parsed = match v {
        Value::Number(n) => n.to_string().parse::<Decimal>().ok(),
        Value::String(s) => s.parse::<Decimal>().ok(),
        _ => None,
    };
    match parsed {
        Some(d) if !d.is_sign_negative() || d.is_zero() => Ok(Some(d)),
        _ => Err(format!(
            "`{field}` is {v}, not a number of capacity units (0 or more)"
        )),
    }
}

/// (read, write) units of one level of `ConsumedCapacity` (`Table`, an index, or the whole).
fn level(v: &Value, reading: bool) -> Result<(Decimal, Decimal), String> {
    let r = units(v.get("ReadCapacityUnits"), "ReadCapacityUnits")?;
    let w = units(v.get("WriteCapacityUnits"), "WriteCapacityUnits")?;
    Ok(match (r, w) {
        (None, None) => {
            let c = units(v.get("CapacityUnits"), "CapacityUnits")?.unwrap_or_default();
            if reading {
                (c, Decimal::ZERO)
            } else {
                (Decimal::ZERO, c)
            }
        }
        (r, w) => (r.unwrap_or_default(), w.unwrap_or_default()),
    })
}

/// A key value as text: a plain string or number, or DynamoDB JSON (`{"S": "ORG#42"}`).
fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Object(m) => m
            .get("S")
            .or_else(|| m.get("N"))
            .and_then(Value::as_str)
            .map(str::to_string),
        _ => None,
    }
}

/// The tenant of a request: the tenancy's attribute in `Key` or `Item`, else any expression
/// value the pattern matches.
fn tenant_of(request: &Value, tenancy: &Tenancy) -> Option<String> {
    for holder in ["Key", "Item"] {
        if let Some(t) = request
            .get(holder)
            .and_then(|k| k.get(&tenancy.attribute))
            .and_then(text)
            .and_then(|v| tenancy.of(&v))
        {
            return Some(t);
        }
    }
    request
        .get("ExpressionAttributeValues")
        .and_then(Value::as_object)
        .and_then(|m| m.values().filter_map(text).find_map(|v| tenancy.of(&v)))
}

/// The tenants of a batch or transaction's items on `table`, with how many items each has
/// (`RequestItems.TABLE[]` with `PutRequest.Item` / `DeleteRequest.Key` / `Keys[]`;
/// `TransactItems[]` with `Put`, `Update`, `Delete`, `ConditionCheck` or `Get`). Empty when
/// the request lists no items.
fn item_tenants(request: &Value, table: &str, tenancy: &Tenancy) -> Vec<(Option<String>, u64)> {
    let mut found: BTreeMap<Option<String>, u64> = BTreeMap::new();
    let mut count = |key: Option<&Value>| {
        let t = key
            .and_then(|k| k.get(&tenancy.attribute))
            .and_then(text)
            .and_then(|v| tenancy.of(&v));
        let n = found.entry(t).or_default();
        *n = n.saturating_add(1);
    };
    if let Some(list) = request.get("RequestItems").and_then(|r| r.get(table)) {
        // BatchWriteItem: a list of requests; BatchGetItem: `{ Keys: [...] }`.
        let entries = list
            .as_array()
            .cloned()
            .or_else(|| list.get("Keys").and_then(Value::as_array).cloned())
            .unwrap_or_default();
        for e in &entries {
            let key = e
                .get("PutRequest")
                .and_then(|p| p.get("Item"))
                .or_else(|| e.get("DeleteRequest").and_then(|d| d.get("Key")))
                .or(Some(e));
            count(key);
        }
    }
    if let Some(list) = request.get("TransactItems").and_then(Value::as_array) {
        for e in list {
            let inner = ["Put", "Update", "Delete", "ConditionCheck", "Get"]
                .iter()
                .find_map(|k| e.get(*k));
            let Some(inner) = inner else { continue };
            if inner.get("TableName").and_then(Value::as_str) != Some(table) {
                continue;
            }
            count(inner.get("Item").or_else(|| inner.get("Key")));
        }
    }
    found.into_iter().collect()
}

/// (read, write) units.
type Pair = (Decimal, Decimal);

/// `units` split over `tenants` by their counts of items: each its share, the last what the
/// others leave, so the shares add up to the units exactly.
fn shares(
    (read, write): Pair,
    tenants: &[(Option<String>, u64)],
) -> Option<Vec<(Option<&String>, Pair)>> {
    let total = tenants
        .iter()
        .try_fold(0u64, |a, (_, n)| a.checked_add(*n))?;
    let total = Decimal::from(total);
    let mut out = Vec::with_capacity(tenants.len());
    let (mut r_left, mut w_left) = (read, write);
    for (i, (t, n)) in tenants.iter().enumerate() {
        let (r, w) = if i.checked_add(1) == Some(tenants.len()) {
            (r_left, w_left)
        } else {
            // The product first: 3 units over 2 items of 3 are 2, not 2.000…1.
            let n = Decimal::from(*n);
            (
                read.checked_mul(n)?.checked_div(total)?,
                write.checked_mul(n)?.checked_div(total)?,
            )
        };
        r_left = r_left.checked_sub(r)?;
        w_left = w_left.checked_sub(w)?;
        out.push((t.as_ref(), (r, w)));
    }
    Some(out)
}

/// Adds `units` to `place`.
fn add(
    usage: &mut LogUsage,
    place: &PlaceRef<'_>,
    (read, write): (Decimal, Decimal),
    (file, n): (&str, u64),
) -> Result<(), Error> {
    if usage.pending.get(place).is_none() {
        usage.pending.insert(place.owned(), Units::default());
    }
    let Some(u) = usage.pending.get_mut(place) else {
        return Err(Error::input("a place lost while summing"));
    };
    let overflow = || Error::input(format!("{file}: line {n}: units past what a decimal holds"));
    u.read = u.read.checked_add(read).ok_or_else(overflow)?;
    u.write = u.write.checked_add(write).ok_or_else(overflow)?;
    u.requests = u.requests.saturating_add(1);
    Ok(())
}

/// Moves the places summed while reading into `by_place`.
fn finish(usage: &mut LogUsage, file: &str) -> Result<(), Error> {
    for (place, u) in usage.pending.drain() {
        let e = usage.by_place.entry(place).or_default();
        let overflow = || Error::input(format!("{file}: units past what a decimal holds"));
        e.read = e.read.checked_add(u.read).ok_or_else(overflow)?;
        e.write = e.write.checked_add(u.write).ok_or_else(overflow)?;
        e.requests = e.requests.saturating_add(u.requests);
    }
    Ok(())
}

/// The fields of a log line `one` reads, skimmed: the rest of the line (the request's
/// attributes, its timestamp, whatever else the application logged) is checked as JSON and
/// skipped, never built; of `Key` and `Item` only the tenancy's attribute is kept.
#[derive(serde::Deserialize)]
struct Skim<'a> {
    #[serde(borrow, default)]
    operation: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    pattern: Option<std::borrow::Cow<'a, str>>,
    #[serde(rename = "Key", borrow, default)]
    key: Option<BTreeMap<std::borrow::Cow<'a, str>, &'a serde_json::value::RawValue>>,
    #[serde(rename = "Item", borrow, default)]
    item: Option<BTreeMap<std::borrow::Cow<'a, str>, &'a serde_json::value::RawValue>>,
    #[serde(rename = "ExpressionAttributeValues", default)]
    values: Option<Value>,
    #[serde(rename = "RequestItems", default)]
    request_items: Option<Value>,
    #[serde(rename = "TransactItems", default)]
    transact_items: Option<Value>,
    #[serde(rename = "ConsumedCapacity", default)]
    consumed: Option<Value>,
}

/// A line as the small JSON object `one` reads.
fn skim(line: &str, tenancy: &Tenancy) -> Result<Value, serde_json::Error> {
    let s: Skim<'_> = serde_json::from_str(line)?;
    let mut m = serde_json::Map::new();
    if let Some(op) = s.operation {
        m.insert("operation".into(), Value::String(op.into_owned()));
    }
    if let Some(p) = s.pattern {
        m.insert("pattern".into(), Value::String(p.into_owned()));
    }
    for (name, holder) in [("Key", s.key), ("Item", s.item)] {
        let Some(holder) = holder else { continue };
        let mut kept = serde_json::Map::new();
        if let Some(raw) = holder.get(tenancy.attribute.as_str()) {
            kept.insert(tenancy.attribute.clone(), serde_json::from_str(raw.get())?);
        }
        m.insert(name.into(), Value::Object(kept));
    }
    for (name, v) in [
        ("ExpressionAttributeValues", s.values),
        ("RequestItems", s.request_items),
        ("TransactItems", s.transact_items),
        ("ConsumedCapacity", s.consumed),
    ] {
        if let Some(v) = v {
            m.insert(name.into(), v);
        }
    }
    Ok(Value::Object(m))
}

/// Reads a log from `r` (named `file`) into `usage`, a line at a time.
///
/// # Errors
/// A line that is not JSON, or has no `ConsumedCapacity`; a passed budget.
pub fn read(
    r: impl BufRead,
    file: &str,
    tenancy: &Tenancy,
    usage: &mut LogUsage,
) -> Result<(), Error> {
    let (r, mark) = crate::bounded::Bounded::new(r, file);
    // The budget counts bytes fetched since the last line's end: a fill must stay within
    // it (half of it, so a line across two fills is still measured), 64 KiB at most.
    let fill = crate::bounded::limits()
        .record
        .checked_div(2)
        .unwrap_or(0)
        .clamp(256, 64 << 10);
    let mut r = std::io::BufReader::with_capacity(usize::try_from(fill).unwrap_or(8 << 10), r);
    let mut line = String::new();
    let mut n: u64 = 0;
    loop {
        line.clear();
        mark.record_ends();
        let read = r.read_line(&mut line).map_err(|e| {
            crate::bounded::refusal(&e)
                .unwrap_or_else(|| Error::input(format!("cannot read `{file}`: {e}")).file(file))
        })?;
        if read == 0 {
            return finish(usage, file);
        }
        n = n.saturating_add(1);
        if line.trim().is_empty() {
            continue;
        }
        let request = skim(&line, tenancy).map_err(|e| {
            let what = if e.is_data() {
                "not a request as logged"
            } else {
                "not JSON"
            };
            bad(file, n, &format!("{what} ({e})"))
        })?;
        one(&request, file, n, tenancy, usage)?;
        usage.lines = usage.lines.saturating_add(1);
    }
}

/// One request's units, by table and index.
fn one(
    request: &Value,
    file: &str,
    n: u64,
    tenancy: &Tenancy,
    usage: &mut LogUsage,
) -> Result<(), Error> {
    let operation = request
        .get("operation")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let reading = reads(operation);
    let tenant = tenant_of(request, tenancy);
    let pattern = request
        .get("pattern")
        .and_then(Value::as_str)
        .map(str::to_string);
    let consumed = request
        .get("ConsumedCapacity")
        .ok_or_else(|| bad(file, n, "no `ConsumedCapacity`"))?;
    let each: Vec<&Value> = match consumed {
        Value::Array(list) => list.iter().collect(),
        other => vec![other],
    };
    for c in each {
        let table = c
            .get("TableName")
            .and_then(Value::as_str)
            .ok_or_else(|| bad(file, n, "a `ConsumedCapacity` without `TableName`"))?;
        let r = usage
            .requests
            .entry((table.to_string(), pattern.clone()))
            .or_default();
        *r = r.saturating_add(1);
        // A batch or a transaction names its items' tenants: the units go to them by their
        // count of items; a single request's, to its key's tenant.
        let mut tenants = item_tenants(request, table, tenancy);
        if tenants.is_empty() {
            tenants.push((tenant.clone(), 1));
        }
        // The table's own units: its `Table` level where broken out, else the whole.
        let own = c
            .get("Table")
            .map_or_else(|| level(c, reading), |t| level(t, reading))
            .map_err(|why| bad(file, n, &why))?;
        let mut levels = vec![(None, own)];
        for key in ["GlobalSecondaryIndexes", "LocalSecondaryIndexes"] {
            if let Some(indexes) = c.get(key).and_then(Value::as_object) {
                for (name, v) in indexes {
                    let units = level(v, reading).map_err(|why| bad(file, n, &why))?;
                    levels.push((Some(name.as_str()), units));
                }
            }
        }
        for (index, units) in levels {
            for (t, share) in shares(units, &tenants)
                .ok_or_else(|| bad(file, n, "units past what a decimal holds"))?
            {
                let at = PlaceRef {
                    table,
                    index,
                    tenant: t.map(String::as_str),
                    pattern: pattern.as_deref(),
                };
                add(usage, &at, share, (file, n))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_by_table_index_tenant_and_pattern() {
        let tenancy = Tenancy::parse("PK=ORG#([^#]+)").unwrap();
        let log = concat!(
            r#"{"operation":"GetItem","Key":{"PK":{"S":"ORG#7#USER#1"}},"pattern":"get-user","ConsumedCapacity":{"TableName":"saas","CapacityUnits":0.5,"Table":{"CapacityUnits":0.5}}}"#,
            "\n",
            r#"{"operation":"PutItem","Item":{"PK":"ORG#7#DASH#2"},"ConsumedCapacity":{"TableName":"saas","CapacityUnits":3,"Table":{"CapacityUnits":1},"GlobalSecondaryIndexes":{"by-owner":{"CapacityUnits":2}}}}"#,
            "\n",
            r#"{"operation":"Scan","ConsumedCapacity":{"TableName":"saas","CapacityUnits":128}}"#,
            "\n",
            r#"{"operation":"Query","ExpressionAttributeValues":{":pk":{"S":"ORG#9"}},"ConsumedCapacity":{"TableName":"saas","ReadCapacityUnits":1.5,"Table":{"ReadCapacityUnits":1.5}}}"#,
            "\n",
        );
        let mut u = LogUsage::default();
        read(log.as_bytes(), "app.log", &tenancy, &mut u).unwrap();
        let at = |index: Option<&str>, tenant: Option<&str>, pattern: Option<&str>| {
            u.by_place[&Place {
                table: "saas".into(),
                index: index.map(Into::into),
                tenant: tenant.map(Into::into),
                pattern: pattern.map(Into::into),
            }]
        };
        // Tenant 7: a 0.5-unit eventual get (read), a put of 1 WCU on the table and 2 on the GSI.
        assert_eq!(
            at(None, Some("7"), Some("get-user")).read,
            Decimal::new(5, 1)
        );
        assert_eq!(at(None, Some("7"), None).write, Decimal::ONE);
        assert_eq!(
            at(Some("by-owner"), Some("7"), None).write,
            Decimal::from(2)
        );
        // The scan names no tenant: 128 read units kept untenanted.
        assert_eq!(at(None, None, None).read, Decimal::from(128));
        // Tenant 9, found among the query's expression values.
        assert_eq!(at(None, Some("9"), None).read, Decimal::new(15, 1));
        assert_eq!(u.lines, 4);
    }

    #[test]
    fn a_batch_splits_its_units_over_its_items_tenants() {
        let tenancy = Tenancy::parse("PK=ORG#([^#]+)").unwrap();
        // A batch of 3 puts, two of org a and one of org b, 3 write units on `t`: 2 to a, 1
        // to b; a transaction of one item of c on `t` and one on `u`, 2 units on each.
        let log = concat!(
            r#"{"operation":"BatchWriteItem","RequestItems":{"t":[{"PutRequest":{"Item":{"PK":{"S":"ORG#a"}}}},{"PutRequest":{"Item":{"PK":{"S":"ORG#a"}}}},{"DeleteRequest":{"Key":{"PK":{"S":"ORG#b"}}}}]},"ConsumedCapacity":[{"TableName":"t","CapacityUnits":3}]}"#,
            "\n",
            r#"{"operation":"TransactWriteItems","TransactItems":[{"Put":{"TableName":"t","Item":{"PK":{"S":"ORG#c"}}}},{"Update":{"TableName":"u","Key":{"PK":{"S":"ORG#d"}}}}],"ConsumedCapacity":[{"TableName":"t","CapacityUnits":2},{"TableName":"u","CapacityUnits":2}]}"#,
            "\n",
        );
        let mut u = LogUsage::default();
        read(log.as_bytes(), "app.log", &tenancy, &mut u).unwrap();
        let write = |table: &str, tenant: &str| {
            u.by_place[&Place {
                table: table.into(),
                index: None,
                tenant: Some(tenant.into()),
                pattern: None,
            }]
                .write
        };
        assert_eq!(write("t", "a"), Decimal::from(2));
        assert_eq!(write("t", "b"), Decimal::ONE);
        assert_eq!(write("t", "c"), Decimal::from(2));
        assert_eq!(write("u", "d"), Decimal::from(2));
    }

    #[test]
    fn bad_lines_are_named() {
        let tenancy = Tenancy::parse("PK=(.*)").unwrap();
        let e = read(
            "{\"operation\":\"GetItem\"}\n".as_bytes(),
            "app.log",
            &tenancy,
            &mut LogUsage::default(),
        )
        .unwrap_err();
        assert!(e.message.contains("line 1: no `ConsumedCapacity`"), "{e}");
        // Below zero, past a decimal (1e30 reads as a float), not a number: refused, at the
        // line (1e400 is past JSON's own numbers: "not JSON").
        for bad_units in ["-3", "1e30", "\"many\""] {
            let line = format!(
                "{{\"operation\":\"GetItem\",\"ConsumedCapacity\":{{\"TableName\":\"t\",\"CapacityUnits\":{bad_units}}}}}\n"
            );
            let e = read(
                line.as_bytes(),
                "app.log",
                &tenancy,
                &mut LogUsage::default(),
            )
            .unwrap_err();
            assert!(
                e.message.contains("not a number of capacity units"),
                "{bad_units}: {e}"
            );
        }
        assert!(Tenancy::parse("PK").is_err());
        assert!(Tenancy::parse("PK=(").is_err());
    }
}
