//! Counting key values in access logs: CSV with a header row, or JSON Lines (one object per
//! line), gzip-compressed or not, `-` for standard input. A line names the key value (key
//! column), whether it reads or writes (operation column: `GetItem`, `Query`, `PutItem`…, or
//! `read` / `write`), and optionally the units it consumed (units column, as
//! `ConsumedCapacity` reports them, in multiples of 0.5) or the item size in bytes (units
//! then computed: reads ⌈size ÷ 4 KB⌉, writes ⌈size ÷ 1 KB⌉, transactions twice; reads taken
//! as strongly consistent), and the index it used (index column). Without units or size each
//! request is one unit. A line that cannot be read is an error naming its file and line:
//! a misread log line would silently move traffic between keys.

use std::io::{BufRead, BufReader, Read};

use rust_decimal::Decimal;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

use super::counter::Counts;
use super::summary::KeysSummary;
use crate::error::Error;

/// The column names a log's lines are read by.
#[derive(Debug, Clone)]
pub struct LogColumns {
    pub key: String,
    pub operation: String,
    pub units: String,
    pub size: String,
    pub index: String,
}

/// Read or write, and how many units a request of unknown size takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Read,
    Write,
}

/// An operation's kind and its unit multiple (2 for transactions).
fn operation(text: &str) -> Option<(Kind, u64)> {
    let t = text.trim().to_ascii_lowercase().replace(['-', '_'], "");
    Some(match t.as_str() {
        "getitem" | "get" | "query" | "scan" | "batchgetitem" | "batchget" | "read" | "r" => {
            (Kind::Read, 1)
        }
        "transactgetitems" | "transactget" => (Kind::Read, 2),
        "putitem" | "put" | "updateitem" | "update" | "deleteitem" | "delete"
        | "batchwriteitem" | "batchwrite" | "write" | "w" => (Kind::Write, 1),
        "transactwriteitems" | "transactwrite" => (Kind::Write, 2),
        _ => return None,
    })
}

const OPERATIONS: &str = "GetItem, Query, Scan, BatchGetItem, TransactGetItems, PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems (or get, query, put…, read, write)";

/// The fields of one line, as text.
#[derive(Default)]
struct Fields {
    key: Option<String>,
    operation: Option<String>,
    units: Option<String>,
    size: Option<String>,
    index: Option<String>,
}

/// Reads every line of the log at `path` (`shown` in messages) into `summary`.
///
/// # Errors
/// An unreadable file, or a line without a key or operation, with an unknown operation or
/// index, or with units or a size that are not non-negative numbers.
pub(crate) fn count_log(
    path: &str,
    columns: &LogColumns,
    summary: &mut KeysSummary,
) -> Result<(), Error> {
    let io = |e: std::io::Error| {
        Error::input(format!("`{path}` cannot be read ({e})"))
            .file(path)
            .help("Consider checking the path.")
    };
    let raw: Box<dyn Read> = if path == crate::load::STDIN {
        crate::streams::stdin()
    } else {
        crate::confine::check(std::path::Path::new(path))?;
        Box::new(crate::confine::open(std::path::Path::new(path)).map_err(io)?)
    };
    count_reader(path, raw, columns, summary)
}

/// Reads a log from `raw` (named `path` in messages) into `summary`.
///
/// # Errors
/// As `count_log`.
pub(crate) fn count_reader(
    path: &str,
    raw: Box<dyn Read + '_>,
    columns: &LogColumns,
    summary: &mut KeysSummary,
) -> Result<(), Error> {
    let io = |e: std::io::Error| {
        crate::bounded::refusal(&e).unwrap_or_else(|| {
            Error::input(format!("`{path}` cannot be read ({e})"))
                .file(path)
                .help("Consider checking the path.")
        })
    };
    let mut reader = BufReader::with_capacity(1 << 20, raw);
    let gzip = reader.fill_buf().map_err(io)?.starts_with(&[0x1f, 0x8b]);
    let mut reader: Box<dyn BufRead + '_> = if gzip {
        Box::new(BufReader::with_capacity(
            1 << 20,
            crate::bounded::Bounded::whole_file(flate2::read::MultiGzDecoder::new(reader), path),
        ))
    } else {
        Box::new(reader)
    };
    let json = reader
        .fill_buf()
        .map_err(io)?
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        == Some(&b'{');
    let reader: Box<dyn BufRead + '_> = Box::new(BufReader::with_capacity(
        1 << 16,
        LineCap {
            inner: reader,
            since_newline: 0,
        },
    ));
    if json {
        json_lines(path, reader, columns, summary)
    } else {
        csv_lines(path, reader, columns, summary)
    }
}

