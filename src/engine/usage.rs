//! Monthly usage of each access pattern: request units on the table and on each index, items
//! written (stream records), and what a replica receives. This is where the rules of
//! DESIGN.md §3 meet the patterns' rates; the line builders only price the sums.

use std::sync::Arc;

use rust_decimal::Decimal;

use super::EngineError;
use super::checked::{self, mul};
use super::sizes::index_entry_bytes;
use super::units;
use crate::model::{
    AccessPattern, Index, IndexKind, Operation, OverwriteChanges, Projection, Settings, SizeClass,
    Table,
};

/// Units per index, inline for the few indexes most tables have (no allocation per pattern
/// per estimate); a table with more spills to the heap.
pub(super) type IndexUnits = smallvec::SmallVec<[Decimal; 3]>;

/// What one pattern consumes in a month.
#[derive(Debug, Clone)]
pub(super) struct PatternUsage {
    pub name: Arc<str>,
    /// Read units on the base table (including the base-item fetches of an LSI query).
    pub read_units: Decimal,
    /// Write units on the base table (transactions at 2×).
    pub write_units: Decimal,
    /// Read units per index, in the table's index order.
    pub index_read_units: IndexUnits,
    /// Write units per index, in the table's index order (never 2×).
    pub index_write_units: IndexUnits,
    /// Item-level writes: stream records, CDC and replication events.
    pub items_written: Decimal,
    /// Write units of the same writes without the transaction factor (what a replica gets,
    /// and, per item, the CDC units).
    pub plain_write_units: Decimal,
    /// Bytes written (replicated to each other region).
    pub bytes_written: Decimal,
    /// Bytes sent out to the internet.
    pub bytes_out: Decimal,
    /// Reads and writes the table's own capacity serves: the table's plus its LSIs'
    /// (computed once, with overflow checks).
    pub base_read_units: Decimal,
    pub base_write_units: Decimal,
}

impl PatternUsage {
    fn zero(name: Arc<str>, indexes: usize) -> Self {
        PatternUsage {
            name,
            read_units: Decimal::ZERO,
            write_units: Decimal::ZERO,
            index_read_units: smallvec::smallvec![Decimal::ZERO; indexes],
            index_write_units: smallvec::smallvec![Decimal::ZERO; indexes],
            items_written: Decimal::ZERO,
            plain_write_units: Decimal::ZERO,
            bytes_written: Decimal::ZERO,
            bytes_out: Decimal::ZERO,
            base_read_units: Decimal::ZERO,
            base_write_units: Decimal::ZERO,
        }
    }

    /// Fills the base-capacity sums: own units plus the LSIs' (checked).
    fn with_base(mut self, lsis: &[usize], context: &str) -> Result<Self, EngineError> {
        if lsis.is_empty() {
            self.base_read_units = self.read_units;
            self.base_write_units = self.write_units;
            return Ok(self);
        }
        self.base_read_units = checked::sum(
            std::iter::once(self.read_units).chain(lsis.iter().map(|&i| self.index_read_units[i])),
            context,
        )?;
        self.base_write_units = checked::sum(
            std::iter::once(self.write_units)
                .chain(lsis.iter().map(|&i| self.index_write_units[i])),
            context,
        )?;
        Ok(self)
    }

    /// Adds `other` into `self`, refusing overflow.
    fn add(&mut self, other: &PatternUsage, context: &str) -> Result<(), EngineError> {
        let add = |a: &mut Decimal, b: Decimal| -> Result<(), EngineError> {
            *a = checked::add(*a, b, context)?;
            Ok(())
        };
        add(&mut self.read_units, other.read_units)?;
        add(&mut self.write_units, other.write_units)?;
        add(&mut self.items_written, other.items_written)?;
        add(&mut self.plain_write_units, other.plain_write_units)?;
        add(&mut self.bytes_written, other.bytes_written)?;
        add(&mut self.bytes_out, other.bytes_out)?;
        for (a, b) in self
            .index_read_units
            .iter_mut()
            .zip(&other.index_read_units)
        {
            add(a, *b)?;
        }
        for (a, b) in self
            .index_write_units
            .iter_mut()
            .zip(&other.index_write_units)
        {
            add(a, *b)?;
        }
        Ok(())
    }
}

