//! Provisioned capacity sized from traffic, hour by hour. Each pattern's monthly usage is
//! spread over a day or a week by its traffic profile (the table's, or flat); the hourly
//! demand then sets the capacity: fixed, or auto scaled to demand / target utilization within
//! [min, max], with AWS's limit on decreases (4 in the first hour of a UTC day, then 1 an hour,
//! 27 a day). Reserved units are subtracted hour by hour.
//!
//! At hourly resolution at most one decrease happens per hour, so the 27-a-day limit cannot
//! bind; it is enforced anyway so that finer profiles stay correct.

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::label::PlanShape;
use super::usage::{Metric, TableUsage};
use crate::model::{Capacity, CapacityMode, IndexKind, Table, TrafficProfile};

/// How one kind of capacity (reads or writes of the table or of a GSI) is provisioned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Plan {
    /// Unit-hours provisioned in the month.
    pub unit_hours: Decimal,
    /// Unit-hours above the reserved units (billed at the normal unit-hour price).
    pub unreserved_unit_hours: Decimal,
    /// Average provisioned units.
    pub average_units: Decimal,
    /// Highest hourly demand, units per second.
    pub peak_demand: Decimal,
    /// Hours of the profile in which demand exceeds capacity (throttling).
    pub short_hours: usize,
    /// How the capacity was set, for the line's label.
    pub shape: PlanShape,
    /// Units provisioned in each hour of the profile's period (one value when fixed), for
    /// reservations pooled across tables.
    pub hourly: Vec<Decimal>,
    /// The units are a placeholder (`Capacity::Unknown`): every amount above is 0 and the
    /// line's cost is unknown.
    pub unknown: bool,
}

/// The plans of a provisioned table: its own reads and writes, and each GSI's.
#[derive(Debug, Clone)]
pub(super) struct TablePlans {
    pub read: Plan,
    pub write: Plan,
    /// (index position, reads, writes) for each GSI.
    pub gsis: Vec<(usize, Plan, Plan)>,
}

/// Plans for `table` if it is provisioned.
pub(super) fn table_plans(
    table: &Table,
    usage: &TableUsage,
    month_hours: Decimal,
) -> Result<Option<TablePlans>, EngineError> {
    let CapacityMode::Provisioned(cap) = table.capacity else {
        return Ok(None);
    };
    let reserved = cap.reserved;
    let demand = |metric: Metric, observed: Option<Decimal>| {
        hourly_demand(table, usage, metric, observed, month_hours)
    };
    let read = plan(
        cap.read,
        &demand(Metric::BaseReads, table.observed.read_units)?,
        reserved.map_or(Decimal::ZERO, |r| r.rcu),
        month_hours,
        &table.name,
    )?;
    let write = plan(
        cap.write,
        &demand(Metric::BaseWrites, table.observed.write_units)?,
        reserved.map_or(Decimal::ZERO, |r| r.wcu),
        month_hours,
        &table.name,
    )?;
    let mut gsis = Vec::new();
    for (pos, index) in table.indexes.iter().enumerate() {
        let (IndexKind::Global, Some(icap)) = (index.kind, index.capacity) else {
            continue;
        };
        let r = plan(
            icap.read,
            &demand(Metric::IndexReads(pos), index.observed.read_units)?,
            Decimal::ZERO,
            month_hours,
            &index.name,
        )?;
        let w = plan(
            icap.write,
            &demand(Metric::IndexWrites(pos), index.observed.write_units)?,
            Decimal::ZERO,
            month_hours,
            &index.name,
        )?;
        gsis.push((pos, r, w));
    }
    Ok(Some(TablePlans { read, write, gsis }))
}

fn flat() -> &'static TrafficProfile {
    static FLAT: std::sync::OnceLock<TrafficProfile> = std::sync::OnceLock::new();
    FLAT.get_or_init(|| TrafficProfile {
        hourly: vec![Decimal::ONE; 24],
    })
}

