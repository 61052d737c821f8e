//! From a header and a record's texts to a `Row`: the dialect told by the header, the
//! required columns checked once (a column missing is refused with its name), then each
//! field parsed exactly — amounts and costs as decimals (a Parquet double as the shortest
//! text that reads back to it, the figure AWS wrote), times as Unix seconds — with the file,
//! the row and the column named when a value does not parse.

use rust_decimal::Decimal;

use super::columns::{self, Dialect, FIELDS, Field};
use super::row::{self, Charge, Row};
use crate::cloudwatch::{parse_time, timestamp};
use crate::error::Error;

/// Where each field is in the records of one file.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub(crate) dialect: Dialect,
    index: Vec<(Field, usize)>,
    /// The column of each field, by the field's place in `FIELDS`: looked up for every value
    /// of every row.
    positions: [Option<usize>; FIELDS.len()],
    names: Vec<String>,
    /// Where the resource tags are: a map column (CUR 2.0 `resource_tags`, FOCUS `Tags`, a
    /// JSON object) or the legacy CUR's one column per tag (`resourceTags/user:team`).
    tags: Vec<(usize, TagColumn)>,
}

/// A column of resource tags.
#[derive(Debug, Clone)]
enum TagColumn {
    /// A JSON object of key → value.
    Map,
    /// One tag's value; the key.
    One(String),
}

/// A tag key as ddbcost names it: the user-defined prefix of AWS's cost allocation tags
/// (`user:`) dropped, AWS's own (`aws:…`) kept.
fn tag_key(key: &str) -> String {
    key.strip_prefix("user:").unwrap_or(key).to_string()
}

impl Layout {
    /// The layout of `header`, read from `file`.
    ///
    /// # Errors
    /// A header of no known dialect; a required column missing.
    pub(crate) fn of(header: &[&str], file: &str) -> Result<Layout, Error> {
        let dialect = columns::dialect(header).ok_or_else(|| {
            Error::input("not a bill: no `line_item_usage_type`, `lineItem/UsageType`, `x_UsageType` or `x_LineItemKey` column")
                .file(file)
                .help("Consider a CUR 2.0 or legacy CUR export, a FOCUS 1.2 export with AWS columns, or ddbcost's own `--format focus`.")
        })?;
        let mut index = Vec::new();
        for f in FIELDS {
            if let Some(name) = columns::column(dialect, f)
                && let Some(i) = header.iter().position(|h| *h == name)
            {
                index.push((f, i));
            }
        }
        for f in columns::required(dialect) {
            if !index.iter().any(|(g, _)| g == f) {
                return Err(Error::input(format!(
                    "{} bill without its `{}` column",
                    dialect.name(),
                    columns::column(dialect, *f).unwrap_or("?")
                ))
                .file(file)
                .help("Consider exporting every column of the table (CUR 2.0: `SELECT *`)."));
            }
        }
        let tags = header
            .iter()
            .enumerate()
            .filter_map(|(i, h)| match (dialect, *h) {
                (Dialect::Cur2, "resource_tags") | (Dialect::Focus | Dialect::Own, "Tags") => {
                    Some((i, TagColumn::Map))
                }
                (Dialect::Legacy, h) => h
                    .strip_prefix("resourceTags/")
                    .map(|k| (i, TagColumn::One(tag_key(k)))),
                _ => None,
            })
            .collect();
        let mut positions = [None; FIELDS.len()];
        for (f, i) in &index {
            if let Some(slot) = positions.get_mut(*f as usize) {
                *slot = Some(*i);
            }
        }
        Ok(Layout {
            dialect,
            index,
            positions,
            names: header.iter().map(|h| (*h).to_string()).collect(),
            tags,
        })
    }

    /// The column numbers the layout reads (for Parquet's projection).
    /// The field a column name is read as, if any.
    pub(crate) fn field_of(&self, name: &str) -> Option<Field> {
        self.index
            .iter()
            .find(|(_, i)| self.names.get(*i).is_some_and(|n| n == name))
            .map(|(f, _)| *f)
    }

    pub(crate) fn columns(&self) -> impl Iterator<Item = &str> {
        self.index
            .iter()
            .map(|(_, i)| i)
            .chain(self.tags.iter().map(|(i, _)| i))
            .filter_map(|i| self.names.get(*i).map(String::as_str))
    }

    fn position(&self, field: Field) -> Option<usize> {
        self.positions.get(field as usize).copied().flatten()
    }
}

/// A decimal as a bill writes it (`0.125`, `1.5E-4`, empty for none).
pub(crate) fn decimal(text: &str) -> Result<Option<Decimal>, String> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("null") {
        return Ok(None);
    }
    t.parse::<Decimal>()
        .or_else(|_| Decimal::from_scientific(t))
        .map(Some)
        .map_err(|_| format!("`{t}` is not a number"))
}

/// The `YYYY-MM` of a time or date text.
fn month(text: &str) -> Option<&str> {
    let t = text.trim();
    let m = t.get(..7)?;
    (m.as_bytes().get(4) == Some(&b'-') && m.bytes().take(4).all(|b| b.is_ascii_digit()))
        .then_some(m)
}

/// A time as bills write it: ISO 8601, or a date alone (its first second).
fn time(text: &str) -> Option<i64> {
    let t = text.trim();
    parse_time(t).or_else(|| {
        crate::model::period::parse_date(t.get(..10)?)
            .filter(|_| t.len() == 10)
            .and_then(|d| d.checked_mul(86_400))
    })
}

/// `text` into `slot`, in the room it has.
fn set(slot: &mut String, text: &str) {
    slot.clear();
    slot.push_str(text);
}

