//! What `ddbcost anomalies` found, in words: each departure's day, table, meter, cost a day
//! before and after, money a month at the new rate, its shape and the mechanism the bill
//! shows — as a table, Markdown or JSON (`ddbcost.anomalies/v1`), with the rule stated.

use rust_decimal::Decimal;
use serde_json::json;

use super::money::{display, quantity};
use crate::anomalies::daily::Daily;
use crate::anomalies::detect::{Departure, Mechanism, Rule, Shape};

/// `YYYY-MM-DD` of a day since 1970-01-01.
fn date(day: i64) -> String {
    crate::cloudwatch::timestamp(day.saturating_mul(86_400))
        .get(..10)
        .unwrap_or_default()
        .to_string()
}

fn shape(s: Shape) -> &'static str {
    match s {
        Shape::Step => "step",
        Shape::Spike => "one day",
        Shape::Recent => "recent",
        Shape::Growth => "growth",
    }
}

/// What a meter that began or stopped is, from its usage type.
fn meter_kind(meter: &str) -> &'static str {
    let m = meter;
    if m.contains("Repl") {
        "replicated writes: a replica region"
    } else if m.contains("PITR") {
        "point-in-time recovery"
    } else if m.starts_with("Streams") {
        "stream reads: a consumer of the table's stream"
    } else if m.contains("ChangeDataCapture") {
        "Kinesis Data Streams change data capture"
    } else if m.contains("Backup") {
        "on-demand backups kept"
    } else if m.starts_with("Restore") {
        "a restore"
    } else if m.starts_with("Export") {
        "an export to S3"
    } else if m.starts_with("Import") {
        "an import from S3"
    } else if m.contains("CapacityUnit-Hrs") {
        "provisioned capacity"
    } else if m.contains("RequestUnits") {
        "on-demand request units"
    } else if m.contains("TimedStorage") {
        "storage"
    } else if m.starts_with("IA-") {
        "the Standard-IA table class"
    } else if m.starts_with("HeavyUsage") {
        "reserved capacity"
    } else {
        "a meter"
    }
}

/// The mechanism, in words.
fn why(d: &Departure, currency: &str) -> String {
    let meter = &d.meter.2;
    match &d.mechanism {
        Mechanism::Began => format!("a new meter began: {} (`{meter}`)", meter_kind(meter)),
        Mechanism::Stopped => format!("a meter stopped: {} (`{meter}`)", meter_kind(meter)),
        Mechanism::FromTheStart if d.before.is_zero() => format!(
            "billed and not in the workload: {} (`{meter}`)",
            meter_kind(meter)
        ),
        Mechanism::FromTheStart => {
            "the bill differs from the workload's estimate from its first day".to_string()
        }
        Mechanism::Price { before, after } => format!(
            "the same units a day at another price a unit ({} → {} {currency}): a reservation, savings plan or discount began or stopped covering them",
            before.normalize(),
            after.normalize()
        ),
        Mechanism::Units { before, after } if meter.contains("TimedStorage") => format!(
            "storage grew from {} to {} byte-hours a day: items added faster than TTL or deletes remove them",
            quantity(*before),
            quantity(*after)
        ),
        Mechanism::Units { before, after } => format!(
            "units a day went from {} to {} at the same price a unit: more requests, larger items (past a 1 KB or 4 KB boundary), stronger reads or a query turned scan — the bill alone cannot tell which",
            quantity(*before),
            quantity(*after)
        ),
        Mechanism::Growth { before, after } => format!(
            "storage grows {} units of `{meter}` a day where it grew {}: more kept than deleted — TTL deletions that stopped, a backfill or more writes; the bill alone cannot tell which",
            quantity(*after),
            quantity(*before)
        ),
        _ => measured(d),
    }
}