/// The share of a read pattern's units that still reach DynamoDB behind a DAX cluster whose
/// cache serves `hits` of the eventually consistent reads: strong reads pass through (DAX
/// forwards them), eventual ones only on a miss. With `e` the eventual share, a strong read
/// at 1 unit and an eventual one at ½: `(1 − e + e/2 × (1 − hits)) ÷ (1 − e/2)`; all
/// eventual, `1 − hits`. Returned as (numerator, denominator).
fn dax_pass_through(
    consistency: crate::model::Consistency,
    hits: Decimal,
    context: &str,
) -> Result<(Decimal, Decimal), EngineError> {
    use crate::model::Consistency;
    let eventual = match consistency {
        Consistency::Strong => return Ok((Decimal::ONE, Decimal::ONE)),
        Consistency::Eventual => Decimal::ONE,
        Consistency::Mixed { eventual_share } => eventual_share,
    };
    let half = checked::div(eventual, Decimal::TWO, context)?;
    let strong = checked::sub(Decimal::ONE, eventual, context)?;
    let missed = mul(half, checked::sub(Decimal::ONE, hits, context)?, context)?;
    let reaching = checked::add(strong, missed, context)?;
    let without = checked::add(strong, half, context)?;
    Ok((reaching, without))
}

/// Which usage figure a line is made of, to total it and to attribute its cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Metric {
    Reads,
    Writes,
    /// Reads and writes the table's own capacity serves: the table's plus its LSIs'.
    BaseReads,
    BaseWrites,
    IndexReads(usize),
    IndexWrites(usize),
    ItemsWritten,
    PlainWriteUnits,
    BytesWritten,
    BytesOut,
}

impl Metric {
    fn of(self, p: &PatternUsage) -> Decimal {
        match self {
            Metric::Reads => p.read_units,
            Metric::Writes => p.write_units,
            Metric::BaseReads => p.base_read_units,
            Metric::BaseWrites => p.base_write_units,
            Metric::IndexReads(i) => p.index_read_units[i],
            Metric::IndexWrites(i) => p.index_write_units[i],
            Metric::ItemsWritten => p.items_written,
            Metric::PlainWriteUnits => p.plain_write_units,
            Metric::BytesWritten => p.bytes_written,
            Metric::BytesOut => p.bytes_out,
        }
    }
}

/// A view of how a line's usage splits over the patterns (no allocation).
#[derive(Clone, Copy)]
pub(super) struct Weights<'a> {
    usage: Option<&'a TableUsage>,
    metric: Metric,
}

impl<'a> Weights<'a> {
    /// A line no pattern causes (storage, backups…).
    pub(super) const NONE: Weights<'static> = Weights {
        usage: None,
        metric: Metric::Reads,
    };

    pub(super) fn total(&self) -> Decimal {
        self.usage.map_or(Decimal::ZERO, |u| u.total(self.metric))
    }

    /// How many patterns the view covers.
    pub(super) fn pattern_count(&self) -> usize {
        self.usage.map_or(0, |u| u.patterns.len())
    }

    /// Each pattern's name and weight.
    pub(super) fn each(&self) -> impl Iterator<Item = (&'a Arc<str>, Decimal)> + 'a {
        let metric = self.metric;
        self.usage
            .into_iter()
            .flat_map(move |u| u.patterns.iter().map(move |p| (&p.name, metric.of(p))))
    }
}

#[derive(Debug, Clone)]
pub(super) struct TableUsage {
    pub patterns: Vec<PatternUsage>,
    /// The sums over all patterns, computed once (with overflow checks).
    pub totals: PatternUsage,
    /// Positions of the table's LSIs among its indexes.
    pub lsis: Vec<usize>,
    /// Items deleted by TTL in a month (free, but streamed and replicated).
    pub ttl_deletes: Decimal,
    /// New items a month: items put, less the share of puts that overwrite (counted only for a
    /// table with a TTL retention, the one rule that needs it).
    pub inserts: Decimal,
    /// Write units of those deletes if they were charged (replicas, CDC).
    pub ttl_delete_units: Decimal,
    pub ttl_delete_bytes: Decimal,
}

impl TableUsage {
    pub(super) fn weights(&self, metric: Metric) -> Weights<'_> {
        Weights {
            usage: Some(self),
            metric,
        }
    }

    /// The month's total of `metric` over all patterns.
    pub(super) fn total(&self, metric: Metric) -> Decimal {
        metric.of(&self.totals)
    }
}

