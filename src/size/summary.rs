//! A mergeable summary of item sizes: an exact histogram (one counter per byte size up to
//! 400 KB), so percentiles, unit costs and boundary effects are exact, memory is constant
//! (3.2 MB per histogram whatever the input), and summaries of the pieces of an export add up
//! to the summary of the whole. Serialized sparsely as `[[size, count], …]`.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::rules::MAX_ITEM_BYTES;

pub(crate) const SIZE_SCHEMA: &str = "ddbcost.size/v1";
/// Examples kept of bad and oversized items (their count is always exact).
const EXAMPLES: usize = 20;
/// "Just above" a unit boundary: within 10 % of a unit over it.
const NEAR_1KB: u64 = 102;
const NEAR_4KB: u64 = 409;

/// An exact histogram of sizes 0..=400 KB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Histogram {
    counts: Vec<u64>,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            counts: vec![
                0;
                usize::try_from(MAX_ITEM_BYTES)
                    .unwrap_or(usize::MAX)
                    .saturating_add(1)
            ],
        }
    }
}

impl Histogram {
    pub fn add(&mut self, size: u64) {
        if let Some(c) = usize::try_from(size)
            .ok()
            .and_then(|s| self.counts.get_mut(s))
        {
            // 2^64 items cannot be read in a lifetime: saturating states it without a panic.
            *c = c.saturating_add(1);
        }
    }

    /// The number of items counted (checked: `None` past 2^64).
    #[must_use]
    pub fn items(&self) -> Option<u64> {
        self.counts.iter().try_fold(0u64, |a, c| a.checked_add(*c))
    }

    /// Adds `other` into `self`, refusing a total past 2^64 items (`self` is unchanged then).
    ///
    /// # Errors
    /// The merged counts do not fit in 64 bits.
    pub fn merge(&mut self, other: &Histogram) -> Result<(), String> {
        let merged: Option<Vec<u64>> = self
            .counts
            .iter()
            .zip(&other.counts)
            .map(|(a, b)| a.checked_add(*b))
            .collect();
        let merged = Histogram {
            counts: merged.ok_or("a size is counted more than 2^64 times")?,
        };
        merged.items().ok_or("more than 2^64 items in all")?;
        *self = merged;
        Ok(())
    }

    /// Non-zero buckets as (size, count).
    pub fn buckets(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(s, c)| (s as u64, *c))
    }

    /// The histogram of serialized buckets.
    ///
    /// # Errors
    /// A size above 400 KB, a size listed twice, or counts past 2^64 items.
    pub fn from_buckets(buckets: &[(u64, u64)]) -> Result<Self, String> {
        let mut h = Histogram::default();
        for (size, count) in buckets {
            let c = usize::try_from(*size)
                .ok()
                .and_then(|s| h.counts.get_mut(s))
                .ok_or_else(|| format!("size {size} is above the 409,600-byte item limit"))?;
            if *c != 0 {
                return Err(format!("size {size} is listed twice"));
            }
            *c = *count;
        }
        h.items().ok_or("more than 2^64 items in all")?;
        Ok(h)
    }

    // Counts sum to at most 2^64 (checked by `add`, `merge` and `from_buckets`) and sizes are
    // at most 409,600 < 2^19, so every product and sum below fits in u128 (< 2^102), and the
    // rank products (items × 99) too.
    #[allow(clippy::arithmetic_side_effects)]
    #[must_use]
    pub fn stats(&self) -> Stats {
        let mut s = Stats::default();
        let items: u64 = self.items().unwrap_or(u64::MAX);
        s.items = items;
        if items == 0 {
            return s;
        }
        let rank = |p: u128| (u128::from(items) * p).div_ceil(100).max(1); // nearest rank
        let (r50, r90, r99) = (rank(50), rank(90), rank(99));
        let mut seen: u128 = 0;
        let mut first = true;
        for (size, count) in self.buckets() {
            if first {
                s.min = size;
                first = false;
            }
            s.max = size;
            s.total_bytes += u128::from(size) * u128::from(count);
            let before = seen;
            seen += u128::from(count);
            for (r, slot) in [(r50, &mut s.p50), (r90, &mut s.p90), (r99, &mut s.p99)] {
                if before < r && r <= seen {
                    *slot = size;
                }
            }
            let read = size.div_ceil(4096).max(1);
            let write = size.div_ceil(1024).max(1);
            s.read_units += u128::from(read) * u128::from(count);
            s.write_units += u128::from(write) * u128::from(count);
            if size > 1024 && (size - 1) % 1024 < NEAR_1KB {
                s.just_above_1kb += count;
            }
            if size > 4096 && (size - 1) % 4096 < NEAR_4KB {
                s.just_above_4kb += count;
            }
        }
        s
    }
}

