//! Rendering `ddbcost keys`: per key attribute, the spread figures (busiest 1, 10 and 100
//! values' shares of items, bytes, reads and writes; the fewest values holding 80 %), the
//! check at the peak, the largest item collection, the busiest values by name, the verdict
//! with its reasons, what write sharding costs, and the `keys:` line for a workload. The same
//! view feeds the table, Markdown and HTML; the JSON adds every value's counts (the summary
//! `--merge` reads back). Shares are shown rounded to 0.01 %, units a second to 0.01.

use std::io::Write;

use minijinja::{Environment, context};
use rust_decimal::Decimal;
use serde::Serialize;

use super::layout::Layout;
use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Style};

use super::{charts, markdown, money};
use crate::keys::dax::DaxCost;
use crate::keys::sharding::ShardingCost;
use crate::keys::spread::{Measure, TOPS, share};
use crate::keys::summary::{KeysSummary, SCHEMA, Values};
use crate::keys::verdict::AttributeReport;

/// What is rendered.
pub struct Page<'a> {
    pub summary: &'a KeysSummary,
    pub reports: &'a [AttributeReport],
    /// Per report, the bill before and after write sharding (keys hot on writes, with a
    /// workload).
    pub sharding: &'a [Option<ShardingCost>],
    /// Per report, what a DAX cluster would do (keys hot on reads, with a workload whose
    /// price table states DAX nodes).
    pub dax: &'a [Option<DaxCost>],
}

const FIGURE_HEADER: [&str; 5] = ["", "Items", "Bytes", "Read units", "Write units"];
const BUSIEST_HEADER: [&str; 5] = ["Value", "Items", "Bytes", "Read units", "Write units"];

/// A share, to 0.01 %.
fn pct(x: Option<Decimal>) -> String {
    x.map_or_else(
        || "—".to_string(),
        |x| {
            format!(
                "{}%",
                x.checked_mul(Decimal::ONE_HUNDRED)
                    .unwrap_or_default()
                    .round_dp(2)
                    .normalize()
            )
        },
    )
}

fn n(x: u64) -> String {
    money::quantity(Decimal::from(x))
}

/// Halves as units.
fn units(halves: u64) -> Decimal {
    Decimal::from(halves)
        .checked_div(Decimal::TWO)
        .unwrap_or_default()
        .normalize()
}

fn per_second(x: Decimal) -> String {
    money::quantity(x.round_dp(2))
}

/// One attribute, ready for any format.
struct View {
    title: String,
    verdict: &'static str,
    figures: Vec<Vec<String>>,
    facts: Vec<String>,
    busiest: Vec<Vec<String>>,
    reasons: Vec<String>,
    notes: Vec<String>,
}

fn view(r: &AttributeReport, sharding: Option<&ShardingCost>, dax: Option<&DaxCost>) -> View {
    let s = &r.spread;
    let figures = figures(r);
    let facts = facts(r, sharding, dax);
    let busiest = s
        .busiest
        .iter()
        .map(|b| {
            vec![
                // A key value is the data's: on one line, control characters escaped.
                crate::text::one_line(&b.value).into_owned(),
                n(b.counts.items),
                n(b.counts.bytes),
                money::quantity(units(b.counts.read_halves)),
                money::quantity(units(b.counts.write_halves)),
            ]
        })
        .collect();
    View {
        title: r.label.clone(),
        verdict: r.verdict.name(),
        figures,
        facts,
        busiest,
        reasons: r.reasons.clone(),
        notes: r.notes.clone(),
    }
}

