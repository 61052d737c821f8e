//! Application logs of DynamoDB requests with their `ConsumedCapacity` (DESIGN §9): JSON
//! Lines, one request a line, each with its `operation`, the request's key (`Key`, `Item`, or
//! the values of `ExpressionAttributeValues`), an optional `pattern` label, and
//! `ConsumedCapacity` exactly as the API returns it with `ReturnConsumedCapacity: INDEXES` —
//! one object, or a list (batch and transaction calls: one per table) — with `Table`,
//! `GlobalSecondaryIndexes` and `LocalSecondaryIndexes` broken out. Read as a stream (plain
//! or gzip, within the run's decompressed budgets), into exact units per table, index,
//! tenant and pattern: the drivers `allocate` splits a bill by. The CSV result of the
//! `--athena-sql` query (`sql`), recognised by its header, is read into the same sums.
//!
//! The tenant is found by `Tenancy`: the tenancy attribute's value in `Key`, then `Item`,
//! else the least of the expression values' tenants, that the pattern matches: its first
//! capture group (or the whole match; an empty one names none). A request with no such
//! value is untenanted: its units are kept, under no tenant.

use std::collections::BTreeMap;
use std::io::{BufRead, Read};

use regex::Regex;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

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

    /// The tenant a value names, if the pattern matches it (an empty match names none).
    pub(crate) fn of(&self, value: &str) -> Option<String> {
        let caps = self.pattern.captures(value)?;
        caps.get(1)
            .or_else(|| caps.get(0))
            .map(|m| m.as_str())
            .filter(|t| !t.is_empty())
            .map(str::to_string)
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

/// A place and the share of a request's units it takes: `items` of the request's `of` items
/// on the table (1 of 1 for a request of one item; a batch's or transaction's items by
/// tenant). Units are summed per share and divided once, at the end: Σu × items ÷ of, the
/// same figure the SQL of `--athena-sql` leads to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Pending {
    pub(crate) place: Place,
    pub(crate) items: u64,
    pub(crate) of: u64,
}

/// A (table, pattern label) by borrowed names: hashed as the pair of owned ones is.
#[derive(Hash)]
struct LabelRef<'a>(&'a str, Option<&'a str>);

impl hashbrown::Equivalent<(String, Option<String>)> for LabelRef<'_> {
    fn equivalent(&self, k: &(String, Option<String>)) -> bool {
        self.0 == k.0 && self.1 == k.1.as_deref()
    }
}

/// A pending place by borrowed names: hashed as `Pending` is, so that it finds one without
/// building it.
#[derive(Hash)]
struct PlaceRef<'a> {
    table: &'a str,
    index: Option<&'a str>,
    tenant: Option<&'a str>,
    pattern: Option<&'a str>,
    items: u64,
    of: u64,
}

impl PlaceRef<'_> {
    fn owned(&self) -> Pending {
        Pending {
            place: Place {
                table: self.table.to_string(),
                index: self.index.map(str::to_string),
                tenant: self.tenant.map(str::to_string),
                pattern: self.pattern.map(str::to_string),
            },
            items: self.items,
            of: self.of,
        }
    }
}