/// The longest log line read: an access log line is a few hundred bytes; past this the log
/// is refused at that line instead of growing memory without bound.
pub(crate) const MAX_LOG_LINE_BYTES: u64 = 1 << 20;

/// A reader that fails once a line runs past `MAX_LOG_LINE_BYTES` without a newline.
struct LineCap<R> {
    inner: R,
    since_newline: u64,
}

impl<R: Read> Read for LineCap<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let got = buf.get(..n).unwrap_or_default();
        match memchr::memrchr(b'\n', got) {
            Some(last) => self.since_newline = (n.saturating_sub(last).saturating_sub(1)) as u64,
            None => self.since_newline = self.since_newline.saturating_add(n as u64),
        }
        if self.since_newline > MAX_LOG_LINE_BYTES {
            return Err(std::io::Error::other(format!(
                "a line longer than {MAX_LOG_LINE_BYTES} bytes (an access log line is a few hundred)"
            )));
        }
        Ok(n)
    }
}

fn line_error(path: &str, line: u64, why: String) -> Error {
    Error::input(why).file(path).at(Some((line, 1)))
}

fn csv_lines(
    path: &str,
    reader: Box<dyn BufRead + '_>,
    columns: &LogColumns,
    summary: &mut KeysSummary,
) -> Result<(), Error> {
    let mut csv = csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(reader);
    let headers = csv
        .headers()
        .map_err(|e| line_error(path, 1, format!("not a CSV access log: {e}")))?
        .clone();
    let find = |name: &str| headers.iter().position(|h| h.trim() == name);
    let need = |name: &str, what: &str| {
        find(name).ok_or_else(|| {
            line_error(
                path,
                1,
                format!(
                    "the log has no `{name}` column ({what}); its columns are {}",
                    headers.iter().collect::<Vec<_>>().join(", ")
                ),
            )
            .help(format!(
                "Consider `--log-{} COLUMN` naming the column that holds it.",
                if what.starts_with("the key") {
                    "key"
                } else {
                    "operation"
                }
            ))
        })
    };
    let key = need(&columns.key, "the key value")?;
    let op = need(&columns.operation, "read or write")?;
    let units = find(&columns.units);
    let size = find(&columns.size);
    let index = find(&columns.index);
    let mut record = csv::StringRecord::new();
    loop {
        let line = csv.position().line();
        match csv.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                return Err(line_error(path, line, format!("unreadable CSV line: {e}")));
            }
        }
        let get = |at: Option<usize>| at.and_then(|i| record.get(i)).map(str::to_string);
        let fields = Fields {
            key: get(Some(key)),
            operation: get(Some(op)),
            units: get(units),
            size: get(size),
            index: get(index),
        };
        add_line(path, line, &fields, columns, summary)?;
    }
    Ok(())
}

fn json_lines(
    path: &str,
    mut reader: Box<dyn BufRead + '_>,
    columns: &LogColumns,
    summary: &mut KeysSummary,
) -> Result<(), Error> {
    let mut buf = Vec::with_capacity(4096);
    let mut line = 0u64;
    loop {
        buf.clear();
        let n = reader.read_until(b'\n', &mut buf).map_err(|e| {
            line_error(
                path,
                line.saturating_add(1),
                format!("`{path}` cannot be read ({e})"),
            )
        })?;
        if n == 0 {
            break;
        }
        line = line.saturating_add(1);
        if buf.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let mut de = serde_json::Deserializer::from_slice(&buf);
        let fields = LineSeed(columns)
            .deserialize(&mut de)
            .and_then(|f| de.end().map(|()| f))
            .map_err(|e| line_error(path, line, format!("unreadable JSON log line: {e}")))?;
        add_line(path, line, &fields, columns, summary)?;
    }
    Ok(())
}

/// Reads the wanted fields of one JSON line (strings or numbers) and skips the rest.
struct LineSeed<'a>(&'a LogColumns);

impl<'de> DeserializeSeed<'de> for LineSeed<'_> {
    type Value = Fields;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Fields, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for LineSeed<'_> {
    type Value = Fields;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object per line")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
        let c = self.0;
        let mut f = Fields::default();
        while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let slot = if name == c.key.as_str() {
                &mut f.key
            } else if name == c.operation.as_str() {
                &mut f.operation
            } else if name == c.units.as_str() {
                &mut f.units
            } else if name == c.size.as_str() {
                &mut f.size
            } else if name == c.index.as_str() {
                &mut f.index
            } else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            *slot = map.next_value::<Scalar>()?.0;
        }
        Ok(f)
    }
}

