//! Rendering a comparison (compare and diff): the baseline and each scenario side by side,
//! per line item (joined on stable keys) and per table, deltas in money and %, totals, and for
//! cumulative steps a waterfall. Terminal table, JSON, CSV and Markdown.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Style};

use super::json::{self, EstimateDoc, LineItemDoc};
use super::layout::Layout;
use super::{markdown, money};
use crate::scenario::{Comparison, Row};

pub(crate) const COMPARE_SCHEMA: &str = "ddbcost.compare/v1";

pub(crate) fn signed(d: Decimal, currency: &str) -> String {
    let text = money::display(d, currency);
    if d > Decimal::ZERO && text != money::display(Decimal::ZERO, currency) {
        format!("+{text}")
    } else {
        text
    }
}

fn signed_pct(percent: Option<Decimal>) -> String {
    match percent {
        Some(p) if p > Decimal::ZERO => format!("+{} %", p.round_dp(1)),
        Some(p) => format!("{} %", p.round_dp(1)),
        None => "—".to_string(),
    }
}

fn cell(v: Option<Decimal>, currency: &str) -> String {
    v.map_or_else(|| "—".to_string(), |v| money::display(v, currency))
}

/// A row's label, then the label of each scenario in `shown` whose line reads differently
/// (another quantity or another rule), named by scenario: each cell is read beside its own.
fn label_lines(c: &Comparison, r: &Row, shown: std::ops::Range<usize>) -> Vec<String> {
    let mut out = vec![r.label.clone()];
    for (i, l) in r.other_labels(shown) {
        let name = c.scenarios.get(i).map_or("", |s| s.name.as_str());
        out.push(format!("{name}: {l}"));
    }
    out
}

/// A row's labels on one line (Markdown, HTML): `label — scenario: its label`.
pub(crate) fn label_text(c: &Comparison, r: &Row) -> String {
    label_lines(c, r, 0..c.scenarios.len()).join(" — ")
}

/// The line-item grid of the scenarios in `shown` (indices into `c.scenarios`), beside the
/// baseline.
fn grid(c: &Comparison, shown: std::ops::Range<usize>, layout: Layout) -> tabled::Table {
    let cur = &c.baseline.currency;
    let scenarios = c.scenarios.get(shown.clone()).unwrap_or_default();
    let mut header = vec![
        "Table".to_string(),
        "Line item".to_string(),
        "Baseline".to_string(),
    ];
    for s in scenarios {
        header.push(s.name.clone());
        header.push("Δ".to_string());
    }
    let mut b = Builder::default();
    b.push_record(header);
    for (t, table_rows) in c.rows_by_table() {
        for r in table_rows {
            let label = label_lines(c, r, shown.clone()).join("\n");
            let mut row = vec![r.table.clone(), label, cell(r.baseline, cur)];
            for (v, d) in r
                .scenarios
                .iter()
                .zip(&r.deltas)
                .skip(shown.start)
                .take(shown.len())
            {
                row.push(cell(*v, cur));
                row.push(layout.delta(signed(*d, cur), *d));
            }
            b.push_record(row);
        }
        let mut row = vec![
            String::new(),
            format!("Subtotal {}", t.table),
            money::display(t.baseline, cur),
        ];
        for (v, d) in t
            .scenarios
            .iter()
            .zip(&t.deltas)
            .skip(shown.start)
            .take(shown.len())
        {
            row.push(money::display(*v, cur));
            row.push(layout.delta(signed(*d, cur), *d));
        }
        b.push_record(row);
    }
    let mut total = vec![
        String::new(),
        layout.bold("TOTAL"),
        layout.bold(&format!(
            "{} {}",
            money::symbol(cur),
            money::display(c.baseline.total, cur)
        )),
    ];
    let any_step = c.scenarios.iter().any(|s| s.step_delta.is_some());
    let mut percent = vec![
        String::new(),
        if any_step {
            "Δ vs baseline (steps: cumulative)".to_string()
        } else {
            "Δ vs baseline".to_string()
        },
        String::new(),
    ];
    let mut own = vec![
        String::new(),
        "Δ of the step alone".to_string(),
        String::new(),
    ];
    for s in scenarios {
        total.push(layout.bold(&format!(
            "{} {}",
            money::symbol(cur),
            money::display(s.estimate.total, cur)
        )));
        total.push(layout.delta(signed(s.delta, cur), s.delta));
        percent.push(String::new());
        percent.push(signed_pct(s.delta_percent));
        own.push(String::new());
        own.push(s.step_delta.map_or_else(String::new, |d| signed(d, cur)));
    }
    b.push_record(total);
    b.push_record(percent);
    if any_step {
        b.push_record(own);
    }
    let mut t = b.build();
    t.with(Style::rounded());
    t.modify(Columns::new(2..), Alignment::right());
    t
}