/// The figures grid: totals, the busiest values' shares, and how many values hold 80 %.
fn figures(r: &AttributeReport) -> Vec<Vec<String>> {
    let s = &r.spread;
    let measure = |m: Measure| s.measure(m);
    let total = |m: Measure| {
        let t = measure(m).total;
        match m {
            Measure::Reads | Measure::Writes => money::quantity(units(t)),
            _ => n(t),
        }
    };
    let mut figures = vec![
        std::iter::once("Total".to_string())
            .chain(Measure::ALL.iter().map(|m| total(*m)))
            .collect::<Vec<_>>(),
    ];
    for (i, top) in TOPS.iter().enumerate() {
        let label = if *top == 1 {
            "Busiest value".to_string()
        } else {
            format!("Busiest {top}")
        };
        figures.push(
            std::iter::once(label)
                .chain(Measure::ALL.iter().map(|m| pct(measure(*m).top_share(i))))
                .collect(),
        );
    }
    figures.push(
        std::iter::once("Values holding 80 %".to_string())
            .chain(Measure::ALL.iter().map(|m| {
                let k = measure(*m).keys_for_80;
                if measure(*m).total == 0 {
                    "—".to_string()
                } else {
                    format!("{} ({})", n(k), pct(share(k, s.distinct)))
                }
            }))
            .collect(),
    );
    figures
}

/// What is known of the key besides its figures: distinct values, the peak against a
/// partition's limits, the largest item collection, and what sharding would cost.
fn facts(
    r: &AttributeReport,
    sharding: Option<&ShardingCost>,
    dax: Option<&DaxCost>,
) -> Vec<String> {
    let s = &r.spread;
    let mut facts = vec![format!(
        "Distinct values: {}{}",
        n(s.distinct),
        if r.items_without > 0 {
            format!(
                "; items without this key: {}{}",
                n(r.items_without),
                if r.index.is_some() {
                    " (not in the index)"
                } else {
                    ""
                }
            )
        } else {
            String::new()
        }
    )];
    if let Some(p) = &r.peak {
        let a = &r.assessment;
        facts.push(format!(
            "Peak ({}): {} RCU/s and {} WCU/s; the busiest value takes {} RCU/s and {} WCU/s of a partition's 3,000 and 1,000; the peak needs at least {} partition(s) (an estimate: AWS does not publish partition counts)",
            p.from,
            per_second(p.reads),
            per_second(p.writes),
            per_second(a.busiest_rcu),
            per_second(a.busiest_wcu),
            a.needed_partitions.normalize()
        ));
    }
    if let Some(c) = &r.collection {
        facts.push(format!(
            "Largest item collection: `{}`, {} B with its LSI entries ({} of 10 GB)",
            c.value,
            n(c.bytes),
            pct(Some(c.share))
        ));
    }
    if let Some(c) = sharding {
        let patterns = if c.patterns.is_empty() {
            "no pattern reads this key, so nothing else changes".to_string()
        } else {
            format!(
                "the reads of {} become {} requests each (every value gets the suffixes: a reader cannot know which values are hot)",
                c.patterns
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                c.suffixes.normalize()
            )
        };
        let delta = c.delta();
        facts.push(format!(
            "Write sharding with {} suffixes: {patterns}; the monthly bill goes from {} to {} {} ({}{}), priced with the engine",
            c.suffixes.normalize(),
            money::display(c.before, &c.currency),
            money::display(c.after, &c.currency),
            c.currency,
            if delta.is_sign_negative() { "" } else { "+" },
            money::display(delta, &c.currency)
        ));
    }
    if let (Some(n), None) = (r.assessment.suffixes, sharding) {
        facts.push(format!(
            "Write sharding with {} suffixes makes every read of the key {} requests; give --workload W.yaml --table T to price it with the engine",
            n.normalize(),
            n.normalize()
        ));
    }
    if let Some(d) = dax {
        facts.push(dax_fact(d));
    }
    if let Some(k) = &r.workload_keys {
        facts.push(format!("In a workload: {k}"));
    }
    facts
}

