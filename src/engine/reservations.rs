//! Reserved capacity bought for the account (`commitments.reserved`), pooled per region: AWS
//! applies reserved RCU and WCU, hour by hour, to the region's aggregate provisioned capacity
//! of Standard-class tables and their GSIs — never to replicated WCU, Standard-IA or
//! on-demand. Reserved units are paid whether used or not: an upfront fee per block of 100
//! (amortized over the term's months) and an hourly fee per block; the units they cover are
//! not billed at the normal unit-hour price (a credit line), and units they do not cover are
//! shown as unused.

use std::sync::Arc;

use rust_decimal::Decimal;

use super::EngineError;
use super::capacity::TablePlans;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::label::Label;
use super::line::{LineSpec, Pricer, cat};
use super::usage::Weights;
use crate::model::{CapacityKind, PriceKey, Reservation, TableClass};

/// The provisioned capacity one table contributes: its region, class and plans.
pub(super) struct Pooled<'a> {
    pub region: Arc<str>,
    pub class: TableClass,
    pub plans: &'a TablePlans,
}

/// Units of `kind` each hour across `pool` (Standard class only), over a common period (168
/// hours if any plan follows a weekly profile, else 24; a fixed plan is the same every hour).
fn pooled_hourly(pool: &[Pooled<'_>], region: &str, kind: CapacityKind) -> Vec<Decimal> {
    let plans: Vec<&super::capacity::Plan> = pool
        .iter()
        .filter(|p| &*p.region == region && p.class == TableClass::Standard)
        .flat_map(|p| {
            let own = match kind {
                CapacityKind::Rcu => &p.plans.read,
                CapacityKind::Wcu => &p.plans.write,
            };
            std::iter::once(own).chain(p.plans.gsis.iter().map(move |(_, r, w)| match kind {
                CapacityKind::Rcu => r,
                CapacityKind::Wcu => w,
            }))
        })
        .collect();
    let period = if plans.iter().any(|p| p.hourly.len() > 24) {
        168
    } else {
        24
    };
    (0..period)
        .map(|h: usize| {
            plans
                .iter()
                .filter_map(|p| {
                    p.hourly
                        .get(h.checked_rem(p.hourly.len()).unwrap_or(0))
                        .copied()
                })
                // Hourly units are bounded by the auto-scaling maximum or the fixed units
                // (whole numbers loaded with bounds): their sum over a workload's tables fits.
                .fold(Decimal::ZERO, Decimal::saturating_add)
        })
        .collect()
}

/// The lines of the reservations in each region and kind: upfront (amortized), hourly fee,
/// and the credit for the provisioned unit-hours they cover.
pub(super) fn lines(
    pricer: &Pricer<'_>,
    reservations: &[Reservation],
    pool: &[Pooled<'_>],
    shapes: &mut super::savings_plan::Shapes,
) -> Result<Vec<LineItem>, EngineError> {
    let mut out = Vec::new();
    let account: Arc<str> = Arc::from("(account)");
    let mut groups: Vec<(Arc<str>, CapacityKind)> = Vec::new();
    for r in reservations {
        let region: Arc<str> = r
            .region
            .as_deref()
            .map_or_else(|| Arc::clone(pricer.primary_region()), Arc::from);
        if !groups.iter().any(|(g, k)| *g == region && *k == r.kind) {
            groups.push((region, r.kind));
        }
    }
    let hours = pricer.settings.month_hours;
    for (region, kind) in groups {
        let _upper = if kind == CapacityKind::Rcu {
            "RCU"
        } else {
            "WCU"
        };
        let mine: Vec<&Reservation> = reservations
            .iter()
            .filter(|r| {
                r.kind == kind && r.region.as_deref().unwrap_or(pricer.primary_region()) == &*region
            })
            .collect();
        let blocks = checked::sum(mine.iter().map(|r| r.blocks), "reservations")?;
        let reserved_units = checked::mul(blocks, Decimal::ONE_HUNDRED, "reservations")?;
        let hourly = pooled_hourly(pool, &region, kind);
        let period = Decimal::from(hourly.len());
        let covered_sum = checked::sum(
            hourly.iter().map(|u| (*u).min(reserved_units)),
            "reservations",
        )?;
        let covered = checked::div(
            checked::mul(covered_sum, hours, "reservations")?,
            period,
            "reservations",
        )?;
        let bought = checked::mul(reserved_units, hours, "reservations")?;
        let unused = checked::sub(bought, covered, "reservations")?;
        let base = cat!("account/reserved/", region, "/", kind.name());
        // One pair of lines per term (purchases of the same term add up; each is kept with
        // its month, for the month its upfront fee is billed in).
        let mut terms: Vec<Purchases> = Vec::new();
        for r in &mine {
            match terms.iter_mut().find(|t| t.term == r.term) {
                Some(t) => {
                    t.blocks = checked::add(t.blocks, r.blocks, "reservations")?;
                    t.bought.push((r.start, r.blocks));
                }
                None => terms.push(Purchases {
                    term: r.term,
                    blocks: r.blocks,
                    bought: vec![(r.start, r.blocks)],
                }),
            }
        }
        for term in terms {
            out.extend(term_lines(
                pricer,
                &Group {
                    base: &base,
                    region: &region,
                    kind,
                },
                term,
            )?);
        }
        // The unit-hours the reservations cover are not billed at the normal price.
        let list_key = match kind {
            CapacityKind::Rcu => PriceKey::RcuHour(TableClass::Standard),
            CapacityKind::Wcu => PriceKey::WcuHour(TableClass::Standard),
        };
        let key = cat!(base, "/covered");
        let list = pricer.price(&region, &list_key, &key)?;
        // The covered units hour by hour, for a savings plan applied after reservations.
        shapes.push((
            key.clone(),
            hourly.iter().map(|u| (*u).min(reserved_units)).collect(),
        ));
        out.push(pricer.line_at(
            LineSpec {
                key,
                table: &account,
                component: Component::ReservedCapacity,
                label: Label::PoolCovered {
                    kind,
                    region: Arc::clone(&region),
                    covered,
                    unused,
                },
                region: &region,
                unit: if kind == CapacityKind::Rcu {
                    "RCU-hour"
                } else {
                    "WCU-hour"
                },
                basis: Basis::Derived,
            },
            Decimal::ZERO.saturating_sub(list),
            list_key.path(),
            Some(covered),
            Weights::NONE,
        )?);
    }
    Ok(out)
}

/// A region's reservations of one kind.
struct Group<'a> {
    /// `account/reserved/REGION/KIND`: the start of its lines' keys.
    base: &'a str,
    region: &'a Arc<str>,
    kind: CapacityKind,
}

/// The blocks of a group bought for one term, and each purchase's month and blocks.
struct Purchases {
    term: crate::model::ReservedTerm,
    blocks: Decimal,
    bought: Vec<(Option<(i64, u32)>, Decimal)>,
}

/// The two lines of the blocks reserved for one term in a group: the upfront amortized over
/// the term's months, and the hourly fee (used or not).
fn term_lines(
    pricer: &Pricer<'_>,
    g: &Group<'_>,
    t: Purchases,
) -> Result<[LineItem; 2], EngineError> {
    let Purchases {
        term,
        blocks,
        bought,
    } = t;
    let (base, region, kind) = (g.base, g.region, g.kind);
    let account: Arc<str> = Arc::from("(account)");
    let _upper = if kind == CapacityKind::Rcu {
        "RCU"
    } else {
        "WCU"
    };
    let hours = pricer.settings.month_hours;
    let upfront_key = PriceKey::ReservedUpfront(kind, term);
    let key = cat!(base, "/", crate::model::term_code(term), "/upfront");
    let upfront = pricer.price(region, &upfront_key, &key)?;
    let amortized = pricer.line_at(
        LineSpec {
            key,
            table: &account,
            component: Component::ReservedUpfront,
            label: Label::PoolUpfront {
                kind,
                region: Arc::clone(region),
                term,
                blocks,
                fee: upfront,
                bought,
            },
            region,
            unit: "100 units",
            basis: Basis::Derived,
        },
        checked::div(upfront, Decimal::from(term.months()), "reservations")?,
        upfront_key.path(),
        Some(blocks),
        Weights::NONE,
    )?;
    let fee = pricer.line(
        LineSpec {
            key: cat!(base, "/", crate::model::term_code(term), "/hourly"),
            table: &account,
            component: Component::ReservedCapacity,
            label: Label::PoolHourly {
                kind,
                region: Arc::clone(region),
                term,
                blocks,
                hours,
            },
            region,
            unit: "100-unit-hour",
            basis: Basis::Derived,
        },
        &PriceKey::ReservedHourly(kind, term),
        Some(checked::mul(blocks, hours, "reservations")?),
        Weights::NONE,
    )?;
    Ok([amortized, fee])
}