impl hashbrown::Equivalent<Pending> for PlaceRef<'_> {
    fn equivalent(&self, k: &Pending) -> bool {
        self.table == k.place.table
            && self.index == k.place.index.as_deref()
            && self.tenant == k.place.tenant.as_deref()
            && self.pattern == k.place.pattern.as_deref()
            && self.items == k.items
            && self.of == k.of
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
    /// Request lines read (a query's result holds sums, not lines: none).
    pub lines: u64,
    /// Places (and shares of requests) being summed while a log is read (found by borrowed
    /// key: no allocation for a place seen before), moved into `by_place` when it ends.
    pending: hashbrown::HashMap<Pending, Units>,
    /// Requests per table and pattern label while a log is read (found by borrowed key),
    /// moved into `requests` when it ends.
    pending_requests: hashbrown::HashMap<(String, Option<String>), u64>,
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

/// Adds `units` to `place`.
fn add(
    usage: &mut LogUsage,
    place: &PlaceRef<'_>,
    (read, write): (Decimal, Decimal),
    (file, n): (&str, u64),
) -> Result<(), Error> {
    // One lookup for a place seen before; the place built only the first time.
    let Some(u) = usage.pending.get_mut(place) else {
        usage.pending.insert(
            place.owned(),
            Units {
                read,
                write,
                requests: 1,
            },
        );
        return Ok(());
    };
    let overflow = || Error::input(format!("{file}: line {n}: units past what a decimal holds"));
    u.read = u.read.checked_add(read).ok_or_else(overflow)?;
    u.write = u.write.checked_add(write).ok_or_else(overflow)?;
    u.requests = u.requests.saturating_add(1);
    Ok(())
}

/// Moves the places summed while reading into `by_place`: each share of requests' units
/// divided once (Σu × items ÷ of, the product first).
fn finish(usage: &mut LogUsage, file: &str) -> Result<(), Error> {
    let overflow = || Error::input(format!("{file}: units past what a decimal holds"));
    let share = |units: Decimal, items: u64, of: u64| -> Option<Decimal> {
        if items == of {
            return Some(units);
        }
        units
            .checked_mul(Decimal::from(items))?
            .checked_div(Decimal::from(of))
    };
    for (key, k) in usage.pending_requests.drain() {
        let r = usage.requests.entry(key).or_default();
        *r = r.saturating_add(k);
    }
    for (p, u) in usage.pending.drain() {
        let read = share(u.read, p.items, p.of).ok_or_else(overflow)?;
        let write = share(u.write, p.items, p.of).ok_or_else(overflow)?;
        let e = usage.by_place.entry(p.place).or_default();
        e.read = e.read.checked_add(read).ok_or_else(overflow)?;
        e.write = e.write.checked_add(write).ok_or_else(overflow)?;
        e.requests = e.requests.saturating_add(u.requests);
    }
    Ok(())
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
    let head = r
        .fill_buf()
        .map_err(|e| Error::input(format!("cannot read `{file}`: {e}")).file(file))?;
    if head.starts_with(b"table_name,") || head.starts_with(b"\"table_name\",") {
        return read_result(r, file, usage);
    }
    let mut line = Vec::new();
    let mut n: u64 = 0;
    let mut tenants = super::line::Tenants::default();
    let failed = |e: &std::io::Error| {
        crate::bounded::refusal(e)
            .unwrap_or_else(|| Error::input(format!("cannot read `{file}`: {e}")).file(file))
    };
    loop {
        mark.record_ends();
        // A line whole in the buffer is read where it lies; one across fills is gathered.
        let buffered = r.fill_buf().map_err(|e| failed(&e))?;
        if buffered.is_empty() {
            return finish(usage, file);
        }
        n = n.saturating_add(1);
        if let Some(end) = memchr::memchr(b'\n', buffered) {
            let whole = buffered.get(..=end).unwrap_or_default();
            request_line(whole, (file, n), (tenancy, &mut tenants), usage)?;
            r.consume(end.saturating_add(1));
        } else {
            line.clear();
            r.read_until(b'\n', &mut line).map_err(|e| failed(&e))?;
            request_line(&line, (file, n), (tenancy, &mut tenants), usage)?;
        }
    }
}

/// Reads one line of a log (`n` of `file`) into `usage`: blank lines are skipped.
fn request_line(
    line: &[u8],
    (file, n): (&str, u64),
    (tenancy, tenants): (&Tenancy, &mut super::line::Tenants),
    usage: &mut LogUsage,
) -> Result<(), Error> {
    // The whole line checked as UTF-8 at once (the vector check of `simdutf8`).
    let text = simdutf8::basic::from_utf8(line).map_err(|_| bad(file, n, "not UTF-8 text"))?;
    if text.trim().is_empty() {
        return Ok(());
    }
    let request = super::line::parse(text).map_err(|e| {
        let what = if e.is_data() {
            "not a request as logged"
        } else {
            "not JSON"
        };
        bad(file, n, &format!("{what} ({e})"))
    })?;
    one(&request, (file, n), (tenancy, tenants), usage)?;
    usage.lines = usage.lines.saturating_add(1);
    Ok(())
}

/// Reads the result of `--athena-sql`'s query (CSV, its header first) into `usage`: each
/// row a place and a share of requests' units, summed as the lines themselves are.
///
/// # Errors
/// A row that is not the query's; a count of lines the query found refusable.
fn read_result(r: impl Read, file: &str, usage: &mut LogUsage) -> Result<(), Error> {
    let bad_row = |row: u64, why: &str| {
        Error::input(format!("row {row}: {why}"))
            .file(file)
            .help("Consider the CSV the query of `ddbcost allocate --athena-sql` returns, as it returns it.")
    };
    let mut csv = csv::ReaderBuilder::new().from_reader(r);
    let header = csv
        .headers()
        .map_err(|e| bad_row(1, &format!("not CSV ({e})")))?
        .clone();
    if header.iter().ne(super::sql::HEADER) {
        return Err(bad_row(
            1,
            &format!(
                "the header is not the query's ({})",
                super::sql::HEADER.join(",")
            ),
        ));
    }
    // Requests per table and label: each share's requests × items ÷ of at the table's own
    // level, summed (a whole number once every share of a request is in).
    let mut entries: BTreeMap<(String, Option<String>), Decimal> = BTreeMap::new();
    let mut record = csv::StringRecord::new();
    let mut n: u64 = 1;
    while csv
        .read_record(&mut record)
        .map_err(|e| bad_row(n.saturating_add(1), &format!("not CSV ({e})")))?
    {
        n = n.saturating_add(1);
        let field = |i: usize| record.get(i).filter(|v| !v.is_empty());
        let count = |i: usize, what: &str| {
            field(i)
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(|| bad_row(n, &format!("`{what}` is not a count")))
        };
        let units = |i: usize, what: &str| {
            field(i)
                .and_then(|v| v.parse::<Decimal>().ok())
                .filter(|d| !d.is_sign_negative() || d.is_zero())
                .map(|d| d.normalize())
                .ok_or_else(|| bad_row(n, &format!("`{what}` is not a number of units at least 0")))
        };
        let requests = count(8, "requests")?;
        let Some(table) = field(0) else {
            return Err(bad_row(
                n,
                &format!(
                    "the query found {requests} request line(s) the local reader refuses (no `ConsumedCapacity` or `TableName`, or units below zero or not numbers)"
                ),
            ));
        };
        let (items, of) = (count(4, "items")?, count(5, "of_items")?);
        if items == 0 || items > of {
            return Err(bad_row(n, "`items` is not between 1 and `of_items`"));
        }
        let at = PlaceRef {
            table,
            index: field(1),
            tenant: field(2),
            pattern: field(3),
            items,
            of,
        };
        let read = units(6, "read_units")?;
        let write = units(7, "write_units")?;
        add(usage, &at, (read, write), (file, n))?;
        if let Some(u) = usage.pending.get_mut(&at) {
            // `add` counted one request; the row holds `requests`.
            u.requests = u.requests.saturating_add(requests.saturating_sub(1));
        }
        if at.index.is_none() {
            let e = entries
                .entry((table.to_string(), at.pattern.map(str::to_string)))
                .or_default();
            *e = Decimal::from(requests)
                .checked_mul(Decimal::from(items))
                .and_then(|p| p.checked_div(Decimal::from(of)))
                .and_then(|s| e.checked_add(s))
                .ok_or_else(|| bad_row(n, "requests past what a count holds"))?;
        }
    }
    for (key, e) in entries {
        let whole = e.round().to_u64().unwrap_or(u64::MAX);
        let r = usage.requests.entry(key).or_default();
        *r = r.saturating_add(whole);
    }
    finish(usage, file)
}

/// One request's units, by table and index.
fn one(
    request: &super::line::Request<'_>,
    (file, n): (&str, u64),
    (tenancy, known): (&Tenancy, &mut super::line::Tenants),
    usage: &mut LogUsage,
) -> Result<(), Error> {
    let reading = reads(request.operation.as_deref().unwrap_or_default());
    let tenant = request.tenant(tenancy, known);
    let pattern = request.pattern.as_deref().filter(|p| !p.is_empty());
    let entries = request
        .consumed
        .as_ref()
        .ok_or_else(|| bad(file, n, "no `ConsumedCapacity`"))?;
    for c in &entries.0 {
        let table = c
            .table
            .as_deref()
            .ok_or_else(|| bad(file, n, "a `ConsumedCapacity` without `TableName`"))?;
        match usage.pending_requests.get_mut(&LabelRef(table, pattern)) {
            Some(r) => *r = r.saturating_add(1),
            None => {
                let key = (table.to_string(), pattern.map(str::to_string));
                usage.pending_requests.insert(key, 1);
            }
        }
        // A batch or a transaction names its items' tenants: the units go to them by their
        // count of items; a single request's, to its key's tenant.
        let listed = request.item_tenants(table, tenancy, known);
        let single = [(tenant.clone(), 1)];
        let tenants = if listed.is_empty() {
            &single[..]
        } else {
            &listed[..]
        };
        let of = tenants
            .iter()
            .try_fold(0u64, |a, (_, k)| a.checked_add(*k))
            .ok_or_else(|| bad(file, n, "more items than a count holds"))?;
        // The table's own level, then each index's (nothing gathered: no allocation a line).
        let indexes = [&c.global, &c.local]
            .into_iter()
            .flatten()
            .flat_map(|indexes| indexes.0.iter().map(|(name, l)| (Some(&**name), *l)));
        for (index, level) in std::iter::once((None, c.own())).chain(indexes) {
            let units = level.units(reading).map_err(|why| bad(file, n, &why))?;
            for (t, items) in tenants {
                let at = PlaceRef {
                    table,
                    index,
                    tenant: t.as_deref(),
                    pattern,
                    items: *items,
                    of,
                };
                add(usage, &at, units, (file, n))?;
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
        // Exponents are read from their digits: 5e-1 is half a unit, exactly.
        let mut u = LogUsage::default();
        read(
            "{\"operation\":\"GetItem\",\"ConsumedCapacity\":{\"TableName\":\"t\",\"CapacityUnits\":5e-1}}\n".as_bytes(),
            "app.log",
            &tenancy,
            &mut u,
        )
        .unwrap();
        assert_eq!(
            u.by_place.values().map(|p| p.read).sum::<Decimal>(),
            Decimal::new(5, 1)
        );
        // A line that is not UTF-8 is named, even where its bytes sit in a field not read.
        let mut text = b"\n{\"timestamp\":\"".to_vec();
        text.extend_from_slice(b"\xff\"}\n");
        let e = read(&text[..], "app.log", &tenancy, &mut LogUsage::default()).unwrap_err();
        assert!(e.message.contains("line 2: not UTF-8 text"), "{e}");
        assert!(Tenancy::parse("PK").is_err());
        assert!(Tenancy::parse("PK=(").is_err());
    }

    #[test]
    fn the_query_s_result_is_read_as_the_lines_are() {
        let tenancy = Tenancy::parse("PK=ORG#([^#]+)").unwrap();
        // A batch of three items (two of a, one of b) of 1 write unit, and two gets of a.
        let lines = concat!(
            r#"{"operation":"BatchWriteItem","RequestItems":{"t":[{"PutRequest":{"Item":{"PK":"ORG#a"}}},{"PutRequest":{"Item":{"PK":"ORG#a"}}},{"PutRequest":{"Item":{"PK":"ORG#b"}}}]},"ConsumedCapacity":[{"TableName":"t","CapacityUnits":1}]}"#,
            "\n",
            r#"{"operation":"GetItem","Key":{"PK":"ORG#a"},"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}}"#,
            "\n",
            r#"{"operation":"GetItem","Key":{"PK":"ORG#a"},"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}}"#,
            "\n",
        );
        // What the query returns for them (Athena quotes every field).
        let result = concat!(
            "\"table_name\",\"index_name\",\"tenant\",\"pattern\",\"items\",\"of_items\",\"read_units\",\"write_units\",\"requests\"\n",
            "\"t\",,\"a\",,\"1\",\"1\",\"1.000000000000\",\"0E-12\",\"2\"\n",
            "\"t\",,\"a\",,\"2\",\"3\",\"0\",\"1.000000000000\",\"1\"\n",
            "\"t\",,\"b\",,\"1\",\"3\",\"0\",\"1\",\"1\"\n",
        );
        let (mut from_lines, mut from_result) = (LogUsage::default(), LogUsage::default());
        read(lines.as_bytes(), "app.log", &tenancy, &mut from_lines).unwrap();
        read(result.as_bytes(), "result.csv", &tenancy, &mut from_result).unwrap();
        assert_eq!(from_lines.by_place, from_result.by_place);
        // Three requests on t: the batch once (2/3 + 1/3), the gets twice.
        assert_eq!(from_result.requests[&("t".to_string(), None)], 3);
        assert_eq!(from_lines.requests, from_result.requests);
        // a: 1 read unit, 1 × 2 ÷ 3 write units.
        let a = &from_result.by_place[&Place {
            table: "t".into(),
            index: None,
            tenant: Some("a".into()),
            pattern: None,
        }];
        assert_eq!(a.read, Decimal::ONE);
        assert_eq!(a.write, Decimal::from(2) / Decimal::from(3));
        // Refused: another header, a refused-lines row, a share past its whole, bad units.
        let header =
            "table_name,index_name,tenant,pattern,items,of_items,read_units,write_units,requests\n";
        for (text, why) in [
            ("table_name,index\nt,\n", "the header is not the query's"),
            (
                &*format!("{header},,,refused,1,1,0,0,4\n"),
                "the query found 4 request line(s)",
            ),
            (
                &*format!("{header}t,,a,,4,3,1,0,1\n"),
                "`items` is not between 1 and `of_items`",
            ),
            (
                &*format!("{header}t,,a,,1,1,-1,0,1\n"),
                "`read_units` is not a number of units",
            ),
            (
                &*format!("{header}t,,a,,1,1,x,0,1\n"),
                "`read_units` is not a number of units",
            ),
        ] {
            let e = read(
                text.as_bytes(),
                "result.csv",
                &tenancy,
                &mut LogUsage::default(),
            )
            .unwrap_err();
            assert!(e.message.contains(why), "{text}: {e}");
        }
    }
}