/// Fills `out` with the row at `at` (1-based, for errors) of `file`, from `get` (a field's
/// text by column): every field set, its strings written into the room they had.
///
/// # Errors
/// A value that does not parse, named by its column.
pub(crate) fn fill<'a>(
    layout: &Layout,
    get: &dyn Fn(usize) -> Option<&'a str>,
    file: &str,
    at: u64,
    out: &mut Row,
) -> Result<(), Error> {
    let text = |f: Field| -> &'a str { layout.position(f).and_then(get).unwrap_or("") };
    let bad = |f: Field, why: &str| {
        Error::input(format!(
            "row {at}, column `{}`: {why}",
            columns::column(layout.dialect, f).unwrap_or("?")
        ))
        .file(file)
        .help("Consider the file as AWS delivered it (a bill's columns are numbers and ISO 8601 times).")
    };
    let number =
        |f: Field| -> Result<Option<Decimal>, Error> { decimal(text(f)).map_err(|w| bad(f, &w)) };
    let start = time(text(Field::Start)).ok_or_else(|| {
        bad(
            Field::Start,
            &format!("`{}` is not a time", text(Field::Start)),
        )
    })?;
    let end = match text(Field::End) {
        "" => None,
        t => Some(time(t).ok_or_else(|| bad(Field::End, &format!("`{t}` is not a time")))?),
    };
    let kind = text(Field::Kind).trim();
    let charge = row::charge_of(
        layout.dialect,
        kind,
        text(Field::CommitmentStatus).trim(),
        text(Field::CommitmentId).trim(),
    );
    let mut amount = number(Field::Amount)?.unwrap_or(Decimal::ZERO);
    if layout.dialect == Dialect::Own
        && let Some((_, factor)) = super::map::meter_of(text(Field::Sku).trim())
    {
        // ddbcost's export counts in the price's unit (millions of requests): back to the
        // usage type's.
        amount = amount
            .checked_mul(Decimal::from(factor))
            .ok_or_else(|| bad(Field::Amount, "a quantity too large"))?;
    }
    if amount.is_sign_negative()
        && !amount.is_zero()
        && matches!(
            charge,
            Charge::Usage | Charge::ReservedUsage | Charge::PlanUsage
        )
    {
        return Err(bad(Field::Amount, &format!("negative usage ({amount})")));
    }
    let stated = number(Field::Unblended)?;
    let cost_missing = stated.is_none();
    let unblended = stated.unwrap_or(Decimal::ZERO);
    let effective = match layout.dialect {
        Dialect::Focus | Dialect::Own => number(Field::Effective)?.unwrap_or(unblended),
        Dialect::Cur2 | Dialect::Legacy => {
            let mut values = Vec::new();
            for f in [
                Field::ReservationEffective,
                Field::PlanEffective,
                Field::ReservationUnusedUpfront,
                Field::ReservationUnusedRecurring,
                Field::PlanCommitment,
                Field::PlanUsed,
            ] {
                values.push((f, number(f)?));
            }
            let get = |f: Field| values.iter().find(|(g, _)| *g == f).and_then(|(_, v)| *v);
            row::cur_effective(charge, unblended, &get)
        }
    };
    let list = number(Field::List)?;
    match month(text(Field::Period)) {
        Some(m) => set(&mut out.period, m),
        None => {
            let t = timestamp(start);
            set(&mut out.period, month(&t).unwrap_or_default());
        }
    }
    out.tags.clear();
    tags(layout, get, &mut out.tags).map_err(|why| {
        Error::input(format!("row {at}: {why}"))
            .file(file)
            .help("Consider the file as AWS delivered it (tags as a JSON object of text).")
    })?;
    set(&mut out.product, text(Field::Product).trim());
    set(&mut out.usage_type, text(Field::UsageType).trim());
    set(&mut out.operation, text(Field::Operation).trim());
    set(&mut out.resource, text(Field::Resource).trim());
    (out.start, out.end) = (start, end);
    (out.amount, out.unblended, out.cost_missing) = (amount, unblended, cost_missing);
    (out.effective, out.list, out.charge) = (effective, list, charge);
    set(&mut out.kind, kind);
    set(&mut out.currency, text(Field::Currency).trim());
    set(&mut out.sku, text(Field::Sku).trim());
    set(&mut out.meter, text(Field::Meter).trim());
    set(&mut out.resource_name, text(Field::ResourceName).trim());
    set(
        &mut out.region,
        Some(text(Field::RegionId).trim())
            .filter(|r| !r.is_empty())
            .unwrap_or_else(|| text(Field::PricedRegion).trim()),
    );
    Ok(())
}

/// A row's resource tags, key → value (empty values are no tag).
fn tags<'a>(
    layout: &Layout,
    get: &dyn Fn(usize) -> Option<&'a str>,
    out: &mut Vec<(String, String)>,
) -> Result<(), String> {
    for (i, column) in &layout.tags {
        let text = get(*i).unwrap_or("").trim();
        if text.is_empty() || text.eq_ignore_ascii_case("null") {
            continue;
        }
        match column {
            TagColumn::One(key) => out.push((key.clone(), text.to_string())),
            TagColumn::Map => {
                let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text)
                    .map_err(|_| {
                        format!(
                            "`{}` is not a JSON object of tags",
                            layout.names.get(*i).map_or("?", String::as_str)
                        )
                    })?;
                for (k, v) in map {
                    let v = match v {
                        serde_json::Value::String(s) => s,
                        serde_json::Value::Null => continue,
                        other => other.to_string(),
                    };
                    if !v.is_empty() {
                        out.push((tag_key(&k), v));
                    }
                }
            }
        }
    }
    Ok(())
}
