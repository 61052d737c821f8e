//! `estimate --by tag:KEY`: the estimate per value of a table tag — each table's lines go to
//! the value its `tags:` give KEY, tables without it to `(untagged)`, the account's lines
//! (reservations, savings plans, the free tier) to `(account)` — with each group's share
//! of the total, shown rounded by largest remainder so the rows add up to the total; and
//! `bill --by tag:KEY`, the bill's money per value of the tag its rows state.

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

/// Tag values in order, `(untagged)` and `(account)` last.
fn order(a: &str, b: &str) -> std::cmp::Ordering {
    let rank = |v: &str| match v {
        UNTAGGED => 1,
        ACCOUNT => 2,
        _ => 0,
    };
    rank(a).cmp(&rank(b)).then(a.cmp(b))
}

/// The group `is` finds in `groups`, made by `new` when there is none yet.
pub(crate) fn slot<G>(
    groups: &mut Vec<G>,
    is: impl Fn(&G) -> bool,
    new: impl FnOnce() -> G,
) -> Option<&mut G> {
    let i = match groups.iter().position(is) {
        Some(i) => i,
        None => {
            groups.push(new());
            groups.len().saturating_sub(1)
        }
    };
    groups.get_mut(i)
}

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
        let new = || Group {
            value: value.to_string(),
            tables: Vec::new(),
            cost: Decimal::ZERO,
        };
        if let Some(g) = slot(&mut groups, |g| g.value == value, new) {
            g.cost = g.cost.checked_add(cost).unwrap_or(g.cost);
            if value != ACCOUNT && !g.tables.iter().any(|t| **t == *line.table) {
                g.tables.push(line.table.to_string());
            }
        }
    }
    groups.sort_by(|a, b| order(&a.value, &b.value));
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

/// One tag value's part of a bill: its tables and their money.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BillGroup {
    pub(crate) value: String,
    pub(crate) tables: Vec<String>,
    pub(crate) unblended: Decimal,
    pub(crate) effective: Decimal,
}

/// The bill's money per value of tag `key`: each table's places by the value its rows
/// state, `(untagged)` for tables without it, `(account)` for the account's rows and what
/// is kept apart (credits, taxes, unmapped usage).
#[must_use]
pub(crate) fn bill_groups(l: &crate::bill::ledger::Ledger, key: &str) -> Vec<BillGroup> {
    use crate::bill::map::Owner;
    let mut groups: Vec<BillGroup> = Vec::new();
    let mut add = |value: &str, table: Option<&str>, u: Decimal, e: Decimal| {
        let new = || BillGroup {
            value: value.to_string(),
            tables: Vec::new(),
            unblended: Decimal::ZERO,
            effective: Decimal::ZERO,
        };
        if let Some(g) = slot(&mut groups, |g| g.value == value, new) {
            g.unblended = g.unblended.checked_add(u).unwrap_or(g.unblended);
            g.effective = g.effective.checked_add(e).unwrap_or(g.effective);
            if let Some(t) = table
                && !g.tables.iter().any(|x| x == t)
            {
                g.tables.push(t.to_string());
            }
        }
    };
    for (place, sums) in &l.places {
        match &place.owner {
            Owner::Table(t) => {
                let value = l
                    .tags
                    .get(t)
                    .and_then(|tags| tags.get(key))
                    .map_or(UNTAGGED, String::as_str);
                add(value, Some(t), sums.unblended, sums.effective);
            }
            Owner::Account => add(ACCOUNT, None, sums.unblended, sums.effective),
        }
    }
    for sums in l.apart.values().chain(l.unmapped.values()) {
        add(ACCOUNT, None, sums.unblended, sums.effective);
    }
    groups.sort_by(|a, b| order(&a.value, &b.value));
    groups
}

fn bill_rounded(groups: &[BillGroup], currency: &str) -> (Vec<Decimal>, Vec<Decimal>) {
    let dp = minor_digits(currency);
    let u: Vec<Decimal> = groups.iter().map(|g| g.unblended).collect();
    let e: Vec<Decimal> = groups.iter().map(|g| g.effective).collect();
    (to_minor_unit(&u, dp), to_minor_unit(&e, dp))
}

