//! The measured workload: the workload `usage` was given, with what CloudWatch measured
//! written into it — per table and GSI, `observed.read_units` and `observed.write_units` for
//! a month (the window's consumption × month hours ÷ window hours, exactly), and the table's
//! `traffic` profile from the data (`weekly` when every hour of the week was measured, else
//! `hourly` when every hour of the day was, else none — said) — headed by the window, its
//! coverage and its gaps. Nothing is filled in silently: a GSI of the workload without
//! metrics is said, and keeps what the workload states.

use rust_decimal::Decimal;
use serde_json::{Map, Value, json};

use super::analysis::{Dimension, Report, TableReport};
use super::timestamp;
use crate::engine::measured::Setting;
use crate::engine::verdict::{Move, Plan};
use crate::load::yaml::write::{Comments, SEP, to_yaml};

/// The name of the scenario that applies the verdicts.
pub(crate) const VERDICT: &str = "measured-verdict";

const DAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/// A multiplier to 4 decimals (the loader normalizes a profile to a mean of 1).
fn factor(part: Decimal, mean: Decimal) -> Value {
    json!(
        part.checked_div(mean)
            .unwrap_or_default()
            .round_dp(4)
            .normalize()
            .to_string()
    )
}

/// The table's profile from its hour-of-week consumption, and what it says about it.
fn traffic(t: &TableReport) -> (Option<Value>, String) {
    let total: Decimal = t
        .week
        .iter()
        .fold(Decimal::ZERO, |a, (v, _)| a.checked_add(*v).unwrap_or(a));
    if total.is_zero() {
        return (
            None,
            "no consumption measured: no traffic profile".to_string(),
        );
    }
    if t.week.iter().all(|(_, seen)| *seen) {
        let mean = total.checked_div(Decimal::from(168)).unwrap_or_default();
        let mut days = Map::new();
        for (name, day) in DAYS.iter().zip(t.week.chunks(24)) {
            let hours: Vec<Value> = day.iter().map(|(v, _)| factor(*v, mean)).collect();
            days.insert((*name).to_string(), Value::Array(hours));
        }
        return (
            Some(json!({ "weekly": days })),
            "measured: every hour of the week".to_string(),
        );
    }
    let mut day = vec![(Decimal::ZERO, false); 24];
    for (i, (v, seen)) in t.week.iter().enumerate() {
        let h = &mut day[i % 24];
        h.0 = h.0.checked_add(*v).unwrap_or(h.0);
        h.1 |= *seen;
    }
    if day.iter().all(|(_, seen)| *seen) {
        let mean = total.checked_div(Decimal::from(24)).unwrap_or_default();
        let hours: Vec<Value> = day.iter().map(|(v, _)| factor(*v, mean)).collect();
        return (
            Some(json!({ "hourly": hours })),
            "measured: every hour of the day, not of the week (under a week of data)".to_string(),
        );
    }
    (
        None,
        "not every hour of the day was measured: no traffic profile".to_string(),
    )
}

fn set(map: &mut Value, keys: &[&str], value: Value) {
    let mut at = map;
    for k in &keys[..keys.len().saturating_sub(1)] {
        if !at.get(*k).is_some_and(Value::is_object) {
            at[*k] = json!({});
        }
        at = &mut at[*k];
    }
    if let Some(last) = keys.last() {
        at[*last] = value;
    }
}

/// States the window's hours on the `observed` block at `keys`; a count the workload already
/// stated there for its month (stream read requests) is turned into the window's, so that
/// the month's rescaling gives it back.
fn window_hours(doc: &mut Value, keys: &[&str], hours: Decimal, month_hours: Decimal) {
    let mut at = &*doc;
    for k in keys {
        at = &at[*k];
    }
    let stated = at
        .get("stream_read_requests")
        .and_then(|v| {
            v.as_str()
                .map(str::to_string)
                .or_else(|| v.as_u64().map(|n| n.to_string()))
        })
        .and_then(|v| crate::load::quantity::parse_count(&v).ok());
    if let Some(count) = stated
        && !month_hours.is_zero()
    {
        let windowed = count
            .checked_mul(hours)
            .and_then(|c| c.checked_div(month_hours))
            .unwrap_or_default();
        let mut path = keys.to_vec();
        path.push("stream_read_requests");
        set(doc, &path, json!(windowed.normalize().to_string()));
    }
    let mut path = keys.to_vec();
    path.push("hours");
    set(doc, &path, json!(hours.normalize().to_string()));
}

fn share(x: Decimal) -> Value {
    json!(format!(
        "{}%",
        x.checked_mul(Decimal::ONE_HUNDRED)
            .unwrap_or_default()
            .normalize()
    ))
}

