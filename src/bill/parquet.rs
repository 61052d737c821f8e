//! Parquet bills (CUR 2.0 and FOCUS from AWS Data Exports, or what Athena wrote) through
//! Apache's `parquet` crate: its record API reads only the columns the layout needs, row
//! group by row group. Each value becomes the text the CSV twin holds — a string as is, a
//! Parquet DECIMAL exactly, a DOUBLE as the shortest text that reads back to the same double
//! (the figure AWS wrote; Rust prints exactly that), a timestamp as ISO 8601 — and from there
//! the same parser as CSV, so both give the same rows.

use std::path::Path;
use std::sync::Arc;

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field as PField;
use parquet::schema::types::Type;

use super::columns::Dialect;
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

/// A value as the CSV twin writes it.
fn text(field: &PField) -> String {
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
    let f = std::fs::File::open(path).map_err(|e| broken(&file, &e))?;
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
        let texts: Vec<String> = r.get_column_iter().map(|(_, v)| text(v)).collect();
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
        assert_eq!(text(&PField::Double(0.125)), "0.125");
        assert_eq!(text(&PField::Double(0.1)), "0.1");
        assert_eq!(text(&PField::Double(1_234.5)), "1234.5");
    }
}