/// Items each pattern adds and removes in a month, in the table's pattern order: puts and
/// batch or transactional writes insert their items less the share that overwrite; deletes
/// remove theirs. (The TTL rule and forecasts use these.)
///
/// # Errors
/// A figure too large to compute exactly.
pub(crate) fn item_flows(
    table: &Table,
    settings: &Settings,
) -> Result<Vec<(Decimal, Decimal)>, EngineError> {
    let mut out = Vec::with_capacity(table.patterns.len());
    for pattern in &table.patterns {
        let p = pattern_usage(table, pattern, settings)?;
        let context = &*pattern.name;
        out.push(match pattern.operation {
            Operation::Put | Operation::BatchWrite | Operation::TransactWrite => (
                mul(
                    p.items_written,
                    checked::sub(Decimal::ONE, pattern.overwrites, context)?,
                    context,
                )?,
                Decimal::ZERO,
            ),
            Operation::Delete => (Decimal::ZERO, p.items_written),
            _ => (Decimal::ZERO, Decimal::ZERO),
        });
    }
    Ok(out)
}

pub(super) fn table_usage(table: &Table, settings: &Settings) -> Result<TableUsage, EngineError> {
    let n = table.indexes.len();
    // The totals' name is never shown: the table's own (a reference count, not a copy).
    let total_name = &table.name;
    let mut usage = TableUsage {
        patterns: Vec::with_capacity(table.patterns.len()),
        totals: PatternUsage::zero(Arc::clone(total_name), n),
        lsis: (0..n)
            .filter(|&i| table.indexes[i].kind == IndexKind::Local)
            .collect(),
        ttl_deletes: Decimal::ZERO,
        inserts: Decimal::ZERO,
        ttl_delete_units: Decimal::ZERO,
        ttl_delete_bytes: Decimal::ZERO,
    };
    for pattern in &table.patterns {
        let p = pattern_usage(table, pattern, settings)?.with_base(&usage.lsis, &pattern.name)?;
        // Inserts matter only to a TTL retention (items stored, items expiring).
        if table.ttl.is_some()
            && matches!(
                pattern.operation,
                Operation::Put | Operation::BatchWrite | Operation::TransactWrite
            )
        {
            let context = &*pattern.name;
            let new = mul(
                p.items_written,
                checked::sub(Decimal::ONE, pattern.overwrites, context)?,
                context,
            )?;
            usage.inserts = checked::add(usage.inserts, new, context)?;
        }
        usage.totals.add(&p, &table.name)?;
        usage.patterns.push(p);
    }
    let totals = std::mem::replace(
        &mut usage.totals,
        PatternUsage::zero(Arc::clone(total_name), 0),
    );
    usage.totals = totals.with_base(&usage.lsis, &table.name)?;
    // Stated TTL deletes, or with a retention the steady state: every month, what was inserted
    // one retention earlier expires — as many items as are inserted.
    let ttl_deletes = match (table.ttl_deletes, table.ttl) {
        (Some(rate), _) => Some(checked::some(
            rate.monthly(settings.month_hours),
            &table.name,
        )?),
        (None, Some(_)) => Some(usage.inserts),
        (None, None) => None,
    };
    if let Some(deletes) = ttl_deletes {
        let context = &*table.name;
        let size = table.item_size_bytes.unwrap_or_default();
        usage.ttl_deletes = deletes;
        usage.ttl_delete_units = mul(
            deletes,
            per_item(
                table_classes(table).as_slice(),
                units::item_write_units,
                context,
            )?,
            context,
        )?;
        usage.ttl_delete_bytes = mul(deletes, size, context)?;
    }
    Ok(usage)
}

/// The size a pattern reads or writes per item: its own, else (on an index) the entry size,
/// else the table's average. Load guarantees one is known.
fn item_bytes(table: &Table, pattern: &AccessPattern, index: Option<&Index>) -> Decimal {
    let table_size = table.item_size_bytes.unwrap_or_default();
    match (pattern.item_size_bytes, index) {
        (Some(size), _) => size,
        (None, Some(index)) if !pattern.fetches_base_items => {
            index_entry_bytes(table, index, table_size)
        }
        _ => table_size,
    }
}

/// The table's item sizes: its classes, or one class of its average size.
fn table_classes(table: &Table) -> Classes<'_> {
    Classes::of(table.item_size_bytes, &table.item_size_classes)
}

/// Item sizes without an allocation: one average size, or the stated classes.
enum Classes<'a> {
    One([SizeClass; 1]),
    Many(&'a [SizeClass]),
}

impl<'a> Classes<'a> {
    fn of(mean: Option<Decimal>, classes: &'a [SizeClass]) -> Self {
        if classes.is_empty() {
            Classes::One([SizeClass {
                bytes: mean.unwrap_or_default(),
                weight: Decimal::ONE,
            }])
        } else {
            Classes::Many(classes)
        }
    }