/// What a DAX cluster would do for a key hot on reads, in words.
fn dax_fact(d: &DaxCost) -> String {
    let delta = d.delta();
    format!(
        "DAX ({} × {}) serving the busiest value's {} of the eventual reads from its cache: the monthly bill goes from {} to {} {} ({}{}; the cluster {}), priced with the engine; {}",
        d.nodes.normalize(),
        d.node_type,
        pct(Some(d.hits)),
        money::display(d.before, &d.currency),
        money::display(d.after, &d.currency),
        d.currency,
        if delta.is_sign_negative() { "" } else { "+" },
        money::display(delta, &d.currency),
        money::display(d.cluster, &d.currency),
        match d.break_even {
            Some(h) if h <= Decimal::ONE => {
                format!(
                    "it pays for itself from {} of eventual reads served from cache",
                    pct(Some(h))
                )
            }
            _ => "it cannot pay for itself: its cache cannot save what it costs".to_string(),
        }
    )
}

fn heading(summary: &KeysSummary) -> String {
    let mut parts = vec![format!(
        "{} item(s) in {} file(s)",
        n(summary.items),
        n(summary.files)
    )];
    if summary.bad > 0 || summary.oversized > 0 {
        parts.push(format!(
            "{} malformed, {} over 400 KB (not counted)",
            n(summary.bad),
            n(summary.oversized)
        ));
    }
    parts.push(format!("{} log line(s)", n(summary.log_lines)));
    format!("Key spread: {}", parts.join(", "))
}

const CLOSING: &str = "Shares are exact ratios of counts, shown rounded to 0.01 %; units a second to 0.01. A partition serves about 3,000 read and 1,000 write units a second and holds about 10 GB; a table with local secondary indexes holds at most 10 GB per partition-key value (DynamoDB developer guide). Verdicts: hot = the busiest value needs more than a partition serves (or its item collection is over 10 GB); at risk = fewer values than partitions the peak needs, one value with at least 25 % of reads or writes, or a collection at half the limit; else well spread.";

fn grid(header: &[&str], rows: &[Vec<String>], layout: Layout) -> String {
    let mut b = Builder::default();
    b.push_record(header.iter().map(std::string::ToString::to_string));
    for r in rows {
        b.push_record(r.clone());
    }
    let mut t = b.build();
    t.with(Style::rounded())
        .modify(Columns::new(1..), Alignment::right());
    layout.fit(&mut t);
    t.to_string()
}

/// The terminal table.
#[must_use]
pub(crate) fn table(page: &Page, layout: Layout) -> String {
    let mut out = format!("{}\n", heading(page.summary));
    for ((r, sharding), dax) in page.reports.iter().zip(page.sharding).zip(page.dax) {
        let v = view(r, sharding.as_ref(), dax.as_ref());
        out.push_str(&format!("\n{}: {}\n", v.title, v.verdict));
        out.push_str(&grid(&FIGURE_HEADER, &v.figures, layout));
        out.push('\n');
        for f in &v.facts {
            out.push_str(&format!("{f}\n"));
        }
        if !v.busiest.is_empty() {
            out.push_str("Busiest values:\n");
            out.push_str(&grid(&BUSIEST_HEADER, &v.busiest, layout));
            out.push('\n');
        }
        for reason in &v.reasons {
            out.push_str(&format!("- {reason}\n"));
        }
        for note in &v.notes {
            out.push_str(&format!("Note: {note}\n"));
        }
    }
    out.push_str(&format!("\n{CLOSING}\n"));
    out
}

