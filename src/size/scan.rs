//! Sizing the items `read` hands over, for `ddbcost size`: each item's size into a fixed
//! histogram, each index's entry size (by its keys and projection) into its own, so memory
//! stays constant whatever the number of items.

use std::path::PathBuf;

use super::item::{ItemSize, Shape, size_item};
use super::read::{self, ItemSink, Problem, ReadOptions};
use super::rules::MAX_ITEM_BYTES;
use super::summary::Summary;
use crate::error::Error;

pub(crate) use super::read::expand;

pub(crate) use crate::model::index_spec::{IndexProjection, IndexSpec};

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
    /// Show a progress bar on standard error.
    pub progress: bool,
}

impl ScanOptions {
    /// How the files are read.
    #[must_use]
    pub fn read(&self) -> ReadOptions {
        ReadOptions {
            shape: self.shape,
            strict: self.strict,
            jobs: self.jobs,
            chunk_bytes: self.chunk_bytes,
            progress: self.progress,
        }
    }
}

/// One item's measurement, for `--per-item`.
#[derive(Debug, Clone)]
pub(crate) struct ItemRow {
    pub file: String,
    pub line: u64,
    pub bytes: u64,
}

/// Sizes every item in `files`, on `options.jobs` threads.
///
/// # Errors
/// An unreadable file; with `strict`, the first malformed item (file and line).
pub(crate) fn scan(files: &[PathBuf], options: &ScanOptions) -> Result<Summary, Error> {
    let names: Vec<String> = options.indexes.iter().map(|i| i.name.clone()).collect();
    let wanted = wanted_attributes(options);
    let done = read::read_parallel(files, &options.read(), || SizeSink {
        options,
        wanted: &wanted,
        summary: Summary::with_indexes(&names),
        each: |_, _| Ok(()),
    })?;
    let mut total = Summary::with_indexes(&names);
    for w in &done.sinks {
        total
            .merge(&w.summary)
            .map_err(|why| Error::input(format!("cannot add up the item counts: {why}")))?;
    }
    total.files = u64::try_from(files.len()).unwrap_or(u64::MAX);
    for e in done.examples {
        total.example(e);
    }
    Ok(total)
}

/// Streams each item's size, in file order, to `row` (for `--per-item`; one thread, constant
/// memory).
///
/// # Errors
/// As `scan`, or what `row` returns.
pub(crate) fn each_item(
    files: &[PathBuf],
    options: &ScanOptions,
    row: &mut dyn FnMut(ItemRow) -> Result<(), Error>,
) -> Result<Summary, Error> {
    let names: Vec<String> = options.indexes.iter().map(|i| i.name.clone()).collect();
    let wanted = wanted_attributes(options);
    let mut total = Summary::with_indexes(&names);
    for path in files {
        let name = path.display().to_string();
        let mut each = |line: u64, bytes: u64| {
            row(ItemRow {
                file: name.clone(),
                line,
                bytes,
            })
        };
        let mut sink = SizeSink {
            options,
            wanted: &wanted,
            summary: std::mem::take(&mut total),
            each: &mut each,
        };
        let examples =
            read::read_sequential(std::slice::from_ref(path), &options.read(), &mut sink)?;
        total = sink.summary;
        for e in examples {
            total.example(e);
        }
    }
    total.files = u64::try_from(files.len()).unwrap_or(u64::MAX);
    Ok(total)
}

/// Sizes items into a summary (and, for `--per-item`, each to a row).
struct SizeSink<'a, E> {
    options: &'a ScanOptions,
    wanted: &'a [String],
    summary: Summary,
    /// Called with each item's line and bytes.
    each: E,
}

