//! A forecast rendered: the months side by side (table, Markdown), the `ddbcost.forecast/v1`
//! JSON document, and the finance CSV and FOCUS with one billing period per month (each
//! month's rows exactly as `estimate` exports that month, so a column sum reconciles).

use std::collections::BTreeSet;

use rust_decimal::Decimal;
use serde::Serialize;
use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Style};

use super::money;
use super::period::Period;
use crate::engine::{Component, Forecast};

fn label(p: (i64, u32)) -> String {
    format!("{:04}-{:02}", p.0, p.1)
}

fn period(p: (i64, u32)) -> Period {
    Period {
        year: i32::try_from(p.0).unwrap_or(1970),
        month: p.1,
    }
}

/// Components present in any month, in their order.
fn components(f: &Forecast) -> Vec<Component> {
    let set: BTreeSet<Component> = f
        .months
        .iter()
        .flat_map(|m| m.estimate.component_costs().into_iter().map(|(c, _)| c))
        .collect();
    set.into_iter().collect()
}

fn rows(f: &Forecast) -> (Vec<String>, Vec<Vec<String>>) {
    let cur = f
        .months
        .first()
        .map_or("USD", |m| m.estimate.currency.as_str())
        .to_string();
    let comps = components(f);
    let mut header = vec!["Month".to_string()];
    header.extend(comps.iter().map(|c| c.name().to_string()));
    header.push(format!("Total ({cur})"));
    let mut rows = Vec::new();
    for m in &f.months {
        let costs = m.estimate.component_costs();
        let mut row = vec![label(m.period)];
        for c in &comps {
            let v = costs
                .iter()
                .find(|(x, _)| x == c)
                .map_or(Decimal::ZERO, |(_, v)| *v);
            row.push(money::display(v, &cur));
        }
        row.push(money::display(m.estimate.total, &cur));
        rows.push(row);
    }
    let mut last = vec!["TOTAL".to_string()];
    last.extend(comps.iter().map(|_| String::new()));
    last.push(format!(
        "{} {}",
        money::symbol(&cur),
        money::display(f.total, &cur)
    ));
    rows.push(last);
    (header, rows)
}

fn footer(f: &Forecast) -> String {
    let Some(first) = f.months.first() else {
        return String::new();
    };
    let e = &first.estimate;
    let mut out = format!(
        "Prices: {} ({}, {}), effective {}. Settings: {}-hour month; GB = {}; free tier {}.\nStorage: each month billed on its average stored items (flows spread evenly through the month).\nRounding: {}.\n",
        e.price_table.id,
        e.price_table.region,
        e.price_table.currency,
        e.price_table.effective,
        e.settings.month_hours.normalize(),
        e.settings.gb.name(),
        if e.settings.free_tier {
            "applied"
        } else {
            "off"
        },
        money::policy(&e.currency)
    );
    if let Some(fx) = super::fx_statement(e) {
        out.push_str(&format!("{fx}.\n"));
    }
    let mut seen = Vec::new();
    for m in &f.months {
        for w in &m.estimate.warnings {
            if !seen.contains(w) {
                seen.push(w.clone());
                out.push_str(&format!("warning: {w}\n"));
            }
        }
    }
    out
}

#[must_use]
pub fn table(f: &Forecast, workload: &str) -> String {
    let (header, rows) = rows(f);
    let mut b = Builder::default();
    b.push_record(header.clone());
    for r in rows {
        b.push_record(r);
    }
    let mut t = b.build();
    t.with(Style::rounded());
    t.modify(Columns::new(1..header.len()), Alignment::right());
    format!(
        "ddbcost forecast: {workload} — {} month(s) from {}\n{t}\n{}",
        f.months.len(),
        f.months
            .first()
            .map(|m| label(m.period))
            .unwrap_or_default(),
        footer(f)
    )
}

#[must_use]
pub fn markdown(f: &Forecast, workload: &str) -> String {
    let (header, rows) = rows(f);
    let refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let right: Vec<bool> = (0..header.len()).map(|i| i > 0).collect();
    format!(
        "## ddbcost forecast: {}\n\n{}\n_{}_\n",
        super::markdown::cell(workload),
        super::markdown::table(&refs, &right, &rows),
        footer(f).trim_end().replace('\n', " ")
    )
}

#[derive(Serialize)]
struct MonthDoc {
    period: String,
    total: Decimal,
    total_rounded: Decimal,
    line_items: Vec<super::json::LineItemDoc>,
    warnings: Vec<String>,
}

#[derive(Serialize)]
struct ForecastDoc {
    schema: &'static str,
    workload: String,
    currency: String,
    rounding: String,
    months: Vec<MonthDoc>,
    total: Decimal,
    total_rounded: Decimal,
}

