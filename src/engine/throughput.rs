//! Throughput lines: request units on demand (RRU/WRU per million), or provisioned capacity
//! (RCU/WCU per unit-hour), for the table and for each of its indexes. Observed unit counts
//! replace derived ones; their cost is still attributed to patterns by derived usage.

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::line::{LineSpec, Pricer, millions};
use super::usage::TableUsage;
use crate::model::{CapacityMode, IndexKind, PriceKey, ProvisionedCapacity, Table};

pub fn lines(
    pricer: &Pricer<'_>,
    table: &Table,
    usage: &TableUsage,
    warnings: &mut Vec<String>,
) -> Result<Vec<LineItem>, EngineError> {
    match table.capacity {
        CapacityMode::OnDemand => on_demand(pricer, table, usage),
        CapacityMode::Provisioned(capacity) => {
            provisioned(pricer, table, usage, capacity, warnings)
        }
    }
}

struct Units<'a> {
    key: String,
    component: Component,
    label: String,
    derived: Decimal,
    observed: Option<Decimal>,
    weights: Vec<(&'a str, Decimal)>,
    has_patterns: bool,
}

fn on_demand(
    pricer: &Pricer<'_>,
    table: &Table,
    usage: &TableUsage,
) -> Result<Vec<LineItem>, EngineError> {
    let t = &table.name;
    let mut specs = vec![
        Units {
            key: format!("{t}/reads"),
            component: Component::Reads,
            label: "Read request units".into(),
            derived: usage.total(t, |p| p.read_units)?,
            observed: table.observed.read_units,
            weights: usage.weights(|p| p.read_units),
            has_patterns: table
                .patterns
                .iter()
                .any(|p| p.operation.is_read() && (p.index.is_none() || p.fetches_base_items)),
        },
        Units {
            key: format!("{t}/writes"),
            component: Component::Writes,
            label: "Write request units".into(),
            derived: usage.total(t, |p| p.write_units)?,
            observed: table.observed.write_units,
            weights: usage.weights(|p| p.write_units),
            has_patterns: table.patterns.iter().any(|p| !p.operation.is_read()),
        },
    ];
    for (pos, index) in table.indexes.iter().enumerate() {
        let kind = index.kind.short();
        let reads = usage.total(t, |p| p.index_read_units[pos])?;
        specs.push(Units {
            key: format!("{t}/{kind}/{}/reads", index.name),
            component: Component::Reads,
            label: format!(
                "{} `{}` read request units",
                kind.to_uppercase(),
                index.name
            ),
            derived: reads,
            observed: index.observed.read_units,
            weights: usage.weights(|p| p.index_read_units[pos]),
            has_patterns: table
                .patterns
                .iter()
                .any(|p| p.index.as_deref() == Some(&index.name)),
        });
        specs.push(Units {
            key: format!("{t}/{kind}/{}/writes", index.name),
            component: Component::IndexWrites,
            label: format!(
                "{} `{}` write request units",
                kind.to_uppercase(),
                index.name
            ),
            derived: usage.total(t, |p| p.index_write_units[pos])?,
            observed: index.observed.write_units,
            weights: usage.weights(|p| p.index_write_units[pos]),
            has_patterns: table.patterns.iter().any(|p| !p.operation.is_read()),
        });
    }
    let mut out = Vec::new();
    for spec in specs {
        if !spec.has_patterns && spec.observed.is_none() {
            continue;
        }
        let price = match spec.component {
            Component::Reads => PriceKey::ReadPerMillion(table.class),
            _ => PriceKey::WritePerMillion(table.class),
        };
        let (units, basis, label) = match spec.observed {
            Some(observed) => (
                observed,
                Basis::Observed,
                format!(
                    "{} (observed; patterns derive {})",
                    spec.label,
                    spec.derived.normalize()
                ),
            ),
            None => (spec.derived, Basis::Derived, spec.label),
        };
        let unit = match spec.component {
            Component::Reads => "M RRU",
            _ => "M WRU",
        };
        out.push(pricer.line(
            LineSpec {
                key: spec.key,
                table: t,
                component: spec.component,
                label,
                region: pricer.primary_region(),
                unit,
                basis,
            },
            &price,
            Some(millions(units)),
            &spec.weights,
        )?);
    }
    Ok(out)
}