impl<E: FnMut(u64, u64) -> Result<(), Error>> ItemSink for SizeSink<'_, E> {
    fn input_bytes(&mut self, bytes: u64) {
        self.summary.input_bytes = self.summary.input_bytes.saturating_add(bytes);
    }

    fn oversized_document(&mut self, bound: u64) -> Problem {
        self.summary.oversized = self.summary.oversized.saturating_add(1);
        oversized_document(bound)
    }

    fn oversized_line(&mut self, bytes: u64, line: u64) -> Problem {
        self.summary.oversized = self.summary.oversized.saturating_add(1);
        oversized_line(bytes, line)
    }

    fn item(&mut self, text: &[u8], line: u64, shape: Shape) -> Result<Option<Problem>, Error> {
        let size = match size_item(text, shape, self.wanted) {
            Ok(size) => size,
            Err(e) => {
                self.summary.bad = self.summary.bad.saturating_add(1);
                return Ok(Some(read::malformed(&e, line)));
            }
        };
        let mut problem = None;
        if size.bytes > MAX_ITEM_BYTES {
            self.summary.oversized = self.summary.oversized.saturating_add(1);
            problem = Some(oversized_item(size.bytes, line));
        } else {
            self.summary.sizes.add(size.bytes);
            for (spec, out) in self
                .options
                .indexes
                .iter()
                .zip(self.summary.indexes.iter_mut())
            {
                match entry_bytes(spec, &size, &self.options.table_keys, self.wanted) {
                    Some(entry) => out.entries.add(entry),
                    None => out.skipped = out.skipped.saturating_add(1),
                }
            }
        }
        (self.each)(line, size.bytes)?;
        Ok(problem)
    }
}

/// The problem of a whole document past `bound` bytes.
#[must_use]
pub(crate) fn oversized_document(bound: u64) -> Problem {
    Problem {
        line: 1,
        message: format!(
            "a document of more than {bound} bytes: its item is over the 400 KB (409,600 B) limit"
        ),
        malformed: false,
    }
}

/// The problem of a line too long to be read (`read::MAX_LINE_BYTES`).
#[must_use]
pub(crate) fn oversized_line(bytes: u64, line: u64) -> Problem {
    Problem {
        line,
        message: format!(
            "a line of {bytes} bytes, more than the {} read: its item is over the 400 KB (409,600 B) limit; skipped to the next line",
            read::MAX_LINE_BYTES
        ),
        malformed: false,
    }
}

/// The problem of an item over 400 KB.
#[must_use]
pub(crate) fn oversized_item(bytes: u64, line: u64) -> Problem {
    Problem {
        line,
        message: format!("item of {bytes} bytes is over the 400 KB (409,600 B) limit"),
        malformed: false,
    }
}

/// Attribute names whose sizes index entries need: table keys, index keys, included ones.
#[must_use]
pub(crate) fn wanted_attributes(options: &ScanOptions) -> Vec<String> {
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

/// An item's entry in index `spec`: table keys + index keys (+ included attributes), or the
/// whole item for ALL; `None` when the item lacks an index key attribute (it is not in the
/// index). `size` holds the attributes of `wanted`.
#[must_use]
pub(crate) fn entry_bytes(
    spec: &IndexSpec,
    size: &ItemSize,
    table_keys: &[String],
    wanted: &[String],
) -> Option<u64> {
    let attr = |name: &str| {
        wanted
            .iter()
            .position(|w| w == name)
            .and_then(|i| size.attributes.iter().find(|(j, _)| *j == i))
            .map(|(_, b)| *b)
    };
    if spec.keys.iter().any(|k| attr(k).is_none()) {
        return None;
    }
    Some(match &spec.projection {
        IndexProjection::All => size.bytes,
        projection => {
            let mut names: Vec<&str> = table_keys
                .iter()
                .chain(&spec.keys)
                .map(String::as_str)
                .collect();
            if let IndexProjection::Include(included) = projection {
                names.extend(included.iter().map(String::as_str));
            }
            names.sort_unstable();
            names.dedup();
            names
                .iter()
                .filter_map(|n| attr(n))
                .fold(0, u64::saturating_add)
        }
    })
}