#[must_use]
pub fn json(f: &Forecast, workload: &str) -> String {
    let cur = f
        .months
        .first()
        .map_or("USD", |m| m.estimate.currency.as_str())
        .to_string();
    let doc = ForecastDoc {
        schema: "ddbcost.forecast/v1",
        workload: workload.to_string(),
        currency: cur.clone(),
        rounding: money::policy(&cur),
        months: f
            .months
            .iter()
            .map(|m| MonthDoc {
                period: label(m.period),
                total: m.estimate.total.normalize(),
                total_rounded: money::round(m.estimate.total, &cur),
                line_items: super::json::line_item_docs(&m.estimate),
                warnings: m.estimate.warnings.clone(),
            })
            .collect(),
        total: f.total.normalize(),
        total_rounded: money::round(f.total, &cur),
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

const TEMPLATE: &str = include_str!("forecast.html");

/// A self-contained HTML report: the months as a stacked chart of components and as a table.
#[must_use]
pub fn html(f: &Forecast, workload: &str) -> String {
    use minijinja::{Environment, Value, context};
    let cur = f
        .months
        .first()
        .map_or("USD", |m| m.estimate.currency.as_str())
        .to_string();
    let (header, rows) = rows(f);
    let comps = components(f);
    let periods: Vec<String> = f.months.iter().map(|m| label(m.period)).collect();
    let series: Vec<(String, Vec<Decimal>)> = comps
        .iter()
        .map(|c| {
            let values = f
                .months
                .iter()
                .map(|m| {
                    m.estimate
                        .component_costs()
                        .iter()
                        .find(|(x, _)| x == c)
                        .map_or(Decimal::ZERO, |(_, v)| *v)
                })
                .collect();
            (c.name().to_string(), values)
        })
        .collect();
    let totals: Vec<Decimal> = f.months.iter().map(|m| m.estimate.total).collect();
    let chart = super::charts::stacked(
        &format!("Cost by component and month ({cur})"),
        &periods,
        &series,
        &totals,
        &cur,
    );
    let footer = footer(f);
    let (meta, warnings): (Vec<&str>, Vec<&str>) =
        footer.lines().partition(|l| !l.starts_with("warning: "));
    let mut env = Environment::new();
    if env.add_template("forecast.html", TEMPLATE).is_err() {
        return String::new();
    }
    let Ok(template) = env.get_template("forecast.html") else {
        return String::new();
    };
    template
        .render(context! {
            title => format!("ddbcost forecast: {workload}"),
            months_count => f.months.len(),
            first => periods.first().cloned().unwrap_or_default(),
            total => format!("{} {}", money::symbol(&cur), money::display(f.total, &cur)),
            meta => meta.join(" "),
            chart => Value::from_safe_string(chart),
            header,
            rows,
            warnings => warnings.iter().map(|w| w.trim_start_matches("warning: ").to_string()).collect::<Vec<_>>(),
            rounding => money::policy(&cur),
        })
        .unwrap_or_default()
}

/// Joins per-month CSV documents that share a header.
fn join(parts: Vec<String>) -> String {
    let mut out = String::new();
    for (i, p) in parts.into_iter().enumerate() {
        if i == 0 {
            out.push_str(&p);
        } else {
            // Skip the header line of each later month.
            out.push_str(p.split_once('\n').map_or("", |(_, rest)| rest));
        }
    }
    out
}

/// The finance CSV, one billing period per month, and the rounding warnings.
///
/// # Errors
/// A comparison that cannot be built (it cannot: one estimate per month).
pub fn finance(f: &Forecast, excel: bool) -> Result<(String, Vec<String>), crate::error::Error> {
    let mut parts = Vec::new();
    let mut warnings = Vec::new();
    for m in &f.months {
        let c = crate::scenario::compare(m.estimate.clone(), Vec::new())?;
        // With `--excel` each part starts with a byte-order mark and its header: `join` keeps
        // the first part's and drops the later headers (and their marks) whole.
        let (text, w) = super::finance::render(&c, period(m.period), excel);
        parts.push(text);
        warnings.extend(w.into_iter().map(|w| format!("{}: {w}", label(m.period))));
    }
    Ok((join(parts), warnings))
}

/// FOCUS rows, one billing period per month, and the lines left out (unknown usage).
#[must_use]
pub fn focus(f: &Forecast) -> (String, usize) {
    let mut parts = Vec::new();
    let mut skipped = 0usize;
    for m in &f.months {
        let (text, s) = super::focus::render(&[("forecast", &m.estimate)], period(m.period));
        parts.push(text);
        skipped = skipped.saturating_add(s);
    }
    (join(parts), skipped)
}