    fn as_slice(&self) -> &[SizeClass] {
        match self {
            Classes::One(one) => one,
            Classes::Many(many) => many,
        }
    }
}

/// The item sizes a pattern touches, for rules that round per item: the pattern's own
/// classes, else the table's (a pattern without its own size reads the table's items).
fn size_classes<'a>(table: &'a Table, pattern: &'a AccessPattern) -> Classes<'a> {
    match pattern.item_size_bytes {
        Some(mean) => Classes::of(Some(mean), &pattern.item_size_classes),
        None => table_classes(table),
    }
}

/// The average over `classes` of a per-item figure: Σ weight × f(size) / Σ weight. DynamoDB
/// rounds every item on its own, so a mix of 1.5 KB and 6.5 KB items reads 1 and 2 units, not
/// twice the units of a 4 KB mean.
fn per_item(
    classes: &[SizeClass],
    f: impl Fn(Decimal) -> Option<Decimal>,
    context: &str,
) -> Result<Decimal, EngineError> {
    if let [one] = classes {
        return checked::some(f(one.bytes), context);
    }
    let mut weighted = Decimal::ZERO;
    let mut weights = Decimal::ZERO;
    for c in classes {
        let value = checked::some(f(c.bytes), context)?;
        weighted = checked::add(weighted, mul(c.weight, value, context)?, context)?;
        weights = checked::add(weights, c.weight, context)?;
    }
    if weights.is_zero() {
        return Ok(Decimal::ZERO);
    }
    checked::div(weighted, weights, context)
}

fn pattern_usage(
    table: &Table,
    pattern: &AccessPattern,
    settings: &Settings,
) -> Result<PatternUsage, EngineError> {
    let context = &*pattern.name;
    let ops = checked::some(pattern.rate.monthly(settings.month_hours), context)?;
    let index_pos = pattern
        .index
        .as_ref()
        .and_then(|name| table.indexes.iter().position(|i| *i.name == **name));
    let index = index_pos.map(|i| &table.indexes[i]);
    // The mean size: right for a Query or Scan (their items are summed, then rounded once per
    // page) and for bytes; per-item rules average over the size classes.
    let size = item_bytes(table, pattern, index);
    let classes = size_classes(table, pattern);
    let classes = classes.as_slice();
    // What one item of `bytes` reads: itself, or its entry on the index queried.
    let read_bytes = |bytes: Decimal| match (pattern.item_size_bytes, index) {
        (None, Some(index)) if !pattern.fetches_base_items => {
            index_entry_bytes(table, index, bytes)
        }
        _ => bytes,
    };
    let items = pattern.items_per_op;
    let mut usage = PatternUsage::zero(Arc::clone(&pattern.name), table.indexes.len());
    let op = pattern.operation;
    match pattern.transfer_out {
        // Sizes of data sent are counted as DynamoDB counts sizes: KB = 1,024 B.
        Some(crate::model::SentOut::Bytes(out)) => {
            let per_request = checked::some(out.to_bytes(), context)?;
            usage.bytes_out = mul(ops, per_request, context)?;
        }
        // A read sends what it reads: its items (or their index entries) × the items.
        Some(crate::model::SentOut::Returned) => {
            let per_request = mul(read_bytes(size), items, context)?;
            usage.bytes_out = mul(ops, per_request, context)?;
        }
        None => {}
    }
    if op.is_read() {
        let per_op = if matches!(op, Operation::Query | Operation::Scan) {
            checked::some(
                units::read_units_per_op(op, pattern.consistency, size, items),
                context,
            )?
        } else {
            per_item(
                classes,
                |b| units::read_units_per_op(op, pattern.consistency, read_bytes(b), items),
                context,
            )?
        };
        match (index_pos, index) {
            (Some(pos), Some(index)) => {
                if pattern.fetches_base_items {
                    // LSI query fetching non-projected attributes: the index part is rounded
                    // once over the entries, each fetched item on its own for its whole size.
                    let entry = index_entry_bytes(table, index, size);
                    let index_part = checked::some(
                        units::read_units_per_op(op, pattern.consistency, entry, items),
                        context,
                    )?;
                    let fetch = mul(
                        mul(
                            per_item(classes, units::item_read_units, context)?,
                            items,
                            context,
                        )?,
                        units::consistency_factor(pattern.consistency),
                        context,
                    )?;
                    usage.index_read_units[pos] = mul(ops, index_part, context)?;
                    usage.read_units = mul(ops, fetch, context)?;
                } else {
                    usage.index_read_units[pos] = mul(ops, per_op, context)?;
                }
            }
            _ => usage.read_units = mul(ops, per_op, context)?,
        }
        if let Some(dax) = &table.dax
            && op != Operation::TransactGet
        {
            // Multiplied first, then divided: the units are the strong units × `without`,
            // so the quotient is exact.
            let (reaching, without) = dax_pass_through(pattern.consistency, dax.hits, context)?;
            let pass = |units: Decimal| -> Result<Decimal, EngineError> {
                checked::div(mul(units, reaching, context)?, without, context)
            };
            usage.read_units = pass(usage.read_units)?;
            for units in &mut usage.index_read_units {
                *units = pass(*units)?;
            }
        }
        return Ok(usage);
    }
    usage.write_units = mul(
        ops,
        per_item(
            classes,
            |b| units::write_units_per_op(op, b, items),
            context,
        )?,
        context,
    )?;
    let item_writes = units::items_written_per_op(op, items);
    usage.items_written = mul(ops, item_writes, context)?;
    usage.plain_write_units = mul(
        usage.items_written,
        per_item(classes, units::item_write_units, context)?,
        context,
    )?;
    usage.bytes_written = mul(usage.items_written, size, context)?;
    for (pos, index) in table.indexes.iter().enumerate() {
        let writes_per_item = pattern
            .index_effects
            .iter()
            .find(|(name, _)| **name == *index.name)
            .map_or_else(
                || index_writes_per_item(op, index, pattern.overwrites, pattern.overwrite_changes),
                |(_, w)| Some(*w),
            );
        let writes_per_item = checked::some(writes_per_item, context)?;
        let entry_units = per_item(
            classes,
            |b| units::item_write_units(index_entry_bytes(table, index, b)),
            context,
        )?;
        let per_item = mul(writes_per_item, entry_units, context)?;
        usage.index_write_units[pos] = mul(usage.items_written, per_item, context)?;
    }
    Ok(usage)
}

