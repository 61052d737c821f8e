//! `ddbcost prices diff BEFORE AFTER [--workload W]...`: the prices that changed between two
//! price tables (or two folders of them, matched by region), by how much, and — given
//! workloads — how each workload's monthly total moves. What finance asks when AWS changes
//! its prices.

use rust_decimal::Decimal;

use super::config::Run;
use super::pricing::Pricing;
use crate::cli::PricesDiffArgs;
use crate::engine;
use crate::error::Error;
use crate::load::{self, prices};
use crate::model::{PriceKey, PriceTable};
use crate::output;
use crate::report::money;

fn tables(arg: &str) -> Result<Vec<PriceTable>, Error> {
    if crate::confine::is_dir(std::path::Path::new(arg)) {
        return prices::directory(arg);
    }
    Ok(vec![prices::resolve(arg).map_err(|e| Error {
        kind: crate::error::ErrorKind::Usage,
        ..e
    })?])
}

fn show(v: Option<Decimal>) -> String {
    v.map_or_else(|| "absent".to_string(), |v| v.normalize().to_string())
}

/// The BEFORE table each AFTER table is compared with: the same id; else, where a region
/// holds one table on each side, the one of its region; else, two single tables, each other.
/// `None` for a table that is new. Tables of two currencies are never compared.
fn pairs(before: &[PriceTable], after: &[PriceTable]) -> Vec<Option<usize>> {
    let single = before.len() == 1 && after.len() == 1;
    let alone = |tables: &[PriceTable], region: &str| {
        tables.iter().filter(|t| t.region == region).count() == 1
    };
    after
        .iter()
        .map(|a| {
            before
                .iter()
                .position(|t| t.id == a.id)
                .or_else(|| {
                    (alone(before, &a.region) && alone(after, &a.region))
                        .then(|| before.iter().position(|t| t.region == a.region))
                        .flatten()
                })
                .or_else(|| single.then_some(0))
        })
        .collect()
}

pub(super) fn run(args: &PricesDiffArgs, run: &Run) -> Result<(), Error> {
    let before = tables(&args.before)?;
    let after = tables(&args.after)?;
    let single = before.len() == 1 && after.len() == 1;
    let matched = pairs(&before, &after);
    // A price in USD against one in EUR is no change of price: refused, never a percentage.
    for (a, m) in after.iter().zip(&matched) {
        if let Some(old) = m.and_then(|i| before.get(i))
            && old.currency != a.currency
        {
            return Err(Error::input(format!(
                "`{}` is in {} and `{}` in {}: prices in two currencies are not compared",
                old.id, old.currency, a.id, a.currency
            ))
            .help("Consider two price tables of one currency (`estimate --currency` converts an estimate, not a price table)."));
        }
    }
    let mut b = tabled::builder::Builder::default();
    b.push_record(["Region", "Price", "Before", "After", "Change"]);
    let (mut changed, mut new_tables, mut removed_tables) = (0usize, 0usize, 0usize);
    for (a, m) in after.iter().zip(&matched) {
        let Some(old) = m.and_then(|i| before.get(i)) else {
            b.push_record([
                a.region.clone(),
                "(new table)".into(),
                String::new(),
                a.id.clone(),
                String::new(),
            ]);
            new_tables = new_tables.saturating_add(1);
            continue;
        };
        let mut keys = PriceKey::all();
        for k in old.prices.keys().chain(a.prices.keys()) {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
        for key in keys {
            let (x, y) = (old.get(&key), a.get(&key));
            if x == y {
                continue;
            }
            changed = changed.saturating_add(1);
            let change = match (x, y) {
                (Some(x), Some(y)) => y
                    .checked_sub(x)
                    .and_then(|d| engine::percent_of(d, x))
                    .map_or_else(
                        || "—".to_string(),
                        |p| format!("{:+} %", p.round_dp(2).normalize()),
                    ),
                (None, Some(_)) => "now known".to_string(),
                (Some(_), None) => "now absent".to_string(),
                (None, None) => String::new(),
            };
            b.push_record([
                a.region.clone(),
                key.path().into_owned(),
                show(x),
                show(y),
                change,
            ]);
        }
    }
    // A table that AFTER no longer holds is a change too.
    for (i, old) in before.iter().enumerate() {
        if !matched.contains(&Some(i)) {
            b.push_record([
                old.region.clone(),
                "(removed table)".into(),
                old.id.clone(),
                String::new(),
                String::new(),
            ]);
            removed_tables = removed_tables.saturating_add(1);
        }
    }
    let mut t = b.build();
    t.with(tabled::settings::Style::rounded());

    run.layout.fit(&mut t);
    let mut text = format!(
        "ddbcost prices diff: {} -> {}\n{t}\n{changed} price(s) changed{}.\n",
        args.before,
        args.after,
        match (new_tables, removed_tables) {
            (0, 0) => String::new(),
            (n, r) => format!("; {n} table(s) new, {r} removed"),
        }
    );
    if !args.workloads.is_empty() {
        if !single {
            return Err(
                Error::usage("`--workload` needs two price tables, not folders")
                    .help("Consider `ddbcost prices diff OLD.yaml NEW.yaml --workload W.yaml`."),
            );
        }
        text.push_str(&workload_totals(args, run, &before[0], &after[0])?);
    }
    output::emit(None, &text)
}

/// Each workload's monthly total under `before`, then `after` (at the default settings).
fn workload_totals(
    args: &PricesDiffArgs,
    run: &Run,
    before: &PriceTable,
    after: &PriceTable,
) -> Result<String, Error> {
    let pricing = Pricing::defaults(None, &args.prices_dirs, run);
    let settings = pricing.settings(&load::SettingsOverrides::default());
    let mut w = tabled::builder::Builder::default();
    w.push_record(["Workload", "Before", "After", "Change"]);
    for file in &args.workloads {
        let text = load::read_file(file)?;
        let (workload, _) = load::parse_workload_at(&text, file, file, &run.samples)?;
        let mut totals = Vec::new();
        for table in [before, after] {
            let book = pricing.book_around(table.clone(), &workload)?;
            let e = engine::estimate(&workload, &book, &settings)
                .map_err(|e| Error::from(e).file(file.as_str()))?;
            totals.push(e.total);
        }
        let cur = &after.currency;
        let delta = totals[1].checked_sub(totals[0]).unwrap_or_default();
        w.push_record([
            workload.name.clone(),
            money::display(totals[0], cur),
            money::display(totals[1], cur),
            engine::percent_of(delta, totals[0]).map_or_else(
                || money::display(delta, cur),
                |p| {
                    format!(
                        "{} ({:+} %)",
                        money::display(delta, cur),
                        p.round_dp(2).normalize()
                    )
                },
            ),
        ]);
    }
    let mut wt = w.build();
    wt.with(tabled::settings::Style::rounded());

    run.layout.fit(&mut wt);
    Ok(format!(
        "{wt}\nMonthly totals at the default settings (730-hour month, binary GB, no free tier).\n"
    ))
}
