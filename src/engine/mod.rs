//! The pricing engine: `estimate(&Workload, &PriceBook, &Settings) -> Estimate`. It is pure —
//! no files, clock, environment or printing — and exact: every quantity and amount is a
//! `Decimal`, arithmetic that could overflow is checked, and nothing is rounded here
//! (rounding to the currency's minor unit belongs to `report`).
//!
//! One small module per billing dimension, each returning line items: `throughput` (reads,
//! writes, index reads and writes, provisioned capacity), `storage` (table and index storage,
//! PITR, backups, restores, S3 export/import), `streams` (DynamoDB Streams, Kinesis CDC, TTL),
//! `replicas` (global tables) and `free_tier`; `fx` shows an estimate in another currency; `forecast` prices month after month. An estimate's total is the
//! exact sum of its lines, rounded once (`exact_sum`).

pub(crate) mod burst;
mod capacity;
pub(crate) mod checked;
mod commitment_advice;
mod commitments;
mod dax;
mod error;
mod estimate;
pub(crate) mod exact_sum;
mod forecast;
mod free_tier;
mod fx;
mod insights;
pub(crate) mod label;
mod line;
pub(crate) mod measured;
pub(crate) mod notice;
mod observed;
pub(crate) mod once;
mod partitions;
mod replicas;
mod reservations;
mod savings_plan;
pub(crate) mod simulate;
mod simulate_fixed;
mod sizes;
mod storage;
mod streams;
pub(crate) mod tenants;
mod throughput;
mod transfer;
pub(crate) mod units;
mod usage;
mod vector;
pub(crate) mod verdict;

pub use commitment_advice::{CommitmentAdvice, CommitmentOption};
pub(crate) use commitment_advice::{LOWER_TRAFFIC, advise_commitments};
pub(crate) use commitments::CommitmentKind;
pub(crate) use commitments::{commitment_groups, commitment_of, reserved_unit_hours};
pub use error::EngineError;
pub(crate) use estimate::PriceTableRef;
pub use estimate::{Attribution, Basis, Component, Estimate, LineItem};
pub(crate) use forecast::forecast;
pub use forecast::{Forecast, ForecastMonth};
pub(crate) use fx::{convert, convert_book};
pub(crate) use partitions::TablePartitions;
pub use partitions::{KeyAssessment, KeyVerdict};
pub(crate) use partitions::{assess_key, key_peaks};
pub(crate) use savings_plan::SavingsPlanUse;
pub(crate) use usage::item_flows;

use crate::model::{PriceBook, Settings, Workload};

/// Prices `workload` with `prices` under `settings`.
///
/// # Errors
/// A price the workload needs is missing from the price table, a replica region has no price
/// table, or a figure is too large to compute exactly.
pub(crate) fn estimate(
    workload: &Workload,
    prices: &PriceBook,
    settings: &Settings,
) -> Result<Estimate, EngineError> {
    estimate_with(workload, prices, settings, Detail::Full)
}

/// What an estimate works out besides its lines and total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detail {
    /// Everything: each table's partitions, and the peak and key warnings.
    Full,
    /// The lines and the total: an on-demand table gets no partition estimate, no peak and
    /// no key warning — figures that never change a cost, from its hour-by-hour demand
    /// (what `sweep` ranks thousands of designs by needs none of them).
    Totals,
}

/// `estimate`, working out `detail`.
///
/// # Errors
/// As `estimate`.
pub(crate) fn estimate_with(
    workload: &Workload,
    prices: &PriceBook,
    settings: &Settings,
    detail: Detail,
) -> Result<Estimate, EngineError> {
    // Counts measured over a window, priced for this month's hours, and said.
    let windowed = observed::windows(workload, settings.month_hours);
    let workload = &*observed::for_month(workload, settings.month_hours)?;
    let pricer = line::Pricer::new(prices, settings);
    let mut acc = Bill {
        // Roughly 16 lines per table with every feature on; avoids regrowing a vector.
        lines: Vec::with_capacity(workload.tables.len().saturating_mul(16).saturating_add(4)),
        warnings: Vec::new(),
        plans: Vec::new(),
        shapes: Vec::new(),
        partitions: Vec::with_capacity(workload.tables.len()),
    };
    for table in &workload.tables {
        table_lines(&pricer, workload, table, detail, &mut acc)?;
    }
    let plan_use = account_lines(&pricer, workload, &mut acc)?;
    let Bill {
        lines,
        mut warnings,
        partitions: table_partitions,
        ..
    } = acc;
    // The exact sum of the lines, rounded once (see `exact_sum`).
    let (mut total, mut exact) = (rust_decimal::Decimal::ZERO, None);
    let mut excluded = Vec::new();
    for item in &lines {
        match item.cost {
            Some(cost) => checked::some(exact_sum::add_to(&mut total, &mut exact, cost), "total")?,
            None => excluded.push(item.key.clone()),
        }
    }
    if !workload.placeholders.is_empty() {
        warnings.push(notice::Notice::Placeholders(workload.placeholders.clone()));
    }
    warnings.extend(windowed);
    let primary = &prices.primary;
    // The tables that priced a line besides the primary: those of the lines' regions.
    let mut other_price_tables: Vec<PriceTableRef> = Vec::new();
    for item in &lines {
        if *item.region != *primary.region
            && !other_price_tables.iter().any(|t| *t.region == *item.region)
            && let Some(t) = prices
                .others
                .iter()
                .find(|t| *t.region == *item.region && t.currency == primary.currency)
        {
            other_price_tables.push(PriceTableRef::of(t));
        }
    }
    Ok(Estimate {
        workload: workload.name.clone(),
        currency: primary.currency.clone(),
        fx: None,
        price_table: PriceTableRef::of(primary),
        other_price_tables,
        settings: settings.clone(),
        line_items: lines,
        total,
        excluded,
        warnings,
        savings_plan: plan_use,
        partitions: table_partitions,
        tags: workload
            .tables
            .iter()
            .filter(|t| !t.tags.is_empty())
            .map(|t| (std::sync::Arc::clone(&t.name), t.tags.clone()))
            .collect(),
    })
}

