//! Reading items from files for `ddbcost size`: files and directories (export-to-S3 folders),
//! gzip-compressed or not, one item per line (the export format, JSON Lines) or a single
//! (pretty-printed) item per file. Memory stays constant: lines are read into one reused
//! buffer, and sizes go into a fixed histogram. Large uncompressed files are split into
//! line-aligned chunks and, like separate files, sized on all cores.
//!
//! This module reads files; the sizing itself (`item`, `rules`, `summary`) is pure.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::item::{Shape, detect_shape, size_item};
use super::rules::MAX_ITEM_BYTES;
use super::summary::Summary;
use crate::error::Error;

/// Chunks of an uncompressed file handed to one thread.
const CHUNK_BYTES: u64 = 32 * 1024 * 1024;

/// An index to measure: its key attributes and projection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexSpec {
    pub name: String,
    pub keys: Vec<String>,
    pub projection: IndexProjection,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexProjection {
    KeysOnly,
    Include(Vec<String>),
    All,
}

/// What to measure and how.
#[derive(Debug, Clone, Default)]
pub struct ScanOptions {
    /// Force a shape instead of detecting it per file.
    pub shape: Option<Shape>,
    /// Stop at the first malformed item instead of counting it.
    pub strict: bool,
    /// Worker threads (0 = all cores).
    pub jobs: usize,
    /// The table's key attributes (for index entries).
    pub table_keys: Vec<String>,
    pub indexes: Vec<IndexSpec>,
    /// Bytes per chunk a large uncompressed file is split into (`None`: 32 MiB). Tests set
    /// it small to run the chunked, parallel path on small files.
    pub chunk_bytes: Option<u64>,
}

/// One item's measurement, for `--per-item`.
#[derive(Debug, Clone)]
pub struct ItemRow {
    pub file: String,
    pub line: u64,
    pub bytes: u64,
}

/// The files named by `inputs`: files as given, directories walked (sorted) for `.json`,
/// `.jsonl`, `.ndjson` and `.gz` files, skipping export manifests.
///
/// # Errors
/// A path that does not exist or cannot be read.
pub fn expand(inputs: &[String]) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for input in inputs {
        let path = Path::new(input);
        let meta = std::fs::metadata(path).map_err(|e| {
            Error::input(format!("`{input}` cannot be read ({e})"))
                .file(input.as_str())
                .help("Consider checking the path.")
        })?;
        if meta.is_dir() {
            walk(path, &mut out).map_err(|e| {
                Error::input(format!("cannot list `{input}`: {e}")).file(input.as_str())
            })?;
        } else if meta.is_file() {
            out.push(path.to_path_buf());
        } else {
            return Err(
                Error::input(format!("`{input}` is not a regular file or directory"))
                    .file(input.as_str()),
            );
        }
    }
    if out.is_empty() {
        return Err(Error::input("no item files found")
            .help("Consider a file of items, or an export folder with .json or .json.gz files."));
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if p.is_dir() {
            walk(&p, out)?;
        } else if !name.starts_with("manifest-")
            && [".json", ".jsonl", ".ndjson", ".gz"]
                .iter()
                .any(|s| name.ends_with(s))
        {
            out.push(p);
        }
    }
    Ok(())
}

/// A piece of work: a whole file (compressed, small, or not line-delimited) or a byte range
/// of a large uncompressed one.
#[derive(Debug, Clone)]
struct Unit {
    file: usize,
    start: u64,
    end: u64,
    whole: bool,
}

/// What a unit reports besides the sizes it adds to its worker's summary: lines read, the
/// first malformed item (strict mode), and examples of bad items, by line within the unit.
struct UnitDone {
    lines: u64,
    failure: Option<(u64, String)>,
    examples: Vec<(u64, String)>,
}

fn is_gzip(path: &Path) -> std::io::Result<bool> {
    let mut magic = [0u8; 2];
    let n = File::open(path)?.read(&mut magic)?;
    Ok(n == 2 && magic == [0x1f, 0x8b])
}

