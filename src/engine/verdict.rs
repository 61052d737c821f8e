//! The verdict on a measured table, starting from what runs today: each dimension's options
//! (`measured`) are weighed against today's cost and throttle risk, by the seeds' rule —
//! "start on demand, measure a month, and switch if the pattern is stable and the saving is
//! real" — and the choice is named per dimension with its exact settings.
//!
//! - Under two complete weeks of data: measure longer (today's risk is still said).
//! - Capacity mode is the table's: its GSIs follow it. A table on demand moves to provisioned
//!   only on a stable pattern (the complete weeks' totals within 25 % of their mean) and a
//!   real saving (at least 5 % of today's cost); a provisioned table moves to on demand, or
//!   to other settings, when that saves at least 5 % of today's cost — or whenever today is
//!   at risk of throttling and the option is not, whatever it costs (and that is said).
//! - Provisioned, each dimension takes the cheaper of auto scaling and the smallest fixed
//!   capacity with the target's headroom, among those whose throttle-risk minutes (after
//!   burst) are within the tolerance — 0.1 % of the window's minutes, about 1.4 minutes a
//!   day: a sudden step costs auto scaling a minute or two before it scales, and a rule of
//!   "no minute ever" would send every such table to fixed capacity at its peak; fixed
//!   capacity needs a stable pattern (sized on a past that repeats), auto scaling follows any
//!   curve. A cheaper option passed over for its risk is kept to be said, and every risk left
//!   is stated. A dimension already provisioned keeps its settings when the change would
//!   save under 5 % of its own cost.
//! - Nothing already in place is proposed as a saving: a proposal equal to today is "keep".

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::measured::{DimensionDecision, OptionCost, Setting, Source, weekly_variation};

/// What an overflow in the verdict's sums is said of.
const WHAT: &str = "the verdict's totals";

/// Weekly totals may vary by this share of their mean for the pattern to count as stable.
pub(crate) const STABLE: Decimal = Decimal::from_parts(25, 0, 0, false, 2);
/// A change must save at least this share of today's cost to count as real.
pub(crate) const REAL: Decimal = Decimal::from_parts(5, 0, 0, false, 2);
/// Throttle-risk minutes an option may keep, as a share of the window's minutes (0.1 %).
pub(crate) const RISK_TOLERANCE: Decimal = Decimal::from_parts(1, 0, 0, false, 3);

/// What the verdict says to do with the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Move {
    /// Under two complete weeks: decide later.
    MeasureLonger,
    /// What runs today is best (or no change saves enough).
    Keep,
    /// From provisioned to on demand.
    ToOnDemand,
    /// Provisioned with the plan's settings: from on demand, or new settings.
    Provision,
}

/// An option passed over although cheaper, for its throttle risk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PassedOver {
    pub setting: Setting,
    pub monthly: Decimal,
    pub throttle_minutes: Decimal,
}

/// What the verdict does with one dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plan {
    pub setting: Setting,
    /// Whether that is today's setting (nothing to apply).
    pub keep: bool,
    pub monthly: Decimal,
    pub today_monthly: Decimal,
    pub burst_minutes: Decimal,
    pub throttle_minutes: Decimal,
    pub passed_over: Option<PassedOver>,
}

/// A table's verdict, in numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TableVerdict {
    pub choice: Move,
    /// Whether the table is on demand today, and whether that was assumed for want of data.
    pub on_demand_today: bool,
    pub assumed: bool,
    pub today: Decimal,
    pub on_demand: Decimal,
    /// The best provisioned plan's cost (every dimension as `provision` would set it).
    pub provisioned: Decimal,
    pub proposed: Decimal,
    /// Today − proposed (negative: the proposal costs more, to remove throttle risk).
    pub saving: Decimal,
    /// The saving ÷ today's cost.
    pub share: Option<Decimal>,
    pub variation: Option<Decimal>,
    pub stable: bool,
    pub today_throttle_minutes: Decimal,
    pub proposed_throttle_minutes: Decimal,
    /// The throttle-risk minutes an option may keep in this window.
    pub tolerance: Decimal,
    /// Per dimension, in the order given: what the proposal does.
    pub plans: Vec<Plan>,
    /// Per dimension: the best provisioned plan, whether chosen or not (to say what it
    /// would cost and risk).
    pub provision: Vec<Plan>,
}