/// What pricing the tables gathers for the account-wide lines after them.
struct Bill {
    lines: Vec<LineItem>,
    warnings: Vec<notice::Notice>,
    /// Provisioned plans per table, for reservations pooled per region.
    plans: Vec<(
        std::sync::Arc<str>,
        crate::model::TableClass,
        capacity::TablePlans,
    )>,
    /// Hourly shapes of throughput lines, for a savings plan's hour-by-hour cover.
    shapes: savings_plan::Shapes,
    partitions: Vec<partitions::TablePartitions>,
}

/// One table's lines, in the bill's order: throughput, storage, streams, replicas.
fn table_lines(
    pricer: &line::Pricer<'_>,
    workload: &Workload,
    table: &crate::model::Table,
    detail: Detail,
    acc: &mut Bill,
) -> Result<(), EngineError> {
    let settings = pricer.settings;
    // A table that lists its own region among its replicas: that region is its home (the
    // layout Terraform and CloudFormation write), said once.
    let home = pricer.region_of(table);
    let without_home;
    let table = if table.replicas.iter().any(|r| **r == *home) {
        acc.warnings.push(notice::Notice::Note(format!(
            "table `{}` lists its own region `{home}` among its replicas: read as its home region (the replicas are the others)",
            table.name
        )));
        without_home = crate::model::Table {
            replicas: table
                .replicas
                .iter()
                .filter(|r| **r != *home)
                .cloned()
                .collect(),
            ..table.clone()
        };
        &without_home
    } else {
        table
    };
    let usage = usage::table_usage(table, settings)?;
    // With a TTL retention and no stated count, the items stored are the inserts of one
    // retention period (steady state).
    let retained = retained_items(table, &usage, settings)?;
    let sized = retained.map(|items| crate::model::Table {
        items: Some(items),
        ..table.clone()
    });
    let sizes = sizes::TableSizes::of(sized.as_ref().unwrap_or(table), settings)?;
    let plans = capacity::table_plans(table, &usage, settings.month_hours)?;
    // Provisioned plans already hold the peaks (and their partitions are cheap); an
    // on-demand table's are summed hour by hour, for diagnostics only. They cannot fail
    // where the lines succeed — each hour's demand is at most the month's units (already
    // computed) over its seconds times a multiplier of a profile normalized to a mean of 1,
    // the key checks multiply it by shares of at most 1 and divide by constants — so leaving
    // them out changes no outcome: the same lines, the same total, the same errors.
    let parts = if detail == Detail::Full || plans.is_some() {
        Some(partitions::table_partitions(
            table,
            &usage,
            &sizes,
            plans.as_ref(),
            settings,
        )?)
    } else {
        None
    };
    if workload.savings_plan.is_some() {
        savings_plan::table_shapes(
            table,
            &usage,
            plans.as_ref(),
            settings.month_hours,
            &mut acc.shapes,
        )?;
    }
    throughput::lines(
        pricer,
        table,
        &usage,
        plans.as_ref(),
        parts.as_ref(),
        &mut acc.lines,
        &mut acc.warnings,
    )?;
    if let Some(parts) = parts {
        partitions::key_warnings(table, &usage, &parts, settings, &mut acc.warnings)?;
        acc.partitions.push(parts);
    }
    let storage_lines = storage::lines(pricer, table, &sizes)?;
    acc.lines.extend(storage_lines.into_iter().map(|mut l| {
        if let (Some(items), Some(ttl)) = (retained, table.ttl)
            && l.component == Component::Storage
            && let label::Label::TableStorage { ttl: note, .. } = &mut l.label
        {
            *note = Some(label::TtlNote {
                items,
                inserts: usage.inserts,
                ttl,
            });
        }
        l
    }));
    acc.lines.extend(streams::lines(pricer, table, &usage)?);
    acc.lines.extend(replicas::lines(
        pricer,
        table,
        &usage,
        &sizes,
        plans.as_ref(),
    )?);
    acc.lines
        .extend(transfer::table_line(pricer, table, &usage)?);
    acc.lines.extend(dax::line(pricer, table)?);
    acc.lines.extend(vector::lines(pricer, table)?);
    acc.lines.extend(insights::lines(pricer, table)?);
    if let Some(mut p) = plans
        && !workload.reservations.is_empty()
    {
        // A global table's own write capacity is rWCU: the account's reserved WCU never
        // covers it (its GSIs' WCU are ordinary and may be covered).
        if !table.replicas.is_empty() {
            p.write = capacity::Plan {
                unit_hours: rust_decimal::Decimal::ZERO,
                unreserved_unit_hours: rust_decimal::Decimal::ZERO,
                average_units: rust_decimal::Decimal::ZERO,
                hourly: vec![rust_decimal::Decimal::ZERO],
                ..p.write
            };
        }
        acc.plans.push((pricer.region_of(table), table.class, p));
    }
    Ok(())
}

