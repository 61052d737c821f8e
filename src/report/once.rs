//! What a change costs once, in words: the one-time costs `engine::once` finds (a GSI's
//! backfill, a new table's first load, switches that cost nothing), their total beside the
//! monthly delta, and the months a saving takes to pay them back — for the terminal, the
//! pull request's Markdown and the JSON of `diff` and `compare`.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::money::{display, quantity};
use crate::engine::once::{Change, OneTime};
use crate::scenario::{Comparison, ScenarioResult};

/// The one-time costs added up; `None` when one of them cannot be known.
#[must_use]
pub(crate) fn total(items: &[OneTime]) -> Option<Decimal> {
    items
        .iter()
        .try_fold(Decimal::ZERO, |a, o| a.checked_add(o.cost?))
}

/// The months a monthly saving (`delta` below zero) takes to pay `once` back.
#[must_use]
pub(crate) fn payback_months(once: Decimal, delta: Decimal) -> Option<Decimal> {
    if once <= Decimal::ZERO || delta >= Decimal::ZERO {
        return None;
    }
    once.checked_div(Decimal::ZERO.checked_sub(delta)?)
}

/// The change's name, what is priced, and what else to know.
pub(crate) fn words(o: &OneTime, currency: &str) -> (&'static str, String, String) {
    match &o.change {
        Change::GsiBackfill {
            index,
            rebuilt,
            entries: Some(entries),
            per_entry: Some(per_entry),
            units: Some(units),
            wcu,
            hours,
        } => {
            let how = if *rebuilt {
                "rebuilt (a projection or key cannot change in place: it is deleted and created again)"
            } else {
                "backfilled"
            };
            let what = format!(
                "GSI `{index}` {how}: {} items carrying its key × {} write unit(s) = {} write units",
                quantity(*entries),
                quantity(*per_entry),
                quantity(*units)
            );
            let note = match (wcu, hours) {
                (Some(wcu), Some(hours)) => format!(
                    "at the GSI's {} provisioned WCU it takes {} hours; the cost is those capacity hours (which the month's provisioned line bills too, unless the capacity is raised for the backfill)",
                    quantity(*wcu),
                    quantity(*hours)
                ),
                _ => "on-demand write request units at the table class's price".to_string(),
            };
            ("GSI backfill", what, note)
        }
        Change::GsiBackfill { index, rebuilt, .. } => (
            "GSI backfill",
            format!(
                "GSI `{index}` {}",
                if *rebuilt { "rebuilt" } else { "backfilled" }
            ),
            "the table's items or item size are not stated: state `items:` (or `storage:`) and `item_size:`".to_string(),
        ),
        Change::InitialLoad {
            items,
            per_item,
            units,
            gb,
            by_writes,
            by_import,
        } => {
            let writes = format!(
                "{} items × {} write unit(s) (the table's and its GSIs' entries) = {} write units, {} {currency}",
                quantity(*items),
                quantity(*per_item),
                quantity(*units),
                display(*by_writes, currency)
            );
            match by_import {
                Some(import) if import <= by_writes => (
                    "first load",
                    format!("import from S3 of {} GB", quantity(*gb)),
                    format!(
                        "an import is billed per GB of source data and writes no request units (its GSIs included); written instead: {writes}"
                    ),
                ),
                Some(import) => (
                    "first load",
                    format!("written: {writes}"),
                    format!(
                        "an import from S3 of {} GB would cost {} {currency}",
                        quantity(*gb),
                        display(*import, currency)
                    ),
                ),
                None => (
                    "first load",
                    format!("written: {writes}"),
                    "the price table has no import price".to_string(),
                ),
            }
        }
        Change::ClassSwitch { from, to } => (
            "table class switch",
            format!("{} → {}", from.name(), to.name()),
            "no charge; AWS allows two table class changes in a trailing 30 days".to_string(),
        ),
        Change::ModeSwitch { to_on_demand } => (
            "capacity mode switch",
            if *to_on_demand {
                "provisioned → on-demand".to_string()
            } else {
                "on-demand → provisioned".to_string()
            },
            "no charge; a table goes from provisioned to on-demand at most 4 times in 24 hours".to_string(),
        ),
        Change::Rewrite { .. }
        | Change::Restore { .. }
        | Change::Export { .. }
        | Change::Import { .. }
        | Change::WarmThroughput { .. } => stated(o),
        Change::GsiRemoved { index } => (
            "GSI deleted",
            format!("GSI `{index}`"),
            "no charge; its storage and index writes stop".to_string(),
        ),
    }
}

/// The words of work stated under `once:`.
fn stated(o: &OneTime) -> (&'static str, String, String) {
    match &o.change {
        Change::Rewrite {
            items,
            per_item,
            units,
            indexes,
        } => (
            "rewrite",
            format!(
                "{} items rewritten × {} write unit(s){} = {} write units",
                quantity(*items),
                quantity(*per_item),
                if indexes.is_empty() {
                    String::new()
                } else {
                    format!(" (the item and its entry in {})", indexes.join(", "))
                },
                quantity(*units)
            ),
            "stated under `once.rewrite`: a TTL, attribute or key backfill, at the class's write request price".to_string(),
        ),
        Change::Restore { gb } => (
            "restore",
            format!("{} GB restored", quantity(*gb)),
            "stated under `once.restore`, billed per GB restored".to_string(),
        ),
        Change::Export { gb } => (
            "export",
            format!("{} GB exported to S3", quantity(*gb)),
            "stated under `once.export`, billed per GB of the table exported".to_string(),
        ),
        Change::Import { gb } => (
            "import",
            format!("{} GB imported from S3", quantity(*gb)),
            "stated under `once.import`, billed per GB of uncompressed source; it writes no request units".to_string(),
        ),
        Change::WarmThroughput { reads, writes } => (
            "warm throughput",
            format!(
                "raised to {} read and {} write units a second",
                reads.map_or_else(|| "(unchanged)".to_string(), quantity),
                writes.map_or_else(|| "(unchanged)".to_string(), quantity)
            ),
            if o.cost.is_some() {
                "at the price stated under `once.warm_throughput.price`".to_string()
            } else {
                "a one-time charge with no public price: state `price:` to count it".to_string()
            },
        ),
        _ => ("", String::new(), String::new()),
    }
}