fn sum(values: impl Iterator<Item = Decimal>) -> Result<Decimal, EngineError> {
    checked::sum(values, WHAT)
}

/// `part ÷ whole`; `None` for a whole of 0 (no share of nothing).
fn share_of(part: Decimal, whole: Decimal) -> Result<Option<Decimal>, EngineError> {
    if whole.is_zero() {
        return Ok(None);
    }
    checked::div(part, whole, WHAT).map(Some)
}

/// Whether `saving` is real against `today` (at least 5 % of it; any saving on a cost of 0
/// is none).
fn real(saving: Decimal, today: Decimal) -> Result<bool, EngineError> {
    Ok(share_of(saving, today)?.is_some_and(|s| s >= REAL))
}

fn option_plan(d: &DimensionDecision, setting: Setting, o: &OptionCost) -> Plan {
    Plan {
        setting,
        keep: setting == d.today,
        monthly: o.monthly,
        today_monthly: d.current.monthly,
        burst_minutes: o.burst_minutes,
        throttle_minutes: o.throttle_minutes,
        passed_over: None,
    }
}

fn keep_plan(d: &DimensionDecision) -> Plan {
    Plan {
        keep: true,
        ..option_plan(d, d.today, &d.current)
    }
}

/// The provisioned plan of one dimension: the cheapest option within the risk tolerance among
/// auto scaling and (on a stable pattern) the smallest fixed capacity; else the one with the
/// least risk. An already provisioned dimension within the tolerance today keeps its
/// settings unless the change saves at least 5 % of its own cost.
fn provisioned_plan(
    d: &DimensionDecision,
    stable: bool,
    tolerance: Decimal,
) -> Result<Plan, EngineError> {
    let auto = option_plan(d, Setting::AutoScaling(d.policy), &d.auto_scaling);
    let fixed = option_plan(d, Setting::Fixed(d.fixed_units), &d.fixed);
    let mut options = vec![auto];
    if stable {
        options.push(fixed);
    }
    let safe = options
        .iter()
        .filter(|o| o.throttle_minutes <= tolerance)
        .min_by_key(|o| o.monthly)
        .copied();
    let mut plan = match safe {
        Some(mut p) => {
            // A cheaper option passed over for its risk, to be said.
            p.passed_over = options
                .iter()
                .filter(|o| o.throttle_minutes > tolerance && o.monthly < p.monthly)
                .min_by_key(|o| o.monthly)
                .map(|o| PassedOver {
                    setting: o.setting,
                    monthly: o.monthly,
                    throttle_minutes: o.throttle_minutes,
                });
            p
        }
        None => options
            .iter()
            .min_by_key(|o| (o.throttle_minutes, o.monthly))
            .copied()
            .unwrap_or(auto),
    };
    let provisioned_today = !matches!(d.today, Setting::OnDemand);
    if provisioned_today
        && d.current.throttle_minutes <= tolerance
        && (plan.keep
            || !real(
                checked::sub(d.current.monthly, plan.monthly, WHAT)?,
                d.current.monthly,
            )?)
    {
        plan = Plan {
            passed_over: None,
            ..keep_plan(d)
        };
    }
    Ok(plan)
}

/// A set of plans (one per dimension) with its monthly total, its throttle-risk minutes and
/// what it saves against today, each summed checked once.
struct Candidate<'a> {
    choice: Move,
    plans: &'a [Plan],
    total: Decimal,
    risk: Decimal,
    saving: Decimal,
}

impl<'a> Candidate<'a> {
    fn of(choice: Move, plans: &'a [Plan], today: Decimal) -> Result<Self, EngineError> {
        let total = sum(plans.iter().map(|x| x.monthly))?;
        Ok(Candidate {
            choice,
            plans,
            total,
            risk: sum(plans.iter().map(|x| x.throttle_minutes))?,
            saving: checked::sub(today, total, WHAT)?,
        })
    }
}

fn on_demand_plan(d: &DimensionDecision) -> Plan {
    option_plan(d, Setting::OnDemand, &d.on_demand)
}

