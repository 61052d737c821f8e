//! `ddbcost usage`'s report: per table, GSI and dimension the measured consumption and what
//! each way of buying it costs a month (on demand, auto scaling simulated, the smallest fixed
//! capacity burst lets serve the curve, and today's capacity), with utilization, minutes served
//! from burst and throttle-risk minutes; then each table's verdict (`engine::verdict`, decided
//! there and only worded here): what to do per dimension with its exact settings, the saving
//! against today's cost, the week-over-week variation, the risk, the switching quota, and the
//! AWS CLI commands that apply it.

use std::fmt::Write as _;

use rust_decimal::Decimal;
use serde_json::json;

use super::money;
use crate::cloudwatch::analysis::{Commitments, Dimension, IndexFinding, Report, TableReport};
use crate::cloudwatch::{Metric, timestamp};
use crate::engine::measured::{OptionCost, Setting, Source};
use crate::engine::verdict::{Move, Plan, REAL, STABLE, TableVerdict};

impl Dimension {
    fn name(&self) -> String {
        let dim = if self.writes { "writes" } else { "reads" };
        match &self.index {
            None => dim.to_string(),
            Some(i) => format!("GSI `{i}` {dim}"),
        }
    }

    fn unit(&self) -> &'static str {
        if self.writes { "WCU" } else { "RCU" }
    }
}

fn pct(x: Decimal) -> String {
    x.checked_mul(Decimal::ONE_HUNDRED)
        .unwrap_or_default()
        .round_dp(1)
        .normalize()
        .to_string()
}

/// What the plan does with each dimension: `writes: fixed at 120 WCU (was auto scaling …)`.
fn plan_words(t: &TableReport, plans: &[Plan]) -> String {
    let mut parts = Vec::new();
    for (d, p) in t.dimensions.iter().zip(plans) {
        let mut s = format!("{} {}", d.name(), p.setting.describe(d.unit()));
        if p.keep {
            s.push_str(" (as today)");
        } else if d.decision.today != Setting::OnDemand || p.setting == Setting::OnDemand {
            let _ = write!(s, " (today {})", d.decision.today.describe(d.unit()));
        }
        if !p.burst_minutes.is_zero() {
            let _ = write!(s, ", {} min served from burst", p.burst_minutes.normalize());
        }
        if !p.throttle_minutes.is_zero() {
            let _ = write!(
                s,
                ", {} min at risk of throttling",
                p.throttle_minutes.normalize()
            );
        }
        if let Some(o) = p.passed_over {
            let _ = write!(
                s,
                "; {} would cost {} less with {} min at risk of throttling",
                o.setting.describe(d.unit()),
                money::quantity(
                    p.monthly
                        .checked_sub(o.monthly)
                        .unwrap_or_default()
                        .round_dp(2)
                ),
                o.throttle_minutes.normalize()
            );
        }
        parts.push(s);
    }
    parts.join("; ")
}

/// Today in words: `on demand (assumed: no provisioned capacity measured and no --workload)`.
fn today_words(v: &TableVerdict, currency: &str) -> String {
    let how = if v.on_demand_today {
        if v.assumed {
            "on demand (assumed: no Provisioned…CapacityUnits measured and no --workload)"
        } else {
            "on demand"
        }
    } else {
        "provisioned"
    };
    let mut s = format!("today {how}, {} a month", money::display(v.today, currency));
    if !v.today_throttle_minutes.is_zero() {
        let _ = write!(
            s,
            ", at risk of throttling for {} min in the window",
            v.today_throttle_minutes.normalize()
        );
    }
    s
}

/// The saving against today in words.
fn saving_words(v: &TableVerdict, currency: &str) -> String {
    if v.saving < Decimal::ZERO {
        format!(
            "costs {} more a month than today's {}, and cuts the throttle risk from {} to {} min",
            money::display(
                v.proposed.checked_sub(v.today).unwrap_or_default(),
                currency
            ),
            money::display(v.today, currency),
            v.today_throttle_minutes.normalize(),
            v.proposed_throttle_minutes.normalize()
        )
    } else {
        format!(
            "saves {} a month ({} % of today's {})",
            money::display(v.saving, currency),
            v.share.map_or_else(|| "0".to_string(), pct),
            money::display(v.today, currency)
        )
    }
}

