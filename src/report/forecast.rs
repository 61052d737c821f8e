//! A forecast rendered: the months side by side (table, Markdown), the `ddbcost.forecast/v1`
//! JSON document, and the finance CSV and FOCUS with one billing period per month (each
//! month's rows exactly as `estimate` exports that month, so a column sum reconciles).

use std::collections::BTreeSet;

use rust_decimal::Decimal;
use serde::Serialize;
use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Style};

use super::layout::Layout;
use super::money;
use crate::engine::{Component, Forecast};
use crate::model::period::Period;

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
pub(crate) fn table(f: &Forecast, workload: &str, layout: Layout) -> String {
    let (header, rows) = rows(f);
    let mut b = Builder::default();
    b.push_record(header.clone());
    for r in rows {
        b.push_record(r);
    }
    let mut t = b.build();
    t.with(Style::rounded());
    t.modify(Columns::new(1..header.len()), Alignment::right());
    layout.fit(&mut t);
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
pub(crate) fn markdown(f: &Forecast, workload: &str) -> String {
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
    /// With `--advise` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    commitment_options: Option<AdviceDoc>,
}

#[must_use]
pub(crate) fn json(
    f: &Forecast,
    workload: &str,
    advice: Option<&crate::engine::CommitmentAdvice>,
) -> String {
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
                warnings: super::notices::texts(&m.estimate.warnings),
            })
            .collect(),
        total: f.total.normalize(),
        total_rounded: money::round(f.total, &cur),
        commitment_options: advice.map(advice_doc),
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

const TEMPLATE: &str = include_str!("forecast.html");

/// A self-contained HTML report: the months as a stacked chart of components and as a table.
pub(crate) fn html(f: &Forecast, workload: &str) -> Result<String, crate::error::Error> {
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
    env.add_template("forecast.html", TEMPLATE)
        .map_err(|e| super::page_error(&e))?;
    let template = env
        .get_template("forecast.html")
        .map_err(|e| super::page_error(&e))?;
    template
        .render(context! {
            title => format!("ddbcost forecast: {workload}"),
            months_count => f.months.len(),
            first => periods.first().cloned().unwrap_or_default(),
            total => format!("{} {}", money::symbol(&cur), money::display(f.total, &cur)),
            meta => meta.join(" "),
            chart => Value::from_safe_string(chart),
            parts => html_parts(&header, &rows),
            warnings => warnings.iter().map(|w| super::html::plain(w.trim_start_matches("warning: "))).collect::<Vec<_>>(),
            rounding => money::policy(&cur),
        })
        .map_err(|e| super::page_error(&e))
}

/// Data columns (components, the total) in one HTML table: a forecast of every component
/// is split into tables of at most this many beside the month, so each fits a 1,200-pixel
/// page instead of pushing the total off-screen.
const HTML_COLUMNS: usize = 8;

