//! `ddbcost prices` and `prices show`: the bundled price tables, and every price one holds
//! or lacks.

use super::config::Run;
use crate::cli::{ListFormat, PricesArgs};
use crate::error::{Error, ErrorKind};
use crate::load::prices;
use crate::model::{PriceKey, TableClass};
use crate::output;

/// `prices show`: every price the engine can ask for, known or absent.
pub(super) fn show(name: &str, run: &Run) -> Result<(), Error> {
    let table = prices::resolve(name).map_err(|e| Error {
        kind: ErrorKind::Usage,
        ..e
    })?;
    let mut b = tabled::builder::Builder::default();
    b.push_record(["Price", &format!("{} ({})", table.id, table.currency)]);
    // Every price the engine can ask for, and the table's own specific entries (transfer to a
    // named region) after the default they refine: the same prices `ddbcost prices` counts.
    let mut keys = PriceKey::all();
    // Vector indexes' prices, after the rest: few regions publish them.
    for class in [TableClass::Standard, TableClass::StandardIa] {
        keys.extend([
            PriceKey::VectorWriteGb(class),
            PriceKey::VectorSearchGb(class),
        ]);
    }
    // CloudWatch's prices for Contributor Insights.
    keys.extend([
        PriceKey::InsightsRuleMonth,
        PriceKey::InsightsEventsPerMillion,
    ]);
    let extras: Vec<PriceKey> = table
        .prices
        .keys()
        .filter(|k| !keys.contains(k))
        .cloned()
        .collect();
    let at = keys
        .iter()
        .position(|k| *k == PriceKey::InterRegionTransferGb(None))
        .map_or(keys.len(), |p| p.saturating_add(1));
    keys.splice(at..at, extras);
    let mut absent = 0usize;
    for key in &keys {
        let value = table.get(key).map_or_else(
            || {
                absent = absent.saturating_add(1);
                "absent".to_string()
            },
            |v| v.normalize().to_string(),
        );
        b.push_record([key.path().into_owned(), value]);
    }
    let mut t = b.build();
    t.with(tabled::settings::Style::rounded());

    run.layout.fit(&mut t);
    let mut text = format!(
        "{t}
{} of {} prices known; effective {}; source: {}
",
        keys.len().saturating_sub(absent),
        keys.len(),
        table.effective,
        table.source
    );
    if !table.transfer_out_tiers.is_empty() {
        let tiers: Vec<String> = table
            .transfer_out_tiers
            .iter()
            .map(|(from, price)| {
                format!(
                    "from {} GB {}",
                    crate::report::money::quantity(*from),
                    price.normalize()
                )
            })
            .collect();
        text.push_str(&format!(
            "Transfer out to the internet past the first tier (`transfer_out_tiers`): {}.\n",
            tiers.join("; ")
        ));
    }
    if let Some(gb) = table.transfer_out_free_gb {
        text.push_str(&format!(
            "Transfer out free each month with --free-tier (`transfer_out_free_gb`): {} GB.\n",
            gb.normalize()
        ));
    }
    if absent > 0 {
        text.push_str("A workload that needs an absent price is refused. To fill them from AWS: `ddbcost prices import FILE --output-dir DIR`, then `--prices-dir DIR`.\n");
    }
    output::emit(None, &text)
}

/// `prices`: the bundled tables.
pub(super) fn list(args: &PricesArgs, run: &Run) -> Result<(), Error> {
    let tables = prices::bundled()?;
    let text = match args.format {
        ListFormat::Json => {
            let rows: Vec<serde_json::Value> = tables
                .iter()
                .map(|t| serde_json::json!({"id": t.id, "region": t.region, "currency": t.currency, "effective": t.effective, "source": t.source, "file": t.file, "prices": t.prices.len()}))
                .collect();
            let mut s = serde_json::to_string_pretty(&rows).unwrap_or_default();
            s.push('\n');
            s
        }
        ListFormat::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            let _ = w.write_record(["id", "region", "currency", "effective", "prices", "source"]);
            for t in &tables {
                let _ = w.write_record([
                    t.id.clone(),
                    t.region.clone(),
                    t.currency.clone(),
                    t.effective.clone(),
                    t.prices.len().to_string(),
                    t.source.clone(),
                ]);
            }
            String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
        }
        ListFormat::Table | ListFormat::Markdown => {
            let mut b = tabled::builder::Builder::default();
            b.push_record([
                "Id",
                "Region",
                "Currency",
                "Effective",
                "Prices known",
                "File",
            ]);
            for t in &tables {
                b.push_record([
                    t.id.clone(),
                    t.region.clone(),
                    t.currency.clone(),
                    t.effective.clone(),
                    t.prices.len().to_string(),
                    t.file.clone(),
                ]);
            }
            let mut t = b.build();
            if args.format == ListFormat::Markdown {
                t.with(tabled::settings::Style::markdown());
            } else {
                t.with(tabled::settings::Style::rounded());

                run.layout.fit(&mut t);
            }
            format!("{t}\n")
        }
    };
    output::emit(None, &text)
}