/// Index writes caused by writing one item (DESIGN.md §3, secondary-index writes): a put of
/// a new item carrying the key writes 1 entry; an update that moves the key writes 2 (delete +
/// put), one that adds or removes it writes 1, and one that changes a projected attribute of
/// an indexed item writes 1; a delete removes the entry (1). A put that overwrites an existing
/// item writes an entry only where it changes one, by what the pattern says it changes
/// (`overwrite_changes`): measured on DynamoDB, replacing an item whose key and projected
/// attributes do not change writes no index entry (1 WCU in all), the default. Transactions
/// and batches count their items as puts. LSIs follow the same rules.
#[must_use]
pub(super) fn index_writes_per_item(
    op: Operation,
    index: &Index,
    overwrites: Decimal,
    changes: OverwriteChanges,
) -> Option<Decimal> {
    match op {
        Operation::Update => update_writes(index),
        Operation::Put | Operation::BatchWrite | Operation::TransactWrite => {
            // (1 − overwrites) × key_share + overwrites × what an overwrite writes.
            let inserts = Decimal::ONE
                .checked_sub(overwrites)?
                .checked_mul(index.key_share)?;
            let per_overwrite = match changes {
                OverwriteChanges::Nothing => Decimal::ZERO,
                OverwriteChanges::Projected if matches!(index.projection, Projection::KeysOnly) => {
                    Decimal::ZERO
                }
                OverwriteChanges::Projected => index.key_share,
                OverwriteChanges::Keys => Decimal::TWO.checked_mul(index.key_share)?,
                OverwriteChanges::Updates => update_writes(index)?,
            };
            inserts.checked_add(overwrites.checked_mul(per_overwrite)?)
        }
        Operation::Delete => Some(index.key_share),
        _ => Some(Decimal::ZERO),
    }
}

/// Index writes of one update, from the index's `updates_*` shares (each in [0, 1] by load).
fn update_writes(index: &Index) -> Option<Decimal> {
    let key_changes = index
        .updates_moving_key
        .checked_add(index.updates_adding_key)?
        .checked_add(index.updates_removing_key)?;
    let others = Decimal::ONE.checked_sub(key_changes)?.max(Decimal::ZERO);
    Decimal::TWO
        .checked_mul(index.updates_moving_key)?
        .checked_add(index.updates_adding_key)?
        .checked_add(index.updates_removing_key)?
        .checked_add(
            others
                .checked_mul(index.key_share)?
                .checked_mul(index.updates_touching_projection)?,
        )
}
