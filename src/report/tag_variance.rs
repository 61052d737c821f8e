//! `reconcile --by tag:KEY`: a team's DynamoDB budget before deploy against its bill after —
//! per value of a tag, what the workload's tagged tables were estimated at (their `tags:`)
//! beside what the bill's rows carrying that tag cost (CUR `resource_tags`, legacy
//! `resourceTags/user:*`, FOCUS `Tags`), and the variance.

use rust_decimal::Decimal;
use serde_json::json;

use super::money::{display, policy};
use super::tags::{BillGroup, Group};
use crate::bill::ledger::Ledger;
use crate::error::Error;

/// One tag value: estimated and billed (`None`: absent on that side), the variance of the
/// unblended cost from the estimate.
pub(crate) struct Row {
    pub(crate) value: String,
    pub(crate) estimated: Option<Decimal>,
    pub(crate) unblended: Option<Decimal>,
    pub(crate) effective: Option<Decimal>,
}

impl Row {
    /// Billed (unblended) − estimated, an absent side counting as zero.
    fn variance(&self) -> Decimal {
        self.unblended
            .unwrap_or_default()
            .checked_sub(self.estimated.unwrap_or_default())
            .unwrap_or_default()
    }

    /// The variance as a percentage of the estimate (`None` without one).
    fn percent(&self) -> Option<Decimal> {
        crate::engine::percent_of(self.variance(), self.estimated?)
    }
}

/// The two sides joined by tag value: the estimate's order, then values only the bill has.
#[must_use]
pub(crate) fn rows(estimated: &[Group], billed: &[BillGroup]) -> Vec<Row> {
    let mut out: Vec<Row> = estimated
        .iter()
        .map(|g| Row {
            value: g.value.clone(),
            estimated: Some(g.cost),
            unblended: None,
            effective: None,
        })
        .collect();
    for b in billed {
        match out.iter_mut().find(|r| r.value == b.value) {
            Some(r) => {
                r.unblended = Some(b.unblended);
                r.effective = Some(b.effective);
            }
            None => out.push(Row {
                value: b.value.clone(),
                estimated: None,
                unblended: Some(b.unblended),
                effective: Some(b.effective),
            }),
        }
    }
    out
}

fn cell(v: Option<Decimal>, currency: &str) -> String {
    v.map_or_else(|| "—".to_string(), |v| display(v, currency))
}

fn pct(p: Option<Decimal>) -> String {
    p.map_or_else(String::new, |p| {
        format!(
            "{}{} %",
            if p > Decimal::ZERO { "+" } else { "" },
            p.round_dp(1).normalize()
        )
    })
}

/// The table or Markdown view.
#[must_use]
pub(crate) fn table(rows: &[Row], l: &Ledger, key: &str, markdown: bool) -> String {
    let currency = l.currency.clone().unwrap_or_default();
    let period = l.period.clone().unwrap_or_default();
    let header = vec![
        format!("Tag `{key}`"),
        format!("Estimated ({currency})"),
        format!("Billed, unblended ({currency})"),
        format!("Billed, effective ({currency})"),
        format!("Variance ({currency})"),
        "Variance %".to_string(),
    ];
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.value.clone(),
                cell(r.estimated, &currency),
                cell(r.unblended, &currency),
                cell(r.effective, &currency),
                super::compare::signed(r.variance(), &currency),
                pct(r.percent()),
            ]
        })
        .collect();
    let note = format!(
        "Estimated: the workload's tables by their `tags:` (`(untagged)`: tables without `{key}`); billed: the bill's rows by the tag they carry (`(account)`: fees, credits, taxes and rows of no table). Variance: billed unblended − estimated. {}.",
        policy(&currency)
    );
    if markdown {
        let refs: Vec<&str> = header.iter().map(String::as_str).collect();
        format!(
            "## ddbcost reconcile by tag `{}` — {period}\n\n{}\n{}\n",
            super::markdown::cell(key),
            super::markdown::table(&refs, &[false, true, true, true, true, true], &body),
            super::markdown::cell(&note)
        )
    } else {
        let mut b = tabled::builder::Builder::default();
        b.push_record(header);
        for r in body {
            b.push_record(r);
        }
        let mut t = b.build();
        t.with(tabled::settings::Style::rounded());
        format!(
            "ddbcost reconcile: the {period} bill by tag `{key}`, estimate beside bill\n{t}\n{note}\n"
        )
    }
}

/// The JSON document (`ddbcost.reconcile-tags/v1`).
#[must_use]
pub(crate) fn json(rows: &[Row], l: &Ledger, key: &str) -> String {
    let n = |v: Option<Decimal>| v.map(|v| v.normalize().to_string());
    let doc = json!({
        "schema": "ddbcost.reconcile-tags/v1",
        "billing_period": l.period,
        "currency": l.currency,
        "tag": key,
        "rows": rows.iter().map(|r| json!({
            "value": r.value,
            "estimated": n(r.estimated),
            "unblended": n(r.unblended),
            "effective": n(r.effective),
            "variance": r.variance().normalize().to_string(),
            "variance_percent": n(r.percent()),
        })).collect::<Vec<_>>(),
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// The CSV view: one row per tag value, exact figures.
///
/// # Errors
/// The CSV cannot be written.
pub(crate) fn csv(rows: &[Row], l: &Ledger, key: &str) -> Result<String, Error> {
    let fail = |e: &dyn std::fmt::Display| Error::input(format!("cannot write CSV: {e}"));
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record([
        "billing_period",
        "currency",
        "tag_key",
        "tag_value",
        "estimated",
        "unblended",
        "effective",
        "variance",
    ])
    .map_err(|e| fail(&e))?;
    let n = |v: Option<Decimal>| v.map(|v| v.normalize().to_string()).unwrap_or_default();
    for r in rows {
        w.write_record([
            l.period.clone().unwrap_or_default(),
            l.currency.clone().unwrap_or_default(),
            key.to_string(),
            r.value.clone(),
            n(r.estimated),
            n(r.unblended),
            n(r.effective),
            r.variance().normalize().to_string(),
        ])
        .map_err(|e| fail(&e))?;
    }
    let bytes = w.into_inner().map_err(|e| fail(&e))?;
    String::from_utf8(bytes).map_err(|e| fail(&e))
}
