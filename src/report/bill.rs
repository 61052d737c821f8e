//! `ddbcost bill`'s report: the bill's DynamoDB rows per table (or the account), region,
//! component and meter — rows, quantity used, unblended and effective cost — then what is
//! kept apart (credits, refunds, taxes, other line item types) and the usage types nobody
//! maps, each with its cost, and the totals, which these lines add up to exactly. Amounts are
//! exact in JSON and CSV and rounded to the currency's minor unit in the table and Markdown.

use std::fmt::Write as _;

use rust_decimal::Decimal;
use serde_json::json;

use super::money;
use crate::bill::commit::Commitments;
use crate::bill::ledger::{Kind, Ledger, Sums};
use crate::bill::map::Owner;

/// One line of the report: who, where, what, and its sums.
struct Line {
    owner: String,
    region: String,
    component: String,
    meter: String,
    sums: Sums,
}

const ACCOUNT: &str = "(account)";

fn lines(l: &Ledger) -> Vec<Line> {
    let mut out: Vec<Line> = l
        .places
        .iter()
        .map(|(p, s)| Line {
            owner: match &p.owner {
                Owner::Table(t) => t.clone(),
                Owner::Account => ACCOUNT.to_string(),
            },
            region: p.region.clone(),
            component: p.component.name().to_string(),
            meter: p.meter.clone(),
            sums: s.clone(),
        })
        .collect();
    for ((charge, kind), s) in &l.apart {
        out.push(Line {
            owner: ACCOUNT.to_string(),
            region: String::new(),
            component: charge.name().to_string(),
            meter: kind.clone(),
            sums: s.clone(),
        });
    }
    for (usage_type, s) in &l.unmapped {
        out.push(Line {
            owner: ACCOUNT.to_string(),
            region: String::new(),
            component: "not mapped".to_string(),
            meter: usage_type.clone(),
            sums: s.clone(),
        });
    }
    out
}

fn currency(l: &Ledger) -> &str {
    l.currency.as_deref().unwrap_or("USD")
}

fn header(l: &Ledger) -> String {
    format!(
        "ddbcost bill: billing period {}, {} — {} rows read: {} DynamoDB, {} of other services, {} of other periods",
        l.period.as_deref().unwrap_or("?"),
        currency(l),
        l.rows_read,
        l.total.rows,
        l.other_services,
        l.other_periods
    )
}

const HEAD: [&str; 8] = [
    "Table",
    "Region",
    "Component",
    "Meter",
    "Rows",
    "Quantity",
    "Unblended",
    "Effective",
];

/// A line's cells; the bill's names are shown on one line with their control characters
/// escaped (`text::one_line`): they are the bill file's, not ours.
fn cells(line: &Line, cur: &str) -> Vec<String> {
    let shown = |s: &str| crate::text::one_line(s).into_owned();
    vec![
        shown(&line.owner),
        shown(&line.region),
        line.component.clone(),
        shown(&line.meter),
        line.sums.rows.to_string(),
        money::quantity(line.sums.amount),
        money::display(line.sums.unblended, cur),
        money::display(line.sums.effective, cur),
    ]
}

fn total_cells(l: &Ledger) -> Vec<String> {
    let cur = currency(l);
    vec![
        "TOTAL".to_string(),
        String::new(),
        String::new(),
        String::new(),
        l.total.rows.to_string(),
        String::new(),
        money::display(l.total.unblended, cur),
        money::display(l.total.effective, cur),
    ]
}

fn footer(l: &Ledger) -> String {
    format!(
        "Every DynamoDB row of the period is counted once: the lines add up to the totals exactly. Quantities are the usage rows' amounts (covered or not), in each meter's unit (GB-months for storage). Files: {}. Rounding: {}.\n",
        l.files.join(", "),
        money::policy(currency(l))
    )
}