/// The verdict on a table whose measured dimensions are `dims`, each with whether it is the
/// table's own (not a GSI's): the table's capacity mode today is its own dimensions' (a GSI's
/// where only GSIs were measured).
///
/// # Errors
/// A sum or share of the dimensions' figures too large to compute.
pub(crate) fn decide_table(
    dims: &[(bool, &DimensionDecision)],
) -> Result<TableVerdict, EngineError> {
    let own: Vec<&DimensionDecision> = dims.iter().filter(|(o, _)| *o).map(|(_, d)| *d).collect();
    let basis: Vec<&DimensionDecision> = if own.is_empty() {
        dims.iter().map(|(_, d)| *d).collect()
    } else {
        own
    };
    let on_demand_today = basis.iter().all(|d| d.today == Setting::OnDemand);
    let assumed = basis.iter().all(|d| d.source == Source::Assumed);
    let variation = dims
        .iter()
        .map(|(_, d)| weekly_variation(&d.weekly))
        .collect::<Option<Vec<_>>>()
        .and_then(|v| v.into_iter().max());
    let stable = variation.is_some_and(|v| v <= STABLE);
    // No dimension, no window: a tolerance of 0 minutes.
    let window_hours = dims
        .iter()
        .map(|(_, d)| d.window_hours)
        .max()
        .unwrap_or(Decimal::ZERO);
    let window_minutes = checked::mul(window_hours, Decimal::from(60), WHAT)?;
    let tolerance = checked::mul(window_minutes, RISK_TOLERANCE, WHAT)?;
    let today = sum(dims.iter().map(|(_, d)| d.current.monthly))?;
    let today_risk = sum(dims.iter().map(|(_, d)| d.current.throttle_minutes))?;
    let on_demand = sum(dims.iter().map(|(_, d)| d.on_demand.monthly))?;
    let keep: Vec<Plan> = dims.iter().map(|(_, d)| keep_plan(d)).collect();
    let provision: Vec<Plan> = dims
        .iter()
        .map(|(_, d)| provisioned_plan(d, stable, tolerance))
        .collect::<Result<_, _>>()?;
    let to_on_demand: Vec<Plan> = dims.iter().map(|(_, d)| on_demand_plan(d)).collect();
    let provisioned = sum(provision.iter().map(|x| x.monthly))?;
    // The candidates the rule allows, with what each does.
    let mut candidates: Vec<Candidate<'_>> = Vec::new();
    if variation.is_some() {
        if on_demand_today {
            if stable {
                candidates.push(Candidate::of(Move::Provision, &provision, today)?);
            }
        } else {
            candidates.push(Candidate::of(Move::ToOnDemand, &to_on_demand, today)?);
            if provision.iter().any(|p| !p.keep) {
                candidates.push(Candidate::of(Move::Provision, &provision, today)?);
            }
        }
    }
    let chosen = if today_risk <= tolerance {
        // Today is within the tolerance: a change must be too, and save for real; the
        // largest saving.
        let mut real_savers = Vec::new();
        for c in &candidates {
            if c.risk <= tolerance && real(c.saving, today)? {
                real_savers.push(c);
            }
        }
        real_savers.into_iter().max_by_key(|c| c.saving)
    } else {
        // Today is at risk: the cheapest option within the tolerance, whatever it saves;
        // else the one with the least risk, if less than today's.
        candidates
            .iter()
            .filter(|c| c.risk <= tolerance)
            .min_by_key(|c| c.total)
            .or_else(|| {
                candidates
                    .iter()
                    .filter(|c| c.risk < today_risk)
                    .min_by_key(|c| (c.risk, c.total))
            })
    };
    let fallback;
    let chosen = match chosen {
        Some(c) => c,
        None => {
            let choice = if variation.is_none() {
                Move::MeasureLonger
            } else {
                Move::Keep
            };
            fallback = Candidate::of(choice, &keep, today)?;
            &fallback
        }
    };
    Ok(TableVerdict {
        choice: chosen.choice,
        on_demand_today,
        assumed,
        today,
        on_demand,
        provisioned,
        proposed: chosen.total,
        saving: chosen.saving,
        share: share_of(chosen.saving, today)?,
        variation,
        stable,
        today_throttle_minutes: today_risk,
        proposed_throttle_minutes: chosen.risk,
        tolerance,
        plans: chosen.plans.to_vec(),
        provision,
    })
}
