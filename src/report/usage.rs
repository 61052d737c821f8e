//! `ddbcost usage`'s report: per table, GSI and dimension the measured consumption and what
//! each way of buying it costs a month (on demand, auto scaling simulated, fixed at the peak,
//! the current capacity), with utilization and throttle-risk minutes; then each table's
//! verdict by the seeds' rule — "start on demand, measure a month, and switch if the pattern
//! is stable and the saving is real" — stated in numbers: the saving a month and as a share,
//! the week-over-week variation, the cheaper option's throttle risk, and the switching quota.
//! Thresholds: stable when the complete weeks' totals vary by at most 25 % of their mean (two
//! weeks at least); real when the saving is at least 5 % of the on-demand cost.

use std::fmt::Write as _;

use rust_decimal::Decimal;
use serde_json::json;

use super::money;
use crate::cloudwatch::analysis::{Commitments, Dimension, Report, TableReport};
use crate::cloudwatch::timestamp;
use crate::engine::measured::{OptionCost, weekly_variation};

/// Weekly totals may vary by this share of their mean for the pattern to count as stable.
pub(crate) const STABLE: Decimal = Decimal::from_parts(25, 0, 0, false, 2);
/// The saving must be at least this share of the on-demand cost to count as real.
pub(crate) const REAL: Decimal = Decimal::from_parts(5, 0, 0, false, 2);

impl Dimension {
    fn name(&self) -> String {
        let dim = if self.writes { "writes" } else { "reads" };
        match &self.index {
            None => dim.to_string(),
            Some(i) => format!("GSI `{i}` {dim}"),
        }
    }

    /// The provisioned option to compare: auto scaling when it never throttles, else fixed at
    /// the peak (which never does at the data's resolution).
    pub(crate) fn provisioned(&self) -> (&'static str, &OptionCost) {
        let d = &self.decision;
        if d.auto_scaling.throttle_minutes.is_zero() {
            ("auto scaling", &d.auto_scaling)
        } else {
            ("fixed at the peak", &d.fixed)
        }
    }
}

/// What the verdict says to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Choice {
    /// Under two complete weeks, or weeks too unlike: decide later.
    MeasureLonger,
    /// The provisioned option saves enough.
    Provisioned,
    /// No real saving: on demand.
    OnDemand,
}

/// A table's verdict, in numbers.
pub(crate) struct Verdict {
    pub(crate) choice: Choice,
    pub(crate) on_demand: Decimal,
    pub(crate) provisioned: Decimal,
    pub(crate) current: Option<Decimal>,
    pub(crate) saving: Decimal,
    pub(crate) share: Option<Decimal>,
    pub(crate) variation: Option<Decimal>,
    pub(crate) throttle_minutes: Decimal,
    pub(crate) text: String,
}

fn pct(x: Decimal) -> String {
    x.checked_mul(Decimal::ONE_HUNDRED)
        .unwrap_or_default()
        .round_dp(1)
        .normalize()
        .to_string()
}

fn sum(values: impl Iterator<Item = Decimal>) -> Decimal {
    values.fold(Decimal::ZERO, |a, v| {
        a.checked_add(v).unwrap_or(Decimal::MAX)
    })
}