/// The commitments as rows: region, kind, term, units to own, the least owned today, the
/// busiest hour, the period's cost without and with, the saving, the utilization.
fn commitment_rows(c: &Commitments, cur: &str) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let head = vec![
        "Region",
        "Commitment",
        "Own",
        "Owned today (at least)",
        "Busiest hour",
        "Period cost without",
        "With",
        "Saves",
        "Utilization",
    ];
    let mut rows: Vec<Vec<String>> = c
        .reserves
        .iter()
        .map(|r| {
            let kind = match r.kind {
                Kind::Rcu => "RCU",
                Kind::Wcu => "WCU",
            };
            vec![
                r.region.clone(),
                format!("reserved {kind}, {}", crate::model::term_code(r.term)),
                money::quantity(r.units),
                money::quantity(r.owned_at_least),
                money::quantity(r.busiest),
                money::display(r.without, cur),
                money::display(r.with, cur),
                money::display(r.without.checked_sub(r.with).unwrap_or_default(), cur),
                r.utilization.map_or_else(String::new, |u| {
                    format!(
                        "{} %",
                        u.checked_mul(Decimal::ONE_HUNDRED)
                            .unwrap_or_default()
                            .round_dp(1)
                            .normalize()
                    )
                }),
            ]
        })
        .collect();
    if let Some(p) = &c.plan {
        rows.push(vec![
            "(all)".to_string(),
            "Database Savings Plan, per hour".to_string(),
            money::display(p.per_hour, cur),
            String::new(),
            String::new(),
            money::display(p.without, cur),
            money::display(p.with, cur),
            money::display(p.without.checked_sub(p.with).unwrap_or_default(), cur),
            String::new(),
        ]);
    }
    (head, rows)
}

fn commitments_footer(c: &Commitments) -> String {
    let mut out = format!(
        "Each amount priced again over the bill's {} hours (reserved: blocks of 100, the upfront fee spread over the term's hours; plan: $0.001 steps); the cheapest is shown. Owned today: the most unit-hours reservations covered in one hour.\n",
        c.hours.normalize()
    );
    for n in &c.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}

/// The report as a terminal table.
pub(crate) fn table(l: &Ledger, commitments: Option<&Commitments>) -> String {
    let cur = currency(l);
    let mut b = tabled::builder::Builder::default();
    b.push_record(HEAD);
    for line in lines(l) {
        b.push_record(cells(&line, cur));
    }
    b.push_record(total_cells(l));
    let mut t = b.build();
    t.with(tabled::settings::Style::rounded());
    t.modify(
        tabled::settings::object::Columns::new(4..),
        tabled::settings::Alignment::right(),
    );
    let mut out = format!("{}\n{t}\n{}", header(l), footer(l));
    if let Some(c) = commitments {
        let (head, rows) = commitment_rows(c, cur);
        let mut b = tabled::builder::Builder::default();
        b.push_record(head);
        for r in rows {
            b.push_record(r);
        }
        let mut t = b.build();
        t.with(tabled::settings::Style::rounded());
        t.modify(
            tabled::settings::object::Columns::new(2..),
            tabled::settings::Alignment::right(),
        );
        let _ = write!(
            out,
            "\nCommitments from the bill's hours\n{t}\n{}",
            commitments_footer(c)
        );
    }
    out
}

/// The report as Markdown.
pub(crate) fn markdown(l: &Ledger, commitments: Option<&Commitments>) -> String {
    let cur = currency(l);
    let mut rows: Vec<Vec<String>> = lines(l).iter().map(|x| cells(x, cur)).collect();
    rows.push(total_cells(l));
    let right: Vec<bool> = (0..HEAD.len()).map(|i| i >= 4).collect();
    let mut out = format!(
        "## {}\n\n{}",
        super::markdown::cell(&header(l)),
        super::markdown::table(&HEAD, &right, &rows)
    );
    let _ = write!(out, "\n_{}_\n", footer(l).trim_end());
    if let Some(c) = commitments {
        let (head, rows) = commitment_rows(c, cur);
        let right: Vec<bool> = (0..head.len()).map(|i| i >= 2).collect();
        let _ = write!(
            out,
            "\n### Commitments from the bill's hours\n\n{}\n_{}_\n",
            super::markdown::table(&head, &right, &rows),
            commitments_footer(c).trim_end().replace('\n', " ")
        );
    }
    out
}