/// The account's lines after the tables': reservations, the free tier, and the savings plan
/// (which covers what is left after the other two). Returns how the plan was used.
fn account_lines(
    pricer: &line::Pricer<'_>,
    workload: &Workload,
    acc: &mut Bill,
) -> Result<Option<SavingsPlanUse>, EngineError> {
    if !workload.reservations.is_empty() {
        let pool: Vec<reservations::Pooled<'_>> = acc
            .plans
            .iter()
            .map(|(region, class, plans)| reservations::Pooled {
                region: std::sync::Arc::clone(region),
                class: *class,
                plans,
            })
            .collect();
        let reserved = reservations::lines(pricer, &workload.reservations, &pool, &mut acc.shapes)?;
        acc.lines.extend(reserved);
    }
    let transfer = transfer::account_lines(pricer, &acc.lines)?;
    acc.lines.extend(transfer);
    if pricer.settings.free_tier {
        let free = free_tier::lines(pricer, workload, &acc.lines)?;
        acc.lines.extend(free);
    }
    let Some(plan) = &workload.savings_plan else {
        return Ok(None);
    };
    let (plan_lines, used) =
        savings_plan::lines(pricer, plan, &acc.lines, &acc.shapes, &mut acc.warnings)?;
    acc.lines.extend(plan_lines);
    Ok(Some(used))
}

/// Items a table holds when TTL removes them after `ttl` and the workload states no count:
/// inserts per month × the retention in months.
fn retained_items(
    table: &crate::model::Table,
    usage: &usage::TableUsage,
    settings: &Settings,
) -> Result<Option<rust_decimal::Decimal>, EngineError> {
    let (None, None, Some(ttl)) = (table.items, table.storage, table.ttl) else {
        return Ok(None);
    };
    let months = checked::some(ttl.months(settings.month_hours), &table.name)?;
    checked::mul(usage.inserts, months, &table.name).map(Some)
}

/// Utilization at which provisioned capacity costs the same as on-demand requests, for reads
/// and for writes: a unit provisioned for an hour serves at most 3,600 request units, so
/// provisioned wins above `unit-hour price ÷ (3,600 × on-demand price per unit)`.
/// `None` where the price table lacks one of the prices.
#[must_use]
pub(crate) fn break_even_utilization(
    prices: &crate::model::PriceTable,
    class: crate::model::TableClass,
) -> Option<(rust_decimal::Decimal, rust_decimal::Decimal)> {
    use crate::model::PriceKey;
    use rust_decimal::Decimal;
    // Custom price tables may hold any price: every step is checked, and a ratio that cannot
    // be represented (or a zero on-demand price) gives no break-even.
    let per_unit_hour = |per_million: Decimal| {
        per_million
            .checked_mul(Decimal::from(3600))?
            .checked_div(Decimal::from(1_000_000))
    };
    let reads = prices
        .get(&PriceKey::RcuHour(class))?
        .checked_div(per_unit_hour(
            prices.get(&PriceKey::ReadPerMillion(class))?,
        )?)?;
    let writes = prices
        .get(&PriceKey::WcuHour(class))?
        .checked_div(per_unit_hour(
            prices.get(&PriceKey::WritePerMillion(class))?,
        )?)?;
    Some((reads, writes))
}

/// `share` as a percentage (× 100), or `None` when it cannot be represented.
#[must_use]
pub(crate) fn percent(share: rust_decimal::Decimal) -> Option<rust_decimal::Decimal> {
    share.checked_mul(rust_decimal::Decimal::ONE_HUNDRED)
}

/// `part` as a percentage of `whole`, or `None` when `whole` is zero or the ratio cannot be
/// represented (extreme custom prices).
#[must_use]
pub(crate) fn percent_of(
    part: rust_decimal::Decimal,
    whole: rust_decimal::Decimal,
) -> Option<rust_decimal::Decimal> {
    if whole.is_zero() {
        return None;
    }
    percent(part.checked_div(whole)?).or_else(|| {
        part.checked_mul(rust_decimal::Decimal::ONE_HUNDRED)?
            .checked_div(whole)
    })
}

/// Decimal literal for tests: `dec("40.8")`.
#[cfg(test)]
pub(crate) fn dec(s: &str) -> rust_decimal::Decimal {
    s.parse().expect("test decimal")
}