pub(crate) fn verdict(t: &TableReport, currency: &str) -> Verdict {
    let on_demand = sum(t.dimensions.iter().map(|d| d.decision.on_demand.monthly));
    let provisioned = sum(t.dimensions.iter().map(|d| d.provisioned().1.monthly));
    let current = t
        .dimensions
        .iter()
        .map(|d| d.decision.current.as_ref().map(|c| c.monthly))
        .collect::<Option<Vec<_>>>()
        .map(|v| sum(v.into_iter()));
    let saving = on_demand.checked_sub(provisioned).unwrap_or_default();
    let share = (!on_demand.is_zero()).then(|| saving.checked_div(on_demand).unwrap_or_default());
    let variation = t
        .dimensions
        .iter()
        .map(|d| weekly_variation(&d.decision.weekly))
        .collect::<Option<Vec<_>>>()
        .and_then(|v| v.into_iter().max());
    let throttle_minutes = sum(t
        .dimensions
        .iter()
        .map(|d| d.provisioned().1.throttle_minutes));
    let show = |d: Decimal| money::display(d, currency);
    let choice = match (variation, share) {
        (None, _) => Choice::MeasureLonger,
        (Some(v), _) if v > STABLE => Choice::MeasureLonger,
        (Some(_), Some(s)) if s >= REAL => Choice::Provisioned,
        _ => Choice::OnDemand,
    };
    let text = match (variation, share) {
        (None, _) => "measure longer: under two complete weeks of data (the seeds' rule asks for a month before deciding)".to_string(),
        (Some(v), _) if v > STABLE => format!(
            "measure longer: the weekly totals varied by {} % of their mean (more than {} %): not a stable pattern",
            pct(v),
            pct(STABLE)
        ),
        (Some(_), Some(s)) if s >= REAL => format!(
            "switch to provisioned capacity: saves {} a month ({} % of on demand's {}); weekly totals within {} %; throttle risk of the provisioned option {} minutes; moving back to on demand is allowed 4 times in 24 hours",
            show(saving),
            pct(s),
            show(on_demand),
            pct(variation.unwrap_or_default()),
            throttle_minutes.normalize()
        ),
        _ => format!(
            "stay on demand: provisioned would cost {} a month against {} on demand — no real saving (under {} %)",
            show(provisioned),
            show(on_demand),
            pct(REAL)
        ),
    };
    Verdict {
        choice,
        on_demand,
        provisioned,
        current,
        saving,
        share,
        variation,
        throttle_minutes,
        text,
    }
}

fn header(r: &Report) -> String {
    let passes = if r.passes > 1 {
        format!(
            ", read in {} passes of at most {} points held",
            r.passes, r.held
        )
    } else {
        String::new()
    };
    format!(
        "ddbcost usage: {} to {}, {}-second points ({} read, {} used, {} duplicated, {} not analysed{passes}); monthly costs in {} for a {}-hour month, price table `{}`",
        timestamp(r.start),
        timestamp(r.end),
        r.period,
        r.points_read,
        r.points_used,
        r.duplicated,
        r.dropped,
        r.currency,
        r.month_hours.normalize(),
        r.price_table
    )
}

fn option(o: &OptionCost, currency: &str) -> String {
    let mut s = money::display(o.monthly, currency);
    if let Some(u) = o.utilization {
        let _ = write!(s, " ({} % used", pct(u));
        if !o.throttle_minutes.is_zero() {
            let _ = write!(s, ", {} min at risk", o.throttle_minutes.normalize());
        }
        s.push(')');
    }
    s
}

fn rows(r: &Report) -> Vec<[String; 7]> {
    let cur = &r.currency;
    let mut out = Vec::new();
    for t in &r.tables {
        for d in &t.dimensions {
            let x = &d.decision;
            // The names are the measurements' (CloudWatch's files): on one line, control
            // characters escaped.
            out.push([
                crate::text::one_line(&t.name).into_owned(),
                crate::text::one_line(&d.name()).into_owned(),
                format!(
                    "{} units, peak {}/s, {} of {} points",
                    money::quantity(x.consumed),
                    money::quantity(x.peak.round_dp(2)),
                    d.points,
                    d.steps
                ),
                option(&x.on_demand, cur),
                format!(
                    "{} at {} %, {}–{}",
                    option(&x.auto_scaling, cur),
                    pct(d.policy.target),
                    d.policy.min.normalize(),
                    d.policy.max.normalize()
                ),
                format!("{} × {}", option(&x.fixed, cur), x.fixed_units.normalize()),
                x.current
                    .as_ref()
                    .map_or_else(|| "—".to_string(), |c| option(c, cur)),
            ]);
        }
    }
    out
}

const HEAD: [&str; 7] = [
    "Table",
    "Dimension",
    "Measured",
    "On demand /month",
    "Auto scaling /month",
    "Fixed /month",
    "Current /month",
];

pub(crate) fn table(r: &Report) -> String {
    let mut b = tabled::builder::Builder::default();
    b.push_record(HEAD);
    for row in rows(r) {
        b.push_record(row);
    }
    let mut out = format!(
        "{}\n{}\n",
        header(r),
        b.build().with(tabled::settings::Style::rounded())
    );
    for t in &r.tables {
        let name = crate::text::one_line(&t.name);
        let _ = writeln!(out, "{name}: {}", verdict(t, &r.currency).text);
    }
    for (k, total) in &r.counts {
        let _ = writeln!(
            out,
            "measured on table `{}`{}: {} {} in the window",
            crate::text::one_line(&k.table),
            k.index.as_ref().map_or_else(String::new, |i| format!(
                ", GSI `{}`",
                crate::text::one_line(i)
            )),
            money::quantity(*total),
            k.metric.name()
        );
    }
    out.push_str("Auto scaling is simulated step by step by Application Auto Scaling's documented rules (see the README); a period without a point is taken as 0 consumed.\n");
    if let Some(c) = &r.commitments {
        out.push_str(&super::forecast::advice_table(
            &c.advice,
            &r.currency,
            months(c),
            super::layout::Layout::default(),
        ));
        out.push_str(&commitments_basis(c));
    }
    out
}

