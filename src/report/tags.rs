//! `estimate --by tag:KEY`: the estimate per value of a table tag — each table's lines go to
//! the value its `tags:` give KEY, tables without it to `(untagged)`, the account's lines
//! (reservations, savings plans, the free tier) to `(account)` — with each group's share
//! of the total, shown rounded by largest remainder so the rows add up to the total.

use rust_decimal::Decimal;

use super::money::{display, minor_digits};
use crate::allocate::split::to_minor_unit;
use crate::engine::Estimate;
use crate::error::Error;
use crate::model::Workload;

/// The group of tables without the tag.
pub(crate) const UNTAGGED: &str = "(untagged)";
/// The group of the account's lines.
pub(crate) const ACCOUNT: &str = "(account)";

/// One value's group: its tables and its exact cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Group {
    pub(crate) value: String,
    pub(crate) tables: Vec<String>,
    pub(crate) cost: Decimal,
}

/// The estimate's known costs per value of tag `key`, in value order, `(untagged)` and
/// `(account)` last.
#[must_use]
pub(crate) fn group(e: &Estimate, w: &Workload, key: &str) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for line in &e.line_items {
        let Some(cost) = line.cost else { continue };
        let value = match w.tables.iter().find(|t| t.name == line.table) {
            Some(t) => t
                .tags
                .iter()
                .find(|(k, _)| k == key)
                .map_or(UNTAGGED, |(_, v)| v.as_str()),
            None => ACCOUNT,
        };
        let i = match groups.iter().position(|g| g.value == value) {
            Some(i) => i,
            None => {
                groups.push(Group {
                    value: value.to_string(),
                    tables: Vec::new(),
                    cost: Decimal::ZERO,
                });
                groups.len().saturating_sub(1)
            }
        };
        if let Some(g) = groups.get_mut(i) {
            g.cost = g.cost.checked_add(cost).unwrap_or(g.cost);
            if value != ACCOUNT && !g.tables.iter().any(|t| **t == *line.table) {
                g.tables.push(line.table.to_string());
            }
        }
    }
    let rank = |v: &str| match v {
        UNTAGGED => 1,
        ACCOUNT => 2,
        _ => 0,
    };
    groups.sort_by(|a, b| {
        rank(&a.value)
            .cmp(&rank(&b.value))
            .then(a.value.cmp(&b.value))
    });
    groups
}

fn rounded(groups: &[Group], currency: &str) -> Vec<Decimal> {
    let exact: Vec<Decimal> = groups.iter().map(|g| g.cost).collect();
    to_minor_unit(&exact, minor_digits(currency))
}

/// The table or Markdown view.
pub(crate) fn table(groups: &[Group], e: &Estimate, key: &str, markdown: bool) -> String {
    let cell = |s: &str| {
        if markdown {
            super::markdown::cell(s)
        } else {
            crate::text::one_line(s).into_owned()
        }
    };
    let mut b = tabled::builder::Builder::default();
    b.push_record([
        format!("tag:{}", cell(key)),
        "Tables".into(),
        format!("Monthly ({})", e.currency),
    ]);
    for (g, r) in groups.iter().zip(rounded(groups, &e.currency)) {
        b.push_record([
            cell(&g.value),
            cell(&g.tables.join(", ")),
            display(r, &e.currency),
        ]);
    }
    b.push_record([
        "TOTAL".to_string(),
        String::new(),
        display(e.total, &e.currency),
    ]);
    let mut t = b.build();
    let rule = "Each table's lines go to the value its `tags:` give the key; shown rounded by largest remainder so the rows add up to the total.";
    if markdown {
        t.with(tabled::settings::Style::markdown());
        return format!(
            "## {} by tag `{}` ({})\n\n{t}\n\n{rule}\n",
            cell(&e.workload),
            cell(key),
            e.currency
        );
    }
    t.with(tabled::settings::Style::rounded());
    format!(
        "ddbcost estimate: {}, by tag `{}` ({} a month)\n{t}\n{rule}\n",
        crate::text::one_line(&e.workload),
        crate::text::one_line(key),
        e.currency
    )
}

/// JSON: each value with its tables, its exact cost and its cost rounded.
pub(crate) fn json(groups: &[Group], e: &Estimate, key: &str) -> String {
    let d = |x: Decimal| serde_json::Value::String(x.normalize().to_string());
    let rows: Vec<serde_json::Value> = groups
        .iter()
        .zip(rounded(groups, &e.currency))
        .map(|(g, r)| {
            serde_json::json!({
                "value": g.value,
                "tables": g.tables,
                "cost": d(g.cost),
                "cost_rounded": d(r),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "schema": "ddbcost.tags/v1",
        "workload": e.workload,
        "currency": e.currency,
        "tag": key,
        "rows": rows,
        "total": d(e.total),
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// CSV: `tag_value,tables,cost,cost_rounded,currency`.
pub(crate) fn csv(groups: &[Group], e: &Estimate, key: &str) -> Result<String, Error> {
    let fail = |e: &dyn std::fmt::Display| Error::input(format!("cannot write the CSV: {e}"));
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record([
        format!("tag:{key}").as_str(),
        "tables",
        "cost",
        "cost_rounded",
        "currency",
    ])
    .map_err(|e| fail(&e))?;
    for (g, r) in groups.iter().zip(rounded(groups, &e.currency)) {
        w.write_record([
            crate::text::one_line(&g.value).as_ref(),
            &crate::text::one_line(&g.tables.join(" ")),
            &g.cost.normalize().to_string(),
            &r.to_string(),
            &e.currency,
        ])
        .map_err(|e| fail(&e))?;
    }
    let bytes = w.into_inner().map_err(|e| fail(&e))?;
    String::from_utf8(bytes).map_err(|e| fail(&e))
}