/// A JSON string or number, as text (`null`: absent).
struct Scalar(Option<String>);

impl<'de> serde::Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or a number")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar(Some(v.to_string())))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar, E> {
                Ok(Scalar(Some(v.to_string())))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scalar, E> {
                Ok(Scalar(Some(v.to_string())))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Scalar, E> {
                // serde_json hands decimals as floats; their shortest text is what was written
                // for the short decimals logs hold (0.5, 1.5).
                Ok(Scalar(Some(v.to_string())))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Scalar, E> {
                Ok(Scalar(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// A non-negative number of halves: `text` × 2, which must be whole.
fn halves(text: &str) -> Option<u64> {
    let d: Decimal = text.trim().parse().ok()?;
    if d.is_sign_negative() {
        return None;
    }
    let h = d.checked_mul(Decimal::TWO)?;
    if !h.fract().is_zero() {
        return None;
    }
    u64::try_from(h).ok()
}

fn add_line(
    path: &str,
    line: u64,
    f: &Fields,
    columns: &LogColumns,
    summary: &mut KeysSummary,
) -> Result<(), Error> {
    let err = |why: String| line_error(path, line, why);
    // An empty key is no key: DynamoDB refuses an empty key attribute, so a line without
    // one is a line the log cannot have meant.
    let key = f
        .key
        .as_deref()
        .filter(|k| !k.is_empty())
        .ok_or_else(|| err(format!("the line has no `{}` (the key value)", columns.key)))?;
    let op_text = f.operation.as_deref().unwrap_or_default();
    let (kind, multiple) = operation(op_text).ok_or_else(|| {
        err(format!(
            "unknown operation `{op_text}` in `{}`; expected one of {OPERATIONS}",
            columns.operation
        ))
        .help("Consider `--log-operation COLUMN` if another column holds the operation.")
    })?;
    let units = match (
        f.units.as_deref().filter(|u| !u.trim().is_empty()),
        f.size.as_deref().filter(|s| !s.trim().is_empty()),
    ) {
        (Some(u), _) => halves(u).ok_or_else(|| {
            err(format!(
                "units `{u}` in `{}` are not a non-negative multiple of 0.5",
                columns.units
            ))
        })?,
        (None, Some(s)) => {
            let bytes: u64 = s.trim().parse().map_err(|_| {
                err(format!(
                    "item size `{s}` in `{}` is not a whole number of bytes",
                    columns.size
                ))
            })?;
            let unit = match kind {
                Kind::Read => 4096,
                Kind::Write => 1024,
            };
            bytes
                .div_ceil(unit)
                .max(1)
                .saturating_mul(multiple)
                .saturating_mul(2)
        }
        (None, None) => multiple.saturating_mul(2),
    };
    let target = match f.index.as_deref().map(str::trim).filter(|i| !i.is_empty()) {
        None => 0,
        Some(name) => summary
            .attributes
            .iter()
            .position(|a| a.index.as_deref() == Some(name))
            .ok_or_else(|| {
                err(format!(
                    "index `{name}` in `{}` is not one of the indexes measured",
                    columns.index
                ))
                .help(format!(
                    "Consider `--index {name}:ATTR` naming its partition key, or a workload that has it."
                ))
            })?,
    };
    let counts = match kind {
        Kind::Read => Counts {
            read_halves: units,
            ..Counts::default()
        },
        Kind::Write => Counts {
            write_halves: units,
            ..Counts::default()
        },
    };
    summary.attributes[target]
        .counter
        .add(key.as_bytes(), &counts)
        .map_err(|why| err(format!("cannot count this line: {why}")))?;
    summary.log_lines = summary.log_lines.saturating_add(1);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_and_units() {
        assert_eq!(operation("GetItem"), Some((Kind::Read, 1)));
        assert_eq!(operation("batch-write"), Some((Kind::Write, 1)));
        assert_eq!(operation("TransactWriteItems"), Some((Kind::Write, 2)));
        assert_eq!(operation("W"), Some((Kind::Write, 1)));
        assert_eq!(operation("Delete_Item"), Some((Kind::Write, 1)));
        assert_eq!(operation("ListTables"), None);
        // 1.5 units = 3 halves; 0.5 = 1; 0.25 is not a multiple of 0.5; −1 refused.
        assert_eq!(halves("1.5"), Some(3));
        assert_eq!(halves("0.5"), Some(1));
        assert_eq!(halves("0.25"), None);
        assert_eq!(halves("-1"), None);
        assert_eq!(halves("x"), None);
    }
}