/// What a histogram says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    pub items: u64,
    pub total_bytes: u128,
    pub min: u64,
    pub max: u64,
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    /// Read units to read every item once, strongly consistent (4 KB units, at least 1).
    pub read_units: u128,
    /// Write units to write every item once (1 KB units, at least 1).
    pub write_units: u128,
    /// Items at most 102 B over a 1 KB boundary: trimming them saves a write unit each.
    pub just_above_1kb: u64,
    /// Items at most 409 B over a 4 KB boundary: trimming them saves a read unit each.
    pub just_above_4kb: u64,
}

impl Stats {
    #[must_use]
    pub fn mean(&self) -> Option<Decimal> {
        if self.items == 0 {
            return None;
        }
        Decimal::from_i128_with_scale(i128::try_from(self.total_bytes).ok()?, 0)
            .checked_div(Decimal::from(self.items))
    }

    /// Bytes stored: item bytes + 100 B per item (fits: see `Histogram::stats`).
    #[must_use]
    pub fn stored_bytes(&self) -> u128 {
        self.total_bytes
            .saturating_add(u128::from(self.items).saturating_mul(100))
    }
}

/// An index's entries, measured per item.
#[derive(Debug, Clone, Default)]
pub struct IndexSizes {
    pub name: String,
    pub entries: Histogram,
    /// Items without the index key: not in the index (sparse), no index write.
    pub skipped: u64,
}

/// Everything measured over a set of inputs.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub sizes: Histogram,
    pub oversized: u64,
    pub bad: u64,
    pub examples: Vec<String>,
    pub indexes: Vec<IndexSizes>,
    pub files: u64,
    pub input_bytes: u64,
}

impl Summary {
    #[must_use]
    pub fn with_indexes(names: &[String]) -> Self {
        Summary {
            indexes: names
                .iter()
                .map(|n| IndexSizes {
                    name: n.clone(),
                    ..IndexSizes::default()
                })
                .collect(),
            ..Summary::default()
        }
    }

    pub fn example(&mut self, text: String) {
        if self.examples.len() < EXAMPLES {
            self.examples.push(text);
        }
    }

    /// Adds `other` into `self` exactly.
    ///
    /// # Errors
    /// A count past 2^64: refused, never wrapped.
    pub fn merge(&mut self, other: &Summary) -> Result<(), String> {
        let add = |a: u64, b: u64, what: &str| {
            a.checked_add(b)
                .ok_or_else(|| format!("the {what} add up past 2^64"))
        };
        self.sizes.merge(&other.sizes)?;
        self.oversized = add(self.oversized, other.oversized, "oversized items")?;
        self.bad = add(self.bad, other.bad, "malformed items")?;
        self.files = add(self.files, other.files, "files")?;
        self.input_bytes = add(self.input_bytes, other.input_bytes, "input bytes")?;
        for e in &other.examples {
            self.example(e.clone());
        }
        for o in &other.indexes {
            match self.indexes.iter_mut().find(|i| i.name == o.name) {
                Some(i) => {
                    i.entries.merge(&o.entries)?;
                    i.skipped = add(i.skipped, o.skipped, "items without the index key")?;
                }
                None => self.indexes.push(o.clone()),
            }
        }
        Ok(())
    }
}

/// The serialized summary (`ddbcost size --format json`), which `--merge` reads back.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SummaryDoc {
    pub schema: String,
    pub files: u64,
    pub input_bytes: u64,
    pub items: u64,
    pub total_bytes: String,
    pub min: u64,
    pub mean: Option<Decimal>,
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub max: u64,
    pub read_units: UnitsDoc,
    pub write_units: UnitsDoc,
    /// Bytes stored: item bytes + 100 B per item.
    pub stored_bytes: String,
    pub just_above_1kb: u64,
    pub just_above_4kb: u64,
    pub oversized: u64,
    pub bad: u64,
    pub examples: Vec<String>,
    pub indexes: Vec<IndexDoc>,
    /// The exact histogram, `[size, count]` for each size present.
    pub histogram: Vec<(u64, u64)>,
}

/// Units to read or write every item once.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct UnitsDoc {
    pub strong: Option<String>,
    pub eventual: Option<Decimal>,
    pub standard: Option<String>,
    pub transactional: String,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct IndexDoc {
    pub name: String,
    pub entries: u64,
    pub skipped: u64,
    pub min: u64,
    pub mean: Option<Decimal>,
    pub p50: u64,
    pub p99: u64,
    pub max: u64,
    pub write_units: String,
    pub stored_bytes: String,
    pub histogram: Vec<(u64, u64)>,
}

