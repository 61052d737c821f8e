//! Parquet bills (CUR 2.0 and FOCUS from AWS Data Exports, or what Athena wrote) through
//! Apache's `parquet` crate: its record API reads only the columns the layout needs, row
//! group by row group. Each value becomes the text the CSV twin holds — a string as is, a
//! Parquet DECIMAL exactly, a DOUBLE as the shortest text that reads back to the same double
//! (the figure AWS wrote; Rust prints exactly that), a timestamp as ISO 8601 (milli-, micro-
//! or nanoseconds) — and from there the same parser as CSV, so both give the same rows. Each
//! column's Parquet type is checked against what the dictionary reads it as before any row
//! is: a cost or quantity must be a number (or text holding one), a time a timestamp, a date
//! or text; anything else is refused with the column and the file, never read as 0.

use std::path::Path;
use std::sync::Arc;

use parquet::basic::{LogicalType, TimeUnit, Type as Physical};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field as PField;
use parquet::schema::types::Type;

use super::columns::{Dialect, Field};
use super::parse::{Layout, row};
use super::read::Sink;
use crate::cloudwatch::timestamp;
use crate::error::Error;

fn broken(file: &str, e: &dyn std::fmt::Display) -> Error {
    Error::input(format!("not a readable Parquet file ({e})"))
        .file(file)
        .help("Consider the part as AWS delivered it: a truncated or partly copied Parquet file cannot be read.")
}

/// A Parquet DECIMAL (big-endian two's complement, `scale` digits after the point) as text.
fn decimal_text(bytes: &[u8], scale: i32) -> Option<String> {
    if bytes.is_empty() || bytes.len() > 16 {
        return None;
    }
    let negative = bytes.first().is_some_and(|b| b & 0x80 != 0);
    let mut full = [if negative { 0xff } else { 0 }; 16];
    let start = 16usize.checked_sub(bytes.len())?;
    full.get_mut(start..)?.copy_from_slice(bytes);
    let unscaled = i128::from_be_bytes(full);
    let scale = u32::try_from(scale).ok()?;
    rust_decimal::Decimal::try_from_i128_with_scale(unscaled, scale)
        .ok()
        .map(|d| d.to_string())
}

/// What the dictionary reads a column as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Number,
    Time,
    Text,
}

fn want(f: Field) -> Want {
    match f {
        Field::Amount
        | Field::Unblended
        | Field::Effective
        | Field::List
        | Field::ReservationEffective
        | Field::PlanEffective
        | Field::ReservationUnusedUpfront
        | Field::ReservationUnusedRecurring
        | Field::PlanCommitment
        | Field::PlanUsed => Want::Number,
        Field::Start | Field::End => Want::Time,
        _ => Want::Text,
    }
}

/// How a column's values become text: as they are, or an INT64 of nanoseconds since 1970
/// (a TIMESTAMP(NANOS) the record reader hands over as a plain integer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    Plain,
    Nanos,
}

/// Checks a column's type against what the dictionary reads it as.
fn check(t: &Type, field: Field, file: &str) -> Result<Read, Error> {
    let name = t.name();
    let refuse = |what: &str, expected: &str| {
        Error::input(format!(
            "column `{name}` is {what}: {expected}"
        ))
        .file(file)
        .help("Consider the export as AWS Data Exports writes it (costs and amounts DOUBLE or DECIMAL, times TIMESTAMP), or its CSV.")
    };
    if !t.is_primitive() {
        return Err(refuse(
            "a group (a struct, list or map)",
            "a bill's value is a single number, time or text",
        ));
    }
    let physical = t.get_physical_type();
    let logical = t.get_basic_info().logical_type_ref();
    let nanos = matches!(
        logical,
        Some(&LogicalType::Timestamp {
            unit: TimeUnit::NANOS,
            ..
        })
    );
    let timestamp = matches!(logical, Some(&LogicalType::Timestamp { .. }))
        || matches!(
            t.get_basic_info().converted_type(),
            parquet::basic::ConvertedType::TIMESTAMP_MILLIS
                | parquet::basic::ConvertedType::TIMESTAMP_MICROS
        );
    let decimal = matches!(logical, Some(LogicalType::Decimal { .. }))
        || t.get_basic_info().converted_type() == parquet::basic::ConvertedType::DECIMAL;
    let text = matches!(physical, Physical::BYTE_ARRAY) && !decimal;
    match want(field) {
        Want::Number => {
            let number = matches!(
                physical,
                Physical::INT32 | Physical::INT64 | Physical::FLOAT | Physical::DOUBLE
            ) && !timestamp
                && !matches!(logical, Some(LogicalType::Date));
            if number || decimal || text {
                Ok(Read::Plain)
            } else {
                Err(refuse(
                    &format!(
                        "{physical}{}",
                        if timestamp { " (a timestamp)" } else { "" }
                    ),
                    "a cost or quantity is a number",
                ))
            }
        }
        Want::Time => {
            if timestamp && physical == Physical::INT64 {
                Ok(if nanos { Read::Nanos } else { Read::Plain })
            } else if text || matches!(logical, Some(LogicalType::Date)) {
                Ok(Read::Plain)
            } else {
                Err(refuse(
                    &physical.to_string(),
                    "a time is a TIMESTAMP, a DATE or ISO 8601 text",
                ))
            }
        }
        Want::Text => {
            if matches!(physical, Physical::BOOLEAN) {
                Err(refuse("BOOLEAN", "this column is text"))
            } else {
                Ok(Read::Plain)
            }
        }
    }
}

