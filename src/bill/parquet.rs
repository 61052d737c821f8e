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
use super::parse::{Layout, fill};
use super::read::Sink;
use crate::cloudwatch::timestamp;
use crate::error::Error;

fn broken(file: &str, e: &dyn std::fmt::Display) -> Error {
    Error::input(format!("not a readable Parquet file ({e})"))
        .file(file)
        .help("Consider the part as AWS delivered it: a truncated or partly copied Parquet file cannot be read.")
}

/// A Parquet DECIMAL (big-endian two's complement, `scale` digits after the point) as text.
pub(super) fn decimal_text(bytes: &[u8], scale: i32) -> Option<String> {
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
pub(crate) enum Read {
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
pub(super) fn text(field: &PField, read: Read) -> String {
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
    match super::parquet_columns::Columns::of(&reader, &fields, &reads, root.name()) {
        Some(columns) => by_columns(&reader, &columns, &projected_layout, &file, sink)?,
        None => by_records(&reader, &fields, &reads, &projected_layout, &file, sink)?,
    }
    Ok(projected_layout.dialect)
}

/// The rows of `reader`, row group by row group, each column decoded whole.
fn by_columns(
    reader: &SerializedFileReader<std::fs::File>,
    columns: &super::parquet_columns::Columns,
    layout: &Layout,
    file: &str,
    sink: &mut Sink<'_>,
) -> Result<(), Error> {
    let mut n = 0u64;
    let mut buffer = super::row::Row::default();
    for g in 0..reader.metadata().num_row_groups() {
        let values = columns.row_group(reader, g).map_err(|e| broken(file, &e))?;
        let rows = values
            .first()
            .map_or(0, super::parquet_columns::Column::len);
        for r in 0..rows {
            n = n.saturating_add(1);
            let get = |i: usize| values.get(i).and_then(|c| c.get(r));
            fill(layout, &get, file, n, &mut buffer)?;
            sink(&buffer)?;
        }
    }
    Ok(())
}

/// The rows of `reader` through the record API: for the columns `by_columns` leaves.
fn by_records(
    reader: &SerializedFileReader<std::fs::File>,
    fields: &[Arc<Type>],
    reads: &[Read],
    projected_layout: &Layout,
    file: &str,
    sink: &mut Sink<'_>,
) -> Result<(), Error> {
    let file = file.to_string();
    let root = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .root_schema();
    let projection = Type::group_type_builder(root.name())
        .with_fields(fields.to_vec())
        .build()
        .map_err(|e| broken(&file, &e))?;
    let rows = reader
        .get_row_iter(Some(projection))
        .map_err(|e| broken(&file, &e))?;
    let mut n = 0u64;
    let mut buffer = super::row::Row::default();
    for r in rows {
        let r = r.map_err(|e| broken(&file, &e))?;
        n = n.saturating_add(1);
        let texts: Vec<String> = r
            .get_column_iter()
            .zip(reads.iter().chain(std::iter::repeat(&Read::Plain)))
            .map(|((_, v), read)| text(v, *read))
            .collect();
        let get = |i: usize| texts.get(i).map(String::as_str);
        fill(projected_layout, &get, &file, n, &mut buffer)?;
        sink(&buffer)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    mod columns_equal_records {
        //! The column reader gives the rows the record reader gives: random CUR 2.0 files,
        //! each column of a random type (text, DOUBLE, DECIMAL on INT32, INT64, BYTE_ARRAY
        //! and FIXED_LEN_BYTE_ARRAY, TIMESTAMP in millis, micros or nanos, DATE), nullable or
        //! not, tags as a MAP, over row groups of random sizes.
        #![allow(
            clippy::arithmetic_side_effects,
            clippy::type_complexity,
            reason = "a test's file writer: small bounded figures, one row tuple"
        )]

        use parquet::data_type::{
            ByteArray, ByteArrayType, DoubleType, FixedLenByteArray, FixedLenByteArrayType,
            Int32Type, Int64Type,
        };
        use parquet::file::properties::WriterProperties;
        use parquet::file::writer::SerializedFileWriter;
        use proptest::prelude::*;

        use super::*;

        /// How a number column is typed.
        #[derive(Debug, Clone, Copy)]
        enum Num {
            Text,
            Double,
            DecI32,
            DecI64,
            DecBytes,
            DecFixed,
        }

        /// A cell: `None` is null; numbers in units of 10⁻³.
        #[derive(Debug, Clone)]
        struct Spec {
            amount: Num,
            cost: Num,
            time_unit: u8,
            period_as_date: bool,
            required: bool,
            /// The tags' group annotated MAP (else a bare group, read through records).
            annotated: bool,
            groups: usize,
            rows: Vec<(
                Option<i32>,
                Option<i32>,
                Option<u32>,
                Vec<(u8, Option<u8>)>,
                u8,
            )>,
        }

        fn num_type(n: Num, name: &str, rep: &str) -> String {
            match n {
                Num::Text => format!("{rep} BINARY {name} (UTF8);"),
                Num::Double => format!("{rep} DOUBLE {name};"),
                Num::DecI32 => format!("{rep} INT32 {name} (DECIMAL(9,3));"),
                Num::DecI64 => format!("{rep} INT64 {name} (DECIMAL(18,3));"),
                Num::DecBytes => format!("{rep} BINARY {name} (DECIMAL(18,3));"),
                Num::DecFixed => format!("{rep} FIXED_LEN_BYTE_ARRAY(8) {name} (DECIMAL(18,3));"),
            }
        }

        fn write_num(
            col: &mut parquet::file::writer::SerializedColumnWriter<'_>,
            n: Num,
            cells: &[Option<i32>],
            defs: Option<&[i16]>,
        ) {
            let present: Vec<i32> = cells.iter().flatten().copied().collect();
            match n {
                Num::Text => {
                    let v: Vec<ByteArray> = present
                        .iter()
                        .map(|x| {
                            ByteArray::from(
                                rust_decimal::Decimal::new(i64::from(*x), 3)
                                    .to_string()
                                    .as_str(),
                            )
                        })
                        .collect();
                    col.typed::<ByteArrayType>()
                        .write_batch(&v, defs, None)
                        .unwrap();
                }
                Num::Double => {
                    let v: Vec<f64> = present.iter().map(|x| f64::from(*x) / 1000.0).collect();
                    col.typed::<DoubleType>()
                        .write_batch(&v, defs, None)
                        .unwrap();
                }
                Num::DecI32 => {
                    col.typed::<Int32Type>()
                        .write_batch(&present, defs, None)
                        .unwrap();
                }
                Num::DecI64 => {
                    let v: Vec<i64> = present.iter().map(|x| i64::from(*x)).collect();
                    col.typed::<Int64Type>()
                        .write_batch(&v, defs, None)
                        .unwrap();
                }
                Num::DecBytes => {
                    let v: Vec<ByteArray> = present
                        .iter()
                        .map(|x| ByteArray::from(i64::from(*x).to_be_bytes().to_vec()))
                        .collect();
                    col.typed::<ByteArrayType>()
                        .write_batch(&v, defs, None)
                        .unwrap();
                }
                Num::DecFixed => {
                    let v: Vec<FixedLenByteArray> = present
                        .iter()
                        .map(|x| FixedLenByteArray::from(i64::from(*x).to_be_bytes().to_vec()))
                        .collect();
                    col.typed::<FixedLenByteArrayType>()
                        .write_batch(&v, defs, None)
                        .unwrap();
                }
            }
        }

        #[allow(clippy::too_many_lines, reason = "one file, column by column")]
        fn write(path: &std::path::Path, s: &Spec) {
            let rep = if s.required { "REQUIRED" } else { "OPTIONAL" };
            let unit = ["MILLIS", "MICROS", "NANOS"][usize::from(s.time_unit % 3)];
            let per_second: i64 = [1_000, 1_000_000, 1_000_000_000][usize::from(s.time_unit % 3)];
            let period = if s.period_as_date {
                format!("{rep} INT32 bill_billing_period_start_date (DATE);")
            } else {
                format!("{rep} BINARY bill_billing_period_start_date (UTF8);")
            };
            let schema = format!(
                "message schema {{ REQUIRED BINARY line_item_product_code (UTF8); REQUIRED BINARY line_item_usage_type (UTF8); REQUIRED BINARY line_item_line_item_type (UTF8); REQUIRED BINARY line_item_currency_code (UTF8); {rep} INT64 line_item_usage_start_date (TIMESTAMP({unit},true)); {period} {} {} OPTIONAL group resource_tags {} {{ REPEATED group key_value {{ REQUIRED BINARY key (UTF8); OPTIONAL BINARY value (UTF8); }} }} }}",
                num_type(s.amount, "line_item_usage_amount", rep),
                num_type(s.cost, "line_item_unblended_cost", rep),
                if s.annotated { "(MAP)" } else { "" },
            );
            let schema = parquet::schema::parser::parse_message_type(&schema).unwrap();
            let props = WriterProperties::builder()
                .set_max_row_group_size(s.groups.max(1))
                .build();
            let file = std::fs::File::create(path).unwrap();
            let mut w = SerializedFileWriter::new(
                file,
                std::sync::Arc::new(schema),
                std::sync::Arc::new(props),
            )
            .unwrap();
            for chunk in s.rows.chunks(s.groups.max(1)) {
                let mut rg = w.next_row_group().unwrap();
                let mut i = 0;
                // A required column holds every cell (a null written as 0).
                let fill = |c: Option<i32>| if s.required { Some(c.unwrap_or(0)) } else { c };
                while let Some(mut col) = rg.next_column().unwrap() {
                    let cells: Vec<Option<i32>> = match i {
                        0..=3 => chunk.iter().map(|_| Some(0)).collect(),
                        4 | 5 => chunk
                            .iter()
                            .map(|r| fill(r.2.map(|d| i32::try_from(d).unwrap())))
                            .collect(),
                        6 => chunk.iter().map(|r| fill(r.0)).collect(),
                        7 => chunk.iter().map(|r| fill(r.1)).collect(),
                        _ => Vec::new(),
                    };
                    let defs: Vec<i16> = cells.iter().map(|c| i16::from(c.is_some())).collect();
                    let defs = (!s.required).then_some(defs.as_slice());
                    match i {
                        0..=3 => {
                            let text =
                                ["AmazonDynamoDB", "USE1-ReadRequestUnits", "Usage", "USD"][i];
                            let v: Vec<ByteArray> = chunk
                                .iter()
                                .map(|r| {
                                    ByteArray::from(if r.4 % 7 == 0 && i == 1 {
                                        "TimedStorage-ByteHrs"
                                    } else {
                                        text
                                    })
                                })
                                .collect();
                            col.typed::<ByteArrayType>()
                                .write_batch(&v, None, None)
                                .unwrap();
                        }
                        4 => {
                            let v: Vec<i64> = cells
                                .iter()
                                .flatten()
                                .map(|d| 1_793_491_200 + i64::from(*d) * 3_600)
                                .map(|t| t * per_second)
                                .collect();
                            col.typed::<Int64Type>()
                                .write_batch(&v, defs, None)
                                .unwrap();
                        }
                        5 if s.period_as_date => {
                            let v: Vec<i32> = cells.iter().flatten().map(|_| 20_758).collect();
                            col.typed::<Int32Type>()
                                .write_batch(&v, defs, None)
                                .unwrap();
                        }
                        5 => {
                            let v: Vec<ByteArray> = cells
                                .iter()
                                .flatten()
                                .map(|_| ByteArray::from("2026-11-01T00:00:00.000Z"))
                                .collect();
                            col.typed::<ByteArrayType>()
                                .write_batch(&v, defs, None)
                                .unwrap();
                        }
                        6 => write_num(&mut col, s.amount, &cells, defs),
                        7 => write_num(&mut col, s.cost, &cells, defs),
                        8 | 9 => {
                            // The map's key (i = 8) and value (i = 9) leaves: a row's tags, or
                            // a null map when it has none and its kind byte is odd.
                            let (mut d, mut r, mut v) = (Vec::new(), Vec::new(), Vec::new());
                            for row in chunk {
                                if row.3.is_empty() {
                                    d.push(i16::from(row.4 % 2 == 0));
                                    r.push(0);
                                    continue;
                                }
                                for (j, (k, val)) in row.3.iter().enumerate() {
                                    r.push(i16::from(j > 0));
                                    if i == 8 {
                                        d.push(2);
                                        v.push(ByteArray::from(format!("user:k{k}").as_str()));
                                    } else if let Some(x) = val {
                                        d.push(3);
                                        v.push(ByteArray::from(format!("v{x}").as_str()));
                                    } else {
                                        d.push(2);
                                    }
                                }
                            }
                            col.typed::<ByteArrayType>()
                                .write_batch(&v, Some(&d), Some(&r))
                                .unwrap();
                        }
                        _ => unreachable!(),
                    }
                    col.close().unwrap();
                    i += 1;
                }
                rg.close().unwrap();
            }
            w.close().unwrap();
        }

        /// The rows (or the first refusal) a path reads.
        fn read_with(
            path: &std::path::Path,
            columns: bool,
        ) -> Result<Vec<crate::bill::row::Row>, String> {
            let file = path.display().to_string();
            let f = std::fs::File::open(path).unwrap();
            let reader = SerializedFileReader::new(f).unwrap();
            let root = reader
                .metadata()
                .file_metadata()
                .schema_descr()
                .root_schema();
            let names: Vec<&str> = root.get_fields().iter().map(|t| t.name()).collect();
            let layout = Layout::of(&names, &file).map_err(|e| e.to_string())?;
            let wanted: Vec<&str> = layout.columns().collect();
            let fields: Vec<Arc<Type>> = root
                .get_fields()
                .iter()
                .filter(|t| wanted.contains(&t.name()))
                .cloned()
                .collect();
            let projected: Vec<&str> = fields.iter().map(|t| t.name()).collect();
            let projected_layout = Layout::of(&projected, &file).map_err(|e| e.to_string())?;
            let reads: Vec<Read> = fields
                .iter()
                .map(|t| match projected_layout.field_of(t.name()) {
                    Some(f) => check(t, f, &file),
                    None => Ok(Read::Plain),
                })
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string())?;
            let mut rows = Vec::new();
            let mut sink = |r: &crate::bill::row::Row| {
                rows.push(r.clone());
                Ok(())
            };
            let done = if columns {
                let plan = crate::bill::parquet_columns::Columns::of(
                    &reader,
                    &fields,
                    &reads,
                    root.name(),
                )
                .ok_or("no column plan")?;
                by_columns(&reader, &plan, &projected_layout, &file, &mut sink)
            } else {
                by_records(
                    &reader,
                    &fields,
                    &reads,
                    &projected_layout,
                    &file,
                    &mut sink,
                )
            };
            done.map_err(|e| e.to_string())?;
            Ok(rows)
        }

        fn num() -> impl Strategy<Value = Num> {
            prop_oneof![
                Just(Num::Text),
                Just(Num::Double),
                Just(Num::DecI32),
                Just(Num::DecI64),
                Just(Num::DecBytes),
                Just(Num::DecFixed),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]
            #[test]
            fn the_column_reader_reads_what_the_record_reader_reads(
                amount in num(),
                cost in num(),
                time_unit in 0u8..3,
                period_as_date in any::<bool>(),
                required in any::<bool>(),
                annotated in any::<bool>(),
                groups in 1usize..40,
                rows in prop::collection::vec(
                    (
                        // Usage is never negative (a negative one is refused, on both paths).
                        prop::option::of(0i32..2_000_000),
                        prop::option::of(-2_000_000i32..2_000_000),
                        (0u32..720).prop_map(Some),
                        prop::collection::vec((0u8..4, prop::option::of(0u8..9)), 0..3),
                        any::<u8>(),
                    ),
                    0..120,
                ),
            ) {
                let dir = tempfile::tempdir().unwrap();
                let path = dir.path().join("cur.parquet");
                let spec = Spec { amount, cost, time_unit, period_as_date, required, annotated, groups, rows };
                write(&path, &spec);
                let by_records = read_with(&path, false);
                let by_columns = read_with(&path, true);
                prop_assert_eq!(by_columns, by_records);
            }
        }
    }

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
