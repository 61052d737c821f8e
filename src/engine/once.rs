//! What a change costs once, beside what it costs a month (DESIGN "Changes that cost once"):
//! set a workload before a change against the one after, table by table.
//!
//! - A GSI added to a table that holds data is backfilled: every item carrying the index's key
//!   (`items × key_share`) is written to the index once, at the write units of its entry (by
//!   the projection's size, 1 KB a unit). On demand: those units at the table class's write
//!   request price. Provisioned: at the GSI's write capacity, the hours the backfill takes
//!   (units ÷ (WCU × 3,600)) and what those capacity hours cost.
//! - A new table's first load: an import from S3 (per GB of its data) and the same items
//!   written one by one (their write units at the class's price), both priced; the cheaper is
//!   the one-time cost, the other said.
//! - A table class or capacity mode switch costs nothing (AWS's limits said), a GSI removed
//!   costs nothing once.
//!
//! Item counts come from the workload (`items:`, else its storage ÷ (item size + 100 B)).
//! Pure: no file, clock or printing; exact decimals throughout.

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::line::Pricer;
use super::sizes::{index_entry_bytes, overhead_bytes, table_gb};
use super::units::item_write_units;
use crate::model::{
    Capacity, CapacityMode, Index, IndexKind, PriceBook, PriceKey, Settings, Table, TableClass,
    Workload,
};

/// What a change does once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A GSI added to a table with data: `entries` items carrying its key × `per_entry`
    /// write units = `units`; at `wcu` provisioned write capacity, `hours` long. `None`s:
    /// the table's items or item size are unknown.
    GsiBackfill {
        index: String,
        /// The index was there, with another projection or key: DynamoDB cannot change
        /// either in place, so it is deleted and created again.
        rebuilt: bool,
        entries: Option<Decimal>,
        per_entry: Option<Decimal>,
        units: Option<Decimal>,
        wcu: Option<Decimal>,
        hours: Option<Decimal>,
    },
    /// A new table's first load: `items` × `per_item` write units (GSI entries included) =
    /// `units`, costing `by_writes`; or an import of `gb` from S3 costing `by_import` (where
    /// the price table has the price). The cost is the cheaper.
    InitialLoad {
        items: Decimal,
        per_item: Decimal,
        units: Decimal,
        gb: Decimal,
        by_writes: Decimal,
        by_import: Option<Decimal>,
    },
    /// A table class switch (no charge).
    ClassSwitch {
        from: TableClass,
        to: TableClass,
    },
    /// A capacity mode switch (no charge); `to_on_demand` when it goes on demand.
    ModeSwitch {
        to_on_demand: bool,
    },
    /// A GSI deleted (no charge).
    GsiRemoved {
        index: String,
    },
    /// Items rewritten once (`once.rewrite`): `items` × `per_item` write units (the item's and
    /// each named GSI's entry) = `units`.
    Rewrite {
        items: Decimal,
        per_item: Decimal,
        units: Decimal,
        indexes: Vec<String>,
    },
    /// Data restored, exported or imported once (`once.restore`, `.export`, `.import`), GB.
    Restore {
        gb: Decimal,
    },
    Export {
        gb: Decimal,
    },
    Import {
        gb: Decimal,
    },
    /// A warm throughput raise, priced only where its price is stated.
    WarmThroughput {
        reads: Option<Decimal>,
        writes: Option<Decimal>,
    },
}

/// One thing a change costs once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OneTime {
    pub table: String,
    pub change: Change,
    /// The one-time cost; `None` where the workload does not say enough (items unknown).
    pub cost: Option<Decimal>,
}

/// The one-time costs of going from `before` to `after`, in `after`'s table order.
///
/// # Errors
/// A price the change needs that the price table lacks; a figure past a decimal's range.
pub(crate) fn one_time(
    before: &Workload,
    after: &Workload,
    prices: &PriceBook,
    settings: &Settings,
) -> Result<Vec<OneTime>, EngineError> {
    let pricer = Pricer::new(prices, settings);
    let mut out = Vec::new();
    for table in &after.tables {
        let old = before.tables.iter().find(|t| t.name == table.name);
        match old {
            Some(old) => changed(&pricer, old, table, settings, &mut out)?,
            None => out.extend(first_load(&pricer, table, settings)?),
        }
        stated(&pricer, old.map(|t| &t.once), table, settings, &mut out)?;
    }
    Ok(out)
}

