//! Counting key values in item files, read by the same reader as `ddbcost size` (files,
//! export folders, gzip, chunks on all cores): each item adds one to its table partition key
//! value (with its bytes, and its LSI entries' bytes to that value's item collection) and one
//! to each global index's partition key value it carries (with its entry's bytes).

use std::path::PathBuf;

use super::counter::Counts;
use super::summary::{KeysSummary, Layout};
use crate::error::Error;
use crate::size::item::{Shape, item_keys};
use crate::size::read::{self, ItemSink, Problem};
use crate::size::rules::MAX_ITEM_BYTES;
use crate::size::scan::{self, ScanOptions};

/// Counts the key values of every item in `files` (`options` says how to read them; its
/// `table_keys` and `indexes` are set from `layout`).
///
/// # Errors
/// An unreadable file; with `strict`, the first malformed item or the first item without
/// the table's partition key.
pub(crate) fn count_items(
    files: &[PathBuf],
    options: &ScanOptions,
    layout: &Layout,
) -> Result<KeysSummary, Error> {
    let options = ScanOptions {
        table_keys: std::iter::once(layout.partition.clone())
            .chain(layout.sort.clone())
            .collect(),
        indexes: layout
            .globals
            .iter()
            .chain(&layout.locals)
            .cloned()
            .collect(),
        ..options.clone()
    };
    let wanted = scan::wanted_attributes(&options);
    let position = |name: &str| wanted.iter().position(|w| w == name);
    let partition = position(&layout.partition);
    let globals: Vec<Option<usize>> = layout
        .globals
        .iter()
        .map(|g| g.keys.first().and_then(|k| position(k)))
        .collect();
    let done = read::read_parallel(files, &options.read(), || KeysSink {
        options: &options,
        layout,
        wanted: &wanted,
        partition,
        globals: &globals,
        summary: KeysSummary::new(layout),
    })?;
    // The first worker's counts become the total and each other worker's are dropped once
    // added, so that at most one worker's values are held twice.
    let mut sinks = done.sinks.into_iter();
    let mut total = sinks
        .next()
        .map_or_else(|| KeysSummary::new(layout), |s| s.summary);
    for sink in sinks {
        total
            .merge(&sink.summary)
            .map_err(|why| Error::input(format!("cannot add up the key counts: {why}")))?;
    }
    total.files = u64::try_from(files.len()).unwrap_or(u64::MAX);
    for e in done.examples {
        total.example(e);
    }
    Ok(total)
}

struct KeysSink<'a> {
    options: &'a ScanOptions,
    layout: &'a Layout,
    wanted: &'a [String],
    /// Positions in `wanted` of the table's and each global index's partition key.
    partition: Option<usize>,
    globals: &'a [Option<usize>],
    summary: KeysSummary,
}

impl ItemSink for KeysSink<'_> {
    fn input_bytes(&mut self, bytes: u64) {
        self.summary.input_bytes = self.summary.input_bytes.saturating_add(bytes);
    }

    fn oversized_document(&mut self, bound: u64) -> Problem {
        self.summary.oversized = self.summary.oversized.saturating_add(1);
        scan::oversized_document(bound)
    }

    fn oversized_line(&mut self, bytes: u64, line: u64) -> Problem {
        self.summary.oversized = self.summary.oversized.saturating_add(1);
        scan::oversized_line(bytes, line)
    }

    fn item(&mut self, text: &[u8], line: u64, shape: Shape) -> Result<Option<Problem>, Error> {
        let size = match item_keys(text, shape, self.wanted) {
            Ok(size) => size,
            Err(e) => {
                self.summary.bad = self.summary.bad.saturating_add(1);
                return Ok(Some(read::malformed(&e, line)));
            }
        };
        if size.bytes > MAX_ITEM_BYTES {
            self.summary.oversized = self.summary.oversized.saturating_add(1);
            return Ok(Some(scan::oversized_item(size.bytes, line)));
        }
        let value = |at: Option<usize>| {
            at.and_then(|i| size.values.iter().find(|(j, _)| *j == i))
                .map(|(_, v)| v.as_str())
        };
        let Some(pk) = value(self.partition) else {
            // Every item of a table has its partition key: without it, this is not an item
            // of this table (or the key is named wrong).
            self.summary.bad = self.summary.bad.saturating_add(1);
            self.summary.attributes[0].items_without =
                self.summary.attributes[0].items_without.saturating_add(1);
            return Ok(Some(Problem {
                line,
                message: format!(
                    "item without its partition key `{}` (a string, number or binary)",
                    self.layout.partition
                ),
                malformed: true,
            }));
        };
        self.summary.items = self.summary.items.saturating_add(1);
        let table_keys = &self.options.table_keys;
        let lsi_bytes = self
            .layout
            .locals
            .iter()
            .filter_map(|l| scan::entry_bytes(l, &size, table_keys, self.wanted))
            .fold(0u64, u64::saturating_add);
        let fail = |why: String| Error::input(format!("cannot count key values: {why}"));
        self.summary.attributes[0]
            .counter
            .add(
                pk.as_bytes(),
                &Counts {
                    items: 1,
                    bytes: size.bytes,
                    lsi_bytes,
                    ..Counts::default()
                },
            )
            .map_err(fail)?;
        for (n, (spec, at)) in self.layout.globals.iter().zip(self.globals).enumerate() {
            let attribute = &mut self.summary.attributes[n.saturating_add(1)];
            let entry = scan::entry_bytes(spec, &size, table_keys, self.wanted);
            match (value(*at), entry) {
                (Some(v), Some(bytes)) => attribute
                    .counter
                    .add(
                        v.as_bytes(),
                        &Counts {
                            items: 1,
                            bytes,
                            ..Counts::default()
                        },
                    )
                    .map_err(fail)?,
                // Not in the (sparse) index.
                _ => attribute.items_without = attribute.items_without.saturating_add(1),
            }
        }
        Ok(None)
    }
}