/// The report as CSV: one row per line, amounts exact.
pub(crate) fn csv(l: &Ledger) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "table",
        "region",
        "component",
        "meter",
        "rows",
        "quantity",
        "unblended_cost",
        "effective_cost",
        "list_cost",
        "currency",
        "billing_period",
    ]);
    let cur = currency(l);
    let period = l.period.clone().unwrap_or_default();
    for line in lines(l) {
        let _ = w.write_record([
            line.owner.as_str(),
            &line.region,
            &line.component,
            &line.meter,
            &line.sums.rows.to_string(),
            &line.sums.amount.normalize().to_string(),
            &line.sums.unblended.normalize().to_string(),
            &line.sums.effective.normalize().to_string(),
            &line.sums.list.normalize().to_string(),
            cur,
            &period,
        ]);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

fn sums_json(s: &Sums) -> serde_json::Value {
    let d = |x: Decimal| x.normalize().to_string();
    json!({
        "rows": s.rows,
        "quantity": d(s.amount),
        "unblended": d(s.unblended),
        "effective": d(s.effective),
        "list": d(s.list),
    })
}

fn commitments_json(c: &Commitments) -> serde_json::Value {
    let d = |x: Decimal| x.normalize().to_string();
    json!({
        "hours": d(c.hours),
        "reserved": c.reserves.iter().map(|r| json!({
            "region": r.region,
            "capacity": match r.kind { Kind::Rcu => "rcu", Kind::Wcu => "wcu" },
            "term": crate::model::term_code(r.term),
            "units": d(r.units),
            "owned_at_least": d(r.owned_at_least),
            "busiest_hour": d(r.busiest),
            "without": d(r.without),
            "with": d(r.with),
            "utilization": r.utilization.map(d),
        })).collect::<Vec<_>>(),
        "savings_plan": c.plan.as_ref().map(|p| json!({
            "per_hour": d(p.per_hour), "without": d(p.without), "with": d(p.with),
        })),
        "notes": c.notes,
    })
}

/// The report as JSON (`ddbcost.bill/v1`).
pub(crate) fn json(l: &Ledger, commitments: Option<&Commitments>) -> String {
    let (matched, account, apart, unmapped) = l.row_counts();
    let doc = json!({
        "schema": "ddbcost.bill/v1",
        "billing_period": l.period,
        "currency": currency(l),
        "files": l.files,
        "notes": l.notes,
        "rows": {
            "read": l.rows_read,
            "dynamodb": l.total.rows,
            "matched_to_tables": matched,
            "account_level": account,
            "kept_apart": apart,
            "not_mapped": unmapped,
            "other_services": l.other_services,
            "other_periods": l.other_periods,
        },
        "lines": lines(l).iter().map(|x| {
            let mut v = sums_json(&x.sums);
            v["table"] = if x.owner == ACCOUNT { serde_json::Value::Null } else { json!(x.owner) };
            v["region"] = json!(x.region);
            v["component"] = json!(x.component);
            v["meter"] = json!(x.meter);
            v
        }).collect::<Vec<_>>(),
        "by_charge": l.by_charge.iter().map(|(c, s)| {
            let mut v = sums_json(s);
            v["charge"] = json!(c.name());
            v
        }).collect::<Vec<_>>(),
        "total": sums_json(&l.total),
        "commitments": commitments.map(commitments_json),
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// Text as HTML: `&`, `<`, `>` and `"` escaped (the names are the bill's).
pub(crate) fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page: the lines, and per table (and the account) what each component billed, as bars.
pub(crate) fn html(l: &Ledger) -> String {
    let cur = currency(l);
    let mut rows: Vec<String> = Vec::new();
    for line in lines(l) {
        let cells: Vec<String> = cells(&line, cur)
            .iter()
            .map(|c| format!("<td>{}</td>", esc(c)))
            .collect();
        rows.push(format!("<tr>{}</tr>", cells.join("")));
    }
    let mut per: std::collections::BTreeMap<String, Vec<(String, Decimal)>> =
        std::collections::BTreeMap::new();
    for line in lines(l) {
        let items = per.entry(line.owner.clone()).or_default();
        match items.iter_mut().find(|(n, _)| *n == line.component) {
            Some(item) => item.1 = item.1.checked_add(line.sums.unblended).unwrap_or(item.1),
            None => items.push((line.component.clone(), line.sums.unblended)),
        }
    }
    let charts: String = per
        .iter()
        .map(|(owner, items)| super::charts::bars(owner, items, cur))
        .collect();
    let head: String = HEAD.iter().fold(String::new(), |mut out, h| {
        let _ = write!(out, "<th>{h}</th>");
        out
    });
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>ddbcost — the bill</title>\n<style>body {{ font-family: -apple-system, \"Segoe UI\", Helvetica, Arial, sans-serif; margin: 2rem auto; padding: 0 1rem; max-width: 1100px; color: #222; }} table {{ border-collapse: collapse; display: block; overflow-x: auto; max-width: 100%; font-size: 0.85rem; }} th, td {{ border-bottom: 1px solid #ddd; padding: 0.3rem 0.5rem; text-align: left; }} svg {{ max-width: 100%; height: auto; }} .meta {{ color: #555; font-size: 0.9rem; }}</style>\n</head>\n<body>\n<h1>The bill</h1>\n<p class=\"meta\">{}</p>\n<table>\n<tr>{head}</tr>\n{}\n</table>\n{charts}\n<p class=\"meta\">{}</p>\n</body>\n</html>\n",
        esc(&header(l)),
        rows.join("\n"),
        esc(&footer(l))
    )
}