/// Demand in units per second for each hour of the profile period (24 hours, or 168 when a
/// weekly profile is involved). `observed` replaces the derived monthly total and is spread
/// by the table's profile.
pub(super) fn hourly_demand(
    table: &Table,
    usage: &TableUsage,
    metric: Metric,
    observed: Option<Decimal>,
    month_hours: Decimal,
) -> Result<Vec<Decimal>, EngineError> {
    let seconds = checked::mul(month_hours, Decimal::from(3600), &table.name)?;
    let table_profile: &TrafficProfile = match &table.traffic {
        Some(p) => p,
        None => flat(),
    };
    let own_profiles = table.patterns.iter().any(|p| p.traffic.is_some());
    let period = if std::iter::once(table_profile)
        .chain(table.patterns.iter().filter_map(|p| p.traffic.as_ref()))
        .any(|p| p.hourly.len() == 168)
    {
        168
    } else {
        24
    };
    let mut demand = vec![Decimal::ZERO; period];
    if observed.is_some() || !own_profiles {
        // One profile for all: the monthly total spread by the table's profile.
        let total = observed.unwrap_or_else(|| usage.total(metric));
        let average = checked::div(total, seconds, &table.name)?;
        for (d, m) in demand.iter_mut().zip(table_profile.hourly.iter().cycle()) {
            *d = checked::mul(average, *m, &table.name)?;
        }
        return Ok(demand);
    }
    let weights: Vec<Decimal> = usage.weights(metric).each().map(|(_, w)| w).collect();
    for (pattern, monthly) in table.patterns.iter().zip(weights) {
        if monthly.is_zero() {
            continue;
        }
        let profile = pattern.traffic.as_ref().unwrap_or(table_profile);
        let average = checked::div(monthly, seconds, &pattern.name)?;
        for (d, m) in demand.iter_mut().zip(profile.hourly.iter().cycle()) {
            *d = checked::add(*d, checked::mul(average, *m, &pattern.name)?, &pattern.name)?;
        }
    }
    Ok(demand)
}

/// Decreases allowed so far in a UTC day at `hour` (0–23): 4 in the first hour, then one
/// more each hour, at most 27.
#[must_use]
pub(super) fn decreases_allowed(hour: usize) -> usize {
    hour.saturating_add(4).min(27)
}

/// Capacity for `demand` (units per second, hour by hour over the profile's period).
pub(super) fn plan(
    capacity: Capacity,
    demand: &[Decimal],
    reserved: Decimal,
    month_hours: Decimal,
    context: &str,
) -> Result<Plan, EngineError> {
    let period = Decimal::from(demand.len());
    let peak_demand = demand.iter().copied().max().unwrap_or_default();
    let (target, min, max) = match capacity {
        Capacity::Fixed(units) => {
            // Fixed capacity needs no profile: exact units × hours.
            let unit_hours = checked::mul(units, month_hours, context)?;
            let unreserved = checked::mul(unreserved_units(units, reserved), month_hours, context)?;
            return Ok(Plan {
                unit_hours,
                unreserved_unit_hours: unreserved,
                average_units: units,
                peak_demand,
                short_hours: demand.iter().filter(|d| **d > units).count(),
                shape: PlanShape::Fixed {
                    units,
                    hours: month_hours,
                },
                hourly: vec![units],
                unknown: false,
            });
        }
        Capacity::Unknown => {
            return Ok(Plan {
                unit_hours: Decimal::ZERO,
                unreserved_unit_hours: Decimal::ZERO,
                average_units: Decimal::ZERO,
                peak_demand,
                short_hours: 0,
                shape: PlanShape::Unknown,
                hourly: vec![Decimal::ZERO],
                unknown: true,
            });
        }
        Capacity::AutoScaling { target, min, max } => (target, min, max),
    };
    let hourly = auto_scale(demand, target, min, max)?;
    let sum = checked::sum(hourly.iter().copied(), context)?;
    let unreserved_sum = checked::sum(
        hourly.iter().map(|u| unreserved_units(*u, reserved)),
        context,
    )?;
    // Hours of the period → hours of the month: multiply first, divide once.
    let unit_hours = checked::div(checked::mul(sum, month_hours, context)?, period, context)?;
    let unreserved_unit_hours = checked::div(
        checked::mul(unreserved_sum, month_hours, context)?,
        period,
        context,
    )?;
    let average_units = checked::div(sum, period, context)?;
    Ok(Plan {
        unit_hours,
        unreserved_unit_hours,
        average_units,
        peak_demand,
        short_hours: demand.iter().zip(&hourly).filter(|(d, c)| *d > *c).count(),
        shape: PlanShape::AutoScaling {
            target,
            min,
            max,
            average: average_units,
        },
        hourly,
        unknown: false,
    })
}