/// The table's verdict in one line.
pub(crate) fn verdict_text(t: &TableReport, currency: &str) -> String {
    let v = &t.verdict;
    let show = |d: Decimal| money::display(d, currency);
    let today = today_words(v, currency);
    let weeks = v
        .variation
        .map(|x| format!("weekly totals within {} %", pct(x)))
        .unwrap_or_default();
    match v.choice {
        Move::MeasureLonger => format!(
            "measure longer: under two complete weeks of data (the seeds' rule asks for a month before deciding); {today}"
        ),
        Move::Keep if v.on_demand_today && !v.stable => format!(
            "keep on demand: the weekly totals varied by {} % of their mean (more than {} %): not a stable pattern to provision for; {today}",
            pct(v.variation.unwrap_or_default()),
            pct(STABLE)
        ),
        Move::Keep if v.on_demand_today => format!(
            "keep on demand: provisioned ({}) would cost {} a month against {} today — no real saving within the throttle-risk tolerance of {} min (under {} % saved, or at risk)",
            plan_words(t, &v.provision),
            show(v.provisioned),
            show(v.today),
            v.tolerance.round_dp(1).normalize(),
            pct(REAL)
        ),
        Move::Keep => format!(
            "keep the provisioned capacity as it is: {today}; on demand would cost {}, the best provisioned settings {} ({}) — no change saves {} % within the throttle-risk tolerance of {} min",
            show(v.on_demand),
            show(v.provisioned),
            plan_words(t, &v.provision),
            pct(REAL),
            v.tolerance.round_dp(1).normalize()
        ),
        Move::Provision if v.on_demand_today => format!(
            "switch to provisioned capacity: {}; {weeks}; {}; throttle risk {} min; moving back to on demand is allowed 4 times in 24 hours",
            saving_words(v, currency),
            plan_words(t, &v.plans),
            v.proposed_throttle_minutes.normalize()
        ),
        Move::Provision => format!(
            "change the provisioned capacity: {}; {}; throttle risk {} min (today {} min)",
            saving_words(v, currency),
            plan_words(t, &v.plans),
            v.proposed_throttle_minutes.normalize(),
            v.today_throttle_minutes.normalize()
        ),
        Move::ToOnDemand => format!(
            "switch to on demand: {}; {}; it uses one of the 4 switches to on demand allowed in 24 hours (back to provisioned is allowed at any time)",
            saving_words(v, currency),
            today
        ),
    }
}

/// What the table's GSIs say beside the verdict: one never read (and what deleting it
/// saves), one with no metric.
pub(crate) fn index_lines(t: &TableReport, currency: &str) -> Vec<String> {
    let show = |d: Decimal| money::display(d, currency);
    let mut out = Vec::new();
    for f in &t.index_findings {
        out.push(match f {
            IndexFinding::Delete {
                index,
                writes,
                reads,
                storage,
            } => {
                let total = writes
                    .checked_add(*reads)
                    .and_then(|x| x.checked_add(storage.unwrap_or_default()))
                    .unwrap_or(Decimal::MAX);
                format!(
                    "GSI `{index}` was never read in the window (0 read units measured): deleting it saves {} a month — its writes {}, its read capacity {}, its storage {}",
                    show(total),
                    show(*writes),
                    show(*reads),
                    storage.map_or_else(|| "(no storage line in the workload)".to_string(), show)
                )
            }
            IndexFinding::Project {
                index,
                what,
                saving,
            } => format!(
                "GSI `{index}` is read only for what its patterns state: {what} saves {} a month on the measured workload (its measured units scaled by what the patterns derive after ÷ before, as `ddbcost advise` proposes it)",
                show(*saving)
            ),
        });
    }
    for g in &t.unread {
        let priced = t
            .index_findings
            .iter()
            .any(|f| matches!(f, IndexFinding::Delete { index, .. } if index == g));
        if !priced {
            let writes = t
                .dimensions
                .iter()
                .find(|d| d.writes && d.index.as_ref() == Some(g))
                .map_or(Decimal::ZERO, |d| d.decision.current.monthly);
            out.push(format!(
                "GSI `{g}` was never read in the window (0 read units measured): deleting it saves at least its writes, {} a month (its storage too: give `--workload` to price it)",
                show(writes)
            ));
        }
    }
    for g in &t.unmeasured {
        out.push(format!(
            "GSI `{g}` has no metric: it keeps the workload's own figures and is in no verdict here (fetch it with `ddbcost usage query --gsi {}:{g}`)",
            t.name
        ));
    }
    out
}