/// The table or Markdown view of a bill by tag.
pub(crate) fn bill_table(
    groups: &[BillGroup],
    l: &crate::bill::ledger::Ledger,
    key: &str,
    markdown: bool,
) -> String {
    let currency = l.currency.clone().unwrap_or_default();
    let period = l.period.clone().unwrap_or_default();
    let cell = |s: &str| {
        if markdown {
            super::markdown::cell(s)
        } else {
            crate::text::one_line(s).into_owned()
        }
    };
    let (ru, re) = bill_rounded(groups, &currency);
    let mut b = tabled::builder::Builder::default();
    b.push_record([
        format!("tag:{}", cell(key)),
        "Tables".into(),
        "Unblended".into(),
        "Effective".into(),
    ]);
    for ((g, u), e) in groups.iter().zip(ru).zip(re) {
        b.push_record([
            cell(&g.value),
            cell(&g.tables.join(", ")),
            display(u, &currency),
            display(e, &currency),
        ]);
    }
    b.push_record([
        "TOTAL".to_string(),
        String::new(),
        display(l.total.unblended, &currency),
        display(l.total.effective, &currency),
    ]);
    let mut t = b.build();
    let rule = "Each table's rows go to the value their resource tags give the key (`user:` dropped); the account's rows, credits and taxes to `(account)`. Shown rounded by largest remainder so the rows add up to the total.";
    if markdown {
        t.with(tabled::settings::Style::markdown());
        return format!(
            "## The {period} bill by tag `{}` ({currency})\n\n{t}\n\n{rule}\n",
            cell(key)
        );
    }
    t.with(tabled::settings::Style::rounded());
    format!(
        "ddbcost bill: the {period} bill by tag `{}` ({currency})\n{t}\n{rule}\n",
        crate::text::one_line(key)
    )
}

/// JSON of a bill by tag.
pub(crate) fn bill_json(
    groups: &[BillGroup],
    l: &crate::bill::ledger::Ledger,
    key: &str,
) -> String {
    let currency = l.currency.clone().unwrap_or_default();
    let d = |x: Decimal| serde_json::Value::String(x.normalize().to_string());
    let (ru, re) = bill_rounded(groups, &currency);
    let rows: Vec<serde_json::Value> = groups
        .iter()
        .zip(ru)
        .zip(re)
        .map(|((g, u), e)| {
            serde_json::json!({
                "value": g.value,
                "tables": g.tables,
                "unblended": d(g.unblended),
                "effective": d(g.effective),
                "unblended_rounded": d(u),
                "effective_rounded": d(e),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "schema": "ddbcost.bill-tags/v1",
        "billing_period": l.period,
        "currency": currency,
        "tag": key,
        "rows": rows,
        "total": { "unblended": d(l.total.unblended), "effective": d(l.total.effective) },
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// CSV of a bill by tag: `tag:KEY,tables,unblended,effective,unblended_rounded,effective_rounded,currency`.
pub(crate) fn bill_csv(groups: &[BillGroup], currency: &str, key: &str) -> Result<String, Error> {
    let fail = |e: &dyn std::fmt::Display| Error::input(format!("cannot write the CSV: {e}"));
    let (ru, re) = bill_rounded(groups, currency);
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record([
        format!("tag:{key}").as_str(),
        "tables",
        "unblended",
        "effective",
        "unblended_rounded",
        "effective_rounded",
        "currency",
    ])
    .map_err(|e| fail(&e))?;
    for ((g, u), e) in groups.iter().zip(ru).zip(re) {
        w.write_record([
            crate::text::one_line(&g.value).as_ref(),
            &crate::text::one_line(&g.tables.join(" ")),
            &g.unblended.normalize().to_string(),
            &g.effective.normalize().to_string(),
            &u.to_string(),
            &e.to_string(),
            currency,
        ])
        .map_err(|e| fail(&e))?;
    }
    let bytes = w.into_inner().map_err(|e| fail(&e))?;
    String::from_utf8(bytes).map_err(|e| fail(&e))
}
