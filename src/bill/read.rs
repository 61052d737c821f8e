//! Reading bill files as streams of rows: CSV (plain or `.gz`, as Data Exports and the
//! legacy CUR deliver it, or as an Athena query returns it) through the csv crate, one
//! record at a time; Parquet through Apache's `parquet` crate, row group by row group, only
//! the columns ddbcost reads; a delivery folder through its `Manifest.json` (Data Exports'
//! `dataFiles`, the legacy CUR's `reportKeys`), every part named there required, or else
//! every data file under it. Memory is one record (or one row group), never the file.

use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use super::columns::Dialect;
use super::parse::{Layout, row};
use super::row::Row;
use crate::error::Error;

/// What a reader hands each row to.
pub(crate) type Sink<'s> = dyn FnMut(Row) -> Result<(), Error> + 's;

/// How a file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Csv,
    CsvGz,
    Parquet,
}

fn format_of(path: &Path) -> Option<Format> {
    let name = path.file_name()?.to_str()?;
    if name.ends_with(".parquet") {
        Some(Format::Parquet)
    } else if name.ends_with(".csv.gz") {
        Some(Format::CsvGz)
    } else if name.ends_with(".csv") {
        Some(Format::Csv)
    } else {
        None
    }
}

fn cannot(path: &Path, e: &dyn std::fmt::Display) -> Error {
    Error::input(format!("cannot read `{}`: {e}", path.display()))
        .file(path.display().to_string())
        .help(
            "Consider the path of a bill file (CSV, .csv.gz or Parquet) or of its delivery folder.",
        )
}

/// The data files of `input`: itself, or a folder's parts (its manifest's, else every data
/// file under it, in name order).
///
/// # Errors
/// A path that is neither; a manifest naming a part that is not there.
pub(crate) fn files(input: &Path) -> Result<Vec<PathBuf>, Error> {
    crate::confine::check(input)?;
    let meta = std::fs::metadata(input).map_err(|e| cannot(input, &e))?;
    if meta.is_file() {
        return Ok(vec![input.to_path_buf()]);
    }
    if !meta.is_dir() {
        return Err(
            Error::input(format!("`{}` is not a file or a folder", input.display()))
                .file(input.display().to_string())
                .help("Consider saving the bill to a file first."),
        );
    }
    let mut all = Vec::new();
    walk(input, &mut all)?;
    all.sort();
    let manifests: Vec<&PathBuf> = all
        .iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with("Manifest.json"))
        })
        .collect();
    let data: Vec<PathBuf> = all
        .iter()
        .filter(|p| format_of(p).is_some())
        .cloned()
        .collect();
    if manifests.is_empty() {
        if data.is_empty() {
            return Err(Error::input(format!("`{}` holds no bill file", input.display()))
                .file(input.display().to_string())
                .help("Consider the delivery folder of a Data Exports or CUR export (its `data/` parts: .csv.gz or .parquet)."));
        }
        return Ok(data);
    }
    let mut out = Vec::new();
    for m in manifests {
        for key in manifest_parts(m)? {
            // An S3 key: match it by its path below the export (`…/data/BILLING_PERIOD=…/x`).
            let found = data.iter().find(|p| key_matches(&key, p)).ok_or_else(|| {
                Error::input(format!(
                    "`{}` names the part `{key}`, which is not in `{}`",
                    m.display(),
                    input.display()
                ))
                .file(m.display().to_string())
                .help("Consider copying the whole delivery (every part the manifest lists): a bill without one of its parts is not the bill.")
            })?;
            if !out.contains(found) {
                out.push(found.clone());
            }
        }
    }
    Ok(out)
}

/// Whether the S3 `key` is the local `path` (their last components agree, at least the
/// file name and its folder when the key has one).
fn key_matches(key: &str, path: &Path) -> bool {
    let key: Vec<&str> = key.rsplit('/').take(2).collect();
    let local: Vec<String> = path
        .iter()
        .rev()
        .take(key.len())
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    key.iter().zip(&local).all(|(k, l)| k == l)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Error> {
    for entry in std::fs::read_dir(dir).map_err(|e| cannot(dir, &e))? {
        let entry = entry.map_err(|e| cannot(dir, &e))?;
        let kind = entry.file_type().map_err(|e| cannot(dir, &e))?;
        if kind.is_dir() {
            walk(&entry.path(), out)?;
        } else if kind.is_file() {
            out.push(entry.path());
        }
    }
    Ok(())
}

/// The parts a manifest lists: Data Exports' `dataFiles`, the legacy CUR's `reportKeys`.
fn manifest_parts(path: &Path) -> Result<Vec<String>, Error> {
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(64 << 20).read_to_string(&mut text))
        .map_err(|e| cannot(path, &e))?;
    let doc: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| cannot(path, &format!("not JSON ({e})")))?;
    let list = doc
        .get("dataFiles")
        .or_else(|| doc.get("reportKeys"))
        .and_then(serde_json::Value::as_array)
        .ok_or_else(|| {
            Error::input("a manifest without `dataFiles` or `reportKeys`")
                .file(path.display().to_string())
                .help("Consider the `Manifest.json` AWS delivered beside the parts.")
        })?;
    Ok(list
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect())
}

/// Reads every row of the data file `path` into `sink`; the dialect read.
///
/// # Errors
/// A file that is not a bill, a column missing, a value that does not parse, a Parquet file
/// that is truncated.
pub(crate) fn read(path: &Path, sink: &mut Sink<'_>) -> Result<Dialect, Error> {
    crate::confine::check(path)?;
    match format_of(path) {
        #[cfg(not(target_arch = "wasm32"))]
        Some(Format::Parquet) => super::parquet::read(path, sink),
        #[cfg(target_arch = "wasm32")]
        Some(Format::Parquet) => Err(Error::input(format!(
            "`{}` is Parquet, which the WebAssembly build does not read",
            path.display()
        ))
        .help("Consider the command line, or the export as CSV.")),
        Some(Format::CsvGz) => {
            let f = std::fs::File::open(path).map_err(|e| cannot(path, &e))?;
            csv(
                flate2::read::MultiGzDecoder::new(BufReader::new(f)),
                &path.display().to_string(),
                sink,
            )
        }
        _ => {
            let f = std::fs::File::open(path).map_err(|e| cannot(path, &e))?;
            csv(
                BufReader::with_capacity(1 << 18, f),
                &path.display().to_string(),
                sink,
            )
        }
    }
}

/// Reads a CSV bill from `r` (named `file`) into `sink`, record by record.
///
/// # Errors
/// A header of no bill; a record that does not parse.
pub(crate) fn csv(r: impl Read, file: &str, sink: &mut Sink<'_>) -> Result<Dialect, Error> {
    let mut reader = ::csv::ReaderBuilder::new().flexible(false).from_reader(r);
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| Error::input(format!("not CSV ({e})")).file(file))?
        .iter()
        .map(|h| h.trim_start_matches('\u{feff}').trim().to_string())
        .collect();
    let refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let layout = Layout::of(&refs, file)?;
    let mut record = ::csv::StringRecord::new();
    let mut n = 0u64;
    loop {
        let more = reader.read_record(&mut record).map_err(|e| {
            Error::input(format!("row {}: {e}", n.saturating_add(1)))
                .file(file)
                .help("Consider the file as AWS delivered it: a row with another count of fields is a cut or edited file.")
        })?;
        if !more {
            return Ok(layout.dialect);
        }
        n = n.saturating_add(1);
        let get = |i: usize| record.get(i);
        sink(row(&layout, &get, file, n)?)?;
    }
}