/// A word for the shell: as is when it is plain, else in single quotes.
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | ':'))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// One dimension as a command sees it: measured (with its plan) or only stated.
struct Target<'a> {
    index: Option<&'a str>,
    writes: bool,
    measured: Option<(&'a Dimension, &'a Plan)>,
    stated: Option<Setting>,
}

/// Every dimension of the table and its GSIs, measured or stated, in a stable order.
fn targets<'a>(t: &'a TableReport) -> Vec<Target<'a>> {
    let mut out: Vec<Target<'a>> = Vec::new();
    for (d, p) in t.dimensions.iter().zip(&t.verdict.plans) {
        out.push(Target {
            index: d.index.as_deref(),
            writes: d.writes,
            measured: Some((d, p)),
            stated: None,
        });
    }
    for (index, writes, setting) in &t.stated {
        match out
            .iter_mut()
            .find(|x| x.index == index.as_deref() && x.writes == *writes)
        {
            Some(x) => x.stated = Some(*setting),
            None => out.push(Target {
                index: index.as_deref(),
                writes: *writes,
                measured: None,
                stated: Some(*setting),
            }),
        }
    }
    out.sort_by(|a, b| (a.index, a.writes).cmp(&(b.index, b.writes)));
    out
}

/// The units `update-table` states for a dimension, or a placeholder to fill in.
fn update_units(x: &Target<'_>, from_on_demand: bool) -> String {
    let unit = if x.writes { "WCU" } else { "RCU" };
    let n = match (x.measured, x.stated) {
        (
            Some((
                _,
                Plan {
                    setting: Setting::Fixed(u),
                    ..
                },
            )),
            _,
        ) => Some(*u),
        (Some((d, p)), _) if p.keep => d.decision.today_last,
        (Some((d, _)), _) => Some(d.decision.auto_scaling_last),
        (None, Some(Setting::Fixed(u))) => Some(u),
        // Not measured, leaving on demand: auto scaling from 1 unit (as the workload patch).
        (None, _) if from_on_demand => Some(Decimal::ONE),
        (None, _) => None,
    };
    n.map_or_else(|| format!("TODAYS_{unit}"), |u| u.normalize().to_string())
}

