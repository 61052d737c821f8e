//! Monthly usage of each access pattern: request units on the table and on each index, items
//! written (stream records), and what a replica receives. This is where the rules of
//! DESIGN.md §3 meet the patterns' rates; the line builders only price the sums.

use rust_decimal::Decimal;

use super::EngineError;
use super::checked::{self, mul};
use super::sizes::index_entry_bytes;
use super::units;
use crate::model::{AccessPattern, Index, Operation, Settings, Table};

/// What one pattern consumes in a month.
#[derive(Debug, Clone, Default)]
pub struct PatternUsage {
    pub name: String,
    /// Read units on the base table (including the base-item fetches of an LSI query).
    pub read_units: Decimal,
    /// Write units on the base table (transactions at 2×).
    pub write_units: Decimal,
    /// Read units per index, in the table's index order.
    pub index_read_units: Vec<Decimal>,
    /// Write units per index, in the table's index order (never 2×).
    pub index_write_units: Vec<Decimal>,
    /// Item-level writes: stream records, CDC and replication events.
    pub items_written: Decimal,
    /// Write units of the same writes without the transaction factor (what a replica gets,
    /// and, per item, the CDC units).
    pub plain_write_units: Decimal,
    /// Bytes written (replicated to each other region).
    pub bytes_written: Decimal,
}

#[derive(Debug, Clone, Default)]
pub struct TableUsage {
    pub patterns: Vec<PatternUsage>,
    /// Items deleted by TTL in a month (free, but streamed and replicated).
    pub ttl_deletes: Decimal,
    /// Write units of those deletes if they were charged (replicas, CDC).
    pub ttl_delete_units: Decimal,
    pub ttl_delete_bytes: Decimal,
}

impl TableUsage {
    pub fn weights(&self, f: impl Fn(&PatternUsage) -> Decimal) -> Vec<(&str, Decimal)> {
        self.patterns
            .iter()
            .map(|p| (p.name.as_str(), f(p)))
            .collect()
    }

    pub fn total(
        &self,
        context: &str,
        f: impl Fn(&PatternUsage) -> Decimal,
    ) -> Result<Decimal, EngineError> {
        checked::sum(self.patterns.iter().map(f), context)
    }
}

pub fn table_usage(table: &Table, settings: &Settings) -> Result<TableUsage, EngineError> {
    let mut usage = TableUsage::default();
    for pattern in &table.patterns {
        usage
            .patterns
            .push(pattern_usage(table, pattern, settings)?);
    }
    if let Some(rate) = table.ttl_deletes {
        let context = format!("{}/ttl-deletes", table.name);
        let deletes = checked::some(rate.monthly(settings.month_hours), &context)?;
        let size = table.item_size_bytes.unwrap_or_default();
        usage.ttl_deletes = deletes;
        usage.ttl_delete_units = mul(deletes, units::item_write_units(size), &context)?;
        usage.ttl_delete_bytes = mul(deletes, size, &context)?;
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

fn pattern_usage(
    table: &Table,
    pattern: &AccessPattern,
    settings: &Settings,
) -> Result<PatternUsage, EngineError> {
    let context = format!("{}/patterns/{}", table.name, pattern.name);
    let ops = checked::some(pattern.rate.monthly(settings.month_hours), &context)?;
    let index_pos = pattern
        .index
        .as_ref()
        .and_then(|name| table.indexes.iter().position(|i| &i.name == name));
    let index = index_pos.map(|i| &table.indexes[i]);
    let size = item_bytes(table, pattern, index);
    let items = pattern.items_per_op;
    let mut usage = PatternUsage {
        name: pattern.name.clone(),
        index_read_units: vec![Decimal::ZERO; table.indexes.len()],
        index_write_units: vec![Decimal::ZERO; table.indexes.len()],
        ..PatternUsage::default()
    };
    let op = pattern.operation;
    if op.is_read() {
        let per_op = units::read_units_per_op(op, pattern.consistency, size, items);
        match (index_pos, index) {
            (Some(pos), Some(index)) => {
                if pattern.fetches_base_items {
                    // LSI query fetching non-projected attributes: the index part is rounded
                    // once over the entries, each fetched item on its own for its whole size.
                    let entry = index_entry_bytes(table, index, size);
                    let index_part =
                        units::read_units_per_op(op, pattern.consistency, entry, items);
                    let fetch = units::item_read_units(size)
                        * items
                        * units::consistency_factor(pattern.consistency);
                    usage.index_read_units[pos] = mul(ops, index_part, &context)?;
                    usage.read_units = mul(ops, fetch, &context)?;
                } else {
                    usage.index_read_units[pos] = mul(ops, per_op, &context)?;
                }
            }
            _ => usage.read_units = mul(ops, per_op, &context)?,
        }
        return Ok(usage);
    }
    usage.write_units = mul(ops, units::write_units_per_op(op, size, items), &context)?;
    let item_writes = units::items_written_per_op(op, items);
    usage.items_written = mul(ops, item_writes, &context)?;
    usage.plain_write_units = mul(usage.items_written, units::item_write_units(size), &context)?;
    usage.bytes_written = mul(usage.items_written, size, &context)?;
    for (pos, index) in table.indexes.iter().enumerate() {
        let writes_per_item = pattern
            .index_effects
            .iter()
            .find(|(name, _)| *name == index.name)
            .map_or_else(|| index_writes_per_item(op, index), |(_, w)| *w);
        let entry_units = units::item_write_units(index_entry_bytes(table, index, size));
        let per_item = writes_per_item * entry_units;
        usage.index_write_units[pos] = mul(usage.items_written, per_item, &context)?;
    }
    Ok(usage)
}

/// Index writes caused by writing one item (DESIGN.md §3, secondary-index writes): a put of
/// an item carrying the key writes 1 entry; an update that moves the key writes 2 (delete +
/// put), one that adds or removes it writes 1, and one that changes a projected attribute of
/// an indexed item writes 1; a delete removes the entry (1). Transactions and batches count
/// their items as puts. LSIs follow the same rules.
#[must_use]
pub fn index_writes_per_item(op: Operation, index: &Index) -> Decimal {
    match op {
        Operation::Update => {
            let key_changes =
                index.updates_moving_key + index.updates_adding_key + index.updates_removing_key;
            let others = (Decimal::ONE - key_changes).max(Decimal::ZERO);
            Decimal::TWO * index.updates_moving_key
                + index.updates_adding_key
                + index.updates_removing_key
                + others * index.key_share * index.updates_touching_projection
        }
        Operation::Put | Operation::Delete | Operation::BatchWrite | Operation::TransactWrite => {
            index.key_share
        }
        _ => Decimal::ZERO,
    }
}