/// A mechanism the CloudWatch metrics showed, in words.
fn measured(d: &Departure) -> String {
    match &d.mechanism {
        Mechanism::Index {
            index,
            began: true,
            units,
            backfill,
        } => format!(
            "GSI `{}` began: it consumes {} units a day (CloudWatch, the index's Consumed*CapacityUnits){}",
            crate::text::one_line(index),
            quantity(*units),
            backfill.map_or_else(String::new, |b| format!(
                "; its backfill consumed {} write units (OnlineIndexConsumedWriteCapacity)",
                quantity(b)
            ))
        ),
        Mechanism::Index { index, units, .. } => format!(
            "GSI `{}` stopped consuming (deleted?): it consumed {} units a day",
            crate::text::one_line(index),
            quantity(*units)
        ),
        Mechanism::ItemsPerRequest {
            before, after, scans_began: true, ..
        } => format!(
            "scans began: each returns {} items where a query returned {} — a query turned scan (ReturnedItemCount ÷ successful requests)",
            quantity(*after),
            quantity(*before)
        ),
        Mechanism::ItemsPerRequest {
            operation,
            before,
            after,
            ..
        } => format!(
            "each {operation} returns {} items where it returned {}: a query turned broader or a scan over more items (ReturnedItemCount ÷ successful requests)",
            quantity(*after),
            quantity(*before)
        ),
        Mechanism::PerRequest {
            before,
            after,
            writes: true,
        } => format!(
            "write units per request stepped from {} to {}, the requests the same: items past a 1 KB boundary (a write unit per KB), or writes turned transactional (2×)",
            quantity(*before),
            quantity(*after)
        ),
        Mechanism::PerRequest { before, after, .. } => format!(
            "read units per request stepped from {} to {}, the requests the same: items past a 4 KB boundary (a read unit per 4 KB), or reads turned strong (2× eventual) or transactional (2× strong)",
            quantity(*before),
            quantity(*after)
        ),
        Mechanism::Requests { before, after } => format!(
            "successful requests a day went from {} to {}, each consuming the same units: more (or less) traffic",
            quantity(*before),
            quantity(*after)
        ),
        Mechanism::TtlStopped { before, after } => format!(
            "TTL deletions fell from {} to {} a day: the items that expire stay, and are billed (TimeToLiveDeletedItemCount)",
            quantity(*before),
            quantity(*after)
        ),
        Mechanism::Replica { since } => format!(
            "a new meter began: replicated writes to a replica in {} (`{}`); CloudWatch measures ReplicationLatency to it from {}",
            d.meter.1,
            d.meter.2,
            date(*since)
        ),
        _ => "not explained: the table's CloudWatch metrics show no GSI, scan, units per request, request or TTL change that moves it".to_string(),
    }
}

/// The mechanism's name in JSON, and its figures before and after.
fn kind(m: &Mechanism) -> (&'static str, Option<&Decimal>, Option<&Decimal>) {
    match m {
        Mechanism::Began => ("began", None, None),
        Mechanism::FromTheStart => ("from-the-start", None, None),
        Mechanism::Stopped => ("stopped", None, None),
        Mechanism::Price { before, after } => ("price", Some(before), Some(after)),
        Mechanism::Units { before, after } => ("units", Some(before), Some(after)),
        Mechanism::Growth { before, after } => ("growth", Some(before), Some(after)),
        Mechanism::Index {
            began: true, units, ..
        } => ("index-began", None, Some(units)),
        Mechanism::Index { units, .. } => ("index-stopped", Some(units), None),
        Mechanism::ItemsPerRequest { before, after, .. } => {
            ("items-per-request", Some(before), Some(after))
        }
        Mechanism::PerRequest { before, after, .. } => {
            ("units-per-request", Some(before), Some(after))
        }
        Mechanism::Requests { before, after } => ("requests", Some(before), Some(after)),
        Mechanism::TtlStopped { before, after } => ("ttl-stopped", Some(before), Some(after)),
        Mechanism::Replica { .. } => ("replica", None, None),
        Mechanism::Unexplained => ("unexplained", None, None),
    }
}

/// The money a month at the new rate (a growth: what a month of it adds to the month
/// after), or what the one day cost more.
fn month_cell(d: &Departure, currency: &str) -> String {
    match d.per_month {
        Some(m) if d.shape == Shape::Growth => format!(
            "{} a month, after a month of it",
            super::compare::signed(m, currency)
        ),
        Some(m) => format!("{} a month", super::compare::signed(m, currency)),
        None => format!("{} that day", super::compare::signed(d.excess, currency)),
    }
}

/// A cost a day, or a storage meter's growth a day.
fn day_cell(d: &Departure, v: Decimal, currency: &str) -> String {
    if d.shape == Shape::Growth {
        format!("{} each day", super::compare::signed(v, currency))
    } else {
        display(v, currency)
    }
}

