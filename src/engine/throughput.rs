//! Throughput lines: request units on demand (RRU/WRU per million), or provisioned capacity
//! (RCU/WCU per unit-hour), for the table and for each of its indexes. Observed unit counts
//! replace derived ones; their cost is still attributed to patterns by derived usage.

use std::borrow::Cow;
use std::sync::Arc;

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::line::{LineSpec, Pricer, cat, millions};
use super::usage::{Metric, TableUsage};
use crate::model::{CapacityMode, IndexKind, PriceKey, ProvisionedCapacity, Table};

pub fn lines(
    pricer: &Pricer<'_>,
    table: &Table,
    usage: &TableUsage,
    out: &mut Vec<LineItem>,
    warnings: &mut Vec<String>,
) -> Result<(), EngineError> {
    let t = &Arc::<str>::from(table.name.as_str());
    match table.capacity {
        CapacityMode::OnDemand => on_demand(pricer, table, t, usage, out),
        CapacityMode::Provisioned(capacity) => {
            provisioned(pricer, table, t, usage, capacity, out, warnings)
        }
    }
}

/// One on-demand request line: derived from `metric`, or observed.
struct RequestLine {
    key: String,
    component: Component,
    label: Cow<'static, str>,
    metric: Metric,
    observed: Option<Decimal>,
}

fn on_demand(
    pricer: &Pricer<'_>,
    table: &Table,
    t: &Arc<str>,
    usage: &TableUsage,
    out: &mut Vec<LineItem>,
) -> Result<(), EngineError> {
    let reads_on_table = table
        .patterns
        .iter()
        .any(|p| p.operation.is_read() && (p.index.is_none() || p.fetches_base_items));
    let any_writes = table.patterns.iter().any(|p| !p.operation.is_read());
    let mut requests = Vec::with_capacity(2 + 2 * table.indexes.len());
    if reads_on_table || table.observed.read_units.is_some() {
        requests.push(RequestLine {
            key: cat!(t, "/reads"),
            component: Component::Reads,
            label: Cow::Borrowed("Read request units"),
            metric: Metric::Reads,
            observed: table.observed.read_units,
        });
    }
    if any_writes || table.observed.write_units.is_some() {
        requests.push(RequestLine {
            key: cat!(t, "/writes"),
            component: Component::Writes,
            label: Cow::Borrowed("Write request units"),
            metric: Metric::Writes,
            observed: table.observed.write_units,
        });
    }
    for (pos, index) in table.indexes.iter().enumerate() {
        let kind = index.kind.short();
        let queried = table
            .patterns
            .iter()
            .any(|p| p.index.as_deref() == Some(&index.name));
        if queried || index.observed.read_units.is_some() {
            requests.push(RequestLine {
                key: cat!(t, "/", kind, "/", index.name, "/reads"),
                component: Component::Reads,
                label: Cow::Owned(cat!(
                    index.kind.upper(),
                    " `",
                    index.name,
                    "` read request units"
                )),
                metric: Metric::IndexReads(pos),
                observed: index.observed.read_units,
            });
        }
        if any_writes || index.observed.write_units.is_some() {
            requests.push(RequestLine {
                key: cat!(t, "/", kind, "/", index.name, "/writes"),
                component: Component::IndexWrites,
                label: Cow::Owned(cat!(
                    index.kind.upper(),
                    " `",
                    index.name,
                    "` write request units"
                )),
                metric: Metric::IndexWrites(pos),
                observed: index.observed.write_units,
            });
        }
    }
    for r in requests {
        let derived = usage.total(r.metric);
        let (units, basis, label) = match r.observed {
            Some(observed) => (
                observed,
                Basis::Observed,
                Cow::Owned(format!(
                    "{} (observed; patterns derive {})",
                    r.label,
                    derived.normalize()
                )),
            ),
            None => (derived, Basis::Derived, r.label),
        };
        let (price, unit) = match r.component {
            Component::Reads => (PriceKey::ReadPerMillion(table.class), "M RRU"),
            _ => (PriceKey::WritePerMillion(table.class), "M WRU"),
        };
        out.push(pricer.line(
            LineSpec {
                key: r.key,
                table: t,
                component: r.component,
                label,
                region: pricer.primary_region(),
                unit,
                basis,
            },
            &price,
            Some(millions(units)),
            usage.weights(r.metric),
        )?);
    }
    Ok(())
}

/// Provisioned capacity is paid per unit-hour whether used or not. LSIs share the table's
/// capacity; each GSI has its own. Average consumption above the provisioned level is
/// reported as a warning: those requests would be throttled.
fn provisioned(
    pricer: &Pricer<'_>,
    table: &Table,
    t: &Arc<str>,
    usage: &TableUsage,
    capacity: ProvisionedCapacity,
    out: &mut Vec<LineItem>,
    warnings: &mut Vec<String>,
) -> Result<(), EngineError> {
    let hours = pricer.settings.month_hours;
    let seconds = checked::mul(hours, Decimal::from(3600), t)?;
    let mut groups = vec![(
        t.to_string(),
        cat!("table `", t, "`"),
        capacity,
        (Metric::BaseReads, table.observed.read_units),
        (Metric::BaseWrites, table.observed.write_units),
        Component::Writes,
    )];
    for (pos, index) in table.indexes.iter().enumerate() {
        let (IndexKind::Global, Some(cap)) = (index.kind, index.capacity) else {
            continue;
        };
        groups.push((
            cat!(t, "/gsi/", index.name),
            cat!("GSI `", index.name, "`"),
            cap,
            (Metric::IndexReads(pos), index.observed.read_units),
            (Metric::IndexWrites(pos), index.observed.write_units),
            Component::IndexWrites,
        ));
    }
    for (prefix, what, cap, reads, writes, write_component) in groups {
        for (kind, provisioned_units, (metric, observed), component, price, unit) in [
            (
                "rcu",
                cap.rcu,
                reads,
                Component::Reads,
                PriceKey::RcuHour(table.class),
                "RCU-hour",
            ),
            (
                "wcu",
                cap.wcu,
                writes,
                write_component,
                PriceKey::WcuHour(table.class),
                "WCU-hour",
            ),
        ] {
            let consumed = observed.unwrap_or_else(|| usage.total(metric));
            let average = checked::div(consumed, seconds, t)?;
            let upper = if kind == "rcu" { "RCU" } else { "WCU" };
            if average > provisioned_units {
                warnings.push(format!(
                    "{what}: average consumption of {} {upper} exceeds the {} {upper} provisioned; requests above it would be throttled",
                    average.round_dp(2).normalize(),
                    provisioned_units.normalize()
                ));
            }
            out.push(pricer.line(
                LineSpec {
                    key: cat!(prefix, "/", kind),
                    table: t,
                    component,
                    label: Cow::Owned(format!(
                        "Provisioned {upper}, {what} ({} × {} h)",
                        provisioned_units.normalize(),
                        hours.normalize()
                    )),
                    region: pricer.primary_region(),
                    unit,
                    basis: Basis::Derived,
                },
                &price,
                Some(checked::mul(provisioned_units, hours, t)?),
                usage.weights(metric),
            )?);
        }
    }
    Ok(())
}