/// One measured capacity (a table's or a GSI's) as the verdict's plans set it, as a merge
/// patch: a fixed dimension gets its units (and loses its auto-scaling fields), an auto-scaled
/// one its target and bounds; a dimension kept as it is is left alone; one not measured, on a
/// table leaving on demand, auto scales from 1 unit at the default target.
fn capacity(
    dims: &[(&Dimension, &Plan)],
    from_on_demand: bool,
    default_target: Decimal,
) -> Map<String, Value> {
    let mut out = Map::new();
    let mut auto = Map::new();
    let mut scaled = false;
    for (writes, unit) in [(false, "rcu"), (true, "wcu")] {
        let mut scale = |target: Value, min: Value, max: Value| {
            auto.insert(format!("target_{unit}"), target);
            auto.insert(format!("min_{unit}"), min);
            auto.insert(format!("max_{unit}"), max);
        };
        match dims
            .iter()
            .find(|(d, _)| d.writes == writes)
            .map(|(_, p)| *p)
        {
            Some(Plan {
                setting: Setting::Fixed(u),
                keep: false,
                ..
            }) => {
                out.insert(unit.to_string(), json!(u.normalize().to_string()));
                scale(Value::Null, Value::Null, Value::Null);
            }
            Some(Plan {
                setting: Setting::AutoScaling(p),
                keep: false,
                ..
            }) => {
                out.insert(unit.to_string(), Value::Null);
                scale(
                    share(p.target),
                    json!(p.min.normalize().to_string()),
                    json!(p.max.normalize().to_string()),
                );
                scaled = true;
            }
            None if from_on_demand => {
                out.insert(unit.to_string(), Value::Null);
                scale(share(default_target), json!("1"), Value::Null);
                scaled = true;
            }
            // Kept as it is, varying, or not measured on a table already provisioned.
            Some(_) | None => {}
        }
    }
    if !auto.is_empty() {
        // Each dimension states its own target: a shared `target` would apply to neither.
        auto.insert("target".to_string(), Value::Null);
        out.insert(
            "auto_scaling".to_string(),
            if scaled {
                Value::Object(auto)
            } else {
                Value::Null
            },
        );
    }
    out
}

/// The patch that applies `t`'s verdict, and its words; `None` when there is nothing to do
/// (measure longer, or keep).
fn verdict_patch(t: &TableReport, report: &Report) -> Option<(Value, String)> {
    let v = &t.verdict;
    let name = crate::text::one_line(&t.name);
    match v.choice {
        Move::MeasureLonger | Move::Keep => None,
        Move::ToOnDemand => Some((
            json!({"capacity": {"mode": "on-demand", "rcu": null, "wcu": null, "auto_scaling": null, "reserved": null}}),
            format!("`{name}` on demand"),
        )),
        Move::Provision => {
            let planned: Vec<(&Dimension, &Plan)> = t.dimensions.iter().zip(&v.plans).collect();
            let own: Vec<(&Dimension, &Plan)> = planned
                .iter()
                .filter(|(d, _)| d.index.is_none())
                .copied()
                .collect();
            let mut cap = capacity(&own, v.on_demand_today, report.target);
            if v.on_demand_today {
                cap.insert("mode".to_string(), json!("provisioned"));
                cap.insert("max_read_units".to_string(), Value::Null);
                cap.insert("max_write_units".to_string(), Value::Null);
            }
            let mut patch = json!({});
            if !cap.is_empty() {
                patch["capacity"] = Value::Object(cap);
            }
            let mut gsis: Vec<&str> = t
                .dimensions
                .iter()
                .filter_map(|d| d.index.as_deref())
                .collect();
            gsis.dedup();
            for g in gsis {
                let dims: Vec<(&Dimension, &Plan)> = planned
                    .iter()
                    .filter(|(d, _)| d.index.as_deref() == Some(g))
                    .copied()
                    .collect();
                let cap = capacity(&dims, v.on_demand_today, report.target);
                if !cap.is_empty() {
                    patch["indexes"][g] = Value::Object(cap);
                }
            }
            let words: Vec<String> = planned
                .iter()
                .filter(|(_, p)| !p.keep)
                .map(|(d, p)| {
                    let gsi = d.index.as_ref().map_or_else(String::new, |i| {
                        format!("GSI `{}` ", crate::text::one_line(i))
                    });
                    format!(
                        "{gsi}{}",
                        p.setting
                            .describe(if d.writes { "WCU writes" } else { "RCU reads" })
                    )
                })
                .collect();
            Some((patch, format!("`{name}` provisioned: {}", words.join(", "))))
        }
    }
}