impl Summary {
    #[must_use]
    pub fn document(&self) -> SummaryDoc {
        let s = self.sizes.stats();
        SummaryDoc {
            schema: SIZE_SCHEMA.to_string(),
            files: self.files,
            input_bytes: self.input_bytes,
            items: s.items,
            total_bytes: s.total_bytes.to_string(),
            min: s.min,
            mean: s.mean(),
            p50: s.p50,
            p90: s.p90,
            p99: s.p99,
            max: s.max,
            read_units: UnitsDoc {
                strong: Some(s.read_units.to_string()),
                eventual: Decimal::from_i128_with_scale(
                    i128::try_from(s.read_units).unwrap_or(i128::MAX),
                    0,
                )
                .checked_div(Decimal::TWO),
                standard: None,
                transactional: s.read_units.saturating_mul(2).to_string(),
            },
            write_units: UnitsDoc {
                strong: None,
                eventual: None,
                standard: Some(s.write_units.to_string()),
                transactional: s.write_units.saturating_mul(2).to_string(),
            },
            stored_bytes: s.stored_bytes().to_string(),
            just_above_1kb: s.just_above_1kb,
            just_above_4kb: s.just_above_4kb,
            oversized: self.oversized,
            bad: self.bad,
            examples: self.examples.clone(),
            indexes: self
                .indexes
                .iter()
                .map(|i| {
                    let e = i.entries.stats();
                    IndexDoc {
                        name: i.name.clone(),
                        entries: e.items,
                        skipped: i.skipped,
                        min: e.min,
                        mean: e.mean(),
                        p50: e.p50,
                        p99: e.p99,
                        max: e.max,
                        write_units: e.write_units.to_string(),
                        stored_bytes: e.stored_bytes().to_string(),
                        histogram: i.entries.buckets().collect(),
                    }
                })
                .collect(),
            histogram: self.sizes.buckets().collect(),
        }
    }

    /// Reads a summary back from its document (for `--merge`): the schema must be this
    /// version's, and the histogram must agree with the counts the document states.
    ///
    /// # Errors
    /// Another schema, a size out of range or listed twice, or counts that disagree.
    pub fn from_document(doc: &SummaryDoc) -> Result<Self, String> {
        if doc.schema != SIZE_SCHEMA {
            return Err(format!(
                "the summary's schema is `{}`; this ddbcost reads `{SIZE_SCHEMA}`",
                doc.schema
            ));
        }
        let sizes = Histogram::from_buckets(&doc.histogram)?;
        if sizes.items() != Some(doc.items) {
            return Err(format!(
                "the histogram counts {} items but `items` says {}",
                sizes
                    .items()
                    .map_or_else(|| "more than 2^64".into(), |n| n.to_string()),
                doc.items
            ));
        }
        let mut indexes = Vec::with_capacity(doc.indexes.len());
        for i in &doc.indexes {
            let entries = Histogram::from_buckets(&i.histogram)
                .map_err(|e| format!("index `{}`: {e}", i.name))?;
            if entries.items() != Some(i.entries) {
                return Err(format!(
                    "index `{}`: the histogram counts {} entries but `entries` says {}",
                    i.name,
                    entries
                        .items()
                        .map_or_else(|| "more than 2^64".into(), |n| n.to_string()),
                    i.entries
                ));
            }
            indexes.push(IndexSizes {
                name: i.name.clone(),
                entries,
                skipped: i.skipped,
            });
        }
        Ok(Summary {
            sizes,
            oversized: doc.oversized,
            bad: doc.bad,
            examples: doc.examples.clone(),
            indexes,
            files: doc.files,
            input_bytes: doc.input_bytes,
        })
    }
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    #[test]
    fn stats_are_exact() {
        let mut h = Histogram::default();
        // Sizes 100, 1,025 (just above 1 KB: 1 B over), 4,100 (4 B over 4 KB), 5,000.
        for s in [100, 1025, 4100, 5000] {
            h.add(s);
        }
        let s = h.stats();
        assert_eq!((s.items, s.min, s.max), (4, 100, 5000));
        assert_eq!(s.total_bytes, 10_225);
        // Reads: 1 + 1 + 2 + 2 = 6 strong units; writes: 1 + 2 + 5 + 5 = 13.
        assert_eq!((s.read_units, s.write_units), (6, 13));
        // Nearest rank: p50 = 2nd item (1,025), p90 and p99 = 4th (5,000).
        assert_eq!((s.p50, s.p90, s.p99), (1025, 5000, 5000));
        // Just above 1 KB: 1,025 (1 B over) and 4,100 (4 over 4 KB = 4 × 1 KB); 5,000 is 904 B
        // over 4 KB. Just above 4 KB: 4,100.
        assert_eq!((s.just_above_1kb, s.just_above_4kb), (2, 1));
        assert_eq!(s.mean(), Some(Decimal::new(255_625, 2)));
    }

    #[test]
    fn merging_pieces_equals_the_whole() {
        let sizes = [3u64, 900, 1024, 1025, 4096, 4097, 409_600];
        let mut whole = Summary::default();
        let mut a = Summary::default();
        let mut b = Summary::default();
        for (i, s) in sizes.iter().enumerate() {
            whole.sizes.add(*s);
            if i % 2 == 0 {
                a.sizes.add(*s);
            } else {
                b.sizes.add(*s);
            }
        }
        a.merge(&b).expect("small counts");
        assert_eq!(a.sizes, whole.sizes);
        // And through the serialized document.
        let round = Summary::from_document(&whole.document()).expect("its own document");
        assert_eq!(round.sizes, whole.sizes);
    }
}