/// Whether a file holds one JSON document per line (its first line is a whole document).
fn line_delimited(path: &Path) -> std::io::Result<bool> {
    if is_gzip(path)? {
        return Ok(true);
    }
    let mut first = Vec::new();
    BufReader::new(File::open(path)?)
        .take(1 << 20)
        .read_until(b'\n', &mut first)?;
    let first = trim(&first);
    Ok(first.is_empty() || serde_json::from_slice::<serde::de::IgnoredAny>(first).is_ok())
}

fn trim(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |e| e.saturating_add(1));
    &line[start..end]
}

fn io_error(path: &Path, e: &std::io::Error) -> Error {
    let name = path.display().to_string();
    Error::input(format!("`{name}` cannot be read ({e})")).file(name)
}

/// Sizes every item in `files`, on `options.jobs` threads.
///
/// # Errors
/// An unreadable file; with `strict`, the first malformed item (file and line).
pub fn scan(files: &[PathBuf], options: &ScanOptions) -> Result<Summary, Error> {
    let mut units = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let len = std::fs::metadata(f).map_err(|e| io_error(f, &e))?.len();
        let chunk = options.chunk_bytes.unwrap_or(CHUNK_BYTES).max(1);
        let splittable = len > chunk
            && !is_gzip(f).map_err(|e| io_error(f, &e))?
            && line_delimited(f).map_err(|e| io_error(f, &e))?;
        if splittable {
            let mut start = 0;
            while start < len {
                let end = start.saturating_add(chunk).min(len);
                units.push(Unit {
                    file: i,
                    start,
                    end,
                    whole: false,
                });
                start = end;
            }
        } else {
            units.push(Unit {
                file: i,
                start: 0,
                end: len,
                whole: true,
            });
        }
    }
    let jobs = if options.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.jobs
    };
    let names: Vec<String> = options.indexes.iter().map(|i| i.name.clone()).collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Result<UnitDone, Error>>>> =
        Mutex::new((0..units.len()).map(|_| None).collect());
    let workers: Vec<Option<Summary>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs.clamp(1, units.len().max(1)))
            .map(|_| {
                s.spawn(|| {
                    let mut summary = Summary::with_indexes(&names);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= units.len() || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let unit = &units[i];
                        let done = run_unit(
                            &files[unit.file],
                            unit,
                            options,
                            &stop,
                            &mut summary,
                            &mut |_, _| Ok(()),
                        );
                        if options.strict && matches!(&done, Ok(d) if d.failure.is_some()) {
                            stop.store(true, Ordering::Relaxed);
                        }
                        // A poisoned lock means another worker panicked: the run fails below.
                        if let Ok(mut r) = results.lock() {
                            r[i] = Some(done);
                        }
                    }
                    summary
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().ok()).collect()
    });
    // A worker that panicked took its items with it: fail the run rather than report a
    // summary that silently misses them.
    let worker_failed = || {
        Error::input("a worker thread failed while sizing items; no summary is reported")
            .help("Consider `--jobs 1`, and report the input that caused it.")
    };
    let workers: Vec<Summary> = workers
        .into_iter()
        .collect::<Option<_>>()
        .ok_or_else(worker_failed)?;
    let results = results.into_inner().map_err(|_| worker_failed())?;
    let mut total = Summary::with_indexes(&names);
    for w in &workers {
        total
            .merge(w)
            .map_err(|why| Error::input(format!("cannot add up the item counts: {why}")))?;
    }
    total.files = u64::try_from(files.len()).unwrap_or(u64::MAX);
    // Lines are counted per unit; a chunk's line numbers start after the chunks before it.
    let mut line_offset = vec![0u64; files.len()];
    let stopped = stop.load(Ordering::Relaxed);
    for (unit, done) in units.iter().zip(results) {
        let Some(done) = done else {
            if stopped {
                continue; // not run after a strict stop
            }
            return Err(worker_failed());
        };
        let done = done?;
        let name = files[unit.file].display().to_string();
        let offset = line_offset[unit.file];
        if let Some((line, message)) = done.failure {
            return Err(strict_error(message, name, offset.saturating_add(line)));
        }
        for (line, message) in done.examples {
            total.example(format!("{name}:{}: {message}", offset.saturating_add(line)));
        }
        line_offset[unit.file] = line_offset[unit.file].saturating_add(done.lines);
    }
    Ok(total)
}