/// The AWS CLI commands that apply the verdict (none to keep or measure longer). Fixed
/// capacity and a switch of billing mode are set by `update-table` (every GSI in the same
/// call when leaving on demand, as AWS requires; a dimension neither measured nor stated by
/// the workload is a `TODAYS_RCU`/`TODAYS_WCU` placeholder to fill in); an auto-scaled
/// dimension gets `register-scalable-target` and a target-tracking `put-scaling-policy`
/// (starting, when leaving on demand, at where auto scaling holds the curve now); a dimension
/// leaving auto scaling is deregistered first.
pub(crate) fn commands(t: &TableReport, default_target: Decimal) -> Vec<String> {
    let v = &t.verdict;
    let table = shell_word(&t.name);
    let all = targets(t);
    let mut out = Vec::new();
    let was_auto = |x: &Target<'_>| {
        matches!(
            x.measured.map_or(x.stated, |(d, _)| Some(d.decision.today)),
            Some(Setting::AutoScaling(_))
        )
    };
    match v.choice {
        Move::MeasureLonger | Move::Keep => return out,
        Move::ToOnDemand => {
            for x in all.iter().filter(|x| was_auto(x)) {
                out.push(deregister(t, x.index, x.writes));
            }
            out.push(format!(
                "aws dynamodb update-table --table-name {table} --billing-mode PAY_PER_REQUEST"
            ));
            return out;
        }
        Move::Provision => {}
    }
    let from_on_demand = v.on_demand_today;
    let changes = |x: &Target<'_>| x.measured.is_some_and(|(_, p)| !p.keep);
    // Leaving auto scaling first.
    for x in all.iter().filter(|x| changes(x) && was_auto(x)) {
        if x.measured
            .is_some_and(|(_, p)| !matches!(p.setting, Setting::AutoScaling(_)))
        {
            out.push(deregister(t, x.index, x.writes));
        }
    }
    // An entity (the table, a GSI) needs update-table when it leaves on demand or one of its
    // dimensions becomes fixed.
    let needs_update = |index: Option<&str>| {
        from_on_demand
            || all.iter().any(|x| {
                x.index == index
                    && changes(x)
                    && x.measured
                        .is_some_and(|(_, p)| matches!(p.setting, Setting::Fixed(_)))
            })
    };
    let pair = |index: Option<&str>| -> (String, String) {
        let of = |writes: bool| {
            all.iter()
                .find(|x| x.index == index && x.writes == writes)
                .map_or_else(
                    || {
                        if from_on_demand {
                            "1".to_string()
                        } else {
                            format!("TODAYS_{}", if writes { "WCU" } else { "RCU" })
                        }
                    },
                    |x| update_units(x, from_on_demand),
                )
        };
        (of(false), of(true))
    };
    let mut gsis: Vec<&str> = all.iter().filter_map(|x| x.index).collect();
    gsis.dedup();
    let updates: Vec<String> = gsis
        .iter()
        .filter(|g| needs_update(Some(g)))
        .map(|g| {
            let (r, w) = pair(Some(g));
            format!(
                "{{\"Update\":{{\"IndexName\":{},\"ProvisionedThroughput\":{{\"ReadCapacityUnits\":{r},\"WriteCapacityUnits\":{w}}}}}}}",
                serde_json::Value::String((*g).to_string())
            )
        })
        .collect();
    let mut update = format!("aws dynamodb update-table --table-name {table}");
    if from_on_demand {
        update.push_str(" --billing-mode PROVISIONED");
    }
    if needs_update(None) {
        let (r, w) = pair(None);
        let _ = write!(
            update,
            " --provisioned-throughput ReadCapacityUnits={r},WriteCapacityUnits={w}"
        );
    }
    if !updates.is_empty() {
        let _ = write!(
            update,
            " --global-secondary-index-updates {}",
            shell_word(&format!("[{}]", updates.join(",")))
        );
    }
    if needs_update(None) || !updates.is_empty() {
        out.push(update);
    }
    for x in &all {
        let policy = match (x.measured, x.stated) {
            (Some((_, p)), _) if !p.keep => match p.setting {
                Setting::AutoScaling(policy) => Some(policy),
                _ => None,
            },
            // Not measured, leaving on demand: auto scaling from 1 unit at the default target.
            (None, _) if from_on_demand => Some(crate::engine::simulate::Policy {
                target: default_target,
                min: Decimal::ONE,
                max: Decimal::from(40_000),
            }),
            _ => None,
        };
        if let Some(policy) = policy {
            out.extend(autoscale(t, x.index, x.writes, policy));
        }
    }
    out
}