/// Markdown, for a pull request or a wiki.
#[must_use]
pub(crate) fn markdown(page: &Page) -> String {
    let mut out = format!("## {}\n", markdown::cell(&heading(page.summary)));
    let right = [false, true, true, true, true];
    for ((r, sharding), dax) in page.reports.iter().zip(page.sharding).zip(page.dax) {
        let v = view(r, sharding.as_ref(), dax.as_ref());
        out.push_str(&format!(
            "\n### {}: {}\n\n",
            markdown::cell(&v.title),
            v.verdict
        ));
        out.push_str(&markdown::table(&FIGURE_HEADER, &right, &v.figures));
        out.push('\n');
        for f in &v.facts {
            out.push_str(&format!("- {}\n", markdown::cell(f)));
        }
        if !v.busiest.is_empty() {
            out.push_str("\nBusiest values:\n\n");
            out.push_str(&markdown::table(&BUSIEST_HEADER, &right, &v.busiest));
        }
        if !v.reasons.is_empty() {
            out.push('\n');
        }
        for reason in &v.reasons {
            out.push_str(&format!("- **{}**\n", markdown::cell(reason)));
        }
        for note in &v.notes {
            out.push_str(&format!("\n_Note: {}_\n", markdown::cell(note)));
        }
    }
    out.push_str(&format!("\n_{}_\n", markdown::cell(CLOSING)));
    out
}

#[derive(Serialize)]
struct Doc<'a> {
    schema: &'a str,
    files: u64,
    input_bytes: u64,
    items: u64,
    malformed_items: u64,
    oversized_items: u64,
    log_lines: u64,
    has_lsi: bool,
    examples: &'a [String],
    attributes: Vec<AttributeDoc<'a>>,
}

#[derive(Serialize)]
struct AttributeDoc<'a> {
    attribute: &'a str,
    index: Option<&'a str>,
    role: crate::keys::summary::KeyRole,
    label: &'a str,
    items_without_key: u64,
    #[serde(flatten)]
    report: serde_json::Value,
    /// `[value, items, bytes, lsi_bytes, read_halves, write_halves]` per value.
    values: Values<'a>,
}

fn report_json(
    r: &AttributeReport,
    sharding: Option<&ShardingCost>,
    dax: Option<&DaxCost>,
) -> serde_json::Value {
    let s = &r.spread;
    let measures: serde_json::Map<String, serde_json::Value> = Measure::ALL
        .iter()
        .map(|m| {
            let x = s.measure(*m);
            let scale = |v: u64| match m {
                Measure::Reads | Measure::Writes => units(v),
                _ => Decimal::from(v),
            };
            (
                m.name().to_string(),
                serde_json::json!({
                    "total": scale(x.total),
                    "top_1": scale(x.top[0]), "top_10": scale(x.top[1]), "top_100": scale(x.top[2]),
                    "top_1_share": x.top_share(0), "top_10_share": x.top_share(1), "top_100_share": x.top_share(2),
                    "values_holding_80_percent": x.keys_for_80,
                    "values_holding_80_percent_share": (x.total > 0).then(|| share(x.keys_for_80, s.distinct)).flatten(),
                }),
            )
        })
        .collect();
    let busiest: Vec<serde_json::Value> = s
        .busiest
        .iter()
        .map(|b| {
            serde_json::json!({
                "value": b.value, "items": b.counts.items, "bytes": b.counts.bytes,
                "lsi_bytes": b.counts.lsi_bytes,
                "read_units": units(b.counts.read_halves), "write_units": units(b.counts.write_halves),
            })
        })
        .collect();
    let a = &r.assessment;
    serde_json::json!({
        "distinct": s.distinct,
        "traffic_counted": s.has_traffic,
        "measures": measures,
        "busiest": busiest,
        "curve": s.curve,
        "peak": r.peak.as_ref().map(|p| serde_json::json!({"read_units_per_second": p.reads, "write_units_per_second": p.writes, "from": p.from})),
        "busiest_read_units_per_second": r.peak.as_ref().map(|_| a.busiest_rcu),
        "busiest_write_units_per_second": r.peak.as_ref().map(|_| a.busiest_wcu),
        "partitions_needed": r.peak.as_ref().map(|_| a.needed_partitions),
        "low_cardinality": a.low_cardinality,
        "suffixes": a.suffixes,
        "collection": r.collection.as_ref().map(|c| serde_json::json!({"value": c.value, "bytes": c.bytes, "share_of_limit": c.share})),
        "verdict": r.verdict.name(),
        "reasons": r.reasons,
        "notes": r.notes,
        "workload_keys": r.workload_keys,
        "sharding": sharding.map(|c| serde_json::json!({
            "suffixes": c.suffixes, "patterns": c.patterns, "currency": c.currency,
            "monthly_before": c.before, "monthly_after": c.after, "monthly_delta": c.delta(),
        })),
        "dax": dax.map(|d| serde_json::json!({
            "node_type": d.node_type, "nodes": d.nodes, "hits": d.hits, "currency": d.currency,
            "monthly_cluster": d.cluster, "monthly_before": d.before, "monthly_after": d.after,
            "monthly_delta": d.delta(), "break_even_hits": d.break_even,
        })),
    })
}

