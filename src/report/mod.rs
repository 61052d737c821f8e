//! Rendering an `Estimate` for people (a terminal table, per line or per access pattern) and
//! for machines (JSON, CSV). Renderers are pure functions from the estimate to text; money is
//! rounded only through `money`, and machine formats keep the exact figure beside it. Terminal
//! tables are fitted to the `layout::Layout` their caller passes.

pub(crate) mod advise;
pub(crate) mod allocate;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod anomalies;
pub(crate) mod bill;
pub(crate) mod charts;
pub(crate) mod compare;
pub(crate) mod csv;
pub(crate) mod explain;
pub(crate) mod finance;
pub(crate) mod focus;
pub(crate) mod focus_allocated;
pub(crate) mod forecast;
pub(crate) mod groups;
pub(crate) mod html;
pub(crate) mod json;
pub(crate) mod keys;
pub(crate) mod labels;
pub(crate) mod layout;
pub(crate) mod markdown;
pub(crate) mod money;
pub(crate) mod notices;
pub(crate) mod once;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod once_check;
pub(crate) mod reconcile;
pub(crate) mod size;
mod svg_backend;
pub(crate) mod table;
pub(crate) mod tag_variance;
pub(crate) mod tags;
pub(crate) mod tenants;
pub(crate) mod usage;

/// The currency conversion an estimate is shown with, as one sentence for footers; `None`
/// when costs are in the price table's own currency.
#[must_use]
pub(crate) fn fx_statement(e: &crate::engine::Estimate) -> Option<String> {
    e.fx.as_ref().map(|fx| {
        format!(
            "Currency: costs and unit prices in {}, converted from the price table's {} at {}",
            fx.to,
            fx.from,
            fx.describe()
        )
    })
}

/// How a Database Savings Plan was used, as one sentence for footers; `None` without a plan.
/// Money is rounded to the currency's minor unit, shares to a tenth of a percent.
#[must_use]
pub(crate) fn savings_plan_statement(e: &crate::engine::Estimate) -> Option<String> {
    let sp = e.savings_plan.as_ref()?;
    let pct = |share: rust_decimal::Decimal| {
        crate::engine::percent(share)
            .unwrap_or_default()
            .round_dp(1)
            .normalize()
    };
    let c = &e.currency;
    Some(format!(
        "Database Savings Plan: {} {c} an hour ({} {c} this month); {}% of the commitment used; covers {}% of eligible usage ({} of {} {c} at list price); saves {} {c} against list; rates: {}",
        sp.per_hour.normalize(),
        money::display(sp.commitment, c),
        pct(sp.utilization()),
        pct(sp.coverage()),
        money::display(sp.covered, c),
        money::display(sp.eligible, c),
        money::display(sp.savings(), c),
        sp.sources.join("; ")
    ))
}

/// The minimum partitions of each table, as one sentence for footers (`None` without tables).
#[must_use]
pub(crate) fn partitions_statement(e: &crate::engine::Estimate) -> Option<String> {
    if e.partitions.is_empty() {
        return None;
    }
    let tables: Vec<String> = e
        .partitions
        .iter()
        .map(|p| {
            let size = match p.stored_gb {
                Some(gb) => format!(
                    "{} GB → {} by size",
                    money::quantity(gb.round_dp(1)),
                    p.by_size.normalize()
                ),
                None => "size unknown".to_string(),
            };
            format!(
                "{} ≥ {} ({size}; peak {} RCU/s, {} WCU/s → {} by throughput)",
                p.table,
                p.minimum().normalize(),
                money::quantity(p.peak_rcu.round_dp(0)),
                money::quantity(p.peak_wcu.round_dp(0)),
                p.by_throughput.normalize()
            )
        })
        .collect();
    Some(format!(
        "Partitions (an estimate: AWS does not publish them; one holds about 10 GB and serves 3,000 RCU/s and 1,000 WCU/s): {}",
        tables.join("; ")
    ))
}

/// How an estimate is broken down in the human and CSV views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Breakdown {
    /// One row per line item, grouped by table.
    #[default]
    Line,
    /// One row per access pattern, with what it is attributed.
    Pattern,
    /// One row per billing component (reads, writes, index writes, storage…).
    Component,
    /// One row per region the lines are billed in (tables in several regions, replicas).
    Region,
}

/// "Also priced by: …": the price tables besides the primary that priced a line, with their
/// dates and sources; `None` when the primary priced every line.
#[must_use]
pub(crate) fn other_tables_statement(e: &crate::engine::Estimate) -> Option<String> {
    if e.other_price_tables.is_empty() {
        return None;
    }
    Some(format!(
        "Also priced by: {}.",
        e.other_price_tables
            .iter()
            .map(|t| format!(
                "{} ({}, {}), effective {}; source: {}",
                t.id, t.region, t.currency, t.effective, t.source
            ))
            .collect::<Vec<_>>()
            .join("; ")
    ))
}

/// A page whose template refused to render: a bug in ddbcost, said as an error — never an
/// empty or half page with exit 0.
pub(crate) fn page_error(e: &minijinja::Error) -> crate::error::Error {
    crate::error::Error::input(format!("the page cannot be rendered: {e}"))
        .help("This is a bug in ddbcost: consider reporting it with the command that met it.")
}

#[cfg(test)]
mod tests {
    /// A template that fails is an error with exit code 1, not an empty page.
    #[test]
    fn a_page_that_cannot_render_is_an_error() {
        let mut env = minijinja::Environment::new();
        let e = env
            .add_template("broken", "{% for %}")
            .expect_err("a broken template");
        let error = super::page_error(&e);
        assert_eq!(error.exit_code(), 1);
        assert!(error.to_string().contains("the page cannot be rendered"));
    }
}
