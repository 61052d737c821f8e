//! Throughput lines: request units on demand (RRU/WRU per million), or provisioned capacity
//! (RCU/WCU per unit-hour), for the table and for each of its indexes. Observed unit counts
//! replace derived ones; their cost is still attributed to patterns by derived usage.

use std::sync::Arc;

use rust_decimal::Decimal;

use super::EngineError;
use super::capacity::TablePlans;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::label::{IndexRef, Label};
use super::line::{LineSpec, Pricer, cat, millions};
use super::notice::Notice;
use super::partitions::TablePartitions;
use super::usage::{Metric, TableUsage, Weights};
use crate::model::{CapacityKind, CapacityMode, PriceKey, ReservedTerm, Table};

pub(super) fn lines(
    pricer: &Pricer<'_>,
    table: &Table,
    usage: &TableUsage,
    plans: Option<&TablePlans>,
    parts: Option<&TablePartitions>,
    out: &mut Vec<LineItem>,
    warnings: &mut Vec<Notice>,
) -> Result<(), EngineError> {
    let t = &Arc::clone(&table.name);
    match plans {
        None => {
            if let Some(parts) = parts {
                on_demand_peaks(table, parts, warnings);
            }
            on_demand(pricer, table, t, usage, out)
        }
        Some(plans) => provisioned(pricer, table, t, usage, plans, out, warnings),
    }
}

/// A new on-demand table absorbs 12,000 read and 4,000 write request units a second at once
/// (then twice its previous peak); a profile whose peak hour needs more may be throttled.
/// The peaks are the partition estimate's (the same demand, computed once).
fn on_demand_peaks(table: &Table, parts: &TablePartitions, warnings: &mut Vec<Notice>) {
    for (peak, limit, kind) in [
        (parts.peak_rcu, 12_000u32, CapacityKind::Rcu),
        (parts.peak_wcu, 4_000u32, CapacityKind::Wcu),
    ] {
        let limit = Decimal::from(limit);
        if peak > limit {
            warnings.push(Notice::OnDemandPeak {
                table: Arc::clone(&table.name),
                kind,
                peak,
                limit,
            });
        }
    }
}