/// The terminal view. Where the layout's width cannot hold every scenario side by side, the
/// scenarios are shown in blocks (each beside the baseline), as many to a block as fit.
#[must_use]
pub(crate) fn table(c: &Comparison, layout: Layout) -> String {
    let cur = &c.baseline.currency;
    let n = c.scenarios.len();
    let mut blocks = Vec::new();
    let mut start = 0;
    while start < n || (n == 0 && blocks.is_empty()) {
        let mut end = start.saturating_add(1).min(n);
        let mut t = grid(c, start..end, layout);
        while end < n {
            let wider = grid(c, start..end.saturating_add(1), layout);
            if layout.too_wide(&wider) {
                break;
            }
            t = wider;
            end = end.saturating_add(1);
        }
        layout.fit(&mut t);
        blocks.push(if end.saturating_sub(start) == n {
            t.to_string()
        } else if end.saturating_sub(start) == 1 {
            format!("Scenario {end} of {n}\n{t}")
        } else {
            format!("Scenarios {}–{end} of {n}\n{t}", start.saturating_add(1))
        });

        if n == 0 {
            break;
        }
        start = end;
    }
    let mut out = format!(
        "ddbcost compare: {} — monthly cost in {cur} ({})\n{}\n",
        c.baseline.workload,
        money::symbol(cur),
        blocks.join("\n")
    );
    for s in &c.scenarios {
        let kind = s.kind.name();
        match &s.description {
            Some(d) => out.push_str(&format!("  {} ({kind}): {d}\n", s.name)),
            None => out.push_str(&format!("  {} ({kind})\n", s.name)),
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    out.push_str(&super::once::section(c, Some(layout)));
    if let Some(crate::scenario::Waterfall {
        start,
        steps,
        end,
        change,
    }) = c.waterfall()
    {
        let mut w = Builder::default();
        w.push_record([
            "Waterfall",
            &format!("Δ ({cur})"),
            &format!("Running total ({cur})"),
        ]);
        w.push_record([
            "baseline".to_string(),
            String::new(),
            money::display(start, cur),
        ]);
        for step in steps {
            w.push_record([
                step.name.to_string(),
                signed(step.delta, cur),
                money::display(step.running, cur),
            ]);
        }
        w.push_record([
            "end".to_string(),
            signed(change, cur),
            money::display(end, cur),
        ]);
        let mut wt = w.build();
        wt.with(Style::rounded());
        wt.modify(Columns::new(1..), Alignment::right());
        layout.fit(&mut wt);
        out.push_str(&format!("{wt}\n"));
    }
    for n in &c.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    let e = &c.baseline;
    out.push_str(&format!(
        "Prices: {} ({}, {}), effective {}. Settings: {}-hour month; GB = {}; free tier {}.\nRounding: {}; deltas are computed exactly, then rounded.\n",
        e.price_table.id,
        e.price_table.region,
        e.price_table.currency,
        e.price_table.effective,
        e.settings.month_hours.normalize(),
        e.settings.gb.name(),
        if e.settings.free_tier { "applied" } else { "off" },
        money::policy(cur)
    ));
    if let Some(fx) = super::fx_statement(e) {
        out.push_str(&format!("{fx}.\n"));
    }
    if let Some(sp) = super::savings_plan_statement(e) {
        out.push_str(&format!("{sp}.\n"));
    }
    out
}

/// The JSON document: `baseline` is an estimate document as `estimate --format json` prints
/// it; each scenario has `name`, `total`, `delta` and `line_items` in the same shape.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CompareDoc {
    pub schema: String,
    pub currency: String,
    pub baseline: EstimateDoc,
    pub scenarios: Vec<ScenarioDoc>,
    pub rows: Vec<RowDoc>,
    pub waterfall: Option<WaterfallDoc>,
    pub notes: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ScenarioDoc {
    pub name: String,
    pub kind: String,
    pub description: Option<String>,
    pub total: Decimal,
    pub total_rounded: Decimal,
    /// Total minus the baseline's (for a step: cumulative, every earlier step included).
    pub delta: Decimal,
    pub delta_percent: Option<Decimal>,
    /// For a step: its own change, total minus the previous step's in the workload's
    /// sequence (shown or not).
    pub step_delta: Option<Decimal>,
    pub line_items: Vec<LineItemDoc>,
    pub warnings: Vec<String>,
    /// What the change costs once (`diff`, `compare`): each item, their total (`null`: one
    /// cannot be known), and the months a saving pays them back in.
    #[serde(default)]
    pub one_time: Vec<super::once::OneTimeDoc>,
    #[serde(default)]
    pub one_time_total: Option<Decimal>,
    #[serde(default)]
    pub payback_months: Option<Decimal>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct RowDoc {
    pub key: String,
    pub table: String,
    pub component: String,
    pub label: String,
    /// Each scenario's own label for the line, in the order of `scenarios`; `null` where
    /// the line is absent.
    pub labels: Vec<Option<String>>,
    pub baseline: Option<Decimal>,
    /// Cost in each scenario, in the order of `scenarios`; `null` where the line is absent.
    pub scenarios: Vec<Option<Decimal>>,
    /// Each scenario's cost minus the baseline's (an absent line counts as zero).
    pub deltas: Vec<Decimal>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct WaterfallDoc {
    pub start: Decimal,
    pub steps: Vec<StepDoc>,
    pub end: Decimal,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct StepDoc {
    pub name: String,
    pub delta: Decimal,
    pub running_total: Decimal,
}

#[must_use]
pub(crate) fn document(c: &Comparison) -> CompareDoc {
    CompareDoc {
        schema: COMPARE_SCHEMA.to_string(),
        currency: c.baseline.currency.clone(),
        baseline: json::document(&c.baseline),
        scenarios: c
            .scenarios
            .iter()
            .map(|s| {
                #[cfg(not(target_arch = "wasm32"))]
                let (one_time, one_time_total, payback_months) =
                    super::once::docs(s, &c.baseline.currency);
                // The page's build prices no one-time cost (#30's budget).
                #[cfg(target_arch = "wasm32")]
                let (one_time, one_time_total, payback_months) =
                    (Vec::new(), Some(Decimal::ZERO), None);
                ScenarioDoc {
                    name: s.name.clone(),
                    kind: s.kind.name().to_string(),
                    description: s.description.clone(),
                    total: s.estimate.total.normalize(),
                    total_rounded: money::round(s.estimate.total, &s.estimate.currency),
                    delta: s.delta.normalize(),
                    delta_percent: s.delta_percent.map(|p| p.round_dp(2).normalize()),
                    step_delta: s.step_delta.map(|d| d.normalize()),
                    line_items: json::line_item_docs(&s.estimate),
                    warnings: super::notices::texts(&s.estimate.warnings),
                    one_time,
                    one_time_total,
                    payback_months,
                }
            })
            .collect(),
        rows: c
            .rows
            .iter()
            .map(|r| RowDoc {
                key: r.key.clone(),
                table: r.table.clone(),
                component: r.component.name().to_string(),
                label: r.label.clone(),
                labels: r.labels.clone(),
                baseline: r.baseline.map(|v| v.normalize()),
                scenarios: r
                    .scenarios
                    .iter()
                    .map(|v| v.map(|v| v.normalize()))
                    .collect(),
                deltas: r
                    .deltas
                    .iter()
                    .map(rust_decimal::Decimal::normalize)
                    .collect(),
            })
            .collect(),
        waterfall: c.waterfall().map(|w| WaterfallDoc {
            start: w.start.normalize(),
            steps: w
                .steps
                .into_iter()
                .map(|s| StepDoc {
                    name: s.name.to_string(),
                    delta: s.delta.normalize(),
                    running_total: s.running.normalize(),
                })
                .collect(),
            end: w.end.normalize(),
        }),
        notes: c.notes.clone(),
    }
}

#[must_use]
pub(crate) fn json(c: &Comparison) -> String {
    let mut s = serde_json::to_string_pretty(&document(c)).unwrap_or_default();
    s.push('\n');
    s
}

/// Markdown for a pull request: totals and deltas first, then the waterfall, then the line
/// items that change.
#[must_use]
pub(crate) fn markdown(c: &Comparison) -> String {
    let cur = &c.baseline.currency;
    let base = c.baseline.total;
    let any_step = c.scenarios.iter().any(|s| s.step_delta.is_some());
    let mut out = format!("## ddbcost: {}\n\n", markdown::cell(&c.baseline.workload));
    let mut rows = vec![vec![
        "baseline".to_string(),
        String::new(),
        money::display(base, cur),
        String::new(),
        String::new(),
        String::new(),
    ]];
    for s in &c.scenarios {
        rows.push(vec![
            s.name.clone(),
            s.kind.name().to_string(),
            money::display(s.estimate.total, cur),
            signed(s.delta, cur),
            signed_pct(s.delta_percent),
            s.step_delta.map_or_else(String::new, |d| signed(d, cur)),
        ]);
    }
    let mut header = vec![
        "Scenario".to_string(),
        "Kind".to_string(),
        format!("Monthly ({cur})"),
        if any_step {
            "Δ vs baseline (cumulative for steps)".to_string()
        } else {
            "Δ vs baseline".to_string()
        },
        "Δ %".to_string(),
        "Δ of the step alone".to_string(),
    ];
    let mut right = vec![false, false, true, true, true, true];
    if !any_step {
        header.pop();
        right.pop();
        for r in &mut rows {
            r.pop();
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    super::once::column(c, &mut header, &mut right, &mut rows);
    let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
    out.push_str(&markdown::table(&header_refs, &right, &rows));
    #[cfg(not(target_arch = "wasm32"))]
    out.push_str(&super::once::section(c, None));
    if let Some(w) = c.waterfall() {
        out.push_str("\n### Waterfall\n\n");
        let mut rows = vec![vec![
            "baseline".to_string(),
            String::new(),
            money::display(w.start, cur),
        ]];
        for step in w.steps {
            rows.push(vec![
                step.name.to_string(),
                signed(step.delta, cur),
                money::display(step.running, cur),
            ]);
        }
        rows.push(vec![
            "end".to_string(),
            signed(w.change, cur),
            money::display(w.end, cur),
        ]);
        out.push_str(&markdown::table(
            &["Step", "Δ", "Running total"],
            &[false, true, true],
            &rows,
        ));
    }
    let changed: Vec<_> = c
        .rows
        .iter()
        .filter(|r| r.scenarios.iter().any(|v| *v != r.baseline))
        .collect();
    out.push_str("\n### Line items that change\n\n");
    if changed.is_empty() {
        out.push_str("No line item changes.\n");
    } else {
        let mut header = vec![
            "Table".to_string(),
            "Line item".to_string(),
            "Baseline".to_string(),
        ];
        for s in &c.scenarios {
            header.push(s.name.clone());
            header.push("Δ".to_string());
        }
        let mut right = vec![false, false, true];
        right.extend(c.scenarios.iter().flat_map(|_| [true, true]));
        let rows: Vec<Vec<String>> = changed
            .iter()
            .map(|r| {
                let mut row = vec![r.table.clone(), label_text(c, r), cell(r.baseline, cur)];
                for (v, d) in r.scenarios.iter().zip(&r.deltas) {
                    row.push(cell(*v, cur));
                    row.push(signed(*d, cur));
                }
                row
            })
            .collect();
        let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
        out.push_str(&markdown::table(&header_refs, &right, &rows));
        let unchanged = c.rows.len().saturating_sub(changed.len());
        if unchanged > 0 {
            out.push_str(&format!("\n{unchanged} line item(s) unchanged.\n"));
        }
    }
    for n in &c.notes {
        out.push_str(&format!("\n> note: {}\n", markdown::cell(n)));
    }
    out.push('\n');
    out.push_str(&markdown::footer(&c.baseline));
    out
}