fn rule_text(r: &Rule, currency: &str, against: Option<&str>) -> String {
    let baseline = match against {
        Some(w) => format!(
            "the workload `{}`'s estimate of it, a day (0 for a meter it lacks); every day is checked, and a step that steps again (three days running off its own new rate) is reported again, set against that rate (storage, which grows as a ramp, once)",
            crate::text::one_line(w)
        ),
        None => format!(
            "the median of its cost on the {} days before (a day without a row costs 0)",
            r.window
        ),
    };
    let growth = if against.is_none() {
        format!(
            " A storage meter's growth a day is set against the window's median growth the same way: three days running off it, by {} {currency} a day after a month of it, is a growth, reported on its first day, its money a month what a month of it adds to the month after ((new − baseline growth) × {} days²), and not reported again as the level it moves.",
            display(r.floor, currency),
            quantity(r.month_days)
        )
    } else {
        String::new()
    };
    let metrics = r.metrics.map_or_else(String::new, |n| format!(
        " Mechanisms are read from the bill and from {n} CloudWatch series: each measure's median over the window against its median over the departure's first days (the day, for one day), moved when they differ by more than {} %; a table's departure its metrics do not explain is said so.",
        quantity(r.relative.saturating_mul(Decimal::ONE_HUNDRED))
    ));
    format!(
        "Rule: a meter's baseline is {baseline}; a day departs when it differs from the baseline by at least {} % of it and {} {currency}; reported on its first day (a step when the next two days depart the same way, one day when not, recent when the bill ends first); its money a month is (new rate − baseline) × {} days (one day: what it cost more).{growth}{metrics} Credits, refunds and taxes are left out; amounts are exact, shown rounded.",
        quantity(r.relative.saturating_mul(Decimal::ONE_HUNDRED)),
        display(r.floor, currency),
        quantity(r.month_days)
    )
}

/// The table (or Markdown) view.
#[must_use]
pub(crate) fn table(
    daily: &Daily,
    rule: &Rule,
    found: &[Departure],
    layout: Option<super::layout::Layout>,
    against: Option<&str>,
) -> String {
    let markdown = layout.is_none();
    let currency = daily.currency.as_deref().unwrap_or("");
    let (first, last) = daily.span.unwrap_or_default();
    let mut out = format!(
        "{}ddbcost anomalies: {} to {} ({} days), {} meter(s), {} departure(s)\n",
        if markdown { "## " } else { "" },
        date(first),
        date(last),
        last.saturating_sub(first).saturating_add(1),
        daily.series.len(),
        found.len()
    );
    if !found.is_empty() {
        let header = vec![
            "Day".to_string(),
            "Table".to_string(),
            "Meter".to_string(),
            format!("Before /day ({currency})"),
            format!("After /day ({currency})"),
            format!("Δ ({currency})"),
            "Shape".to_string(),
            "Why".to_string(),
        ];
        let rows: Vec<Vec<String>> = found
            .iter()
            .map(|d| {
                vec![
                    date(d.day),
                    d.meter.0.clone().unwrap_or_else(|| "(account)".to_string()),
                    format!("{} {}", d.meter.1, d.meter.2),
                    day_cell(d, d.before, currency),
                    day_cell(d, d.after, currency),
                    month_cell(d, currency),
                    shape(d.shape).to_string(),
                    why(d, currency),
                ]
            })
            .collect();
        if markdown {
            out.push('\n');
            let refs: Vec<&str> = header.iter().map(String::as_str).collect();
            out.push_str(&super::markdown::table(
                &refs,
                &[false, false, false, true, true, true, false, false],
                &rows,
            ));
            out.push('\n');
        } else {
            let mut b = tabled::builder::Builder::default();
            b.push_record(header);
            for r in rows {
                b.push_record(r);
            }
            let mut t = b.build();
            t.with(tabled::settings::Style::rounded());
            if let Some(layout) = layout {
                layout.fit(&mut t);
            }
            out.push_str(&format!("{t}\n"));
        }
    }
    out.push_str(&rule_text(rule, currency, against));
    out.push('\n');
    out
}