fn strict_error(message: String, file: String, line: u64) -> Error {
    Error::input(message).file(file).at(Some((line, 1))).help(
        "Consider fixing the item, or running without --strict to count malformed items and go on.",
    )
}

/// Streams each item's size, in file order, to `row` (for `--per-item`; one thread, constant
/// memory).
///
/// # Errors
/// As `scan`, or what `row` returns.
pub fn each_item(
    files: &[PathBuf],
    options: &ScanOptions,
    row: &mut dyn FnMut(ItemRow) -> Result<(), Error>,
) -> Result<Summary, Error> {
    let names: Vec<String> = options.indexes.iter().map(|i| i.name.clone()).collect();
    let mut total = Summary::with_indexes(&names);
    let stop = AtomicBool::new(false);
    for (i, path) in files.iter().enumerate() {
        let name = path.display().to_string();
        let len = std::fs::metadata(path)
            .map_err(|e| io_error(path, &e))?
            .len();
        let unit = Unit {
            file: i,
            start: 0,
            end: len,
            whole: true,
        };
        let mut each = |line: u64, bytes: u64| {
            row(ItemRow {
                file: name.clone(),
                line,
                bytes,
            })
        };
        let done = run_unit(path, &unit, options, &stop, &mut total, &mut each)?;
        if let Some((line, message)) = done.failure {
            return Err(strict_error(message, name, line));
        }
        for (line, message) in done.examples {
            total.example(format!("{name}:{line}: {message}"));
        }
    }
    total.files = u64::try_from(files.len()).unwrap_or(u64::MAX);
    Ok(total)
}

/// Reads one unit, adding its items to `summary` and calling `each(line, bytes)` per item.
fn run_unit(
    path: &Path,
    unit: &Unit,
    options: &ScanOptions,
    stop: &AtomicBool,
    summary: &mut Summary,
    each: &mut dyn FnMut(u64, u64) -> Result<(), Error>,
) -> Result<UnitDone, Error> {
    let io = |e: std::io::Error| io_error(path, &e);
    let file = File::open(path).map_err(io)?;
    summary.input_bytes = summary
        .input_bytes
        .saturating_add(unit.end.saturating_sub(unit.start));
    let wanted = wanted_attributes(options);
    let mut done = UnitDone {
        lines: 0,
        failure: None,
        examples: Vec::new(),
    };
    let gzip = is_gzip(path).map_err(io)?;
    let mut reader: Box<dyn BufRead> = if gzip {
        Box::new(BufReader::with_capacity(
            1 << 20,
            flate2::read::MultiGzDecoder::new(file),
        ))
    } else {
        let mut f = file;
        f.seek(SeekFrom::Start(unit.start)).map_err(io)?;
        Box::new(BufReader::with_capacity(1 << 20, f))
    };
    if unit.whole && !line_delimited(path).map_err(io)? {
        // One (pretty-printed) document per file: read it whole, within a bound. A document
        // past the bound cannot hold an item of at most 400 KB.
        let bound = MAX_ITEM_BYTES * 16;
        let mut text = Vec::new();
        reader.take(bound + 1).read_to_end(&mut text).map_err(io)?;
        done.lines = 1;
        if text.len() as u64 > bound {
            summary.oversized = summary.oversized.saturating_add(1);
            done.examples.push((1, format!("a document of more than {bound} bytes: its item is over the 400 KB (409,600 B) limit")));
            return Ok(done);
        }
        let text = trim(&text);
        let shape = options.shape.unwrap_or_else(|| detect_shape(text));
        measure(text, 1, shape, options, &wanted, summary, &mut done, each)?;
        return Ok(done);
    }
    let mut pos = unit.start;
    let mut line = Vec::with_capacity(64 * 1024);
    if !unit.whole && unit.start > 0 {
        // A line straddling the chunk's start belongs to the chunk before.
        let mut byte = [0u8; 1];
        let mut before = File::open(path).map_err(io)?;
        before
            .seek(SeekFrom::Start(unit.start.saturating_sub(1)))
            .map_err(io)?;
        before.read_exact(&mut byte).map_err(io)?;
        if byte[0] != b'\n' {
            pos = pos.saturating_add(reader.read_until(b'\n', &mut line).map_err(io)? as u64);
        }
    }
    let mut shape = options.shape;
    loop {
        if !unit.whole && pos >= unit.end {
            break;
        }
        line.clear();
        let n = reader.read_until(b'\n', &mut line).map_err(io)?;
        if n == 0 {
            break;
        }
        pos = pos.saturating_add(n as u64);
        done.lines = done.lines.saturating_add(1);
        let text = trim(&line);
        if text.is_empty() {
            continue;
        }
        let s = *shape.get_or_insert_with(|| detect_shape(text));
        let line_no = done.lines;
        if !measure(text, line_no, s, options, &wanted, summary, &mut done, each)?
            || (options.strict && stop.load(Ordering::Relaxed))
        {
            break;
        }
    }
    Ok(done)
}

