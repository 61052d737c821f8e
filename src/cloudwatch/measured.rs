//! The measured workload: the workload `usage` was given, with what CloudWatch measured
//! written into it — per table and GSI, `observed.read_units` and `observed.write_units` for
//! a month (the window's consumption × month hours ÷ window hours, exactly), and the table's
//! `traffic` profile from the data (`weekly` when every hour of the week was measured, else
//! `hourly` when every hour of the day was, else none — said) — headed by the window, its
//! coverage and its gaps. Nothing is filled in silently: a GSI of the workload without
//! metrics is said, and keeps what the workload states.

use rust_decimal::Decimal;
use serde_json::{Map, Value, json};

use super::analysis::{Report, TableReport};
use super::timestamp;
use crate::load::yaml::write::{Comments, SEP, to_yaml};

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
            "observed read and write units are for a {}-hour month: the window's consumption × {} ÷ its hours.",
            report.month_hours.normalize(),
            report.month_hours.normalize()
        ),
    ];
    for t in &report.tables {
        let tpath = ["tables", t.name.as_str()];
        for d in &t.dimensions {
            let x = &d.decision;
            let monthly = if x.window_hours.is_zero() {
                Decimal::ZERO
            } else {
                x.consumed
                    .checked_mul(report.month_hours)
                    .and_then(|c| c.checked_div(x.window_hours))
                    .unwrap_or_default()
            };
            let field = if d.writes {
                "write_units"
            } else {
                "read_units"
            };
            let mut keys: Vec<&str> = tpath.to_vec();
            if let Some(i) = &d.index {
                keys.extend(["indexes", i.as_str()]);
            }
            keys.extend(["observed", field]);
            set(
                &mut doc,
                &keys,
                json!(monthly.round_dp(2).normalize().to_string()),
            );
            comments.push((
                keys.join(SEP),
                format!(
                    "measured: {} units in {} h ({} of {} points, {} gaps taken as 0), × {} ÷ {}",
                    x.consumed.normalize(),
                    x.window_hours.normalize(),
                    d.points,
                    d.steps,
                    d.steps.saturating_sub(d.points),
                    report.month_hours.normalize(),
                    x.window_hours.normalize()
                ),
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
    to_yaml(&doc, &comments, &header)
}