/// One on-demand request line: derived from `metric`, or observed.
struct RequestLine {
    key: String,
    component: Component,
    label: Label,
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
    // `patterns: TODO`: every request line the table can have, each depending on usage.
    let unknown = table.patterns_unknown;
    let reads_on_table = reads_on_table || unknown;
    let any_writes = any_writes || unknown;
    let mut requests = Vec::with_capacity(table.indexes.len().saturating_mul(2).saturating_add(2));
    if reads_on_table || table.observed.read_units.is_some() {
        requests.push(RequestLine {
            key: cat!(t, "/reads"),
            component: Component::Reads,
            label: Label::Requests {
                index: None,
                kind: CapacityKind::Rcu,
                derived: None,
            },
            metric: Metric::Reads,
            observed: table.observed.read_units,
        });
    }
    if any_writes || table.observed.write_units.is_some() {
        requests.push(RequestLine {
            key: cat!(t, "/writes"),
            component: Component::Writes,
            label: Label::Requests {
                index: None,
                kind: CapacityKind::Wcu,
                derived: None,
            },
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
        if queried || unknown || index.observed.read_units.is_some() {
            requests.push(RequestLine {
                key: cat!(t, "/", kind, "/", index.name, "/reads"),
                component: Component::Reads,
                label: Label::Requests {
                    index: Some(IndexRef::of(index)),
                    kind: CapacityKind::Rcu,
                    derived: None,
                },
                metric: Metric::IndexReads(pos),
                observed: index.observed.read_units,
            });
        }
        if any_writes || index.observed.write_units.is_some() {
            requests.push(RequestLine {
                key: cat!(t, "/", kind, "/", index.name, "/writes"),
                component: Component::IndexWrites,
                label: Label::Requests {
                    index: Some(IndexRef::of(index)),
                    kind: CapacityKind::Wcu,
                    derived: None,
                },
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
                match r.label {
                    Label::Requests { index, kind, .. } => Label::Requests {
                        index,
                        kind,
                        derived: Some(derived),
                    },
                    other => other,
                },
            ),
            None => (derived, Basis::Derived, r.label),
        };
        let (price, unit, component, label) =
            request_price(table, r.component, label, pricer.region_of(table));
        out.push(pricer.line(
            LineSpec {
                key: r.key,
                table: t,
                component,
                label,
                region: &pricer.region_of(table),
                unit,
                basis,
            },
            &price,
            (!unknown || r.observed.is_some()).then(|| millions(units)),
            usage.weights(r.metric),
        )?);
    }
    Ok(())
}

/// How an on-demand request line is priced: reads as RRU, writes as WRU — but a global
/// table's writes are replicated writes in its own region too (its GSIs' are ordinary
/// writes): AWS bills every write to a global table as rWRU in every replica region, the one
/// it was written in included.
fn request_price(
    table: &Table,
    component: Component,
    label: Label,
    region: Arc<str>,
) -> (PriceKey, &'static str, Component, Label) {
    let global = component == Component::Writes && !table.replicas.is_empty();
    match component {
        Component::Reads => (
            PriceKey::ReadPerMillion(table.class),
            "M RRU",
            component,
            label,
        ),
        _ if global => {
            let derived = match label {
                Label::Requests { derived, .. } => derived,
                _ => None,
            };
            (
                PriceKey::ReplicatedWritePerMillion(table.class),
                "M rWRU",
                Component::ReplicatedWrites,
                Label::GlobalWrites { region, derived },
            )
        }
        _ => (
            PriceKey::WritePerMillion(table.class),
            "M WRU",
            component,
            label,
        ),
    }
}

/// Provisioned capacity is paid per unit-hour whether used or not, for the table (LSIs share
/// it) and each GSI, as `capacity` planned it hour by hour. Reserved blocks are billed as an
/// amortized upfront fee plus their hourly fee; capacity above them at the normal price.
/// Hours where demand exceeds capacity are reported: those requests would be throttled.
fn provisioned(
    pricer: &Pricer<'_>,
    table: &Table,
    t: &Arc<str>,
    usage: &TableUsage,
    plans: &TablePlans,
    out: &mut Vec<LineItem>,
    warnings: &mut Vec<Notice>,
) -> Result<(), EngineError> {
    let groups = groups(table, t, plans);
    let reserved = match table.capacity {
        CapacityMode::Provisioned(cap) => cap.reserved,
        CapacityMode::OnDemand => None,
    };
    let global = !table.replicas.is_empty();
    uncovered_note(t, global, reserved, warnings);
    for (i, (prefix, gsi, read, write, read_metric, write_metric, write_component)) in
        groups.into_iter().enumerate()
    {
        let global_writes = global && i == 0;
        let (write_component, write_price, write_unit) = if global_writes {
            (
                Component::ReplicatedWrites,
                PriceKey::ReplicatedWcuHour(table.class),
                "rWCU-hour",
            )
        } else {
            (write_component, PriceKey::WcuHour(table.class), "WCU-hour")
        };
        for (kind, plan, metric, component, price, unit) in [
            (
                CapacityKind::Rcu,
                read,
                read_metric,
                Component::Reads,
                PriceKey::RcuHour(table.class),
                "RCU-hour",
            ),
            (
                CapacityKind::Wcu,
                write,
                write_metric,
                write_component,
                write_price,
                write_unit,
            ),
        ] {
            if plan.short_hours > 0 {
                warnings.push(Notice::Throttled {
                    table: Arc::clone(t),
                    gsi: gsi.clone(),
                    kind,
                    hours: plan.short_hours,
                    peak: plan.peak_demand,
                });
            }
            // Reservations cover the table's own capacity (the first group), not its GSIs',
            // and never a global table's rWCU.
            let reserved_units = match (i, reserved) {
                (0, Some(r)) if kind == CapacityKind::Rcu => r.rcu,
                (0, Some(r)) => r.wcu,
                _ => Decimal::ZERO,
            };
            // A global table's write capacity is rWCU, which its reservation never covers.
            let (label, billed_hours) = if global_writes && kind == CapacityKind::Wcu {
                (
                    Label::GlobalWcu {
                        region: pricer.region_of(table),
                        plan: plan.shape,
                    },
                    plan.unit_hours,
                )
            } else {
                (
                    Label::Provisioned {
                        kind,
                        table: Arc::clone(t),
                        gsi: gsi.clone(),
                        plan: plan.shape,
                        reserved: reserved_units,
                    },
                    plan.unreserved_unit_hours,
                )
            };
            out.push(pricer.line(
                LineSpec {
                    // The same key as the on-demand line of the same dimension, so that a
                    // comparison of capacity modes lines them up.
                    key: cat!(
                        prefix,
                        if kind == CapacityKind::Rcu {
                            "/reads"
                        } else {
                            "/writes"
                        }
                    ),
                    table: t,
                    component,
                    label,
                    region: &pricer.region_of(table),
                    unit,
                    basis: Basis::Derived,
                },
                &price,
                (!plan.unknown).then_some(billed_hours),
                usage.weights(metric),
            )?);
            if let (0, Some(r)) = (i, reserved)
                && !reserved_units.is_zero()
            {
                reserved_lines(
                    pricer,
                    t,
                    &pricer.region_of(table),
                    kind,
                    reserved_units,
                    r.term,
                    out,
                )?;
            }
        }
    }
    Ok(())
}

/// One provisioned group: its key prefix, its GSI (none for the table), its read and write
/// plans and metrics, and the component of its writes.
type Group<'p> = (
    String,
    Option<Arc<str>>,
    &'p super::capacity::Plan,
    &'p super::capacity::Plan,
    Metric,
    Metric,
    Component,
);

/// The table's own capacity, then each GSI's.
fn groups<'p>(table: &Table, t: &Arc<str>, plans: &'p TablePlans) -> Vec<Group<'p>> {
    let mut groups = vec![(
        t.to_string(),
        None,
        &plans.read,
        &plans.write,
        Metric::BaseReads,
        Metric::BaseWrites,
        Component::Writes,
    )];
    for (pos, read, write) in &plans.gsis {
        let index = &table.indexes[*pos];
        groups.push((
            cat!(t, "/gsi/", index.name),
            Some(Arc::clone(&index.name)),
            read,
            write,
            Metric::IndexReads(*pos),
            Metric::IndexWrites(*pos),
            Component::IndexWrites,
        ));
    }
    groups
}