/// The JSON document (`ddbcost.anomalies/v1`).
#[must_use]
pub(crate) fn json(
    daily: &Daily,
    rule: &Rule,
    found: &[Departure],
    against: Option<&str>,
) -> String {
    let currency = daily.currency.as_deref().unwrap_or("");
    let (first, last) = daily.span.unwrap_or_default();
    let doc = json!({
        "schema": "ddbcost.anomalies/v1",
        "currency": currency,
        "first_day": date(first),
        "last_day": date(last),
        "meters": daily.series.len(),
        "rule": {
            "window_days": rule.window,
            "min_change": rule.relative.normalize().to_string(),
            "min_daily": rule.floor.normalize().to_string(),
            "month_days": rule.month_days.normalize().to_string(),
            "baseline": against.map_or_else(|| "trailing".to_string(), |w| format!("workload:{w}")),
            "metrics_series": rule.metrics,
            "text": rule_text(rule, currency, against),
        },
        "left_out": daily.left_out,
        "departures": found.iter().map(|d| {
            let (kind, before, after) = kind(&d.mechanism);
            json!({
                "day": date(d.day),
                "table": d.meter.0,
                "region": d.meter.1,
                "meter": d.meter.2,
                "shape": shape(d.shape),
                "before_per_day": d.before.normalize().to_string(),
                "after_per_day": d.after.normalize().to_string(),
                "per_month": d.per_month.map(|m| m.normalize().to_string()),
                "excess_per_day": d.excess.normalize().to_string(),
                "mechanism": {
                    "kind": kind,
                    "before": before.map(|v| v.normalize().to_string()),
                    "after": after.map(|v| v.normalize().to_string()),
                    "text": why(d, currency),
                },
            })
        }).collect::<Vec<_>>(),
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// A self-contained page: the table, and a chart of each flagged meter's days.
#[must_use]
pub(crate) fn html(
    daily: &Daily,
    rule: &Rule,
    found: &[Departure],
    against: Option<&str>,
) -> String {
    use super::bill::esc;
    let currency = daily.currency.as_deref().unwrap_or("");
    let (first, last) = daily.span.unwrap_or_default();
    let mut body = String::new();
    for d in found {
        let costs: Vec<Decimal> = daily.series.get(&d.meter).map_or_else(Vec::new, |days| {
            (first..=last)
                .map(|day| days.get(&day).map_or(Decimal::ZERO, |x| x.cost))
                .collect()
        });
        let marked = usize::try_from(d.day.saturating_sub(first)).unwrap_or(0);
        // A growth's before is a slope: the chart's line is the level it grew from.
        let line = if d.shape == Shape::Growth {
            marked
                .checked_sub(1)
                .and_then(|i| costs.get(i))
                .copied()
                .unwrap_or_default()
        } else {
            d.before
        };
        let table = d.meter.0.as_deref().unwrap_or("(account)");
        body.push_str(&format!(
            "<section>\n<h2>{} — {} {} {}</h2>\n<p>{} a day before, {} after ({}): {}. {}</p>\n{}\n</section>\n",
            esc(&date(d.day)),
            esc(table),
            esc(&d.meter.1),
            esc(&d.meter.2),
            esc(&day_cell(d, d.before, currency)),
            esc(&day_cell(d, d.after, currency)),
            esc(shape(d.shape)),
            esc(&month_cell(d, currency)),
            esc(&why(d, currency)),
            super::charts::daily(
                &format!("{table} {} — {} a day", d.meter.2, currency),
                &costs,
                marked,
                line,
                currency
            )
        ));
    }
    if found.is_empty() {
        body.push_str("<p>No meter left its baseline.</p>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>ddbcost — anomalies</title>\n<style>body {{ font-family: -apple-system, \"Segoe UI\", Helvetica, Arial, sans-serif; margin: 2rem auto; padding: 0 1rem; max-width: 1100px; color: #222; }} svg {{ max-width: 100%; height: auto; }} .meta {{ color: #555; font-size: 0.9rem; }} h2 {{ font-size: 1.1rem; }}</style>\n</head>\n<body>\n<h1>Anomalies, {} to {}</h1>\n<p>{} meter(s), {} departure(s).</p>\n{body}<p class=\"meta\">{}</p>\n</body>\n</html>\n",
        esc(&date(first)),
        esc(&date(last)),
        daily.series.len(),
        found.len(),
        esc(&rule_text(rule, currency, against)),
    )
}