/// Hour-by-hour auto scaling: capacity rises to demand / target at once (AWS reacts within
/// minutes), falls only when the day's decrease budget allows, and stays within [min, max].
/// The period is simulated twice so that the first hours start from a steady state.
fn auto_scale(
    demand: &[Decimal],
    target: Decimal,
    min: Decimal,
    max: Decimal,
) -> Result<Vec<Decimal>, EngineError> {
    let desired: Vec<Decimal> = demand
        .iter()
        .map(|d| {
            Ok(checked::div(*d, target, "auto scaling")?
                .ceil()
                .max(min)
                .min(max))
        })
        .collect::<Result<_, EngineError>>()?;
    let mut current = desired.last().copied().unwrap_or(min);
    let mut out = vec![Decimal::ZERO; demand.len()];
    for pass in 0..2 {
        let mut decreases = 0;
        for (h, want) in desired.iter().enumerate() {
            let hour_of_day = h.checked_rem(24).unwrap_or(0);
            if hour_of_day == 0 {
                decreases = 0;
            }
            if *want > current {
                current = *want;
            } else if *want < current && decreases < decreases_allowed(hour_of_day) {
                current = *want;
                decreases = decreases.saturating_add(1);
            }
            if pass == 1 {
                out[h] = current;
            }
        }
    }
    Ok(out)
}

/// Units above the reserved ones (never negative): `reserved` ≤ the units' own bound, so the
/// subtraction of two non-negative decimals cannot overflow.
fn unreserved_units(units: Decimal, reserved: Decimal) -> Decimal {
    units
        .checked_sub(reserved)
        .unwrap_or_default()
        .max(Decimal::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dec;

    #[test]
    fn auto_scaling_follows_demand_over_target_within_bounds() {
        // Demand 70 units/s for 12 hours and 7 for 12: at a 70 % target, 100 and 10 units;
        // min 20 lifts the quiet hours to 20. Average (12 × 100 + 12 × 20) / 24 = 60 units;
        // 60 × 730 h = 43,800 unit-hours.
        let demand: Vec<Decimal> = (0..24)
            .map(|h| if h < 12 { dec("70") } else { dec("7") })
            .collect();
        let cap = Capacity::AutoScaling {
            target: dec("0.7"),
            min: dec("20"),
            max: dec("1000"),
        };
        let p = plan(cap, &demand, Decimal::ZERO, dec("730"), "t").unwrap();
        assert_eq!(p.average_units, dec("60"));
        assert_eq!(p.unit_hours, dec("43800"));
        assert_eq!(p.short_hours, 0);
        // A max of 50 caps the busy hours below their demand of 70: 12 short hours.
        let capped = Capacity::AutoScaling {
            target: dec("0.7"),
            min: dec("20"),
            max: dec("50"),
        };
        assert_eq!(
            plan(capped, &demand, Decimal::ZERO, dec("730"), "t")
                .unwrap()
                .short_hours,
            12
        );
    }

    #[test]
    fn reserved_units_are_subtracted_hour_by_hour() {
        // 100 units for 12 hours, 20 for 12; 50 reserved: above them 50 × 12 = 600 unit-hours
        // a day → 600 / 24 × 730 = 18,250 unit-hours a month.
        let demand: Vec<Decimal> = (0..24)
            .map(|h| if h < 12 { dec("70") } else { dec("14") })
            .collect();
        let cap = Capacity::AutoScaling {
            target: dec("0.7"),
            min: dec("1"),
            max: dec("1000"),
        };
        let p = plan(cap, &demand, dec("50"), dec("730"), "t").unwrap();
        assert_eq!(p.unreserved_unit_hours, dec("18250"));
        // Fixed: 100 units, 50 reserved → 50 × 730 = 36,500 unreserved unit-hours.
        let p = plan(
            Capacity::Fixed(dec("100")),
            &demand,
            dec("50"),
            dec("730"),
            "t",
        )
        .unwrap();
        assert_eq!(p.unreserved_unit_hours, dec("36500"));
        assert_eq!(p.unit_hours, dec("73000"));
    }

    #[test]
    fn decreases_are_limited_per_utc_day() {
        // 4 in the first hour, one more each hour, never more than 27 a day.
        assert_eq!(decreases_allowed(0), 4);
        assert_eq!(decreases_allowed(1), 5);
        assert_eq!(decreases_allowed(23), 27);
        // A sawtooth (down every hour) uses one decrease an hour: all allowed at hourly steps.
        let demand: Vec<Decimal> = (0..24)
            .map(|h| if h % 2 == 0 { dec("70") } else { dec("7") })
            .collect();
        let out = auto_scale(&demand, dec("0.7"), dec("1"), dec("1000")).expect("small numbers");
        assert_eq!(out[1], dec("10"));
        assert_eq!(out[23], dec("10"));
    }
}