/// Adds (or replaces) the `measured-verdict` alternative: each table's verdict applied.
fn add_verdicts(doc: &mut Value, report: &Report) {
    let mut patch = json!({});
    let mut words = Vec::new();
    for t in &report.tables {
        if let Some((p, w)) = verdict_patch(t, report) {
            patch["tables"][t.name.as_str()] = p;
            words.push(w);
        }
    }
    if words.is_empty() {
        return;
    }
    let alternative = json!({
        "name": VERDICT,
        "description": format!(
            "The verdicts of `ddbcost usage`: {}. Provisioned capacity here is sized by the engine hour by hour from the measured weekly profile; `usage` simulated it at the data's own resolution.",
            words.join("; ")
        ),
        "patch": patch,
    });
    if !doc.get("scenarios").is_some_and(Value::is_object) {
        doc["scenarios"] = json!({});
    }
    let list = &mut doc["scenarios"]["alternatives"];
    if !list.is_array() {
        *list = json!([]);
    }
    if let Some(items) = list.as_array_mut() {
        items.retain(|a| a.get("name").and_then(Value::as_str) != Some(VERDICT));
        items.push(alternative);
    }
}

/// The workload document `doc` with `report`'s measurements, as commented YAML.
pub(crate) fn workload(mut doc: Value, report: &Report, source: &str) -> String {
    let mut comments = Comments::new();
    let window = format!("{} to {}", timestamp(report.start), timestamp(report.end));
    let mut header = vec![
        format!(
            "Measured by `ddbcost usage` from CloudWatch, {window} ({}-second points), onto {source}.",
            report.period
        ),
        format!(
            "observed read and write units are the window's own ({} h), with `observed.hours`: any month is priced at × its hours ÷ the window's ({} h for a {}-hour month).",
            report
                .tables
                .first()
                .and_then(|t| t.dimensions.first())
                .map_or(Decimal::ZERO, |d| d.decision.window_hours)
                .normalize(),
            report.month_hours.normalize(),
            report.month_hours.normalize()
        ),
    ];
    for t in &report.tables {
        let tpath = ["tables", t.name.as_str()];
        for d in &t.dimensions {
            let x = &d.decision;
            let field = if d.writes {
                "write_units"
            } else {
                "read_units"
            };
            let mut keys: Vec<&str> = tpath.to_vec();
            if let Some(i) = &d.index {
                keys.extend(["indexes", i.as_str()]);
            }
            keys.push("observed");
            window_hours(&mut doc, &keys, x.window_hours, report.month_hours);
            keys.push(field);
            set(&mut doc, &keys, json!(x.consumed.normalize().to_string()));
            let monthly = if x.window_hours.is_zero() {
                Decimal::ZERO
            } else {
                x.consumed
                    .checked_mul(report.month_hours)
                    .and_then(|c| c.checked_div(x.window_hours))
                    .unwrap_or_default()
            };
            comments.push((
                keys.join(SEP),
                format!(
                    "measured: {} units in {} h ({} of {} points, {} gaps taken as 0); a {}-hour month: {}",
                    x.consumed.normalize(),
                    x.window_hours.normalize(),
                    d.points,
                    d.steps,
                    d.steps.saturating_sub(d.points),
                    report.month_hours.normalize(),
                    monthly.round_dp(2).normalize()
                ),
            ));
        }
        // A GSI whose reads were asked for and came back with no point: none consumed.
        for g in &t.unread {
            if t.dimensions
                .iter()
                .any(|d| !d.writes && d.index.as_ref() == Some(g))
            {
                continue;
            }
            let observed = ["tables", t.name.as_str(), "indexes", g.as_str(), "observed"];
            let window = t
                .dimensions
                .first()
                .map_or(Decimal::ZERO, |d| d.decision.window_hours);
            window_hours(&mut doc, &observed, window, report.month_hours);
            let keys = [
                "tables",
                t.name.as_str(),
                "indexes",
                g.as_str(),
                "observed",
                "read_units",
            ];
            set(&mut doc, &keys, json!("0"));
            comments.push((
                keys.join(SEP),
                "measured: asked for, and no point came back (nothing consumed in the window)"
                    .to_string(),
            ));
        }
        let (profile, why) = traffic(t);
        match profile {
            Some(p) => {
                set(&mut doc, &["tables", t.name.as_str(), "traffic"], p);
                comments.push((["tables", t.name.as_str(), "traffic"].join(SEP), why));
            }
            None => header.push(format!("table `{}`: {why}", t.name)),
        }
        // A GSI the workload describes and CloudWatch did not measure.
        if let Some(indexes) = doc["tables"][t.name.as_str()]["indexes"].as_object() {
            for (name, ix) in indexes {
                let measured = t
                    .dimensions
                    .iter()
                    .any(|d| d.index.as_deref() == Some(name.as_str()));
                let gsi = ix.get("type").and_then(Value::as_str) == Some("gsi");
                if gsi && !measured {
                    header.push(format!(
                        "table `{}`, GSI `{name}`: no metrics measured; it keeps what the workload states",
                        t.name
                    ));
                }
            }
        }
    }
    add_verdicts(&mut doc, report);
    to_yaml(&doc, &comments, &header)
}