/// The pull request's totals table gains a `One-time` column (the baseline's cell empty)
/// when a scenario costs anything once.
pub(crate) fn column(
    c: &Comparison,
    header: &mut Vec<String>,
    right: &mut Vec<bool>,
    rows: &mut [Vec<String>],
) {
    if c.scenarios.iter().all(|s| s.one_time.is_empty()) {
        return;
    }
    let cur = &c.baseline.currency;
    header.push(format!("One-time ({cur})"));
    right.push(true);
    if let Some(first) = rows.first_mut() {
        first.push(String::new());
    }
    for (r, s) in rows.iter_mut().skip(1).zip(&c.scenarios) {
        r.push(if s.one_time.is_empty() {
            String::new()
        } else {
            total(&s.one_time).map_or_else(|| "unknown".to_string(), |v| display(v, cur))
        });
    }
}

/// The sentence under a scenario's one-time costs: their total, the monthly delta, and the
/// payback where the change saves money.
fn summary(s: &ScenarioResult, currency: &str) -> String {
    let Some(once) = total(&s.one_time) else {
        return format!(
            "{}: what it costs once cannot be known from the workload (see above).",
            s.name
        );
    };
    let mut out = format!(
        "{}: {} {currency} once, {} {currency} a month",
        s.name,
        display(once, currency),
        super::compare::signed(s.step_delta.unwrap_or(s.delta), currency)
    );
    if let Some(months) = payback_months(once, s.step_delta.unwrap_or(s.delta)) {
        out.push_str(&format!(
            "; the saving pays it back in {} month(s)",
            quantity(months)
        ));
    }
    out.push('.');
    out
}

/// Rows (scenario, table, change, what, one-time cost, note) of every scenario.
fn rows(c: &Comparison) -> Vec<[String; 6]> {
    let currency = &c.baseline.currency;
    c.scenarios
        .iter()
        .flat_map(|s| {
            s.one_time.iter().map(move |o| {
                let (change, what, note) = words(o, currency);
                [
                    s.name.clone(),
                    o.table.clone(),
                    change.to_string(),
                    what,
                    o.cost
                        .map_or_else(|| "unknown".to_string(), |v| display(v, currency)),
                    note,
                ]
            })
        })
        .collect()
}

/// The section of the terminal (`layout`: its width) or Markdown (`None`) view; empty when
/// no scenario costs anything once.
#[must_use]
pub(crate) fn section(c: &Comparison, layout: Option<super::layout::Layout>) -> String {
    let rows = rows(c);
    if rows.is_empty() {
        return String::new();
    }
    let currency = &c.baseline.currency;
    let header = [
        "Scenario".to_string(),
        "Table".to_string(),
        "Change".to_string(),
        "What".to_string(),
        format!("One-time ({currency})"),
        "Note".to_string(),
    ];
    let mut out = String::new();
    if let Some(layout) = layout {
        let mut b = tabled::builder::Builder::default();
        b.push_record(header);
        for r in rows {
            b.push_record(r);
        }
        let mut t = b.build();
        t.with(tabled::settings::Style::rounded());
        layout.fit(&mut t);
        out.push_str(&format!("One-time costs\n{t}\n"));
    } else {
        let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
        let body: Vec<Vec<String>> = rows.into_iter().map(Vec::from).collect();
        out.push_str("\n### One-time costs\n\n");
        out.push_str(&super::markdown::table(
            &header_refs,
            &[false, false, false, false, true, false],
            &body,
        ));
        out.push('\n');
    }
    for s in c.scenarios.iter().filter(|s| !s.one_time.is_empty()) {
        out.push_str(&summary(s, currency));
        out.push('\n');
    }
    out
}

/// One one-time cost in the JSON of `diff` and `compare`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct OneTimeDoc {
    pub table: String,
    pub change: String,
    pub what: String,
    /// `null` where it cannot be known from the workload.
    pub cost: Option<Decimal>,
    /// How long it takes, where a rate bounds it (a provisioned GSI's backfill).
    pub hours: Option<Decimal>,
    pub note: String,
}

/// The JSON of a scenario's one-time costs: each, their total (`null`: one is unknown), and
/// the months a saving pays them back in.
#[must_use]
pub(crate) fn docs(
    s: &ScenarioResult,
    currency: &str,
) -> (Vec<OneTimeDoc>, Option<Decimal>, Option<Decimal>) {
    let items = s
        .one_time
        .iter()
        .map(|o| {
            let (change, what, note) = words(o, currency);
            let hours = match &o.change {
                Change::GsiBackfill { hours, .. } => hours.map(|h| h.normalize()),
                _ => None,
            };
            OneTimeDoc {
                table: o.table.clone(),
                change: change.to_string(),
                what,
                cost: o.cost.map(|v| v.normalize()),
                hours,
                note,
            }
        })
        .collect();
    let once = total(&s.one_time);
    let payback = once
        .and_then(|o| payback_months(o, s.step_delta.unwrap_or(s.delta)))
        .map(|m| m.normalize());
    (items, once.map(|o| o.normalize()), payback)
}
