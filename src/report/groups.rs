//! `compare --by tenant` and `compare --by tag:KEY`: the baseline and each scenario per
//! group — a tenant tier's (or ranked tenant's) cost for one tenant, a tag value's monthly
//! total — with each scenario's change from the baseline; as a table, Markdown, CSV or JSON.

use rust_decimal::Decimal;

use super::money::display;
use crate::error::Error;

/// One group's figures: the baseline's, then each scenario's (`None`: the group is not in
/// that estimate).
pub(crate) struct GroupRow {
    pub(crate) table: String,
    pub(crate) group: String,
    pub(crate) values: Vec<Option<Decimal>>,
}

/// What the figures are.
pub(crate) struct Groups<'a> {
    pub(crate) title: String,
    pub(crate) what: &'a str,
    pub(crate) currency: &'a str,
    pub(crate) names: Vec<String>,
    pub(crate) rows: Vec<GroupRow>,
}

fn delta(v: &[Option<Decimal>], i: usize) -> Option<Decimal> {
    v.get(i)
        .copied()
        .flatten()?
        .checked_sub(v.first().copied().flatten()?)
}

/// The table or Markdown view: per scenario its figure and its change from the baseline.
pub(crate) fn table(g: &Groups<'_>, markdown: bool) -> String {
    let cell = |s: &str| {
        if markdown {
            super::markdown::cell(s)
        } else {
            crate::text::one_line(s).into_owned()
        }
    };
    let mut header = vec![
        "Table".to_string(),
        "Group".to_string(),
        "baseline".to_string(),
    ];
    for n in &g.names {
        header.push(cell(n));
        header.push(format!("Δ {}", cell(n)));
    }
    let mut b = tabled::builder::Builder::default();
    b.push_record(header);
    for r in &g.rows {
        let money = |d: Option<Decimal>| d.map(|d| display(d, g.currency)).unwrap_or_default();
        let mut rec = vec![
            cell(&r.table),
            cell(&r.group),
            money(r.values.first().copied().flatten()),
        ];
        for i in 1..=g.names.len() {
            rec.push(money(r.values.get(i).copied().flatten()));
            rec.push(money(delta(&r.values, i)));
        }
        b.push_record(rec);
    }
    let mut t = b.build();
    if markdown {
        t.with(tabled::settings::Style::markdown());
        return format!(
            "## {} ({}, {})\n\n{t}\n",
            cell(&g.title),
            g.what,
            g.currency
        );
    }
    t.with(tabled::settings::Style::rounded());
    format!(
        "ddbcost compare: {} ({}, {})\n{t}\n",
        crate::text::one_line(&g.title),
        g.what,
        g.currency
    )
}

/// JSON: each group's exact figures and changes.
pub(crate) fn json(g: &Groups<'_>, schema: &str) -> String {
    let d = |x: Option<Decimal>| x.map(|x| serde_json::Value::String(x.normalize().to_string()));
    let rows: Vec<serde_json::Value> = g
        .rows
        .iter()
        .map(|r| {
            let scenarios: Vec<serde_json::Value> = g
                .names
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    serde_json::json!({
                        "name": n,
                        "value": d(r.values.get(i.saturating_add(1)).copied().flatten()),
                        "delta": d(delta(&r.values, i.saturating_add(1))),
                    })
                })
                .collect();
            serde_json::json!({
                "table": r.table,
                "group": r.group,
                "baseline": d(r.values.first().copied().flatten()),
                "scenarios": scenarios,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "schema": schema,
        "workload": g.title,
        "what": g.what,
        "currency": g.currency,
        "rows": rows,
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// CSV: `table,group,scenario,value,delta,currency`, one row per group and scenario.
pub(crate) fn csv(g: &Groups<'_>) -> Result<String, Error> {
    let fail = |e: &dyn std::fmt::Display| Error::input(format!("cannot write the CSV: {e}"));
    let text = |d: Option<Decimal>| d.map(|d| d.normalize().to_string()).unwrap_or_default();
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(["table", "group", "scenario", "value", "delta", "currency"])
        .map_err(|e| fail(&e))?;
    for r in &g.rows {
        let names = std::iter::once("baseline").chain(g.names.iter().map(String::as_str));
        for (i, n) in names.enumerate() {
            let delta = if i == 0 {
                String::new()
            } else {
                text(delta(&r.values, i))
            };
            w.write_record([
                crate::text::one_line(&r.table).as_ref(),
                &crate::text::one_line(&r.group),
                &crate::text::one_line(n),
                &text(r.values.get(i).copied().flatten()),
                &delta,
                g.currency,
            ])
            .map_err(|e| fail(&e))?;
        }
    }
    let bytes = w.into_inner().map_err(|e| fail(&e))?;
    String::from_utf8(bytes).map_err(|e| fail(&e))
}
