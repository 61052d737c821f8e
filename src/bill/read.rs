//! Reading bill files as streams of rows: CSV (plain or `.gz`, as Data Exports and the
//! legacy CUR deliver it, or as an Athena query returns it) through the csv crate, one
//! record at a time; Parquet through Apache's `parquet` crate, row group by row group, only
//! the columns ddbcost reads; a delivery folder through its `Manifest.json` (Data Exports'
//! `dataFiles`, the legacy CUR's `reportKeys`), every part named there required, or else
//! every data file under it. Memory is one record (or one row group), never the file.

use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use super::columns::Dialect;
use super::parse::{Layout, fill};
use super::row::Row;
use crate::error::Error;

/// What a reader hands each row to.
pub(crate) type Sink<'s> = dyn FnMut(&Row) -> Result<(), Error> + 's;

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

/// The data files of `input`, and what was left out and why: itself, or a folder's parts.
/// A folder with manifests is read as AWS delivers it: the manifests are grouped by billing
/// period (`billingPeriod`, or the `BILLING_PERIOD=YYYY-MM` / `yyyymmdd-yyyymmdd` folder), and
/// of several deliveries of one period only the current one is read — the manifest at the
/// period's own folder (the legacy CUR's, which points at the latest assembly; Data Exports'
/// when it overwrites), else the one delivery there is; a data file no chosen manifest lists
/// is named and left out. A folder without manifests is every data file under it.
///
/// # Errors
/// A path that is neither; a manifest naming a part that is not there; several deliveries of
/// one period and no manifest saying which is current.
pub(crate) fn files(input: &Path) -> Result<(Vec<PathBuf>, Vec<String>), Error> {
    crate::confine::check(input)?;
    let meta = crate::confine::metadata(input).map_err(|e| cannot(input, &e))?;
    if meta.is_file {
        return Ok((vec![input.to_path_buf()], Vec::new()));
    }
    if !meta.is_dir {
        return Err(
            Error::input(format!("`{}` is not a file or a folder", input.display()))
                .file(input.display().to_string())
                .help("Consider saving the bill to a file first."),
        );
    }
    let mut all = Vec::new();
    walk(input, &mut all, &mut std::collections::HashSet::new())?;
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
        return Ok((data, Vec::new()));
    }
    let mut by_period: std::collections::BTreeMap<String, Vec<Manifest>> =
        std::collections::BTreeMap::new();
    for m in manifests {
        let manifest = manifest(m)?;
        by_period
            .entry(manifest.period.clone())
            .or_default()
            .push(manifest);
    }
    // The data files by name: each key of a manifest is looked up, not searched for.
    let mut by_name: std::collections::HashMap<&std::ffi::OsStr, Vec<&PathBuf>> =
        std::collections::HashMap::new();
    for p in &data {
        if let Some(name) = p.file_name() {
            by_name.entry(name).or_default().push(p);
        }
    }
    let mut out = Vec::new();
    let mut taken: std::collections::HashSet<&PathBuf> = std::collections::HashSet::new();
    let mut notes = Vec::new();
    for (period, deliveries) in by_period {
        let chosen = current(&period, deliveries, input)?;
        for key in &chosen.parts {
            // An S3 key: match it by its path below the export (`…/data/BILLING_PERIOD=…/x`).
            let name = std::ffi::OsStr::new(key.rsplit('/').next().unwrap_or(key));
            let candidates = by_name.get(name).map(Vec::as_slice).unwrap_or_default();
            let found = candidates.iter().copied().find(|p| key_matches(key, p)).ok_or_else(|| {
                Error::input(format!(
                    "`{}` names the part `{key}`, which is not in `{}`",
                    chosen.path.display(),
                    input.display()
                ))
                .file(chosen.path.display().to_string())
                .help("Consider copying the whole delivery (every part the manifest lists): a bill without one of its parts is not the bill.")
            })?;
            if taken.insert(found) {
                out.push(found.clone());
            }
        }
        if let Some(note) = chosen.note {
            notes.push(note);
        }
    }
    let unlisted: Vec<String> = data
        .iter()
        .filter(|p| !taken.contains(p))
        .map(|p| p.display().to_string())
        .collect();
    if !unlisted.is_empty() {
        notes.push(format!(
            "{} data file(s) under `{}` that no current manifest lists, left out (an earlier delivery, or a file that is not the bill's): {}",
            unlisted.len(),
            input.display(),
            unlisted.join(", ")
        ));
    }
    Ok((out, notes))
}

