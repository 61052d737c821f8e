//! Sizes the rules need: index entries (table keys + index keys + projected attributes) and
//! stored bytes (item + 100 B overhead, + 48 B in a global table), in the table and in each
//! index holding the item.

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use crate::model::{DataSize, Index, IndexKind, Projection, Settings, Table};

/// Per-item storage overhead in the table and in every index holding the item.
pub(super) const ITEM_OVERHEAD_BYTES: u32 = 100;
/// Extra per-item overhead in a global table.
pub(super) const GLOBAL_TABLE_OVERHEAD_BYTES: u32 = 48;

/// Bytes of one index entry for an item of `item_bytes` (ALL projects the whole item).
/// Load guarantees that the sizes needed for the projection are known wherever a pattern
/// needs them (an index whose sizes are placeholders has no patterns on its table, and its
/// storage is left to usage by `index_gb`).
#[must_use]
pub(super) fn index_entry_bytes(table: &Table, index: &Index, item_bytes: Decimal) -> Decimal {
    if let Some(entry) = index.entry_size_bytes {
        return entry;
    }
    // Every size here was bounded at load (an item is at most 400 KB): the sums are small,
    // and saturating arithmetic states it without a panic path.
    let keys = table
        .key_size_bytes
        .unwrap_or_default()
        .saturating_add(index.key_size_bytes.unwrap_or_default());
    match index.projection {
        Projection::All => item_bytes,
        Projection::KeysOnly => keys,
        Projection::Include { projected_bytes } => keys.saturating_add(projected_bytes),
    }
}

/// Overhead per stored item: 100 B, plus 48 B for a global table.
#[must_use]
pub(super) fn overhead_bytes(table: &Table) -> Decimal {
    let mut overhead = Decimal::from(ITEM_OVERHEAD_BYTES);
    if !table.replicas.is_empty() {
        overhead = overhead.saturating_add(Decimal::from(GLOBAL_TABLE_OVERHEAD_BYTES));
    }
    overhead
}

/// Billed GB of a size stated in the workload, under the GB convention.
pub(super) fn stated_gb(
    size: DataSize,
    settings: &Settings,
    context: &str,
) -> Result<Decimal, EngineError> {
    checked::some(
        size.to_gb(settings.gb.gb_bytes(), settings.gb.step()),
        context,
    )
}

/// Table storage in GB: observed, stated, or items × (size + overhead). `None` if unknown.
pub(super) fn table_gb(table: &Table, settings: &Settings) -> Result<Option<Decimal>, EngineError> {
    let context = &*table.name;
    if let Some(size) = table.observed.storage.or(table.storage) {
        return stated_gb(size, settings, context).map(Some);
    }
    match (table.items, table.item_size_bytes) {
        (Some(items), Some(size)) => {
            let bytes = checked::mul(
                items,
                checked::add(size, overhead_bytes(table), context)?,
                context,
            )?;
            checked::div(bytes, settings.gb.gb_bytes(), context).map(Some)
        }
        _ => Ok(None),
    }
}

/// Index storage in GB: observed, or items carrying the key × (entry + overhead).
pub(super) fn index_gb(
    table: &Table,
    index: &Index,
    settings: &Settings,
) -> Result<Option<Decimal>, EngineError> {
    let context = &*index.name;
    if let Some(size) = index.observed.storage {
        return stated_gb(size, settings, context).map(Some);
    }
    let (Some(items), Some(item_bytes), true) =
        (table.items, table.item_size_bytes, index.sizes_known)
    else {
        return Ok(None);
    };
    let entry = checked::add(
        index_entry_bytes(table, index, item_bytes),
        overhead_bytes(table),
        context,
    )?;
    let entries = checked::mul(items, index.key_share, context)?;
    let bytes = checked::mul(entries, entry, context)?;
    checked::div(bytes, settings.gb.gb_bytes(), context).map(Some)
}

/// Stored GB of a table and of each of its indexes, computed once per estimate (each is a
/// decimal division) and shared by the storage, backup and replica lines.
#[derive(Debug, Clone)]
pub(super) struct TableSizes {
    pub table_gb: Option<Decimal>,
    /// In the table's index order.
    pub index_gb: Vec<Option<Decimal>>,
}

impl TableSizes {
    pub(super) fn of(table: &Table, settings: &Settings) -> Result<Self, EngineError> {
        let index_gb = table
            .indexes
            .iter()
            .map(|index| index_gb(table, index, settings))
            .collect::<Result<_, _>>()?;
        Ok(TableSizes {
            table_gb: table_gb(table, settings)?,
            index_gb,
        })
    }

    /// Table plus the indexes `include` keeps; `None` if any of them is unknown.
    fn sum(
        &self,
        table: &Table,
        include: impl Fn(&Index) -> bool,
    ) -> Result<Option<Decimal>, EngineError> {
        let mut total = self.table_gb;
        for (index, gb) in table.indexes.iter().zip(&self.index_gb) {
            if include(index) {
                total = match (total, gb) {
                    (Some(a), Some(b)) => Some(checked::add(a, *b, &table.name)?),
                    _ => None,
                };
            }
        }
        Ok(total)
    }

    /// Table + LSIs: what PITR and on-demand backups are billed on.
    pub(super) fn table_and_lsis(&self, table: &Table) -> Result<Option<Decimal>, EngineError> {
        self.sum(table, |i| i.kind == IndexKind::Local)
    }

    /// Table + every index: what a restore or a replica stores.
    pub(super) fn with_all_indexes(&self, table: &Table) -> Result<Option<Decimal>, EngineError> {
        self.sum(table, |_| true)
    }
}