/// The JSON report, with every value's counts: streamed to `out`.
///
/// # Errors
/// What writing `out` returns.
pub(crate) fn json(page: &Page, out: &mut dyn Write) -> Result<(), serde_json::Error> {
    let s = page.summary;
    let doc = Doc {
        schema: SCHEMA,
        files: s.files,
        input_bytes: s.input_bytes,
        items: s.items,
        malformed_items: s.bad,
        oversized_items: s.oversized,
        log_lines: s.log_lines,
        has_lsi: s.has_lsi,
        examples: &s.examples,
        attributes: s
            .attributes
            .iter()
            .zip(page.reports)
            .zip(page.sharding)
            .zip(page.dax)
            .map(|(((a, r), sh), dax)| AttributeDoc {
                attribute: &a.attribute,
                index: a.index.as_deref(),
                role: a.role,
                label: &r.label,
                items_without_key: a.items_without,
                report: report_json(r, sh.as_ref(), dax.as_ref()),
                values: Values(&a.counter),
            })
            .collect(),
    };
    let mut w = std::io::BufWriter::new(out);
    serde_json::to_writer_pretty(&mut w, &doc)?;
    w.write_all(b"\n").map_err(serde_json::Error::io)?;
    w.flush().map_err(serde_json::Error::io)
}

const TEMPLATE: &str = include_str!("keys.html");

/// A self-contained HTML page: per key, the figures, the busiest values as bars and the
/// cumulative share curve.
pub(crate) fn html(page: &Page) -> Result<String, crate::error::Error> {
    let sections: Vec<minijinja::Value> = page
        .reports
        .iter()
        .zip(page.sharding)
        .zip(page.dax)
        .map(|((r, sh), dax)| {
            let v = view(r, sh.as_ref(), dax.as_ref());
            let s = &r.spread;
            let what = if s.has_traffic {
                "read + write units"
            } else {
                "items"
            };
            let bars: Vec<(String, Decimal)> = s
                .busiest
                .iter()
                .map(|b| {
                    let value = if s.has_traffic {
                        units(b.counts.read_halves.saturating_add(b.counts.write_halves))
                    } else {
                        Decimal::from(b.counts.items)
                    };
                    (b.value.clone(), value)
                })
                .collect();
            context! {
                title => v.title, verdict => v.verdict,
                verdict_class => v.verdict.replace(' ', "-"),
                header => FIGURE_HEADER, figures => v.figures, facts => v.facts,
                busiest_header => BUSIEST_HEADER, busiest => v.busiest,
                reasons => v.reasons.iter().map(|r| super::html::plain(r)).collect::<Vec<_>>(), notes => v.notes.iter().map(|n| super::html::plain(n)).collect::<Vec<_>>(),
                bars => minijinja::Value::from_safe_string(charts::count_bars(&format!("Busiest values by {what}"), &bars)),
                curve => minijinja::Value::from_safe_string(charts::curve(&format!("Cumulative share of {what} held by the busiest values"), &s.curve)),
            }
        })
        .collect();
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    let rendered = env.add_template("keys", TEMPLATE).and_then(|()| {
        env.get_template("keys")?.render(context! {
            heading => heading(page.summary),
            sections => sections,
            closing => CLOSING,
        })
    });
    rendered.map_err(|e| super::page_error(&e))
}