/// The month × component table as parts of `HTML_COLUMNS` data columns each, every part
/// led by the month column; the last holds the total.
fn html_parts(header: &[String], rows: &[Vec<String>]) -> Vec<(Vec<String>, Vec<Vec<String>>)> {
    let data = header.len().saturating_sub(1);
    let count = data.div_ceil(HTML_COLUMNS).max(1);
    // As even as possible: 16 columns are two of 8, 10 are 5 and 5.
    let width = data.div_ceil(count).max(1);
    (0..count)
        .map(|p| {
            let from = p.saturating_mul(width).saturating_add(1);
            let to = from.saturating_add(width).min(header.len());
            let pick = |r: &[String]| {
                let mut out = vec![r.first().cloned().unwrap_or_default()];
                out.extend(r.get(from..to).unwrap_or_default().iter().cloned());
                out
            };
            (pick(header), rows.iter().map(|r| pick(r)).collect())
        })
        .collect()
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
pub(crate) fn finance(
    f: &Forecast,
    excel: bool,
) -> Result<(String, Vec<String>), crate::error::Error> {
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
///
/// # Errors
/// A commitment's amortized share too large to compute.
pub(crate) fn focus(f: &Forecast) -> Result<(String, usize), crate::engine::EngineError> {
    let mut parts = Vec::new();
    let mut skipped = 0usize;
    for m in &f.months {
        let (text, s) = super::focus::render(&[("forecast", &m.estimate)], period(m.period))?;
        parts.push(text);
        skipped = skipped.saturating_add(s);
    }
    Ok((join(parts), skipped))
}

/// A commitment option's commitments in words: `100 WCU us-east-1 1y; plan 0.08/h`.
fn commitments(o: &crate::engine::CommitmentOption) -> String {
    let mut parts: Vec<String> = o
        .reservations
        .iter()
        .map(|r| {
            format!(
                "{} {} {}{}",
                r.blocks.saturating_mul(Decimal::ONE_HUNDRED).normalize(),
                r.kind.name().to_uppercase(),
                r.region.as_deref().unwrap_or("(primary region)"),
                format_args!(" {}", crate::model::term_code(r.term))
            )
        })
        .collect();
    if let Some(h) = o.per_hour {
        parts.push(format!("plan {}/h", h.normalize()));
    }
    if parts.is_empty() {
        "—".to_string()
    } else {
        parts.join("; ")
    }
}

/// The options as rows: name, commitments, totals and savings against no commitments, at
/// the forecast's traffic and 30 % lower, and the fees left unused at 30 % lower.
fn advice_rows(
    a: &crate::engine::CommitmentAdvice,
    cur: &str,
    months: usize,
) -> (Vec<String>, Vec<Vec<String>>) {
    let header = vec![
        "Option".to_string(),
        "Commitments".to_string(),
        format!("Total, {months} months ({cur})"),
        "Saves".to_string(),
        "Unused".to_string(),
        "Total at −30 % traffic".to_string(),
        "Saves at −30 %".to_string(),
        "Unused at −30 %".to_string(),
    ];
    let none = a.options.first();
    let best = a.options.iter().map(|o| o.total).min();
    let rows = a
        .options
        .iter()
        .map(|o| {
            let saves = |x: Decimal, base: Option<Decimal>| {
                base.map_or_else(String::new, |b| money::display(b.saturating_sub(x), cur))
            };
            let mark = if Some(o.total) == best { " ★" } else { "" };
            vec![
                format!("{}{mark}", o.name),
                commitments(o),
                money::display(o.total, cur),
                saves(o.total, none.map(|n| n.total)),
                money::display(o.unused, cur),
                money::display(o.total_lower, cur),
                saves(o.total_lower, none.map(|n| n.total_lower)),
                money::display(o.unused_lower, cur),
            ]
        })
        .collect();
    (header, rows)
}

fn advice_footer(a: &crate::engine::CommitmentAdvice) -> String {
    let mut out = String::from(
        "★ lowest total at the forecast's traffic. Each option is priced by the same forecast; blocks of 100 units and plan commitments in steps of 0.001/h minimize the horizon's total; a 1-year commitment over a longer horizon is taken as renewed at the same size. −30 % traffic: every rate × 0.7 with the same commitments (provisioned capacity as stated); unused = commitment fees not consumed (at the forecast's traffic, and at −30 %).\n",
    );
    for n in &a.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out
}

/// The advice as a terminal table.
#[must_use]
pub(crate) fn advice_table(
    a: &crate::engine::CommitmentAdvice,
    cur: &str,
    months: usize,
    layout: Layout,
) -> String {
    let (header, rows) = advice_rows(a, cur, months);
    let mut b = Builder::default();
    b.push_record(header.clone());
    for r in rows {
        b.push_record(r);
    }
    let mut t = b.build();
    t.with(Style::rounded());
    t.modify(Columns::new(2..header.len()), Alignment::right());
    layout.fit(&mut t);
    format!("\nCommitment options\n{t}\n{}", advice_footer(a))
}

/// The advice as a Markdown section.
#[must_use]
pub(crate) fn advice_markdown(
    a: &crate::engine::CommitmentAdvice,
    cur: &str,
    months: usize,
) -> String {
    let (header, rows) = advice_rows(a, cur, months);
    let refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let right: Vec<bool> = (0..header.len()).map(|i| i > 1).collect();
    format!(
        "\n### Commitment options\n\n{}\n_{}_\n",
        super::markdown::table(&refs, &right, &rows),
        advice_footer(a).trim_end().replace('\n', " ")
    )
}

/// One option in JSON (amounts exact).
#[derive(Serialize)]
pub(crate) struct OptionDoc {
    name: String,
    reservations: Vec<ReservationDoc>,
    savings_plan_per_hour: Option<Decimal>,
    total: Decimal,
    /// Commitment fees not consumed at the forecast's traffic.
    unused: Decimal,
    total_lower_traffic: Decimal,
    unused_lower_traffic: Decimal,
}

#[derive(Serialize)]
pub(crate) struct ReservationDoc {
    region: Option<String>,
    capacity: &'static str,
    units: Decimal,
    term: &'static str,
}

#[derive(Serialize)]
pub(crate) struct AdviceDoc {
    lower_traffic_factor: Decimal,
    options: Vec<OptionDoc>,
    notes: Vec<String>,
}

#[must_use]
pub(crate) fn advice_doc(a: &crate::engine::CommitmentAdvice) -> AdviceDoc {
    AdviceDoc {
        lower_traffic_factor: crate::engine::LOWER_TRAFFIC,
        options: a
            .options
            .iter()
            .map(|o| OptionDoc {
                name: o.name.clone(),
                reservations: o
                    .reservations
                    .iter()
                    .map(|r| ReservationDoc {
                        region: r.region.clone(),
                        capacity: r.kind.name(),
                        units: r.blocks.saturating_mul(Decimal::ONE_HUNDRED).normalize(),
                        term: crate::model::term_code(r.term),
                    })
                    .collect(),
                savings_plan_per_hour: o.per_hour.map(|h| h.normalize()),
                total: o.total.normalize(),
                unused: o.unused.normalize(),
                total_lower_traffic: o.total_lower.normalize(),
                unused_lower_traffic: o.unused_lower.normalize(),
            })
            .collect(),
        notes: a.notes.clone(),
    }
}