/// `register-scalable-target` and a target-tracking `put-scaling-policy` for one dimension.
fn autoscale(
    t: &TableReport,
    index: Option<&str>,
    writes: bool,
    policy: crate::engine::simulate::Policy,
) -> [String; 2] {
    let (resource, dimension) = scalable(t, index, writes);
    let metric = if writes {
        "DynamoDBWriteCapacityUtilization"
    } else {
        "DynamoDBReadCapacityUtilization"
    };
    let name = format!(
        "{}-{}{}-target-tracking",
        t.name,
        index.map_or_else(String::new, |i| format!("{i}-")),
        if writes { "write" } else { "read" }
    );
    let config = format!(
        "{{\"TargetValue\":{},\"PredefinedMetricSpecification\":{{\"PredefinedMetricType\":\"{metric}\"}}}}",
        policy
            .target
            .checked_mul(Decimal::ONE_HUNDRED)
            .unwrap_or_default()
            .normalize()
    );
    [
        format!(
            "aws application-autoscaling register-scalable-target --service-namespace dynamodb --resource-id {resource} --scalable-dimension {dimension} --min-capacity {} --max-capacity {}",
            policy.min.normalize(),
            policy.max.normalize()
        ),
        format!(
            "aws application-autoscaling put-scaling-policy --service-namespace dynamodb --resource-id {resource} --scalable-dimension {dimension} --policy-name {} --policy-type TargetTrackingScaling --target-tracking-scaling-policy-configuration {}",
            shell_word(&name),
            shell_word(&config)
        ),
    ]
}

/// The Application Auto Scaling resource and dimension of a table's or GSI's reads or writes.
fn scalable(t: &TableReport, index: Option<&str>, writes: bool) -> (String, String) {
    let (resource, kind) = match index {
        None => (format!("table/{}", t.name), "table"),
        Some(i) => (format!("table/{}/index/{i}", t.name), "index"),
    };
    let unit = if writes { "Write" } else { "Read" };
    (
        shell_word(&resource),
        format!("dynamodb:{kind}:{unit}CapacityUnits"),
    )
}