/// The one-time work `table` states (`once:`) that the version before did not state alike.
fn stated(
    pricer: &Pricer<'_>,
    before: Option<&crate::model::Once>,
    table: &Table,
    settings: &Settings,
    out: &mut Vec<OneTime>,
) -> Result<(), EngineError> {
    let context = &*table.name;
    let region = pricer.region_of(table);
    let once = &table.once;
    let push = |change: Change, cost: Option<Decimal>, out: &mut Vec<OneTime>| {
        out.push(OneTime {
            table: table.name.to_string(),
            change,
            cost,
        });
    };
    if let Some(r) = &once.rewrite
        && before.is_none_or(|b| b.rewrite != once.rewrite)
    {
        let bytes = r.item_bytes.or(table.item_size_bytes).unwrap_or_default();
        let mut per_item = checked::some(item_write_units(bytes), context)?;
        for name in &r.indexes {
            if let Some(index) = table.indexes.iter().find(|i| *i.name == **name) {
                let entry = checked::some(
                    item_write_units(index_entry_bytes(table, index, bytes)),
                    context,
                )?;
                per_item = checked::add(
                    per_item,
                    checked::mul(entry, index.key_share, context)?,
                    context,
                )?;
            }
        }
        let units = checked::mul(r.items, per_item, context)?;
        let cost = writes_cost(pricer, table, units)?;
        push(
            Change::Rewrite {
                items: r.items,
                per_item,
                units,
                indexes: r.indexes.clone(),
            },
            Some(cost),
            out,
        );
    }
    type Sized = (
        fn(&crate::model::Once) -> Option<crate::model::DataSize>,
        fn(Decimal) -> Change,
        PriceKey,
    );
    let sized: [Sized; 3] = [
        (
            |o| o.restore,
            |gb| Change::Restore { gb },
            PriceKey::RestoreGb,
        ),
        (|o| o.export, |gb| Change::Export { gb }, PriceKey::ExportGb),
        (|o| o.import, |gb| Change::Import { gb }, PriceKey::ImportGb),
    ];
    for (get, change, key) in sized {
        let Some(size) = get(once) else { continue };
        if before.is_some_and(|b| get(b) == Some(size)) {
            continue;
        }
        let gb = super::sizes::stated_gb(size, settings, context)?;
        let price = pricer.price(&region, &key, context)?;
        push(change(gb), Some(checked::mul(gb, price, context)?), out);
    }
    if let Some(w) = &once.warm_throughput
        && before.is_none_or(|b| b.warm_throughput != once.warm_throughput)
    {
        push(
            Change::WarmThroughput {
                reads: w.reads,
                writes: w.writes,
            },
            w.price,
            out,
        );
    }
    Ok(())
}

/// Items in a table: stated, else its stored bytes over an item's (size + overhead).
fn items(table: &Table, settings: &Settings) -> Result<Option<Decimal>, EngineError> {
    if let Some(n) = table.items {
        return Ok(Some(n));
    }
    let (Some(gb), Some(size)) = (table_gb(table, settings)?, table.item_size_bytes) else {
        return Ok(None);
    };
    let context = &*table.name;
    let bytes = checked::mul(gb, settings.gb.gb_bytes(), context)?;
    let per_item = checked::add(size, overhead_bytes(table), context)?;
    // Whole items: the stored bytes hold this many, and a part of one more.
    checked::div(bytes, per_item, context).map(|n| Some(n.trunc()))
}

/// Write units of one entry of `index` (or, `None`, of one item): by each size class where
/// the table states them and the entry is the whole item, else by the one size.
fn units_per_entry(table: &Table, index: Option<&Index>) -> Result<Option<Decimal>, EngineError> {
    let context = &*table.name;
    let Some(item) = table.item_size_bytes else {
        return Ok(None);
    };
    let whole = index.is_none_or(|i| {
        i.entry_size_bytes.is_none() && matches!(i.projection, crate::model::Projection::All)
    });
    if whole && !table.item_size_classes.is_empty() {
        let mut units = Decimal::ZERO;
        let mut weights = Decimal::ZERO;
        for c in &table.item_size_classes {
            let u = checked::some(item_write_units(c.bytes), context)?;
            units = checked::add(units, checked::mul(u, c.weight, context)?, context)?;
            weights = checked::add(weights, c.weight, context)?;
        }
        return if weights.is_zero() {
            Ok(None)
        } else {
            checked::div(units, weights, context).map(Some)
        };
    }
    let bytes = index.map_or(item, |i| index_entry_bytes(table, i, item));
    item_write_units(bytes)
        .map(Some)
        .ok_or_else(|| EngineError::Overflow {
            context: context.to_string(),
        })
}

/// `units` write request units on `table`, at its class's on-demand price in its region.
fn writes_cost(pricer: &Pricer<'_>, table: &Table, units: Decimal) -> Result<Decimal, EngineError> {
    let context = &*table.name;
    let price = pricer.price(
        &pricer.region_of(table),
        &PriceKey::WritePerMillion(table.class),
        context,
    )?;
    checked::div(
        checked::mul(units, price, context)?,
        Decimal::from(1_000_000),
        context,
    )
}