/// A global table's write capacity is rWCU in its own region too, which no reservation
/// covers: a reservation of WCU is paid and covers nothing, said so.
fn uncovered_note(
    t: &Arc<str>,
    global: bool,
    reserved: Option<crate::model::Reserved>,
    warnings: &mut Vec<Notice>,
) {
    if let Some(r) = reserved.filter(|r| global && !r.wcu.is_zero()) {
        warnings.push(Notice::Note(format!(
            "table `{t}` is a global table: its writes are billed as replicated WCU (rWCU) in every region, its own included, and reserved capacity never covers rWCU — its reservation of {} WCU is paid and covers nothing",
            r.wcu.normalize()
        )));
    }
}

/// A reservation of `units` (blocks of 100): the upfront fee amortized over the term's months,
/// and the hourly fee for every hour of the month.
#[allow(clippy::too_many_arguments)]
fn reserved_lines(
    pricer: &Pricer<'_>,
    t: &Arc<str>,
    region: &Arc<str>,
    kind: CapacityKind,
    units: Decimal,
    term: ReservedTerm,
    out: &mut Vec<LineItem>,
) -> Result<(), EngineError> {
    let blocks = checked::div(units, Decimal::ONE_HUNDRED, t)?;
    let upfront_key = PriceKey::ReservedUpfront(kind, term);
    let upfront = pricer.price(
        region,
        &upfront_key,
        &cat!(t, "/reserved/", kind.name(), "/upfront"),
    )?;
    let months = Decimal::from(term.months());
    out.push(pricer.line_at(
        LineSpec {
            key: cat!(t, "/reserved/", kind.name(), "/upfront"),
            table: t,
            component: Component::ReservedUpfront,
            label: Label::TableReservedUpfront {
                kind,
                term,
                paid: checked::mul(upfront, blocks, t)?,
            },
            region,
            unit: "100 units",
            basis: Basis::Derived,
        },
        checked::div(upfront, months, t)?,
        upfront_key.path(),
        Some(blocks),
        Weights::NONE,
    )?);
    let hours = pricer.settings.month_hours;
    out.push(pricer.line(
        LineSpec {
            key: cat!(t, "/reserved/", kind.name(), "/hourly"),
            table: t,
            component: Component::ReservedCapacity,
            label: Label::TableReservedHourly {
                kind,
                term,
                blocks,
                hours,
            },
            region,
            unit: "100-unit-hour",
            basis: Basis::Derived,
        },
        &PriceKey::ReservedHourly(kind, term),
        Some(checked::mul(blocks, hours, t)?),
        Weights::NONE,
    )?);
    Ok(())
}