fn deregister(t: &TableReport, index: Option<&str>, writes: bool) -> String {
    let (resource, dimension) = scalable(t, index, writes);
    format!(
        "aws application-autoscaling deregister-scalable-target --service-namespace dynamodb --resource-id {resource} --scalable-dimension {dimension}"
    )
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
    let mut fx =
        r.fx.as_ref()
            .map_or_else(String::new, |fx| format!(", prices converted at {fx}"));
    if !r.partial.is_empty() {
        let _ = write!(fx, "; PARTIAL (--allow-partial): {}", r.partial.join("; "));
    }
    format!(
        "ddbcost usage: {} to {}, {}-second points ({} read, {} used, {} duplicated, {} not analysed{passes}); monthly costs in {} for a {}-hour month, price table `{}`{fx}",
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
        if !o.burst_minutes.is_zero() {
            let _ = write!(s, ", {} min from burst", o.burst_minutes.normalize());
        }
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
                format!(
                    "{} ({}{}): {}",
                    x.today.describe(d.unit()),
                    match x.source {
                        Source::Measured => "measured",
                        Source::Workload => "the workload's",
                        Source::Assumed => "assumed",
                    },
                    "",
                    option(&x.current, cur)
                ),
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
    "Today /month",
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
        let _ = writeln!(
            out,
            "{name}: {}",
            crate::text::one_line(&verdict_text(t, &r.currency))
        );
        for c in commands(t, r.target) {
            let _ = writeln!(out, "  $ {}", crate::text::one_line(&c));
        }
        for l in index_lines(t, &r.currency) {
            let _ = writeln!(out, "{name}: {}", crate::text::one_line(&l));
        }
    }
    for (k, total) in &r.counts {
        let place = format!(
            "table `{}`{}",
            crate::text::one_line(&k.table),
            k.index.as_ref().map_or_else(String::new, |i| format!(
                ", GSI `{}`",
                crate::text::one_line(i)
            ))
        );
        let n = money::quantity(*total);
        let _ = match k.metric {
            Metric::OnlineIndexConsumedWrite => writeln!(
                out,
                "backfill measured on {place}: {n} write units consumed building the index in the window (OnlineIndexConsumedWriteCapacity)"
            ),
            Metric::OnlineIndexProgress => writeln!(
                out,
                "backfill measured on {place}: {n} % done at most in the window (OnlineIndexPercentageProgress)"
            ),
            Metric::OnlineIndexThrottleEvents => writeln!(
                out,
                "backfill measured on {place}: {n} of its writes throttled in the window (OnlineIndexThrottleEvents)"
            ),
            _ => writeln!(
                out,
                "measured on {place}: {n} {}{} in the window",
                k.metric.name(),
                k.metric
                    .by()
                    .zip(k.by.as_deref())
                    .map_or_else(String::new, |(d, v)| format!(
                        " ({d} {})",
                        crate::text::one_line(v)
                    ))
            ),
        };
    }
    out.push_str("Auto scaling is simulated step by step by Application Auto Scaling's documented rules, and demand above capacity is served from burst capacity (300 s of unused capacity, banked from the window's start) before it counts as throttle risk (see docs/commands/usage.md); a period without a point is taken as 0 consumed.\n");
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
        "## {}\n\n{}",
        super::markdown::cell(&header(r)),
        super::markdown::table(
            &HEAD,
            &[false; HEAD.len()],
            &rows(r).into_iter().map(Vec::from).collect::<Vec<_>>()
        )
    );
    out.push('\n');
    for t in &r.tables {
        let _ = writeln!(
            out,
            "- **{}**: {}",
            super::markdown::cell(&t.name),
            super::markdown::cell(&verdict_text(t, &r.currency))
        );
        let cmds = commands(t, r.target);
        if !cmds.is_empty() {
            out.push_str("\n  ```sh\n");
            for c in cmds {
                let _ = writeln!(out, "  {}", crate::text::one_line(&c));
            }
            out.push_str("  ```\n");
        }
        for l in index_lines(t, &r.currency) {
            let _ = writeln!(
                out,
                "- **{}**: {}",
                super::markdown::cell(&t.name),
                super::markdown::cell(&l)
            );
        }
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
pub(crate) fn html(r: &Report) -> Result<String, crate::error::Error> {
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
            context! { name => crate::text::one_line(&t.name), verdict => verdict_text(t, &r.currency), indexes => index_lines(t, &r.currency), commands => commands(t, r.target).iter().map(|c| crate::text::one_line(c).into_owned()).collect::<Vec<_>>(), rows => rows, charts => charts }
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
    rendered.map_err(|e| super::page_error(&e))
}

fn cost_json(o: &OptionCost) -> serde_json::Value {
    json!({
        "unit_hours": o.unit_hours.map(|u| u.normalize().to_string()),
        "cost": o.cost.normalize().to_string(),
        "monthly": o.monthly.normalize().to_string(),
        "utilization": o.utilization.map(|u| u.normalize().to_string()),
        "burst_minutes": o.burst_minutes.normalize().to_string(),
        "throttle_minutes": o.throttle_minutes.normalize().to_string(),
    })
}

fn setting_json(s: Setting) -> serde_json::Value {
    match s {
        Setting::OnDemand => json!({"mode": "on-demand"}),
        Setting::Fixed(u) => json!({"mode": "fixed", "units": u.normalize().to_string()}),
        Setting::AutoScaling(p) => json!({
            "mode": "auto-scaling",
            "target": p.target.normalize().to_string(),
            "min": p.min.normalize().to_string(),
            "max": p.max.normalize().to_string(),
        }),
        Setting::Varying => json!({"mode": "provisioned-varying"}),
    }
}

fn plan_json(d: &Dimension, p: &Plan) -> serde_json::Value {
    json!({
        "index": d.index,
        "dimension": if d.writes { "writes" } else { "reads" },
        "setting": setting_json(p.setting),
        "keep": p.keep,
        "monthly": p.monthly.normalize().to_string(),
        "today_monthly": p.today_monthly.normalize().to_string(),
        "burst_minutes": p.burst_minutes.normalize().to_string(),
        "throttle_minutes": p.throttle_minutes.normalize().to_string(),
        "passed_over": p.passed_over.map(|o| json!({
            "setting": setting_json(o.setting),
            "monthly": o.monthly.normalize().to_string(),
            "throttle_minutes": o.throttle_minutes.normalize().to_string(),
        })),
    })
}

fn finding_json(f: &IndexFinding) -> serde_json::Value {
    match f {
        IndexFinding::Delete {
            index,
            writes,
            reads,
            storage,
        } => json!({
            "index": index,
            "change": "delete",
            "writes_monthly": writes.normalize().to_string(),
            "reads_monthly": reads.normalize().to_string(),
            "storage_monthly": storage.map(|s| s.normalize().to_string()),
        }),
        IndexFinding::Project {
            index,
            what,
            saving,
        } => json!({
            "index": index,
            "change": "projection",
            "what": what,
            "saving_monthly": saving.normalize().to_string(),
        }),
    }
}

fn move_name(m: Move) -> &'static str {
    match m {
        Move::MeasureLonger => "measure-longer",
        Move::Keep => "keep",
        Move::ToOnDemand => "on-demand",
        Move::Provision => "provisioned",
    }
}