/// What changed on a table that was there before.
fn changed(
    pricer: &Pricer<'_>,
    old: &Table,
    new: &Table,
    settings: &Settings,
    out: &mut Vec<OneTime>,
) -> Result<(), EngineError> {
    let table = new.name.to_string();
    let free = |change: Change| OneTime {
        table: table.clone(),
        change,
        cost: Some(Decimal::ZERO),
    };
    for index in new.indexes.iter().filter(|i| i.kind == IndexKind::Global) {
        match old.indexes.iter().find(|o| o.name == index.name) {
            None => out.push(backfill(pricer, new, index, settings, false)?),
            Some(o)
                if o.projection != index.projection
                    || o.key != index.key
                    || o.include != index.include =>
            {
                out.push(backfill(pricer, new, index, settings, true)?);
            }
            Some(_) => {}
        }
    }
    for index in old.indexes.iter().filter(|i| i.kind == IndexKind::Global) {
        if !new.indexes.iter().any(|n| n.name == index.name) {
            out.push(free(Change::GsiRemoved {
                index: index.name.to_string(),
            }));
        }
    }
    if old.class != new.class {
        out.push(free(Change::ClassSwitch {
            from: old.class,
            to: new.class,
        }));
    }
    let on_demand = |c: &CapacityMode| matches!(c, CapacityMode::OnDemand);
    if on_demand(&old.capacity) != on_demand(&new.capacity) {
        out.push(free(Change::ModeSwitch {
            to_on_demand: on_demand(&new.capacity),
        }));
    }
    Ok(())
}

/// A GSI added to a table with data: its backfill.
fn backfill(
    pricer: &Pricer<'_>,
    table: &Table,
    index: &Index,
    settings: &Settings,
    rebuilt: bool,
) -> Result<OneTime, EngineError> {
    let context = &*table.name;
    let unknown = OneTime {
        table: table.name.to_string(),
        change: Change::GsiBackfill {
            index: index.name.to_string(),
            rebuilt,
            entries: None,
            per_entry: None,
            units: None,
            wcu: None,
            hours: None,
        },
        cost: None,
    };
    let (Some(items), Some(per_entry)) = (
        items(table, settings)?,
        units_per_entry(table, Some(index))?,
    ) else {
        return Ok(unknown);
    };
    let region = pricer.region_of(table);
    let entries = checked::mul(items, index.key_share, context)?;
    let units = checked::mul(entries, per_entry, context)?;
    let provisioned = match (&table.capacity, index.capacity.as_ref().map(|c| &c.write)) {
        (
            CapacityMode::Provisioned(_),
            Some(Capacity::Fixed(wcu) | Capacity::AutoScaling { max: wcu, .. }),
        ) if !wcu.is_zero() => Some(*wcu),
        _ => None,
    };
    let (cost, hours) = match provisioned {
        Some(wcu) => {
            let per_hour = checked::mul(wcu, Decimal::from(3600), context)?;
            let hours = checked::div(units, per_hour, context)?;
            let price = pricer.price(&region, &PriceKey::WcuHour(table.class), context)?;
            let cost = checked::mul(checked::mul(hours, wcu, context)?, price, context)?;
            (cost, Some(hours))
        }
        None => {
            let cost = writes_cost(pricer, table, units)?;
            (cost, None)
        }
    };
    Ok(OneTime {
        table: table.name.to_string(),
        change: Change::GsiBackfill {
            index: index.name.to_string(),
            rebuilt,
            entries: Some(entries),
            per_entry: Some(per_entry),
            units: Some(units),
            wcu: provisioned,
            hours,
        },
        cost: Some(cost),
    })
}

/// A new table's first load, where it states its items: by import from S3 and by writes
/// (the table's and each GSI's entries).
fn first_load(
    pricer: &Pricer<'_>,
    table: &Table,
    settings: &Settings,
) -> Result<Option<OneTime>, EngineError> {
    let context = &*table.name;
    let (Some(items), Some(own), Some(gb)) = (
        items(table, settings)?,
        units_per_entry(table, None)?,
        table_gb(table, settings)?,
    ) else {
        return Ok(None);
    };
    if items.is_zero() {
        return Ok(None);
    }
    let mut per_item = own;
    for index in table.indexes.iter().filter(|i| i.kind == IndexKind::Global) {
        let Some(entry) = units_per_entry(table, Some(index))? else {
            return Ok(None);
        };
        per_item = checked::add(
            per_item,
            checked::mul(entry, index.key_share, context)?,
            context,
        )?;
    }
    let region = pricer.region_of(table);
    let units = checked::mul(items, per_item, context)?;
    let write_price = pricer.price(&region, &PriceKey::WritePerMillion(table.class), context)?;
    let by_writes = checked::div(
        checked::mul(units, write_price, context)?,
        Decimal::from(1_000_000),
        context,
    )?;
    let by_import = pricer
        .price(&region, &PriceKey::ImportGb, context)
        .ok()
        .map(|p| checked::mul(gb, p, context))
        .transpose()?;
    let cost = by_import.map_or(by_writes, |i| i.min(by_writes));
    Ok(Some(OneTime {
        table: table.name.to_string(),
        change: Change::InitialLoad {
            items,
            per_item,
            units,
            gb,
            by_writes,
            by_import,
        },
        cost: Some(cost),
    }))
}