/// Provisioned capacity is paid per unit-hour whether used or not. LSIs share the table's
/// capacity; each GSI has its own. Average consumption above the provisioned level is
/// reported as a warning: those requests would be throttled.
fn provisioned(
    pricer: &Pricer<'_>,
    table: &Table,
    usage: &TableUsage,
    capacity: ProvisionedCapacity,
    warnings: &mut Vec<String>,
) -> Result<Vec<LineItem>, EngineError> {
    let t = &table.name;
    let hours = pricer.settings.month_hours;
    let seconds = checked::mul(hours, Decimal::from(3600), t)?;
    let lsi: Vec<usize> = (0..table.indexes.len())
        .filter(|&i| table.indexes[i].kind == IndexKind::Local)
        .collect();
    let base_reads = |p: &super::usage::PatternUsage| {
        p.read_units + lsi.iter().map(|&i| p.index_read_units[i]).sum::<Decimal>()
    };
    let base_writes = |p: &super::usage::PatternUsage| {
        p.write_units + lsi.iter().map(|&i| p.index_write_units[i]).sum::<Decimal>()
    };
    let mut groups = vec![(
        t.to_string(),
        format!("table `{t}`"),
        capacity,
        table
            .observed
            .read_units
            .map_or_else(|| usage.total(t, base_reads), Ok)?,
        table
            .observed
            .write_units
            .map_or_else(|| usage.total(t, base_writes), Ok)?,
        usage.weights(base_reads),
        usage.weights(base_writes),
    )];
    for (pos, index) in table.indexes.iter().enumerate() {
        let (IndexKind::Global, Some(cap)) = (index.kind, index.capacity) else {
            continue;
        };
        groups.push((
            format!("{t}/gsi/{}", index.name),
            format!("GSI `{}`", index.name),
            cap,
            index
                .observed
                .read_units
                .map_or_else(|| usage.total(t, |p| p.index_read_units[pos]), Ok)?,
            index
                .observed
                .write_units
                .map_or_else(|| usage.total(t, |p| p.index_write_units[pos]), Ok)?,
            usage.weights(|p| p.index_read_units[pos]),
            usage.weights(|p| p.index_write_units[pos]),
        ));
    }
    let mut out = Vec::new();
    for (prefix, what, cap, reads, writes, read_w, write_w) in groups {
        let (read_component, write_component) = if prefix == *t {
            (Component::Reads, Component::Writes)
        } else {
            (Component::Reads, Component::IndexWrites)
        };
        for (kind, provisioned_units, consumed, component, price, weights) in [
            (
                "RCU",
                cap.rcu,
                reads,
                read_component,
                PriceKey::RcuHour(table.class),
                &read_w,
            ),
            (
                "WCU",
                cap.wcu,
                writes,
                write_component,
                PriceKey::WcuHour(table.class),
                &write_w,
            ),
        ] {
            let average = checked::div(consumed, seconds, t)?;
            if average > provisioned_units {
                warnings.push(format!(
                    "{what}: average consumption of {} {kind} exceeds the {} {kind} provisioned; requests above it would be throttled",
                    average.round_dp(2).normalize(),
                    provisioned_units.normalize()
                ));
            }
            out.push(pricer.line(
                LineSpec {
                    key: format!("{prefix}/{}", kind.to_lowercase()),
                    table: t,
                    component,
                    label: format!(
                        "Provisioned {kind}, {what} ({} × {} h)",
                        provisioned_units.normalize(),
                        hours.normalize()
                    ),
                    region: pricer.primary_region(),
                    unit: if kind == "RCU" {
                        "RCU-hour"
                    } else {
                        "WCU-hour"
                    },
                    basis: Basis::Derived,
                },
                &price,
                Some(checked::mul(provisioned_units, hours, t)?),
                weights,
            )?);
        }
    }
    Ok(out)
}
