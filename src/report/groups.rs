//! `compare --by tenant|tag:KEY` and `forecast --by …`: the baseline (or the first month)
//! and each scenario (or month) per group — a tenant tier's (or ranked tenant's) cost for one tenant, a tag value's monthly
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
    /// `compare` or `forecast`.
    pub(crate) command: &'static str,
    pub(crate) title: String,
    pub(crate) what: &'a str,
    pub(crate) currency: &'a str,
    /// What the first figure is (`baseline`, or a forecast's first month).
    pub(crate) first: String,
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
        "ddbcost {}: {} ({}, {})\n{t}\n",
        g.command,
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
        "first": g.first,
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
        let names = std::iter::once(g.first.as_str()).chain(g.names.iter().map(String::as_str));
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

/// Each estimate's figures per tenant group (one tenant's cost) or tag value (the total), in
/// rows of one group each, and what the figures are.
pub(crate) fn rows_of(
    estimates: &[&crate::engine::Estimate],
    workload: &crate::model::Workload,
    by: &crate::cli::ByArg,
) -> Result<(Vec<crate::report::groups::GroupRow>, String), Error> {
    let mut rows: Vec<GroupRow> = Vec::new();
    let mut put = |table: &str, group: &str, i: usize, v: Decimal| {
        let new = || GroupRow {
            table: table.to_string(),
            group: group.to_string(),
            values: vec![None; estimates.len()],
        };
        let row = super::tags::slot(&mut rows, |r| r.table == table && r.group == group, new);
        if let Some(slot) = row.and_then(|r| r.values.get_mut(i)) {
            *slot = Some(v);
        }
    };
    let what = match &by.tag {
        Some(key) => {
            for (i, e) in estimates.iter().enumerate() {
                for g in crate::report::tags::group(e, workload, key) {
                    put("", &g.value, i, g.cost);
                }
            }
            format!("monthly cost by tag `{key}`")
        }
        None => {
            for (i, e) in estimates.iter().enumerate() {
                let Some(t) = crate::engine::tenants::by_tenant(e, workload) else {
                    return Err(Error::input("a cost per tenant past what a decimal holds"));
                };
                for g in &t.groups {
                    put(&g.table, &g.name, i, g.each);
                }
            }
            if rows.is_empty() {
                return Err(Error::usage("no table of this workload states its `tenants:`")
                    .help("Consider `tenants: { key: PK, pattern: 'ORG#([^#]+)', tiers: { … } }` on a table."));
            }
            "one tenant's monthly cost".to_string()
        }
    };
    Ok((rows, what))
}