/// A manifest: where it is, the billing period it delivers, the parts it lists, and whether
/// it sits at its period's own folder (not in a delivery's subfolder).
struct Manifest {
    path: PathBuf,
    period: String,
    at_period: bool,
    parts: Vec<String>,
}

/// The delivery of `period` to read, and what was left out of it.
struct Chosen {
    path: PathBuf,
    parts: Vec<String>,
    note: Option<String>,
}

/// Of the deliveries of one period: the one at the period's folder, else the only one (or
/// several listing the same parts); else refused.
fn current(period: &str, mut deliveries: Vec<Manifest>, input: &Path) -> Result<Chosen, Error> {
    let names = |d: &[Manifest]| {
        d.iter()
            .map(|m| format!("`{}`", m.path.display()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all = names(&deliveries);
    let count = deliveries.len();
    let pick = if count == 1 {
        deliveries.pop()
    } else if deliveries.iter().filter(|m| m.at_period).count() == 1 {
        deliveries.into_iter().find(|m| m.at_period)
    } else if deliveries
        .windows(2)
        .all(|w| w.first().map(|m| &m.parts) == w.get(1).map(|m| &m.parts))
    {
        deliveries.pop()
    } else {
        None
    };
    let m = pick.ok_or_else(|| {
        Error::input(format!(
            "`{}` holds {count} deliveries of billing period {period} ({all}) and none is the period's current manifest",
            input.display()
        ))
        .file(input.display().to_string())
        .help("Consider the folder of one delivery (the latest), or the period's own folder with the manifest AWS keeps current there: each delivery is the whole bill again, so reading two would count it twice.")
    })?;
    let note = (count > 1).then(|| {
        format!(
            "billing period {period}: {count} deliveries in `{}`; read the current one, `{}` (each delivery is the whole bill again)",
            input.display(),
            m.path.display()
        )
    });
    Ok(Chosen {
        path: m.path,
        parts: m.parts,
        note,
    })
}

/// The billing period a path names: a `BILLING_PERIOD=YYYY-MM` folder (Data Exports), or a
/// `yyyymmdd-yyyymmdd` one (the legacy CUR), with the index of that component.
fn period_in_path(path: &Path) -> Option<(String, usize)> {
    let parts: Vec<String> = path
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    parts.iter().enumerate().rev().find_map(|(i, c)| {
        if let Some(p) = c.strip_prefix("BILLING_PERIOD=") {
            return Some((p.to_string(), i));
        }
        let b = c.as_bytes();
        (b.len() == 17
            && b.get(8) == Some(&b'-')
            && c.bytes().filter(u8::is_ascii_digit).count() == 16)
            .then(|| (format!("{}-{}", &c[..4], &c[4..6]), i))
    })
}

/// Reads a manifest: Data Exports' `dataFiles` or the legacy CUR's `reportKeys`, its
/// `billingPeriod.start` (`20261101T000000.000Z` or ISO 8601), else the period its folder
/// names, else its folder.
fn manifest(path: &Path) -> Result<Manifest, Error> {
    let doc = read_manifest(path)?;
    let parts = manifest_parts(&doc, path)?;
    let stated = doc
        .get("billingPeriod")
        .and_then(|b| b.get("start"))
        .and_then(serde_json::Value::as_str)
        .and_then(|s| {
            let digits: String = s.chars().filter(char::is_ascii_digit).take(6).collect();
            (digits.len() == 6).then(|| format!("{}-{}", &digits[..4], &digits[4..]))
        });
    let in_path = period_in_path(path);
    let depth = path.iter().count();
    let at_period = in_path
        .as_ref()
        .is_some_and(|(_, i)| i.saturating_add(2) == depth);
    let period = stated
        .or_else(|| in_path.map(|(p, _)| p))
        .unwrap_or_else(|| {
            path.parent()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        });
    Ok(Manifest {
        path: path.to_path_buf(),
        period,
        at_period,
        parts,
    })
}

fn read_manifest(path: &Path) -> Result<serde_json::Value, Error> {
    let mut text = String::new();
    crate::confine::open(path)
        .and_then(|f| f.take(64 << 20).read_to_string(&mut text))
        .map_err(|e| cannot(path, &e))?;
    serde_json::from_str(&text).map_err(|e| cannot(path, &format!("not JSON ({e})")))
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

/// Every regular file under `dir`, symlinks followed (beneath the root with one), each
/// folder walked once however many links lead to it.
fn walk(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    seen: &mut std::collections::HashSet<(u64, u64)>,
) -> Result<(), Error> {
    for entry in crate::confine::read_dir(dir).map_err(|e| cannot(dir, &e))? {
        if entry.meta.is_dir {
            if seen.insert(entry.meta.id) {
                walk(&entry.path, out, seen)?;
            }
        } else if entry.meta.is_file {
            out.push(entry.path);
        }
    }
    Ok(())
}

/// The parts a manifest lists: Data Exports' `dataFiles`, the legacy CUR's `reportKeys`.
fn manifest_parts(doc: &serde_json::Value, path: &Path) -> Result<Vec<String>, Error> {
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
            let f = crate::confine::open(path).map_err(|e| cannot(path, &e))?;
            csv(
                flate2::read::MultiGzDecoder::new(BufReader::new(f)),
                &path.display().to_string(),
                sink,
            )
        }
        _ => {
            let f = crate::confine::open(path).map_err(|e| cannot(path, &e))?;
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
    let (r, mark) = crate::bounded::Bounded::new(r, file);
    let mut reader = ::csv::ReaderBuilder::new().flexible(false).from_reader(r);
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| csv_error(&e, file, 0))?
        .iter()
        .map(|h| h.trim_start_matches('\u{feff}').trim().to_string())
        .collect();
    let refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let layout = Layout::of(&refs, file)?;
    let mut record = ::csv::StringRecord::new();
    let mut buffer = Row::default();
    let mut n = 0u64;
    loop {
        mark.record_ends();
        let more = reader
            .read_record(&mut record)
            .map_err(|e| csv_error(&e, file, n.saturating_add(1)))?;
        if !more {
            return Ok(layout.dialect);
        }
        n = n.saturating_add(1);
        let get = |i: usize| record.get(i);
        fill(&layout, &get, file, n, &mut buffer)?;
        sink(&buffer)?;
    }
}

/// A CSV reader's error, said for what it is: a passed budget, a damaged compressed file,
/// or a row that does not fit the header (`row` 0: the header).
fn csv_error(e: &::csv::Error, file: &str, row: u64) -> Error {
    let at = if row == 0 {
        "the header".to_string()
    } else {
        format!("row {row}")
    };
    match e.kind() {
        ::csv::ErrorKind::Io(io) => crate::bounded::refusal(io).unwrap_or_else(|| {
            Error::input(format!("cannot read {at}: {io}"))
                .file(file)
                .help("Consider downloading the file again: it does not read back as written (a compressed file that is damaged or cut short fails its checksum).")
        }),
        ::csv::ErrorKind::UnequalLengths { .. } => Error::input(format!("{at}: {e}"))
            .file(file)
            .help("Consider the file as AWS delivered it: a row with another count of fields is a cut or edited file."),
        _ if row == 0 => Error::input(format!("not CSV ({e})")).file(file),
        _ => Error::input(format!("{at}: {e}"))
            .file(file)
            .help("Consider the file as AWS delivered it (UTF-8 CSV)."),
    }
}