fn months(c: &Commitments) -> usize {
    usize::try_from(c.months).unwrap_or(usize::MAX)
}

/// What the commitment options were priced on.
fn commitments_basis(c: &Commitments) -> String {
    format!(
        "Commitments: searched over {} months from {}-{:02} on {}, by the engine hour by hour from the measured weekly profile (`forecast --advise` on the measured workload).\n",
        c.months,
        c.start.0,
        c.start.1,
        if c.on_verdict {
            "the measured workload with the verdicts applied (scenario `measured-verdict`)"
        } else {
            "the measured workload as it runs (no verdict changes a table)"
        }
    )
}

pub(crate) fn markdown(r: &Report) -> String {
    let mut out = format!(
        "## {}\n\n| {} |\n|{}|\n",
        super::markdown::cell(&header(r)),
        HEAD.join(" | "),
        "---|".repeat(HEAD.len())
    );
    for row in rows(r) {
        let cells: Vec<String> = row.iter().map(|c| super::markdown::cell(c)).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
    for t in &r.tables {
        let _ = writeln!(
            out,
            "- **{}**: {}",
            super::markdown::cell(&t.name),
            super::markdown::cell(&verdict(t, &r.currency).text)
        );
    }
    if let Some(c) = &r.commitments {
        out.push_str(&super::forecast::advice_markdown(
            &c.advice,
            &r.currency,
            months(c),
        ));
        let _ = write!(out, "\n{}", commitments_basis(c));
    }
    out
}

/// The series hour by hour (`--format csv`): per table, index and dimension, what was consumed
/// and the unit-hours each provisioned option held, exact.
pub(crate) fn csv(r: &Report) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "table",
        "index",
        "dimension",
        "hour_start",
        "consumed_units",
        "auto_scaling_unit_hours",
        "auto_scaling_throttle_minutes",
        "fixed_unit_hours",
        "current_unit_hours",
    ]);
    for t in &r.tables {
        for d in &t.dimensions {
            let x = &d.decision;
            for (i, h) in x.hourly.iter().enumerate() {
                let start = r
                    .start
                    .saturating_add(i64::try_from(i).unwrap_or(i64::MAX).saturating_mul(3_600));
                let fixed = x.fixed_units.checked_mul(h.span).unwrap_or_default();
                let _ = w.write_record([
                    t.name.clone(),
                    d.index.clone().unwrap_or_default(),
                    if d.writes { "writes" } else { "reads" }.to_string(),
                    timestamp(start),
                    h.consumed.normalize().to_string(),
                    h.auto_unit_hours.normalize().to_string(),
                    h.auto_throttle_minutes.normalize().to_string(),
                    fixed.normalize().to_string(),
                    h.current_unit_hours
                        .map(|u| u.normalize().to_string())
                        .unwrap_or_default(),
                ]);
            }
        }
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

const TEMPLATE: &str = include_str!("usage.html");

/// A self-contained HTML page: per table its verdict, its figures and one chart per
/// dimension (demand, auto-scaled capacity, fixed capacity, throttle-risk hours).
pub(crate) fn html(r: &Report) -> String {
    use minijinja::{Environment, Value, context};
    let all = rows(r);
    let tables: Vec<Value> = r
        .tables
        .iter()
        .map(|t| {
            let charts: Vec<Value> = t
                .dimensions
                .iter()
                .map(|d| {
                    let x = &d.decision;
                    let hours: Vec<(Decimal, Decimal, bool)> = x
                        .hourly
                        .iter()
                        .map(|h| {
                            let secs = h.span.checked_mul(Decimal::from(3_600)).unwrap_or_default();
                            let per_s = |v: Decimal| v.checked_div(secs).unwrap_or_default();
                            (
                                per_s(h.consumed),
                                h.auto_unit_hours.checked_div(h.span).unwrap_or_default(),
                                !h.auto_throttle_minutes.is_zero(),
                            )
                        })
                        .collect();
                    Value::from_safe_string(super::charts::measured(
                        &format!("{}: {}", t.name, super::html::plain(&d.name())),
                        &hours,
                        x.fixed_units,
                    ))
                })
                .collect();
            let rows: Vec<Vec<String>> = all
                .iter()
                .filter(|row| row[0] == crate::text::one_line(&t.name))
                .map(|row| row.iter().map(|c| super::html::plain(c)).collect())
                .collect();
            context! { name => crate::text::one_line(&t.name), verdict => verdict(t, &r.currency).text, rows => rows, charts => charts }
        })
        .collect();
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    let rendered = env.add_template("usage", TEMPLATE).and_then(|()| {
        env.get_template("usage")?.render(context! {
            heading => header(r),
            header => HEAD,
            tables => tables,
        })
    });
    rendered.unwrap_or_else(|e| format!("<!doctype html><p>cannot render the page: {e}</p>\n"))
}

fn cost_json(o: &OptionCost) -> serde_json::Value {
    json!({
        "unit_hours": o.unit_hours.map(|u| u.normalize().to_string()),
        "cost": o.cost.normalize().to_string(),
        "monthly": o.monthly.normalize().to_string(),
        "utilization": o.utilization.map(|u| u.normalize().to_string()),
        "throttle_minutes": o.throttle_minutes.normalize().to_string(),
    })
}

pub(crate) fn json(r: &Report) -> String {
    let tables: Vec<serde_json::Value> = r
        .tables
        .iter()
        .map(|t| {
            let v = verdict(t, &r.currency);
            json!({
                "table": t.name,
                "dimensions": t.dimensions.iter().map(|d| {
                    let x = &d.decision;
                    json!({
                        "index": d.index,
                        "dimension": if d.writes { "writes" } else { "reads" },
                        "points": d.points,
                        "steps": d.steps,
                        "gaps": d.steps.saturating_sub(d.points),
                        "consumed": x.consumed.normalize().to_string(),
                        "peak_per_second": x.peak.normalize().to_string(),
                        "window_hours": x.window_hours.normalize().to_string(),
                        "weekly": x.weekly.iter().map(|w| w.normalize().to_string()).collect::<Vec<_>>(),
                        "policy": {"target": d.policy.target.normalize().to_string(), "min": d.policy.min.normalize().to_string(), "max": d.policy.max.normalize().to_string()},
                        "on_demand": cost_json(&x.on_demand),
                        "auto_scaling": cost_json(&x.auto_scaling),
                        "auto_scaling_changes": {"increases": x.auto_scaling_changes.0, "decreases": x.auto_scaling_changes.1},
                        "fixed": {"units": x.fixed_units.normalize().to_string(), "cost": cost_json(&x.fixed)},
                        "current": x.current.as_ref().map(cost_json),
                    })
                }).collect::<Vec<_>>(),
                "verdict": {
                    "on_demand_monthly": v.on_demand.normalize().to_string(),
                    "provisioned_monthly": v.provisioned.normalize().to_string(),
                    "current_monthly": v.current.map(|c| c.normalize().to_string()),
                    "saving_monthly": v.saving.normalize().to_string(),
                    "saving_share": v.share.map(|s| s.normalize().to_string()),
                    "weekly_variation": v.variation.map(|s| s.normalize().to_string()),
                    "throttle_minutes": v.throttle_minutes.normalize().to_string(),
                    "text": v.text,
                },
            })
        })
        .collect();
    let doc = json!({
        "schema": "ddbcost.usage/v1",
        "window": {"start": timestamp(r.start), "end": timestamp(r.end), "period_seconds": r.period},
        "currency": r.currency,
        "price_table": r.price_table,
        "month_hours": r.month_hours.normalize().to_string(),
        "points": {"read": r.points_read, "used": r.points_used, "duplicated": r.duplicated, "dropped": r.dropped, "passes": r.passes, "max_held": r.held},
        "warnings": r.warnings,
        "other_metrics": r.counts.iter().map(|(k, total)| json!({
            "table": k.table, "index": k.index, "metric": k.metric.name(), "sum": total.normalize().to_string(),
        })).collect::<Vec<_>>(),
        "tables": tables,
        "commitments": r.commitments.as_ref().map(|c| json!({
            "months": c.months,
            "start": format!("{}-{:02}", c.start.0, c.start.1),
            "on": if c.on_verdict { "measured-verdict" } else { "measured" },
            "advice": super::forecast::advice_doc(&c.advice),
        })),
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