/// Sizes one item into `summary`; `Ok(false)` when a strict scan must stop.
#[allow(clippy::too_many_arguments)]
fn measure(
    text: &[u8],
    line: u64,
    shape: Shape,
    options: &ScanOptions,
    wanted: &[String],
    summary: &mut Summary,
    done: &mut UnitDone,
    each: &mut dyn FnMut(u64, u64) -> Result<(), Error>,
) -> Result<bool, Error> {
    match size_item(text, shape, wanted) {
        Ok(size) if size.bytes > MAX_ITEM_BYTES => {
            summary.oversized = summary.oversized.saturating_add(1);
            if done.examples.len() < 20 {
                done.examples.push((
                    line,
                    format!(
                        "item of {} bytes is over the 400 KB (409,600 B) limit",
                        size.bytes
                    ),
                ));
            }
            each(line, size.bytes)?;
        }
        Ok(size) => {
            summary.sizes.add(size.bytes);
            index_entries(&size, options, wanted, summary);
            each(line, size.bytes)?;
        }
        Err(e) => {
            // serde_json counts lines within the document: for one item per line that is the
            // column; for a pretty-printed file, the line.
            let inner = e.to_string();
            let why = inner
                .rsplit_once(" at line ")
                .map_or(inner.as_str(), |(w, _)| w);
            let line = line.saturating_add(e.line().saturating_sub(1) as u64);
            let message = format!("malformed item: {why} (column {})", e.column());
            if options.strict {
                done.failure = Some((line, message));
                return Ok(false);
            }
            summary.bad = summary.bad.saturating_add(1);
            if done.examples.len() < 20 {
                done.examples.push((line, message));
            }
        }
    }
    Ok(true)
}

/// Attribute names whose sizes index entries need: table keys, index keys, included ones.
fn wanted_attributes(options: &ScanOptions) -> Vec<String> {
    let mut out: Vec<String> = options.table_keys.clone();
    for index in &options.indexes {
        out.extend(index.keys.iter().cloned());
        if let IndexProjection::Include(names) = &index.projection {
            out.extend(names.iter().cloned());
        }
    }
    out.sort();
    out.dedup();
    out
}

/// An item's entry in each index: table keys + index keys (+ included attributes), or the
/// whole item for ALL; an item lacking an index key attribute is not in the index.
fn index_entries(
    size: &super::item::ItemSize,
    options: &ScanOptions,
    wanted: &[String],
    summary: &mut Summary,
) {
    let attr = |name: &str| {
        wanted
            .iter()
            .position(|w| w == name)
            .and_then(|i| size.attributes.iter().find(|(j, _)| *j == i))
            .map(|(_, b)| *b)
    };
    for (spec, out) in options.indexes.iter().zip(summary.indexes.iter_mut()) {
        if spec.keys.iter().any(|k| attr(k).is_none()) {
            out.skipped = out.skipped.saturating_add(1);
            continue;
        }
        let entry = match &spec.projection {
            IndexProjection::All => size.bytes,
            projection => {
                let mut names: Vec<&str> = options
                    .table_keys
                    .iter()
                    .chain(&spec.keys)
                    .map(String::as_str)
                    .collect();
                if let IndexProjection::Include(included) = projection {
                    names.extend(included.iter().map(String::as_str));
                }
                names.sort_unstable();
                names.dedup();
                names.iter().filter_map(|n| attr(n)).sum()
            }
        };
        out.entries.add(entry);
    }
}