/// A value as the CSV twin writes it.
fn text(field: &PField, read: Read) -> String {
    if let (Read::Nanos, PField::Long(ns)) = (read, field) {
        return timestamp(ns.div_euclid(1_000_000_000));
    }
    match field {
        PField::Bool(b) => b.to_string(),
        PField::Byte(v) => v.to_string(),
        PField::Short(v) => v.to_string(),
        PField::Int(v) => v.to_string(),
        PField::Long(v) => v.to_string(),
        PField::UByte(v) => v.to_string(),
        PField::UShort(v) => v.to_string(),
        PField::UInt(v) => v.to_string(),
        PField::ULong(v) => v.to_string(),
        // The shortest decimal that reads back to the same binary value (`{}` of a float).
        PField::Float(v) => v.to_string(),
        PField::Double(v) => v.to_string(),
        PField::Decimal(d) => decimal_text(d.data(), d.scale()).unwrap_or_default(),
        PField::Str(s) => s.clone(),
        PField::Date(days) => timestamp(i64::from(*days).saturating_mul(86_400))[..10].to_string(),
        PField::TimestampMillis(ms) => timestamp(ms.div_euclid(1_000)),
        PField::TimestampMicros(us) => timestamp(us.div_euclid(1_000_000)),
        // A map (CUR 2.0's `resource_tags`): the JSON object the CSV export writes.
        PField::MapInternal(map) => {
            let object: serde_json::Map<String, serde_json::Value> = map
                .entries()
                .iter()
                .map(|(k, v)| {
                    (
                        text(k, Read::Plain),
                        serde_json::Value::String(text(v, Read::Plain)),
                    )
                })
                .collect();
            serde_json::Value::Object(object).to_string()
        }
        _ => String::new(),
    }
}

/// Reads every row of the Parquet file `path` into `sink`.
///
/// # Errors
/// A file that is not Parquet or is truncated; a bill's column missing; a value that does
/// not parse.
pub(crate) fn read(path: &Path, sink: &mut Sink<'_>) -> Result<Dialect, Error> {
    let file = path.display().to_string();
    // A third-party decoder over a file from anywhere: a panic inside it is a refusal of the
    // file, never a crash.
    crate::output::contained(|| read_rows(path, &file, sink))
        .unwrap_or_else(|()| Err(broken(&file, &"the Parquet decoder failed on it")))
}

fn read_rows(path: &Path, file: &str, sink: &mut Sink<'_>) -> Result<Dialect, Error> {
    let file = file.to_string();
    let f = crate::confine::open(path).map_err(|e| broken(&file, &e))?;
    let reader = SerializedFileReader::new(f).map_err(|e| broken(&file, &e))?;
    let root = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .root_schema();
    let names: Vec<&str> = root.get_fields().iter().map(|t| t.name()).collect();
    let layout = Layout::of(&names, &file)?;
    let wanted: Vec<&str> = layout.columns().collect();
    let fields: Vec<Arc<Type>> = root
        .get_fields()
        .iter()
        .filter(|t| wanted.contains(&t.name()))
        .cloned()
        .collect();
    // The projection keeps the file's order of the columns it reads.
    let projected: Vec<&str> = fields.iter().map(|t| t.name()).collect();
    let projected_layout = Layout::of(&projected, &file)?;
    let reads: Vec<Read> = fields
        .iter()
        .map(|t| match projected_layout.field_of(t.name()) {
            Some(f) => check(t, f, &file),
            None => Ok(Read::Plain),
        })
        .collect::<Result<_, _>>()?;
    let projection = Type::group_type_builder(root.name())
        .with_fields(fields.clone())
        .build()
        .map_err(|e| broken(&file, &e))?;
    let rows = reader
        .get_row_iter(Some(projection))
        .map_err(|e| broken(&file, &e))?;
    let mut n = 0u64;
    for r in rows {
        let r = r.map_err(|e| broken(&file, &e))?;
        n = n.saturating_add(1);
        let texts: Vec<String> = r
            .get_column_iter()
            .zip(reads.iter().chain(std::iter::repeat(&Read::Plain)))
            .map(|((_, v), read)| text(v, *read))
            .collect();
        let get = |i: usize| texts.get(i).map(String::as_str);
        sink(row(&projected_layout, &get, &file, n)?)?;
    }
    Ok(projected_layout.dialect)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_read_exactly() {
        // 12345 at scale 3 = 12.345; −1 (0xff) at scale 2 = −0.01.
        assert_eq!(
            decimal_text(&12_345i32.to_be_bytes(), 3).as_deref(),
            Some("12.345")
        );
        assert_eq!(decimal_text(&[0xff], 2).as_deref(), Some("-0.01"));
        assert_eq!(decimal_text(&[], 2), None);
    }

    #[test]
    fn doubles_read_as_the_text_that_names_them() {
        assert_eq!(text(&PField::Double(0.125), Read::Plain), "0.125");
        assert_eq!(text(&PField::Double(0.1), Read::Plain), "0.1");
        assert_eq!(text(&PField::Double(1_234.5), Read::Plain), "1234.5");
        // 2026-11-01T00:00:00Z in nanoseconds.
        assert_eq!(
            text(&PField::Long(1_793_491_200_000_000_000), Read::Nanos),
            "2026-11-01T00:00:00Z"
        );
    }
}