pub(crate) fn json(r: &Report) -> String {
    let tables: Vec<serde_json::Value> = r
        .tables
        .iter()
        .map(|t| {
            let v = &t.verdict;
            json!({
                "table": t.name,
                "unread_gsis": t.unread,
                "unmeasured_gsis": t.unmeasured,
                "index_findings": t.index_findings.iter().map(finding_json).collect::<Vec<_>>(),
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
                        "today": {
                            "setting": setting_json(x.today),
                            "source": match x.source {
                                Source::Measured => "measured",
                                Source::Workload => "workload",
                                Source::Assumed => "assumed",
                            },
                        },
                        "current": cost_json(&x.current),
                    })
                }).collect::<Vec<_>>(),
                "verdict": {
                    "choice": move_name(v.choice),
                    "today": if v.on_demand_today { "on-demand" } else { "provisioned" },
                    "today_assumed": v.assumed,
                    "today_monthly": v.today.normalize().to_string(),
                    "on_demand_monthly": v.on_demand.normalize().to_string(),
                    "provisioned_monthly": v.provisioned.normalize().to_string(),
                    "proposed_monthly": v.proposed.normalize().to_string(),
                    "saving_monthly": v.saving.normalize().to_string(),
                    "saving_share": v.share.map(|s| s.normalize().to_string()),
                    "weekly_variation": v.variation.map(|s| s.normalize().to_string()),
                    "stable": v.stable,
                    "today_throttle_minutes": v.today_throttle_minutes.normalize().to_string(),
                    "throttle_minutes": v.proposed_throttle_minutes.normalize().to_string(),
                    "plans": t.dimensions.iter().zip(&v.plans).map(|(d, p)| plan_json(d, p)).collect::<Vec<_>>(),
                    "commands": commands(t, r.target),
                    "indexes": index_lines(t, &r.currency),
                    "text": verdict_text(t, &r.currency),
                },
            })
        })
        .collect();
    let doc = json!({
        "schema": "ddbcost.usage/v2",
        "window": {"start": timestamp(r.start), "end": timestamp(r.end), "period_seconds": r.period},
        "currency": r.currency,
        "price_table": r.price_table,
        "fx": r.fx,
        "month_hours": r.month_hours.normalize().to_string(),
        "points": {"read": r.points_read, "used": r.points_used, "duplicated": r.duplicated, "dropped": r.dropped, "passes": r.passes, "max_held": r.held},
        "warnings": r.warnings,
        "partial": r.partial,
        "other_metrics": r.counts.iter().map(|(k, total)| json!({
            "table": k.table, "index": k.index, "metric": k.metric.name(), "dimension": k.metric.by().zip(k.by.as_deref()).map(|(d, v)| format!("{d}={v}")), "statistic": k.metric.statistic(), "value": total.normalize().to_string(),
            "sum": (k.metric.statistic() == "Sum").then(|| total.normalize().to_string()),
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
